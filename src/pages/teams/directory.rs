//! `/teams/users`: the active users directory (REST v3), each with their team's name.

use std::collections::BTreeMap;

use gifting_api::paths;
use gifting_api::rest::{RestUser, UserPage};
use leptos::either::Either;
use leptos::prelude::*;

use super::groups::fetch_all_groups;
use crate::api::use_api;
use crate::components::{use_paged_list, Empty, Loaded, Pager};
use crate::routes;

/// Team group id → name, once the groups have loaded (`None` while loading or failed).
type TeamNames = Signal<Option<BTreeMap<u64, String>>>;

#[component]
pub fn ActiveUsersPage() -> impl IntoView {
    let api = use_api();
    let users = use_paged_list::<UserPage>(api, paths::V3_USERS);
    let groups = LocalResource::new(move || async move { fetch_all_groups(api).await });
    let names: TeamNames = Signal::derive(move || {
        groups
            .get()
            .and_then(|r| r.ok())
            .map(|gs| gs.into_iter().map(|g| (g.id, g.name)).collect())
    });
    let groups_failed = move || matches!(groups.get(), Some(Err(_)));

    view! {
        <section class="directory" aria-labelledby="directory-heading">
            <p class="breadcrumb">
                <a href=routes::TEAMS>"Teams"</a>
            </p>
            <h1 id="directory-heading">"All active users"</h1>
            <p class="muted">
                "Everyone who can sign in and send, with their team. Deactivated users are not listed."
            </p>
            <Show when=groups_failed>
                <p class="notice notice--warning" role="status">
                    "Team names could not be loaded; teams are shown by their id. "
                    <button type="button" class="button button--small" on:click=move |_| groups.refetch()>
                        "Try again"
                    </button>
                </p>
            </Show>
            <Loaded resource=users let:page>
                {if page.users.is_empty() {
                    Either::Left(view! { <Empty message="No active users on this page." /> })
                } else {
                    Either::Right(view! { <DirectoryTable users=page.users.clone() names /> })
                }}
                <Pager total=page.total_users page=page.current_page per_page=page.per_page />
            </Loaded>
        </section>
    }
}

#[component]
fn DirectoryTable(users: Vec<RestUser>, names: TeamNames) -> impl IntoView {
    view! {
        <div class="table-wrap">
            <table class="data-table">
                <caption>"Active users and their teams"</caption>
                <thead>
                    <tr>
                        <th scope="col">"Name"</th>
                        <th scope="col">"Email"</th>
                        <th scope="col">"Team"</th>
                    </tr>
                </thead>
                <tbody>
                    {users
                        .into_iter()
                        .map(|u| {
                            let team_id = u.team_group_id;
                            let team = move || match names.get() {
                                None => format!("Team group {team_id}"),
                                Some(map) => map
                                    .get(&team_id)
                                    .cloned()
                                    .unwrap_or_else(|| format!("Team group {team_id} (not listed)")),
                            };
                            view! {
                                <tr>
                                    <th scope="row">
                                        {format!("{} {}", u.first_name, u.last_name).trim().to_owned()}
                                    </th>
                                    <td>{u.email.clone()}</td>
                                    <td>
                                        <a href=routes::team(team_id)>{team}</a>
                                    </td>
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        </div>
    }
}
