//! `/users/new`: provisions one user with a SCIM POST.
//!
//! A create is not idempotent, and the request layer never repeats it. When the POST gets no
//! clear answer (no connection, timeout, a 5xx), the platform may or may not have created the
//! user; before anything is sent again the form asks the platform, by the `userName eq`
//! filter, whether that attempt landed, and says so instead of running into a 409.

use gifting_api::paths::endpoint;
use gifting_api::scim::{ListResponse, ListUsersQuery, ScimUser, UserFilter};
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;

use super::directory;
use super::fields::TextField;
use super::form::{Field, UserDraft};
use super::present::{display_name, user_href};
use super::user_form::{UserFields, UserForm};
use crate::api::{use_api, ApiClient, ApiError};
use crate::components::{use_notifications, Notice, Notifications, Tone};
use crate::components::{FailedNotice, LeaveGuard, ScreenHeading};
use crate::i18n::{live_text, msg, t, M};
use crate::routes;

/// Asks the platform whether a user with this email exists (the check before a resend).
pub(crate) async fn find_by_email(
    api: ApiClient,
    email: &str,
) -> Result<Option<ScimUser>, ApiError> {
    let filter = UserFilter::user_name_eq(email.trim());
    let query = ListUsersQuery {
        start_index: None,
        count: Some(10),
        filter: Some(filter.clone()),
    };
    let list: ListResponse = api
        .get_json(
            endpoint::LIST_SCIM_USERS
                .call(&[])
                .query(&query.to_query_string()),
        )
        .await?;
    Ok(list
        .resources
        .into_iter()
        .find(|u| filter.matches(&u.user_name)))
}

/// What the page says above the form after an attempt.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Banner {
    /// A failure that belongs to no single field.
    Error(String),
    /// The earlier attempt did create the user.
    Landed(ScimUser),
    /// The earlier attempt did not create the user: sending again is safe.
    NotLanded,
    /// No answer, and the check could not run either.
    Unknown(String),
}

/// The create page's state: the form, what it says above it, and whether the last POST
/// ended without a clear answer.
#[derive(Clone, Copy)]
struct NewUser {
    api: ApiClient,
    form: UserForm,
    notice: RwSignal<Option<Banner>>,
    /// Set when a POST ended without a clear answer: every later submit checks first.
    outcome_unknown: RwSignal<bool>,
    /// "User created" outlives this screen: the user's page opens right after.
    notifications: Notifications,
}

impl NewUser {
    /// Checks the form, then creates the user (after asking whether an unanswered attempt
    /// already did) and opens their page.
    fn submit(self, navigate: impl Fn(&str, NavigateOptions) + 'static) {
        // The button is disabled too; this also stops an Enter pressed in a field.
        if self.form.pending.get_untracked() {
            return;
        }
        self.notice.set(None);
        let Some(draft) = self.form.checked(true, None) else {
            return;
        };
        self.form.pending.set(true);
        spawn_local(async move {
            let landed = if self.outcome_unknown.get_untracked() {
                self.check_landed(&draft.email).await
            } else {
                Ok(false)
            };
            match landed {
                Ok(false) => self.create(&draft, navigate).await,
                Ok(true) | Err(ApiError::Cancelled) => {}
                Err(error) => {
                    self.notice
                        .try_set(Some(Banner::Unknown(error.user_message())));
                }
            }
            self.form.pending.try_set(false);
        });
    }

    /// Whether the unanswered attempt created the user (then says so).
    async fn check_landed(self, email: &str) -> Result<bool, ApiError> {
        let found = find_by_email(self.api, email).await?;
        let landed = found.is_some();
        if let Some(user) = found {
            self.notice.try_set(Some(Banner::Landed(user)));
        }
        Ok(landed)
    }

