//! The command palette: Ctrl-K (⌘-K on a Mac) anywhere in the signed-in console opens a box
//! that goes to a screen, a user, a team group, a campaign, a send by its number or a
//! product, by keyboard alone.
//!
//! The listener comes with the signed-in extras; the palette itself is a chunk of its own
//! (`palette`), fetched the first time it is asked for.

mod dialog;
mod hits;
mod sources;

use leptos::ev::KeyboardEvent;
use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;

/// Whether `ev` is Ctrl-K or ⌘-K (and nothing more).
fn is_palette_key(ev: &KeyboardEvent) -> bool {
    (ev.ctrl_key() || ev.meta_key())
        && !ev.alt_key()
        && !ev.shift_key()
        && ev.key().eq_ignore_ascii_case("k")
}

/// Another dialog is open (a confirmation): it keeps the keyboard.
fn other_dialog_open() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector("dialog[open]:not(.palette)")
                .ok()
                .flatten()
        })
        .is_some()
}

/// Listens for Ctrl/⌘-K; mounts the palette once its chunk is there.
#[component]
pub(crate) fn PaletteLauncher() -> impl IntoView {
    let open = RwSignal::new(false);
    let palette = RwSignal::new_local(None::<AnyView>);
    let asked = StoredValue::new(false);
    let owner = Owner::current();
    let listener = window_event_listener(leptos::ev::keydown, move |ev| {
        if !is_palette_key(&ev) || other_dialog_open() {
            return;
        }
        ev.prevent_default();
        if asked.get_value() {
            open.set(true);
            return;
        }
        asked.set_value(true);
        let Some(owner) = owner.clone() else {
            return;
        };
        // Under the launcher's owner, so the palette has the router and the app's contexts.
        owner.with(|| {
            leptos::task::spawn_local_scoped(async move {
                match palette_view(open).await {
                    Ok(view) => {
                        palette.try_set(Some(view));
                        open.try_set(true);
                    }
                    // Not fetched (offline): the next Ctrl-K tries again.
                    Err(_) => {
                        asked.try_set_value(false);
                    }
                }
            });
        });
    });
    on_cleanup(move || listener.remove());
    // Mounted once it arrives (not `Clone`, so taken out once).
    move || {
        palette.track();
        palette.try_update_untracked(Option::take).flatten()
    }
}

#[cfg(feature = "split")]
#[leptos::wasm_split::wasm_split(palette, wasm_split_path = ::leptos::wasm_split, fallible)]
fn palette_view(open: RwSignal<bool>) -> Result<AnyView, SplitLoaderError> {
    Ok(view! { <dialog::Palette open /> }.into_any())
}

#[cfg(not(feature = "split"))]
async fn palette_view(open: RwSignal<bool>) -> Result<AnyView, SplitLoaderError> {
    Ok(view! { <dialog::Palette open /> }.into_any())
}
