//! Long or multi-request work: a bulk change and its undo, an import's comparison, writes and
//! undo, the sends walk, the sends export and the home figures run as jobs owned by the app,
//! not by the screen that started them.
//!
//! A screen starts a job with [`start`], giving plain data and a plain `fn` (a function
//! pointer captures nothing, so the work cannot reach the screen's signals, callbacks or
//! stored values; `scripts/check-layers.mjs` also refuses arena-owned reactive types in the
//! files that hold job work, `job.rs`). The job reports through its [`JobCtx`]: progress for
//! the header's jobs indicator, and its result in an `ArcRwSignal`, reference-counted and
//! owned by no screen, which the registry keeps until the admin dismisses the job. A screen
//! shown again finds its job with [`latest`] and shows it as it stands.
//!
//! The registry lives in this module's thread-local state: jobs outlive every screen, end
//! with the session (sign-out, expiry or another tab signing out cancels them and forgets
//! their results, which hold platform data), and a tab closed or reloaded while a job
//! writes to the platform asks first (`beforeunload`).

use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

use futures::future::LocalBoxFuture;
use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

use crate::api::{api_with_scope, ApiClient, CancelScope};
use crate::auth::session::on_session_end;
use crate::http::pacing::{token_pacer, Lane};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum JobKind {
    BulkChange,
    Import,
    SendsWalk,
    SendsExport,
    /// The home screen's figures: spend against budgets, sends needing attention.
    SpendFigures,
    /// The import's comparison of a file with the platform's users.
    Comparison,
    /// A guarded change to one user, from the user's page.
    UserChange,
    /// Every user read for the users list's search (the users screen's directory).
    Directory,
}

impl JobKind {
    /// Whether the header's jobs indicator lists it: the home figures' walk is a background
    /// read its screens show themselves, not work the admin started.
    pub(crate) fn listed(self) -> bool {
        !matches!(
            self,
            JobKind::SpendFigures | JobKind::Comparison | JobKind::UserChange | JobKind::Directory
        )
    }

    /// Whether the job writes to the platform: closing the tab or signing out asks first.
    pub(crate) fn writes(self) -> bool {
        matches!(
            self,
            JobKind::BulkChange | JobKind::Import | JobKind::UserChange
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum JobState {
    Running,
    Done,
    Cancelled,
    Failed,
}

/// A job as the jobs indicator shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct JobStatus {
    pub(crate) id: u64,
    pub(crate) kind: JobKind,
    /// "Bulk change: make 60 users manager".
    pub(crate) title: String,
    /// Where its results are shown.
    pub(crate) href: String,
    /// Steps done, of how many (when known).
    pub(crate) done: u64,
    pub(crate) of: Option<u64>,
    /// Its progress or its end, in words.
    pub(crate) note: String,
    /// Seconds it waits because the platform asked it to slow down (until its next step).
    pub(crate) waiting_s: Option<u64>,
    /// A question the job waits on before it goes on (answered with [`answer`]).
    pub(crate) question: Option<Question>,
    pub(crate) state: JobState,
}

/// A question a job asks the admin before a step it must not take unasked ("2 admins lose
/// the admin role; 1 remains"): its words and the two answers' labels.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Question {
    pub(crate) text: String,
    pub(crate) yes: String,
    pub(crate) no: String,
}

impl JobStatus {
    pub(crate) fn running(&self) -> bool {
        self.state == JobState::Running
    }
}

/// How a job's work ended, and what it did in words.
pub(crate) struct JobEnd {
    pub(crate) state: JobState,
    pub(crate) note: String,
}

/// What a job's work may touch: its client, its lane in the token's queue and its result.
pub(crate) struct JobCtx<R: 'static> {
    pub(crate) id: u64,
    pub(crate) api: ApiClient,
    pub(crate) lane: Rc<Lane>,
    pub(crate) result: ArcRwSignal<R>,
}

impl<R> JobCtx<R> {
    /// Shows how far the job is: `done` of `of` steps, and in words.
    pub(crate) fn progress(&self, done: u64, of: Option<u64>, note: String) {
        update(self.id, |s| {
            s.done = done;
            s.of = of;
            s.note = note;
            s.waiting_s = None;
        });
    }

    /// Its steps done, and of how many (when known), as last shown.
    pub(crate) fn steps(&self) -> (u64, Option<u64>) {
        list().with_untracked(|all| {
            all.iter()
                .find(|s| s.id == self.id)
                .map_or((0, None), |s| (s.done, s.of))
        })
    }

    /// Says how far the job is, in words, keeping its step count.
    pub(crate) fn say(&self, note: String) {
        update(self.id, |s| {
            s.note = note;
            s.waiting_s = None;
        });
    }

    pub(crate) fn cancelled(&self) -> bool {
        self.lane.stopped()
    }

