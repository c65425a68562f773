//! A screen's handle on its job ([`crate::jobs`]): the latest job of one kind, found again
//! when the screen is shown again, its result and status tracked, and the screen's controls
//! (start, cancel, dismiss, restart). The job itself holds no screen state; this handle is
//! the screen's, and goes with it.

use std::sync::atomic::{AtomicU64, Ordering as AtomicOrdering};
use std::sync::Arc;

use leptos::prelude::*;

use crate::i18n::{msg, t, M};
use crate::jobs::{
    cancel, cancel_and_forget, dismiss, latest, writer, JobHandle, JobKind, JobState, JobStatus,
};

/// A screen's view of the latest job of one kind: the one it shows (found again when the
/// screen is shown again), its result and status (tracked), and the screen's controls.
pub(crate) struct UseJob<R: 'static> {
    kind: JobKind,
    shown: RwSignal<Option<JobHandle<R>>>,
}

impl<R> Clone for UseJob<R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for UseJob<R> {}

/// The latest job of `kind` (running, or ended and not dismissed), as its screen shows it.
pub(crate) fn use_job<R: Send + Sync + 'static>(kind: JobKind) -> UseJob<R> {
    UseJob {
        kind,
        shown: RwSignal::new(latest(kind)),
    }
}

impl<R: Send + Sync + 'static> UseJob<R> {
    /// Reads the result of the job shown, tracked; `None` when none is shown.
    pub(crate) fn with<T>(self, f: impl FnOnce(&R) -> T) -> Option<T> {
        self.shown
            .with(|job| job.as_ref().map(|job| job.result.with(f)))
    }

    /// As [`UseJob::with`], untracked (in an action).
    pub(crate) fn with_untracked<T>(self, f: impl FnOnce(&R) -> T) -> Option<T> {
        self.shown
            .with_untracked(|job| job.as_ref().map(|job| job.result.with_untracked(f)))
    }

    /// Its status in the jobs list, tracked.
    pub(crate) fn status(self) -> Option<JobStatus> {
        self.shown
            .with(|job| job.as_ref().and_then(JobHandle::status))
    }

    pub(crate) fn state(self) -> Option<JobState> {
        self.status().map(|s| s.state)
    }

    pub(crate) fn running(self) -> bool {
        self.state() == Some(JobState::Running)
    }

    /// Whether a job is shown (running, or ended and not dismissed), tracked.
    pub(crate) fn shown(self) -> bool {
        self.shown.with(Option::is_some)
    }

    /// Stops the job shown (see [`cancel`]).
    pub(crate) fn cancel(self) {
        if let Some(id) = self.id_untracked() {
            cancel(id);
        }
    }

    /// Forgets the ended job shown, and shows none.
    pub(crate) fn dismiss(self) {
        if let Some(id) = self.id_untracked() {
            dismiss(id);
        }
        self.shown.set(None);
    }

    /// Starts a fresh job (`start` starts it) in place of the one shown, which is forgotten.
    /// Refused, with the reason in words, while the one shown runs, or, for work that writes,
    /// while another job writes: two runs changing the same users at once would race.
    pub(crate) fn start(self, start: impl FnOnce() -> JobHandle<R>) -> Result<(), String> {
        if untrack(|| self.running()) {
            return Err(t(M::JobsStillRunning).into());
        }
        if self.kind.writes() {
            if let Some(other) = writer() {
                return Err(msg::jobs_other_writing(&other.title));
            }
        }
        self.dismiss();
        self.shown.set(Some(start()));
        Ok(())
    }

    /// Cancels the job shown, forgotten as soon as it has stopped, and starts a fresh one in
    /// its place: a Refresh.
    pub(crate) fn restart(self, start: impl FnOnce() -> JobHandle<R>) {
        if let Some(id) = self.id_untracked() {
            cancel_and_forget(id);
        }
        self.shown.set(Some(start()));
    }

    /// Makes the job this screen's alone: one left by an earlier visit is dropped, `ended`
    /// runs (untracked) each time a run ends, and one still running when the screen goes (its
    /// owner is cleaned up) is cancelled, since only this screen can use its result. The id is
    /// kept outside the screen's signals, which are gone by then.
    pub(crate) fn owned_by_screen(self, ended: impl Fn() + 'static) {
        self.cancel();
        self.dismiss();
        Effect::new(move |_| {
            if !matches!(self.state(), None | Some(JobState::Running)) {
                untrack(&ended);
            }
        });
        let shown = Arc::new(AtomicU64::new(0));
        let seen = shown.clone();
        Effect::new(move |_| seen.store(self.id().unwrap_or(0), AtomicOrdering::Relaxed));
        on_cleanup(move || {
            let id = shown.load(AtomicOrdering::Relaxed);
            if id != 0 {
                cancel(id);
            }
        });
    }

    /// Which job is shown, tracked: changes when another is started, not as it goes on.
    pub(crate) fn id(self) -> Option<u64> {
        self.shown.with(|job| job.as_ref().map(|job| job.id))
    }

    /// (Also from a screen's cleanup, when its signals may be gone already.)
    fn id_untracked(self) -> Option<u64> {
        self.shown
            .try_with_untracked(|job| job.as_ref().map(|job| job.id))
            .flatten()
    }
}

