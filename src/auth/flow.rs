//! The authorization code flow: starting a sign-in and checking what comes back.
//!
//! The pure parts (URL building, callback checks, return routes) take their inputs as
//! arguments so the tests can drive them; [`super::Auth`] wires them to the browser.

use gifting_api::oauth::{base64url, AuthorizeRequest};
use gifting_api::query::parse_pairs;

use super::session::PendingSignIn;
use crate::config::Config;
use crate::i18n::{msg, t, M};

/// The query parameters the authorization server may append to the callback. They are
/// stripped from the address bar at start-up, before anything renders.
pub const CALLBACK_PARAMS: [&str; 4] = ["code", "state", "error", "error_description"];

/// The name of the window a sign-in again opens: only that window closes itself once done.
pub const SIGN_IN_AGAIN_WINDOW: &str = "gifting-console-sign-in-again";

/// A fresh `state`: 256 bits from `crypto.getRandomValues`, base64url (43 characters).
pub fn new_state() -> Result<String, String> {
    Ok(base64url(&crate::browser::random_bytes::<32>()?))
}

/// A fresh PKCE verifier: 256 bits, base64url (43 characters, RFC 7636 §4.1).
pub fn new_verifier() -> Result<String, String> {
    Ok(base64url(&crate::browser::random_bytes::<32>()?))
}

/// RFC 7636 S256: base64url(SHA-256(verifier)), hashed by the browser's WebCrypto.
pub async fn s256_challenge(verifier: &str) -> Result<String, String> {
    Ok(base64url(
        &crate::browser::sha256(verifier.as_bytes()).await?,
    ))
}

/// The authorization request URL for a sign-in started on `origin`, with the S256 `challenge`
/// of its verifier.
pub fn authorize_url(config: &Config, origin: &str, state: &str, challenge: &str) -> String {
    AuthorizeRequest::with_s256_challenge(
        &config.client_id,
        &config.redirect_uri(origin),
        &config.scope,
        state,
        challenge,
    )
    .to_url(&config.auth_url)
}

/// Where to go after signing in: the route the user was on, unless that would leave the site
/// (`//host`, `https:`) or loop back into the callback.
pub fn safe_return_to(route: &str, redirect_path: &str) -> String {
    let on_site = route.starts_with('/') && !route.starts_with("//") && !route.starts_with("/\\");
    let path = route.split(['?', '#']).next().unwrap_or_default();
    if on_site && path != redirect_path {
        route.to_string()
    } else {
        "/".to_string()
    }
}

/// What the authorization server put on the callback URL.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct CallbackParams {
    pub code: Option<String>,
    pub state: Option<String>,
    pub error: Option<String>,
    pub error_description: Option<String>,
}

impl std::fmt::Debug for CallbackParams {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The code and state are credentials for a minute: never print them.
        f.debug_struct("CallbackParams")
            .field("has_code", &self.code.is_some())
            .field("has_state", &self.state.is_some())
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
}

impl CallbackParams {
    /// Reads the OAuth parameters out of a query string (with or without `?`). Also returns
    /// the query without them. `None` when none of them is present.
    pub fn split_query(search: &str) -> Option<(CallbackParams, String)> {
        let mut params = CallbackParams::default();
        let mut rest = Vec::new();
        let mut found = false;
        for (key, value) in parse_pairs(search.trim_start_matches('?')) {
            let slot = match key.as_str() {
                "code" => &mut params.code,
                "state" => &mut params.state,
                "error" => &mut params.error,
                "error_description" => &mut params.error_description,
                _ => {
                    rest.push((key, value));
                    continue;
                }
            };
            found = true;
            // A repeated parameter is suspicious; keep the first and let the state check judge.
            if slot.is_none() {
                *slot = Some(value);
            }
        }
        if !found {
            return None;
        }
        let mut builder = gifting_api::query::QueryBuilder::new();
        for (key, value) in &rest {
            builder = builder.push(key, value);
        }
        Some((params, builder.build()))
    }

