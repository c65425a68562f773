//! An import's writes as a job ([`crate::jobs`]): they go on when the admin leaves the screen,
//! show in the header's jobs indicator, and keep their results (and what the file and its
//! comparison were, so the screen shown again lists them and writes the results file) until
//! dismissed.
//!
//! Job work: plain data in, the job's own client and result out; nothing of a screen.

use std::collections::HashMap;
use std::sync::Arc;

use futures::future::LocalBoxFuture;
use gifting_api::scim::{ReplaceUser, ScimUser};
use gifting_api::Role;
use leptos::prelude::{Update, WithUntracked};

use super::columns::Mapping;
use super::compare::Known;
use super::parse::Table;
use super::run_job::{run_writes, Outcome, Write};
use crate::api::ApiError;
use crate::components::jobs_indicator;
use crate::jobs::{self, JobCtx, JobEnd, JobHandle, JobKind, JobState};
use crate::pages::users::bulk::{answer_summary, Picked};
use crate::pages::users::guard::{self, AdminCount, Reversal};
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
    /// What "Undo this import" puts back: one per write that landed.
    pub(crate) reversals: Vec<Reversal>,
    /// The user before and after each write that landed, by row (then absent user, in the
    /// order of `absent_outcomes`), for the results file.
    pub(crate) before_after: HashMap<usize, (String, String)>,
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
            progress: (0, to_write),
            ..ImportRun::default()
        }
    });
    let (directory, you, count) = match admins_after(&ctx, &writes).await {
        Ok(found) => found,
        Err(end) => return end,
    };
    if let Err(end) = guard::confirm_losses(&ctx, &count, LOSS).await {
        return end;
    }
    ctx.progress(0, Some(to_write as u64), format!("0 of {to_write} writes"));
    let by_id: HashMap<&str, &ScimUser> = directory.iter().map(|u| (u.id.as_str(), u)).collect();
    let kept: HashMap<usize, (Option<Reversal>, (String, String))> = writes
        .iter()
        .map(|(i, w)| {
            (
                *i,
                (
                    reversal(w, &by_id, &absent, rows, *i),
                    before_after(w, &by_id),
                ),
            )
        })
        .collect();
    let report =
        |index: usize, outcome: Outcome| record(&ctx, rows, &absent, &kept, index, outcome);
    // Those who become admins first, the signed-in admin's own account last and asked about
    // on its own: a refusal mid-run never leaves the organisation without an admin.
    let yours = |w: &Write| {
        count.you_losing
            && matches!(w, Write::Update { id, .. } | Write::Deactivate { id } if Some(id) == you.as_ref())
    };
    let gains = |w: &Write| match w {
        Write::Update { id, body, .. } => by_id
            .get(id.as_str())
            .is_some_and(|u| !guard::is_admin(u) && guard::admin_after(u, body)),
        other => creates_admin(other),
    };
    let (first, rest): (Vec<_>, Vec<_>) = writes.into_iter().partition(|(_, w)| gains(w));
    let (last, middle): (Vec<_>, Vec<_>) = rest.into_iter().partition(|(_, w)| yours(w));
    run_writes(ctx.api, &ctx.pacer, first, report).await;
    run_writes(ctx.api, &ctx.pacer, middle, report).await;
    if !last.is_empty() && !ctx.cancelled() {
        if guard::ask_yourself(&ctx, LOSS, count.remaining.max(1)).await {
            run_writes(ctx.api, &ctx.pacer, last, report).await;
        } else {
            let kept = "Your own account: left as it was, as you chose.";
            last.into_iter()
                .for_each(|(index, _)| report(index, Outcome::Skipped(kept.into())));
        }
    }
    let state = if ctx.cancelled() {
        JobState::Cancelled
    } else {
        JobState::Done
    };
    let note = ctx.result.with_untracked(summary);
    JobEnd { state, note }
}

/// What an admin losing admin rights does in an import, for the guard's words.
const LOSS: &str = "lose the admin role or are deactivated";

