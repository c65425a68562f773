//! The "Load all pages" control: starts the walk ([`super::walk_job`]), a job that goes on
//! when the admin leaves the screen, and shows it as it stands: "page 3 of 12" with a bar,
//! Cancel, Resume, and at the end what the loaded sends hold ("342 arrived while loading:
//! Load them").

use leptos::prelude::*;

use super::loaded::LoadedSends;
use super::memory;
use super::walk_job::{self, progress_text, Walk, WalkRun};
use crate::api::sends_walk::PER_PAGE;
use crate::components::format::count;
use crate::components::UseJob;
use crate::i18n::{live_text, msg, M};
use crate::jobs::JobState;

/// The control's view-model: the latest walk (a job the screen only reads) and its status.
#[derive(Clone, Copy)]
struct Walker {
    loaded: RwSignal<LoadedSends>,
    job: UseJob<WalkRun>,
}

impl Walker {
    fn new(loaded: RwSignal<LoadedSends>, job: UseJob<WalkRun>) -> Self {
        Walker { loaded, job }
    }

    fn is_running(self) -> bool {
        self.job.running()
    }

    fn start(self, walk: Walk) {
        // Refused only while a walk runs, and the button is disabled then.
        let _ = self.job.start(|| walk_job::start(memory::loaded(), walk));
    }

    /// The page being read and how many there are: the job's steps are the pages done.
    fn page(self) -> Option<(u64, Option<u64>)> {
        self.job.status().map(|s| (s.done + 1, s.of))
    }

    fn resume_page(self) -> Option<u64> {
        if self.is_running() {
            return None;
        }
        self.job.with(|r| r.resume_page).flatten()
    }

    /// Sends on the platform that are not loaded, after a walk that reached the end (not one
    /// that stopped short on purpose).
    fn newer(self) -> u64 {
        let short = self.job.with(WalkRun::stopped_short) == Some(true);
        let ended = self.job.state() == Some(JobState::Done) && !short;
        if !ended {
            return 0;
        }
        self.loaded
            .with(|l| l.total().unwrap_or(0).saturating_sub(l.len() as u64))
    }

    /// The status line under the buttons.
    fn status_text(self) -> Option<String> {
        let status = self.job.status()?;
        let (page, pages) = self.page()?;
        Some(match status.state {
            JobState::Running => match status.waiting_s {
                Some(s) => {
                    msg::sends_walk_slowed(&progress_text(page.max(1), pages), &s.to_string())
                }
                None => msg::sends_walk_loading(&progress_text(page.max(1), pages)),
            },
            JobState::Done
                if self.job.with(WalkRun::stopped_short) == Some(true)
                    || !self.loaded.with(LoadedSends::is_whole) =>
            {
                status.note
            }
            JobState::Done => {
                let (held, total) = self
                    .loaded
                    .with(|l| (l.len() as u64, l.total().unwrap_or(0)));
                if held >= total {
                    msg::sends_walk_all_loaded(&count(held), total)
                } else {
                    msg::sends_walk_arrived(&count(held), total, total - held)
                }
            }
            JobState::Cancelled | JobState::Failed => status.note,
        })
    }
}

/// Starts `walk(key)` when the address asks for `key` (a day, a send) and the loaded sends do
/// not `have` it yet. Once per key: a walk that fails or is cancelled is not started again
/// unasked. A walk already running (another key's) is let finish, then this one starts if
/// still needed, so the effect follows the running state too.
fn walk_when_asked<K: Copy + PartialEq + Send + Sync + 'static>(
    walker: Walker,
    asked: Signal<Option<K>>,
    have: impl Fn(K) -> bool + 'static,
    walk: impl Fn(K) -> Walk + 'static,
) {
    let started_for = StoredValue::new(None::<K>);
    Effect::new(move |_| {
        let Some(key) = asked.get() else {
            return;
        };
        if walker.is_running() {
            return;
        }
        if !untrack(|| have(key)) && started_for.get_value() != Some(key) {
            started_for.set_value(Some(key));
            walker.start(walk(key));
        }
    });
}

/// The "Load all pages" control with its progress. A filter is answered over every send, so
/// the pages it needs are read as a job as soon as it is on: with `since` in the address (a
/// link from Home to the sends needing attention) the sends back to that day, with `send` the
/// pages until that send, with any other filter the whole list (from the first page not yet
/// read), once per visit: a walk the admin cancels is resumed only when asked.
#[component]
pub(crate) fn LoadAll(
    loaded: RwSignal<LoadedSends>,
    /// The screen's one view of the latest walk.
    walk: UseJob<WalkRun>,
    since: Signal<Option<u32>>,
    /// One send asked for (`?send=`): the pages are read until it is loaded.
    send: Signal<Option<u64>>,
    /// The filter needs every send (see `SendFilter::needs_every_send`).
    every: Signal<bool>,
) -> impl IntoView {
    let walker = Walker::new(loaded, walk);
    // Shown again with the whole list held: its newest sends and those still moving are read
    // again, so what the screen holds is fresh.
    let returned = loaded.with_untracked(LoadedSends::is_whole);
    walk_when_asked(
        walker,
        Signal::derive(move || returned.then_some(())),
        |()| false,
        |()| Walk::Refresh,
    );
    walk_when_asked(
        walker,
        Signal::derive(move || every.get().then_some(())),
        move |()| loaded.with(LoadedSends::is_whole),
        move |()| Walk::From(loaded.with_untracked(|l| l.first_missing_page(PER_PAGE))),
    );
    walk_when_asked(
        walker,
        send,
        move |id| loaded.with(|l| l.contains(id) || l.is_whole()),
        Walk::Find,
    );
    walk_when_asked(
        walker,
        since,
        move |day| loaded.with(|l| l.covers_since(day)),
        Walk::Since,
    );
    view! {
        <div class="load-all" role="group" aria-label=M::SendsLoadAll data-testid="load-all">
            <button
                type="button"
                class="button"
                on:click=move |_| walker.start(Walk::From(1))
                disabled=move || walker.is_running()
            >
                {M::SendsLoadAll}
            </button>
            {move || walker.resume_page().map(|page| view! {
                <button type="button" class="button" on:click=move |_| walker.start(Walk::From(page))>
                    {M::SendsResume}
                </button>
            })}
            <Show when={move || walker.newer() > 0}>
                <button type="button" class="button" on:click=move |_| walker.start(Walk::Newest)>
                    {M::SendsLoadNewer}
                </button>
            </Show>
            <Show when=move || walker.is_running()>
                <button type="button" class="button button--danger" on:click=move |_| walker.job.cancel()>
                    {M::SendsCancelLoading}
                </button>
            </Show>
            <WalkBar walker />
            <p
                class="load-all__status"
                role="status"
                aria-live="polite"
                data-testid="load-all-status"
            >
                {live_text(move || walker.status_text())}
            </p>
        </div>
    }
}

/// The progress bar while a walk runs: "page 3 of 12", or indeterminate before the first
/// answer tells how many pages there are.
#[component]
fn WalkBar(walker: Walker) -> impl IntoView {
    move || {
        if !walker.is_running() {
            return None;
        }
        let (page, pages) = walker.page()?;
        Some(match pages {
            Some(pages) => view! {
                <progress
                    class="load-all__bar"
                    aria-label=M::SendsPagesLoaded
                    max=pages.to_string()
                    value=page.saturating_sub(1).min(pages).to_string()
                >
                    {progress_text(page, Some(pages))}
                </progress>
            }
            .into_any(),
            None => {
                view! { <progress class="load-all__bar" aria-label=M::SendsPagesLoaded></progress> }
                    .into_any()
            }
        })
    }
}
