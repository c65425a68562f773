//! The overview band: sends by status group and spend by currency as two small
//! [`BarChart`]s. Every number is also text in the chart, and each chart has a spoken label
//! listing them, so nothing depends on seeing the bars.

use leptos::prelude::*;

use super::summary::Summary;
use super::table::group_label;
use crate::components::bar_chart::{Bar, BarChart, BAR_MAX};
use crate::components::format;
use crate::components::format::money;
use crate::i18n::{live_text, msg, t, M};

#[component]
pub(crate) fn Overview(
    summary: Signal<Summary>,
    /// What the numbers cover, e.g. "the 300 loaded sends (pages 1–3 of 3)".
    #[prop(into)]
    covers: Signal<String>,
) -> impl IntoView {
    // One line until opened: the table an admin came for starts within the first screen, and
    // nothing grows above it while the sends load.
    view! {
        <details class="overview" data-testid="overview">
            <summary class="overview__summary">
                <h2 id="sends-overview-title" class="overview__title">
                    {M::SendsOverview}
                </h2>
                <span class="overview__note" data-testid="overview-note">
                    {live_text(move || covers.get())}
                </span>
            </summary>
            <div class="overview__charts" role="group" aria-labelledby="sends-overview-title">
                // Plain functions, not components: drawn again when the language changes.
                {move || summary.with(group_chart)}
                {move || summary.with(spend_chart)}
            </div>
        </details>
    }
}

fn group_chart(summary: &Summary) -> impl IntoView {
    let spoken = msg::sends_chart_status_spoken(
        &summary
            .by_group
            .iter()
            .map(|(g, n)| format!("{} {}", t(group_label(*g)), format::count(*n)))
            .collect::<Vec<_>>()
            .join(", "),
    );
    let bars = summary
        .by_group
        .iter()
        .map(|(group, count)| Bar {
            modifier: group.slug().to_string(),
            data: vec![
                ("data-group", group.slug().to_string()),
                ("data-count", count.to_string()),
            ],
            label: t(group_label(*group)).to_string(),
            value: count.to_string(),
            amount: *count,
        })
        .collect();
    view! { <BarChart caption=t(M::SendsChartStatus) spoken test_id="status-chart" bars /> }
}

fn spend_chart(summary: &Summary) -> impl IntoView {
    let spoken = if summary.by_currency.is_empty() {
        t(M::SendsChartSpendNone).to_string()
    } else {
        msg::sends_chart_spend_spoken(
            &summary
                .by_currency
                .iter()
                .map(|c| {
                    let amount = money(&c.currency, &c.total.to_string());
                    msg::sends_chart_spend_item(&amount, c.sends)
                })
                .collect::<Vec<_>>()
                .join(", "),
        )
    };
    let unreadable: u64 = summary.by_currency.iter().map(|c| c.unreadable).sum();
    // Currencies are never converted: the bars compare how many sends each currency has,
    // and each amount is its own currency's exact total.
    let bars = summary
        .by_currency
        .iter()
        .map(|spend| Bar {
            modifier: "spend".to_string(),
            data: vec![
                ("data-currency", spend.currency.clone()),
                ("data-total", spend.total.to_string()),
                ("data-sends", spend.sends.to_string()),
            ],
            label: money(&spend.currency, &spend.total.to_string()),
            value: msg::sends_chart_spend_bar(spend.sends),
            amount: spend.sends,
        })
        .collect();
    view! {
        <BarChart caption=t(M::SendsChartSpend) spoken test_id="spend-chart" bars full=BAR_MAX / 2>
            {(unreadable > 0)
                .then(|| {
                    view! {
                        <p class="chart__warning">{msg::sends_chart_unreadable(unreadable)}</p>
                    }
                })}
        </BarChart>
    }
}
