//! The one modal dialog of the console (confirmations, a product over the catalog).
//!
//! Built on the native modal `<dialog>`: the browser traps focus inside it, makes the rest of
//! the page inert, closes it on Escape and returns focus to where it was, which a hand-made
//! overlay would have to imitate.

use leptos::html;
use leptos::prelude::*;

/// A `<dialog>` shown as a modal while `open` is true. Every way it closes (Escape, a button
/// that sets `open` to false, a `<form method="dialog">`) sets `open` back to false and then
/// runs `on_close`.
#[component]
pub(crate) fn Modal(
    open: RwSignal<bool>,
    class: &'static str,
    /// The id of the element that names the dialog (its heading).
    #[prop(into)]
    labelled_by: String,
    #[prop(optional, into)] described_by: Option<String>,
    #[prop(optional)] testid: Option<&'static str>,
    #[prop(optional, into)] on_close: Option<Callback<()>>,
    children: Children,
) -> impl IntoView {
    let dialog = NodeRef::<html::Dialog>::new();
    Effect::new(move |_| {
        let want_open = open.get();
        let Some(element) = dialog.get() else {
            return;
        };
        if want_open {
            open_when_connected(element, 10);
        } else if element.open() {
            element.close();
        }
    });
    let closed = move |_| {
        open.set(false);
        if let Some(on_close) = on_close {
            on_close.run(());
        }
    };
    view! {
        <dialog
            class=class
            node_ref=dialog
            aria-labelledby=labelled_by
            aria-describedby=described_by
            data-testid=testid
            on:close=closed
        >
            {children()}
        </dialog>
    }
}

/// `showModal()` fails on a dialog not yet in the document, which is the case on a cold load
/// (the route renders before the app is mounted): try again on the next frames.
fn open_when_connected(dialog: web_sys::HtmlDialogElement, tries: u32) {
    if dialog.open() {
        return;
    }
    if dialog.is_connected() {
        // Fails only if the element left the document meanwhile; nothing to show then.
        let _ = dialog.show_modal();
    } else if tries > 0 {
        request_animation_frame(move || open_when_connected(dialog, tries - 1));
    }
}
