//! "Load all pages": walks the whole send history at 100 a request into the loaded sends, so
//! the overview, filters and export can cover everything. Shows "page 3 of 12" with a bar,
//! can be cancelled and resumed, and goes as fast as the platform's rate limit allows: it
//! learns the limit from the platform's refusals and waits them out itself (see
//! [`super::pacing`]).

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use gifting_api::paths::endpoint;
use gifting_api::rest::{page_count, PageQuery, SendPage};
use leptos::prelude::*;
use leptos::reactive::owner::WeakOwner;
use send_wrapper::SendWrapper;

use super::loaded::LoadedSends;
use super::pacing::{busy_wait_ms, progress_text, Pace, WALK_PER_PAGE};
use crate::api::{api_with_scope, ApiClient, ApiError, CancelScope};
use crate::browser::{now_ms, sleep};

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum WalkState {
    Idle,
    Running {
        page: u64,
        pages: Option<u64>,
        /// Seconds the walk waits because the platform asked it to slow down.
        waiting_s: Option<u64>,
    },
    Done {
        pages: u64,
    },
    Cancelled {
        next_page: u64,
        pages: Option<u64>,
    },
    Failed {
        next_page: u64,
        pages: Option<u64>,
        message: String,
    },
}

impl WalkState {
    fn is_running(&self) -> bool {
        matches!(self, WalkState::Running { .. })
    }

    /// Where "Resume" starts.
    fn resume_page(&self) -> Option<u64> {
        match self {
            WalkState::Cancelled { next_page, .. } | WalkState::Failed { next_page, .. } => {
                Some(*next_page)
            }
            _ => None,
        }
    }
}

/// How often a running walk shows what it loaded so far.
const SHOW_EVERY_MS: f64 = 2_000.0;

/// One walk: its requests (aborted by cancel) and a flag its waits check.
struct Run {
    scope: CancelScope,
    stopped: Cell<bool>,
}

impl Run {
    fn stop(&self) {
        self.stopped.set(true);
        self.scope.cancel();
    }
}

fn now() -> f64 {
    now_ms() as f64
}

/// Sleeps `ms` in short steps, returning early once the run is stopped.
async fn wait(ms: u64, run: &Run) {
    let until = now() + ms as f64;
    while !run.stopped.get() {
        let left = until - now();
        if left <= 0.0 {
            break;
        }
        sleep(Duration::from_millis(left.min(100.0).ceil() as u64)).await;
    }
}

/// One walk under way: the page it asks for next and what it learned so far.
struct Walk {
    client: ApiClient,
    loaded: RwSignal<LoadedSends>,
    state: RwSignal<WalkState>,
    run: Rc<Run>,
    page: u64,
    pages: Option<u64>,
    last_start: Option<f64>,
    pace: Pace,
    busy_in_a_row: u32,
    /// When the screen was last told of the new sends.
    shown_at: f64,
}

/// Where one step of a walk leads.
enum Step {
    Next,
    End(WalkState),
    /// The screen is gone (its state disposed): nothing to walk for, nothing to show.
    Gone,
}

async fn walk(
    client: ApiClient,
    loaded: RwSignal<LoadedSends>,
    state: RwSignal<WalkState>,
    run: Rc<Run>,
    from_page: u64,
) {
    let mut walk = Walk {
        client,
        loaded,
        state,
        run,
        page: from_page.max(1),
        pages: None,
        last_start: None,
        pace: Pace::default(),
        busy_in_a_row: 0,
        shown_at: now(),
    };
    loop {
        match walk.step().await {
            Step::Next => {}
            Step::End(outcome) => {
                loaded.try_update(|_| ());
                let _ = state.try_set(outcome);
                return;
            }
            Step::Gone => return,
        }
    }
}

impl Walk {
    fn cancelled(&self) -> Step {
        Step::End(WalkState::Cancelled {
            next_page: self.page,
            pages: self.pages,
        })
    }

    fn failed(&self, message: String) -> Step {
        Step::End(WalkState::Failed {
            next_page: self.page,
            pages: self.pages,
            message,
        })
    }

