//! The OAuth endpoints over HTTP: code exchange, refresh, revocation.
//!
//! These requests never run in a screen's cancel scope: a refresh or exchange abandoned halfway
//! would leave the platform holding a spent code or refresh token the console never learned
//! the successor of. For the same reason they wait [`TOKEN_REQUEST_TIMEOUT_MS`] (25 s), longer
//! than the gateway waits for the platform (at most 24 s), so the gateway always answers first.

use gifting_api::oauth::{
    basic_auth_header, revocation_form, OAuthError, TokenRequest, TokenResponse,
    TOKEN_REQUEST_TIMEOUT_MS,
};
use gifting_api::paths;
use gloo_net::http::Method;

use super::refresh::RefreshError;
use crate::config::Config;
use crate::http::cancel::CancelScope;
use crate::http::transport::{send_once, Outgoing, SendError};
use crate::i18n::{msg, t, M};

/// Why the token endpoint gave no token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenFailure {
    /// RFC 6749 §5.2 error from the authorization server.
    Refused(OAuthError),
    /// No answer.
    Unreachable,
    /// An answer that is neither a token nor an OAuth error (e.g. a 502 page).
    Unexpected { status: u16 },
}

impl TokenFailure {
    /// A sentence for the sign-in screen.
    pub fn user_message(&self) -> String {
        match self {
            TokenFailure::Refused(e) => {
                let what = t(match e.error.as_str() {
                    "invalid_grant" => M::AuthCodeRefused,
                    "invalid_client" => M::AuthClientRefused,
                    _ => M::AuthRefused,
                });
                match e
                    .error_description
                    .as_deref()
                    .map(str::trim)
                    .filter(|d| !d.is_empty())
                {
                    Some(d) => msg::auth_failed_said(what, d),
                    None => msg::auth_failed_code(what, &e.error),
                }
            }
            TokenFailure::Unreachable => t(M::AuthUnreachable).into(),
            TokenFailure::Unexpected { status } => msg::auth_unexpected(&status.to_string()),
        }
    }
}

async fn post_token(
    config: &Config,
    request: &TokenRequest,
) -> Result<TokenResponse, TokenFailure> {
    let url = config.auth_endpoint(paths::OAUTH_TOKEN);
    let outgoing = Outgoing {
        method: Method::POST,
        url: &url,
        headers: vec![
            ("Content-Type", "application/x-www-form-urlencoded".into()),
            ("Accept", "application/json".into()),
        ],
        body: Some(request.to_form()),
    };
    let response = send_once(outgoing, &CancelScope::new(), TOKEN_REQUEST_TIMEOUT_MS)
        .await
        .map_err(|e| match e {
            SendError::Network | SendError::Timeout | SendError::Cancelled => {
                TokenFailure::Unreachable
            }
        })?;
    read_token_answer(response.status, &response.body)
}

/// What the token endpoint's answer means: a token, a refusal (the grant is gone or the
/// client not accepted: only a new sign-in helps), or anything else (try again later). A 429
/// (the gateway's per-address budget) is "not now", not a refusal: a refresh that meets it
/// must not end the session.
pub fn read_token_answer(status: u16, body: &str) -> Result<TokenResponse, TokenFailure> {
    if (200..300).contains(&status) {
        return serde_json::from_str(body).map_err(|_| TokenFailure::Unexpected { status });
    }
    let refusal = (400..500).contains(&status) && status != 429;
    match serde_json::from_str::<OAuthError>(body) {
        Ok(error) if refusal => Err(TokenFailure::Refused(error)),
        _ => Err(TokenFailure::Unexpected { status }),
    }
}

/// Exchanges an authorization code, proving possession of the PKCE verifier.
/// The client secret goes along only when the deployment configured one.
pub async fn exchange_code(
    config: &Config,
    code: &str,
    redirect_uri: &str,
    verifier: &str,
) -> Result<TokenResponse, TokenFailure> {
    let request = TokenRequest::authorization_code(
        code,
        redirect_uri,
        &config.client_id,
        config.client_secret.as_deref(),
        Some(verifier),
    );
    post_token(config, &request).await
}

/// One `grant_type=refresh_token` request.
pub async fn refresh(config: &Config, refresh_token: &str) -> Result<TokenResponse, RefreshError> {
    let request = TokenRequest::refresh(
        refresh_token,
        &config.client_id,
        config.client_secret.as_deref(),
    );
    post_token(config, &request)
        .await
        .map_err(|failure| match failure {
            // The grant is gone (used, expired, revoked) or the client is not accepted: only a new
            // sign-in helps.
            TokenFailure::Refused(_) => RefreshError::Rejected,
            // "Busy" is said before any work, and offline nothing left the browser.
            TokenFailure::Unexpected { status: 429 | 503 } => RefreshError::Unavailable,
            TokenFailure::Unreachable if !crate::browser::navigator_online() => {
                RefreshError::Unavailable
            }
            // The platform may have rotated the tokens and its answer never arrived.
            TokenFailure::Unreachable | TokenFailure::Unexpected { .. } => RefreshError::Lost,
        })
}

/// Revokes `refresh_token`, and with it the whole grant (its access tokens too, even one the
/// platform has already dropped as expired). RFC 7009: the token travels in a form body, never
/// in the URL. `Err` when the platform did not confirm; the caller clears the session either
/// way and tells the admin.
pub async fn revoke(config: &Config, refresh_token: &str) -> Result<(), ()> {
    let url = config.auth_endpoint(paths::OAUTH_REVOKE);
    let outgoing = Outgoing {
        method: Method::POST,
        url: &url,
        headers: vec![
            (
                "Authorization",
                basic_auth_header(&config.client_id, config.client_secret.as_deref()),
            ),
            ("Content-Type", "application/x-www-form-urlencoded".into()),
        ],
        body: Some(revocation_form(refresh_token, "refresh_token")),
    };
    match send_once(outgoing, &CancelScope::new(), TOKEN_REQUEST_TIMEOUT_MS).await {
        Ok(response) if (200..300).contains(&response.status) => Ok(()),
        _ => Err(()),
    }
}
