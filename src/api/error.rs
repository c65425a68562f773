//! Every way a platform request can fail, in the words a page shows.

use std::fmt;

use gifting_api::paths::CallProblem;
use gifting_api::rest::RestError;
use gifting_api::scim::ScimError;

use crate::auth::AuthError;
use crate::http::retry::Outcome;
use crate::i18n::{msg, t, M};

/// A failed platform request. Pages match on it to decide what to offer (e.g. `Scim` with
/// `scim_type == "uniqueness"` on a form) and show [`ApiError::user_message`] otherwise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApiError {
    /// The browser is offline (`navigator.onLine` is false).
    Offline,
    /// No answer: connection refused or dropped, DNS, CORS.
    Network,
    /// No answer within the request timeout.
    Timeout,
    /// The session is over (missing, expired and not refreshable, or revoked). The console
    /// has already cleared it and shows the sign-in screen.
    Unauthorized,
    /// 403: the signed-in user or the session's scope may not do this.
    Forbidden { message: String },
    /// 404 with the platform's sentence (e.g. "Touch not found").
    NotFound { message: String },
    /// 429 or 503 after the retries: `retry_after` seconds if the platform said.
    Busy { retry_after: Option<u64> },
    /// Any other 5xx.
    Server { status: u16, message: String },
    /// A SCIM error body (RFC 7644 §3.12), e.g. 409 `uniqueness`, 400 `invalidValue`.
    Scim {
        status: u16,
        scim_type: Option<String>,
        detail: String,
    },
    /// Any other 4xx, with the REST `message`.
    Rest { status: u16, message: String },
    /// A 2xx body that does not match what the console expects.
    Decode { endpoint: String, detail: String },
    /// The screen that asked was left; nothing to show.
    Cancelled,
    /// A request the console built wrong (an id missing or blank): refused before anything was
    /// sent, since `/api/scim/v2/Users/` asks the platform something else.
    Unsendable(CallProblem),
}

impl ApiError {
    /// One or two plain sentences for the user.
    pub fn user_message(&self) -> String {
        match self {
            ApiError::Offline => t(M::ApiOffline).into(),
            ApiError::Network => t(M::ApiNetwork).into(),
            ApiError::Timeout => t(M::ApiTimeout).into(),
            ApiError::Unauthorized => t(M::ApiUnauthorized).into(),
            ApiError::Forbidden { message } => with_platform_words(t(M::ApiForbidden), message),
            ApiError::NotFound { message } => with_platform_words(t(M::ApiNotFound), message),
            ApiError::Busy {
                retry_after: Some(seconds),
            } => msg::api_busy_for(&seconds.to_string()),
            ApiError::Busy { retry_after: None } => t(M::ApiBusy).into(),
            ApiError::Server { status, message } if message.trim().is_empty() => {
                msg::api_server(&status.to_string())
            }
            ApiError::Server { status, message } => {
                msg::api_server_said(&status.to_string(), message.trim().trim_end_matches('.'))
            }
            ApiError::Scim { detail, .. } => with_platform_words(t(M::ApiScimRefused), detail),
            ApiError::Rest { message, .. } => with_platform_words(t(M::ApiRestRefused), message),
            ApiError::Decode { endpoint, .. } => msg::api_decode(endpoint),
            ApiError::Cancelled => t(M::ApiCancelled).into(),
            ApiError::Unsendable(CallProblem::MissingParameter { name, of }) => {
                let what = if name.ends_with("id") { "id" } else { name };
                msg::api_missing_parameter(what, of)
            }
            ApiError::Unsendable(problem) => msg::api_unsendable(&problem.to_string()),
        }
    }

