//! The one way a write that can take the admin role away, or deactivate, reaches the platform:
//! bulk changes, imports, undo and one user's page all hand their writes to [`run`].
//!
//! The count a run starts from goes stale while a question waits for its answer, while other
//! writes of the run land, and while another admin (or another tab) changes the same users.
//! So the runner does not trust it past the moment it was read:
//! - runs that may take the role away are serialised across this browser's tabs (an
//!   exclusive Web Lock, waited for a bounded time, saying so meanwhile);
//! - the directory is read under that lock, and read again after every answer to a question:
//!   an answer given to numbers that are no longer true is asked again, and a change that
//!   now leaves no admin is refused;
//! - the writes that take an admin away go one at a time, each right after a read that found
//!   another active admin who stays (a witness); a new admin counts only once the platform
//!   confirmed them. Across browsers nothing can be locked: that read is what holds.
//!
//! No one removes their own admin role or active status through the console: such a write is
//! refused for its row before any question and before any write ([`NotSent::Yours`]). The
//! platform checks the author's role when a write arrives, so every removal is then made by
//! an admin who stays, and no interleaving of tabs or browsers reaches zero admins.
//!
//! Writes are ordered so a refusal mid-run never leaves the organisation without an admin:
//! gains first, then what changes no admin, then the others who lose the role.
//!
//! Job work: plain data and the host's own client; nothing of a screen.

use std::cell::RefCell;
use std::collections::HashSet;
use std::time::Duration;

use futures::StreamExt;
use gifting_api::paths::endpoint;
use gifting_api::rest::CurrentUser;
use gifting_api::scim::{ReplaceUser, ScimUser};

use super::{
    admin_after, count_admins, is_admin, read_directory, read_me, takes_yours, you, AdminCount,
    Loss,
};
use crate::api::{ApiClient, ApiError};
use crate::browser::{exclusive_lock, LockWait};
use crate::components::format::count_of;
use crate::http::pacing::{Lane, MAX_IN_FLIGHT};
use crate::i18n::{msg, t, M};
use crate::jobs::{JobCtx, JobEnd, JobState, Question};

/// The Web Lock every tab's guarded runs take in turn.
const ADMINS_LOCK: &str = "gifting-console.admins";
/// How long a run waits for another tab's run that changes admins.
const LOCK_WAIT: Duration = Duration::from_secs(300);
/// Questions asked again at most, when the admins change while one is open.
const MAX_ASKS: usize = 3;

/// What runs guarded writes and answers for them: a job, or one user's page.
pub(crate) trait GuardHost {
    fn api(&self) -> ApiClient;
    fn lane(&self) -> &Lane;
    /// How far the run is, in words.
    fn say(&self, note: String);
    /// Asks `question` and waits for the answer; `None` when the run is stopped first.
    async fn ask(&self, question: Question) -> Option<bool>;
    /// While the users are read: `read` of `of`.
    fn reading(&self, read: usize, of: u64) {
        self.say(msg::guard_reading_users(&count_of(read as u64, of)));
    }
    /// Whether taking the role from others is asked first. A user's page, where the admin
    /// chose the one user and the change, does not ask.
    fn asks_about_others(&self) -> bool {
        true
    }
}

impl<R> GuardHost for JobCtx<R> {
    fn api(&self) -> ApiClient {
        self.api
    }
    fn lane(&self) -> &Lane {
        &self.lane
    }
    fn say(&self, note: String) {
        JobCtx::say(self, note);
    }
    async fn ask(&self, question: Question) -> Option<bool> {
        JobCtx::ask(self, question).await
    }
}

/// What one write does to the admins.
#[derive(Clone, Debug)]
pub(crate) enum Target {
    /// An existing user (SCIM id) and what the write sets.
    User { id: String, body: Box<ReplaceUser> },
    /// A new user, and whether as an active admin.
    Create { admin: bool },
    /// Nothing reaches the platform (the caller only records why).
    Nothing,
}

/// One write of a guarded run: what it does, and the caller's own form of it.
pub(crate) struct Guarded<W> {
    pub(crate) target: Target,
    pub(crate) write: W,
}

