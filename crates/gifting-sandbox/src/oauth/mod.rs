//! OAuth 2.0: the authorization page (code grant with optional PKCE), the token endpoint and
//! revocation (RFC 6749, RFC 7636, RFC 7009).

pub mod authorize;
pub mod page;
pub mod scope;
pub mod store;
pub mod token;

use axum::http::{header, HeaderValue, StatusCode};
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
        .fallback(not_found)
}

async fn stylesheet() -> Response {
    let mut res = page::STYLESHEET.into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/css; charset=utf-8"),
    );
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=3600"),
    );
    res
}

pub async fn not_found() -> Response {
    oauth_json(
        StatusCode::NOT_FOUND,
        &OAuthError::new("invalid_request", "There is no such OAuth endpoint."),
    )
}
