//! `/teams?band=&q=&sort=&dir=&page=`: every team group with its budget this month, what it
//! spent, the share used and its band, filtered, sorted and paged on screen (the platform's
//! groups are read whole: 250 fit in memory), everything in the address.

use gifting_api::money::Decimal;
use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_query_map};

use super::rows::{team_order, team_rows, TeamFilter, TeamRow, KEY_BAND};
use crate::api::use_team_groups;
use crate::components::format;
use crate::components::query_href::href_with_first_page;
use crate::components::table::{number, text};
use crate::components::{remember_last_filters, NameSearch, ScreenHeading, KEY_SEARCH};
use crate::components::{
    use_page_query, Column, DataTable, ErrorPanel, Loading, Pager, ShownPage, Tone,
};
use crate::i18n::{msg, t, M};
use crate::routes;
use crate::spend::cells::org_figures;
use crate::spend::report::Band;

#[component]
pub(crate) fn TeamsPage() -> impl IntoView {
    remember_last_filters("teams", &[KEY_SEARCH, KEY_BAND]);
    let groups = use_team_groups();
    let body = move || match groups.get() {
        None => view! { <Loading /> }.into_any(),
        Some(Err(error)) => {
            let on_retry = Callback::new(move |()| groups.refetch());
            view! { <ErrorPanel error on_retry /> }.into_any()
        }
        Some(Ok(list)) => view! { <GroupsTable groups=list /> }.into_any(),
    };
    view! {
        <section class="teams" aria-labelledby="teams-heading">
            <div class="page-head">
                <ScreenHeading title=M::TeamsTitle id="teams-heading" />
                <a class="button" href=routes::ACTIVE_USERS>{M::TeamsActiveUsersLink}</a>
            </div>
            <NameSearch id="teams-search" label=M::TeamsSearch />
            <BandChoice />
            {body}
        </section>
    }
}

/// "All · Over budget · Near budget · Within budget · No monthly budget", links that set
/// `band` in the address.
#[component]
fn BandChoice() -> impl IntoView {
    let query = use_query_map();
    let location = use_location();
    let choices: [(Option<Band>, M); 5] = [
        (None, M::TeamsBandAll),
        (Some(Band::Over), Band::Over.label()),
        (Some(Band::Near), Band::Near.label()),
        (Some(Band::Under), Band::Under.label()),
        (Some(Band::NoBudget), Band::NoBudget.label()),
    ];
    let links = choices
        .into_iter()
        .map(|(band, label)| {
            let change = [(KEY_BAND, band.map(|b| b.key().to_owned()))];
            let href = move || {
                let path = location.pathname.get();
                query.with(|q| href_with_first_page(&path, q, &change))
            };
            let current = move || {
                let chosen = query.with(|q| q.get_str(KEY_BAND).and_then(Band::from_key));
                (chosen == band).then_some("page")
            };
            view! { <li><a href=href aria-current=current>{label}</a></li> }
        })
        .collect_view();
    view! {
        <nav class="band-choice" aria-label=M::TeamsBandChoice>
            <ul>{links}</ul>
        </nav>
    }
}

#[rustfmt::skip]
const TEAM_COLUMNS: &[Column] = &[text(M::TeamsColumnName).sorts("name"), number(M::TeamsBudgetThisMonth).sorts("budget"), number(M::TeamsSpentThisMonth).sorts("spent"), number(M::TeamsUsed).sorts("used"), text(M::TeamsColumnStatus), number(M::TeamsRemaining).sorts("remaining")];

