//! An import's writes as a job ([`crate::jobs`]): they go on when the admin leaves the screen,
//! show in the header's jobs indicator, and keep their results (and what the file and its
//! comparison were, so the screen shown again lists them and writes the results file) until
//! dismissed.
//!
//! Job work: plain data in, the job's own client and result out; nothing of a screen.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use futures::future::LocalBoxFuture;
use gifting_api::scim::{ReplaceUser, ScimUser};
use gifting_api::Role;
use leptos::prelude::{Update, WithUntracked};

use super::columns::Mapping;
use super::compare::Known;
use super::parse::Table;
use super::run_job::{write_one, Outcome, Write};
use crate::components::jobs_indicator;
use crate::jobs::{self, JobCtx, JobEnd, JobHandle, JobKind, JobState};
use crate::pages::users::bulk::{answer_summary, Picked};
use crate::pages::users::guard::{self, Guarded, NotSent, Reversal, Target, Writer};
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
            ..ImportRun::default()
        }
    });
    let writer = ImportWriter {
        ctx: &ctx,
        rows,
        absent: &absent,
        kept: RefCell::new(HashMap::new()),
    };
    let lock = writes.iter().any(|(_, w)| can_remove(w));
    let plan = |world: &guard::World| {
        let by_id: HashMap<&str, &ScimUser> =
            world.directory.iter().map(|u| (u.id.as_str(), u)).collect();
        *writer.kept.borrow_mut() = writes
            .iter()
            .map(|(i, w)| {
                let undo = reversal(w, &by_id, &absent, rows, *i);
                (*i, (undo, before_after(w, &by_id)))
            })
            .collect();
        ctx.progress(0, Some(to_write as u64), format!("0 of {to_write} writes"));
        writes
            .into_iter()
            .map(|(i, w)| Guarded {
                target: target(&w),
                write: (i, w),
            })
            .collect()
    };
    let refused = match guard::run(&ctx, lock, LOSS, plan, &writer).await {
        Ok(refused) => refused,
        Err(end) => return end,
    };
    let note = ctx.result.with_untracked(summary);
    match (refused, ctx.cancelled()) {
        (Some(refusal), _) => JobEnd {
            state: JobState::Failed,
            note: format!("{refusal} {note}"),
        },
        (None, true) => JobEnd {
            state: JobState::Cancelled,
            note,
        },
        (None, false) => JobEnd {
            state: JobState::Done,
            note,
        },
    }
}

/// What an admin losing admin rights does in an import, for the guard's words.
const LOSS: &str = "lose the admin role or are deactivated";

/// What the guard counts of `write`.
fn target(write: &Write) -> Target {
    match write {
        Write::Create { .. } => Target::Create {
            admin: creates_admin(write),
        },
        Write::Update { id, body, .. } => Target::User {
            id: id.clone(),
            body: Box::new(body.clone()),
        },
        Write::Deactivate { id } => Target::User {
            id: id.clone(),
            body: Box::new(ReplaceUser {
                active: Some(false),
                ..ReplaceUser::default()
            }),
        },
    }
}

fn can_remove(write: &Write) -> bool {
    match target(write) {
        Target::User { body, .. } => guard::can_remove(&body),
        _ => false,
    }
}

/// By write index: what undoes it, and the user before and after, in words.
type Kept = HashMap<usize, (Option<Reversal>, (String, String))>;

/// The import's writes, as the guard hands them over.
struct ImportWriter<'a> {
    ctx: &'a JobCtx<ImportRun>,
    rows: usize,
    absent: &'a [(String, String)],
    /// By write: what undoes it and the user before and after, kept once it lands.
    kept: RefCell<Kept>,
}

impl ImportWriter<'_> {
    fn report(&self, index: usize, outcome: Outcome) {
        let kept = self.kept.borrow();
        record(self.ctx, self.rows, self.absent, &kept, index, outcome);
    }
}

impl Writer<(usize, Write)> for ImportWriter<'_> {
    async fn send(&self, (index, write): (usize, Write)) -> bool {
        let (outcome, stop_all) = write_one(self.ctx.api, &self.ctx.lane, &write).await;
        if stop_all {
            self.ctx.lane.stop();
        }
        let landed = matches!(
            outcome,
            Outcome::Created(_) | Outcome::Updated(_) | Outcome::Deactivated
        );
        self.report(index, outcome);
        landed
    }

    fn not_sent(&self, (index, _): (usize, Write), why: NotSent) {
        let outcome = match why {
            NotSent::Cancelled => Outcome::NotRun,
            NotSent::KeptYours => {
                Outcome::Skipped("Your own account: left as it was, as you chose.".into())
            }
            NotSent::Refused(refusal) => Outcome::Failed(refusal),
        };
        self.report(index, outcome);
    }
}

/// One write ended: its outcome in the run, and what undoes it and the user before and after
/// when it landed.
fn record(
    ctx: &JobCtx<ImportRun>,
    rows: usize,
    absent: &[(String, String)],
    kept: &Kept,
    index: usize,
    outcome: Outcome,
) {
    let landed = matches!(
        outcome,
        Outcome::Created(_) | Outcome::Updated(_) | Outcome::Deactivated
    );
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
    });
    let (done, to_write) = ctx.steps();
    let done = done + 1;
    ctx.progress(
        done,
        to_write,
        format!("{done} of {} writes", to_write.unwrap_or(done)),
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