/// Why the runner did not send a write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum NotSent {
    /// It would have left no admin, or the admins could not be counted right before it.
    Refused(String),
    /// It would take the admin role or active status from the signed-in admin: another admin
    /// must make this change ([`yours_refused`] says so).
    Yours,
    /// The run was stopped before its turn.
    Cancelled,
}

/// What the caller does with each write.
pub(crate) trait Writer<W> {
    /// Sends `write` and records its outcome; whether it landed.
    async fn send(&self, write: W) -> bool;
    /// Records that `write` was not sent, and why.
    fn not_sent(&self, write: W, why: NotSent);
}

/// Why a write to the signed-in admin's own admin role or active status was not sent.
pub(crate) fn yours_refused() -> String {
    t(M::GuardYoursRefused).into()
}

/// Whether `body` can take the admin role away or deactivate (whoever it is written to).
pub(crate) fn can_remove(body: &ReplaceUser) -> bool {
    body.active == Some(false)
        || body
            .user_type
            .as_ref()
            .is_some_and(|r| *r != gifting_api::Role::Admin)
}

/// The signed-in user and every user, as last read.
pub(crate) struct World {
    pub(crate) me: CurrentUser,
    pub(crate) directory: Vec<ScimUser>,
}

impl World {
    /// The signed-in admin's SCIM id.
    pub(crate) fn you(&self) -> Option<String> {
        you(&self.directory, &self.me).map(|u| u.id.clone())
    }

    fn user(&self, id: &str) -> Option<&ScimUser> {
        self.directory.iter().find(|u| u.id == id)
    }

    fn admins(&self) -> Vec<String> {
        self.directory
            .iter()
            .filter(|u| is_admin(u))
            .map(|u| u.id.clone())
            .collect()
    }
}

/// How a guarded run ended, when it wrote: `None` when every write was decided as planned,
/// or the refusal that stopped the writes that take admins away.
pub(crate) type Ran = Option<String>;

/// Runs `plan`'s writes under the guard; `Err` when nothing was written (refused, stopped,
/// or the directory could not be read). `lock`: whether the run can take the role away at
/// all (then it waits for other tabs' such runs); `what`: the loss, for the guard's words.
pub(crate) async fn run<W>(
    host: &impl GuardHost,
    lock: bool,
    what: impl Into<Loss>,
    plan: impl FnOnce(&World) -> Vec<Guarded<W>>,
    writer: &impl Writer<W>,
) -> Result<Ran, JobEnd> {
    let what = what.into();
    let _held = if lock {
        Some(take_lock(host).await?)
    } else {
        None
    };
    let mut world = read_world(host).await?;
    let planned = refuse_yours(&world, plan(&world), writer);
    confirm_others(host, &mut world, &planned, what).await?;
    Ok(write_in_order(host, world, planned, what, writer).await)
}

async fn take_lock(host: &impl GuardHost) -> Result<Option<crate::browser::HeldLock>, JobEnd> {
    let waiting = || host.say(t(M::GuardLockWaiting).into());
    match exclusive_lock(ADMINS_LOCK, LOCK_WAIT, || host.lane().stopped(), waiting).await {
        LockWait::Held(held) => Ok(Some(held)),
        LockWait::Unsupported => Ok(None),
        LockWait::Stopped => Err(cancelled()),
        LockWait::TimedOut => Err(failed(msg::guard_lock_timed_out(LOCK_WAIT.as_secs() / 60))),
    }
}

fn cancelled() -> JobEnd {
    JobEnd {
        state: JobState::Cancelled,
        note: t(M::GuardCancelled).into(),
    }
}

fn failed(note: String) -> JobEnd {
    JobEnd {
        state: JobState::Failed,
        note,
    }
}

/// `planned` without the writes that would take the admin role or active status from the
/// signed-in admin: each is handed back to `writer` as [`NotSent::Yours`] at once.
fn refuse_yours<W>(
    world: &World,
    planned: Vec<Guarded<W>>,
    writer: &impl Writer<W>,
) -> Vec<Guarded<W>> {
    let (yours, rest): (Vec<_>, Vec<_>) = planned.into_iter().partition(|g| match &g.target {
        Target::User { id, body } => world
            .user(id)
            .is_some_and(|u| takes_yours(u, &world.me, body)),
        _ => false,
    });
    for g in yours {
        writer.not_sent(g.write, NotSent::Yours);
    }
    rest
}

