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
use crate::i18n::{msg, M};
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
                back=(routes::TEAMS, M::TeamsTitle) title=M::TeamsActiveUsersTitle id="directory-heading"
                intro=M::TeamsActiveUsersIntro
            />
            <Show when=groups_failed>
                <Notice tone=Tone::Warning>
                    {M::TeamsNamesFailed} " "
                    <button type="button" class="button button--small" on:click=move |_| groups.refetch()>
                        {M::CommonTryAgain}
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
const DIRECTORY_COLUMNS: &[Column] = &[text(M::TeamsColumnName).sorts("name"), text(M::TeamsColumnEmail).sorts("email"), text(M::TeamsColumnTeam)];

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
            caption=M::TeamsDirectoryCaption columns=DIRECTORY_COLUMNS items=users
            row=move |u| directory_row(u, groups) order=directory_order empty=M::TeamsDirectoryEmpty
            sorted_within=M::TeamsDirectorySortedWithin
        />
    }
}

fn directory_row(u: RestUser, groups: TeamGroups) -> AnyView {
    let team_id = u.team_group_id;
    // By id until the names arrive; an id the list lacks says so.
    let id = team_id.to_string();
    let team = move || match groups.name_of(team_id) {
        Some(name) => name,
        None if groups.ready() => msg::teams_group_not_listed(&id),
        None => msg::teams_group_heading(&id),
    };
    // A team's name is the platform's; the words around an id are the console's.
    let named = move || groups.name_of(team_id).is_some().then_some("no");
    view! {
        <tr>
            <th scope="row" translate="no">{user_name(&u)}</th>
            <td>{u.email}</td>
            <td>
                <a href=routes::team(team_id) translate=named>{team}</a>
            </td>
        </tr>
    }
    .into_any()
}
