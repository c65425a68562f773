//! A bulk change as a job ([`crate::jobs`]): it goes on when the admin leaves Users, shows in
//! the header's jobs indicator, and keeps its results until dismissed. One SCIM PUT per user,
//! a few in flight, their starts under the console's one pacing policy
//! ([`crate::http::pacing`]): when the platform says "busy" (429, 503) every request of the
//! run waits as long as it asked, and the change is sent again, as it is after a lost answer
//! (the request policy's idempotent write, [`crate::http::retry::RequestKind::IdempotentWrite`]:
//! a PUT of the attributes changed, sent twice, changes nothing more). After a Cancel nothing
//! more is sent.
//!
//! Job work: plain data in, the job's own client and result out; nothing of a screen.

use std::collections::HashMap;

use futures::future::LocalBoxFuture;
use gifting_api::paths::endpoint;
use gifting_api::scim::{ReplaceUser, ScimUser};
use leptos::prelude::{Update, WithUntracked};

use super::bulk::{
    answer_summary, insert_result, results_summary, BulkAction, BulkResult, Outcome, Picked,
};
use super::directory;
use super::guard::{self, Guarded, Loss, NotSent, Reversal, Target, Writer};
use crate::api::{ApiError, Written};
use crate::components::format::count;
use crate::components::jobs_indicator;
use crate::i18n::{msg, t, M};
use crate::jobs::{self, JobCtx, JobEnd, JobHandle, JobKind, JobState};
use crate::routes;

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
    fn loss(&self) -> Loss {
        match self {
            Change::Action(BulkAction::Deactivate, _) => Loss::Deactivated,
            Change::Action(..) => Loss::Role,
            Change::Undo(_) => Loss::Either,
        }
    }
}

/// A bulk change as its screen shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct BulkRun {
    pub(crate) action: Option<BulkAction>,
    /// Whether the run undoes another.
    pub(crate) undo: bool,
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
        Change::Action(action, _) => msg::users_bulk_job_title(&action.describe(count)),
        Change::Undo(_) => msg::users_undo_job_title(count as u64),
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
    let gone = || Outcome::Failed(t(M::UsersGone).to_owned());
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
                        Err(Outcome::LeftAlone(msg::users_changed_since(
                            &answer_summary(now),
                        )))
                    }
                };
                planned(order, r.id.clone(), r.who.clone(), &write)
            })
            .collect(),
    }
}

impl Planned {
    /// What the guard counts of this user's write.
    fn target(&self) -> Target {
        match (&self.before, &self.write) {
            (Some(_), Ok(body)) => Target::User {
                id: self.id.clone(),
                body: Box::new(body.clone()),
            },
            _ => Target::Nothing,
        }
    }
}

impl Change {
    /// Whether any write of the change can take the admin role away or deactivate.
    fn can_remove(&self) -> bool {
        match self {
            Change::Action(action, _) => guard::can_remove(&action.body()),
            Change::Undo(reversals) => reversals.iter().any(|r| guard::can_remove(&r.restore)),
        }
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
    let plan = |world: &guard::World| {
        let planned = plan(&change, &world.directory);
        ctx.result.update(|r| {
            r.asked = planned
                .iter()
                .map(|p| (p.id.clone(), p.who.clone()))
                .collect();
        });
        let asked = planned.len();
        ctx.progress(
            0,
            Some(asked as u64),
            msg::users_progress_changed(&count(0), asked as u64),
        );
        planned
            .into_iter()
            .map(|p| Guarded {
                target: p.target(),
                write: p,
            })
            .collect()
    };
    let what = change.loss();
    match guard::run(&ctx, change.can_remove(), what, plan, &ctx).await {
        Err(end) => end,
        Ok(refused) => {
            let state = match (&refused, ctx.cancelled()) {
                (Some(_), _) => JobState::Failed,
                (None, true) => JobState::Cancelled,
                (None, false) => JobState::Done,
            };
            let end = ended(&ctx, state);
            JobEnd {
                note: refused.map_or(end.note.clone(), |r| format!("{r} {}", end.note)),
                ..end
            }
        }
    }
}

/// The bulk change's writes, as the guard hands them over: each result recorded as it comes.
impl Writer<Planned> for JobCtx<BulkRun> {
    async fn send(&self, p: Planned) -> bool {
        let outcome = match &p.write {
            Err(outcome) => outcome.clone(),
            Ok(body) => match change_one(self, &p.id, body).await {
                None => return false,
                Some(Ok(user)) => Outcome::Changed(answer_summary(&user)),
                Some(Err(error)) => Outcome::Failed(failure_text(&error)),
            },
        };
        let landed = outcome.changed();
        record(self, p, outcome);
        landed
    }