/// Every group's line, filtered and paged as the address says; the spend follows the walk.
#[component]
fn GroupsTable(groups: Vec<gifting_api::rest::TeamGroup>) -> impl IntoView {
    let figures = org_figures();
    let rows = {
        let figures = figures.clone();
        Memo::new(move |_| {
            figures
                .result
                .with(|f| team_rows(&groups, f.report.as_ref()))
        })
    };
    let reading = {
        let figures = figures.clone();
        Signal::derive(move || figures.running())
    };
    let query = use_query_map();
    let filter = Memo::new(move |_| query.with(TeamFilter::from_query));
    let shown_rows = Memo::new(move |_| filter.with(|f| f.apply(rows.get())));
    let all = move || rows.with(Vec::len);
    let paging = use_page_query();
    let shown = Signal::derive(move || {
        let p = paging.get();
        let per_page = p.per_page.unwrap_or(gifting_api::rest::DEFAULT_PER_PAGE);
        Some(ShownPage::new(
            shown_rows.with(Vec::len) as u64,
            p.page.unwrap_or(1),
            per_page,
        ))
    });
    let range = Signal::derive(move || {
        let Some(page) = shown.get() else { return 0..0 };
        let start = (page.page as usize - 1).saturating_mul(page.per_page as usize);
        start..start.saturating_add(page.per_page as usize)
    });
    let has_report = {
        let figures = figures.clone();
        move || figures.result.with(|f| f.report.is_some())
    };
    // For whoever waits for the figures (tests): not read yet, reading, or done.
    let state = move || match (has_report(), reading.get()) {
        (false, _) => "waiting",
        (true, true) => "reading",
        (true, false) => "done",
    };
    let count = move || {
        let n = shown_rows.with(Vec::len) as u64;
        msg::teams_groups_count(&format::count(n), all() as u64)
    };
    view! {
        <p class="muted" data-testid="teams-count" data-figures=state role="status">{count}</p>
        {move || {
            let items = shown_rows.get();
            view! {
                <DataTable
                    caption=M::TeamsGroupsCaption columns=TEAM_COLUMNS items
                    row=move |r| team_row(r, reading) order=team_order rows=range
                    empty=M::TeamsNoGroupMatches class="data-table teams-table" testid="teams-table"
                />
            }
        }}
        <Pager shown />
    }
}

fn usd(amount: Decimal) -> String {
    format::money("USD", &amount.to_string())
}

fn band_tone(band: Band) -> Tone {
    match band {
        Band::Under => Tone::Success,
        Band::Near => Tone::Warning,
        Band::Over => Tone::Danger,
        Band::NoBudget => Tone::Neutral,
    }
}

fn team_row(r: TeamRow, reading: Signal<bool>) -> AnyView {
    let line = r.line.clone();
    let budgeted = line.as_ref().filter(|l| l.percent.is_some());
    let budget = line.as_ref().map(|l| (l.band == Band::NoBudget, l.budget));
    let budget = move || match budget {
        None => "…".to_owned(),
        Some((true, amount)) if amount == Decimal::ZERO => t(M::SpendBandNone).to_owned(),
        Some((_, amount)) => usd(amount),
    };
    let spent = line.as_ref().map(|l| l.spend.months[0].usd);
    let spent = move || {
        let spent = usd(spent?);
        Some(if reading.get() {
            msg::spend_so_far(&spent)
        } else {
            spent
        })
    };
    let percent = budgeted.and_then(|l| l.percent);
    let used = move || percent.map_or("—".to_owned(), format::percent);
    let remaining = budgeted.map(|l| l.remaining);
    let remaining = move || remaining.map_or("—".to_owned(), usd);
    let band = r.band();
    view! {
        <tr data-group=r.name.clone() data-band=band.map(Band::key) data-percent=budgeted.and_then(|l| l.percent).map(|p| p.to_string())>
            <th scope="row" translate="no">
                <a href=routes::team(r.id)>{r.name.clone()}</a>
            </th>
            <td class="num">{budget}</td>
            <td class="num" data-testid="group-spent">{spent}</td>
            <td class="num" data-testid="group-used">{used}</td>
            <td data-testid="group-status">
                {band.map(|b| view! { <span class=band_tone(b).class()>{b.label()}</span> })}
            </td>
            <td class="num">{remaining}</td>
        </tr>
    }
    .into_any()
}
