//! The team groups that need attention on Home: over budget, then near, by the share of their
//! budget used (or as the address sorts them), the first few; the rest are on Teams. A table
//! that fits a laptop's width: the status beside the name, the budget's notes as one small
//! line under the amount.

use std::cmp::Ordering;

use gifting_api::money::Decimal;
use leptos::prelude::*;

use super::charts::BudgetBar;
use crate::components::format;
use crate::components::sort::{use_table_sort, SortHeader, TableSort};
use crate::components::Tone;
use crate::i18n::{live_text, msg, t, M};
use crate::routes;
use crate::spend::report::{Band, BudgetRow, Report};

/// Rows shown on Home; Teams lists every group.
pub(crate) const SHOWN: usize = 10;

pub(crate) fn usd(amount: Decimal) -> String {
    format::money("USD", &amount.to_string())
}

/// Whether a group needs the admin: over or near its budget.
pub(crate) fn needs_attention(row: &BudgetRow) -> bool {
    matches!(row.band, Band::Over | Band::Near)
}

fn by_used(a: &BudgetRow, b: &BudgetRow) -> Ordering {
    a.percent.cmp(&b.percent)
}

fn order_by(key: &str) -> Option<fn(&BudgetRow, &BudgetRow) -> Ordering> {
    Some(match key {
        "used" => by_used,
        "spent" => |a, b| a.spend.months[0].usd.cmp_value(b.spend.months[0].usd),
        "remaining" => |a, b| a.remaining.cmp_value(b.remaining),
        _ => return None,
    })
}

/// The groups over or near budget in the address's order (most used first by default).
pub(crate) fn attention_rows(rows: &[BudgetRow], sort: &TableSort) -> Vec<BudgetRow> {
    let mut shown: Vec<BudgetRow> = rows
        .iter()
        .filter(|r| needs_attention(r))
        .cloned()
        .collect();
    if sort.column.as_deref().and_then(order_by).is_some() {
        sort.apply(&mut shown, order_by);
    } else {
        shown.sort_by(|a, b| by_used(b, a));
    }
    shown
}

pub(crate) fn band_tone(band: Band) -> Tone {
    match band {
        Band::Under => Tone::Success,
        Band::Near => Tone::Warning,
        Band::Over => Tone::Danger,
        Band::NoBudget => Tone::Neutral,
    }
}

/// The groups over or near budget, the first [`SHOWN`], then where the rest are.
#[component]
pub(crate) fn AttentionGroups(
    rows: Memo<Vec<BudgetRow>>,
    report: Memo<Option<Report>>,
) -> impl IntoView {
    let sort = use_table_sort();
    let needing = Memo::new(move |_| rows.with(|r| sort.with(|s| attention_rows(r, s))));
    let shown = move || needing.with(|n| n.iter().take(SHOWN).cloned().collect::<Vec<_>>());
    view! {
        <h3 id="groups-heading">{M::HomeGroupsHeading}</h3>
        <Show
            when=move || needing.with(|n| !n.is_empty())
            fallback=|| view! { <p data-testid="no-group-needs-attention">{M::HomeNoGroupNeedsAttention}</p> }
        >
            <div class="table-wrap" tabindex="0" role="region" aria-labelledby="groups-heading">
                <table class="data-table budget-table" data-testid="budget-table">
                    <thead>
                        <tr>
                            <th scope="col">{M::HomeColumnGroup}</th>
                            <th scope="col" class="num">{M::HomeColumnBudget}</th>
                            <SortHeader label=M::HomeColumnSpent key="spent" class=Some("num") />
                            <SortHeader label=M::HomeColumnUsed key="used" />
                            <SortHeader label=M::HomeColumnRemaining key="remaining" class=Some("num") />
                            <th scope="col" class="num">{M::HomeColumnLastMonth}</th>
                        </tr>
                    </thead>
                    <tbody>
                        <For each=shown key=|r| r.name.clone() let:row>
                            <BudgetLine row />
                        </For>
                    </tbody>
                    <BudgetTotal report />
                </table>
            </div>
        </Show>
        <NotCounted report />
        <MoreGroups needing rows />
    }
}

/// "10 of 79 shown", and links to every group over or near budget, and to all of them.
#[component]
fn MoreGroups(needing: Memo<Vec<BudgetRow>>, rows: Memo<Vec<BudgetRow>>) -> impl IntoView {
    let count = move |band: Band| rows.with(|r| r.iter().filter(|x| x.band == band).count());
    let link = move |band: Band, words: fn(u64) -> String| {
        let n = count(band) as u64;
        (n > 0).then(|| {
            let href = format!("{}?band={}", routes::TEAMS, band.key());
            view! { <a href=href>{words(n)}</a> " · " }
        })
    };
    let shown = move || {
        let n = needing.with(Vec::len) as u64;
        (n > SHOWN as u64).then(|| {
            let most = format::count(SHOWN as u64);
            format!("{} ", msg::home_most_used_shown(&most, n))
        })
    };
    view! {
        <p class="figures__more" data-testid="more-groups">
            {shown}
            {move || link(Band::Over, msg::home_more_over)}
            {move || link(Band::Near, msg::home_more_near)}
            <a href=routes::TEAMS>{live_text(move || msg::home_all_groups(rows.with(Vec::len) as u64))}</a>
        </p>
    }
}

