//! `/users/:id`: one user, their names, role and team, and switching them off and on.
//! Every change is a SCIM PUT, and the page then shows the platform's answer, not what it
//! asked for.

use gifting_api::paths;
use gifting_api::scim::{ReplaceUser, ScimUser};
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::{use_params_map, use_query_map};

use super::access::ScimLoaded;
use super::fields::{focus_field, RoleSelect, TeamChoices, TeamSelect, TextField};
use super::form::{field_of_error, Field, FieldErrors, UserDraft};
use super::present::{display_name, status_badge};
use crate::api::{use_api, ApiError};
use crate::components::confirm_dialog::ConfirmDialog;
use crate::pages::teams::groups::{fetch_all_groups, sorted_names};
use crate::routes;

#[component]
pub fn UserPage() -> impl IntoView {
    let api = use_api();
    let params = use_params_map();
    let query = use_query_map();
    let id = Memo::new(move |_| params.with(|p| p.get("id").unwrap_or_default()));
    let user = LocalResource::new(move || {
        let id = id.get();
        async move { api.get_json::<ScimUser>(&paths::scim_user(&id)).await }
    });
    let just_created = move || query.with(|q| q.get_str("created") == Some("1"));

    view! {
        <section class="user-page" aria-labelledby="user-heading">
            <p class="breadcrumb">
                <a href=routes::USERS>"Users"</a>
            </p>
            <ScimLoaded resource=user let:loaded>
                <UserEditor user=loaded just_created=just_created() />
            </ScimLoaded>
        </section>
    }
}

/// What the page reports after a save or an activation change.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Outcome {
    Saved(String),
    Failed(String),
}

