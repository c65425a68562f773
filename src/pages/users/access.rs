//! How the SCIM screens load and fail: SCIM answers 403 to every account that is not an
//! admin, and that deserves an explanation, not a generic "permission denied".

use leptos::either::EitherOf3;
use leptos::prelude::*;

use crate::api::ApiError;
use crate::components::page_state::LoadedProps;
use crate::components::{ErrorPanel, ErrorView, Loaded, NotFound};
use crate::i18n::{live_text, msg, M};
use crate::routes;

/// Why the signed-in account cannot manage users, and what to do about it.
#[component]
pub(crate) fn AdminNeeded(#[prop(into)] message: String) -> impl IntoView {
    let platform = (!message.trim().is_empty()).then(|| {
        view! { <p class="muted">{live_text(move || msg::users_platform_said(&message))}</p> }
    });
    view! {
        <div class="error-panel error-panel--forbidden" role="alert" data-testid="scim-forbidden">
            <h2 class="error-panel__title">{M::UsersAdminNeeded}</h2>
            <p>{M::UsersAdminNeededExplain}</p>
            <p>{M::UsersAdminNeededAsk}</p>
            {platform}
        </div>
    }
}

/// A user id the platform does not know.
#[component]
pub(crate) fn UserNotFound(#[prop(into)] message: String) -> impl IntoView {
    view! {
        <NotFound
            title=M::UsersNotFound
            message
            fallback=M::UsersNotFoundExplain
            back=(routes::USERS, M::UsersBack)
            testid="user-not-found"
            subheading=true
        />
    }
}

/// The error of a SCIM screen in words: the admin explanation for 403, "User not found" for
/// 404, the generic panel (with "Try again") otherwise.
#[component]
pub(crate) fn ScimProblem(error: ApiError, #[prop(into)] on_retry: Callback<()>) -> impl IntoView {
    match error {
        ApiError::Forbidden { message } => EitherOf3::A(view! { <AdminNeeded message /> }),
        ApiError::NotFound { message } => EitherOf3::B(view! { <UserNotFound message /> }),
        error => EitherOf3::C(view! { <ErrorPanel error on_retry /> }),
    }
}

/// As the core's `Loaded`, with SCIM's errors explained by [`ScimProblem`].
#[component]
pub(crate) fn ScimLoaded<T, V, F>(
    resource: LocalResource<Result<T, ApiError>>,
    children: F,
) -> impl IntoView
where
    T: Clone + Send + Sync + 'static,
    F: Fn(T) -> V + Send + Sync + 'static,
    V: IntoView + 'static,
{
    let on_error: ErrorView = Callback::new(|(error, on_retry): (ApiError, Callback<()>)| {
        view! { <ScimProblem error on_retry /> }.into_any()
    });
    Loaded(
        LoadedProps::builder()
            .resource(resource)
            .children(children)
            .on_error(on_error)
            .build(),
    )
}