    /// Whether the same request may work if simply repeated ("Try again" is worth offering).
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            ApiError::Offline
                | ApiError::Network
                | ApiError::Timeout
                | ApiError::Busy { .. }
                | ApiError::Server { .. }
        )
    }

    /// What the try ended with, as the request policy ([`crate::http::retry`]) sees it; `None`
    /// when nothing was sent or the answer is final whatever the policy (cancelled, built
    /// wrong, unreadable).
    pub fn outcome(&self) -> Option<Outcome> {
        match self {
            ApiError::Offline | ApiError::Network => Some(Outcome::Network),
            ApiError::Timeout => Some(Outcome::Timeout),
            ApiError::Busy { .. } => Some(Outcome::Status(429)),
            ApiError::Cancelled | ApiError::Unsendable(_) | ApiError::Decode { .. } => None,
            other => other.status().map(Outcome::Status),
        }
    }

    /// The HTTP status, when there was an answer.
    pub fn status(&self) -> Option<u16> {
        match self {
            ApiError::Unauthorized => Some(401),
            ApiError::Forbidden { .. } => Some(403),
            ApiError::NotFound { .. } => Some(404),
            ApiError::Server { status, .. }
            | ApiError::Scim { status, .. }
            | ApiError::Rest { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// Builds the error for a non-2xx answer (not 401, which the client handles itself).
    /// `retry_after_ms` is the parsed `Retry-After`, if any.
    pub fn from_response(status: u16, body: &str, retry_after_ms: Option<u64>) -> ApiError {
        let scim = serde_json::from_str::<ScimError>(body)
            .ok()
            .filter(|e| e.schemas.iter().any(|s| s.ends_with(":Error")));
        let message = scim
            .as_ref()
            .map(|e| e.detail.clone())
            .or_else(|| {
                serde_json::from_str::<RestError>(body)
                    .ok()
                    .map(|e| e.message)
            })
            .unwrap_or_default();
        match status {
            401 => ApiError::Unauthorized,
            403 => ApiError::Forbidden { message },
            404 => ApiError::NotFound { message },
            429 | 503 => ApiError::Busy {
                retry_after: retry_after_ms.map(|ms| ms.div_ceil(1000)),
            },
            500..=599 => ApiError::Server { status, message },
            _ => match scim {
                Some(e) => ApiError::Scim {
                    status,
                    scim_type: e.scim_type,
                    detail: e.detail,
                },
                None => ApiError::Rest { status, message },
            },
        }
    }
}

/// "Generic sentence. Platform's sentence." when the platform said something.
fn with_platform_words(generic: &str, platform: &str) -> String {
    let platform = platform.trim();
    if platform.is_empty() {
        generic.to_string()
    } else if platform.ends_with(['.', '!', '?']) {
        format!("{generic} {platform}")
    } else {
        format!("{generic} {platform}.")
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.user_message())
    }
}

impl std::error::Error for ApiError {}

impl From<AuthError> for ApiError {
    fn from(e: AuthError) -> Self {
        match e {
            AuthError::SignedOut => ApiError::Unauthorized,
            AuthError::Unavailable => ApiError::Network,
            AuthError::Cancelled => ApiError::Cancelled,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn bodies_map_to_their_family() {
        let scim = r#"{"schemas":["urn:ietf:params:scim:api:messages:2.0:Error"],"status":"409",
                       "scimType":"uniqueness","detail":"userName is taken"}"#;
        assert_eq!(
            ApiError::from_response(409, scim, None),
            ApiError::Scim {
                status: 409,
                scim_type: Some("uniqueness".into()),
                detail: "userName is taken".into()
            }
        );
        assert_eq!(
            ApiError::from_response(404, r#"{"message":"Touch not found"}"#, None),
            ApiError::NotFound {
                message: "Touch not found".into()
            }
        );
        assert_eq!(
            ApiError::from_response(400, r#"{"message":"per_page must be an integer"}"#, None),
            ApiError::Rest {
                status: 400,
                message: "per_page must be an integer".into()
            }
        );
        assert_eq!(
            ApiError::from_response(429, "", Some(1_500)),
            ApiError::Busy {
                retry_after: Some(2)
            }
        );
        assert_eq!(
            ApiError::from_response(502, "<html>", None),
            ApiError::Server {
                status: 502,
                message: String::new()
            }
        );
    }

    #[wasm_bindgen_test]
    fn messages_are_plain_and_name_the_endpoint() {
        let decode = ApiError::Decode {
            endpoint: "GET /api/v3/send".into(),
            detail: "missing field `sends`".into(),
        };
        assert_eq!(
            decode.user_message(),
            "The platform sent data the console could not read (GET /api/v3/send)."
        );
        assert_eq!(
            ApiError::NotFound {
                message: "Touch not found".into()
            }
            .user_message(),
            "This was not found. Touch not found."
        );
        let missing = ApiError::Unsendable(CallProblem::MissingParameter {
            name: "touch_id",
            of: "campaign",
        });
        assert_eq!(
            missing.user_message(),
            "This request is missing the id of the campaign, so it was not sent."
        );
        assert!(!missing.is_transient() && missing.status().is_none());
        assert!(ApiError::Busy { retry_after: None }.is_transient());
        assert!(!ApiError::Forbidden {
            message: String::new()
        }
        .is_transient());
    }
}
