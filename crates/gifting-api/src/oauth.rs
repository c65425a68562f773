//! OAuth 2.0 authorization code grant with PKCE (RFC 6749, RFC 7636, RFC 7009).

use crate::query::QueryBuilder;
use crate::serde_quirks::{int_or_string, signed_int_or_string};
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

pub const SCOPE_SCIM: &str = "scim";
pub const SCOPE_MARKETPLACE: &str = "marketplace";
/// How long the browser waits for an answer of the token endpoint (exchange, refresh,
/// revocation). Whoever relays those requests must give up sooner (the gateway's
/// `--timeout-secs` is at most this minus a second): a refresh the platform answered after
/// the browser stopped waiting has spent the refresh token the browser still holds, and its
/// next refresh would be taken for theft and end the grant.
pub const TOKEN_REQUEST_TIMEOUT_MS: u32 = 25_000;

/// RFC 7009's revocation request body (`application/x-www-form-urlencoded`): the token
/// travels in the body, not in a URL that proxies and logs keep.
pub fn revocation_form(token: &str, token_type_hint: &str) -> String {
    QueryBuilder::new()
        .push("token", token)
        .push("token_type_hint", token_type_hint)
        .build()
        .trim_start_matches('?')
        .to_owned()
}

/// Scopes the platform knows; `scope` omitted means `scim`.
pub const KNOWN_SCOPES: [&str; 2] = [SCOPE_SCIM, SCOPE_MARKETPLACE];

/// 200 answer of `POST /oauth/token`.
#[derive(Serialize, Deserialize, Clone, PartialEq, Eq)]
pub struct TokenResponse {
    pub access_token: String,
    pub token_type: String,
    /// Seconds; documented as a string, sent as a number: both are read.
    #[serde(with = "int_or_string")]
    pub expires_in: u64,
    pub refresh_token: String,
    #[serde(default)]
    pub scope: String,
    /// Unix seconds at the authorization server.
    #[serde(with = "signed_int_or_string")]
    pub created_at: i64,
}

impl TokenResponse {
    /// Unix seconds when the access token stops working.
    pub fn expires_at(&self) -> i64 {
        self.created_at
            .saturating_add(i64::try_from(self.expires_in).unwrap_or(i64::MAX))
    }

    pub fn scopes(&self) -> Vec<&str> {
        self.scope.split_whitespace().collect()
    }
}

/// Never print a token, even by accident in a debug log.
impl std::fmt::Debug for TokenResponse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenResponse")
            .field("token_type", &self.token_type)
            .field("expires_in", &self.expires_in)
            .field("scope", &self.scope)
            .field("created_at", &self.created_at)
            .finish_non_exhaustive()
    }
}

/// RFC 6749 §5.2 error body.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct OAuthError {
    pub error: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_description: Option<String>,
}

impl OAuthError {
    pub fn new(error: &str, description: impl Into<String>) -> Self {
        OAuthError {
            error: error.to_owned(),
            error_description: Some(description.into()),
        }
    }
}

/// Step 1: the parameters of the authorization redirect.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuthorizeRequest {
    pub client_id: String,
    pub redirect_uri: String,
    pub response_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code_challenge: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code_challenge_method: Option<String>,
}

impl AuthorizeRequest {
    /// A code request with `state` and an S256 PKCE challenge for `verifier`.
    pub fn with_pkce(
        client_id: &str,
        redirect_uri: &str,
        scope: &str,
        state: &str,
        verifier: &str,
    ) -> Self {
        let challenge = code_challenge_s256(verifier);
        Self::with_s256_challenge(client_id, redirect_uri, scope, state, &challenge)
    }

    /// [`AuthorizeRequest::with_pkce`] with the S256 challenge already computed: the console
    /// hashes with the browser's WebCrypto, not with SHA-256 code of its own.
    pub fn with_s256_challenge(
        client_id: &str,
        redirect_uri: &str,
        scope: &str,
        state: &str,
        challenge: &str,
    ) -> Self {
        AuthorizeRequest {
            client_id: client_id.to_owned(),
            redirect_uri: redirect_uri.to_owned(),
            response_type: "code".to_owned(),
            scope: Some(scope.to_owned()).filter(|s| !s.trim().is_empty()),
            state: Some(state.to_owned()),
            code_challenge: Some(challenge.to_owned()),
            code_challenge_method: Some("S256".to_owned()),
        }
    }

