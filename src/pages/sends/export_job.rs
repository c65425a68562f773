//! "Export CSV" as a job ([`crate::jobs`]): the file is built a slice at a time
//! ([`CsvSlices`]) with the browser free to paint and take clicks between slices, goes on when
//! the admin leaves the screen, and is handed to the browser as a download at the end. Each
//! slice becomes a Blob as it is made, so a hundred thousand rows never sit in the wasm memory
//! as one string.
//!
//! Job work: plain data in, the job's own result out; nothing of a screen.

use std::time::Duration;

use futures::future::LocalBoxFuture;
use leptos::prelude::{ArcRwSignal, WithUntracked};

use super::csv::{file_name, head, CsvSlices};
use super::loaded::LoadedSends;
use crate::browser::{now_ms, sleep};
use crate::components::download::{download_parts, local_date};
use crate::components::format::count;
use crate::components::jobs_indicator;
use crate::i18n::{msg, t, M};
use crate::jobs::{self, JobCtx, JobEnd, JobHandle, JobKind, JobState};
use crate::routes;

/// How long one slice may run before the export yields to the browser: with the Blob made of
/// it afterwards the task stays under the 50 ms that makes a long task.
const SLICE_MS: i64 = 15;

/// Starts writing `rows` (of `loaded`, in this order) to a file, as a job; `filtered` goes
/// into the file's name ([`file_name`]). It keeps no result: the file is the browser's
/// download; its progress is the job's (rows written, of how many).
pub(crate) fn start(
    loaded: ArcRwSignal<LoadedSends>,
    rows: Vec<u32>,
    filtered: String,
) -> JobHandle<()> {
    let title = msg::sends_export_title(rows.len() as u64);
    jobs_indicator::show();
    jobs::start(
        JobKind::SendsExport,
        title,
        routes::SENDS.to_owned(),
        (loaded, rows, filtered),
        run,
    )
}

fn run(
    (loaded, rows, filtered): (ArcRwSignal<LoadedSends>, Vec<u32>, String),
    ctx: JobCtx<()>,
) -> LocalBoxFuture<'static, JobEnd> {
    Box::pin(work(loaded, rows, filtered, ctx))
}

/// A slice as a Blob of its own: the browser encodes it now, in this slice's task, and the
/// file at the end is a Blob of these (no copy of 40 MB in one task).
fn blob_of(text: String) -> wasm_bindgen::JsValue {
    let text = wasm_bindgen::JsValue::from(text);
    web_sys::Blob::new_with_str_sequence(&js_sys::Array::of1(&text)).map_or(text, Into::into)
}

async fn work(
    loaded: ArcRwSignal<LoadedSends>,
    rows: Vec<u32>,
    filtered: String,
    ctx: JobCtx<()>,
) -> JobEnd {
    let mut slices = CsvSlices::new(rows);
    let parts = js_sys::Array::of1(&blob_of(head()));
    loop {
        let started = now_ms();
        let slice =
            loaded.with_untracked(|l| slices.next_slice(l, || now_ms() - started < SLICE_MS));
        let Some(slice) = slice else {
            break;
        };
        parts.push(&blob_of(slice));
        let (done, of) = slices.progress();
        ctx.progress(
            done as u64,
            Some(of as u64),
            msg::sends_export_progress(&count(done as u64), of as u64),
        );
        // A timeout, not a microtask: the browser paints and handles input in between.
        sleep(Duration::ZERO).await;
        if ctx.cancelled() {
            return JobEnd {
                state: JobState::Cancelled,
                note: t(M::SendsExportCancelled).into(),
            };
        }
    }
    let name = file_name(&local_date(), &filtered);
    match download_parts(&name, "text/csv;charset=utf-8", &parts) {
        Ok(()) => JobEnd {
            state: JobState::Done,
            note: msg::sends_export_saved(&name),
        },
        Err(message) => JobEnd {
            state: JobState::Failed,
            note: message,
        },
    }
}

#[cfg(test)]
mod tests {
    use leptos::prelude::Owner;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::api::testing::signed_in_app;
    use crate::http::transport::take_fake_platform;
    use crate::jobs::testing::ended;
    use crate::pages::sends::loaded::tests::send;

    /// `n` sends loaded, and the rows of all of them.
    fn loaded(n: u64) -> (ArcRwSignal<LoadedSends>, Vec<u32>) {
        let mut loaded = LoadedSends::default();
        let sends: Vec<_> = (1..=n).rev().map(send).collect();
        loaded.insert_page(1, n as u32, n, &sends);
        let rows = loaded.order().collect();
        (ArcRwSignal::new(loaded), rows)
    }

    fn app() -> Owner {
        let app = signed_in_app();
        app.with(jobs::init);
        app
    }

    #[wasm_bindgen_test]
    async fn an_export_writes_every_row_then_hands_the_file_over_or_says_why_not() {
        // No request is sent; the turn keeps the jobs of other tests from crowding this one's.
        let _turn = take_fake_platform().await;
        let app = app();
        let (sends, rows) = loaded(300);
        let job = app.with(|| start(sends, rows, String::new()));
        let status = ended(&job).await;
        assert_eq!(
            (status.done, status.of),
            (300, Some(300)),
            "every row written"
        );
        // Node has no page to hand a download to: the job fails and says so, saving nothing.
        assert_eq!(
            (status.state, status.note.as_str()),
            (JobState::Failed, "no document")
        );
    }

    #[wasm_bindgen_test]
    async fn an_export_cancelled_saves_no_file() {
        let _turn = take_fake_platform().await;
        let app = app();
        let (sends, rows) = loaded(300);
        let job = app.with(|| start(sends, rows, String::new()));
        // Cancelled before its first slice: it stops after that slice.
        jobs::cancel(job.id);
        let status = ended(&job).await;
        assert_eq!(
            (status.state, status.note.as_str()),
            (JobState::Cancelled, "Export cancelled: no file was saved.")
        );
    }
}
