//! A bulk change as a job ([`crate::jobs`]): it goes on when the admin leaves Users, shows in
//! the header's jobs indicator, and keeps its results until dismissed. One SCIM PUT per user,
//! a few in flight, their starts under the console's one pacing policy
//! ([`crate::http::pacing`]): when the platform says "busy" (429, 503) every request of the
//! run waits as long as it asked, and the change is sent again (a PUT of one attribute is
//! idempotent, so sending it twice changes nothing more). After a Cancel nothing more is sent.
//!
//! Job work: plain data in, the job's own client and result out; nothing of a screen.

use std::collections::HashMap;

use futures::future::LocalBoxFuture;
use futures::StreamExt;
use gifting_api::paths::endpoint;
use gifting_api::scim::{ReplaceUser, ScimUser};
use leptos::prelude::{Update, WithUntracked};

use super::bulk::{
    answer_summary, insert_result, results_summary, BulkAction, BulkResult, Outcome, Picked,
};
use super::guard::{self, AdminCount, Reversal};
use crate::api::ApiError;
use crate::components::jobs_indicator;
use crate::jobs::{self, JobCtx, JobEnd, JobHandle, JobKind, JobState};
use crate::routes;

/// PUTs in flight at once: quick for a page of users, gentle on the platform's rate limit.
pub(crate) const MAX_IN_FLIGHT: usize = 4;

/// Who the change is for.
pub(crate) enum Targets {
    /// The users selected.
    Picked(Vec<(String, Picked)>),
    /// Every user the list matches (`email`: its search).
    Matching { email: Option<String> },
}

/// The change a run makes.
pub(crate) enum Change {
    /// One action on the targets.
    Action(BulkAction, Targets),
    /// The reverse of a run (a bulk change or an import), user by user.
    Undo(Vec<Reversal>),
}

impl Change {
    /// What a user losing admin rights does in this change, for the guard's words.
    fn loss_words(&self) -> &'static str {
        match self {
            Change::Action(BulkAction::Deactivate, _) => "are deactivated",
            Change::Action(..) => "lose the admin role",
            Change::Undo(_) => "lose the admin role or are deactivated",
        }
    }
}

/// A bulk change as its screen shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct BulkRun {
    pub(crate) action: Option<BulkAction>,
    /// Whether the run undoes another.
    pub(crate) undo: bool,
    /// While the users are read: (read, of).
    pub(crate) finding: Option<(usize, u64)>,
    /// The users the change is for, once known.
    pub(crate) asked: Vec<(String, Picked)>,
    /// One per user answered, in run order.
    pub(crate) results: Vec<BulkResult>,
}

impl BulkRun {
    /// "Changed 11 of 12 users. …", once there are results.
    pub(crate) fn summary(&self) -> Option<String> {
        (!self.results.is_empty()).then(|| results_summary(&self.results, self.asked.len()))
    }

    /// The reverse of every change the run made, for "Undo this change".
    pub(crate) fn reversals(&self) -> Vec<Reversal> {
        self.results
            .iter()
            .filter(|r| r.outcome.changed())
            .filter_map(|r| {
                let (before, wrote) = (r.before.as_ref()?, r.wrote.as_ref()?);
                Some(Reversal {
                    id: r.id.clone(),
                    who: r.who.clone(),
                    wrote: wrote.clone(),
                    restore: guard::restore(before, wrote),
                })
            })
            .collect()
    }
}

/// Starts `change` as a job, titled for `count` users.
pub(crate) fn start(change: Change, count: usize) -> JobHandle<BulkRun> {
    let title = match &change {
        Change::Action(action, _) => format!("Bulk change: {}", action.describe(count)),
        Change::Undo(_) => format!("Undo: put back {}", super::bulk::users_word(count)),
    };
    jobs_indicator::show();
    jobs::start(
        JobKind::BulkChange,
        title,
        routes::USERS.to_owned(),
        change,
        run,
    )
}

fn run(change: Change, ctx: JobCtx<BulkRun>) -> LocalBoxFuture<'static, JobEnd> {
    Box::pin(work(change, ctx))
}

/// One user of the run: what is written, or why nothing is.
struct Planned {
    order: usize,
    id: String,
    who: Picked,
    before: Option<ScimUser>,
    write: Result<ReplaceUser, Outcome>,
}

