//! OAuth 2.0: the authorization page (code grant with optional PKCE), the token endpoint and
//! revocation (RFC 6749, RFC 7636, RFC 7009).

pub mod authorize;
pub mod page;
pub mod token;

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use gifting_api::oauth::OAuthError;

use crate::errors::oauth_json;
use crate::state::Shared;

pub fn router() -> Router<Shared> {
    Router::new()
        .route("/authorize", get(authorize::show).post(authorize::decide))
        .route("/token", post(token::token))
        .route("/revoke", post(token::revoke))
        .route("/consent.css", get(stylesheet))
        .route("/icon.svg", get(icon))
        .fallback(not_found)
}

/// A file of the sign-in page, cached for an hour.
fn page_asset(body: &'static str, content_type: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        body,
    )
        .into_response()
}

async fn stylesheet() -> Response {
    page_asset(page::STYLESHEET, "text/css; charset=utf-8")
}

async fn icon() -> Response {
    page_asset(page::ICON, "image/svg+xml")
}

pub async fn not_found() -> Response {
    oauth_json(
        StatusCode::NOT_FOUND,
        &OAuthError::new("invalid_request", "There is no such OAuth endpoint."),
    )
}
