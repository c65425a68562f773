//! The home figures' pictures, each with its figures in text: a bar of a group's budget used
//! (marks at 80 % and 100 %), and the organisation's spend through this month beside last
//! month's, day by day, with the same figures as a table.

use gifting_api::money::Decimal;
use leptos::prelude::*;

use super::summary::MonthsHead;
use crate::components::format;
use crate::i18n::{msg, M};
use crate::spend::report::Report;

/// The bar's scale: 150 % of the budget fills it.
const FULL: i128 = 150;

/// A group's budget used, drawn; the percentage is written beside it by the table.
#[component]
pub(crate) fn BudgetBar(#[prop(into)] percent: Signal<Option<i128>>) -> impl IntoView {
    let used = move || percent.get().map_or(0, |p| p.clamp(0, FULL)).to_string();
    // Drawn with the text's colour (presentation attributes: the stylesheet is first-load
    // weight); the band is said in words beside it.
    view! {
        <svg viewBox="0 0 150 12" width="150" height="12" aria-hidden="true" focusable="false">
            <rect x="0" y="2" width="150" height="8" fill="currentColor" fill-opacity="0.15"></rect>
            <rect x="0" y="2" width=used height="8" fill="currentColor" fill-opacity="0.7"></rect>
            <line x1="80" x2="80" y1="0" y2="12" stroke="currentColor" stroke-width="1"></line>
            <line x1="100" x2="100" y1="0" y2="12" stroke="currentColor" stroke-width="2"></line>
        </svg>
    }
}

const W: i128 = 310;
const H: i128 = 90;

/// An amount in hundredths (its percentage of one unit), for drawing with integers.
fn hundredths(amount: Decimal) -> i128 {
    const ONE: Decimal = Decimal::ONE;
    amount.percent_of(ONE).unwrap_or(0)
}

/// The points of a cumulative line, scaled to the chart.
fn points(values: &[Decimal], max: Decimal, days: usize) -> String {
    let max = hundredths(max).max(1);
    values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let x = i as i128 * W / (days.max(2) as i128 - 1);
            let y = H - hundredths(*v) * H / max;
            format!("{x},{y}")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// This month's spend so far against last month's, day by day (USD).
#[component]
pub(crate) fn SpendTrend(report: Memo<Option<Report>>) -> impl IntoView {
    let series = Memo::new(move |_| {
        report.with(|r| {
            let r = r.as_ref()?;
            let days = r.months[0].days().max(r.months[1].days());
            Some((
                r.cumulative(0, r.months[0].days()),
                r.cumulative(1, r.months[1].days()),
                days,
            ))
        })
    });
    let chart = move || {
        let (this, last, days) = series.get()?;
        let max = this
            .iter()
            .chain(&last)
            .copied()
            .max_by(|a, b| a.cmp_value(*b))?;
        Some(view! {
            <svg viewBox=format!("0 0 {W} {H}") width=W.to_string() height=H.to_string() aria-hidden="true" focusable="false">
                <polyline points=points(&last, max, days as usize) fill="none" stroke="currentColor" stroke-width="1.5" stroke-dasharray="4 3"></polyline>
                <polyline points=points(&this, max, days as usize) fill="none" stroke="currentColor" stroke-width="2.5"></polyline>
            </svg>
        })
    };
    let rows = move || {
        let (this, last, days) = series.get()?;
        Some(
            (0..days as usize)
                .filter(|d| d % 7 == 6 || *d + 1 == days as usize)
                .map(|d| {
                    let cell = |v: &Vec<Decimal>| {
                        v.get(d)
                            .map(|x| format::money("USD", &x.to_string()))
                            .unwrap_or_else(|| "—".into())
                    };
                    view! {
                        <tr>
                            <th scope="row">{msg::home_day(&format::count(d as u64 + 1))}</th>
                            <td class="num">{cell(&this)}</td>
                            <td class="num">{cell(&last)}</td>
                        </tr>
                    }
                })
                .collect_view(),
        )
    };
    view! {
        <figure class="trend-figure" data-testid="spend-trend">
            <figcaption>{M::HomeTrendCaption}</figcaption>
            {chart}
            <details>
                <summary>{M::HomeTrendFigures}</summary>
                <table class="data-table">
                    <caption>{M::HomeTrendTableCaption}</caption>
                    <MonthsHead first=M::HomeByEndOf />
                    <tbody>{rows}</tbody>
                </table>
            </details>
        </figure>
    }
}