    fn done(&self) -> Step {
        Step::End(WalkState::Done {
            pages: self.pages.unwrap_or(0),
        })
    }

    /// Shows the page being loaded; false once the screen is gone.
    fn show_running(&self, waiting_s: Option<u64>) -> bool {
        let running = WalkState::Running {
            page: self.page,
            pages: self.pages,
            waiting_s,
        };
        self.state.try_set(running).is_none()
    }

    /// Asks for the next page, paced, and takes the answer in.
    async fn step(&mut self) -> Step {
        if self.run.stopped.get() {
            return self.cancelled();
        }
        if self.pages.is_some_and(|p| self.page > p) {
            return self.done();
        }
        if !self.show_running(None) {
            return Step::Gone;
        }
        wait(self.pace.delay_ms(self.last_start, now()), &self.run).await;
        if self.run.stopped.get() {
            // The next step says it was cancelled.
            return Step::Next;
        }
        let started = now();
        self.last_start = Some(started);
        let query = PageQuery::new(self.page.min(u64::from(u32::MAX)) as u32, WALK_PER_PAGE);
        let call = endpoint::LIST_SENDS
            .call(&[])
            .query(&query.to_query_string());
        // Busy answers come straight back: the walk's own pace and wait are the only ones.
        match self.client.get_json_self_paced::<SendPage>(call).await {
            Ok(body) => {
                self.pace.answered(started);
                self.accept(body)
            }
            Err(ApiError::Busy { retry_after }) => {
                self.pace.refused(started);
                self.slow_down(retry_after).await
            }
            Err(ApiError::Cancelled) => self.cancelled(),
            Err(error) => self.failed(error.user_message()),
        }
    }

    fn accept(&mut self, body: SendPage) -> Step {
        self.busy_in_a_row = 0;
        let total = body.total_count;
        self.pages = Some(page_count(total, WALK_PER_PAGE));
        let stored = self.loaded.try_update_untracked(|l| {
            l.insert_page(body.current_page, body.per_page, total, &body.sends)
        });
        if stored.is_none() {
            return Step::Gone;
        }
        // The overview, filters and coverage follow every two seconds, not on every page:
        // redrawing them (thousands of sender options) ten times a second would slow the walk.
        if now() - self.shown_at >= SHOW_EVERY_MS {
            self.shown_at = now();
            self.loaded.try_update(|_| ());
        }
        if body.sends.is_empty() {
            // The list shrank while walking: everything there is, is loaded.
            return self.done();
        }
        self.page += 1;
        Step::Next
    }

    /// The platform asked to slow down: wait as it says, or give up after too many in a row.
    async fn slow_down(&mut self, retry_after: Option<u64>) -> Step {
        self.busy_in_a_row += 1;
        let Some(ms) = busy_wait_ms(retry_after, self.busy_in_a_row) else {
            return self.failed(ApiError::Busy { retry_after }.user_message());
        };
        if !self.show_running(Some(ms.div_ceil(1000))) {
            return Step::Gone;
        }
        wait(ms, &self.run).await;
        Step::Next
    }
}

/// The control's view-model: the walk's state and the run under way, which the buttons start,
/// resume and cancel.
#[derive(Clone, Copy)]
struct Walker {
    loaded: RwSignal<LoadedSends>,
    state: RwSignal<WalkState>,
    /// The screen's owner (weak: it owns this walker): each walk's client is created under it.
    owner: StoredValue<Option<WeakOwner>>,
    current: StoredValue<Option<SendWrapper<Rc<Run>>>>,
}

impl Walker {
    /// Call in the component's body: leaving the screen ends the walk and its request in flight.
    fn for_current_screen(loaded: RwSignal<LoadedSends>) -> Self {
        let walker = Walker {
            loaded,
            state: RwSignal::new(WalkState::Idle),
            owner: StoredValue::new(Owner::current().map(|o| o.downgrade())),
            current: StoredValue::new(None),
        };
        on_cleanup(move || walker.stop());
        walker
    }

