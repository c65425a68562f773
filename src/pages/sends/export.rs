//! "Export CSV": the loaded sends (or those matching the filters) as a file, built a slice at a
//! time ([`CsvSlices`]) with the browser free to paint and take clicks between slices, a
//! progress bar, and a way to cancel. Each slice is handed to the browser as it is made, so a
//! hundred thousand rows never sit in the wasm memory as one string.

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use leptos::prelude::*;
use send_wrapper::SendWrapper;

use super::csv::{file_name, head, CsvSlices};
use super::store::SendsStore;
use crate::browser::{now_ms, sleep};
use crate::components::download::{download_parts, local_date};

/// How long one slice may run before the export yields to the browser: with the Blob made of
/// it afterwards the task stays under the 50 ms that makes a long task (25 ms measured 52).
const SLICE_MS: i64 = 15;

#[derive(Clone, Debug, PartialEq)]
enum Export {
    Idle,
    Running { done: usize, of: usize },
    Failed(String),
}

/// A slice as a Blob of its own: the browser encodes it now, in this slice's task, and the
/// file at the end is a Blob of these (no copy of 40 MB in one task).
fn blob_of(text: String) -> wasm_bindgen::JsValue {
    let text = wasm_bindgen::JsValue::from(text);
    web_sys::Blob::new_with_str_sequence(&js_sys::Array::of1(&text)).map_or(text, Into::into)
}

/// Builds the file slice by slice; `None` when cancelled (or the screen is gone).
async fn build(
    store: SendsStore,
    state: RwSignal<Export>,
    stop: Rc<Cell<bool>>,
) -> Option<js_sys::Array> {
    let mut slices = CsvSlices::new(store.export_rows());
    let parts = js_sys::Array::of1(&blob_of(head()));
    loop {
        let started = now_ms();
        let slice = store
            .loaded()
            .try_with_untracked(|l| slices.next_slice(l, || now_ms() - started < SLICE_MS))?;
        let Some(slice) = slice else {
            return Some(parts);
        };
        parts.push(&blob_of(slice));
        let (done, of) = slices.progress();
        // `try_set` hands the value back when the screen is gone.
        if state.try_set(Export::Running { done, of }).is_some() {
            return None;
        }
        // A timeout, not a microtask: the browser paints and handles input in between.
        sleep(Duration::ZERO).await;
        if stop.get() {
            return None;
        }
    }
}

/// "Export CSV" of the loaded sends (or those matching the filters), with its note.
#[component]
pub(crate) fn ExportCsv(store: SendsStore) -> impl IntoView {
    let state = RwSignal::new(Export::Idle);
    let current = StoredValue::new(None::<SendWrapper<Rc<Cell<bool>>>>);
    let cancel = move || {
        if let Some(stop) = current.try_update_value(Option::take).flatten() {
            stop.set(true);
        }
        state.try_set(Export::Idle);
    };
    on_cleanup(cancel);
    let on_export = move |_| {
        cancel();
        let stop = Rc::new(Cell::new(false));
        current.set_value(Some(SendWrapper::new(stop.clone())));
        state.set(Export::Running {
            done: 0,
            of: store.export_count(),
        });
        leptos::task::spawn_local(async move {
            let Some(parts) = build(store, state, stop).await else {
                return;
            };
            let name = file_name(&local_date());
            let outcome = download_parts(&name, "text/csv;charset=utf-8", &parts);
            current.try_set_value(None);
            state.try_set(outcome.map_or_else(Export::Failed, |()| Export::Idle));
        });
    };
    let running = move || matches!(state.get(), Export::Running { .. });
    view! {
        <div class="sends-export">
            <button
                type="button"
                class="button"
                on:click=on_export
                disabled=move || running() || store.export_count() == 0
                data-testid="export-csv"
            >
                {move || store.export_label()}
            </button>
            <ExportProgress state cancel=Callback::new(move |()| cancel()) />
            <p class="field__hint">
                "One row per send, status history in one column. Cells starting with = + - or @ get a leading ' so spreadsheets do not run them as formulas."
            </p>
            {move || match state.get() {
                Export::Failed(e) => Some(view! { <p class="field__error" role="alert">{e}</p> }),
                _ => None,
            }}
        </div>
    }
}

/// While an export runs: how far it is, and "Cancel export".
#[component]
fn ExportProgress(state: RwSignal<Export>, cancel: Callback<()>) -> impl IntoView {
    move || match state.get() {
        Export::Running { done, of } => Some(view! {
            <div class="load-all" data-testid="export-progress">
                <progress class="load-all__bar" aria-label="Rows written" max=of.to_string() value=done.to_string()>
                    {format!("{done} of {of} rows")}
                </progress>
                <span role="status">{format!("Writing the file: {done} of {of} rows…")}</span>
                <button type="button" class="button button--danger" on:click=move |_| cancel.run(())>
                    "Cancel export"
                </button>
            </div>
        }),
        _ => None,
    }
}