    fn not_sent(&self, p: Planned, why: NotSent) {
        let outcome = match why {
            NotSent::Cancelled => return,
            NotSent::Yours => Outcome::LeftAlone(guard::yours_refused()),
            NotSent::Refused(refusal) => Outcome::Failed(refusal),
        };
        record(self, p, outcome);
    }
}

fn record(ctx: &JobCtx<BulkRun>, p: Planned, outcome: Outcome) {
    let result = BulkResult {
        order: p.order,
        wrote: p.write.ok().filter(|_| outcome.changed()),
        id: p.id,
        who: p.who,
        outcome,
        before: p.before,
    };
    ctx.result.update(|r| insert_result(&mut r.results, result));
    let (done, asked) = ctx
        .result
        .with_untracked(|r| (r.results.len(), r.asked.len()));
    ctx.progress(
        done as u64,
        Some(asked as u64),
        msg::users_progress_answered(&count(done as u64), asked as u64),
    );
}

fn ended(ctx: &JobCtx<BulkRun>, state: JobState) -> JobEnd {
    let note = ctx
        .result
        .with_untracked(BulkRun::summary)
        .unwrap_or_else(|| t(M::UsersCancelledBeforeAny).to_owned());
    JobEnd { state, note }
}

/// Why one user's change failed, in words that fit a result line.
fn failure_text(error: &ApiError) -> String {
    match error {
        ApiError::NotFound { .. } => t(M::UsersGone).to_owned(),
        other => other.user_message(),
    }
}

/// One user's PUT in the job's lane, sent as every SCIM PUT of long work is
/// ([`crate::api::ApiClient::put_in_lane`]): again after a busy or lost answer. `None` when
/// cancelled before it was sent.
async fn change_one(
    ctx: &JobCtx<BulkRun>,
    id: &str,
    body: &ReplaceUser,
) -> Option<Result<ScimUser, ApiError>> {
    let call = endpoint::REPLACE_SCIM_USER.call(&[id]);
    match ctx
        .api
        .put_in_lane::<_, ScimUser>(&ctx.lane, call, body)
        .await
    {
        Written::Answered(user) | Written::Confirmed(user) => {
            directory::keep(&user);
            Some(Ok(user))
        }
        Written::Failed { error, .. } | Written::Unchecked(error) => Some(Err(error)),
        Written::Stopped { pending: false } => None,
        // Sent, its answer lost, then cancelled: it may have landed, and the result says so.
        Written::Stopped { pending: true } => Some(Err(ApiError::Cancelled)),
    }
}

#[cfg(test)]
mod tests {
    use std::cell::{Cell, RefCell};
    use std::rc::Rc;

    use gifting_api::Role;
    use leptos::prelude::{Owner, WithUntracked};
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::api::testing::{as_is, scim_user, Scim, Twist};
    use crate::http::transport::take_fake_platform;
    use crate::jobs::testing::{ended, failed, scim_app};
    use crate::pages::users::bulk::users_word;

    const ME: &str = "me@example.com";

    /// The signed-in admin and `n` senders s1…sn, all in Sales.
    fn org(n: usize) -> Vec<ScimUser> {
        let mut users = vec![scim_user("me", ME, "admin", "Sales", true)];
        for i in 1..=n {
            users.push(scim_user(
                &format!("s{i}"),
                &format!("s{i}@example.com"),
                "sender",
                "Sales",
                true,
            ));
        }
        users
    }

    /// Every sender of `platform`, picked.
    fn senders(platform: &Rc<RefCell<Scim>>) -> Targets {
        let platform = platform.borrow();
        let picked = platform.users.iter().filter(|u| u.id != "me");
        Targets::Picked(picked.map(|u| (u.id.clone(), Picked::of(u))).collect())
    }

    /// A fresh platform of `users` and an app to run jobs in.
    fn fresh(users: Vec<ScimUser>, twist: Twist) -> (Rc<RefCell<Scim>>, Owner) {
        scim_app(ME, users, twist)
    }

    fn team(platform: &Rc<RefCell<Scim>>, id: &str) -> String {
        let platform = platform.borrow();
        platform.user(id).expect("a user").division.clone()
    }

    /// The writes asked since `from`: (method and path, body).
    fn writes_since(platform: &Rc<RefCell<Scim>>, from: usize) -> Vec<(String, serde_json::Value)> {
        let platform = platform.borrow();
        platform.asked[from..]
            .iter()
            .filter(|a| a.writes())
            .map(|a| {
                let body = a.body.clone().unwrap_or_default();
                (format!("{} {}", a.method, a.path), body)
            })
            .collect()
    }

