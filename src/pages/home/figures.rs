//! What needs the admin today, on Home: first the answer (groups over and near budget, sends
//! needing attention this month and last), then the groups that need attention, the sends
//! needing attention by reason and month, and a small trend of the two months. A sender sees
//! their own sends. The figures come from a walk of the newest sends
//! ([`crate::spend::walk_job`]). Nothing is concluded before every input has arrived: no count
//! shows until the walk has read both months (and, for an admin, the team groups have been
//! read); meanwhile a line says what is being read. The answer is read again every 30 s while
//! the tab is visible ([`super::details`]), and the last complete answer stays, with its time,
//! until the new one is complete.

use gifting_api::rest::CurrentUser;
use gifting_api::Role;
use leptos::prelude::*;

use super::home_details;
use super::summary::SummaryBand;
use crate::api::{use_current_user, use_team_groups, TeamGroups};
use crate::components::format;
use crate::components::lazy_screen::LazyPart;
use crate::components::{use_job, UseJob};
use crate::i18n::{live_text, msg, t, M};
use crate::jobs::{JobKind, JobState};
use crate::spend::report::{BudgetRow, Report};
use crate::spend::walk_job::{self, progress_of, reading_of, Figures};

/// The figures as the details below the answer read them (from the context: those details are
/// a part in a chunk of their own, [`super::details`]).
#[derive(Clone, Copy)]
pub(crate) struct Shown {
    pub(crate) rows: Memo<Vec<BudgetRow>>,
    pub(crate) report: Memo<Option<Report>>,
    pub(crate) sender: bool,
    /// The report file's writer, which comes with the details' chunk (none before).
    pub(crate) export: RwSignal<Option<Export>>,
}

/// Offers the answer as a file ([`super::export::download_report`]).
pub(crate) type Export = fn(&Report, &[BudgetRow]);

/// The figures' job, found again or started, and how to start it afresh.
#[derive(Clone, Copy)]
pub(crate) struct Walk {
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

    pub(crate) fn running(self) -> bool {
        self.job.running()
    }

    /// Home's answer (tracked): the report of a walk that is done, once (for an admin, whose
    /// answer counts groups) the team groups are read too; `None` while an input is missing.
    fn answer(self, groups: TeamGroups, sender: bool) -> Option<Report> {
        if self.job.state()? != JobState::Done || !(sender || groups.get()?.is_ok()) {
            return None;
        }
        self.with(|f| f.report.clone()).flatten()
    }

    /// What is being read, in words, while there is no answer yet (tracked): this month's
    /// sends and how far, else the figures; or that an input could not be read.
    fn reading(self, groups: TeamGroups, sender: bool) -> String {
        let failed = matches!(
            self.job.state(),
            Some(JobState::Failed | JobState::Cancelled)
        ) || (!sender && matches!(groups.get(), Some(Err(_))));
        if failed {
            return t(M::HomeNoAnswer).into();
        }
        self.with(|f| f.report.as_ref().and_then(reading_of))
            .flatten()
            .unwrap_or_else(|| t(M::HomeReadingFigures).into())
    }

    /// Reads everything again, from the newest send.
    pub(crate) fn refresh(self, only: Option<String>) {
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
    let report = Memo::new(move |last: Option<&Option<Report>>| {
        walk.answer(groups, sender)
            .or_else(|| last.cloned().flatten())
    });
    // Judged against the groups read with it, and kept while they are read again.
    let rows = Memo::new(move |last: Option<&Vec<BudgetRow>>| {
        let groups = if sender {
            Some(Vec::new())
        } else {
            groups.get().and_then(Result::ok)
        };
        groups
            .and_then(|g| report.with(|r| r.as_ref().map(|r| r.rows(&g))))
            .or_else(|| last.cloned())
            .unwrap_or_default()
    });
    let answered = Memo::new(move |_| report.with(Option::is_some));
    let export = RwSignal::new(None::<Export>);
    provide_context(Shown {
        rows,
        report,
        sender,
        export,
    });
    let title = if sender {
        M::HomeYourSendsThisMonth
    } else {
        M::HomeThisMonth
    };
    view! {
        <section class="panel figures" aria-labelledby="figures-heading" data-testid="home-figures">
            <h2 id="figures-heading">{title}</h2>
            // The line in the answer's place, while there is none; the band states nothing then.
            <p class="summary-band summary-band--reading muted" role="status" data-testid="summary-reading" hidden=move || answered.get()>
                {live_text(move || walk.reading(groups, sender))}
            </p>
            <SummaryBand rows report sender />
            <FiguresHead walk only=only.clone() rows report export />
            // Below the answer, and fetched once there is one: nothing on the way to it.
            {move || answered.get().then(|| view! { <LazyPart part=home_details::SCREEN /> })}
        </section>
    }
}

/// The walk's progress, the answer's time, Refresh and the report file. While a read runs
/// again behind an answer, the answer's own progress line stays.
#[component]
fn FiguresHead(
    walk: Walk,
    only: Option<String>,
    rows: Memo<Vec<BudgetRow>>,
    report: Memo<Option<Report>>,
    export: RwSignal<Option<Export>>,
) -> impl IntoView {
    let line = move || match report.with(|r| r.as_ref().map(progress_of)) {
        Some(line) if walk.running() => Some(line),
        _ => walk.with(Figures::progress_line).flatten(),
    };
    let problem = move || walk.with(|f| f.problem.clone()).flatten();
    let as_of = move || {
        let seconds = report.with(|r| r.as_ref().map(|r| r.now))?;
        let iso = js_sys::Date::new(&((seconds * 1000) as f64).into()).to_iso_string();
        Some(msg::home_as_of(&format::date_time(&String::from(iso))))
    };
    let download = move |_| {
        report.with_untracked(|r| {
            if let (Some(r), Some(export)) = (r, export.get_untracked()) {
                export(r, &rows.get_untracked());
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
            <button type="button" class="button button--small" on:click=download data-testid="figures-download" disabled=move || report.with(Option::is_none) || export.with(Option::is_none)>
                {M::HomeDownloadReport}
            </button>
        </p>
        {move || problem().map(|p| view! { <p class="notice" role="alert">{p}</p> })}
    }
}
