//! `/teams`: the team groups, paged by the address bar, with their budgets.

use gifting_api::paths::endpoint;
use gifting_api::rest::{GroupPage, Member, TeamGroup};
use leptos::either::Either;
use leptos::prelude::*;

use crate::api::use_api;
use crate::components::format;
use crate::components::sort::{by_amount, by_text, by_time, Compare};
use crate::components::table::{number, text};
use crate::components::ScreenHeading;
use crate::components::{
    use_paged_list, use_shown_page, Column, DataTable, Loaded, Pager, ShownPage,
};
use crate::routes;
use crate::spend::cells::GroupSpent;

#[component]
pub(crate) fn TeamsPage() -> impl IntoView {
    let groups = use_paged_list::<GroupPage>(use_api(), endpoint::LIST_GROUPS);
    // Where the rows on screen sit, for the pager mounted once beside them.
    let shown = use_shown_page(groups, |p| {
        Some(ShownPage::new(p.total_groups, p.current_page, p.per_page))
    });

    view! {
        <section class="teams" aria-labelledby="teams-heading">
            <div class="page-head">
                <ScreenHeading title="Teams" id="teams-heading" />
                <a class="button" href=routes::ACTIVE_USERS>"All active users"</a>
            </div>
            <Loaded resource=groups let:page>
                <GroupsTable groups=page.groups.clone() />
            </Loaded>
            <Pager shown />
        </section>
    }
}

#[rustfmt::skip]
const GROUP_COLUMNS: &[Column] = &[text("Name").sorts("name"), number("Monthly budget").sorts("monthly"), number("Spent this month"), number("One-time budget").sorts("one_time"), text("Rollover").sorts("rollover"), text("Created").sorts("created"), text("Updated").sorts("updated"), number("Members")];

fn group_order(key: &str) -> Option<Compare<TeamGroup>> {
    Some(match key {
        "name" => |a, b| by_text(&a.name, &b.name),
        "monthly" => |a, b| by_amount(&a.monthly_budget, &b.monthly_budget),
        "one_time" => |a, b| a.one_time_budget.cmp(&b.one_time_budget),
        "rollover" => |a, b| a.rollover.cmp(&b.rollover),
        "created" => |a, b| by_time(&a.created_at, &b.created_at),
        "updated" => |a, b| by_time(&a.updated_at, &b.updated_at),
        _ => return None,
    })
}

#[component]
fn GroupsTable(groups: Vec<TeamGroup>) -> impl IntoView {
    view! {
        <DataTable
            caption="Team groups and their budgets" columns=GROUP_COLUMNS items=groups row=group_row order=group_order
            empty="No team groups on this page."
            sorted_within="Sorted within the team groups on this page; the platform lists them in its own order."
        />
    }
}

fn group_row(g: TeamGroup) -> AnyView {
    view! {
        <tr>
            <th scope="row">
                <a href=routes::team(g.id)>{g.name.clone()}</a>
            </th>
            <td class="num">{format::amount(&g.monthly_budget)}</td>
            <td class="num" data-testid="group-spent">
                <GroupSpent id=g.id name=g.name.clone() />
            </td>
            <td class="num">{format::amount(&g.one_time_budget.to_string())}</td>
            <td>{if g.rollover { "Yes" } else { "No" }}</td>
            <td>{format::date_time(&g.created_at)}</td>
            <td>{format::date_time(&g.updated_at)}</td>
            <td class="num">
                <MemberCount team_group_id=g.id />
            </td>
        </tr>
    }
    .into_any()
}

/// The group's member count, read from its members list; "unknown" when that fails, so a
/// missing count never blocks the table.
#[component]
fn MemberCount(team_group_id: u64) -> impl IntoView {
    let api = use_api();
    let members = LocalResource::new(move || async move {
        api.get_json::<Vec<Member>>(
            endpoint::LIST_GROUP_MEMBERS.call(&[&team_group_id.to_string()]),
        )
        .await
        .map(|list| list.len())
    });
    move || match members.get() {
        None => Either::Left(view! {
            <span class="muted">
                <span aria-hidden="true">"…"</span>
                <span class="visually-hidden">"Counting members"</span>
            </span>
        }),
        Some(Ok(count)) => Either::Right(count.to_string()),
        Some(Err(_)) => Either::Right("unknown".to_owned()),
    }
}
