//! A small horizontal bar chart in SVG: one row a bar, its label on the left and its value on
//! the right. Every number is text in the chart and the chart has a spoken label listing them,
//! so nothing depends on seeing the bars.

use leptos::attr::any_attribute::{AnyAttribute, IntoAnyAttribute};
use leptos::attr::custom::custom_attribute;
use leptos::prelude::*;

const WIDTH: u32 = 560;
const LABEL_W: u32 = 150;
const BAR_X: u32 = LABEL_W + 8;
const ROW_H: u32 = 24;
const BAR_H: u32 = 16;
/// The longest bar, in the chart's units; a chart may use less (see [`BarChart`]'s `full`).
pub(crate) const BAR_MAX: u32 = 260;

/// One row of a [`BarChart`].
pub(crate) struct Bar {
    /// The row's class modifier: `chart__row chart__row--{modifier}`.
    pub(crate) modifier: String,
    /// `data-*` attributes saying what the row stands for (read by tests and tools).
    pub(crate) data: Vec<(&'static str, String)>,
    pub(crate) label: String,
    /// The text after the bar.
    pub(crate) value: String,
    /// What the bar's length shows, compared with the other rows'.
    pub(crate) amount: u64,
}

/// A bar's length for `value` out of `max`, in whole units of `full` (integers only, so
/// a bar never depends on float rounding). Non-zero values get at least 1 unit.
pub(crate) fn bar_length(value: u64, max: u64, full: u32) -> u32 {
    if value == 0 || max == 0 {
        return 0;
    }
    let len = u128::from(value.min(max)) * u128::from(full) / u128::from(max);
    (len as u32).max(1)
}

/// The chart in a `<figure>`: the caption, the bars (the largest `full` long) and `children`
/// (e.g. a warning) after them.
#[component]
pub(crate) fn BarChart(
    #[prop(into)] caption: String,
    /// Read out instead of the drawing.
    #[prop(into)]
    spoken: String,
    test_id: &'static str,
    bars: Vec<Bar>,
    #[prop(default = BAR_MAX)] full: u32,
    #[prop(optional)] children: Option<Children>,
) -> impl IntoView {
    let max = bars.iter().map(|b| b.amount).max().unwrap_or(0);
    let height = (bars.len().max(1) as u32) * ROW_H;
    let rows = bars
        .into_iter()
        .enumerate()
        .map(|(i, bar)| {
            let len = bar_length(bar.amount, max, full);
            view! { <BarRow y=i as u32 * ROW_H len bar /> }
        })
        .collect_view();
    view! {
        <figure class="chart">
            <figcaption class="chart__caption">{caption}</figcaption>
            <svg
                class="chart__svg"
                viewBox=format!("0 0 {WIDTH} {height}")
                width=WIDTH.to_string()
                height=height.to_string()
                role="img"
                aria-label=spoken
                data-testid=test_id
            >
                {rows}
            </svg>
            {children.map(|c| c())}
        </figure>
    }
}

#[component]
fn BarRow(y: u32, len: u32, bar: Bar) -> impl IntoView {
    let data: Vec<AnyAttribute> = bar
        .data
        .into_iter()
        .map(|(key, value)| custom_attribute(key, value).into_any_attr())
        .collect();
    view! {
        <g class=format!("chart__row chart__row--{}", bar.modifier) {..data}>
            <text class="chart__label" x=(LABEL_W).to_string() y=(y + ROW_H / 2).to_string() text-anchor="end" dominant-baseline="middle">
                {bar.label}
            </text>
            <rect class="chart__bar" x=BAR_X.to_string() y=(y + (ROW_H - BAR_H) / 2).to_string() width=len.to_string() height=BAR_H.to_string() rx="2"></rect>
            <text class="chart__value" x=(BAR_X + len + 6).to_string() y=(y + ROW_H / 2).to_string() dominant-baseline="middle">
                {bar.value}
            </text>
        </g>
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn bars_scale_in_integers_and_stay_visible() {
        assert_eq!(bar_length(50, 100, 200), 100);
        assert_eq!(bar_length(100, 100, 200), 200);
        assert_eq!(bar_length(1, 10_000, 200), 1);
        assert_eq!(bar_length(0, 100, 200), 0);
        assert_eq!(bar_length(5, 0, 200), 0);
        assert_eq!(bar_length(u64::MAX, u64::MAX, 200), 200);
    }
}
