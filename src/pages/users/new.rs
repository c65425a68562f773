//! `/users/new`: provisions one user with a SCIM POST.
//!
//! A create is not idempotent, and the request layer never repeats it. When the POST gets no
//! clear answer (no connection, timeout, a 5xx), the platform may or may not have created the
//! user; before anything is sent again the form asks the platform, by the `userName eq`
//! filter, whether that attempt landed, and says so instead of running into a 409.

use gifting_api::paths;
use gifting_api::scim::{ListResponse, ListUsersQuery, ScimUser, UserFilter};
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;

use super::fields::{focus_field, RoleSelect, TeamChoices, TeamSelect, TextField};
use super::form::{field_of_error, Field, FieldErrors, UserDraft};
use super::present::{display_name, user_href};
use crate::api::{use_api, ApiClient, ApiError};
use crate::pages::teams::groups::{fetch_all_groups, sorted_names};
use crate::routes;

/// Asks the platform whether a user with this email exists (the check before a resend).
pub async fn find_by_email(api: ApiClient, email: &str) -> Result<Option<ScimUser>, ApiError> {
    let filter = UserFilter::user_name_eq(email.trim());
    let query = ListUsersQuery {
        start_index: None,
        count: Some(10),
        filter: Some(filter.clone()),
    };
    let list: ListResponse = api
        .get_json(&format!("{}{}", paths::SCIM_USERS, query.to_query_string()))
        .await?;
    Ok(list
        .resources
        .into_iter()
        .find(|u| filter.matches(&u.user_name)))
}

/// What the page says above the form after an attempt.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Notice {
    /// A failure that belongs to no single field.
    Error(String),
    /// The earlier attempt did create the user.
    Landed(ScimUser),
    /// The earlier attempt did not create the user: sending again is safe.
    NotLanded,
    /// No answer, and the check could not run either.
    Unknown(String),
}