    #[wasm_bindgen_test]
    async fn a_bulk_change_writes_only_its_attribute_and_its_undo_puts_back_what_still_holds() {
        let _turn = take_fake_platform().await;
        let (platform, app) = fresh(org(3), as_is());
        let move_all = Change::Action(
            BulkAction::MoveToTeam("Engineering".into()),
            senders(&platform),
        );
        let job = app.with(|| start(move_all, 3));
        let status = ended(&job).await;
        assert_eq!(
            (status.state, status.note.as_str()),
            (JobState::Done, "Changed 3 of 3 users.")
        );
        let moved = serde_json::json!({"division": "Engineering"});
        let mut sent = writes_since(&platform, 0);
        sent.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(
            sent,
            (1..=3)
                .map(|i| (format!("PUT /api/scim/v2/Users/s{i}"), moved.clone()))
                .collect::<Vec<_>>(),
            "one PUT per user, of the team only"
        );
        assert_eq!(team(&platform, "s2"), "Engineering");

        // Someone else moves s3 on; the undo puts back s1 and s2 and leaves s3 alone.
        if let Some(s3) = platform.borrow_mut().user_mut("s3") {
            s3.division = "Marketing".into();
        }
        let asked_before = platform.borrow().asked.len();
        let reversals = job.result.with_untracked(BulkRun::reversals);
        let undo = app.with(|| start(Change::Undo(reversals), 3));
        let status = ended(&undo).await;
        assert_eq!(
            (status.state, status.note.as_str()),
            (JobState::Done, "Changed 2 of 3 users. 1 user left alone.")
        );
        let back = serde_json::json!({"division": "Sales"});
        let mut sent = writes_since(&platform, asked_before);
        sent.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(
            sent,
            vec![
                ("PUT /api/scim/v2/Users/s1".to_owned(), back.clone()),
                ("PUT /api/scim/v2/Users/s2".to_owned(), back),
            ]
        );
        let teams = ["s1", "s2", "s3"].map(|id| team(&platform, id));
        assert_eq!(teams, ["Sales", "Sales", "Marketing"].map(String::from));
        assert!(undo.result.with_untracked(|r| r.undo));
    }

    #[wasm_bindgen_test]
    async fn a_cancelled_bulk_change_sends_nothing_after_the_cancel() {
        let _turn = take_fake_platform().await;
        // The admin cancels while the second write is on its way.
        let job_id = Rc::new(Cell::new(0));
        let cancel_at = job_id.clone();
        let puts = Rc::new(Cell::new(0));
        let counted = puts.clone();
        let twist: Twist = Box::new(move |asked, _| {
            if asked.method == "PUT" {
                counted.set(counted.get() + 1);
                if counted.get() == 2 {
                    jobs::cancel(cancel_at.get());
                }
            }
            None
        });
        let (platform, app) = fresh(org(8), twist);
        let promote = Change::Action(BulkAction::SetRole(Role::Manager), senders(&platform));
        let job = app.with(|| start(promote, 8));
        job_id.set(job.id);
        let status = ended(&job).await;
        assert_eq!(status.state, JobState::Cancelled);
        let sent = puts.get();
        assert!((2..8).contains(&sent), "{sent} of 8 sent");
        // What was sent landed and is reported; the rest is said not changed.
        let changed = platform
            .borrow()
            .users
            .iter()
            .filter(|u| u.user_type == Role::Manager)
            .count();
        assert_eq!(changed, sent);
        assert_eq!(
            status.note,
            format!(
                "Changed {sent} of 8 users. Cancelled: {} not changed, still selected.",
                users_word(8 - sent)
            )
        );
    }

    #[wasm_bindgen_test]
    async fn a_bulk_change_fails_when_the_users_cannot_be_read_and_reports_a_write_that_failed() {
        let _turn = take_fake_platform().await;
        let forbidden: Twist = Box::new(|asked, _| {
            asked
                .path
                .starts_with("/api/scim/v2/Users?")
                .then(|| (403, r#"{"message":"not allowed"}"#.to_owned()))
        });
        let (platform, app) = fresh(org(2), forbidden);
        let job = app.with(|| {
            start(
                Change::Action(BulkAction::Deactivate, senders(&platform)),
                2,
            )
        });
        failed(&job, "Nothing was changed: the users could not be read").await;
        assert!(platform.borrow().writes().is_empty());

        // s2 is removed from the platform after the run read the users: its write fails, in
        // words, and the run goes on.
        let removed: Twist = Box::new(|asked, platform| {
            if asked.is("PUT", "/api/scim/v2/Users/s2") {
                platform.users.retain(|u| u.id != "s2");
            }
            None
        });
        let (platform, app) = fresh(org(2), removed);
        let job = app.with(|| {
            start(
                Change::Action(BulkAction::Deactivate, senders(&platform)),
                2,
            )
        });
        let status = ended(&job).await;
        assert_eq!(
            (status.state, status.note.as_str()),
            (
                JobState::Done,
                "Changed 1 of 2 users. 1 failed and stays selected for another try."
            )
        );
        let outcomes = job.result.with_untracked(|r| {
            r.results
                .iter()
                .map(|r| r.outcome.clone())
                .collect::<Vec<_>>()
        });
        assert_eq!(
            outcomes[1],
            Outcome::Failed(
                "This user no longer exists on the platform (it may have been removed).".into()
            )
        );
        assert!(!platform.borrow().user("s1").expect("s1").active);
    }
}
