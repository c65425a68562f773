//! The signed-in user (`GET /api/v3/me`), loaded once per sign-in and shared by the header
//! and any screen.

use gifting_api::paths::endpoint;
use gifting_api::rest::CurrentUser;
use leptos::prelude::*;

use super::{ApiClient, ApiError};
use crate::auth::use_auth;

/// `GET /api/v3/me` for the signed-in user, shared by the header and any screen.
#[derive(Clone, Copy)]
pub(crate) struct CurrentUserResource(pub LocalResource<Result<CurrentUser, ApiError>>);

/// Starts the current-user request, refetched on each sign-in (not on token refreshes).
/// `api` should live as long as the app.
pub(crate) fn provide_current_user(api: ApiClient) {
    let auth = use_auth();
    let signed_in = Memo::new(move |_| auth.is_signed_in());
    let resource = LocalResource::new(move || {
        let signed_in = signed_in.get();
        async move {
            if !signed_in {
                return Err(ApiError::Unauthorized);
            }
            api.get_json::<CurrentUser>(endpoint::ME.call(&[])).await
        }
    });
    provide_context(CurrentUserResource(resource));
}

/// The signed-in user (`/api/v3/me`): who they are, role, balances. Loaded once per sign-in.
pub(crate) fn use_current_user() -> LocalResource<Result<CurrentUser, ApiError>> {
    use_context::<CurrentUserResource>()
        .expect("use_current_user() called outside the console's <App/>")
        .0
}

/// "First Last", or the email when the platform has no name.
pub(crate) fn display_name(user: &CurrentUser) -> String {
    let name = format!("{} {}", user.first_name.trim(), user.last_name.trim());
    let name = name.trim();
    if name.is_empty() {
        user.email.clone()
    } else {
        name.to_string()
    }
}
