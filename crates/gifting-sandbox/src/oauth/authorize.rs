//! `GET /oauth/authorize` (the sign-in and consent page) and `POST /oauth/authorize` (the
//! visitor's decision).
//!
//! A bad `client_id` or `redirect_uri` is shown on a page and never redirected: redirecting to
//! an unverified address would make the sandbox an open redirector. Every other problem is
//! reported to the client through the redirect, as RFC 6749 §4.1.2.1 says.

use std::collections::HashMap;

use axum::extract::{RawQuery, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use gifting_api::query::parse_pairs;

use super::page::{self, Choice, ConsentPage};
use crate::extract::FormPairs;
use crate::state::{Shared, Stats, CLIENT_ID};
use crate::stores::scope::Scopes;

/// The authorization request parameters echoed through the consent form.
const PARAMS: [&str; 7] = [
    "client_id",
    "redirect_uri",
    "response_type",
    "scope",
    "state",
    "code_challenge",
    "code_challenge_method",
];

/// A request whose client and redirect URI check out.
struct Valid {
    redirect_uri: String,
    scopes: Scopes,
    state: Option<String>,
    code_challenge: Option<String>,
    hidden: Vec<(&'static str, String)>,
}

enum Checked {
    /// Show a page, never redirect.
    Refuse(String),
    /// Tell the client through its (verified) redirect URI.
    RedirectError {
        redirect_uri: String,
        error: &'static str,
        description: String,
        state: Option<String>,
    },
    Ok(Valid),
}

/// The request's parameters by name. A parameter given twice is an error (RFC 6749 §3.1).
struct Params<'a>(HashMap<&'a str, Vec<&'a str>>);

impl<'a> Params<'a> {
    fn new(pairs: &'a [(String, String)]) -> Self {
        let mut seen: HashMap<&str, Vec<&str>> = HashMap::new();
        for (k, v) in pairs {
            seen.entry(k.as_str()).or_default().push(v.as_str());
        }
        Params(seen)
    }

    /// The value of `name`, if given; `Err` when it is given more than once.
    fn one(&self, name: &str) -> Result<Option<&'a str>, ()> {
        match self.0.get(name).map(Vec::as_slice) {
            None => Ok(None),
            Some([v]) => Ok(Some(*v)),
            Some(_) => Err(()),
        }
    }

    /// The value of `name` when it is given exactly once.
    fn value(&self, name: &str) -> Option<&'a str> {
        self.one(name).ok().flatten()
    }

    /// A parameter the redirect depends on: without it exactly once, no address can be
    /// trusted, so the refusal is a page.
    fn required(&self, name: &str) -> Result<&'a str, Checked> {
        match self.one(name) {
            Ok(Some(v)) => Ok(v),
            Ok(None) => Err(Checked::Refuse(format!("The request has no {name}."))),
            Err(()) => Err(Checked::Refuse(format!("{name} is given more than once."))),
        }
    }
}

/// Anything but `response_type=code`: the error to redirect with and its description.
fn response_type_error(response_type: Option<&str>) -> Option<(&'static str, String)> {
    match response_type {
        Some("code") => None,
        None => Some(("invalid_request", "response_type is required.".into())),
        Some(other) => Some((
            "unsupported_response_type",
            format!("response_type {other:?} is not supported; use code."),
        )),
    }
}

/// The request's S256 PKCE challenge, if it has one; `Err` describes an invalid_request.
fn pkce_challenge(
    challenge: Option<&str>,
    method: Option<&str>,
) -> Result<Option<String>, &'static str> {
    match (challenge, method) {
        (None, None) => Ok(None),
        (Some(c), Some("S256")) => {
            let well_formed = c.len() == 43
                && c.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
            if well_formed {
                Ok(Some(c.to_owned()))
            } else {
                Err("code_challenge must be 43 base64url characters (S256).")
            }
        }
        (Some(_), _) => Err("Only code_challenge_method=S256 is supported."),
        (None, Some(_)) => Err("code_challenge_method was sent without a code_challenge."),
    }
}