    /// `{auth_url}/oauth/authorize?…`
    pub fn to_url(&self, auth_url: &str) -> String {
        let query = QueryBuilder::new()
            .push("client_id", &self.client_id)
            .push("redirect_uri", &self.redirect_uri)
            .push("response_type", &self.response_type)
            .push_opt("scope", self.scope.as_deref())
            .push_opt("state", self.state.as_deref())
            .push_opt("code_challenge", self.code_challenge.as_deref())
            .push_opt(
                "code_challenge_method",
                self.code_challenge_method.as_deref(),
            )
            .build();
        format!(
            "{}{}{}",
            auth_url.trim_end_matches('/'),
            crate::paths::OAUTH_AUTHORIZE,
            query
        )
    }
}

/// The body of `POST /oauth/token`, for both grants; form-encoded or JSON.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenRequest {
    pub grant_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_uri: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refresh_token: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_secret: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code_verifier: Option<String>,
}

impl std::fmt::Debug for TokenRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenRequest")
            .field("grant_type", &self.grant_type)
            .field("client_id", &self.client_id)
            .finish_non_exhaustive()
    }
}

impl TokenRequest {
    pub fn authorization_code(
        code: &str,
        redirect_uri: &str,
        client_id: &str,
        client_secret: Option<&str>,
        code_verifier: Option<&str>,
    ) -> Self {
        TokenRequest {
            grant_type: "authorization_code".to_owned(),
            code: Some(code.to_owned()),
            redirect_uri: Some(redirect_uri.to_owned()),
            client_id: Some(client_id.to_owned()),
            client_secret: client_secret.map(str::to_owned),
            code_verifier: code_verifier.map(str::to_owned),
            ..Default::default()
        }
    }

    pub fn refresh(refresh_token: &str, client_id: &str, client_secret: Option<&str>) -> Self {
        TokenRequest {
            grant_type: "refresh_token".to_owned(),
            refresh_token: Some(refresh_token.to_owned()),
            client_id: Some(client_id.to_owned()),
            client_secret: client_secret.map(str::to_owned),
            ..Default::default()
        }
    }

    /// `application/x-www-form-urlencoded` body.
    pub fn to_form(&self) -> String {
        let q = QueryBuilder::new()
            .push("grant_type", &self.grant_type)
            .push_opt("code", self.code.as_deref())
            .push_opt("redirect_uri", self.redirect_uri.as_deref())
            .push_opt("refresh_token", self.refresh_token.as_deref())
            .push_opt("client_id", self.client_id.as_deref())
            .push_opt("client_secret", self.client_secret.as_deref())
            .push_opt("code_verifier", self.code_verifier.as_deref())
            .build();
        q.trim_start_matches('?').to_owned()
    }
}

/// RFC 7636 S256: base64url(SHA-256(verifier)) without padding.
pub fn code_challenge_s256(verifier: &str) -> String {
    base64url(&Sha256::digest(verifier.as_bytes()))
}

/// RFC 7636 §4.1: 43 to 128 characters of `[A-Za-z0-9-._~]`.
pub fn is_valid_verifier(verifier: &str) -> bool {
    (43..=128).contains(&verifier.len())
        && verifier
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'))
}

/// base64url without padding, for random `state` and verifier bytes and the S256 challenge.
/// Written out rather than through `base64`'s engine: the console carries it in its first load,
/// where the engine's generic code weighs several times more.
pub fn base64url(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let group = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, &b)| acc | u32::from(b) << (16 - 8 * i));
        // A chunk of n bytes gives n + 1 characters (no padding).
        for i in 0..=chunk.len() {
            let index = (group >> (18 - 6 * i)) & 63;
            out.push(char::from(ALPHABET[index as usize]));
        }
    }
    out
}

/// `Authorization: Basic …` for client authentication; a public client sends `client_id:`.
pub fn basic_auth_header(client_id: &str, client_secret: Option<&str>) -> String {
    let pair = format!("{client_id}:{}", client_secret.unwrap_or(""));
    format!("Basic {}", STANDARD.encode(pair))
}