    /// Asks `question` (shown by the jobs indicator and the job's screen) and waits for the
    /// answer; `None` when the job is cancelled first. The admin may be on any screen.
    pub(crate) async fn ask(&self, question: Question) -> Option<bool> {
        let (tx, mut rx) = futures::channel::oneshot::channel();
        REGISTRY.with(|r| {
            if let Some(entry) = r.borrow_mut().entries.iter_mut().find(|e| e.id == self.id) {
                entry.answer = Some(tx);
            }
        });
        update(self.id, |s| s.question = Some(question));
        let answer = loop {
            if self.cancelled() {
                break None;
            }
            match rx.try_recv() {
                Ok(Some(yes)) => break Some(yes),
                Ok(None) => {}
                Err(_) => break None,
            }
            crate::browser::sleep(std::time::Duration::from_millis(100)).await;
        };
        update(self.id, |s| s.question = None);
        answer
    }
}

/// A job as its screen reads it.
#[derive(Clone)]
pub(crate) struct JobHandle<R: 'static> {
    pub(crate) id: u64,
    pub(crate) result: ArcRwSignal<R>,
}

impl<R> JobHandle<R> {
    /// Its status, tracked.
    pub(crate) fn status(&self) -> Option<JobStatus> {
        status(self.id)
    }

    /// Whether it runs, tracked.
    pub(crate) fn running(&self) -> bool {
        self.status().is_some_and(|s| s.running())
    }
}

struct Entry {
    id: u64,
    kind: JobKind,
    running: bool,
    lane: Rc<Lane>,
    scope: CancelScope,
    /// The job's `ArcRwSignal<R>`.
    result: Rc<dyn Any>,
    /// Where the answer to the question it asks goes.
    answer: Option<futures::channel::oneshot::Sender<bool>>,
    /// Dismissed as soon as it ends ([`cancel_and_forget`]).
    forget_when_ended: bool,
}

#[derive(Default)]
struct Registry {
    entries: Vec<Entry>,
    next_id: u64,
    /// The app's owner: each job's client is created under a child of it, never a screen's.
    owner: Option<Owner>,
    /// Whether the tab's `beforeunload` and the session's end are watched (from the first job).
    watching: bool,
}

thread_local! {
    static REGISTRY: RefCell<Registry> = RefCell::new(Registry::default());
    static LIST: ArcRwSignal<Vec<JobStatus>> = ArcRwSignal::new(Vec::new());
}

/// Runs `f` under the app's owner, so what it creates outlives every screen.
pub(crate) fn with_app_owner<T>(f: impl FnOnce() -> T) -> T {
    let owner = REGISTRY.with(|r| r.borrow().owner.clone());
    match owner {
        Some(owner) => owner.with(f),
        None => f(),
    }
}

/// Ended jobs kept at most: the oldest ended one goes when a new job would pass this.
const MAX_KEPT: usize = 20;

/// Every job, oldest first: the indicator's list.
pub(crate) fn list() -> ArcRwSignal<Vec<JobStatus>> {
    LIST.with(Clone::clone)
}

fn update(id: u64, change: impl FnOnce(&mut JobStatus)) {
    list().update(|all| {
        if let Some(status) = all.iter_mut().find(|s| s.id == id) {
            change(status);
        }
    });
}

/// Called once in the app, under its owner: jobs' clients are created under it.
pub(crate) fn init() {
    REGISTRY.with(|r| r.borrow_mut().owner = Owner::current());
}

/// From the first job on: the end of the session forgets every job, and the tab asks before
/// closing while one writes. (Here, not in [`init`], so the first load does not carry it.)
fn watch() {
    let first = REGISTRY.with(|r| !std::mem::replace(&mut r.borrow_mut().watching, true));
    if !first {
        return;
    }
    on_session_end(forget_all);
    let on_unload: Closure<dyn FnMut(web_sys::Event)> = Closure::new(|ev: web_sys::Event| {
        if writing() {
            ev.prevent_default();
            if let Some(ev) = ev.dyn_ref::<web_sys::BeforeUnloadEvent>() {
                ev.set_return_value("");
            }
        }
    });
    if let Some(window) = web_sys::window() {
        let _ = window
            .add_event_listener_with_callback("beforeunload", on_unload.as_ref().unchecked_ref());
    }
    // Lives as long as the page.
    on_unload.forget();
}

/// Whether a job that writes to the platform is running.
pub(crate) fn writing() -> bool {
    writer().is_some()
}

/// The running job that writes to the platform, if one does.
pub(crate) fn writer() -> Option<JobStatus> {
    let id = REGISTRY.with(|r| {
        r.borrow()
            .entries
            .iter()
            .find(|e| e.running && e.kind.writes())
            .map(|e| e.id)
    })?;
    list().with_untracked(|all| all.iter().find(|s| s.id == id).cloned())
}

