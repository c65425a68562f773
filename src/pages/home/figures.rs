//! What needs the admin today, on Home: first the answer (groups over and near budget, sends
//! needing attention this month and last), then the groups that need attention, the sends
//! needing attention by reason and month, and a small trend of the two months. A sender sees
//! their own sends. The figures come from a walk of the newest sends
//! ([`crate::spend::walk_job`]). Nothing is concluded before every input has arrived: no count
//! shows until the walk has read both months (and, for an admin, the team groups have been
//! read); meanwhile a line says what is being read. The answer is read again every 30 s while
//! the tab is visible, and the last complete answer stays, with its time, until the new one is
//! complete.

use std::time::Duration;

use gifting_api::rest::CurrentUser;
use gifting_api::Role;
use leptos::either::Either;
use leptos::prelude::*;

use super::export::download_report;
use super::home_details;
use super::summary::SummaryBand;
use crate::api::{use_current_user, use_team_groups, TeamGroups};
use crate::browser::page_hidden;
use crate::components::format;
use crate::components::lazy_screen::LazyPart;
use crate::components::{use_job, UseJob};
use crate::i18n::{live_text, msg, t, M};
use crate::jobs::{JobKind, JobState};
use crate::spend::report::{BudgetRow, Report};
use crate::spend::walk_job::{self, progress_of, reading_of, Figures};

/// How often home reads its figures again while the tab is visible.
const REREAD_EVERY: Duration = Duration::from_secs(30);

/// Home's answer: the figures of a complete walk, judged against the team groups, and when that
/// walk began. Made only once every input has arrived, so it never holds an interim count.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Answer {
    report: Report,
    rows: Vec<BudgetRow>,
    as_of_ms: i64,
}

impl Answer {
    /// The answer the inputs give now (tracked), or `None` while one of them is missing: the
    /// walk not done, or (for an admin, whose answer counts groups) the groups not read.
    fn settled(walk: Walk, groups: TeamGroups, sender: bool) -> Option<Answer> {
        if walk.job.state()? != JobState::Done {
            return None;
        }
        let groups = if sender {
            Vec::new()
        } else {
            groups.get()?.ok()?
        };
        walk.with(|f| {
            let report = f.report.clone()?;
            Some(Answer {
                rows: report.rows(&groups),
                report,
                as_of_ms: f.as_of_ms,
            })
        })
        .flatten()
    }
}

/// The figures as the details below the answer read them (from the context: those details are
/// a part in a chunk of their own, [`super::details`]).
#[derive(Clone, Copy)]
pub(crate) struct Shown {
    pub(crate) rows: Memo<Vec<BudgetRow>>,
    pub(crate) report: Memo<Option<Report>>,
    pub(crate) sender: bool,
}

/// The figures' job, found again or started, and how to start it afresh.
#[derive(Clone, Copy)]
struct Walk {
    job: UseJob<Figures>,
}

impl Walk {
    fn for_user(me: &CurrentUser) -> Walk {
        let only = (me.role == Role::Sender).then(|| me.email.clone());
        let job = use_job::<Figures>(JobKind::SpendFigures);
        // Another user's figures (a sender's own, or the organisation's) are read afresh.
        let theirs = job
            .with_untracked(|f| f.report.as_ref().map(|r| r.only.clone()))
            .flatten()
            .is_none_or(|o| match (&o, &only) {
                (Some(theirs), Some(mine)) => theirs.eq_ignore_ascii_case(mine),
                (theirs, mine) => theirs.is_none() && mine.is_none(),
            });
        if !job.shown() || !theirs {
            job.restart(|| walk_job::start(only));
        }
        Walk { job }
    }

    fn with<T>(self, f: impl FnOnce(&Figures) -> T) -> Option<T> {
        self.job.with(f)
    }

    fn running(self) -> bool {
        self.job.running()
    }

    /// What is being read, in words, while there is no answer yet (tracked).
    fn reading(self, groups: TeamGroups, sender: bool) -> String {
        match self.job.state() {
            Some(JobState::Failed | JobState::Cancelled) => t(M::HomeFiguresIncomplete).into(),
            Some(JobState::Done) if !sender => match groups.get() {
                Some(Err(_)) => t(M::HomeGroupsUnread).into(),
                _ => t(M::HomeReadingGroups).into(),
            },
            _ => self
                .with(|f| f.report.as_ref().map(reading_of))
                .flatten()
                .unwrap_or_else(|| t(M::HomeReadingSends).into()),
        }
    }

