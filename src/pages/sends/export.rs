//! "Export CSV": the loaded sends (or those matching the filters) as a file, written by a job
//! ([`super::export_job`]) that goes on when the admin leaves the screen; here its button, a
//! progress bar and a way to cancel.

use leptos::prelude::*;

use super::export_job;
use super::memory;
use super::store::SendsStore;
use crate::components::format::count;
use crate::components::use_job;
use crate::i18n::{live_text, msg, M};
use crate::jobs::{JobKind, JobState};

#[derive(Clone, Debug, PartialEq)]
enum Export {
    Running { done: u64, of: u64 },
    Failed(String),
}

/// What the file holds: said with the button (its description, and on hover), not as a
/// paragraph above the table.
const EXPORT_NOTE: M = M::SendsExportNote;

/// "Export CSV" of the loaded sends (or those matching the filters), with its note.
#[component]
pub(crate) fn ExportCsv(store: SendsStore) -> impl IntoView {
    let job = use_job::<()>(JobKind::SendsExport);
    let on_export = move |_| {
        // Refused only while an export runs, and the button is disabled then.
        let _ = job.start(|| {
            export_job::start(
                memory::loaded(),
                store.export_rows(),
                store.export_file_part(),
            )
        });
    };
    let state = Signal::derive(move || {
        let status = job.status()?;
        match status.state {
            JobState::Running => Some(Export::Running {
                done: status.done,
                of: status.of.unwrap_or(0).max(store.export_count() as u64),
            }),
            JobState::Failed => Some(Export::Failed(status.note)),
            _ => None,
        }
    });
    view! {
        <div class="sends-export">
            <button
                type="button"
                class="button"
                on:click=on_export
                disabled={move || job.running() || store.export_count() == 0}
                data-testid="export-csv"
                aria-describedby="export-note"
                title=EXPORT_NOTE
            >
                {live_text(move || store.export_label())}
            </button>
            <ExportProgress state cancel=Callback::new(move |()| job.cancel()) />
            <p id="export-note" class="visually-hidden">
                {EXPORT_NOTE}
            </p>
            {move || match state.get() {
                Some(Export::Failed(e)) => Some(view! { <p class="field__error" role="alert">{e}</p> }),
                _ => None,
            }}
        </div>
    }
}

/// While an export runs: how far it is, and "Cancel export".
#[component]
fn ExportProgress(state: Signal<Option<Export>>, cancel: Callback<()>) -> impl IntoView {
    move || match state.get() {
        Some(Export::Running { done, of }) => Some(view! {
            <div class="load-all" data-testid="export-progress">
                <progress class="load-all__bar" aria-label=M::SendsExportRowsLabel max=of.to_string() value=done.to_string()>
                    {msg::sends_export_rows(&count(done), of)}
                </progress>
                <span role="status">{msg::sends_export_writing(&count(done), of)}</span>
                <button type="button" class="button button--danger" on:click=move |_| cancel.run(())>
                    {M::SendsExportCancel}
                </button>
            </div>
        }),
        _ => None,
    }
}
