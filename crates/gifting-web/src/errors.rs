//! One error type per API family, each rendering the body its clients expect: REST v3
//! `{"message"}`, SCIM RFC 7644 errors, OAuth RFC 6749 §5.2 errors.

use axum::http::{header, HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use gifting_api::oauth::OAuthError;
use gifting_api::rest::RestError;
use gifting_api::scim::{ScimError, ScimErrorType};

/// `application/scim+json`
pub const SCIM_CONTENT_TYPE: &str = "application/scim+json";

fn with_header(mut res: Response, name: HeaderName, value: &str) -> Response {
    if let Ok(v) = HeaderValue::from_str(value) {
        res.headers_mut().insert(name, v);
    }
    res
}

/// A REST v3 (and generic /api) error: `{"message": "..."}`.
#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    pub www_authenticate: Option<String>,
    pub retry_after: Option<u32>,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
            www_authenticate: None,
            retry_after: None,
        }
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, message)
    }

    pub fn invalid_token(message: impl Into<String>) -> Self {
        ApiError {
            www_authenticate: Some("Bearer error=\"invalid_token\"".into()),
            ..Self::new(StatusCode::UNAUTHORIZED, message)
        }
    }

    pub fn insufficient_scope(scope: &str) -> Self {
        ApiError {
            www_authenticate: Some(format!(
                "Bearer error=\"insufficient_scope\", scope=\"{scope}\""
            )),
            ..Self::new(
                StatusCode::FORBIDDEN,
                format!("This token lacks the `{scope}` scope this endpoint needs."),
            )
        }
    }

    pub fn retry_after(mut self, seconds: u32) -> Self {
        self.retry_after = Some(seconds);
        self
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut res = (self.status, Json(RestError::new(self.message))).into_response();
        if let Some(w) = &self.www_authenticate {
            res = with_header(res, header::WWW_AUTHENTICATE, w);
        }
        if let Some(s) = self.retry_after {
            res = with_header(res, header::RETRY_AFTER, &s.to_string());
        }
        res
    }
}

/// A SCIM error (RFC 7644 §3.12), answered as `application/scim+json`.
#[derive(Debug, Clone)]
pub struct ScimFailure {
    pub status: StatusCode,
    /// Boxed: error paths stay cheap to return through `Result`.
    pub body: Box<ScimError>,
    pub www_authenticate: Option<String>,
}

impl ScimFailure {
    pub fn new(status: StatusCode, kind: Option<ScimErrorType>, detail: impl Into<String>) -> Self {
        ScimFailure {
            status,
            body: Box::new(ScimError::new(status.as_u16(), kind, detail)),
            www_authenticate: None,
        }
    }

    pub fn invalid_value(detail: impl Into<String>) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            Some(ScimErrorType::InvalidValue),
            detail,
        )
    }

    pub fn invalid_syntax(detail: impl Into<String>) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            Some(ScimErrorType::InvalidSyntax),
            detail,
        )
    }

    pub fn not_found(id: &str) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            None,
            format!("User {id:?} not found."),
        )
    }

    pub fn forbidden(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, None, detail)
    }
}

impl IntoResponse for ScimFailure {
    fn into_response(self) -> Response {
        let mut res = (self.status, Json(*self.body)).into_response();
        res = with_header(res, header::CONTENT_TYPE, SCIM_CONTENT_TYPE);
        if let Some(w) = &self.www_authenticate {
            res = with_header(res, header::WWW_AUTHENTICATE, w);
        }
        res
    }
}

/// The realm of the sandbox, the first server to answer these errors.
const DEFAULT_REALM: &str = "gifting-sandbox";

/// An OAuth token/revocation endpoint error.
#[derive(Debug, Clone)]
pub struct OAuthFailure {
    pub status: StatusCode,
    pub body: OAuthError,
    /// The realm a failed client authentication names (`WWW-Authenticate: Basic realm=…`).
    pub realm: &'static str,
}

impl OAuthFailure {
    fn new(status: StatusCode, error: &str, description: impl Into<String>) -> Self {
        OAuthFailure {
            status,
            body: OAuthError::new(error, description),
            realm: DEFAULT_REALM,
        }
    }

    pub fn invalid_request(description: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "invalid_request", description)
    }

    pub fn invalid_grant(description: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "invalid_grant", description)
    }

    pub fn invalid_scope(description: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "invalid_scope", description)
    }

    pub fn unsupported_grant_type(description: impl Into<String>) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            description,
        )
    }

    pub fn invalid_client(description: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "invalid_client", description)
    }

    /// The sign-in service could not be reached or did not answer in time (RFC 6749's
    /// `temporarily_unavailable`, with the gateway's 502 or 504 status).
    pub fn unavailable(status: StatusCode, description: impl Into<String>) -> Self {
        Self::new(status, "temporarily_unavailable", description)
    }

    /// Names another realm in `WWW-Authenticate` (the gateway is not the sandbox).
    pub fn in_realm(mut self, realm: &'static str) -> Self {
        self.realm = realm;
        self
    }

    pub fn too_large(limit: usize) -> Self {
        Self::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "invalid_request",
            format!("The request body is larger than {limit} bytes."),
        )
    }
}

impl IntoResponse for OAuthFailure {
    fn into_response(self) -> Response {
        let unauthorized = self.status == StatusCode::UNAUTHORIZED;
        let res = oauth_json(self.status, &self.body);
        if unauthorized {
            // RFC 6749 §5.2: a failed client authentication names the scheme to use.
            with_header(
                res,
                header::WWW_AUTHENTICATE,
                &format!("Basic realm=\"{}\"", self.realm),
            )
        } else {
            res
        }
    }
}

/// The token endpoint's JSON: exactly the seed's content type and no caching anywhere.
pub fn oauth_json<T: serde::Serialize>(status: StatusCode, body: &T) -> Response {
    let mut res = (status, Json(body)).into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json;charset=UTF-8"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(header::PRAGMA, HeaderValue::from_static("no-cache"));
    res
}
