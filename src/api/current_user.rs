//! The signed-in user (`GET /api/v3/me`), loaded once per sign-in and shared by the header
//! and any screen.

use gifting_api::enums::Role;
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
            super::app_reads::me(api).await
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

/// Whether the screens for the admin role alone are for the signed-in user, as `me` (/me)
/// tells: `None` until it answers, `false` for a sender or a manager. An admin, a role this
/// console does not know and a failed /me get `true`: the platform's 403 then explains.
pub(crate) fn admin_allowed(me: LocalResource<Result<CurrentUser, ApiError>>) -> Option<bool> {
    allowed_by(&me.get()?)
}

fn allowed_by(answer: &Result<CurrentUser, ApiError>) -> Option<bool> {
    match answer {
        Ok(user) => Some(!matches!(user.role, Role::Sender | Role::Manager)),
        // The answer from before sign-in, held while /me loads (as the header reads it).
        Err(ApiError::Unauthorized) => None,
        Err(_) => Some(true),
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn as_role(role: &str) -> Result<CurrentUser, ApiError> {
        Ok(CurrentUser {
            id: 1,
            first_name: "Ada".into(),
            last_name: "Admin".into(),
            email: "ada@example.com".into(),
            balance: "0".into(),
            team_balance: "0".into(),
            role: Role::parse(role),
        })
    }

    #[wasm_bindgen_test]
    fn only_senders_and_managers_are_kept_from_admin_screens() {
        assert_eq!(allowed_by(&as_role("admin")), Some(true));
        assert_eq!(allowed_by(&as_role("manager")), Some(false));
        assert_eq!(allowed_by(&as_role("sender")), Some(false));
        // A role the console does not know: the platform decides, and its 403 explains.
        assert_eq!(allowed_by(&as_role("auditor")), Some(true));
        assert_eq!(
            allowed_by(&Err(ApiError::Server {
                status: 500,
                message: String::new()
            })),
            Some(true)
        );
        // Before sign-in's /me answers.
        assert_eq!(allowed_by(&Err(ApiError::Unauthorized)), None);
    }
}