fn check(app: &Shared, pairs: &[(String, String)]) -> Checked {
    let params = Params::new(pairs);
    let client_id = match params.required("client_id") {
        Ok(c) => c,
        Err(refused) => return refused,
    };
    if client_id != CLIENT_ID {
        return Checked::Refuse(format!("Unknown client_id {client_id:?}."));
    }
    let redirect_uri = match params.required("redirect_uri") {
        Ok(r) => r,
        Err(refused) => return refused,
    };
    if !app.redirect_uris.iter().any(|r| r == redirect_uri) {
        return Checked::Refuse(format!(
            "The redirect_uri {redirect_uri:?} is not registered for this client."
        ));
    }
    let state = params.value("state").map(str::to_owned);
    let fail = |error: &'static str, description: String| Checked::RedirectError {
        redirect_uri: redirect_uri.to_owned(),
        error,
        description,
        state: state.clone(),
    };
    if let Some(name) = PARAMS.iter().find(|name| params.one(name).is_err()) {
        return fail(
            "invalid_request",
            format!("{name} is given more than once."),
        );
    }
    if let Some((error, description)) = response_type_error(params.value("response_type")) {
        return fail(error, description);
    }
    let scopes = match Scopes::parse(params.value("scope")) {
        Ok(s) => s,
        Err(e) => return fail("invalid_scope", e),
    };
    let challenge = params.value("code_challenge");
    let code_challenge = match pkce_challenge(challenge, params.value("code_challenge_method")) {
        Ok(c) => c,
        Err(description) => return fail("invalid_request", description.into()),
    };
    let hidden = PARAMS
        .iter()
        .filter_map(|name| params.value(name).map(|v| (*name, v.to_owned())))
        .collect();
    Checked::Ok(Valid {
        redirect_uri: redirect_uri.to_owned(),
        scopes,
        state,
        code_challenge,
        hidden,
    })
}

/// `redirect_uri` plus parameters, keeping any query the URI already has.
fn redirect(redirect_uri: &str, params: &[(&str, &str)]) -> Response {
    let query = serde_urlencoded::to_string(params).unwrap_or_default();
    let sep = if redirect_uri.contains('?') { '&' } else { '?' };
    let location = format!("{redirect_uri}{sep}{query}");
    let mut res = StatusCode::FOUND.into_response();
    let h = res.headers_mut();
    match HeaderValue::from_str(&location) {
        Ok(v) => {
            h.insert(header::LOCATION, v);
        }
        Err(_) => return refuse("The redirect address cannot be used.".into()),
    }
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

fn redirect_error(
    redirect_uri: &str,
    error: &str,
    description: &str,
    state: Option<&str>,
) -> Response {
    let mut params = vec![("error", error), ("error_description", description)];
    if let Some(s) = state {
        params.push(("state", s));
    }
    redirect(redirect_uri, &params)
}

fn refuse(reason: String) -> Response {
    page::html_response(
        StatusCode::BAD_REQUEST,
        page::refusal_html(&reason),
        &page::csp(None),
    )
}

/// `scheme://host:port` of a URL, for the page's form-action; `None` if it looks odd.
fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let host = rest.split(['/', '?', '#']).next()?;
    let ok = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-.:[]+".contains(&b))
    };
    (ok(scheme) && ok(host)).then(|| format!("{scheme}://{host}"))
}

/// Active users, the demo accounts first, as the consent page lists them.
fn choices(app: &Shared) -> Vec<Choice> {
    const DEMO: [&str; 3] = [
        "admin@example.com",
        "manager@example.com",
        "sender@example.com",
    ];
    let world = app.read();
    let mut users: Vec<_> = world.db.users.values().filter(|u| u.active).collect();
    users.sort_by_key(|u| {
        (
            DEMO.iter()
                .position(|d| u.email.eq_ignore_ascii_case(d))
                .unwrap_or(DEMO.len()),
            u.id,
        )
    });
    users
        .into_iter()
        .map(|u| Choice {
            email: u.email.clone(),
            name: u.full_name(),
            role: u.role.to_string(),
        })
        .collect()
}