/// The organisation's spend: every group, not only those shown.
#[component]
fn BudgetTotal(report: Memo<Option<Report>>) -> impl IntoView {
    let total = move |m: usize| {
        report.with(|r| r.as_ref().map(|r| usd(r.total(m).usd)).unwrap_or_default())
    };
    view! {
        <tfoot>
            <tr data-testid="budget-total">
                <th scope="row">{M::HomeAllGroupsTotal}</th>
                <td></td>
                <td class="num">{live_text(move || total(0))}</td>
                <td colspan="2"></td>
                <td class="num">{live_text(move || total(1))}</td>
            </tr>
        </tfoot>
    }
}

/// Spend in other currencies than the budgets', said apart: never added to them.
#[component]
fn NotCounted(report: Memo<Option<Report>>) -> impl IntoView {
    let others = move || {
        let text = report.with(|r| r.as_ref().map(|r| r.total(0).other_shown()))?;
        (!text.is_empty()).then(|| msg::home_not_counted(&text))
    };
    view! { <p class="muted"><small>{others}</small></p> }
}

/// The small line under a budget: what was carried over, and a one-time budget beside it.
pub(crate) fn budget_notes(row: &BudgetRow) -> String {
    let mut notes = Vec::new();
    if row.rollover && row.carried.cmp_value(Decimal::ZERO) != Ordering::Equal {
        notes.push(msg::home_note_carried(&usd(row.carried)));
    }
    if row.one_time != 0 {
        let one_time = Decimal::parse(&row.one_time.to_string()).unwrap_or(Decimal::ZERO);
        notes.push(msg::home_note_one_time(&usd(one_time)));
    }
    notes.join("; ")
}

/// A group's line: its status beside its name, budget (with its notes), spent, used, remaining
/// and last month.
#[component]
fn BudgetLine(row: BudgetRow) -> impl IntoView {
    let has_notes = !budget_notes(&row).is_empty();
    let notes = {
        let row = row.clone();
        Signal::derive(move || budget_notes(&row))
    };
    let percent = row.percent;
    let used = move || percent.map_or_else(|| "—".to_owned(), format::percent);
    let no_budget =
        row.band == Band::NoBudget && row.monthly.cmp_value(Decimal::ZERO) == Ordering::Equal;
    let amount = row.budget;
    let budget = move || {
        if no_budget {
            t(M::SpendBandNone).to_owned()
        } else {
            usd(amount)
        }
    };
    let (spent, remaining, last) = (
        row.spend.months[0].usd,
        row.remaining,
        row.spend.months[1].usd,
    );
    view! {
        <tr data-group=row.name.clone() data-band=row.band.key()>
            <th scope="row">
                <span translate="no">{row.name.clone()}</span> " "
                <span class=band_tone(row.band).class()>{row.band.label()}</span>
            </th>
            <td class="num">
                {budget}
                {has_notes.then(|| view! { <br /><small class="muted" title=notes>{notes}</small> })}
            </td>
            <td class="num" data-testid="spent-this-month">{live_text(move || usd(spent))}</td>
            <td class="budget-used">
                <BudgetBar percent=Signal::stored(row.percent) />
                " " {used}
            </td>
            <td class="num">{live_text(move || usd(remaining))}</td>
            <td class="num">{live_text(move || usd(last))}</td>
        </tr>
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::spend::report::GroupSpend;

    fn row(name: &str, percent: Option<i128>, spent: &str) -> BudgetRow {
        let mut spend = GroupSpend::default();
        spend.months[0].usd = Decimal::parse(spent).unwrap_or(Decimal::ZERO);
        BudgetRow {
            name: name.into(),
            monthly: Decimal::ONE,
            carried: Decimal::ZERO,
            rollover: false,
            one_time: 0,
            budget: Decimal::ONE,
            spend,
            percent,
            band: Band::of(percent),
            remaining: Decimal::ZERO,
        }
    }

    #[wasm_bindgen_test]
    fn over_then_near_by_use_and_as_the_address_sorts() {
        let rows = [
            row("a", Some(50), "1"),
            row("b", Some(85), "9"),
            row("c", Some(130), "2"),
            row("d", None, "0"),
            row("e", Some(101), "3"),
        ];
        let names = |sort: TableSort| -> Vec<String> {
            attention_rows(&rows, &sort)
                .into_iter()
                .map(|r| r.name)
                .collect()
        };
        assert_eq!(names(TableSort::default()), ["c", "e", "b"]);
        let spent = TableSort {
            column: Some("spent".into()),
            descending: true,
        };
        assert_eq!(names(spent), ["b", "e", "c"]);
        let unknown = TableSort {
            column: Some("created".into()),
            descending: false,
        };
        assert_eq!(
            names(unknown),
            ["c", "e", "b"],
            "another screen's sort key: the default"
        );
    }
}
