//! The connection loop. axum's own `serve` cannot drop a connection on purpose, and the
//! fault injector needs exactly that, so connections are served by the shared loop
//! ([`gifting_web::serve`]): a response marked [`DropConnection`] becomes a service error, on
//! which hyper closes the connection without answering, a real reset as a client sees it.

use std::future::Future;
use std::io;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{HeaderMap, Request, Response};
use axum::Router;
use gifting_web::log::RequestLine;
use gifting_web::serve::Limits;
use hyper::body::Incoming;
use tokio::net::TcpListener;
use tower::ServiceExt as _;

use crate::faults::DropConnection;

/// The error that makes hyper abandon a connection.
#[derive(Debug)]
pub struct DroppedOnPurpose;

impl std::fmt::Display for DroppedOnPurpose {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("connection dropped by fault injection")
    }
}

impl std::error::Error for DroppedOnPurpose {}

const LIMITS: Limits = Limits {
    header_read: Duration::from_secs(30),
    // How long in-flight requests may take to finish after a shutdown signal.
    drain: Duration::from_secs(5),
};

/// The gateway's `x-request-id` (16 hex digits), so one request can be followed across both
/// logs; anything else a client sends there is not logged.
fn relayed_request_id(headers: &HeaderMap) -> Option<String> {
    let id = headers.get("x-request-id")?.to_str().ok()?;
    (id.len() <= 32 && id.bytes().all(|b| b.is_ascii_hexdigit())).then(|| id.to_owned())
}

/// One request: route it, log it (method, path without the query, status, time: the query
/// can hold a token, e.g. `/oauth/revoke?token=`, so it is never logged), and turn a
/// drop marker into a dropped connection.
async fn handle(
    router: Router,
    req: Request<Incoming>,
) -> Result<Response<Body>, DroppedOnPurpose> {
    let start = Instant::now();
    let method = req.method().clone();
    let path = req.uri().path().to_owned();
    let request_id = relayed_request_id(req.headers());
    let res = match router.oneshot(req.map(Body::new)).await {
        Ok(res) => res,
        Err(never) => match never {},
    };
    let dropped = res.extensions().get::<DropConnection>().is_some();
    RequestLine {
        request_id: request_id.as_deref(),
        method: method.as_str(),
        route: &path,
        status: (!dropped).then_some(res.status().as_u16()),
        latency_ms: start.elapsed().as_secs_f64() * 1000.0,
        upstream: None,
    }
    .write();
    if dropped {
        return Err(DroppedOnPurpose);
    }
    Ok(res)
}

/// Serves `router` on `listener` until `shutdown` completes, then lets in-flight requests
/// finish (up to a few seconds) and returns.
pub async fn run(
    listener: TcpListener,
    router: Router,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let handle = move |req, _peer| handle(router.clone(), req);
    if !gifting_web::serve::run(listener, handle, LIMITS, || {}, shutdown).await? {
        tracing::warn!("some connections did not finish in time");
    }
    Ok(())
}