#[component]
pub fn NewUserPage() -> impl IntoView {
    let api = use_api();
    let navigate = use_navigate();
    let groups = LocalResource::new(move || async move { fetch_all_groups(api).await });
    let choices = Signal::derive(move || match groups.get() {
        None => TeamChoices::Loading,
        Some(Ok(list)) => TeamChoices::Ready(sorted_names(&list)),
        Some(Err(error)) => TeamChoices::Failed(error.user_message()),
    });

    let email = RwSignal::new(String::new());
    let given = RwSignal::new(String::new());
    let family = RwSignal::new(String::new());
    let role = RwSignal::new(String::new());
    let team = RwSignal::new(String::new());
    let errors = RwSignal::new(FieldErrors::new());
    let notice = RwSignal::new(None::<Notice>);
    let pending = RwSignal::new(false);
    // Set when a POST ended without a clear answer: every later submit checks first.
    let outcome_unknown = RwSignal::new(false);

    let draft = move || UserDraft {
        email: email.get_untracked(),
        given_name: given.get_untracked(),
        family_name: family.get_untracked(),
        role: role.get_untracked(),
        team: team.get_untracked(),
    };

    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        // The button is disabled too; this also stops an Enter pressed in a field.
        if pending.get_untracked() {
            return;
        }
        let draft = draft();
        let teams = match choices.get_untracked() {
            TeamChoices::Ready(names) => names,
            _ => Vec::new(),
        };
        let found = draft.validate(&teams, true);
        notice.set(None);
        if let Some((first, _)) = found.first() {
            let first = *first;
            errors.set(found);
            focus_field(first);
            return;
        }
        errors.set(FieldErrors::new());
        pending.set(true);
        let navigate = navigate.clone();
        spawn_local(async move {
            if outcome_unknown.get_untracked() {
                match find_by_email(api, &draft.email).await {
                    Ok(Some(user)) => {
                        notice.try_set(Some(Notice::Landed(user)));
                        pending.try_set(false);
                        return;
                    }
                    Ok(None) => {}
                    Err(ApiError::Cancelled) => return,
                    Err(error) => {
                        notice.try_set(Some(Notice::Unknown(error.user_message())));
                        pending.try_set(false);
                        return;
                    }
                }
            }
            let answer = api
                .post_json::<_, ScimUser>(paths::SCIM_USERS, &draft.create_body())
                .await;
            match answer {
                Ok(created) => {
                    outcome_unknown.try_set(false);
                    pending.try_set(false);
                    navigate(
                        &format!("{}?created=1", user_href(&created.body.id)),
                        NavigateOptions::default(),
                    );
                }
                Err(ApiError::Cancelled) => {}
                Err(error) if error.is_transient() => {
                    outcome_unknown.try_set(true);
                    // Ask right away, so the admin knows before deciding anything.
                    let checked = find_by_email(api, &draft.email).await;
                    notice.try_set(Some(match checked {
                        Ok(Some(user)) => Notice::Landed(user),
                        Ok(None) => Notice::NotLanded,
                        Err(_) => Notice::Unknown(error.user_message()),
                    }));
                    pending.try_set(false);
                }
                Err(error) => {
                    outcome_unknown.try_set(false);
                    match field_of_error(&error) {
                        Some((field, message)) => {
                            errors.try_set(vec![(field, message)]);
                            focus_field(field);
                        }
                        None => {
                            notice.try_set(Some(Notice::Error(error.user_message())));
                        }
                    }
                    pending.try_set(false);
                }
            }
        });
    };

    let disabled = Signal::derive(move || pending.get());

    view! {
        <section class="user-new" aria-labelledby="user-new-heading">
            <p class="breadcrumb">
                <a href=routes::USERS>"Users"</a>
            </p>
            <h1 id="user-new-heading">"Add a user"</h1>
            <p class="muted">
                "The new user gets an account on the platform, with this role, in this team."
            </p>
            {move || notice.get().map(|n| view! { <NoticeView notice=n /> })}
            <form class="form user-form" novalidate on:submit=on_submit aria-busy=move || pending.get().to_string()>
                <TextField field=Field::Email value=email errors kind="email" autocomplete="off" />
                <TextField field=Field::GivenName value=given errors autocomplete="off" />
                <TextField field=Field::FamilyName value=family errors autocomplete="off" />
                <RoleSelect value=role errors />
                <TeamSelect
                    value=team
                    errors
                    choices
                    on_retry=Callback::new(move |()| groups.refetch())
                />
                <div class="form__actions">
                    <button type="submit" class="button button--primary" disabled=disabled>
                        {move || if pending.get() { "Creating user…" } else { "Create user" }}
                    </button>
                    <a class="button" href=routes::USERS>"Cancel"</a>
                </div>
            </form>
        </section>
    }
}

#[component]
fn NoticeView(notice: Notice) -> impl IntoView {
    match notice {
        Notice::Error(message) => view! {
            <div class="notice notice--error" role="alert" data-testid="form-banner">
                <p>{message}</p>
                <p>"Your input is kept: correct it or try again."</p>
            </div>
        }
        .into_any(),
        Notice::Landed(user) => {
            let name = display_name(&user);
            view! {
                <div class="notice notice--success" role="status" data-testid="create-landed">
                    <p>
                        "The platform did not answer in time, but your first attempt did create this user: "
                        <a href=user_href(&user.id)>{format!("{name} ({})", user.user_name)}</a>
                        ". Nothing was sent again."
                    </p>
                </div>
            }
            .into_any()
        }
        Notice::NotLanded => view! {
            <div class="notice notice--warning" role="alert" data-testid="form-banner">
                <p>
                    "The platform did not answer, and it has no user with this email: the user "
                    "was not created. Your input is kept; press \u{201c}Create user\u{201d} to send it again."
                </p>
            </div>
        }
        .into_any(),
        Notice::Unknown(message) => view! {
            <div class="notice notice--warning" role="alert" data-testid="form-banner">
                <p>{message}</p>
                <p>
                    "The console could not tell whether the user was created. Press "
                    "\u{201c}Create user\u{201d} again when the platform is reachable: it checks "
                    "first and never creates the user twice."
                </p>
            </div>
        }
        .into_any(),
    }
}
