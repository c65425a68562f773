//! A confirmation asked before a change that is hard to take back, in the console's one
//! modal dialog ([`Modal`]).

use std::cell::Cell;

use leptos::prelude::*;

use super::modal::Modal;
use crate::i18n::{live_text, M};

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
    let confirm = move |_| {
        open.set(false);
        on_confirm.run(());
    };

    view! {
        <Modal open class="confirm-dialog" labelled_by described_by>
            <h2 id=title_id class="confirm-dialog__title">{live_text(move || title.get())}</h2>
            <div id=body_id class="confirm-dialog__body">{children()}</div>
            <div class="confirm-dialog__actions">
                <button type="button" class="button" autofocus on:click=move |_| open.set(false)>
                    {M::CommonCancel}
                </button>
                <button type="button" class="button button--danger" on:click=confirm>
                    {live_text(move || confirm_label.get())}
                </button>
            </div>
        </Modal>
    }
}
