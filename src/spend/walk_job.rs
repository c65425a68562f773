//! The walk behind the home figures, as a job ([`crate::jobs`]): the sends list read from its
//! newest send ([`walk_sends`]), until the first send older
//! than the month before. Each page is counted into the [`Report`] as it arrives, so the first
//! figures show after one request and fill as the rest come; only sums are kept. The result
//! stays for the tab's session (Home and Teams read it) until refreshed. The header's jobs
//! indicator does not list it: its screens show it themselves.
//!
//! Job work: plain data in, the job's own client and result out; nothing of a screen.

use std::collections::HashSet;

use futures::future::LocalBoxFuture;
use leptos::prelude::{Update, WithUntracked};

use super::report::Report;
use crate::api::sends_walk::{walk_sends, Flow, WalkEnd};
use crate::api::ApiError;
use crate::browser::now_ms;
use crate::components::format::count;
use crate::i18n::{msg, t, M};
use crate::jobs::{self, JobCtx, JobEnd, JobHandle, JobKind, JobState};
use crate::routes;

/// The figures as the screens read them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Figures {
    /// Once the first page is read.
    pub(crate) report: Option<Report>,
    /// When the walk began (ms since the epoch): the figures are "as of" then.
    pub(crate) as_of_ms: i64,
    /// Why the walk stopped short, if it did.
    pub(crate) problem: Option<String>,
}

impl Figures {
    /// "This month: 2,140 of about 5,600 sends read" (or "all 5,612 sends read").
    pub(crate) fn progress_line(&self) -> Option<String> {
        self.report.as_ref().map(progress_of)
    }
}

/// "This month: 2,140 of about 5,600 sends read" (or "all 5,612 sends read") for `report`.
pub(crate) fn progress_of(report: &Report) -> String {
    let (of, exact) = report.this_month_estimate();
    let read = u64::from(report.read[0]);
    if exact {
        msg::spend_progress_all(read)
    } else {
        msg::spend_progress_some(&count(read), of.max(read))
    }
}

/// What home says while it reads this month's sends, in place of its answer: "Reading this
/// month's sends… 2,140 of about 5,600" (no count of anything concluded yet); `None` once this
/// month is all read.
pub(crate) fn reading_of(report: &Report) -> Option<String> {
    let (of, exact) = report.this_month_estimate();
    let read = u64::from(report.read[0]);
    (!exact).then(|| msg::home_reading_sends_some(&count(read), &count(of.max(read))))
}

/// The latest walk, running or ended and not dismissed.
pub(crate) fn latest() -> Option<JobHandle<Figures>> {
    jobs::latest(JobKind::SpendFigures)
}

/// Starts a walk; `only`: a sender's email, to count their sends alone.
pub(crate) fn start(only: Option<String>) -> JobHandle<Figures> {
    jobs::start(
        JobKind::SpendFigures,
        t(M::SpendJobTitle).into(),
        routes::HOME.to_owned(),
        only,
        run,
    )
}

fn run(only: Option<String>, ctx: JobCtx<Figures>) -> LocalBoxFuture<'static, JobEnd> {
    Box::pin(work(only, ctx))
}

/// How often a running walk shows its figures: redrawing the tables for every page would cost
/// more main-thread time than reading the page.
const SHOW_EVERY_MS: i64 = 1_000;

async fn work(only: Option<String>, ctx: JobCtx<Figures>) -> JobEnd {
    let started = now_ms();
    ctx.result.update(|f| f.as_of_ms = started);
    // A send pushed down a page by new arrivals is met twice: counted once.
    let mut seen: HashSet<u64> = HashSet::new();
    let mut report: Option<Report> = None;
    let mut shown_at = 0;
    let mut reached = false;
    let end = walk_sends(ctx.api, &ctx.lane, 1, |page, body| {
        let fresh: Vec<_> = body
            .sends
            .into_iter()
            .filter(|s| seen.insert(s.id))
            .collect();
        let counted =
            report.get_or_insert_with(|| Report::new(started / 1000, fresh.first(), only.clone()));
        reached = counted.add(&fresh);
        if reached || now_ms() - shown_at >= SHOW_EVERY_MS {
            shown_at = now_ms();
            show(&ctx, report.clone());
        }
        ctx.progress(u64::from(page), None, progress_line(&ctx));
        if reached || ctx.cancelled() {
            Flow::Stop
        } else {
            Flow::Next
        }
    })
    .await;
    show(&ctx, report);
    match end {
        WalkEnd::Stopped { error, .. } => stopped(&ctx, &error),
        WalkEnd::Finished { at_end, .. } => {
            let state = if ctx.cancelled() && !reached && !at_end {
                JobState::Cancelled
            } else {
                JobState::Done
            };
            JobEnd {
                state,
                note: progress_line(&ctx),
            }
        }
    }
}

