//! One JSON line per request (see [`gifting_web::log`]): request id, method, route, status,
//! latency, and what went wrong upstream. The route is the endpoint's template
//! (`/api/scim/v2/Users/{id}`), never the path or the query as sent, so no token, code,
//! secret or user data reaches the log.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::{Request, State};
use axum::http::{HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use gifting_api::paths;
use gifting_web::log::{Log, RequestLine};
use rand::RngCore as _;

use crate::telemetry::{Slow, Telemetry};

pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The id of one request: in the log line, the response's `x-request-id`, and the request
/// to the platform, so one request can be followed across both.
#[derive(Clone, Debug)]
pub struct RequestId(pub String);

/// Set on a response by the relays when the platform was not reached or did not answer.
#[derive(Clone, Copy, Debug)]
pub struct UpstreamFailure(pub &'static str);

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

/// The request log and the request metrics, as middleware with the log and the metrics as
/// its state: everything the request's handlers log goes to the same log.
pub async fn request_log(
    State((log, telemetry)): State<(Log, Arc<Telemetry>)>,
    req: Request,
    next: Next,
) -> Response {
    log.scope(logged(&telemetry, req, next)).await
}

async fn logged(telemetry: &Telemetry, mut req: Request, next: Next) -> Response {
    let start = Instant::now();
    let in_flight = telemetry.in_flight();
    let id = new_request_id();
    let method = req.method().clone();
    let route = route_label(req.uri().path());
    req.extensions_mut().insert(RequestId(id.clone()));
    let mut res = next.run(req).await;
    if let Ok(value) = HeaderValue::from_str(&id) {
        res.headers_mut().insert(REQUEST_ID, value);
    }
    RequestLine {
        request_id: Some(&id),
        method: method.as_str(),
        route,
        status: Some(res.status().as_u16()),
        latency_ms: start.elapsed().as_secs_f64() * 1000.0,
        upstream: res.extensions().get::<UpstreamFailure>().map(|u| u.0),
    }
    .write();
    telemetry.request(route, res.status().as_u16(), start.elapsed());
    // Only a body that did not arrive in time is answered 408 (and its connection closed).
    if res.status() == axum::http::StatusCode::REQUEST_TIMEOUT {
        telemetry.closed_slow(Slow::Body);
    }
    drop(in_flight);
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