/// Reads `Authorization: Basic …` into (client_id, client_secret); `None` when malformed.
pub fn parse_basic_auth(header: &str) -> Option<(String, String)> {
    let (scheme, encoded) = header.trim().split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = STANDARD.decode(encoded.trim()).ok()?;
    let text = String::from_utf8(decoded).ok()?;
    let (id, secret) = text.split_once(':')?;
    Some((id.to_owned(), secret.to_owned()))
}

/// Splits a `scope` parameter; `None` (omitted) means `scim`.
pub fn requested_scopes(scope: Option<&str>) -> Vec<String> {
    match scope.map(str::trim) {
        None | Some("") => vec![SCOPE_SCIM.to_owned()],
        Some(s) => s.split_whitespace().map(str::to_owned).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64url_matches_the_engine_at_every_length() {
        use base64::engine::general_purpose::URL_SAFE_NO_PAD;
        // Every byte value in every position of a 3-byte group, at lengths 0 to 70.
        let bytes: Vec<u8> = (0..70u32).map(|i| (i * 97 + 13) as u8).collect();
        for len in 0..=bytes.len() {
            assert_eq!(
                base64url(&bytes[..len]),
                URL_SAFE_NO_PAD.encode(&bytes[..len]),
                "{len}"
            );
        }
        let all: Vec<u8> = (0..=255u8).collect();
        assert_eq!(base64url(&all), URL_SAFE_NO_PAD.encode(&all));
    }

    #[test]
    fn pkce_matches_rfc_7636_appendix_b() {
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        assert!(is_valid_verifier(verifier));
        assert_eq!(
            code_challenge_s256(verifier),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
        assert!(!is_valid_verifier("short"));
    }

    #[test]
    fn token_response_reads_expires_in_as_number_or_string() {
        let a: TokenResponse = serde_json::from_str(
            r#"{"access_token":"a","token_type":"bearer","expires_in":7200,"refresh_token":"r",
               "scope":"scim marketplace","created_at":1700000000}"#,
        )
        .unwrap();
        let b: TokenResponse = serde_json::from_str(
            r#"{"access_token":"a","token_type":"bearer","expires_in":"7200","refresh_token":"r",
               "scope":"scim marketplace","created_at":"1700000000"}"#,
        )
        .unwrap();
        assert_eq!(a, b);
        assert_eq!(a.expires_at(), 1_700_007_200);
        assert_eq!(a.scopes(), ["scim", "marketplace"]);
        assert!(!format!("{a:?}").contains("\"a\""));
    }

    #[test]
    fn authorize_url_carries_every_parameter() {
        let req = AuthorizeRequest::with_pkce(
            "gifting-console",
            "http://127.0.0.1:8080/auth/callback",
            "scim marketplace",
            "st8",
            "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
        );
        assert_eq!(
            req.to_url("http://127.0.0.1:8080/"),
            "http://127.0.0.1:8080/oauth/authorize?client_id=gifting-console\
             &redirect_uri=http%3A%2F%2F127.0.0.1%3A8080%2Fauth%2Fcallback&response_type=code\
             &scope=scim%20marketplace&state=st8\
             &code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256"
        );
    }

    #[test]
    fn basic_auth_round_trips_including_public_clients() {
        let h = basic_auth_header("gifting-console", Some("sandbox-secret"));
        assert_eq!(
            parse_basic_auth(&h),
            Some(("gifting-console".into(), "sandbox-secret".into()))
        );
        let public = basic_auth_header("gifting-console", None);
        assert_eq!(
            parse_basic_auth(&public),
            Some(("gifting-console".into(), String::new()))
        );
        assert_eq!(parse_basic_auth("Bearer x"), None);
        assert_eq!(parse_basic_auth("Basic !!!"), None);
    }

    #[test]
    fn token_request_forms_and_scopes() {
        let form = TokenRequest::refresh("r 1", "c", None).to_form();
        assert_eq!(
            form,
            "grant_type=refresh_token&refresh_token=r%201&client_id=c"
        );
        assert_eq!(requested_scopes(None), ["scim"]);
        assert_eq!(
            requested_scopes(Some("scim  marketplace")),
            ["scim", "marketplace"]
        );
        let parsed: TokenRequest = serde_json::from_str(
            r#"{"grant_type":"authorization_code","code":"c","redirect_uri":"u","client_id":"i","client_secret":"s"}"#,
        )
        .unwrap();
        assert_eq!(parsed.code.as_deref(), Some("c"));
    }
}
