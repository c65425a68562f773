//! Test-only inspection routes (`--test-hooks`): counters, ending access tokens now (so a test
//! of expiry and refresh need not wait out a token's lifetime), starting the rate limit's
//! window afresh or using it up (so a test need not wait for the next window, nor flood the
//! sandbox to use it up), and deleting a user outright so a test can make a SCIM PUT fail with
//! 404 in the middle of a bulk change.
//!
//! Every call needs the header `X-Sandbox-Test: 1`. A cross-site form cannot send a header,
//! and a cross-origin script would need a CORS preflight the sandbox never grants for it, so a
//! page elsewhere cannot delete users through a developer's running sandbox.

use axum::body::Bytes;
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
        .route("/tokens/expire", post(expire_tokens))
        .route("/rate-limit/reset", post(reset_rate_limit))
        .route("/rate-limit/exhaust", post(exhaust_rate_limit))
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

/// `POST /__sandbox/tokens/expire`: access tokens end now, as if their lifetime had run out
/// (refresh tokens live on, so the console's next call gets 401 and refreshes). With the body
/// `{"token": "<access token>"}` only that one ends (404 when it is not live); with no body,
/// every live one. Answers `{"expired": n}`.
async fn expire_tokens(State(app): State<Shared>, body: Bytes) -> Result<Response, ApiError> {
    #[derive(serde::Deserialize)]
    struct Only {
        token: String,
    }
    let only = if body.iter().all(u8::is_ascii_whitespace) {
        None
    } else {
        let only: Only = serde_json::from_slice(&body).map_err(|_| {
            ApiError::bad_request(r#"The body must be empty or {"token": "<access token>"}."#)
        })?;
        Some(only.token)
    };
    let expired = app.write().oauth.expire_access(only.as_deref());
    if only.is_some() && expired == 0 {
        return Err(ApiError::not_found("No live access token matches."));
    }
    Ok(Json(serde_json::json!({ "expired": expired })).into_response())
}

/// `POST /__sandbox/rate-limit/reset`: every token has its whole `--rate-limit` allowance
/// again, now (as the next window would give it), and an exhaustion ends.
async fn reset_rate_limit(State(app): State<Shared>) -> StatusCode {
    app.limiter().reset();
    StatusCode::NO_CONTENT
}

/// `POST /__sandbox/rate-limit/exhaust`: every /api request is refused with 429, as over the
/// `--rate-limit`, until `/rate-limit/reset`: what someone else on the same token taking each
/// window's allowance first looks like. 409 when the sandbox runs without a rate limit.
async fn exhaust_rate_limit(State(app): State<Shared>) -> Result<StatusCode, ApiError> {
    if app.config.rate_limit == 0 {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "The sandbox runs without --rate-limit: there is no allowance to use up.",
        ));
    }
    app.limiter().exhaust();
    Ok(StatusCode::NO_CONTENT)
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

#[cfg(test)]
mod tests {
    use axum::body::Body;
    use axum::http::{header, Request, StatusCode};
    use tower::ServiceExt as _;

    use crate::state::AppState;
    use crate::stores::oauth::ClientAuth;
    use crate::stores::scope::Scopes;
    use crate::Config;

    const CB: &str = "http://127.0.0.1:0/auth/callback";

    /// The sandbox with its hooks (and `--rate-limit rate_limit`), and the access token of an
    /// admin's fresh sign-in.
    fn signed_in_with(rate_limit: u32) -> (axum::Router, String) {
        let state = AppState::new(
            Config {
                test_hooks: true,
                rate_limit,
                ..Config::default()
            },
            0,
        );
        let admin = state
            .read()
            .db
            .user_by_email("admin@example.com")
            .expect("admin")
            .id;
        let token = {
            let oauth = &mut state.write().oauth;
            let code = oauth.issue_code(crate::CLIENT_ID, CB, admin, Scopes::ALL, None);
            oauth
                .exchange_code(&code, crate::CLIENT_ID, CB, None, ClientAuth::Secret)
                .expect("tokens")
                .access_token
        };
        (crate::app(state), token)
    }

