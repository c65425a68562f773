//! A confirmation asked before a change that is hard to take back.
//!
//! Built on the native modal `<dialog>`: the browser traps focus inside it, makes the rest of
//! the page inert, closes it on Escape and returns focus to where it was, which a hand-made
//! overlay would have to imitate.

use std::cell::Cell;

use leptos::html;
use leptos::prelude::*;

thread_local! {
    static NEXT_ID: Cell<u32> = const { Cell::new(0) };
}

/// `<ConfirmDialog open title="Deactivate Jane Doe?" confirm_label="Deactivate" on_confirm>`
/// with the explanation as children. Cancel gets the focus first, so Enter on an unread dialog
/// changes nothing.
#[component]
pub(crate) fn ConfirmDialog(
    /// Shown while true; set back to false when the dialog closes in any way.
    open: RwSignal<bool>,
    #[prop(into)] title: Signal<String>,
    #[prop(into)] confirm_label: Signal<String>,
    /// Called once when the admin confirms (the dialog is closed first).
    #[prop(into)]
    on_confirm: Callback<()>,
    /// What the change does, in words.
    children: Children,
) -> impl IntoView {
    let n = NEXT_ID.with(|c| {
        let n = c.get();
        c.set(n + 1);
        n
    });
    let title_id = format!("confirm-dialog-{n}-title");
    let body_id = format!("confirm-dialog-{n}-body");
    let (labelled_by, described_by) = (title_id.clone(), body_id.clone());
    let dialog = NodeRef::<html::Dialog>::new();

    Effect::new(move |_| {
        let want_open = open.get();
        let Some(element) = dialog.get() else {
            return;
        };
        if want_open && !element.open() {
            // Fails only if the element left the document; nothing to show then.
            let _ = element.show_modal();
        } else if !want_open && element.open() {
            element.close();
        }
    });

    let confirm = move |_| {
        open.set(false);
        on_confirm.run(());
    };

    view! {
        <dialog
            class="confirm-dialog"
            node_ref=dialog
            aria-labelledby=labelled_by
            aria-describedby=described_by
            // Escape, the Cancel button, or the form method=dialog all end here.
            on:close=move |_| open.set(false)
        >
            <h2 id=title_id class="confirm-dialog__title">{move || title.get()}</h2>
            <div id=body_id class="confirm-dialog__body">{children()}</div>
            <div class="confirm-dialog__actions">
                <button type="button" class="button" autofocus on:click=move |_| open.set(false)>
                    "Cancel"
                </button>
                <button type="button" class="button button--danger" on:click=confirm>
                    {move || confirm_label.get()}
                </button>
            </div>
        </dialog>
    }
}