/// The users of the change, in run order, against the platform's users as just read.
fn plan(change: &Change, directory: &[ScimUser]) -> Vec<Planned> {
    let by_id: HashMap<&str, &ScimUser> = directory.iter().map(|u| (u.id.as_str(), u)).collect();
    // A user an import created is found by email: its id was not kept.
    let by_email: HashMap<String, &ScimUser> = directory
        .iter()
        .map(|u| (u.user_name.to_lowercase(), u))
        .collect();
    let gone = || {
        Outcome::Failed(
            "This user no longer exists on the platform (it may have been removed).".into(),
        )
    };
    let planned = |order,
                   id: String,
                   who: Picked,
                   write: &dyn Fn(&ScimUser) -> Result<ReplaceUser, Outcome>| {
        let found = match by_id.get(id.as_str()) {
            Some(user) => Some(*user),
            None if id.is_empty() => by_email.get(&who.email.to_lowercase()).copied(),
            None => None,
        };
        let before = found.cloned();
        let id = before.as_ref().map_or(id, |u| u.id.clone());
        let write = before.as_ref().map_or_else(|| Err(gone()), write);
        Planned {
            order,
            id,
            who,
            before,
            write,
        }
    };
    match change {
        Change::Action(action, targets) => {
            let body = action.body();
            let write = |_: &ScimUser| Ok(body.clone());
            let users: Vec<(String, Picked)> = match targets {
                Targets::Picked(picked) => picked.clone(),
                Targets::Matching { email } => directory
                    .iter()
                    .filter(|u| {
                        email
                            .as_ref()
                            .is_none_or(|e| u.user_name.eq_ignore_ascii_case(e))
                    })
                    .map(|u| (u.id.clone(), Picked::of(u)))
                    .collect(),
            };
            users
                .into_iter()
                .enumerate()
                .map(|(order, (id, who))| planned(order, id, who, &write))
                .collect()
        }
        Change::Undo(reversals) => reversals
            .iter()
            .enumerate()
            .map(|(order, r)| {
                let write = |now: &ScimUser| {
                    if guard::holds(now, &r.wrote) {
                        Ok(r.restore.clone())
                    } else {
                        Err(Outcome::LeftAlone(format!(
                            "Changed since by someone else (now {}): left as it is.",
                            answer_summary(now)
                        )))
                    }
                };
                planned(order, r.id.clone(), r.who.clone(), &write)
            })
            .collect(),
    }
}

async fn work(change: Change, ctx: JobCtx<BulkRun>) -> JobEnd {
    ctx.result.update(|r| {
        r.action = match &change {
            Change::Action(action, _) => Some(action.clone()),
            Change::Undo(_) => None,
        };
        r.undo = matches!(change, Change::Undo(_));
    });
    ctx.progress(0, None, "Reading who is signed in".into());
    let me = match guard::read_me(ctx.api, &ctx.pacer).await {
        Ok(me) => me,
        Err(error) => return guard::no_identity(&error),
    };
    let read = |read: usize, of: u64| {
        ctx.result.update(|r| r.finding = Some((read, of)));
        ctx.progress(0, None, format!("Reading the users: {read} of {of}"));
    };
    let directory = match guard::read_directory(ctx.api, &ctx.pacer, read).await {
        Ok(found) => found,
        Err(ApiError::Cancelled) => return ended(&ctx, JobState::Cancelled),
        Err(error) => {
            return JobEnd {
                state: JobState::Failed,
                note: format!("The users could not be read: {}", error.user_message()),
            }
        }
    };
    let you = guard::you(&directory, &me).map(|u| u.id.clone());
    let planned = plan(&change, &directory);
    let writes: HashMap<&str, &ReplaceUser> = planned
        .iter()
        .filter_map(|p| Some((p.id.as_str(), p.write.as_ref().ok()?)))
        .collect();
    let count = guard::count_admins(
        &directory,
        |u| writes.get(u.id.as_str()).map(|b| guard::admin_after(u, b)),
        0,
        you.as_deref(),
    );
    ctx.result.update(|r| {
        r.finding = None;
        r.asked = planned
            .iter()
            .map(|p| (p.id.clone(), p.who.clone()))
            .collect();
    });
    let asked = planned.len();
    ctx.progress(0, Some(asked as u64), format!("0 of {asked} users changed"));
    if let Err(end) = guard::confirm_losses(&ctx, &count, change.loss_words()).await {
        return end;
    }
    write_all(&ctx, planned, you.as_deref(), &count, change.loss_words()).await;
    let state = if ctx.cancelled() {
        JobState::Cancelled
    } else {
        JobState::Done
    };
    ended(&ctx, state)
}

