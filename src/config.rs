//! Runtime configuration: `/config.json`, read once at start.
//!
//! One built `dist/` serves every environment: only this file changes. Every field is checked
//! here, so a typo shows a screen naming the field instead of failing later in some request.

use std::fmt;

use serde_json::{Map, Value};

use crate::i18n::{msg, t, M};

/// Where the console finds its configuration, relative to the page's origin.
pub const CONFIG_PATH: &str = "/config.json";
/// Used when `scope` is absent.
pub const DEFAULT_SCOPE: &str = "scim marketplace";
/// Used when `redirect_path` is absent.
pub const DEFAULT_REDIRECT_PATH: &str = "/auth/callback";

/// The validated configuration. URLs carry no trailing slash, so `base_url + path` is right.
/// Its `Debug` never shows the client secret.
#[derive(Clone, PartialEq, Eq)]
pub struct Config {
    /// Origin (and optional path prefix) of the platform API, e.g. `https://api.example.com`.
    pub base_url: String,
    /// Origin (and optional path prefix) of the OAuth endpoints.
    pub auth_url: String,
    pub client_id: String,
    /// Sent to the token endpoint when present. Anyone who loads the console can read it, so
    /// a public deployment leaves it out and relies on PKCE.
    pub client_secret: Option<String>,
    /// Space-separated scopes to ask for, normalised to single spaces.
    pub scope: String,
    /// Path of the OAuth callback route on this origin; starts with `/`.
    pub redirect_path: String,
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("base_url", &self.base_url)
            .field("auth_url", &self.auth_url)
            .field("client_id", &self.client_id)
            .field(
                "client_secret",
                &self.client_secret.as_ref().map(|_| "<redacted>"),
            )
            .field("scope", &self.scope)
            .field("redirect_path", &self.redirect_path)
            .finish()
    }
}

/// Said in the browser's console when `config.json` carries a client secret: anyone who loads
/// the console can read it there.
pub const PUBLIC_SECRET_WARNING: &str = "Gifting Console: config.json carries a client_secret. \
Every visitor can read it, so it is not secret: remove it and serve the console through the \
gateway (see README, \"Deploy\"), which keeps the secret on the server.";

/// What is wrong with the configuration. `field` is `None` when the file itself is the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    pub field: Option<&'static str>,
    pub problem: String,
}

impl ConfigError {
    fn field(field: &'static str, problem: impl Into<String>) -> Self {
        Self {
            field: Some(field),
            problem: problem.into(),
        }
    }

    fn file(problem: impl Into<String>) -> Self {
        Self {
            field: None,
            problem: problem.into(),
        }
    }
}

impl ConfigError {
    /// Where the problem is, in the file's own words: `config.json:` and the field, if any.
    pub fn location(&self) -> String {
        match self.field {
            Some(field) => format!("{CONFIG_PATH}: `{field}`"),
            None => format!("{CONFIG_PATH}:"),
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.location(), self.problem)
    }
}

impl std::error::Error for ConfigError {}

impl Config {
    /// The absolute URL of the OAuth callback on the origin the console runs on.
    pub fn redirect_uri(&self, origin: &str) -> String {
        format!("{}{}", origin.trim_end_matches('/'), self.redirect_path)
    }

    /// `base_url` joined with an API path such as `/api/v3/me?x=1`.
    pub fn api_url(&self, path_and_query: &str) -> String {
        format!("{}{path_and_query}", self.base_url)
    }

    /// `auth_url` joined with an OAuth path such as `/oauth/token`.
    pub fn auth_endpoint(&self, path_and_query: &str) -> String {
        format!("{}{path_and_query}", self.auth_url)
    }
}

