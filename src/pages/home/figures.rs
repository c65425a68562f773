//! What needs the admin today, on Home: this month's spend per team group against its budget
//! (with last month beside it and the organisation's total), a small trend of the two months,
//! and the sends needing attention by reason, each a link to exactly those sends. A sender
//! sees their own sends. The figures come from a walk of the newest sends
//! ([`crate::spend::walk_job`]) and fill as its pages arrive.

use gifting_api::attention::Attention;
use gifting_api::money::Decimal;
use gifting_api::rest::{CurrentUser, TeamGroup};
use gifting_api::Role;
use leptos::prelude::*;

use super::charts::{BudgetBar, SpendTrend};
use super::export::download_report;
use crate::api::{use_current_user, use_team_groups};
use crate::components::format;
use crate::components::Tone;
use crate::components::{use_job, UseJob};
use crate::jobs::JobKind;
use crate::routes;
use crate::spend::report::{Band, BudgetRow, Report};
use crate::spend::walk_job::{self, Figures};

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
            .is_none_or(|o| o == only.as_ref().map(|e| e.to_lowercase()));
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
    let title = if sender {
        "Your sends this month"
    } else {
        "This month"
    };
    view! {
        <section class="panel figures" aria-labelledby="figures-heading" data-testid="home-figures">
            <h2 id="figures-heading">{title}</h2>
            <FiguresHead walk only=only.clone() rows report />
            <Show when=move || !sender>
                <BudgetTable rows report />
                <SpendTrend report />
            </Show>
            <AttentionCounts report sender />
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
        Some(format!("As of {}", format::date_time(&String::from(iso))))
    };
    let download = move |_| {
        report.with_untracked(|r| {
            if let Some(r) = r {
                download_report(r, &rows.get_untracked());
            }
        })
    };
    view! {
        <p class="figures__progress" role="status" data-testid="figures-progress">
            {line} " " <span class="muted" data-testid="figures-as-of">{as_of}</span>
            {move || walk.running().then_some(" (reading…)")}
        </p>
        {move || problem().map(|p| view! { <p class="notice" role="alert">{p}</p> })}
        <p class="figures__actions">
            <button type="button" class="button button--small" on:click=move |_| walk.refresh(only.clone()) data-testid="figures-refresh">
                "Refresh"
            </button>
            " "
            <button type="button" class="button button--small" on:click=download data-testid="figures-download" disabled=move || walk.running()>
                "Download the report (CSV)"
            </button>
        </p>
    }
}

/// Each team group: budget, spent, used, remaining, last month, other currencies.
#[component]
fn BudgetTable(rows: Memo<Vec<BudgetRow>>, report: Memo<Option<Report>>) -> impl IntoView {
    let total = move |m: usize| {
        report.with(|r| r.as_ref().map(|r| usd(r.total(m).usd)).unwrap_or_default())
    };
    let others = move || {
        report
            .with(|r| r.as_ref().map(|r| r.total(0).other_text()))
            .filter(|t| !t.is_empty())
    };
    view! {
        // A region the keyboard can reach: on a narrow window the table scrolls sideways.
        <div class="table-wrap" tabindex="0" role="region" aria-label="Spend against budget">
            <table class="data-table budget-table" data-testid="budget-table">
                <caption>"Spend against each team group's monthly budget (USD)"</caption>
                <thead>
                    <tr>
                        <th scope="col">"Team group"</th>
                        <th scope="col" class="num">"Budget this month"</th>
                        <th scope="col" class="num">"Spent this month"</th>
                        <th scope="col">"Used"</th>
                        <th scope="col" class="num">"Remaining"</th>
                        <th scope="col" class="num">"Spent last month"</th>
                        <th scope="col">"Other currencies (not counted)"</th>
                    </tr>
                </thead>
                <tbody>
                    // A line per position, its cells following the figures in place: the
                    // walk changes most groups' figures every time it shows them, and
                    // rebuilding hundreds of lines each time cost more than reading the pages.
                    <For each=move || 0..rows.with(Vec::len) key=|i| *i children=move |i| {
                        let row = Memo::new(move |_| rows.with(|r| r.get(i).cloned()));
                        view! { <BudgetLine row /> }
                    } />
                </tbody>
                <tfoot>
                    <tr data-testid="budget-total">
                        <th scope="row">"Organisation"</th>
                        <td></td>
                        <td class="num">{move || total(0)}</td>
                        <td></td>
                        <td></td>
                        <td class="num">{move || total(1)}</td>
                        <td>{others}</td>
                    </tr>
                </tfoot>
            </table>
        </div>
    }
}

fn usd(amount: Decimal) -> String {
    format::money("USD", &amount.to_string())
}

