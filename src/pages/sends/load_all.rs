//! "Load all pages": walks the whole send history at 100 a request into the loaded sends, so
//! the overview, filters and export can cover everything. Shows "page 3 of 12" with a bar,
//! can be cancelled and resumed, paces itself and waits out the platform's rate limit
//! (see [`super::pacing`]).

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use gifting_api::paths;
use gifting_api::rest::{page_count, PageQuery, SendPage};
use leptos::prelude::*;
use send_wrapper::SendWrapper;

use super::loaded::LoadedSends;
use super::pacing::{busy_wait_ms, pace_delay_ms, progress_text, WALK_PER_PAGE};
use crate::api::{use_net_status, ApiClient, ApiError, CancelScope};
use crate::auth::use_auth;
use crate::browser::sleep;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WalkState {
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
    js_sys::Date::now()
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

async fn walk(
    client: ApiClient,
    loaded: RwSignal<LoadedSends>,
    state: RwSignal<WalkState>,
    run: Rc<Run>,
    from_page: u64,
) {
    let mut page = from_page.max(1);
    let mut pages: Option<u64> = None;
    let mut last_start: Option<f64> = None;
    let mut busy_in_a_row = 0u32;
    let outcome = loop {
        if run.stopped.get() {
            break WalkState::Cancelled {
                next_page: page,
                pages,
            };
        }
        if pages.is_some_and(|p| page > p) {
            break WalkState::Done {
                pages: pages.unwrap_or(0),
            };
        }
        let running = WalkState::Running {
            page,
            pages,
            waiting_s: None,
        };
        if state.try_set(running).is_some() {
            // The screen is gone (its state disposed): nothing to walk for.
            return;
        }
        wait(pace_delay_ms(last_start, now()), &run).await;
        if run.stopped.get() {
            continue;
        }
        last_start = Some(now());
        let query = PageQuery::new(page.min(u64::from(u32::MAX)) as u32, WALK_PER_PAGE);
        let path = format!("{}{}", paths::V3_SENDS, query.to_query_string());
        match client.get_json::<SendPage>(&path).await {
            Ok(body) => {
                busy_in_a_row = 0;
                let total = body.total_count;
                pages = Some(page_count(total, WALK_PER_PAGE));
                let past_the_end = body.sends.is_empty();
                let stored = loaded.try_update(|l| {
                    l.insert_page(body.current_page, body.per_page, total, &body.sends)
                });
                if stored.is_none() {
                    return;
                }
                if past_the_end {
                    // The list shrank while walking: everything there is, is loaded.
                    break WalkState::Done {
                        pages: pages.unwrap_or(0),
                    };
                }
                page += 1;
            }
            Err(ApiError::Busy { retry_after }) => {
                busy_in_a_row += 1;
                let Some(ms) = busy_wait_ms(retry_after, busy_in_a_row) else {
                    break WalkState::Failed {
                        next_page: page,
                        pages,
                        message: ApiError::Busy { retry_after }.user_message(),
                    };
                };
                let waiting = WalkState::Running {
                    page,
                    pages,
                    waiting_s: Some(ms.div_ceil(1000)),
                };
                if state.try_set(waiting).is_some() {
                    return;
                }
                wait(ms, &run).await;
            }
            Err(ApiError::Cancelled) => {
                break WalkState::Cancelled {
                    next_page: page,
                    pages,
                }
            }
            Err(error) => {
                break WalkState::Failed {
                    next_page: page,
                    pages,
                    message: error.user_message(),
                }
            }
        }
    };
    let _ = state.try_set(outcome);
}

/// The "Load all pages" control with its progress.
#[component]
pub fn LoadAll(loaded: RwSignal<LoadedSends>) -> impl IntoView {
    let auth = use_auth();
    let net = use_net_status();
    let owner = Owner::current();
    let state = RwSignal::new(WalkState::Idle);
    let current: SendWrapper<Rc<std::cell::RefCell<Option<Rc<Run>>>>> =
        SendWrapper::new(Rc::default());

    let stop_current = {
        let current = current.clone();
        move || {
            if let Some(run) = current.borrow_mut().take() {
                run.stop();
            }
        }
    };
    // Leaving the screen ends the walk and its request in flight.
    on_cleanup({
        let stop_current = SendWrapper::new(stop_current.clone());
        move || stop_current()
    });

    let start = {
        let current = current.clone();
        let stop_current = stop_current.clone();
        move |from_page: u64| {
            stop_current();
            let scope = CancelScope::new();
            let run = Rc::new(Run {
                scope: scope.clone(),
                stopped: Cell::new(false),
            });
            *current.borrow_mut() = Some(run.clone());
            let make = move || ApiClient::new(auth, net, scope);
            let client = match &owner {
                Some(owner) => owner.with(make),
                None => make(),
            };
            leptos::task::spawn_local(walk(client, loaded, state, run, from_page));
        }
    };

    let on_start = {
        let start = start.clone();
        move |_| start(1)
    };
    let on_resume = move |_| {
        if let Some(page) = state.with_untracked(WalkState::resume_page) {
            start(page);
        }
    };
    let on_cancel = move |_| stop_current();

    let status = move || match state.get() {
        WalkState::Idle => None,
        WalkState::Running {
            page,
            pages,
            waiting_s,
        } => Some(match waiting_s {
            Some(s) => format!(
                "Loading {}: the platform asked to slow down, waiting {s} s…",
                progress_text(page, pages)
            ),
            None => format!("Loading {}…", progress_text(page, pages)),
        }),
        WalkState::Done { pages } => Some(format!(
            "All pages loaded: {} of {} sends ({pages} {}).",
            loaded.with(LoadedSends::len),
            loaded.with(|l| l.total().unwrap_or(0)),
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
    };
    let bar = move || match state.get() {
        WalkState::Running { page, pages, .. } => Some(match pages {
            Some(pages) => view! {
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
            // Until the first answer tells how many pages there are.
            None => view! { <progress class="load-all__bar" aria-label="Pages loaded"></progress> }
                .into_any(),
        }),
        _ => None,
    };
    let running = move || state.with(WalkState::is_running);
    let resumable = move || state.with(|s| s.resume_page().is_some());

    view! {
        <div class="load-all" role="group" aria-label="Load all pages" data-testid="load-all">
            <button
                type="button"
                class="button"
                on:click=on_start
                disabled=running
            >
                "Load all pages"
            </button>
            <Show when=resumable>
                <button type="button" class="button" on:click=on_resume.clone()>
                    "Resume"
                </button>
            </Show>
            <Show when=running>
                <button type="button" class="button button--danger" on:click=on_cancel.clone()>
                    "Cancel loading"
                </button>
            </Show>
            {bar}
            <p
                class="load-all__status"
                role="status"
                aria-live="polite"
                data-testid="load-all-status"
            >
                {status}
            </p>
        </div>
    }
}