/// Parses and checks the text of `/config.json`.
pub fn parse_config(text: &str) -> Result<Config, ConfigError> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| ConfigError::file(msg::config_not_json(&e.to_string())))?;
    let Value::Object(map) = value else {
        return Err(ConfigError::file(t(M::ConfigNotObject)));
    };
    Ok(Config {
        base_url: http_url(&map, "base_url")?,
        auth_url: http_url(&map, "auth_url")?,
        client_id: client_id(&map)?,
        client_secret: client_secret(&map)?,
        scope: scope(&map)?,
        redirect_path: redirect_path(&map)?,
    })
}

/// A string field; `Ok(None)` when absent or null.
fn optional_string(
    map: &Map<String, Value>,
    field: &'static str,
) -> Result<Option<String>, ConfigError> {
    match map.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(ConfigError::field(
            field,
            msg::config_not_string(json_kind(other)),
        )),
    }
}

fn required_string(map: &Map<String, Value>, field: &'static str) -> Result<String, ConfigError> {
    optional_string(map, field)?.ok_or_else(|| ConfigError::field(field, t(M::ConfigMissing)))
}

/// The kind of a JSON value, as `config.not_string` chooses its words by it.
fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Whether `host` (as in a URL, with an optional port) is this machine: tokens sent there in
/// clear text never cross a network.
fn is_loopback_host(host: &str) -> bool {
    let name = if host.starts_with('[') {
        host.split(']')
            .next()
            .map(|h| format!("{h}]"))
            .unwrap_or_default()
    } else {
        host.split(':').next().unwrap_or_default().to_owned()
    };
    let name = name.to_ascii_lowercase();
    let ipv4_loopback = name.strip_prefix("127.").is_some_and(|rest| {
        rest.split('.').count() == 3 && rest.split('.').all(|p| p.parse::<u8>().is_ok())
    });
    name == "localhost" || name == "[::1]" || ipv4_loopback
}

/// An absolute `https` URL with a host, without query or fragment; `http` only for a loopback
/// host (anywhere else the tokens would cross the network in clear text).
fn http_url(map: &Map<String, Value>, field: &'static str) -> Result<String, ConfigError> {
    let raw = required_string(map, field)?;
    let url = raw.trim();
    let bad = |why: &str| ConfigError::field(field, msg::config_url(why, url));
    let lower = url.to_ascii_lowercase();
    let rest = if lower.starts_with("https://") {
        &url[8..]
    } else if lower.starts_with("http://") {
        &url[7..]
    } else {
        return Err(bad("scheme"));
    };
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(bad("spaces"));
    }
    if url.contains('?') || url.contains('#') {
        return Err(bad("query"));
    }
    let host = rest.split('/').next().unwrap_or_default();
    let host_ok = !host.is_empty()
        && !host.contains('@')
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'));
    if !host_ok {
        return Err(bad("host"));
    }
    if lower.starts_with("http://") && !is_loopback_host(host) {
        return Err(bad("plain_http"));
    }
    Ok(url.trim_end_matches('/').to_string())
}

fn client_id(map: &Map<String, Value>) -> Result<String, ConfigError> {
    let id = required_string(map, "client_id")?;
    let id = id.trim();
    if id.is_empty() {
        return Err(ConfigError::field("client_id", t(M::ConfigClientIdEmpty)));
    }
    Ok(id.to_string())
}

/// Optional; an empty string counts as absent (templated deployments leave it blank).
fn client_secret(map: &Map<String, Value>) -> Result<Option<String>, ConfigError> {
    Ok(optional_string(map, "client_secret")?.filter(|s| !s.trim().is_empty()))
}

/// RFC 6749 §3.3 scope tokens, separated by spaces.
fn scope(map: &Map<String, Value>) -> Result<String, ConfigError> {
    let Some(raw) = optional_string(map, "scope")? else {
        return Ok(DEFAULT_SCOPE.to_string());
    };
    let tokens: Vec<&str> = raw.split(' ').filter(|t| !t.is_empty()).collect();
    if tokens.is_empty() {
        return Err(ConfigError::field("scope", t(M::ConfigScopeEmpty)));
    }
    let valid = |t: &&str| {
        t.bytes()
            .all(|b| b == 0x21 || (0x23..=0x5B).contains(&b) || (0x5D..=0x7E).contains(&b))
    };
    if let Some(bad) = tokens.iter().find(|t| !valid(t)) {
        return Err(ConfigError::field("scope", msg::config_scope_invalid(bad)));
    }
    Ok(tokens.join(" "))
}

