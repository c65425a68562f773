//! Test-only inspection routes (`--test-hooks`): counters, and deleting a user outright so a
//! test can make a SCIM PUT fail with 404 in the middle of a bulk change.
//!
//! Every call needs the header `X-Sandbox-Test: 1`. A cross-site form cannot send a header,
//! and a cross-origin script would need a CORS preflight the sandbox never grants for it, so a
//! page elsewhere cannot delete users through a developer's running sandbox.

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::{from_fn, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};

use crate::errors::ApiError;
use crate::extract::RestPath;
use crate::state::Shared;

/// The header every test hook needs, with the value `1`.
pub const TEST_HEADER: &str = "x-sandbox-test";

pub fn router() -> Router<Shared> {
    Router::new()
        .route("/stats", get(stats))
        .route("/users/{id}/delete", post(delete_user))
        .fallback(not_found)
        .layer(from_fn(require_test_header))
}

async fn require_test_header(req: Request, next: Next) -> Response {
    if req.headers().get(TEST_HEADER).is_some_and(|v| v == "1") {
        next.run(req).await
    } else {
        ApiError::new(
            StatusCode::FORBIDDEN,
            "Test hooks need the header X-Sandbox-Test: 1.",
        )
        .into_response()
    }
}

pub async fn not_found() -> ApiError {
    ApiError::not_found("No such test hook.")
}

/// The counters, and how many grants are live (a sign-out that ends its grant lowers it).
async fn stats(State(app): State<Shared>) -> Response {
    let mut body = serde_json::to_value(app.stats.snapshot()).unwrap_or_default();
    if let Some(map) = body.as_object_mut() {
        map.insert("live_grants".into(), app.read().oauth.live_grants().into());
    }
    Json(body).into_response()
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