#[cfg(test)]
mod tests {
    use futures::future::LocalBoxFuture;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::jobs::{self, list, JobCtx, JobEnd};

    use crate::api::testing::{until_turns as until, yield_now};

    /// Counts until cancelled, a step per turn of the event loop.
    fn count(_: (), ctx: JobCtx<u32>) -> LocalBoxFuture<'static, JobEnd> {
        Box::pin(async move {
            while !ctx.cancelled() {
                ctx.result.update(|r| *r += 1);
                yield_now().await;
            }
            JobEnd {
                state: JobState::Cancelled,
                note: "stopped".into(),
            }
        })
    }

    fn counting(kind: JobKind) -> impl FnOnce() -> JobHandle<u32> {
        move || jobs::start(kind, "count".into(), "/".into(), (), count)
    }

    fn listed(id: Option<u64>) -> bool {
        list().with_untracked(|all| all.iter().any(|s| Some(s.id) == id))
    }

    fn running(kind: JobKind) -> bool {
        list().with_untracked(|all| all.iter().any(|s| s.kind == kind && s.running()))
    }

    #[wasm_bindgen_test]
    async fn a_screen_starts_one_job_at_a_time_and_no_write_races_another() {
        let app = crate::api::testing::signed_in_app();
        app.with(jobs::init);
        let (bulk, import) = app.with(|| {
            (
                use_job::<u32>(JobKind::BulkChange),
                use_job::<u32>(JobKind::Import),
            )
        });
        assert!(!bulk.shown());
        assert_eq!(
            app.with(|| bulk.start(counting(JobKind::BulkChange))),
            Ok(())
        );
        until("it runs", || bulk.with_untracked(|n| *n > 2) == Some(true)).await;
        assert!(
            bulk.start(counting(JobKind::BulkChange)).is_err(),
            "a second start while it runs is refused"
        );
        let refused = import.start(counting(JobKind::Import));
        assert!(
            refused
                .as_ref()
                .is_err_and(|why| why.contains("still changing users")),
            "an import while a bulk change writes is refused in words: {refused:?}"
        );
        assert!(!import.shown(), "and nothing was started");
        assert!(!running(JobKind::Import));
        bulk.cancel();
        until("it stops", || bulk.state() == Some(JobState::Cancelled)).await;
        // Ended: the next start replaces it, and the ended one is forgotten.
        let first = bulk.id();
        assert_eq!(app.with(|| import.start(counting(JobKind::Import))), Ok(()));
        assert!(app
            .with(|| bulk.start(counting(JobKind::BulkChange)))
            .is_err());
        import.cancel();
        until("the import stops", || {
            import.state() == Some(JobState::Cancelled)
        })
        .await;
        assert_eq!(
            app.with(|| bulk.start(counting(JobKind::BulkChange))),
            Ok(())
        );
        assert!(!listed(first), "the ended one is gone");
        // Restart: the running one is cancelled and forgotten once stopped.
        let running = bulk.id();
        app.with(|| bulk.restart(counting(JobKind::BulkChange)));
        until("the replaced one is forgotten", || !listed(running)).await;
        assert!(bulk.running());
        bulk.cancel();
        until("it stops", || !bulk.running()).await;
        jobs::cancel_all();
    }
}