fn redirect_path(map: &Map<String, Value>) -> Result<String, ConfigError> {
    let Some(path) = optional_string(map, "redirect_path")? else {
        return Ok(DEFAULT_REDIRECT_PATH.to_string());
    };
    let path = path.trim();
    if !path.starts_with('/') || path.starts_with("//") {
        return Err(ConfigError::field(
            "redirect_path",
            msg::config_redirect_not_path(path),
        ));
    }
    if path.len() == 1 {
        return Err(ConfigError::field(
            "redirect_path",
            t(M::ConfigRedirectHome),
        ));
    }
    if path
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || c == '?' || c == '#')
    {
        return Err(ConfigError::field(
            "redirect_path",
            msg::config_redirect_plain(path),
        ));
    }
    Ok(path.to_string())
}

/// Fetches and checks `/config.json` from the console's own origin.
pub async fn load_config() -> Result<Config, ConfigError> {
    use gloo_net::http::Request;
    use web_sys::RequestCache;

    let response = Request::get(CONFIG_PATH)
        // Always revalidate, so an edited file is never read stale. Not no-store: a
        // no-store request would skip index.html's preload and fetch the file a second time.
        .cache(RequestCache::NoCache)
        .send()
        .await
        .map_err(|_| ConfigError::file(t(M::ConfigNoAnswer)))?;
    if !response.ok() {
        return Err(ConfigError::file(msg::config_status(
            &response.status().to_string(),
        )));
    }
    let text = response
        .text()
        .await
        .map_err(|_| ConfigError::file(t(M::ConfigUnreadable)))?;
    let config = parse_config(&text)?;
    if config.client_secret.is_some() {
        web_sys::console::warn_1(&PUBLIC_SECRET_WARNING.into());
    }
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    const GOOD: &str = r#"{"base_url":"http://127.0.0.1:8080/","auth_url":"https://auth.example.com",
        "client_id":"gifting-console"}"#;

    #[wasm_bindgen_test]
    fn defaults_apply_and_urls_lose_their_trailing_slash() {
        let c = parse_config(GOOD).expect("valid");
        assert_eq!(c.base_url, "http://127.0.0.1:8080");
        assert_eq!(c.auth_url, "https://auth.example.com");
        assert_eq!(c.scope, "scim marketplace");
        assert_eq!(c.redirect_path, "/auth/callback");
        assert_eq!(c.client_secret, None);
        assert_eq!(
            c.redirect_uri("http://localhost:9"),
            "http://localhost:9/auth/callback"
        );
        assert_eq!(c.api_url("/api/v3/me"), "http://127.0.0.1:8080/api/v3/me");
    }

    fn field_of(text: &str) -> Option<&'static str> {
        parse_config(text).expect_err("must be refused").field
    }

    #[wasm_bindgen_test]
    fn each_bad_field_is_named() {
        assert_eq!(
            field_of(r#"{"auth_url":"https://a","client_id":"c"}"#),
            Some("base_url")
        );
        assert_eq!(
            field_of(r#"{"base_url":"ftp://a","auth_url":"https://a","client_id":"c"}"#),
            Some("base_url")
        );
        assert_eq!(
            field_of(r#"{"base_url":"/api","auth_url":"https://a","client_id":"c"}"#),
            Some("base_url")
        );
        assert_eq!(
            field_of(r#"{"base_url":"http://","auth_url":"https://a","client_id":"c"}"#),
            Some("base_url")
        );
        assert_eq!(
            field_of(r#"{"base_url":"https://a","auth_url":"https://a?x=1","client_id":"c"}"#),
            Some("auth_url")
        );
        assert_eq!(
            field_of(r#"{"base_url":"https://a","auth_url":"https://a","client_id":" "}"#),
            Some("client_id")
        );
        assert_eq!(
            field_of(r#"{"base_url":"https://a","auth_url":"https://a","client_id":7}"#),
            Some("client_id")
        );
        assert_eq!(
            field_of(
                r#"{"base_url":"https://a","auth_url":"https://a","client_id":"c","client_secret":1}"#
            ),
            Some("client_secret")
        );
        assert_eq!(
            field_of(
                r#"{"base_url":"https://a","auth_url":"https://a","client_id":"c","scope":"  "}"#
            ),
            Some("scope")
        );
        assert_eq!(
            field_of(
                r#"{"base_url":"https://a","auth_url":"https://a","client_id":"c","scope":"a\"b"}"#
            ),
            Some("scope")
        );
        assert_eq!(
            field_of(
                r#"{"base_url":"https://a","auth_url":"https://a","client_id":"c","redirect_path":"cb"}"#
            ),
            Some("redirect_path")
        );
        assert_eq!(
            field_of(
                r#"{"base_url":"https://a","auth_url":"https://a","client_id":"c","redirect_path":"//evil"}"#
            ),
            Some("redirect_path")
        );
        assert_eq!(field_of("[1]"), None);
        assert_eq!(field_of("{"), None);
    }

    #[wasm_bindgen_test]
    fn plain_http_only_for_this_machine() {
        let with_base = |base: &str| {
            parse_config(&format!(
                r#"{{"base_url":"{base}","auth_url":"https://a","client_id":"c"}}"#
            ))
        };
        for local in [
            "http://127.0.0.1:8080",
            "http://localhost:9",
            "http://[::1]:8",
            "http://127.0.0.2",
        ] {
            assert!(with_base(local).is_ok(), "{local}");
        }
        for remote in [
            "http://a",
            "http://api.example.com",
            "http://127.0.0.1.evil.example",
            "http://10.0.0.1",
        ] {
            let err = with_base(remote).expect_err(remote);
            assert_eq!(err.field, Some("base_url"), "{remote}");
            assert!(err.problem.contains("https://"), "{}", err.problem);
        }
    }

    #[wasm_bindgen_test]
    fn debug_never_shows_the_secret() {
        let c = parse_config(
            r#"{"base_url":"https://a","auth_url":"https://a","client_id":"c","client_secret":"s3cr3t"}"#,
        )
        .expect("valid");
        let shown = format!("{c:?}");
        assert!(!shown.contains("s3cr3t"), "{shown}");
        assert!(shown.contains("<redacted>"), "{shown}");
    }

    #[wasm_bindgen_test]
    fn messages_say_what_is_wrong() {
        let err = parse_config(r#"{"base_url":"nope","auth_url":"https://a","client_id":"c"}"#)
            .unwrap_err();
        let text = err.to_string();
        assert!(text.contains("`base_url`"), "{text}");
        assert!(text.contains("absolute http(s) URL"), "{text}");
        assert!(text.contains("\"nope\""), "{text}");
    }

    #[wasm_bindgen_test]
    fn optional_fields_are_read() {
        let c = parse_config(
            r#"{"base_url":"https://a","auth_url":"https://a","client_id":"c",
                "client_secret":"s","scope":"scim   marketplace","redirect_path":"/cb"}"#,
        )
        .expect("valid");
        assert_eq!(c.client_secret.as_deref(), Some("s"));
        assert_eq!(c.scope, "scim marketplace");
        assert_eq!(c.redirect_path, "/cb");
        let blank = parse_config(
            r#"{"base_url":"https://a","auth_url":"https://a","client_id":"c","client_secret":""}"#,
        )
        .expect("valid");
        assert_eq!(blank.client_secret, None);
    }
}