/// The writes in three steps, so a refusal mid-run never leaves the organisation without an
/// admin: those who become admins, then the others, then the signed-in admin's own account,
/// asked about first, when it loses the admin role.
async fn write_all(
    ctx: &JobCtx<BulkRun>,
    planned: Vec<Planned>,
    you: Option<&str>,
    count: &AdminCount,
    what: &str,
) {
    let gains = |p: &Planned| matches!((&p.before, &p.write), (Some(b), Ok(w)) if !guard::is_admin(b) && guard::admin_after(b, w));
    let yours = |p: &Planned| count.you_losing && you == Some(p.id.as_str());
    let (first, rest): (Vec<Planned>, Vec<Planned>) = planned.into_iter().partition(gains);
    let (last, middle): (Vec<Planned>, Vec<Planned>) = rest.into_iter().partition(yours);
    write_some(ctx, first).await;
    write_some(ctx, middle).await;
    for mut mine in last {
        if ctx.cancelled() {
            return;
        }
        if !guard::ask_yourself(ctx, what, count.remaining.max(1)).await {
            if ctx.cancelled() {
                return;
            }
            mine.write = Err(Outcome::LeftAlone(
                "Your own account: left as it was, as you chose.".into(),
            ));
        }
        write_some(ctx, vec![mine]).await;
    }
}

/// Writes `planned`, a few at a time, each result recorded as it comes.
async fn write_some(ctx: &JobCtx<BulkRun>, planned: Vec<Planned>) {
    let asked = ctx.result.with_untracked(|r| r.asked.len());
    futures::stream::iter(planned)
        .for_each_concurrent(MAX_IN_FLIGHT, |p| async move {
            let outcome = match &p.write {
                Err(outcome) => outcome.clone(),
                Ok(body) => match change_one(ctx, &p.id, body).await {
                    None => return,
                    Some(Ok(user)) => Outcome::Changed(answer_summary(&user)),
                    Some(Err(error)) => Outcome::Failed(failure_text(&error)),
                },
            };
            let result = BulkResult {
                order: p.order,
                wrote: p.write.ok().filter(|_| outcome.changed()),
                id: p.id,
                who: p.who,
                outcome,
                before: p.before,
            };
            ctx.result.update(|r| insert_result(&mut r.results, result));
            let done = ctx.result.with_untracked(|r| r.results.len());
            ctx.progress(
                done as u64,
                Some(asked as u64),
                format!("{done} of {asked} users answered"),
            );
        })
        .await;
}
fn ended(ctx: &JobCtx<BulkRun>, state: JobState) -> JobEnd {
    let note = ctx
        .result
        .with_untracked(BulkRun::summary)
        .unwrap_or_else(|| "Cancelled before any user was changed.".into());
    JobEnd { state, note }
}

/// Why one user's change failed, in words that fit a result line.
fn failure_text(error: &ApiError) -> String {
    match error {
        ApiError::NotFound { .. } => {
            "This user no longer exists on the platform (it may have been removed).".into()
        }
        other => other.user_message(),
    }
}

/// One user's PUT, sent again while the platform says "busy"; `None` when cancelled first.
async fn change_one(
    ctx: &JobCtx<BulkRun>,
    id: &str,
    body: &ReplaceUser,
) -> Option<Result<ScimUser, ApiError>> {
    loop {
        let started = ctx.pacer.turn().await?;
        let call = endpoint::REPLACE_SCIM_USER.call(&[id]);
        match ctx.api.put_json::<_, ScimUser>(call, body).await {
            Err(ApiError::Busy { retry_after }) => {
                if ctx.pacer.refused(started, retry_after).is_none() {
                    return Some(Err(ApiError::Busy { retry_after }));
                }
            }
            answer => {
                ctx.pacer.answered(started);
                return Some(answer.map(|r| r.body));
            }
        }
    }
}