#[component]
fn UserEditor(user: ScimUser, just_created: bool) -> impl IntoView {
    let api = use_api();
    let groups = LocalResource::new(move || async move { fetch_all_groups(api).await });
    let choices = Signal::derive(move || match groups.get() {
        None => TeamChoices::Loading,
        Some(Ok(list)) => TeamChoices::Ready(sorted_names(&list)),
        Some(Err(error)) => TeamChoices::Failed(error.user_message()),
    });

    // The platform's latest answer about this user; the summary shows only this.
    let current = RwSignal::new(user.clone());
    let given = RwSignal::new(user.name.given_name.clone());
    let family = RwSignal::new(user.name.family_name.clone());
    let role = RwSignal::new(user.user_type.to_string());
    let team = RwSignal::new(user.division.clone());
    let errors = RwSignal::new(FieldErrors::new());
    let outcome = RwSignal::new(None::<Outcome>);
    let pending = RwSignal::new(false);
    let confirm_open = RwSignal::new(false);

    // After an answer, the form starts again from what the platform now has.
    let accept = move |answer: ScimUser| {
        given.set(answer.name.given_name.clone());
        family.set(answer.name.family_name.clone());
        role.set(answer.user_type.to_string());
        team.set(answer.division.clone());
        current.set(answer);
    };

    let send = move |body: ReplaceUser, done: fn(&ScimUser) -> String| {
        if pending.get_untracked() {
            return;
        }
        pending.set(true);
        outcome.set(None);
        let id = current.with_untracked(|u| u.id.clone());
        spawn_local(async move {
            match api
                .put_json::<_, ScimUser>(&paths::scim_user(&id), &body)
                .await
            {
                Ok(answer) => {
                    let text = done(&answer.body);
                    if current.try_get_untracked().is_some() {
                        accept(answer.body);
                    }
                    outcome.try_set(Some(Outcome::Saved(text)));
                }
                Err(ApiError::Cancelled) => {}
                Err(error) => match field_of_error(&error) {
                    Some((field, message)) => {
                        errors.try_set(vec![(field, message)]);
                        focus_field(field);
                    }
                    None => {
                        outcome.try_set(Some(Outcome::Failed(error.user_message())));
                    }
                },
            }
            pending.try_set(false);
        });
    };

    let on_save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if pending.get_untracked() {
            return;
        }
        let draft = UserDraft {
            email: String::new(),
            given_name: given.get_untracked(),
            family_name: family.get_untracked(),
            role: role.get_untracked(),
            team: team.get_untracked(),
        };
        let mut teams = match choices.get_untracked() {
            TeamChoices::Ready(names) => names,
            _ => Vec::new(),
        };
        // Keeping the team the user already has is always allowed.
        teams.push(current.with_untracked(|u| u.division.clone()));
        let found = draft.validate(&teams, false);
        if let Some((first, _)) = found.first() {
            let first = *first;
            errors.set(found);
            focus_field(first);
            return;
        }
        errors.set(FieldErrors::new());
        let body = ReplaceUser {
            name: Some(draft.name()),
            user_type: Some(gifting_api::Role::parse(&draft.role)),
            division: Some(draft.team.clone()),
            ..Default::default()
        };
        send(body, |u| {
            format!(
                "Saved. The platform now has {}: {}, in {}.",
                display_name(u),
                u.user_type,
                if u.division.is_empty() {
                    "no team"
                } else {
                    &u.division
                }
            )
        });
    };

    let set_active = move |active: bool| {
        let body = ReplaceUser {
            active: Some(active),
            ..Default::default()
        };
        let done: fn(&ScimUser) -> String = if active {
            |u| format!("{} is active again.", display_name(u))
        } else {
            |u| format!("{} is deactivated.", display_name(u))
        };
        send(body, done);
    };

    let disabled = Signal::derive(move || pending.get());
    let name = move || current.with(display_name);

    view! {
        <h1 id="user-heading">{name}</h1>
        {just_created
            .then(|| {
                view! {
                    <p class="notice notice--success" role="status" data-testid="user-created">
                        {move || format!("User created: {}.", current.with(|u| u.user_name.clone()))}
                    </p>
                }
            })}
        <dl class="user-summary" data-testid="user-summary">
            <div>
                <dt>"Email"</dt>
                <dd>{move || current.with(|u| u.user_name.clone())}</dd>
            </div>
            <div>
                <dt>"Role"</dt>
                <dd data-testid="user-role">{move || current.with(|u| u.user_type.to_string())}</dd>
            </div>
            <div>
                <dt>"Team"</dt>
                <dd data-testid="user-team">
                    {move || current.with(|u| if u.division.is_empty() { "—".to_owned() } else { u.division.clone() })}
                </dd>
            </div>
            <div>
                <dt>"Status"</dt>
                <dd data-testid="user-status">{move || status_badge(current.with(|u| u.active))}</dd>
            </div>
            <div>
                <dt>"User id"</dt>
                <dd>{move || current.with(|u| u.id.clone())}</dd>
            </div>
        </dl>
        <div aria-live="polite">
            {move || {
                outcome
                    .get()
                    .map(|o| match o {
                        Outcome::Saved(text) => view! {
                            <p class="notice notice--success" role="status" data-testid="user-outcome">{text}</p>
                        }
                        .into_any(),
                        Outcome::Failed(text) => view! {
                            <div class="notice notice--error" role="alert" data-testid="user-outcome">
                                <p>{text}</p>
                                <p>"Nothing was lost: your changes are still in the form."</p>
                            </div>
                        }
                        .into_any(),
                    })
            }}
        </div>
        <form class="form user-form" novalidate on:submit=on_save aria-labelledby="user-details-heading">
            <h2 id="user-details-heading">"Details"</h2>
            <TextField field=Field::GivenName value=given errors disabled />
            <TextField field=Field::FamilyName value=family errors disabled />
            <RoleSelect value=role errors disabled />
            <TeamSelect
                value=team
                errors
                choices
                on_retry=Callback::new(move |()| groups.refetch())
                disabled
            />
            <div class="form__actions">
                <button type="submit" class="button button--primary" disabled=disabled>
                    {move || if pending.get() { "Saving…" } else { "Save changes" }}
                </button>
            </div>
        </form>
        <section class="user-access" aria-labelledby="user-access-heading">
            <h2 id="user-access-heading">"Access"</h2>
            {move || {
                if current.with(|u| u.active) {
                    view! {
                        <p>"This user can sign in and send gifts."</p>
                        <button
                            type="button"
                            class="button button--danger"
                            disabled=move || pending.get()
                            on:click=move |_| confirm_open.set(true)
                        >
                            "Deactivate user"
                        </button>
                    }
                    .into_any()
                } else {
                    view! {
                        <p>"This user is deactivated: they cannot sign in or send gifts."</p>
                        <button
                            type="button"
                            class="button button--primary"
                            disabled=move || pending.get()
                            on:click=move |_| set_active(true)
                        >
                            "Activate user"
                        </button>
                    }
                    .into_any()
                }
            }}
        </section>
        <ConfirmDialog
            open=confirm_open
            title=Signal::derive(move || format!("Deactivate {}?", name()))
            confirm_label="Deactivate"
            on_confirm=Callback::new(move |()| set_active(false))
        >
            <p>
                "A deactivated user can no longer sign in to the platform or send gifts, and "
                "leaves the active users directory. Their account and history are kept, and you "
                "can activate them again at any time."
            </p>
        </ConfirmDialog>
    }
}