    /// Reads everything again, from the newest send.
    fn refresh(self, only: Option<String>) {
        self.job.restart(|| walk_job::start(only));
    }
}

#[component]
pub(crate) fn HomeFigures() -> impl IntoView {
    let me = use_current_user();
    move || {
        let me = me.get()?.ok()?;
        Some(view! { <FiguresFor me /> })
    }
}

#[component]
fn FiguresFor(me: CurrentUser) -> impl IntoView {
    let walk = Walk::for_user(&me);
    let sender = me.role == Role::Sender;
    let only = sender.then(|| me.email.clone());
    let groups = use_team_groups();
    // The last complete answer: replaced only by the next complete one.
    let answer = RwSignal::new(None::<Answer>);
    Effect::new(move |_| {
        if let Some(now) = Answer::settled(walk, groups, sender) {
            answer.set(Some(now));
        }
    });
    reread_while_visible(walk, groups, sender, only.clone());
    let report = Memo::new(move |_| answer.with(|a| a.as_ref().map(|a| a.report.clone())));
    let rows =
        Memo::new(move |_| answer.with(|a| a.as_ref().map(|a| a.rows.clone()).unwrap_or_default()));
    let answered = Memo::new(move |_| answer.with(Option::is_some));
    provide_context(Shown {
        rows,
        report,
        sender,
    });
    let title = if sender {
        M::HomeYourSendsThisMonth
    } else {
        M::HomeThisMonth
    };
    let band = move || {
        if answered.get() {
            Either::Left(view! { <SummaryBand rows report sender /> })
        } else {
            Either::Right(view! {
                <p class="summary-band summary-band--reading muted" role="status" data-testid="summary-reading">
                    {live_text(move || walk.reading(groups, sender))}
                </p>
            })
        }
    };
    view! {
        <section class="panel figures" aria-labelledby="figures-heading" data-testid="home-figures">
            <h2 id="figures-heading">{title}</h2>
            <div class="summary-slot">{band}</div>
            <FiguresHead walk only=only.clone() answer />
            // Below the answer, and fetched once there is one: nothing on the way to it.
            {move || answered.get().then(|| view! { <LazyPart part=home_details::SCREEN /> })}
        </section>
    }
}

/// Reads the figures again every [`REREAD_EVERY`] while the tab is visible (not while it is
/// hidden, nor while a read is under way), the team groups with them; until the cleanup.
fn reread_while_visible(walk: Walk, groups: TeamGroups, sender: bool, only: Option<String>) {
    let tick = move || {
        if page_hidden() || untrack(|| walk.running()) {
            return;
        }
        if !sender {
            groups.refetch();
        }
        walk.refresh(only.clone());
    };
    if let Ok(handle) = set_interval_with_handle(tick, REREAD_EVERY) {
        on_cleanup(move || handle.clear());
    }
}

/// The walk's progress, the answer's time, Refresh and the report file. While a read runs
/// again behind an answer, the answer's own progress line stays.
#[component]
fn FiguresHead(
    walk: Walk,
    only: Option<String>,
    answer: RwSignal<Option<Answer>>,
) -> impl IntoView {
    let line = move || {
        let shown = answer.with(|a| a.as_ref().map(|a| progress_of(&a.report)));
        match shown {
            Some(line) if walk.running() => Some(line),
            _ => walk.with(Figures::progress_line).flatten(),
        }
    };
    let problem = move || walk.with(|f| f.problem.clone()).flatten();
    let as_of = move || {
        let ms = answer.with(|a| a.as_ref().map(|a| a.as_of_ms))?;
        let iso = js_sys::Date::new(&(ms as f64).into()).to_iso_string();
        Some(msg::home_as_of(&format::date_time(&String::from(iso))))
    };
    let download = move |_| {
        answer.with_untracked(|a| {
            if let Some(a) = a {
                download_report(&a.report, &a.rows);
            }
        })
    };
    view! {
        <p class="figures__progress muted" role="status" data-testid="figures-progress">
            {line} " " <span data-testid="figures-as-of">{as_of}</span>
            {live_text(move || walk.running().then(|| format!(" {}", t(M::HomeReading))))}
            " "
            <button type="button" class="button button--small" on:click=move |_| walk.refresh(only.clone()) data-testid="figures-refresh">
                {M::HomeRefresh}
            </button>
            " "
            <button type="button" class="button button--small" on:click=download data-testid="figures-download" disabled=move || answer.with(Option::is_none)>
                {M::HomeDownloadReport}
            </button>
        </p>
        {move || problem().map(|p| view! { <p class="notice" role="alert">{p}</p> })}
    }
}
