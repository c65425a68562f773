//! Request extractors that answer bad input with the error body of their family. axum's own
//! rejections are plain text, which no client of this API could parse.

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Path, Request};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, StatusCode};
use serde::de::DeserializeOwned;

use crate::errors::{ApiError, OAuthFailure, ScimFailure};
use crate::state::Shared;

/// Whether a `Content-Type` names JSON (`application/json`, `application/scim+json`, any
/// `+json`), ignoring parameters such as `charset`.
pub fn is_json(headers: &HeaderMap) -> bool {
    content_type(headers).is_some_and(|ct| ct == "application/json" || ct.ends_with("+json"))
}

fn content_type(headers: &HeaderMap) -> Option<String> {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(';')
                .next()
                .unwrap_or_default()
                .trim()
                .to_ascii_lowercase()
        })
}

/// Reads the body within the size cap. `Err(true)` means "too large".
async fn body_bytes(req: Request, state: &Shared) -> Result<Bytes, bool> {
    Bytes::from_request(req, state)
        .await
        .map_err(|rejection| rejection.status() == StatusCode::PAYLOAD_TOO_LARGE)
}

/// A SCIM JSON body (`application/scim+json` or `application/json`).
pub struct ScimJson<T>(pub T);

impl<T: DeserializeOwned> FromRequest<Shared> for ScimJson<T> {
    type Rejection = ScimFailure;

    async fn from_request(req: Request, state: &Shared) -> Result<Self, Self::Rejection> {
        if let Some(ct) = content_type(req.headers()) {
            if !is_json(req.headers()) {
                return Err(ScimFailure::new(
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    Some(gifting_api::scim::ScimErrorType::InvalidSyntax),
                    format!("Content-Type {ct:?} is not supported: send application/scim+json or application/json."),
                ));
            }
        }
        let limit = state.config.body_limit;
        let bytes = body_bytes(req, state).await.map_err(|too_large| {
            if too_large {
                ScimFailure::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    None,
                    format!("The request body is larger than {limit} bytes."),
                )
            } else {
                ScimFailure::invalid_syntax("The request body could not be read.")
            }
        })?;
        serde_json::from_slice(&bytes)
            .map(ScimJson)
            .map_err(|e| match e.classify() {
                serde_json::error::Category::Data => {
                    ScimFailure::invalid_value(format!("The request body is not a valid user: {e}"))
                }
                _ => {
                    ScimFailure::invalid_syntax(format!("The request body is not valid JSON: {e}"))
                }
            })
    }
}

/// The token endpoint's body: `application/x-www-form-urlencoded` (RFC 6749) or JSON.
pub struct OAuthBody<T>(pub T);

impl<T: DeserializeOwned> FromRequest<Shared> for OAuthBody<T> {
    type Rejection = OAuthFailure;

    async fn from_request(req: Request, state: &Shared) -> Result<Self, Self::Rejection> {
        let json = is_json(req.headers());
        let limit = state.config.body_limit;
        let bytes = body_bytes(req, state).await.map_err(|too_large| {
            if too_large {
                OAuthFailure::too_large(limit)
            } else {
                OAuthFailure::invalid_request("The request body could not be read.")
            }
        })?;
        // An empty body is an empty form whatever the Content-Type (revocation by query).
        let parsed = if json && !bytes.is_empty() {
            serde_json::from_slice(&bytes).map_err(|e| e.to_string())
        } else {
            serde_urlencoded::from_bytes(&bytes).map_err(|e| e.to_string())
        };
        parsed
            .map(OAuthBody)
            .map_err(|e| OAuthFailure::invalid_request(format!("Malformed request: {e}.")))
    }
}

/// A form body as ordered pairs, for the consent page. Errors become the status to answer.
pub struct FormPairs(pub Vec<(String, String)>);

impl FromRequest<Shared> for FormPairs {
    type Rejection = StatusCode;

    async fn from_request(req: Request, state: &Shared) -> Result<Self, Self::Rejection> {
        let bytes = body_bytes(req, state).await.map_err(|too_large| {
            if too_large {
                StatusCode::PAYLOAD_TOO_LARGE
            } else {
                StatusCode::BAD_REQUEST
            }
        })?;
        serde_urlencoded::from_bytes(&bytes)
            .map(FormPairs)
            .map_err(|_| StatusCode::BAD_REQUEST)
    }
}

/// A one-segment path extractor `$name` that answers a segment that is not UTF-8 text with
/// `$refusal`, the error body of the route's family.
macro_rules! segment_extractor {
    ($(#[$doc:meta])* $name:ident, $rejection:ty, $refusal:expr) => {
        $(#[$doc])*
        pub struct $name(pub String);

        impl<S: Send + Sync> FromRequestParts<S> for $name {
            type Rejection = $rejection;

            async fn from_request_parts(
                parts: &mut Parts,
                state: &S,
            ) -> Result<Self, Self::Rejection> {
                Path::<String>::from_request_parts(parts, state)
                    .await
                    .map(|Path(p)| $name(p))
                    .map_err(|_| $refusal)
            }
        }
    };
}

segment_extractor!(
    /// One path segment of a REST v3 route.
    RestPath,
    ApiError,
    ApiError::bad_request("The path is not valid UTF-8 text.")
);

segment_extractor!(
    /// The user id segment of a SCIM route.
    ScimPath,
    ScimFailure,
    ScimFailure::invalid_value("The user id is not valid UTF-8 text.")
);
