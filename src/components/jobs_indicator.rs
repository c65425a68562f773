//! The header's jobs indicator: every running job with its progress and Cancel, every ended
//! one with its outcome, a link back to its results and Dismiss; a job's end is announced
//! (`aria-live`). The screens that start jobs put it in the header's slot ([`show`]), so its
//! code comes with theirs and the first load does not carry it.

use std::any::Any;
use std::cell::RefCell;

use leptos::prelude::*;

use super::{Badge, Tone};
use crate::components::format::count_of;
use crate::i18n::{live_text, msg, t, M};
use crate::jobs::{self, JobState, JobStatus, Question};

thread_local! {
    /// The indicator mounted, kept so it stays (dropping it unmounts it).
    static MOUNTED: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
}

/// Puts the indicator in the header's slot, unless it is there. Called before a job starts;
/// after a sign-out and in again the header (and its slot) is new, and so is the indicator.
pub(crate) fn show() {
    let Some(slot) = crate::browser::element_by_id("jobs-slot") else {
        return;
    };
    if slot.child_element_count() > 0 {
        return;
    }
    // Under the app's owner: a screen's would take it away when the admin leaves.
    let mounted = jobs::with_app_owner(|| leptos::mount::mount_to(slot, JobsIndicator));
    MOUNTED.with(|m| *m.borrow_mut() = Some(Box::new(mounted)));
}

#[component]
fn JobsIndicator() -> impl IntoView {
    let list = jobs::list();
    let open = RwSignal::new(false);
    let announce = RwSignal::new(String::new());
    let watched = list.clone();
    // Each job that ends is said once, whichever screen is shown.
    Effect::new(move |before: Option<Vec<u64>>| {
        let running: Vec<u64> = watched.with(|all| {
            all.iter()
                .filter(|s| s.running() && s.kind.listed())
                .map(|s| s.id)
                .collect()
        });
        for id in before.unwrap_or_default() {
            let ended = watched
                .with_untracked(|all| all.iter().find(|s| s.id == id && !s.running()).cloned());
            if let Some(job) = ended {
                announce.set(format!(
                    "{} {}: {}",
                    job.title,
                    state_word(job.state),
                    job.note
                ));
            }
        }
        running
    });
    let counted = list.clone();
    let label = move || {
        counted.with(|all| {
            let all: Vec<&JobStatus> = all.iter().filter(|s| s.kind.listed()).collect();
            let running = all.iter().filter(|s| s.running()).count();
            let asking = all.iter().filter(|s| s.question.is_some()).count();
            if asking > 0 {
                msg::jobs_asking(asking as u64)
            } else if running > 0 {
                msg::jobs_running(running as u64)
            } else {
                msg::jobs_ended(all.len() as u64)
            }
        })
    };
    view! {
        <div class="jobs" data-testid="jobs">
            <button
                type="button"
                class="button button--small"
                aria-expanded=move || open.get().to_string()
                aria-controls="jobs-panel"
                data-testid="jobs-toggle"
                on:click=move |_| open.update(|o| *o = !*o)
            >
                {label}
            </button>
            <p class="visually-hidden" aria-live="polite" data-testid="jobs-announce">
                {live_text(move || announce.get())}
            </p>
            <Show when=move || open.get()>
                <JobsPanel list=list.clone() />
            </Show>
        </div>
    }
}

#[component]
fn JobsPanel(list: ArcRwSignal<Vec<JobStatus>>) -> impl IntoView {
    view! {
        <section id="jobs-panel" class="jobs__panel" aria-label=M::JobsTitle>
            <ul class="jobs__list">
                <For
                    each=move || list.with(|all| all.iter().filter(|s| s.kind.listed()).cloned().collect::<Vec<_>>())
                    key=|s| (s.id, s.state, s.done, s.of, s.note.clone(), s.waiting_s, s.question.clone())
                    children=job_line
                />
            </ul>
        </section>
    }
}

fn state_word(state: JobState) -> &'static str {
    t(match state {
        JobState::Running => M::JobsStateRunning,
        JobState::Done => M::JobsStateDone,
        JobState::Cancelled => M::JobsStateCancelled,
        JobState::Failed => M::JobsStateFailed,
    })
}

/// One job: its title (a link to its results), state, progress and the button it needs.
fn job_line(job: JobStatus) -> impl IntoView {
    let id = job.id;
    let tone = match job.state {
        JobState::Running => Tone::Neutral,
        JobState::Done => Tone::Success,
        JobState::Cancelled => Tone::Warning,
        JobState::Failed => Tone::Danger,
    };
    let note = match job.waiting_s {
        Some(s) => msg::jobs_slowed(&job.note, &s.to_string()),
        None => job.note.clone(),
    };
    let bar = match (job.running(), job.of) {
        (true, Some(of)) => Some(view! {
            <progress max=of.to_string() value=job.done.min(of).to_string()>
                {count_of(job.done, of)}
            </progress>
        }),
        _ => None,
    };
    let running = job.running();
    let (word, label) = if running {
        (M::CommonCancel, msg::common_cancel_item(&job.title))
    } else {
        (M::CommonDismiss, msg::common_dismiss_item(&job.title))
    };
    let act = move |_| {
        if running {
            jobs::cancel(id)
        } else {
            jobs::dismiss(id)
        }
    };
    let button = view! {
        <button type="button" class="button button--small" aria-label=label on:click=act>
            {word}
        </button>
    };
    view! {
        <li class="jobs__job" data-testid="job" data-job-state=state_word(job.state)>
            <a href=job.href.clone()>{job.title.clone()}</a>
            " "
            <Badge text=state_word(job.state).to_string() tone />
            {bar}
            <span class="jobs__note">{note}</span>
            {job.question.map(|q| question_view(id, q))}
            {button}
        </li>
    }
}

/// A running job's question and its two answers, wherever the job is shown.
pub(crate) fn question_view(id: u64, question: Question) -> impl IntoView {
    view! {
        <div class="jobs__question" role="group" aria-label=M::JobsAsks data-testid="job-question">
            <p>{question.text}</p>
            <button type="button" class="button button--small button--danger" on:click=move |_| jobs::answer(id, true)>
                {question.yes}
            </button>
            " "
            <button type="button" class="button button--small" on:click=move |_| jobs::answer(id, false)>
                {question.no}
            </button>
        </div>
    }
}
