//! The gateway: the console's production server, for a platform that demands a client
//! secret and does not serve the console's origin with CORS.
//!
//! One origin serves everything the browser needs: the built console (the shared
//! [`gifting_web::site`] code), `/config.json` pointing the console at this origin, the token
//! relay ([`oauth`]) that adds the client secret the browser must never hold, and the API
//! relay ([`api`]). It keeps no session and no token, so replicas need nothing in common.
//!
//! The layers point one way: [`config`] → [`telemetry`] → [`log`] → [`current_user`] →
//! [`state`] → [`upstream`] → the areas ([`ops`], [`oauth`], [`members`], [`api`]) → [`app`]
//! (`scripts/check-layers.mjs` checks it).

pub mod api;
pub mod config;
pub mod current_user;
pub mod log;
pub mod members;
pub mod oauth;
pub mod ops;
pub mod state;
pub mod telemetry;
pub mod upstream;

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{header, HeaderValue};
use axum::middleware::from_fn_with_state;
use axum::response::{IntoResponse, Response};
use axum::Router;
use gifting_web::background::Running;
use gifting_web::errors::ApiError;
use gifting_web::serve::Limits;
use tokio::net::TcpListener;
use tower::ServiceExt as _;
use tower_http::catch_panic::CatchPanicLayer;

pub use config::{ClientSecret, Config, Flags};
pub use gifting_web::log::Log;
pub use state::{Gateway, Shared};

/// Every route, behind the security headers (which the answer to a panic gets too) and the
/// request log.
pub fn app(gw: Shared) -> Router {
    let config = &gw.config;
    let site = gifting_web::site::console_files(Some(&config.static_dir), &gw.csp);
    let router = Router::new()
        .merge(ops::router())
        .merge(oauth::router(&gw))
        .merge(api::router())
        .merge(site)
        .layer(CatchPanicLayer::custom(panic_response));
    gifting_web::security::with_security_headers(router, config.tls)
        .layer(from_fn_with_state(
            (gw.log.clone(), gw.telemetry.clone()),
            log::request_log,
        ))
        .with_state(gw)
}

/// A bug answers 500 with a JSON message and no details, instead of dropping the connection.
/// Never stored either, as no answer under `/api` is (this one leaves outside the api area's
/// layers).
fn panic_response(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let mut res = ApiError::new(
        axum::http::StatusCode::INTERNAL_SERVER_ERROR,
        "The gateway hit an internal error.",
    )
    .into_response();
    let headers = res.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(header::PRAGMA, HeaderValue::from_static("no-cache"));
    res
}

/// Both listeners give a client the same `--header-timeout-secs` to send a request head;
/// only how long they drain after the stop signal differs.
fn limits(gw: &Shared, drain: Duration) -> Limits {
    Limits {
        header_read: gw.config.header_timeout,
        drain,
    }
}

/// Serves until `shutdown` resolves, then stops accepting and lets the requests in flight
/// finish: up to the platform timeout and a little more, after which it returns anyway. A
/// client gets `--header-timeout-secs` to send each request head; the handlers that read a
/// body give it `--body-timeout-secs`.
pub async fn serve(
    listener: TcpListener,
    gw: Shared,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let limits = limits(&gw, gw.config.timeout + Duration::from_secs(5));
    let log = gw.log.clone();
    let telemetry = gw.telemetry.clone();
    let head_timed_out = move || telemetry.closed_slow(telemetry::Slow::Head);
    let router = app(gw);
    let handle = move |req: axum::http::Request<hyper::body::Incoming>, peer: SocketAddr| {
        let mut req = req.map(Body::new);
        req.extensions_mut().insert(ConnectInfo(peer));
        router.clone().oneshot(req)
    };
    let finished =
        gifting_web::serve::run(listener, handle, limits, head_timed_out, shutdown).await?;
    if !finished {
        log.now(|| tracing::warn!("some requests did not finish in time after the stop signal"));
    }
    Ok(())
}

/// Serves `GET /metrics` on `listener` (the `--metrics-addr` one, apart from the public
/// listener) until `shutdown` resolves. It keeps answering while the public listener drains,
/// so the last scrape sees the drain.
pub async fn serve_metrics(
    listener: TcpListener,
    gw: Shared,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let limits = limits(&gw, Duration::from_secs(1));
    let router = telemetry::router(gw.telemetry.clone());
    let handle = move |req: axum::http::Request<hyper::body::Incoming>, _: SocketAddr| {
        router.clone().oneshot(req.map(Body::new))
    };
    gifting_web::serve::run(listener, handle, limits, || {}, shutdown).await?;
    Ok(())
}

/// A gateway running in the background of the current tokio runtime (tests and benches).
pub type RunningGateway = Running<Shared>;

/// Binds `config.addr` and serves in a background task.
pub async fn spawn(config: Config, log: Log) -> io::Result<RunningGateway> {
    let listener = TcpListener::bind(config.addr).await?;
    let gateway = Gateway::new(config, log).map_err(io::Error::other)?;
    Running::spawn(listener, gateway, serve)
}
