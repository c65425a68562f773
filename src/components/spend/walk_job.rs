//! The walk behind the home figures, as a job ([`crate::jobs`]): the sends list read from its
//! newest send, a page of 100 at a time under the console's pacing, until the first send older
//! than the month before. Each page is counted into the [`Report`] as it arrives, so the first
//! figures show after one request and fill as the rest come; only sums are kept. The result
//! stays for the tab's session (Home and Teams read it) until refreshed. The header's jobs
//! indicator does not list it: its screens show it themselves.
//!
//! Job work: plain data in, the job's own client and result out; nothing of a screen.

use std::collections::HashSet;

use futures::future::LocalBoxFuture;
use gifting_api::paths::endpoint;
use gifting_api::rest::{PageQuery, SendPage};
use leptos::prelude::{Update, WithUntracked};

use super::report::Report;
use crate::api::ApiError;
use crate::browser::now_ms;
use crate::components::format::count;
use crate::jobs::{self, JobCtx, JobEnd, JobHandle, JobKind, JobState};
use crate::routes;

/// The most a page holds: fewest requests.
const PER_PAGE: u32 = 100;

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
        let report = self.report.as_ref()?;
        let (of, exact) = report.this_month_estimate();
        let read = u64::from(report.read[0]);
        Some(if exact {
            format!("This month: all {} sends read", count(read))
        } else {
            format!(
                "This month: {} of about {} sends read",
                count(read),
                count(of.max(read))
            )
        })
    }
}

/// The latest walk, running or ended and not dismissed.
pub(crate) fn latest() -> Option<JobHandle<Figures>> {
    jobs::latest(JobKind::SpendFigures)
}

/// Starts a walk; `only`: a sender's email, to count their sends alone.
pub(crate) fn start(only: Option<String>) -> JobHandle<Figures> {
    jobs::start(
        JobKind::SpendFigures,
        "Home figures: this month and last".into(),
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
    let mut page: u32 = 1;
    loop {
        let query = PageQuery::new(page, PER_PAGE);
        let call = endpoint::LIST_SENDS
            .call(&[])
            .query(&query.to_query_string());
        let body: SendPage = match ctx.api.get_paced(&ctx.lane, call).await {
            Ok(body) => body,
            Err(error) => {
                show(&ctx, report);
                return stopped(&ctx, &error);
            }
        };
        let fresh: Vec<_> = body
            .sends
            .into_iter()
            .filter(|s| seen.insert(s.id))
            .collect();
        let counted =
            report.get_or_insert_with(|| Report::new(started / 1000, fresh.first(), only.clone()));
        let stop = counted.add(&fresh);
        let at_end = u64::from(page) * u64::from(PER_PAGE) >= body.total_count;
        let done = stop || at_end || ctx.cancelled();
        if done || now_ms() - shown_at >= SHOW_EVERY_MS {
            shown_at = now_ms();
            show(&ctx, report.clone());
        }
        let line = ctx
            .result
            .with_untracked(Figures::progress_line)
            .unwrap_or_default();
        ctx.progress(u64::from(page), None, line.clone());
        if done {
            let state = if ctx.cancelled() && !stop && !at_end {
                JobState::Cancelled
            } else {
                JobState::Done
            };
            return JobEnd { state, note: line };
        }
        page = page.saturating_add(1);
    }
}

/// Puts the figures counted so far on screen.
fn show(ctx: &JobCtx<Figures>, report: Option<Report>) {
    ctx.result.update(|f| f.report = report);
}

fn stopped(ctx: &JobCtx<Figures>, error: &ApiError) -> JobEnd {
    let (state, note) = match error {
        ApiError::Cancelled => (
            JobState::Cancelled,
            "Stopped: the figures are partial.".to_owned(),
        ),
        error => (
            JobState::Failed,
            format!("The sends could not all be read: {}", error.user_message()),
        ),
    };
    ctx.result.update(|f| f.problem = Some(note.clone()));
    JobEnd { state, note }
}
