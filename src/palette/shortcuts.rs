//! Keyboard shortcuts: `/` puts the cursor in the current screen's search or filter field,
//! `?` lists the shortcuts, Ctrl-K (⌘-K) opens the command palette once signed in. `/` and `?`
//! do not fire while the admin is typing in a field, so both characters can still be typed
//! anywhere.
//!
//! The list and the palette are one chunk of the split build (`shortcuts`), fetched the first
//! time either is asked for, or ahead with the screens once the signed-in console is idle
//! ([`prefetch`]): the first load carries only the listener.

use std::any::Any;
use std::cell::RefCell;

use leptos::ev::KeyboardEvent;
use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use wasm_bindgen::JsCast;

use super::dialog::Palette;
use super::preferences::Preferences;
use crate::auth::use_auth;
use crate::components::Modal;
use crate::i18n::{t, M};

thread_local! {
    /// The dialogs, mounted the first time one is asked for, kept so they stay (dropping them
    /// unmounts them).
    static MOUNTED: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
    /// The dialogs' switches, for the header's Search button ([`open_palette`]).
    static OPENERS: std::cell::Cell<Option<Open>> = const { std::cell::Cell::new(None) };
}

/// Which dialog is open, if any.
#[derive(Clone, Copy)]
struct Open {
    list: RwSignal<bool>,
    palette: RwSignal<bool>,
    preferences: RwSignal<bool>,
}

/// A key as the list shows it: a sign, or the keyboard's word for it (which the language
/// names: "Ctrl" is "Strg" on a German keyboard).
#[derive(Clone, Copy)]
enum Key {
    Sign(&'static str),
    Word(M),
}

/// The shortcuts, as the list shows them.
const SHORTCUTS: [(Key, M); 4] = [
    (Key::Word(M::PaletteKeyCtrlK), M::PaletteShortcutPalette),
    (Key::Sign("/"), M::PaletteShortcutSearch),
    (Key::Sign("?"), M::PaletteShortcutList),
    (Key::Word(M::PaletteKeyEsc), M::PaletteShortcutClose),
];

/// The field `/` focuses: the screen's search box, or else its first filter or form field.
const SEARCH_FIELD: &str = "main input[type=search]";
const FIRST_FIELD: &str =
    "main :is(input:not([type=hidden]):not([type=checkbox]), select, textarea):not([disabled])";

/// Whether `ev` is Ctrl-K or ⌘-K.
fn is_palette_key(ev: &KeyboardEvent) -> bool {
    (ev.ctrl_key() || ev.meta_key()) && ev.key() == "k"
}

/// Listens for the shortcuts while the app runs; `?` opens the list's dialog, Ctrl/⌘-K the
/// palette.
#[component]
pub(crate) fn KeyboardShortcuts() -> impl IntoView {
    let auth = use_auth();
    let open = Open {
        list: RwSignal::new(false),
        palette: RwSignal::new(false),
        preferences: RwSignal::new(false),
    };
    OPENERS.with(|o| o.set(Some(open)));
    let listener = window_event_listener(leptos::ev::keydown, move |ev| {
        let which = if ev.default_prevented() {
            return;
        } else if is_palette_key(&ev) && auth.is_signed_in() {
            open.palette
        } else if ev.ctrl_key() || ev.meta_key() || ev.alt_key() || typing(&ev) {
            return;
        } else {
            match ev.key().as_str() {
                "/" if focus_first(&[SEARCH_FIELD, FIRST_FIELD]) => {
                    ev.prevent_default();
                    return;
                }
                "?" => open.list,
                _ => return,
            }
        };
        ev.prevent_default();
        open_when_there(open, which);
    });
    on_cleanup(move || {
        listener.remove();
        OPENERS.with(|o| o.set(None));
        MOUNTED.with(|m| m.borrow_mut().take());
    });
}

/// Shows `which` once the dialogs' chunk is there; a failed download is tried again on the
/// next press.
fn open_when_there(open: Open, which: RwSignal<bool>) {
    leptos::task::spawn_local(async move {
        if show(open).await.is_ok() {
            which.try_set(true);
        }
    });
}

/// Opens the palette, as Ctrl-K does: for a pointer or a touch screen, which have no keys.
pub(crate) fn open_palette() {
    if let Some(open) = OPENERS.with(std::cell::Cell::get) {
        open_when_there(open, open.palette);
    }
}

/// Opens the preferences' dialog.
pub(crate) fn open_preferences() {
    if let Some(open) = OPENERS.with(std::cell::Cell::get) {
        open_when_there(open, open.preferences);
    }
}

/// Starts downloading the dialogs' chunk without showing any.
pub(crate) fn prefetch() {
    leptos::task::spawn_local(async {
        let _ = prefetch_dialogs().await;
    });
}

/// Mounts the dialogs at the end of the page, unless they are there.
#[cfg(feature = "split")]
#[leptos::wasm_split::wasm_split(shortcuts, wasm_split_path = ::leptos::wasm_split, fallible, preload(prefetch_dialogs))]
fn show(open: Open) -> Result<(), SplitLoaderError> {
    mount(open);
    Ok(())
}

#[cfg(not(feature = "split"))]
async fn show(open: Open) -> Result<(), SplitLoaderError> {
    mount(open);
    Ok(())
}

#[cfg(not(feature = "split"))]
async fn prefetch_dialogs() -> Result<(), SplitLoaderError> {
    Ok(())
}

fn mount(open: Open) {
    if MOUNTED.with(|m| m.borrow().is_some()) {
        return;
    }
    let Some(body) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
    else {
        return;
    };
    // The palette reads what it searches from its first opening on, not before.
    let palette_used =
        Memo::new(move |used: Option<&bool>| used.copied().unwrap_or(false) || open.palette.get());
    // Under the app's owner: they live as long as the app.
    let mounted = crate::jobs::with_app_owner(|| {
        leptos::mount::mount_to(body, move || {
            view! {
                <ShortcutsList open=open.list />
                <Preferences open=open.preferences />
                <Show when=move || palette_used.get()>
                    <Palette open=open.palette />
                </Show>
            }
        })
    });
    MOUNTED.with(|m| *m.borrow_mut() = Some(Box::new(mounted)));
}

/// The list of the shortcuts, in a dialog shown while `open`.
#[component]
fn ShortcutsList(open: RwSignal<bool>) -> impl IntoView {
    let rows = SHORTCUTS
        .iter()
        .map(|(key, what)| {
            let key = *key;
            let key = move || match key {
                Key::Sign(sign) => sign,
                Key::Word(word) => t(word),
            };
            view! { <dt><kbd>{key}</kbd></dt><dd>{*what}</dd> }
        })
        .collect_view();
    view! {
        <Modal open class="confirm-dialog shortcuts" labelled_by="shortcuts-title">
            <h2 id="shortcuts-title" class="confirm-dialog__title">{M::PaletteShortcuts}</h2>
            <dl class="shortcuts__list">{rows}</dl>
            <div class="confirm-dialog__actions">
                <button type="button" class="button" autofocus on:click=move |_| open.set(false)>
                    {M::PaletteClose}
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