/// Starts `work(input, ctx)` as a job of `kind`, shown as `title` with its results at `href`.
pub(crate) fn start<I: 'static, R: Default + Send + Sync + 'static>(
    kind: JobKind,
    title: String,
    href: String,
    input: I,
    work: fn(I, JobCtx<R>) -> LocalBoxFuture<'static, JobEnd>,
) -> JobHandle<R> {
    watch();
    let scope = CancelScope::new();
    let lane = Rc::new(Lane::default());
    let result = ArcRwSignal::new(R::default());
    let (id, owner) = REGISTRY.with(|r| {
        let mut r = r.borrow_mut();
        r.next_id += 1;
        let id = r.next_id;
        r.entries.push(Entry {
            id,
            kind,
            running: true,
            lane: lane.clone(),
            scope: scope.clone(),
            result: Rc::new(result.clone()),
            answer: None,
            forget_when_ended: false,
        });
        (id, r.owner.clone())
    });
    forget_oldest_ended();
    list().update(|all| {
        all.push(JobStatus {
            id,
            kind,
            title,
            href,
            done: 0,
            of: None,
            note: "Starting…".into(),
            waiting_s: None,
            question: None,
            state: JobState::Running,
        })
    });
    lane.on_hold(move |s| update(id, |status| status.waiting_s = Some(s)));
    let job_owner = owner.unwrap_or_default().with(Owner::new);
    let api = job_owner.with(|| api_with_scope(scope));
    let ctx = JobCtx {
        id,
        api,
        lane,
        result: result.clone(),
    };
    // Not Leptos's spawn: the work runs under no owner at all (nothing of a screen's).
    wasm_bindgen_futures::spawn_local(async move {
        let end = work(input, ctx).await;
        let forget = REGISTRY.with(|r| {
            let mut r = r.borrow_mut();
            let entry = r.entries.iter_mut().find(|e| e.id == id);
            entry.is_some_and(|entry| {
                entry.running = false;
                entry.forget_when_ended
            })
        });
        update(id, |s| {
            s.state = end.state;
            s.note = end.note;
            s.waiting_s = None;
        });
        if forget {
            dismiss(id);
        }
        drop(job_owner);
    });
    JobHandle { id, result }
}

/// Stops job `id`: nothing more is sent, waits end within a tenth of a second. A job that
/// only reads also aborts its request in flight; a write in flight is let finish, so its
/// outcome is known.
pub(crate) fn cancel(id: u64) {
    REGISTRY.with(|r| {
        if let Some(entry) = r.borrow().entries.iter().find(|e| e.id == id) {
            entry.lane.stop();
            if !entry.kind.writes() {
                entry.scope.cancel();
            }
        }
    });
}

/// Cancels job `id` and forgets it once it has stopped: a job replaced by a fresh one (a
/// Refresh), whose ending nobody needs to see.
pub(crate) fn cancel_and_forget(id: u64) {
    cancel(id);
    REGISTRY.with(|r| {
        if let Some(entry) = r.borrow_mut().entries.iter_mut().find(|e| e.id == id) {
            entry.forget_when_ended = true;
        }
    });
    dismiss(id);
}

/// Answers the question job `id` asks (see [`JobCtx::ask`]).
pub(crate) fn answer(id: u64, yes: bool) {
    let sender = REGISTRY.with(|r| {
        r.borrow_mut()
            .entries
            .iter_mut()
            .find(|e| e.id == id)
            .and_then(|e| e.answer.take())
    });
    if let Some(sender) = sender {
        let _ = sender.send(yes);
    }
}

/// Forgets an ended job and its results.
pub(crate) fn dismiss(id: u64) {
    let ended = list().with_untracked(|all| all.iter().any(|s| s.id == id && !s.running()));
    if ended {
        REGISTRY.with(|r| r.borrow_mut().entries.retain(|e| e.id != id));
        list().update(|all| all.retain(|s| s.id != id));
    }
}

/// The latest job of `kind` (running, or ended and not dismissed), for its screen.
pub(crate) fn latest<R: 'static>(kind: JobKind) -> Option<JobHandle<R>> {
    REGISTRY.with(|r| {
        r.borrow()
            .entries
            .iter()
            .rev()
            .find(|e| e.kind == kind)
            .and_then(|e| {
                let result = e.result.downcast_ref::<ArcRwSignal<R>>()?.clone();
                Some(JobHandle { id: e.id, result })
            })
    })
}

/// The status of job `id`, tracked (for its screen).
pub(crate) fn status(id: u64) -> Option<JobStatus> {
    list().with(|all| all.iter().find(|s| s.id == id).cloned())
}