/// Who is signed in and every user, read now.
pub(crate) async fn read_world(host: &impl GuardHost) -> Result<World, JobEnd> {
    host.say(t(M::GuardReadingMe).into());
    let me = read_me(host.api(), host.lane())
        .await
        .map_err(|e| super::no_identity(&e))?;
    let directory = read_all(host).await?;
    Ok(World { me, directory })
}

async fn read_all(host: &impl GuardHost) -> Result<Vec<ScimUser>, JobEnd> {
    match read_directory(host.api(), host.lane(), |r, of| host.reading(r, of)).await {
        Ok(found) => Ok(found),
        Err(ApiError::Cancelled) => Err(cancelled()),
        Err(error) => Err(failed(msg::guard_read_failed(&error.user_message()))),
    }
}

/// The admins `planned` leaves in `world` (new admins counted as planned).
fn count_plan<W>(world: &World, planned: &[Guarded<W>]) -> AdminCount {
    let you = world.you();
    let body_of = |id: &str| {
        planned.iter().find_map(|g| match &g.target {
            Target::User { id: i, body } if i == id => Some(body),
            _ => None,
        })
    };
    let created = planned
        .iter()
        .filter(|g| matches!(g.target, Target::Create { admin: true }))
        .count();
    count_admins(
        &world.directory,
        |u| body_of(&u.id).map(|b| admin_after(u, b)),
        created,
        you.as_deref(),
    )
}

/// Refuses a plan that leaves no admin, and asks before one that takes the role from others;
/// after each answer the directory is read again, and numbers that changed are asked again.
async fn confirm_others<W>(
    host: &impl GuardHost,
    world: &mut World,
    planned: &[Guarded<W>],
    what: Loss,
) -> Result<(), JobEnd> {
    let mut count = count_plan(world, planned);
    let mut changed = false;
    for _ in 0..MAX_ASKS {
        if let Some(refusal) = count.refusal(what) {
            return Err(failed(refusal));
        }
        let others = count.losing - usize::from(count.you_losing);
        if others == 0 || !host.asks_about_others() {
            return Ok(());
        }
        if host.ask(others_question(&count, what, changed)).await != Some(true) {
            return Err(JobEnd {
                state: JobState::Cancelled,
                note: t(M::GuardStoppedBefore).into(),
            });
        }
        world.directory = read_all(host).await?;
        let now = count_plan(world, planned);
        if now == count {
            return Ok(());
        }
        (count, changed) = (now, true);
    }
    Err(failed(t(M::GuardKeptChanging).into()))
}

fn others_question(count: &AdminCount, what: Loss, changed: bool) -> Question {
    let changed = if changed { "yes" } else { "no" };
    Question {
        text: msg::guard_others_question(changed, &count.words(what)),
        yes: t(M::GuardGoAhead).into(),
        no: t(M::GuardStopNobody).into(),
    }
}

/// The run's state between writes: who is known to be an admin, and whose loss is still to
/// be decided.
struct Admins {
    known: Vec<String>,
    pending: HashSet<String>,
}

async fn write_in_order<W>(
    host: &impl GuardHost,
    world: World,
    planned: Vec<Guarded<W>>,
    what: Loss,
    writer: &impl Writer<W>,
) -> Ran {
    let kind = |g: &Guarded<W>| match &g.target {
        Target::Create { admin } => Step::of(*admin, false),
        Target::Nothing => Step::Other,
        Target::User { id, body } => match world.user(id) {
            Some(u) => Step::of(
                !is_admin(u) && admin_after(u, body),
                is_admin(u) && !admin_after(u, body),
            ),
            None => Step::Other,
        },
    };
    let (mut gains, mut others, mut losses) = (Vec::new(), Vec::new(), Vec::new());
    for g in planned {
        match kind(&g) {
            Step::Gain => gains.push(g),
            Step::Other => others.push(g),
            Step::Loss => losses.push(g),
        }
    }
    let admins = RefCell::new(Admins {
        known: world.admins(),
        pending: losses
            .iter()
            .filter_map(target_id)
            .map(str::to_owned)
            .collect(),
    });
    send_all(host, gains, writer, Some(&admins)).await;
    send_all(host, others, writer, None).await;
    let mut losses = losses.into_iter();
    while let Some(g) = losses.next() {
        let refused = lose_one(host, &admins, g, what, writer).await;
        if let Some(refusal) = refused {
            for rest in losses {
                writer.not_sent(rest.write, NotSent::Refused(refusal.clone()));
            }
            return Some(refusal);
        }
    }
    None
}

