//! `/teams/:id`: one team group's members, from the platform's bare-array endpoint.

use gifting_api::paths;
use gifting_api::rest::Member;
use leptos::either::Either;
use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

use super::groups::{fetch_all_groups, name_of};
use crate::api::{use_api, ApiError};
use crate::components::format;
use crate::components::{Badge, Empty, ErrorPanel, Loading, Tone};
use crate::routes;

#[component]
pub fn TeamPage() -> impl IntoView {
    let api = use_api();
    let params = use_params_map();
    let raw_id = Memo::new(move |_| params.with(|p| p.get("id").unwrap_or_default()));
    let members = LocalResource::new(move || {
        let raw = raw_id.get();
        async move {
            match raw.parse::<u64>() {
                Ok(id) => Ok(api
                    .get_json::<Vec<Member>>(&paths::v3_group_members(id))
                    .await?),
                // The platform's ids are numbers; anything else cannot name a group.
                Err(_) => Err(ApiError::NotFound {
                    message: format!("There is no team group with the id \u{201c}{raw}\u{201d}."),
                }),
            }
        }
    });
    // Only for the heading: the members endpoint does not carry the group's name.
    let groups = LocalResource::new(move || async move { fetch_all_groups(api).await });
    let team_name = move || {
        let id = raw_id.get().parse::<u64>().ok()?;
        groups
            .get()
            .and_then(|r| r.ok())
            .and_then(|gs| name_of(&gs, id).map(str::to_owned))
    };
    let retry = Callback::new(move |()| members.refetch());

    view! {
        <section class="team" aria-labelledby="team-heading">
            <p class="breadcrumb">
                <a href=routes::TEAMS>"Teams"</a>
            </p>
            <h1 id="team-heading">
                {move || match team_name() {
                    Some(name) => format!("Team: {name}"),
                    None => format!("Team group {}", raw_id.get()),
                }}
            </h1>
            {move || match members.get() {
                None => view! { <Loading /> }.into_any(),
                Some(Err(ApiError::NotFound { message })) => {
                    view! { <TeamNotFound message /> }.into_any()
                }
                Some(Err(error)) => view! { <ErrorPanel error on_retry=retry /> }.into_any(),
                Some(Ok(list)) => view! { <MembersTable members=list /> }.into_any(),
            }}
        </section>
    }
}

#[component]
fn TeamNotFound(message: String) -> impl IntoView {
    let message = if message.trim().is_empty() {
        "Team group not found".to_owned()
    } else {
        message
    };
    view! {
        <div class="not-found" role="alert" data-testid="team-not-found">
            <p class="not-found__message">{message}</p>
            <p>
                <a href=routes::TEAMS>"Back to the teams"</a>
            </p>
        </div>
    }
}

#[component]
fn MembersTable(members: Vec<Member>) -> impl IntoView {
    if members.is_empty() {
        return Either::Left(view! { <Empty message="This team group has no members." /> });
    }
    let count = members.len();
    Either::Right(view! {
        <p class="muted">
            {if count == 1 { "1 member".to_owned() } else { format!("{count} members") }}
        </p>
        <div class="table-wrap">
            <table class="data-table">
                <caption>"Members of this team group"</caption>
                <thead>
                    <tr>
                        <th scope="col">"Name"</th>
                        <th scope="col">"Email"</th>
                        <th scope="col" class="num">"Balance"</th>
                        <th scope="col">"Sandbox"</th>
                        <th scope="col">"Invitation key"</th>
                    </tr>
                </thead>
                <tbody>
                    {members
                        .into_iter()
                        .map(|m| {
                            let name = format!("{} {}", m.first_name, m.last_name).trim().to_owned();
                            view! {
                                <tr>
                                    <th scope="row">{name.clone()}</th>
                                    <td>{m.email.clone()}</td>
                                    <td class="num">{format::amount(&m.balance)}</td>
                                    <td>
                                        {if m.sandbox {
                                            view! { <Badge text="Sandbox" tone=Tone::Warning /> }
                                                .into_any()
                                        } else {
                                            view! { <span>"No"</span> }.into_any()
                                        }}
                                    </td>
                                    <td>
                                        <KeyToggle key=m.key.clone() owner=name />
                                    </td>
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        </div>
    })
}

/// The invitation key stays out of the page (and out of screenshots) until asked for.
#[component]
fn KeyToggle(key: String, owner: String) -> impl IntoView {
    if key.is_empty() {
        return Either::Left(view! { <span class="muted">"None"</span> });
    }
    let shown = RwSignal::new(false);
    let label = move || {
        let verb = if shown.get() { "Hide" } else { "Show" };
        format!("{verb} invitation key of {owner}")
    };
    Either::Right(view! {
        <span class="key-toggle">
            <button
                type="button"
                class="button button--small"
                aria-label=label
                on:click=move |_| shown.update(|s| *s = !*s)
            >
                {move || if shown.get() { "Hide" } else { "Show" }}
            </button>
            {move || shown.get().then(|| view! { <code class="key-toggle__key">{key.clone()}</code> })}
        </span>
    })
}