fn consent(
    app: &Shared,
    v: &Valid,
    status: StatusCode,
    selected: Option<&str>,
    problem: Option<&str>,
) -> Response {
    let users = choices(app);
    let html = page::consent_html(&ConsentPage {
        client_id: CLIENT_ID,
        hidden: &v.hidden,
        scopes: v.scopes,
        redirect_uri: &v.redirect_uri,
        users: &users,
        selected,
        problem,
    });
    page::html_response(
        status,
        html,
        &page::csp(origin_of(&v.redirect_uri).as_deref()),
    )
}

pub async fn show(State(app): State<Shared>, RawQuery(query): RawQuery) -> Response {
    let pairs = parse_pairs(query.as_deref().unwrap_or(""));
    match check(&app, &pairs) {
        Checked::Refuse(reason) => refuse(reason),
        Checked::RedirectError {
            redirect_uri,
            error,
            description,
            state,
        } => redirect_error(&redirect_uri, error, &description, state.as_deref()),
        Checked::Ok(valid) => consent(&app, &valid, StatusCode::OK, None, None),
    }
}

pub async fn decide(State(app): State<Shared>, form: Result<FormPairs, StatusCode>) -> Response {
    let pairs = match form {
        Ok(FormPairs(p)) => p,
        Err(StatusCode::PAYLOAD_TOO_LARGE) => {
            return page::html_response(
                StatusCode::PAYLOAD_TOO_LARGE,
                page::refusal_html("The form is too large."),
                &page::csp(None),
            )
        }
        Err(_) => return refuse("The form could not be read.".into()),
    };
    let valid = match check(&app, &pairs) {
        Checked::Refuse(reason) => return refuse(reason),
        Checked::RedirectError {
            redirect_uri,
            error,
            description,
            state,
        } => return redirect_error(&redirect_uri, error, &description, state.as_deref()),
        Checked::Ok(v) => v,
    };
    let field = |name: &str| {
        pairs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    let user = field("user");
    match field("decision") {
        Some("deny") => redirect_error(
            &valid.redirect_uri,
            "access_denied",
            "The user denied the request.",
            valid.state.as_deref(),
        ),
        Some("allow") => {
            let code = {
                let mut world = app.write();
                let Some(user_id) = user
                    .and_then(|email| world.db.user_by_email(email))
                    .filter(|u| u.active)
                    .map(|u| u.id)
                else {
                    drop(world);
                    return consent(
                        &app,
                        &valid,
                        StatusCode::BAD_REQUEST,
                        user,
                        Some("Choose a user to sign in as."),
                    );
                };
                world.oauth.issue_code(
                    CLIENT_ID,
                    &valid.redirect_uri,
                    user_id,
                    valid.scopes,
                    valid.code_challenge.clone(),
                )
            };
            Stats::bump(&app.stats.authorization_codes_issued);
            let mut params = vec![("code", code.as_str())];
            if let Some(s) = valid.state.as_deref() {
                params.push(("state", s));
            }
            redirect(&valid.redirect_uri, &params)
        }
        _ => consent(
            &app,
            &valid,
            StatusCode::BAD_REQUEST,
            user,
            Some("Choose Allow or Deny."),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origin_is_extracted_and_sanitized() {
        assert_eq!(
            origin_of("http://127.0.0.1:8080/auth/callback").as_deref(),
            Some("http://127.0.0.1:8080")
        );
        assert_eq!(origin_of("http://evil; script-src *"), None);
        assert_eq!(origin_of("no-scheme"), None);
    }
}