enum Step {
    Gain,
    Other,
    Loss,
}

impl Step {
    fn of(gain: bool, loss: bool) -> Step {
        match (gain, loss) {
            (true, _) => Step::Gain,
            (_, true) => Step::Loss,
            _ => Step::Other,
        }
    }
}

fn target_id<W>(g: &Guarded<W>) -> Option<&str> {
    match &g.target {
        Target::User { id, .. } => Some(id),
        _ => None,
    }
}

/// Sends `batch` a few at a time; a user who became an admin is known as one from then on.
async fn send_all<W>(
    host: &impl GuardHost,
    batch: Vec<Guarded<W>>,
    writer: &impl Writer<W>,
    admins: Option<&RefCell<Admins>>,
) {
    futures::stream::iter(batch)
        .for_each_concurrent(MAX_IN_FLIGHT, |g| async move {
            if host.lane().stopped() {
                return writer.not_sent(g.write, NotSent::Cancelled);
            }
            let promoted = target_id(&g).map(str::to_owned);
            if writer.send(g.write).await {
                if let (Some(admins), Some(id)) = (admins, promoted) {
                    admins.borrow_mut().known.push(id);
                }
            }
        })
        .await;
}

/// One write that takes an admin away, sent only right after another admin who stays was
/// found. The refusal, if refused.
async fn lose_one<W>(
    host: &impl GuardHost,
    admins: &RefCell<Admins>,
    g: Guarded<W>,
    what: Loss,
    writer: &impl Writer<W>,
) -> Option<String> {
    let id = target_id(&g).unwrap_or_default().to_owned();
    if host.lane().stopped() {
        writer.not_sent(g.write, NotSent::Cancelled);
        return None;
    }
    let checked = witness(host, admins, &id, what).await;
    admins.borrow_mut().pending.remove(&id);
    match checked {
        Ok(()) => {
            writer.send(g.write).await;
            None
        }
        Err(None) => {
            writer.not_sent(g.write, NotSent::Cancelled);
            None
        }
        Err(Some(refusal)) => {
            writer.not_sent(g.write, NotSent::Refused(refusal.clone()));
            Some(refusal)
        }
    }
}

/// Reads every user again: refused when no admin stays once `id` loses the role.
async fn recount(
    host: &impl GuardHost,
    admins: &RefCell<Admins>,
    id: &str,
    what: Loss,
) -> Result<(), Option<String>> {
    let directory = read_all(host).await.map_err(|end| refusal_of(&end))?;
    let staying = {
        let mut admins = admins.borrow_mut();
        admins.known = directory
            .iter()
            .filter(|u| is_admin(u))
            .map(|u| u.id.clone())
            .collect();
        admins
            .known
            .iter()
            .filter(|k| k.as_str() != id && !admins.pending.contains(*k))
            .count()
    };
    if staying == 0 {
        return Err(Some(refusal_now(&directory, admins, id, what)));
    }
    Ok(())
}

/// A run stopped while reading is no refusal; a read that failed is one.
fn refusal_of(end: &JobEnd) -> Option<String> {
    (end.state != JobState::Cancelled).then(|| end.note.clone())
}

