//! Test-only inspection routes (`--test-hooks`): counters, and deleting a user outright so a
//! test can make a SCIM PUT fail with 404 in the middle of a bulk change.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};

use crate::errors::ApiError;
use crate::extract::RestPath;
use crate::state::Shared;

pub fn router() -> Router<Shared> {
    Router::new()
        .route("/stats", get(stats))
        .route("/users/{id}/delete", post(delete_user))
        .fallback(not_found)
}

pub async fn not_found() -> ApiError {
    ApiError::not_found("No such test hook.")
}

async fn stats(State(app): State<Shared>) -> Response {
    Json(app.stats.snapshot()).into_response()
}

async fn delete_user(
    State(app): State<Shared>,
    RestPath(id): RestPath,
) -> Result<Response, ApiError> {
    let id: u64 = id
        .parse()
        .map_err(|_| ApiError::bad_request("The user id must be an integer."))?;
    let mut world = app.write();
    if world.db.users.remove(&id).is_none() {
        return Err(ApiError::not_found("User not found"));
    }
    world.oauth.revoke_user(id);
    Ok(StatusCode::NO_CONTENT.into_response())
}