    /// Takes the OAuth parameters out of the address bar (`history.replaceState`) and returns
    /// them. Runs once at start-up, before the first render.
    pub fn capture_from_address_bar() -> Option<CallbackParams> {
        let location = web_sys::window()?.location();
        let search = location.search().ok()?;
        let (params, rest) = Self::split_query(&search)?;
        let path = location.pathname().unwrap_or_else(|_| "/".into());
        let hash = location.hash().unwrap_or_default();
        crate::browser::replace_url(&format!("{path}{rest}{hash}"));
        Some(params)
    }
}

/// Why a callback was not turned into a session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallbackError {
    /// `state` missing, unknown to this tab, or different: possibly forged. Nothing was exchanged.
    StateMismatch,
    /// The authorization server reported an error, e.g. `access_denied` after "Deny".
    Denied {
        error: String,
        description: Option<String>,
    },
    /// Neither a code nor an error came back.
    MissingCode,
    /// The code exchange failed; the sentence says why.
    Exchange(String),
}

impl CallbackError {
    /// A sentence for the callback screen.
    pub fn user_message(&self) -> String {
        match self {
            CallbackError::StateMismatch => t(M::AuthStateMismatch).into(),
            CallbackError::Denied { error, description } => {
                let headline = if error == "access_denied" {
                    t(M::AuthDenied).to_string()
                } else {
                    msg::auth_service_error(error)
                };
                match description
                    .as_deref()
                    .map(str::trim)
                    .filter(|d| !d.is_empty())
                {
                    Some(d) => msg::auth_platform_said(&headline, d),
                    None => headline,
                }
            }
            CallbackError::MissingCode => t(M::AuthNoCode).into(),
            CallbackError::Exchange(message) => message.clone(),
        }
    }
}

/// Compares without stopping at the first difference, so timing says nothing about `state`.
pub fn states_match(expected: &str, received: &str) -> bool {
    expected.len() == received.len()
        && expected
            .bytes()
            .zip(received.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

/// The checks before any exchange, in order: the state first (an attacker's response gets no
/// further, not even its error text), then a reported error, then the code.
/// Returns the code to exchange.
pub fn check_callback(
    params: &CallbackParams,
    pending: Option<&PendingSignIn>,
) -> Result<String, CallbackError> {
    let (Some(received), Some(pending)) = (params.state.as_deref(), pending) else {
        return Err(CallbackError::StateMismatch);
    };
    if !states_match(&pending.state, received) {
        return Err(CallbackError::StateMismatch);
    }
    if let Some(error) = &params.error {
        return Err(CallbackError::Denied {
            error: error.clone(),
            description: params.error_description.clone(),
        });
    }
    params
        .code
        .clone()
        .filter(|c| !c.is_empty())
        .ok_or(CallbackError::MissingCode)
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn split_query_takes_only_the_oauth_parameters() {
        let (p, rest) =
            CallbackParams::split_query("?code=c%2F1&state=s%2B1&page=2").expect("found");
        assert_eq!(p.code.as_deref(), Some("c/1"));
        assert_eq!(p.state.as_deref(), Some("s+1"));
        assert_eq!(rest, "?page=2");
        assert!(CallbackParams::split_query("?page=2").is_none());
        assert!(CallbackParams::split_query("").is_none());
        let (p, rest) = CallbackParams::split_query("error=access_denied&state=x").expect("found");
        assert_eq!(p.error.as_deref(), Some("access_denied"));
        assert_eq!(rest, "");
    }

    #[wasm_bindgen_test]
    fn return_routes_stay_on_site() {
        assert_eq!(
            safe_return_to("/sends?page=2", "/auth/callback"),
            "/sends?page=2"
        );
        assert_eq!(safe_return_to("//evil.example", "/auth/callback"), "/");
        assert_eq!(
            safe_return_to("https://evil.example", "/auth/callback"),
            "/"
        );
        assert_eq!(
            safe_return_to("/auth/callback?code=1", "/auth/callback"),
            "/"
        );
    }
}
