//! One JSON line per request: request id, method, route, status, latency, and what went
//! wrong upstream. The route is the endpoint's template (`/api/scim/v2/Users/{id}`), never
//! the path or the query as sent, so no token, code, secret or user data reaches the log.

use std::io::Write as _;
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use axum::extract::{Request, State};
use axum::http::{HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use gifting_api::paths;
use rand::RngCore as _;
use serde::Serialize;

pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Where log lines go: stderr, or memory (tests read what was logged).
#[derive(Clone, Debug, Default)]
pub enum LogSink {
    #[default]
    Stderr,
    Memory(Arc<Mutex<Vec<String>>>),
}

impl LogSink {
    pub fn memory() -> (LogSink, Arc<Mutex<Vec<String>>>) {
        let lines = Arc::new(Mutex::new(Vec::new()));
        (LogSink::Memory(lines.clone()), lines)
    }

    pub fn write<T: Serialize>(&self, entry: &T) {
        let Ok(line) = serde_json::to_string(entry) else {
            return;
        };
        match self {
            LogSink::Stderr => {
                let _ = writeln!(std::io::stderr().lock(), "{line}");
            }
            LogSink::Memory(lines) => lines.lock().unwrap_or_else(|e| e.into_inner()).push(line),
        }
    }

    /// A line about the gateway itself rather than one request.
    pub fn event(&self, level: &str, message: &str) {
        self.write(&serde_json::json!({ "ts_ms": now_ms(), "level": level, "event": message }));
    }
}

/// The id of one request: in the log line, the response's `x-request-id`, and the request
/// to the platform, so one request can be followed across both.
#[derive(Clone, Debug)]
pub struct RequestId(pub String);

/// Set on a response by the relays when the platform was not reached or did not answer.
#[derive(Clone, Copy, Debug)]
pub struct UpstreamFailure(pub &'static str);

#[derive(Serialize)]
struct Line<'a> {
    ts_ms: u64,
    level: &'static str,
    request_id: &'a str,
    method: &'a str,
    route: &'static str,
    status: u16,
    latency_ms: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    upstream: Option<&'static str>,
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

/// The route a path belongs to, as a template: the only request detail that is logged.
pub fn route_label(path: &str) -> &'static str {
    match path {
        paths::OAUTH_TOKEN => paths::OAUTH_TOKEN,
        paths::OAUTH_REVOKE => paths::OAUTH_REVOKE,
        paths::OAUTH_AUTHORIZE => paths::OAUTH_AUTHORIZE,
        "/healthz" => "/healthz",
        "/readyz" => "/readyz",
        "/config.json" => "/config.json",
        _ if path == "/api" || path.starts_with("/api/") => {
            paths::match_api_route(path).map_or("/api (unknown)", |r| r.template)
        }
        _ if path.starts_with("/oauth/") => "/oauth (unknown)",
        _ => "static",
    }
}

fn new_request_id() -> String {
    let mut bytes = [0u8; 8];
    rand::rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The request log, as middleware with the sink as its state.
pub async fn request_log(State(log): State<LogSink>, mut req: Request, next: Next) -> Response {
    let start = Instant::now();
    let id = new_request_id();
    let method = req.method().clone();
    let route = route_label(req.uri().path());
    req.extensions_mut().insert(RequestId(id.clone()));
    let mut res = next.run(req).await;
    if let Ok(value) = HeaderValue::from_str(&id) {
        res.headers_mut().insert(REQUEST_ID, value);
    }
    let status = res.status().as_u16();
    let level = if status >= 500 { "warn" } else { "info" };
    log.write(&Line {
        ts_ms: now_ms(),
        level,
        request_id: &id,
        method: method.as_str(),
        route,
        status,
        latency_ms: (start.elapsed().as_secs_f64() * 10_000.0).round() / 10.0,
        upstream: res.extensions().get::<UpstreamFailure>().map(|u| u.0),
    });
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_are_templates_never_what_was_sent() {
        assert_eq!(route_label("/oauth/revoke"), "/oauth/revoke");
        assert_eq!(
            route_label("/api/scim/v2/Users/1042"),
            "/api/scim/v2/Users/{id}"
        );
        assert_eq!(route_label("/api/v3/send"), "/api/v3/send");
        assert_eq!(route_label("/api/v3/secret-path-abc"), "/api (unknown)");
        assert_eq!(route_label("/oauth/evil"), "/oauth (unknown)");
        assert_eq!(route_label("/users/1042"), "static");
    }

    #[test]
    fn request_ids_differ() {
        let a = new_request_id();
        assert_eq!(a.len(), 16);
        assert_ne!(a, new_request_id());
    }
}
