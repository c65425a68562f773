//! An import's writes as a job ([`crate::jobs`]): they go on when the admin leaves the screen,
//! show in the header's jobs indicator, and keep their results (and what the file and its
//! comparison were, so the screen shown again lists them and writes the results file) until
//! dismissed.
//!
//! Job work: plain data in, the job's own client and result out; nothing of a screen.

use std::sync::Arc;

use futures::future::LocalBoxFuture;
use leptos::prelude::{Update, WithUntracked};

use super::columns::Mapping;
use super::compare::Known;
use super::parse::Table;
use super::run_job::{run_writes, Outcome, Write};
use crate::components::jobs_indicator;
use crate::jobs::{self, JobCtx, JobEnd, JobHandle, JobKind, JobState};
use crate::routes;

/// What the import screen showed when the run started: it shows it again from here.
#[derive(Clone, Debug, Default)]
pub(crate) struct Source {
    pub(crate) file_name: String,
    pub(crate) table: Option<Arc<Table>>,
    pub(crate) mapping: Mapping,
    pub(crate) known: Option<Arc<Known>>,
    pub(crate) update_too: bool,
    pub(crate) deactivate: bool,
}

/// An import run as its screen shows it.
#[derive(Clone, Debug, Default)]
pub(crate) struct ImportRun {
    pub(crate) source: Source,
    /// Per row of the file, once decided.
    pub(crate) outcomes: Vec<Option<Outcome>>,
    /// Absent users the run deactivated or tried to: (email, outcome).
    pub(crate) absent_outcomes: Vec<(String, Outcome)>,
    /// (ended, to write).
    pub(crate) progress: (usize, usize),
}

/// The run's plan: the writes, and the outcome of every row that needs none.
pub(crate) struct Plan {
    pub(crate) writes: Vec<(usize, Write)>,
    pub(crate) outcomes: Vec<Option<Outcome>>,
    pub(crate) absent: Vec<(String, String)>,
}

/// Starts the writes of `plan` as a job.
pub(crate) fn start(source: Source, plan: Plan) -> JobHandle<ImportRun> {
    let title = format!(
        "Import of {}: {} writes",
        source.file_name,
        plan.writes.len()
    );
    jobs_indicator::show();
    jobs::start(
        JobKind::Import,
        title,
        routes::IMPORT_USERS.to_owned(),
        (source, plan),
        run,
    )
}

fn run((source, plan): (Source, Plan), ctx: JobCtx<ImportRun>) -> LocalBoxFuture<'static, JobEnd> {
    Box::pin(work(source, plan, ctx))
}

async fn work(source: Source, plan: Plan, ctx: JobCtx<ImportRun>) -> JobEnd {
    let Plan {
        writes,
        outcomes,
        absent,
    } = plan;
    let rows = outcomes.len();
    let to_write = writes.len();
    ctx.result.update(|r| {
        *r = ImportRun {
            source,
            outcomes,
            absent_outcomes: Vec::new(),
            progress: (0, to_write),
        }
    });
    ctx.progress(0, Some(to_write as u64), format!("0 of {to_write} writes"));
    let report = |index: usize, outcome: Outcome| {
        ctx.result.update(|r| {
            if index < rows {
                if let Some(slot) = r.outcomes.get_mut(index) {
                    *slot = Some(outcome);
                }
            } else if let Some((_, email)) = absent.get(index - rows) {
                r.absent_outcomes.push((email.clone(), outcome));
            }
            r.progress.0 += 1;
        });
        let done = ctx.result.with_untracked(|r| r.progress.0);
        ctx.progress(
            done as u64,
            Some(to_write as u64),
            format!("{done} of {to_write} writes"),
        );
    };
    run_writes(ctx.api, &ctx.pacer, writes, report).await;
    let state = if ctx.cancelled() {
        JobState::Cancelled
    } else {
        JobState::Done
    };
    let note = ctx.result.with_untracked(summary);
    JobEnd { state, note }
}

/// "38 created, 2 failed, 1 not run", counting every row and absent user.
fn summary(run: &ImportRun) -> String {
    let mut counts: Vec<(&'static str, usize)> = Vec::new();
    let all = run
        .outcomes
        .iter()
        .flatten()
        .chain(run.absent_outcomes.iter().map(|(_, o)| o));
    for outcome in all {
        let word = outcome.word();
        match counts.iter_mut().find(|(w, _)| *w == word) {
            Some((_, n)) => *n += 1,
            None => counts.push((word, 1)),
        }
    }
    let parts: Vec<String> = counts.iter().map(|(w, n)| format!("{n} {w}")).collect();
    if parts.is_empty() {
        "Nothing to write.".into()
    } else {
        format!("{}.", parts.join(", "))
    }
}
