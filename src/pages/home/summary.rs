//! Home's answer first: how many team groups are over and near their budget, and how many
//! sends need attention this month and last, each a link to exactly those; then the sends
//! needing attention by reason, month by month.

use gifting_api::attention::{Attention, Month};
use leptos::prelude::*;

use crate::components::format;
use crate::i18n::{live_text, msg, M};
use crate::routes;
use crate::spend::report::{reason_text, Band, BudgetRow, Report};

/// The sends screen showing the sends of month `m` (`0`: this month) needing attention for
/// `reason` (`any`): from its first day to its last.
pub(crate) fn attention_href(report: &Report, m: usize, reason: &str) -> String {
    let month: Month = report.months[m];
    let key = month.key();
    format!(
        "{}?attention={reason}&since={key}-01&until={key}-{:02}",
        routes::SENDS,
        month.days()
    )
}

/// A count and its words, a link to exactly those when there are any.
fn figure(n: u64, words: String, href: String, kind: &'static str) -> impl IntoView {
    let text = view! { <strong>{format::count(n)}</strong> " " {words} };
    view! {
        <li data-kind=kind data-count=n.to_string()>
            {if n > 0 {
                view! { <a href=href>{text}</a> }.into_any()
            } else {
                view! { <span class="muted">{text}</span> }.into_any()
            }}
        </li>
    }
}

/// "3 team groups over budget · 2 near budget · 9 sends need attention this month · 14 last
/// month"; a sender's own sends only. Empty until `report` is home's answer.
#[component]
pub(crate) fn SummaryBand(
    rows: Memo<Vec<BudgetRow>>,
    report: Memo<Option<Report>>,
    sender: bool,
) -> impl IntoView {
    // Nothing before the answer: no count is stated from figures still arriving.
    let groups = move |band: Band| {
        report.with(Option::is_some).then(|| {
            let n = rows.with(|r| r.iter().filter(|x| x.band == band).count()) as u64;
            let href = format!("{}?band={}", routes::TEAMS, band.key());
            (n, href)
        })
    };
    let over = move || {
        let (n, href) = groups(Band::Over)?;
        Some(figure(n, msg::home_groups_over(n), href, "over"))
    };
    let near = move || {
        let (n, href) = groups(Band::Near)?;
        Some(figure(n, msg::home_groups_near(n), href, "near"))
    };
    let attention = move |m: usize| {
        report.with(|r| {
            let r = r.as_ref()?;
            let n = u64::from(r.attention[m].values().sum::<u32>());
            let words = if m == 0 {
                msg::home_attention_this_month(n)
            } else {
                msg::home_attention_last_month(n)
            };
            let kind = if m == 0 {
                "attention-this-month"
            } else {
                "attention-last-month"
            };
            Some(figure(n, words, attention_href(r, m, "any"), kind))
        })
    };
    view! {
        <ul class="summary-band" data-testid="summary">
            {(!sender).then(|| view! { {over} {near} })}
            {move || attention(0)}
            {move || attention(1)}
        </ul>
    }
}

/// The sends needing attention by reason: this month and last month, each count a link to
/// exactly those sends.
#[component]
pub(crate) fn AttentionCounts(report: Memo<Option<Report>>, sender: bool) -> impl IntoView {
    // The months stay while the walk redraws the report: written once each.
    let months = Memo::new(move |_| report.with(|r| r.as_ref().map(|r| r.months)));
    let months = move || {
        months.get().map(|[this, last]| {
            let [this, last] = [this, last].map(|m| format::month(m.year, m.month));
            msg::home_months_caption(&this, &last)
        })
    };
    let cell = move |reason: Attention, m: usize| {
        report.with(|r| {
            let r = r.as_ref()?;
            let n = r.attention[m].get(&reason).copied().unwrap_or(0);
            let text = format::count(u64::from(n));
            let href = attention_href(r, m, reason.slug());
            Some(view! {
                <td class="num" data-month=m.to_string() data-count=n.to_string()>
                    {if n > 0 {
                        view! { <a href=href>{text}</a> }.into_any()
                    } else {
                        view! { <span class="muted">{text}</span> }.into_any()
                    }}
                </td>
            })
        })
    };
    let heading = if sender {
        M::HomeYourAttentionHeading
    } else {
        M::HomeAttentionHeading
    };
    view! {
        <h3 id="attention-heading">{heading}</h3>
        <div class="table-wrap" tabindex="0" role="region" aria-labelledby="attention-heading">
        <table class="data-table attention" data-testid="attention">
            <caption class="muted">{months}</caption>
            <MonthsHead first=M::HomeByStatus />
            <tbody>
                {Attention::ALL.into_iter().map(|reason| view! {
                    <tr data-reason=reason.slug()>
                        <ReasonCell reason />
                        {move || cell(reason, 0)}
                        {move || cell(reason, 1)}
                    </tr>
                }).collect_view()}
            </tbody>
        </table>
        </div>
    }
}

/// A reason's row header: the platform's status name as it writes it, or the console's
/// sentence around it.
#[component]
fn ReasonCell(reason: Attention) -> impl IntoView {
    let platform_word = reason_text(reason).1;
    view! {
        <th scope="row" translate=platform_word.then_some("no")>{live_text(move || reason_text(reason).0)}</th>
    }
}

/// The head of a table with a column for this month and one for last month.
#[component]
pub(crate) fn MonthsHead(first: M) -> impl IntoView {
    view! {
        <thead>
            <tr>
                <th scope="col">{first}</th>
                <th scope="col" class="num">{M::HomeColumnThisMonth}</th>
                <th scope="col" class="num">{M::HomeColumnLastMonth}</th>
            </tr>
        </thead>
    }
}
