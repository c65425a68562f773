//! What needs the admin today, on Home: first the answer (groups over and near budget, sends
//! needing attention this month and last), then the groups that need attention, the sends
//! needing attention by reason and month, and a small trend of the two months. A sender sees
//! their own sends. The figures come from a walk of the newest sends
//! ([`crate::spend::walk_job`]) and fill as its pages arrive.

use gifting_api::rest::{CurrentUser, TeamGroup};
use gifting_api::Role;
use leptos::prelude::*;

use super::export::download_report;
use super::home_details;
use super::summary::SummaryBand;
use crate::api::{use_current_user, use_team_groups};
use crate::components::format;
use crate::components::lazy_screen::LazyPart;
use crate::components::{use_job, UseJob};
use crate::i18n::{live_text, msg, t, M};
use crate::jobs::JobKind;
use crate::spend::report::{BudgetRow, Report};
use crate::spend::walk_job::{self, Figures};

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
    let report = Memo::new(move |_| walk.with(|f| f.report.clone()).flatten());
    let rows = Memo::new(move |_| {
        let groups: Vec<TeamGroup> = groups.get().and_then(Result::ok).unwrap_or_default();
        report.with(|r| r.as_ref().map(|r| r.rows(&groups)).unwrap_or_default())
    });
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
    view! {
        <section class="panel figures" aria-labelledby="figures-heading" data-testid="home-figures">
            <h2 id="figures-heading">{title}</h2>
            <SummaryBand rows report sender />
            <FiguresHead walk only=only.clone() rows report />
            <LazyPart part=home_details::SCREEN />
        </section>
    }
}

/// The walk's progress, the figures' time, Refresh and the report file.
#[component]
fn FiguresHead(
    walk: Walk,
    only: Option<String>,
    rows: Memo<Vec<BudgetRow>>,
    report: Memo<Option<Report>>,
) -> impl IntoView {
    let line = move || walk.with(Figures::progress_line).flatten();
    let problem = move || walk.with(|f| f.problem.clone()).flatten();
    let as_of = move || {
        let ms = walk.with(|f| f.as_of_ms)?;
        let iso = js_sys::Date::new(&(ms as f64).into()).to_iso_string();
        Some(msg::home_as_of(&format::date_time(&String::from(iso))))
    };
    let download = move |_| {
        report.with_untracked(|r| {
            if let Some(r) = r {
                download_report(r, &rows.get_untracked());
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
            <button type="button" class="button button--small" on:click=download data-testid="figures-download" disabled=move || walk.running()>
                {M::HomeDownloadReport}
            </button>
        </p>
        {move || problem().map(|p| view! { <p class="notice" role="alert">{p}</p> })}
    }
}
