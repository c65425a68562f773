//! The overview band: sends by status group and spend by currency as two small bar charts
//! drawn in SVG. Every number is also text in the chart, and each chart has a spoken label
//! listing them, so nothing depends on seeing the bars.

use leptos::prelude::*;

use super::summary::{bar_length, Summary};

const WIDTH: u32 = 560;
const LABEL_W: u32 = 150;
const BAR_X: u32 = LABEL_W + 8;
const BAR_MAX: u32 = 260;
const ROW_H: u32 = 24;
const BAR_H: u32 = 16;

fn chart_height(rows: usize) -> u32 {
    (rows.max(1) as u32) * ROW_H
}

#[component]
pub fn Overview(
    summary: Signal<Summary>,
    /// What the numbers cover, e.g. "the 300 loaded sends (pages 1–3 of 3)".
    #[prop(into)]
    covers: Signal<String>,
) -> impl IntoView {
    view! {
        <section class="overview" aria-labelledby="sends-overview-title" data-testid="overview">
            <h2 id="sends-overview-title" class="overview__title">
                "Overview"
            </h2>
            <p class="overview__note" data-testid="overview-note">
                {move || covers.get()}
            </p>
            <div class="overview__charts">
                {move || summary.with(|s| view! { <GroupChart summary=s.clone() /> })}
                {move || summary.with(|s| view! { <SpendChart summary=s.clone() /> })}
            </div>
        </section>
    }
}

#[component]
fn GroupChart(summary: Summary) -> impl IntoView {
    let max = summary.by_group.iter().map(|(_, n)| *n).max().unwrap_or(0);
    let spoken = format!(
        "Sends by status: {}",
        summary
            .by_group
            .iter()
            .map(|(g, n)| format!("{} {n}", g.label()))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let height = chart_height(summary.by_group.len());
    let rows = summary
        .by_group
        .iter()
        .enumerate()
        .map(|(i, (group, count))| {
            let y = i as u32 * ROW_H;
            let len = bar_length(*count, max, BAR_MAX);
            view! {
                <g
                    class=format!("chart__row chart__row--{}", group.slug())
                    data-group=group.slug()
                    data-count=count.to_string()
                >
                    <text class="chart__label" x=(LABEL_W).to_string() y=(y + ROW_H / 2).to_string() text-anchor="end" dominant-baseline="middle">
                        {group.label()}
                    </text>
                    <rect class="chart__bar" x=BAR_X.to_string() y=(y + (ROW_H - BAR_H) / 2).to_string() width=len.to_string() height=BAR_H.to_string() rx="2"></rect>
                    <text class="chart__value" x=(BAR_X + len + 6).to_string() y=(y + ROW_H / 2).to_string() dominant-baseline="middle">
                        {count.to_string()}
                    </text>
                </g>
            }
        })
        .collect_view();
    view! {
        <figure class="chart">
            <figcaption class="chart__caption">"Sends by status"</figcaption>
            <svg
                class="chart__svg"
                viewBox=format!("0 0 {WIDTH} {height}")
                width=WIDTH.to_string()
                height=height.to_string()
                role="img"
                aria-label=spoken
                data-testid="status-chart"
            >
                {rows}
            </svg>
        </figure>
    }
}

#[component]
fn SpendChart(summary: Summary) -> impl IntoView {
    // Currencies are never converted: the bars compare how many sends each currency has,
    // and each amount is its own currency's exact total.
    let max = summary
        .by_currency
        .iter()
        .map(|c| c.sends)
        .max()
        .unwrap_or(0);
    let spoken = if summary.by_currency.is_empty() {
        "Spend by currency: no sends".to_string()
    } else {
        format!(
            "Spend by currency: {}",
            summary
                .by_currency
                .iter()
                .map(|c| format!(
                    "{} {} over {} sends",
                    c.currency,
                    c.total.format_grouped(2),
                    c.sends
                ))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let unreadable: u64 = summary.by_currency.iter().map(|c| c.unreadable).sum();
    let height = chart_height(summary.by_currency.len());
    let rows = summary
        .by_currency
        .iter()
        .enumerate()
        .map(|(i, spend)| {
            let y = i as u32 * ROW_H;
            let len = bar_length(spend.sends, max, BAR_MAX / 2);
            let amount = spend.total.format_grouped(2);
            let sends = if spend.sends == 1 { "send" } else { "sends" };
            view! {
                <g
                    class="chart__row chart__row--spend"
                    data-currency=spend.currency.clone()
                    data-total=spend.total.to_string()
                    data-sends=spend.sends.to_string()
                >
                    <text class="chart__label" x=(LABEL_W).to_string() y=(y + ROW_H / 2).to_string() text-anchor="end" dominant-baseline="middle">
                        {format!("{} {amount}", spend.currency)}
                    </text>
                    <rect class="chart__bar" x=BAR_X.to_string() y=(y + (ROW_H - BAR_H) / 2).to_string() width=len.to_string() height=BAR_H.to_string() rx="2"></rect>
                    <text class="chart__value" x=(BAR_X + len + 6).to_string() y=(y + ROW_H / 2).to_string() dominant-baseline="middle">
                        {format!("{} {sends}", spend.sends)}
                    </text>
                </g>
            }
        })
        .collect_view();
    view! {
        <figure class="chart">
            <figcaption class="chart__caption">
                "Spend by currency (bars: number of sends; amounts are not converted)"
            </figcaption>
            <svg
                class="chart__svg"
                viewBox=format!("0 0 {WIDTH} {height}")
                width=WIDTH.to_string()
                height=height.to_string()
                role="img"
                aria-label=spoken
                data-testid="spend-chart"
            >
                {rows}
            </svg>
            {(unreadable > 0)
                .then(|| {
                    view! {
                        <p class="chart__warning">
                            {format!(
                                "{unreadable} sends have a cost that is not a number; they are counted but not added."
                            )}
                        </p>
                    }
                })}
        </figure>
    }
}