    fn signed_in() -> (axum::Router, String) {
        signed_in_with(0)
    }

    async fn status(app: &axum::Router, req: Request<Body>) -> StatusCode {
        app.clone().oneshot(req).await.expect("infallible").status()
    }

    fn me(token: &str) -> Request<Body> {
        Request::get("/api/v3/me")
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .body(Body::empty())
            .expect("request")
    }

    fn hook(path: &str) -> Request<Body> {
        Request::post(path)
            .header(super::TEST_HEADER, "1")
            .body(Body::empty())
            .expect("request")
    }

    fn expire(test_header: bool, body: &str) -> Request<Body> {
        let req = Request::post("/__sandbox/tokens/expire");
        let req = if test_header {
            req.header(super::TEST_HEADER, "1")
        } else {
            req
        };
        req.body(Body::from(body.to_owned())).expect("request")
    }

    #[tokio::test]
    async fn expire_ends_access_tokens_now() {
        let (app, token) = signed_in();
        assert_eq!(status(&app, me(&token)).await, StatusCode::OK);
        // Without the test header nothing ends.
        assert_eq!(status(&app, expire(false, "")).await, StatusCode::FORBIDDEN);
        assert_eq!(status(&app, me(&token)).await, StatusCode::OK);
        assert_eq!(status(&app, expire(true, "")).await, StatusCode::OK);
        assert_eq!(status(&app, me(&token)).await, StatusCode::UNAUTHORIZED);
    }

    #[tokio::test]
    async fn expire_ends_only_the_token_named() {
        let (app, token) = signed_in();
        let other = r#"{"token": "not-a-live-token"}"#;
        assert_eq!(
            status(&app, expire(true, other)).await,
            StatusCode::NOT_FOUND
        );
        assert_eq!(status(&app, me(&token)).await, StatusCode::OK);
        assert_eq!(
            status(&app, expire(true, "not json")).await,
            StatusCode::BAD_REQUEST
        );
        let named = format!(r#"{{"token": "{token}"}}"#);
        let res = app
            .clone()
            .oneshot(expire(true, &named))
            .await
            .expect("infallible");
        assert_eq!(res.status(), StatusCode::OK);
        let body = axum::body::to_bytes(res.into_body(), 1024)
            .await
            .expect("body");
        assert_eq!(body.as_ref(), br#"{"expired":1}"#);
        assert_eq!(status(&app, me(&token)).await, StatusCode::UNAUTHORIZED);
    }

    #[tokio::test]
    async fn rate_limit_reset_and_exhaust() {
        let (app, token) = signed_in_with(2);
        assert_eq!(status(&app, me(&token)).await, StatusCode::OK);
        assert_eq!(status(&app, me(&token)).await, StatusCode::OK);
        assert_eq!(
            status(&app, me(&token)).await,
            StatusCode::TOO_MANY_REQUESTS
        );
        let reset = "/__sandbox/rate-limit/reset";
        assert_eq!(status(&app, hook(reset)).await, StatusCode::NO_CONTENT);
        assert_eq!(
            status(&app, me(&token)).await,
            StatusCode::OK,
            "a fresh allowance"
        );
        let exhaust = "/__sandbox/rate-limit/exhaust";
        assert_eq!(status(&app, hook(exhaust)).await, StatusCode::NO_CONTENT);
        let refused = app.clone().oneshot(me(&token)).await.expect("infallible");
        assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(refused.headers()[header::RETRY_AFTER], "1");
        assert_eq!(
            status(&app, me(&token)).await,
            StatusCode::TOO_MANY_REQUESTS
        );
        assert_eq!(status(&app, hook(reset)).await, StatusCode::NO_CONTENT);
        assert_eq!(status(&app, me(&token)).await, StatusCode::OK);

        let (unlimited, _) = signed_in();
        assert_eq!(
            status(&unlimited, hook(exhaust)).await,
            StatusCode::CONFLICT
        );
    }
}
