//! `/teams/users`: the active users directory (REST v3), each with their team's name.

use gifting_api::paths::endpoint;
use gifting_api::rest::{RestUser, UserPage};
use gifting_api::scim::full_name;
use leptos::prelude::*;

use crate::api::{use_api, use_team_groups, TeamGroups};
use crate::components::sort::{by_text, Compare};
use crate::components::table::text;
use crate::components::ScreenHeading;
use crate::components::{
    use_paged_list, use_shown_page, Column, DataTable, Loaded, Pager, ShownPage,
};
use crate::components::{Notice, Tone};
use crate::routes;

#[component]
pub(crate) fn ActiveUsersPage() -> impl IntoView {
    let api = use_api();
    let users = use_paged_list::<UserPage>(api, endpoint::LIST_USERS);
    // Where the rows on screen sit, for the pager mounted once beside them.
    let shown = use_shown_page(users, |p| {
        Some(ShownPage::new(p.total_users, p.current_page, p.per_page))
    });
    let groups = use_team_groups();
    let groups_failed = move || groups.failed();

    view! {
        <section class="directory" aria-labelledby="directory-heading">
            <ScreenHeading
                back=(routes::TEAMS, "Teams") title="All active users" id="directory-heading"
                intro="Everyone who can sign in and send, with their team. Deactivated users are not listed."
            />
            <Show when=groups_failed>
                <Notice tone=Tone::Warning>
                    "Team names could not be loaded; teams are shown by their id. "
                    <button type="button" class="button button--small" on:click=move |_| groups.refetch()>
                        "Try again"
                    </button>
                </Notice>
            </Show>
            <Loaded resource=users let:page>
                <DirectoryTable users=page.users.clone() groups />
            </Loaded>
            <Pager shown />
        </section>
    }
}

#[rustfmt::skip]
const DIRECTORY_COLUMNS: &[Column] = &[text("Name").sorts("name"), text("Email").sorts("email"), text("Team")];

fn directory_order(key: &str) -> Option<Compare<RestUser>> {
    Some(match key {
        "name" => |a, b| by_text(&user_name(a), &user_name(b)),
        "email" => |a, b| by_text(&a.email, &b.email),
        _ => return None,
    })
}

fn user_name(u: &RestUser) -> String {
    full_name(&u.first_name, &u.last_name)
}

#[component]
fn DirectoryTable(users: Vec<RestUser>, groups: TeamGroups) -> impl IntoView {
    view! {
        <DataTable
            caption="Active users and their teams" columns=DIRECTORY_COLUMNS items=users
            row=move |u| directory_row(u, groups) order=directory_order empty="No active users on this page."
            sorted_within="Sorted within the users on this page; the platform lists them in its own order."
        />
    }
}

fn directory_row(u: RestUser, groups: TeamGroups) -> AnyView {
    let team_id = u.team_group_id;
    // By id until the names arrive; an id the list lacks says so.
    let team = move || match groups.name_of(team_id) {
        Some(name) => name,
        None if groups.ready() => format!("Team group {team_id} (not listed)"),
        None => format!("Team group {team_id}"),
    };
    view! {
        <tr>
            <th scope="row">{user_name(&u)}</th>
            <td>{u.email}</td>
            <td>
                <a href=routes::team(team_id)>{team}</a>
            </td>
        </tr>
    }
    .into_any()
}