fn progress_line(ctx: &JobCtx<Figures>) -> String {
    ctx.result
        .with_untracked(Figures::progress_line)
        .unwrap_or_default()
}

/// Puts the figures counted so far on screen.
fn show(ctx: &JobCtx<Figures>, report: Option<Report>) {
    ctx.result.update(|f| f.report = report);
}

fn stopped(ctx: &JobCtx<Figures>, error: &ApiError) -> JobEnd {
    let (state, note) = match error {
        ApiError::Cancelled => (JobState::Cancelled, t(M::SpendStopped).to_owned()),
        error => (
            JobState::Failed,
            msg::spend_read_failed(&error.user_message()),
        ),
    };
    ctx.result.update(|f| f.problem = Some(note.clone()));
    JobEnd { state, note }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;

    use leptos::prelude::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::api::testing::{platform, signed_in_app};
    use crate::http::transport::take_fake_platform;
    use crate::jobs::testing::{ended, failed};

    #[wasm_bindgen_test]
    fn while_it_reads_home_says_how_far_and_states_no_count() {
        let mut report = Report::new(1_780_000_000, None, None);
        let start = report.months[0].start(0);
        // Ten days into the month, the sends of its last five read: about twice as many.
        report.now = start + 10 * 86_400;
        report.oldest = Some(start + 5 * 86_400);
        report.read = [21, 0];
        assert_eq!(
            reading_of(&report).as_deref(),
            Some("Reading this month's sends… 21 of about 42")
        );
        // This month all read (a send of last month met): nothing to say of this month.
        report.read = [50, 3];
        assert_eq!(reading_of(&report), None);
        assert_eq!(progress_of(&report), "This month: all 50 sends read");
    }

    #[wasm_bindgen_test]
    async fn the_figures_walk_ends_done_failed_or_cancelled() {
        let _platform = take_fake_platform().await;
        let app = signed_in_app();
        app.with(jobs::init);
        let asked = Rc::new(RefCell::new(Vec::new()));

        // Every send is older than the month before: one page, and the figures are complete.
        platform(300, asked.clone(), |_| None);
        let job = app.with(|| start(None));
        let status = ended(&job).await;
        assert_eq!((status.state, asked.take()), (JobState::Done, vec![1]));
        assert!(job
            .result
            .with_untracked(|f| f.report.is_some() && f.problem.is_none()));

        // Refused for good (403): failed, in words, the figures saying so.
        platform(300, asked.clone(), |_| {
            Some((403, r#"{"error":"no"}"#.into()))
        });
        let job = app.with(|| start(None));
        let status = failed(&job, "The sends could not all be read: ").await;
        assert_eq!(
            job.result.with_untracked(|f| f.problem.clone()),
            Some(status.note)
        );

        // Cancelled while it waits out a "busy": stopped, partial.
        platform(300, asked.clone(), |_| {
            Some((429, r#"{"error":"busy"}"#.into()))
        });
        let job = app.with(|| start(None));
        while asked.borrow().is_empty() {
            crate::browser::sleep(std::time::Duration::from_millis(5)).await;
        }
        jobs::cancel(job.id);
        let status = ended(&job).await;
        assert_eq!(status.state, JobState::Cancelled);
        assert_eq!(status.note, "Stopped: the figures are partial.");
        // The refusals taught the tab's pacer a limit of 1: later tests start afresh.
        crate::http::pacing::token_pacer().forget();
    }
}