    async fn create(self, draft: &UserDraft, navigate: impl Fn(&str, NavigateOptions)) {
        let answer = self
            .api
            .write_json::<_, ScimUser>(endpoint::CREATE_SCIM_USER.call(&[]), &draft.create_body())
            .await;
        match answer {
            Ok(created) => {
                directory::keep(&created.body);
                self.outcome_unknown.try_set(false);
                self.form.pending.try_set(false);
                self.notifications
                    .push(Tone::Success, msg::users_created(&created.body.user_name));
                navigate(&user_href(&created.body.id), NavigateOptions::default());
            }
            Err(ApiError::Cancelled) => {}
            Err(error) if error.is_transient() => {
                self.outcome_unknown.try_set(true);
                // Ask right away, so the admin knows before deciding anything.
                let checked = find_by_email(self.api, &draft.email).await;
                self.notice.try_set(Some(match checked {
                    Ok(Some(user)) => Banner::Landed(user),
                    Ok(None) => Banner::NotLanded,
                    Err(_) => Banner::Unknown(error.user_message()),
                }));
            }
            Err(error) => {
                self.outcome_unknown.try_set(false);
                if !self.form.show_refusal(&error) {
                    self.notice
                        .try_set(Some(Banner::Error(error.user_message())));
                }
            }
        }
    }
}

#[component]
pub(crate) fn NewUserPage() -> impl IntoView {
    let navigate = use_navigate();
    let page = NewUser {
        api: use_api(),
        form: UserForm::new(UserDraft::default()),
        notice: RwSignal::new(None),
        outcome_unknown: RwSignal::new(false),
        notifications: use_notifications(),
    };
    let form = page.form;
    let unsaved = Signal::derive(move || form.draft() != UserDraft::default());
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        page.submit(navigate.clone());
    };
    let pending = form.pending;

    view! {
        <section class="user-new" aria-labelledby="user-new-heading">
            <LeaveGuard dirty=unsaved />
            <ScreenHeading
                back=(routes::USERS, M::UsersTitle) title=M::UsersNewTitle id="user-new-heading"
                intro=M::UsersNewIntro
            />
            {move || page.notice.get().map(|n| view! { <NoticeView notice=n /> })}
            <form class="form user-form" novalidate on:submit=on_submit aria-busy=move || pending.get().to_string()>
                <TextField field=Field::Email value=form.email errors=form.errors kind="email" autocomplete="off" />
                <UserFields form />
                <div class="form__actions">
                    <button type="submit" class="button button--primary" disabled=form.disabled()>
                        {live_text(move || t(if pending.get() { M::UsersCreating } else { M::UsersCreate }))}
                    </button>
                    <a class="button" href=routes::USERS>{M::CommonCancel}</a>
                </div>
            </form>
        </section>
    }
}

/// Stands for the link in a sentence that holds one: the sentence is split around it.
const LINK: &str = "\u{e000}";

#[component]
fn NoticeView(notice: Banner) -> impl IntoView {
    match notice {
        Banner::Error(message) => view! {
            <FailedNotice message kept=M::UsersInputKept testid="form-banner" />
        }
        .into_any(),
        Banner::Landed(user) => {
            let who = format!("{} ({})", display_name(&user), user.user_name);
            // The sentence around the link, split where the link goes.
            let around = Memo::new(move |_| {
                let text = msg::users_create_landed(LINK);
                let (before, after) = text.split_once(LINK).unwrap_or((text.as_str(), ""));
                (before.to_owned(), after.to_owned())
            });
            view! {
                <Notice tone=Tone::Success testid="create-landed">
                    <p>
                        {live_text(move || around.with(|a| a.0.clone()))}
                        <a href=user_href(&user.id) translate="no">{who}</a>
                        {live_text(move || around.with(|a| a.1.clone()))}
                    </p>
                </Notice>
            }
            .into_any()
        }
        Banner::NotLanded => view! {
            <Notice tone=Tone::Warning alert=true testid="form-banner">
                <p>{M::UsersCreateNotLanded}</p>
            </Notice>
        }
        .into_any(),
        Banner::Unknown(message) => view! {
            <Notice tone=Tone::Warning alert=true testid="form-banner">
                <p>{message}</p>
                <p>{M::UsersCreateUnknown}</p>
            </Notice>
        }
        .into_any(),
    }
}