/// The words of a budget line's cells.
#[derive(Clone, PartialEq)]
struct LineText {
    budget: String,
    notes: String,
    used: String,
    remaining: String,
}

impl LineText {
    fn of(row: &BudgetRow) -> LineText {
        let budget = if row.band == Band::NoBudget && row.monthly == Decimal::ZERO {
            "No monthly budget".to_owned()
        } else {
            usd(row.budget)
        };
        let mut notes = Vec::new();
        if row.rollover {
            notes.push(format!(
                "includes {} carried over from last month (rollover)",
                usd(row.carried)
            ));
        }
        if row.one_time != 0 {
            notes.push(format!(
                "one-time budget {} (not included)",
                usd(Decimal::parse(&row.one_time.to_string()).unwrap_or(Decimal::ZERO))
            ));
        }
        let used = row
            .percent
            .map(|p| format!("{p} %"))
            .unwrap_or_else(|| "—".into());
        let remaining = if row.percent.is_some() {
            usd(row.remaining)
        } else {
            "—".into()
        };
        LineText {
            budget,
            notes: notes.join("; "),
            used: format!("{used} · {}", row.band.words()),
            remaining,
        }
    }
}

/// A team group's line: budget, spent, used, remaining, last month, other currencies.
#[component]
fn BudgetLine(row: Memo<Option<BudgetRow>>) -> impl IntoView {
    let text = Memo::new(move |_| row.with(|r| r.as_ref().map(LineText::of)));
    let field = move |f: fn(&BudgetRow) -> String| move || row.with(|r| r.as_ref().map(f));
    let words = move |f: fn(&LineText) -> String| {
        move || text.with(|t| t.as_ref().map(f).unwrap_or_default())
    };
    let band = move || row.with(|r| r.as_ref().map_or(Band::NoBudget, |r| r.band));
    view! {
        <tr data-group=field(|r| r.name.clone()) data-band=move || band_slug(band())>
            <th scope="row">{field(|r| r.name.clone())}</th>
            <td class="num">
                {words(|t| t.budget.clone())}
                {move || {
                    let notes = words(|t| t.notes.clone())();
                    (!notes.is_empty()).then(|| view! { <br /><span class="muted">{notes}</span> })
                }}
            </td>
            <td class="num" data-testid="spent-this-month">{field(|r| usd(r.spend.months[0].usd))}</td>
            <td>
                <BudgetBar percent=Signal::derive(move || row.with(|r| r.as_ref().and_then(|r| r.percent))) />
                " "
                <span class=move || band_tone(band()).class()>{words(|t| t.used.clone())}</span>
            </td>
            <td class="num">{words(|t| t.remaining.clone())}</td>
            <td class="num">{field(|r| usd(r.spend.months[1].usd))}</td>
            <td>{field(|r| r.spend.months[0].other_text())}</td>
        </tr>
    }
}

fn band_tone(band: Band) -> Tone {
    match band {
        Band::Under => Tone::Success,
        Band::Near => Tone::Warning,
        Band::Over => Tone::Danger,
        Band::NoBudget => Tone::Neutral,
    }
}

pub(crate) fn band_slug(band: Band) -> &'static str {
    match band {
        Band::Under => "under",
        Band::Near => "near",
        Band::Over => "over",
        Band::NoBudget => "none",
    }
}

/// The sends needing attention by reason, each a link to the sends screen showing them.
#[component]
fn AttentionCounts(report: Memo<Option<Report>>, sender: bool) -> impl IntoView {
    let items = move || {
        report.with(|r| {
            let r = r.as_ref()?;
            let since = format!("{}-01", r.months[1].key());
            Some(
                Attention::ALL
                    .iter()
                    .map(|a| {
                        (
                            *a,
                            r.attention
                                .iter()
                                .map(|m| m.get(a).copied().unwrap_or(0))
                                .sum::<u32>(),
                            since.clone(),
                        )
                    })
                    .collect::<Vec<_>>(),
            )
        })
    };
    let heading = if sender {
        "Your sends that need attention"
    } else {
        "Sends that need attention"
    };
    view! {
        <h3>{heading}</h3>
        <p class="muted">"Sends of this month and last month, by the platform's status."</p>
        <ul class="attention" data-testid="attention">
            {move || items().unwrap_or_default().into_iter().map(|(a, n, since)| {
                let href = format!("{}?attention={}&since={since}", routes::SENDS, a.slug());
                let text = format!("{}: {}", a.label(), format::count(u64::from(n)));
                view! {
                    <li data-reason=a.slug() data-count=n.to_string()>
                        {if n > 0 {
                            view! { <a href=href>{text}</a> }.into_any()
                        } else {
                            view! { <span class="muted">{text}</span> }.into_any()
                        }}
                    </li>
                }
            }).collect_view()}
        </ul>
    }
}