fn forget_oldest_ended() {
    let excess = list().with_untracked(Vec::len).saturating_sub(MAX_KEPT - 1);
    let oldest: Vec<u64> = list().with_untracked(|all| {
        all.iter()
            .filter(|s| !s.running())
            .take(excess)
            .map(|s| s.id)
            .collect()
    });
    for id in oldest {
        dismiss(id);
    }
}

/// Cancels every job (sign-out asked first when one writes).
pub(crate) fn cancel_all() {
    let ids: Vec<u64> = REGISTRY.with(|r| r.borrow().entries.iter().map(|e| e.id).collect());
    for id in ids {
        cancel(id);
    }
}

/// The session ended: every job stops and its results, platform data, are forgotten.
fn forget_all() {
    cancel_all();
    // The next session's token starts from nothing learned.
    token_pacer().forget();
    REGISTRY.with(|r| r.borrow_mut().entries.clear());
    list().set(Vec::new());
}

#[cfg(test)]
pub(crate) mod testing;

#[cfg(test)]
mod tests {

    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    use crate::api::testing::{until_turns as until, yield_now};

    /// The app: its owner, with what a job's client needs.
    fn app() -> Owner {
        let app = crate::api::testing::signed_in_app();
        app.with(init);
        app
    }

    /// Counts to `n`, a step per turn of the event loop, or until cancelled.
    fn count_to(n: u32, ctx: JobCtx<u32>) -> LocalBoxFuture<'static, JobEnd> {
        Box::pin(async move {
            for _ in 0..n {
                if ctx.cancelled() {
                    return JobEnd {
                        state: JobState::Cancelled,
                        note: "stopped".into(),
                    };
                }
                ctx.result.update(|r| *r += 1);
                let done = ctx.result.get_untracked();
                ctx.progress(
                    u64::from(done),
                    Some(u64::from(n)),
                    format!("{done} of {n}"),
                );
                yield_now().await;
            }
            JobEnd {
                state: JobState::Done,
                note: format!("counted to {n}"),
            }
        })
    }

    fn state_of(id: u64) -> Option<JobState> {
        list().with_untracked(|all| all.iter().find(|s| s.id == id).map(|s| s.state))
    }

    #[wasm_bindgen_test]
    async fn a_job_runs_to_its_end_after_its_screen_is_gone_and_is_found_again() {
        let app = app();
        let screen = app.with(Owner::new);
        let shown = screen.with(|| RwSignal::new(0u32));
        let job = screen.with(|| {
            start(
                JobKind::SendsWalk,
                "count".into(),
                "/sends".into(),
                200,
                count_to,
            )
        });
        // The admin leaves: the screen's state is disposed while the job runs.
        screen.cleanup();
        assert!(
            shown.try_get_untracked().is_none(),
            "the screen's state is gone"
        );
        until("the job ends", || state_of(job.id) == Some(JobState::Done)).await;
        assert_eq!(job.result.get_untracked(), 200, "every step ran");
        let again = latest::<u32>(JobKind::SendsWalk).expect("the job, found again");
        assert_eq!(again.id, job.id);
        assert_eq!(again.result.get_untracked(), 200);
        let status = list().with_untracked(|all| all.iter().find(|s| s.id == job.id).cloned());
        assert_eq!(status.map(|s| s.note), Some("counted to 200".to_owned()));
        // Kept until dismissed; then gone, results and all.
        dismiss(job.id);
        assert!(state_of(job.id).is_none());
        assert!(latest::<u32>(JobKind::SendsWalk).is_none_or(|j| j.id != job.id));
    }

    #[wasm_bindgen_test]
    async fn cancel_from_anywhere_stops_a_job_and_a_running_one_cannot_be_dismissed() {
        let app = app();
        let job = app.with(|| {
            start(
                JobKind::Import,
                "count".into(),
                "/users/import".into(),
                1_000_000,
                count_to,
            )
        });
        until("it has started", || job.result.get_untracked() > 3).await;
        assert!(writing(), "an import writes: leaving the tab asks");
        dismiss(job.id);
        assert_eq!(
            state_of(job.id),
            Some(JobState::Running),
            "not dismissed while running"
        );
        cancel(job.id);
        until("it stops", || state_of(job.id) == Some(JobState::Cancelled)).await;
        assert!(job.result.get_untracked() < 1_000_000);
        assert!(!writing());
        // Replaced by a fresh one: cancelled, and gone once it has stopped.
        let replaced = app.with(|| {
            start(
                JobKind::SpendFigures,
                "count".into(),
                "/".into(),
                1_000_000,
                count_to,
            )
        });
        until("it has started", || replaced.result.get_untracked() > 3).await;
        cancel_and_forget(replaced.id);
        until("it is forgotten", || state_of(replaced.id).is_none()).await;
        assert!(latest::<u32>(JobKind::SpendFigures).is_none());
        // The session's end forgets every job.
        forget_all();
        assert!(list().with_untracked(Vec::is_empty));
    }
}