/// Right before `id` loses the role: another active admin who stays, read from the platform
/// now. The known admins are asked one by one; when none is one still, every user is read.
async fn witness(
    host: &impl GuardHost,
    admins: &RefCell<Admins>,
    id: &str,
    what: Loss,
) -> Result<(), Option<String>> {
    let candidates: Vec<String> = {
        let admins = admins.borrow();
        admins
            .known
            .iter()
            .filter(|k| k.as_str() != id && !admins.pending.contains(*k))
            .cloned()
            .collect()
    };
    for candidate in candidates {
        let call = endpoint::READ_SCIM_USER.call(&[&candidate]);
        match host.api().get_paced::<ScimUser>(host.lane(), call).await {
            Ok(user) if is_admin(&user) => return Ok(()),
            Ok(_) | Err(ApiError::NotFound { .. }) => {
                admins.borrow_mut().known.retain(|k| *k != candidate);
            }
            Err(ApiError::Cancelled) => return Err(None),
            Err(error) => return Err(Some(msg::guard_witness_failed(&error.user_message()))),
        }
    }
    recount(host, admins, id, what).await
}

/// The refusal, in numbers, when `id` and the pending losses would leave none of `directory`.
fn refusal_now(directory: &[ScimUser], admins: &RefCell<Admins>, id: &str, what: Loss) -> String {
    let admins = admins.borrow();
    let count = count_admins(
        directory,
        |u| (u.id == id || admins.pending.contains(&u.id)).then_some(false),
        0,
        None,
    );
    if count.losing > 0 {
        msg::guard_refused_now_counted(&count.words(what))
    } else {
        t(M::GuardRefusedNow).into()
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;

    use futures::future::LocalBoxFuture;
    use gifting_api::Role;
    use leptos::prelude::{GetUntracked, Update};
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::api::testing::{as_is, scim_platform, scim_user, signed_in_app, Scim, Twist};
    use crate::http::pacing::token_pacer;
    use crate::http::transport::take_fake_platform;
    use crate::jobs::testing::{asked, ended, failed as failed_saying};
    use crate::jobs::{self, JobHandle};

    const ME: &str = "a1@example.com";

    /// Three active admins (a1 signed in) and a sender.
    fn org() -> Vec<ScimUser> {
        vec![
            scim_user("a1", ME, "admin", "Sales", true),
            scim_user("a2", "a2@example.com", "admin", "Sales", true),
            scim_user("a3", "a3@example.com", "admin", "Sales", true),
            scim_user("s1", "s1@example.com", "sender", "Sales", true),
        ]
    }

    fn demote() -> ReplaceUser {
        ReplaceUser {
            user_type: Some(Role::Sender),
            ..ReplaceUser::default()
        }
    }

    /// The guarded writes as the runner hands them over: each PUT sent, or why not, in words.
    struct Puts<'a>(&'a JobCtx<Vec<String>>);

    impl Writer<(String, ReplaceUser)> for Puts<'_> {
        async fn send(&self, (id, body): (String, ReplaceUser)) -> bool {
            let call = endpoint::REPLACE_SCIM_USER.call(&[&id]);
            let sent = self
                .0
                .api
                .put_in_lane::<_, ScimUser>(&self.0.lane, call, &body);
            let landed = sent.await.into_result().is_ok();
            self.0
                .result
                .update(|r| r.push(format!("{id}: landed {landed}")));
            landed
        }

        fn not_sent(&self, (id, _): (String, ReplaceUser), why: NotSent) {
            self.0.result.update(|r| r.push(format!("{id}: {why:?}")));
        }
    }

    /// A job that runs `writes` (a PUT each) under the guard.
    fn guarded(
        writes: Vec<(String, ReplaceUser)>,
        ctx: JobCtx<Vec<String>>,
    ) -> LocalBoxFuture<'static, JobEnd> {
        Box::pin(async move {
            let plan = |_: &World| {
                writes
                    .into_iter()
                    .map(|(id, body)| Guarded {
                        target: Target::User {
                            id: id.clone(),
                            body: Box::new(body.clone()),
                        },
                        write: (id, body),
                    })
                    .collect()
            };
            match run(&ctx, true, "lose the admin role", plan, &Puts(&ctx)).await {
                Err(end) => end,
                Ok(Some(refusal)) => failed(refusal),
                Ok(None) => JobEnd {
                    state: JobState::Done,
                    note: "written".into(),
                },
            }
        })
    }

    /// A fresh platform of `users` and a guarded job demoting `who`.
    fn demoting(
        users: Vec<ScimUser>,
        twist: Twist,
        who: &[&str],
    ) -> (Rc<RefCell<Scim>>, JobHandle<Vec<String>>) {
        token_pacer().forget();
        let platform = scim_platform(ME, users, twist);
        let app = signed_in_app();
        app.with(jobs::init);
        let writes = who.iter().map(|id| ((*id).to_owned(), demote())).collect();
        let job = app.with(|| {
            jobs::start(
                jobs::JobKind::BulkChange,
                "demote".into(),
                "/users".into(),
                writes,
                guarded,
            )
        });
        (platform, job)
    }

    fn role(platform: &Rc<RefCell<Scim>>, id: &str) -> Role {
        let platform = platform.borrow();
        platform.user(id).expect("a user").user_type.clone()
    }

    #[wasm_bindgen_test]
    async fn the_guard_asks_before_taking_the_role_from_others_and_no_changes_nobody() {
        let _turn = take_fake_platform().await;
        let (platform, job) = demoting(org(), as_is(), &["a2", "a3"]);
        let question = asked(&job).await.expect("asked before any write");
        assert_eq!(question.text, "2 admins lose the admin role; 1 remains.");
        jobs::answer(job.id, false);
        let status = ended(&job).await;
        assert_eq!(status.state, JobState::Cancelled);
        assert_eq!(
            status.note,
            "Stopped before any change: nobody was changed."
        );
        assert!(platform.borrow().writes().is_empty(), "nothing written");
        assert_eq!(
            (role(&platform, "a2"), role(&platform, "a3")),
            (Role::Admin, Role::Admin)
        );
    }

    #[wasm_bindgen_test]
    async fn a_yes_writes_each_loss_right_after_reading_an_admin_who_stays() {
        let _turn = take_fake_platform().await;
        let (platform, job) = demoting(org(), as_is(), &["a2", "a3"]);
        asked(&job).await.expect("asked before any write");
        jobs::answer(job.id, true);
        let status = ended(&job).await;
        assert_eq!(
            (status.state, status.note.as_str()),
            (JobState::Done, "written")
        );
        assert_eq!(
            (role(&platform, "a2"), role(&platform, "a3")),
            (Role::Sender, Role::Sender)
        );
        let platform = platform.borrow();
        let puts: Vec<usize> = (0..platform.asked.len())
            .filter(|&i| platform.asked[i].writes())
            .collect();
        assert_eq!(puts.len(), 2);
        for at in puts {
            let put = &platform.asked[at];
            assert_eq!(put.body, Some(serde_json::json!({"userType": "sender"})));
            // The witness: the one admin who stays, read from the platform just before.
            let before = &platform.asked[at - 1];
            assert!(
                before.is("GET", "/api/scim/v2/Users/a1"),
                "{put:?} came after {before:?}"
            );
        }
    }

    #[wasm_bindgen_test]
    async fn an_answer_given_to_numbers_that_changed_meanwhile_is_asked_again() {
        let _turn = take_fake_platform().await;
        let (platform, job) = demoting(org(), as_is(), &["a2"]);
        let first = asked(&job).await.expect("asked");
        assert_eq!(first.text, "1 admin loses the admin role; 2 remain.");
        // While the question is open, another admin takes the role from a3.
        if let Some(a3) = platform.borrow_mut().user_mut("a3") {
            a3.user_type = Role::Sender;
        }
        jobs::answer(job.id, true);
        let asked_again = || {
            job.status()
                .and_then(|s| s.question)
                .filter(|q| q.text != first.text)
        };
        crate::api::testing::until("asked again", || asked_again().is_some()).await;
        assert_eq!(
            asked_again().map(|q| q.text),
            Some(
                "The admins changed while you were asked; now: 1 admin loses the admin role; 1 \
                 remains."
                    .to_owned()
            )
        );
        assert!(platform.borrow().writes().is_empty(), "nothing written yet");
        jobs::answer(job.id, true);
        let status = ended(&job).await;
        assert_eq!(status.state, JobState::Done);
        assert_eq!(role(&platform, "a2"), Role::Sender);
    }

    #[wasm_bindgen_test]
    async fn a_change_that_leaves_no_admin_is_refused_before_anything_is_written() {
        let _turn = take_fake_platform().await;
        // The signed-in admin's account is inactive: a2 is the one active admin.
        let two = vec![
            scim_user("a1", ME, "admin", "Sales", false),
            scim_user("a2", "a2@example.com", "admin", "Sales", true),
        ];
        let (platform, job) = demoting(two, as_is(), &["a2"]);
        assert_eq!(asked(&job).await, None, "refused, not asked");
        failed_saying(
            &job,
            "Refused: this change would leave the organisation without an admin. 1 admin \
                 loses the admin role; none remains.",
        )
        .await;
        assert!(platform.borrow().writes().is_empty(), "nothing written");
    }

    #[wasm_bindgen_test]
    async fn the_last_admin_rule_is_checked_again_right_before_the_write() {
        let _turn = take_fake_platform().await;
        let two = vec![
            scim_user("a1", ME, "admin", "Sales", true),
            scim_user("a2", "a2@example.com", "admin", "Sales", true),
        ];
        // Asked and answered with two admins; then, just before a2's write, another admin
        // (elsewhere) takes the role from a1.
        let twist: Twist = Box::new(|asked, platform| {
            if asked.is("GET", "/api/scim/v2/Users/a1") {
                if let Some(a1) = platform.user_mut("a1") {
                    a1.user_type = Role::Sender;
                }
            }
            None
        });
        let (platform, job) = demoting(two, twist, &["a2"]);
        let question = asked(&job).await.expect("asked");
        assert_eq!(question.text, "1 admin loses the admin role; 1 remains.");
        jobs::answer(job.id, true);
        failed_saying(
            &job,
            "Refused right before writing: this change would now leave",
        )
        .await;
        assert!(platform.borrow().writes().is_empty(), "a2 was not written");
        assert_eq!(role(&platform, "a2"), Role::Admin);
        let said = job.result.get_untracked();
        assert_eq!(said.len(), 1);
        assert!(said[0].starts_with("a2: Refused("), "{said:?}");
    }

    #[wasm_bindgen_test]
    async fn the_signed_in_admins_own_loss_is_refused_before_any_question_or_write() {
        let _turn = take_fake_platform().await;
        let two = vec![
            scim_user("a1", ME, "admin", "Sales", true),
            scim_user("a2", "a2@example.com", "admin", "Sales", true),
        ];
        let (platform, job) = demoting(two, as_is(), &["a1", "a2"]);
        let others = asked(&job).await.expect("asked about the other admin");
        assert_eq!(others.text, "1 admin loses the admin role; 1 remains.");
        assert_eq!(
            job.result.get_untracked(),
            vec!["a1: Yours".to_owned()],
            "refused before the question"
        );
        assert!(platform.borrow().writes().is_empty(), "nothing written yet");
        jobs::answer(job.id, true);
        let status = ended(&job).await;
        assert_eq!(status.state, JobState::Done);
        assert_eq!(
            (role(&platform, "a1"), role(&platform, "a2")),
            (Role::Admin, Role::Sender),
            "the signed-in admin stays, the other is demoted"
        );
        assert_eq!(platform.borrow().writes().len(), 1);
    }

    #[wasm_bindgen_test]
    async fn deactivating_yourself_alone_asks_nothing_and_writes_nothing() {
        let _turn = take_fake_platform().await;
        token_pacer().forget();
        let platform = scim_platform(ME, org(), as_is());
        let app = signed_in_app();
        app.with(jobs::init);
        let off = ReplaceUser {
            active: Some(false),
            ..ReplaceUser::default()
        };
        let job = app.with(|| {
            jobs::start(
                jobs::JobKind::BulkChange,
                "deactivate".into(),
                "/users".into(),
                vec![("a1".to_owned(), off)],
                guarded,
            )
        });
        let status = ended(&job).await;
        assert_eq!(asked(&job).await, None, "never asked");
        assert_eq!(status.state, JobState::Done);
        assert_eq!(job.result.get_untracked(), vec!["a1: Yours".to_owned()]);
        assert!(platform.borrow().writes().is_empty(), "nothing written");
        assert!(platform.borrow().user("a1").is_some_and(|u| u.active));
    }
}