/// Who is signed in and every user, read before anything is written; the admins the writes
/// leave. The run does not start without them.
async fn admins_after(
    ctx: &JobCtx<ImportRun>,
    writes: &[(usize, Write)],
) -> Result<(Vec<ScimUser>, Option<String>, AdminCount), JobEnd> {
    ctx.progress(0, None, "Reading who is signed in".into());
    let me = guard::read_me(ctx.api, &ctx.pacer)
        .await
        .map_err(|e| guard::no_identity(&e))?;
    let read = |read: usize, of: u64| {
        ctx.progress(0, None, format!("Reading the users: {read} of {of}"));
    };
    let directory = match guard::read_directory(ctx.api, &ctx.pacer, read).await {
        Ok(found) => found,
        Err(error @ ApiError::Cancelled) => return Err(guard::no_identity(&error)),
        Err(error) => {
            return Err(JobEnd {
                state: JobState::Failed,
                note: format!(
                    "Nothing was written: the users could not be read to count the admins ({})",
                    error.user_message()
                ),
            })
        }
    };
    let you = guard::you(&directory, &me).map(|u| u.id.clone());
    let count = guard::count_admins(
        &directory,
        |u| {
            writes.iter().find_map(|(_, w)| match w {
                Write::Update { id, body, .. } if *id == u.id => Some(guard::admin_after(u, body)),
                Write::Deactivate { id } if *id == u.id => Some(false),
                _ => None,
            })
        },
        writes.iter().filter(|(_, w)| creates_admin(w)).count(),
        you.as_deref(),
    );
    Ok((directory, you, count))
}

/// One write ended: its outcome in the run, and what undoes it and the user before and after
/// when it landed.
fn record(
    ctx: &JobCtx<ImportRun>,
    rows: usize,
    absent: &[(String, String)],
    kept: &HashMap<usize, (Option<Reversal>, (String, String))>,
    index: usize,
    outcome: Outcome,
) {
    let landed = matches!(
        outcome,
        Outcome::Created(_) | Outcome::Updated(_) | Outcome::Deactivated
    );
    let to_write = ctx.result.with_untracked(|r| r.progress.1);
    ctx.result.update(|r| {
        // Rows by index; absent users in the order they ended, after the rows.
        let at = if index < rows {
            index
        } else {
            rows + r.absent_outcomes.len()
        };
        if let (true, Some((undo, states))) = (landed, kept.get(&index)) {
            r.reversals.extend(undo.clone());
            r.before_after.insert(at, states.clone());
        }
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
}

/// The user before and after `write`, in a few words ("sender · Sales · active").
fn before_after(write: &Write, by_id: &HashMap<&str, &ScimUser>) -> (String, String) {
    let user = |id: &String| by_id.get(id.as_str()).copied();
    match write {
        Write::Create { body, .. } => {
            let team = if body.division.is_empty() {
                "no team"
            } else {
                &body.division
            };
            (
                String::new(),
                format!("{} · {team} · active", body.user_type),
            )
        }
        Write::Update { id, body, .. } => user(id).map_or_else(Default::default, |u| {
            (answer_summary(u), answer_summary(&guard::applied(u, body)))
        }),
        Write::Deactivate { id } => user(id).map_or_else(Default::default, |u| {
            let off = ReplaceUser {
                active: Some(false),
                ..ReplaceUser::default()
            };
            (answer_summary(u), answer_summary(&guard::applied(u, &off)))
        }),
    }
}

fn creates_admin(write: &Write) -> bool {
    matches!(write, Write::Create { body, .. } if body.user_type == Role::Admin && body.active != Some(false))
}

/// How to put back write `index` if it lands: a created user is deactivated, an update
/// restores what it changed, a deactivation activates again.
fn reversal(
    write: &Write,
    by_id: &HashMap<&str, &ScimUser>,
    absent: &[(String, String)],
    rows: usize,
    index: usize,
) -> Option<Reversal> {
    match write {
        Write::Create { wanted, body } => Some(Reversal {
            id: String::new(),
            who: Picked {
                name: format!("{} {}", wanted.given_name, wanted.family_name)
                    .trim()
                    .to_owned(),
                email: wanted.email.clone(),
            },
            wrote: ReplaceUser {
                active: Some(true),
                user_type: Some(body.user_type.clone()),
                division: Some(body.division.clone()),
                ..ReplaceUser::default()
            },
            restore: ReplaceUser {
                active: Some(false),
                ..ReplaceUser::default()
            },
        }),
        Write::Update { id, body, .. } => {
            let before = by_id.get(id.as_str())?;
            Some(Reversal {
                id: id.clone(),
                who: Picked::of(before),
                wrote: body.clone(),
                restore: guard::restore(before, body),
            })
        }
        Write::Deactivate { id } => {
            let before = by_id.get(id.as_str())?;
            let wrote = ReplaceUser {
                active: Some(false),
                ..ReplaceUser::default()
            };
            let _ = absent.get(index.checked_sub(rows)?)?;
            Some(Reversal {
                id: id.clone(),
                who: Picked::of(before),
                restore: guard::restore(before, &wrote),
                wrote,
            })
        }
    }
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