    fn stop(&self) {
        if let Some(run) = self.current.try_update_value(Option::take).flatten() {
            run.stop();
        }
    }

    fn start(&self, from_page: u64) {
        self.stop();
        // A screen already left starts nothing.
        let Some(owner) = self
            .owner
            .with_value(|o| o.as_ref().and_then(WeakOwner::upgrade))
        else {
            return;
        };
        let scope = CancelScope::new();
        let run = Rc::new(Run {
            scope: scope.clone(),
            stopped: Cell::new(false),
        });
        self.current.set_value(Some(SendWrapper::new(run.clone())));
        let client = owner.with(|| api_with_scope(scope));
        leptos::task::spawn_local(walk(client, self.loaded, self.state, run, from_page));
    }

    fn resume(&self) {
        if let Some(page) = self.state.with_untracked(WalkState::resume_page) {
            self.start(page);
        }
    }

    fn is_running(&self) -> bool {
        self.state.with(WalkState::is_running)
    }

    fn is_resumable(&self) -> bool {
        self.state.with(|s| s.resume_page().is_some())
    }

    /// The status line under the buttons.
    fn status(&self) -> Option<String> {
        match self.state.get() {
            WalkState::Idle => None,
            WalkState::Running {
                page,
                pages,
                waiting_s: Some(s),
            } => Some(format!(
                "Loading {}: the platform asked to slow down, waiting {s} s…",
                progress_text(page, pages)
            )),
            WalkState::Running { page, pages, .. } => {
                Some(format!("Loading {}…", progress_text(page, pages)))
            }
            WalkState::Done { pages } => Some(format!(
                "All pages loaded: {} of {} sends ({pages} {}).",
                self.loaded.with(LoadedSends::len),
                self.loaded.with(|l| l.total().unwrap_or(0)),
                if pages == 1 { "page" } else { "pages" }
            )),
            WalkState::Cancelled { next_page, pages } => Some(format!(
                "Loading cancelled before {}.",
                progress_text(next_page, pages)
            )),
            WalkState::Failed {
                next_page,
                pages,
                message,
            } => Some(format!(
                "Loading stopped at {}: {message}",
                progress_text(next_page, pages)
            )),
        }
    }
}

/// The "Load all pages" control with its progress.
#[component]
pub(crate) fn LoadAll(loaded: RwSignal<LoadedSends>) -> impl IntoView {
    let walker = Walker::for_current_screen(loaded);
    view! {
        <div class="load-all" role="group" aria-label="Load all pages" data-testid="load-all">
            <button
                type="button"
                class="button"
                on:click=move |_| walker.start(1)
                disabled=move || walker.is_running()
            >
                "Load all pages"
            </button>
            <Show when=move || walker.is_resumable()>
                <button type="button" class="button" on:click=move |_| walker.resume()>
                    "Resume"
                </button>
            </Show>
            <Show when=move || walker.is_running()>
                <button type="button" class="button button--danger" on:click=move |_| walker.stop()>
                    "Cancel loading"
                </button>
            </Show>
            <WalkBar state=walker.state />
            <p
                class="load-all__status"
                role="status"
                aria-live="polite"
                data-testid="load-all-status"
            >
                {move || walker.status()}
            </p>
        </div>
    }
}

/// The progress bar while a walk runs: "page 3 of 12", or indeterminate before the first
/// answer tells how many pages there are.
#[component]
fn WalkBar(state: RwSignal<WalkState>) -> impl IntoView {
    move || match state.get() {
        WalkState::Running {
            page,
            pages: Some(pages),
            ..
        } => Some(
            view! {
                <progress
                    class="load-all__bar"
                    aria-label="Pages loaded"
                    max=pages.to_string()
                    value=(page - 1).min(pages).to_string()
                >
                    {progress_text(page, Some(pages))}
                </progress>
            }
            .into_any(),
        ),
        WalkState::Running { pages: None, .. } => Some(
            view! { <progress class="load-all__bar" aria-label="Pages loaded"></progress> }
                .into_any(),
        ),
        _ => None,
    }
}
