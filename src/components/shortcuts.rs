//! Keyboard shortcuts: `/` puts the cursor in the current screen's search or filter field,
//! `?` lists the shortcuts. Neither fires while the admin is typing in a field, so both
//! characters can still be typed anywhere.
//!
//! The list's dialog is a chunk of the split build (`shortcuts`), fetched the first time `?` is
//! pressed, or ahead with the screens once the signed-in console is idle ([`prefetch`]): the
//! first load carries only the listener.

use std::any::Any;
use std::cell::RefCell;

use leptos::ev::KeyboardEvent;
use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use wasm_bindgen::JsCast;

use super::Modal;

thread_local! {
    /// The list's dialog, mounted the first time it is asked for, kept so it stays (dropping it
    /// unmounts it).
    static MOUNTED: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
}

/// The shortcuts, as the list shows them.
const SHORTCUTS: [(&str, &str); 4] = [
    (
        "Ctrl K",
        "Go to a screen, user, team group, campaign, send or product (⌘ K on a Mac)",
    ),
    ("/", "Search or filter on this screen"),
    ("?", "Show these shortcuts"),
    ("Esc", "Close a dialog"),
];

/// The field `/` focuses: the screen's search box, or else its first filter or form field.
const SEARCH_FIELD: &str = "main input[type=search]";
const FIRST_FIELD: &str =
    "main :is(input:not([type=hidden]):not([type=checkbox]), select, textarea):not([disabled])";

/// Listens for the shortcuts while the app runs; `?` opens the list's dialog.
#[component]
pub(crate) fn KeyboardShortcuts() -> impl IntoView {
    let open = RwSignal::new(false);
    let listener = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.default_prevented() || ev.ctrl_key() || ev.meta_key() || ev.alt_key() || typing(&ev) {
            return;
        }
        match ev.key().as_str() {
            "/" if focus_first(&[SEARCH_FIELD, FIRST_FIELD]) => ev.prevent_default(),
            "?" => {
                ev.prevent_default();
                // Shown once its chunk is there; a failed download is tried again on the next `?`.
                leptos::task::spawn_local(async move {
                    if show_list(open).await.is_ok() {
                        open.set(true);
                    }
                });
            }
            _ => {}
        }
    });
    on_cleanup(move || {
        listener.remove();
        MOUNTED.with(|m| m.borrow_mut().take());
    });
}

/// Starts downloading the list's chunk without showing it.
pub(crate) fn prefetch() {
    leptos::task::spawn_local(async {
        let _ = prefetch_list().await;
    });
}

/// Mounts the list's dialog at the end of the page, unless it is there, with `open` saying
/// whether it is shown.
#[cfg(feature = "split")]
#[leptos::wasm_split::wasm_split(shortcuts, wasm_split_path = ::leptos::wasm_split, fallible, preload(prefetch_list))]
fn show_list(open: RwSignal<bool>) -> Result<(), SplitLoaderError> {
    mount_list(open);
    Ok(())
}

#[cfg(not(feature = "split"))]
async fn show_list(open: RwSignal<bool>) -> Result<(), SplitLoaderError> {
    mount_list(open);
    Ok(())
}

#[cfg(not(feature = "split"))]
async fn prefetch_list() -> Result<(), SplitLoaderError> {
    Ok(())
}

fn mount_list(open: RwSignal<bool>) {
    if MOUNTED.with(|m| m.borrow().is_some()) {
        return;
    }
    let Some(body) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
    else {
        return;
    };
    // Under the app's owner: it lives as long as the app.
    let mounted = crate::jobs::with_app_owner(|| {
        leptos::mount::mount_to(body, move || view! { <ShortcutsList open /> })
    });
    MOUNTED.with(|m| *m.borrow_mut() = Some(Box::new(mounted)));
}

/// The list of the shortcuts, in a dialog shown while `open`.
#[component]
fn ShortcutsList(open: RwSignal<bool>) -> impl IntoView {
    let rows = SHORTCUTS
        .iter()
        .map(|(key, what)| view! { <dt><kbd>{*key}</kbd></dt><dd>{*what}</dd> })
        .collect_view();
    view! {
        <Modal open class="confirm-dialog shortcuts" labelled_by="shortcuts-title">
            <h2 id="shortcuts-title" class="confirm-dialog__title">"Keyboard shortcuts"</h2>
            <dl class="shortcuts__list">{rows}</dl>
            <div class="confirm-dialog__actions">
                <button type="button" class="button" autofocus on:click=move |_| open.set(false)>
                    "Close"
                </button>
            </div>
        </Modal>
    }
}

/// Whether the key goes into a field (or a dialog is open, which has its own keys).
fn typing(ev: &KeyboardEvent) -> bool {
    let Some(target) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return false;
    };
    target
        .closest("input, textarea, select, [contenteditable], dialog[open]")
        .ok()
        .flatten()
        .is_some()
}

/// Focuses the first element the first matching selector finds; `false` if none did.
fn focus_first(selectors: &[&str]) -> bool {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return false;
    };
    selectors.iter().any(|selector| {
        let found = document.query_selector(selector).ok().flatten();
        match found.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            Some(element) => element.focus().is_ok(),
            None => false,
        }
    })
}
