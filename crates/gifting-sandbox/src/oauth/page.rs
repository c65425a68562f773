//! The HTML of the sign-in/consent page and of the refusal page.
//!
//! Every value that comes from the request or the data goes through [`escape`]. The page
//! has no script and no inline style: it runs under `default-src 'none'` with one stylesheet
//! served from the sandbox itself.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::html::escape;
use crate::stores::scope::Scopes;

/// One user the visitor can sign in as.
pub struct Choice {
    pub email: String,
    pub name: String,
    pub role: String,
}

/// The consent page's inputs.
pub struct ConsentPage<'a> {
    pub client_id: &'a str,
    /// The authorization request's parameters, echoed as hidden fields.
    pub hidden: &'a [(&'static str, String)],
    pub scopes: Scopes,
    pub redirect_uri: &'a str,
    pub users: &'a [Choice],
    pub selected: Option<&'a str>,
    pub problem: Option<&'a str>,
}

const STYLESHEET_PATH: &str = "/oauth/consent.css";
/// Named in the page, so browsers do not ask for a `/favicon.ico` that does not exist.
pub const ICON_PATH: &str = "/oauth/icon.svg";

/// The platform's mark on its sign-in page.
pub const ICON: &str = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 32 32\">\
<circle cx=\"16\" cy=\"16\" r=\"14\" fill=\"#0f766e\"/>\
<path d=\"M10 16l4 4 8-9\" fill=\"none\" stroke=\"#fff\" stroke-width=\"3\"/></svg>";

fn head(title: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<link rel=\"stylesheet\" href=\"{STYLESHEET_PATH}\">\n\
         <link rel=\"icon\" href=\"{ICON_PATH}\">\n</head>\n",
        escape(title)
    )
}

pub fn consent_html(p: &ConsentPage<'_>) -> String {
    let mut html = head("Sign in: Gifting platform sandbox");
    html.push_str("<body>\n<main id=\"main\">\n<h1>Sign in to the gifting platform</h1>\n");
    html.push_str(
        "<p class=\"note\">This is the local sandbox: pick a seeded user to sign in as.</p>\n",
    );
    if let Some(problem) = p.problem {
        html.push_str(&format!(
            "<p class=\"problem\" role=\"alert\">{}</p>\n",
            escape(problem)
        ));
    }
    html.push_str(&format!(
        "<p>The application <strong>{}</strong> asks for these permissions:</p>\n<ul class=\"scopes\">\n",
        escape(p.client_id)
    ));
    for (name, what) in p.scopes.describe() {
        html.push_str(&format!(
            "<li><code>{}</code>: {}</li>\n",
            escape(name),
            escape(what)
        ));
    }
    html.push_str("</ul>\n<form method=\"post\" action=\"/oauth/authorize\">\n");
    for (name, value) in p.hidden {
        html.push_str(&format!(
            "<input type=\"hidden\" name=\"{}\" value=\"{}\">\n",
            escape(name),
            escape(value)
        ));
    }
    html.push_str("<fieldset>\n<legend>Sign in as</legend>\n");
    let selected = p.selected.unwrap_or("admin@example.com");
    for (i, u) in p.users.iter().enumerate() {
        let checked = if u.email.eq_ignore_ascii_case(selected) {
            " checked"
        } else {
            ""
        };
        html.push_str(&format!(
            "<div class=\"user\"><input type=\"radio\" id=\"user-{i}\" name=\"user\" value=\"{}\" required{checked}>\
             <label for=\"user-{i}\">{} <span class=\"who\">({}, {})</span></label></div>\n",
            escape(&u.email),
            escape(&u.email),
            escape(&u.name),
            escape(&u.role)
        ));
    }
    html.push_str("</fieldset>\n");
    html.push_str(&format!(
        "<p>After your decision you return to <code>{}</code>.</p>\n",
        escape(p.redirect_uri)
    ));
    html.push_str(
        "<div class=\"actions\">\n\
         <button type=\"submit\" name=\"decision\" value=\"allow\">Allow</button>\n\
         <button type=\"submit\" name=\"decision\" value=\"deny\">Deny</button>\n\
         </div>\n</form>\n</main>\n</body>\n</html>\n",
    );
    html
}

/// A refused authorization request that must not redirect (bad client or redirect URI).
pub fn refusal_html(reason: &str) -> String {
    let mut html = head("Sign-in request refused: Gifting platform sandbox");
    html.push_str(&format!(
        "<body>\n<main id=\"main\">\n<h1>Sign-in request refused</h1>\n\
         <p class=\"problem\" role=\"alert\">{}</p>\n\
         <p>The application that sent you here is misconfigured. Nothing was shared with it.</p>\n\
         </main>\n</body>\n</html>\n",
        escape(reason)
    ));
    html
}

/// The page's own policy: nothing may load but the stylesheet, the form may post only to the
/// sandbox and redirect on to the validated client origin, and no one may frame it
/// (clickjacking a consent button is the classic attack on this page).
pub fn csp(form_target_origin: Option<&str>) -> String {
    let extra = form_target_origin
        .map(|o| format!(" {o}"))
        .unwrap_or_default();
    format!(
        "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'{extra}; \
         base-uri 'none'; frame-ancestors 'none'"
    )
}

pub fn html_response(status: StatusCode, body: String, csp_value: &str) -> Response {
    let mut res = (status, body).into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Ok(v) = HeaderValue::from_str(csp_value) {
        h.insert(header::CONTENT_SECURITY_POLICY, v);
    }
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    res
}

pub const STYLESHEET: &str = r#"
:root { color-scheme: light dark; --accent: #1f5fbf; --problem: #a4161a; }
body { font: 16px/1.5 system-ui, sans-serif; margin: 0; padding: 1rem; }
main { max-width: 40rem; margin: 0 auto; }
h1 { font-size: 1.5rem; }
.note { opacity: 0.8; }
.problem { border-left: 4px solid var(--problem); padding: 0.5rem 0.75rem; font-weight: 600; }
fieldset { border: 1px solid currentColor; border-radius: 6px; padding: 0.5rem 1rem; max-height: 24rem; overflow: auto; }
.user { display: flex; gap: 0.5rem; align-items: baseline; padding: 0.2rem 0; overflow-wrap: anywhere; }
.who { opacity: 0.8; }
.actions { display: flex; gap: 1rem; margin-top: 1rem; }
button { font: inherit; padding: 0.5rem 1.25rem; border-radius: 6px; border: 2px solid var(--accent); cursor: pointer; }
button[value="allow"] { background: var(--accent); color: #fff; }
button:focus-visible, input:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_everything_user_derived() {
        let users = [Choice {
            email: "x@example.com".into(),
            name: "<script>alert(1)</script>".into(),
            role: "admin".into(),
        }];
        let hidden = [("state", "\"><img src=x onerror=alert(1)>".to_string())];
        let html = consent_html(&ConsentPage {
            client_id: "gifting-console",
            hidden: &hidden,
            scopes: Scopes::ALL,
            redirect_uri: "http://127.0.0.1:1/auth/callback",
            users: &users,
            selected: None,
            problem: None,
        });
        assert!(!html.contains("<script>"));
        assert!(!html.contains("<img"));
        assert!(html.contains("&lt;script&gt;"));
        assert!(!html.contains("style="));
    }
}
