//! The request layer every page uses. Pages never call `gloo-net` themselves.
//!
//! ```ignore
//! let api = use_api(); // in the component body: ties the requests to this screen
//! let sends = LocalResource::new(move || async move {
//!     api.get_json::<SendPage>("/api/v3/send?page=1").await
//! });
//! ```
//!
//! What the layer does for every request: adds the bearer token (refreshed a little before it
//! expires, single-flight), refreshes once and retries once on a 401, retries reads on network
//! errors / 5xx / 429 (see [`crate::http::retry`]), aborts after 15 s, aborts when the screen that asked is
//! left, and maps every failure to an [`ApiError`] with a plain [`ApiError::user_message`].

mod app_reads;
mod client;
mod current_user;
mod error;
pub(crate) mod sends_walk;
mod status;
mod team_groups;
#[cfg(test)]
pub(crate) mod testing;

pub(crate) use crate::http::cancel::CancelScope;
pub(crate) use client::{ApiClient, Written};
pub(crate) use current_user::{
    admin_allowed, display_name, provide_current_user, use_current_user,
};
pub use error::ApiError;
pub use status::NetStatus;
pub(crate) use team_groups::{provide_team_groups, use_team_groups, TeamGroups};

use crate::auth::use_auth;
use leptos::prelude::use_context;

/// The platform client for the calling component. Call it in the component body (not inside
/// an async block): the requests it makes are aborted when this component is disposed, so
/// an answer for a screen the user left never lands on the next one.
pub(crate) fn use_api() -> ApiClient {
    api_with_scope(CancelScope::for_current_owner())
}

/// A client whose requests end only when `scope` is cancelled: for work that outlives the
/// component that starts it (the app's shared reads, an export with its own Stop button).
pub(crate) fn api_with_scope(scope: CancelScope) -> ApiClient {
    ApiClient::new(use_auth(), use_net_status(), scope)
}

/// The console-wide connection state (offline, busy).
pub(crate) fn use_net_status() -> NetStatus {
    use_context::<NetStatus>().expect("use_net_status() called outside the console's <App/>")
}
