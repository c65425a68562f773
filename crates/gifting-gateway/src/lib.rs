//! The gateway: the console's production server, for a platform that demands a client
//! secret and does not serve the console's origin with CORS.
//!
//! One origin serves everything the browser needs: the built console (the shared
//! [`gifting_web::site`] code), `/config.json` pointing the console at this origin, the token
//! relay ([`oauth`]) that adds the client secret the browser must never hold, and the API
//! relay ([`api`]). It keeps no session and no token, so replicas need nothing in common.
//!
//! The layers point one way: [`config`] → [`log`] → [`state`] → [`upstream`] → the areas
//! ([`ops`], [`oauth`], [`api`]) → [`app`] (`scripts/check-layers.mjs` checks it).

pub mod api;
pub mod config;
pub mod log;
pub mod oauth;
pub mod ops;
pub mod state;
pub mod upstream;

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::time::Duration;

use axum::middleware::from_fn_with_state;
use axum::response::{IntoResponse, Response};
use axum::Router;
use gifting_web::background::Running;
use gifting_web::errors::ApiError;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tower_http::catch_panic::CatchPanicLayer;

pub use config::{ClientSecret, Config, Flags};
pub use log::LogSink;
pub use state::{Gateway, Shared};

/// Every route, behind the security headers and the request log.
pub fn app(gw: Shared) -> Router {
    let config = &gw.config;
    let site = gifting_web::site::console_files(Some(&config.static_dir), &gw.csp);
    let router = Router::new()
        .merge(ops::router())
        .merge(oauth::router(&gw))
        .merge(api::router())
        .merge(site);
    gifting_web::security::with_security_headers(router, config.tls)
        .layer(CatchPanicLayer::custom(panic_response))
        .layer(from_fn_with_state(gw.log.clone(), log::request_log))
        .with_state(gw)
}

/// A bug answers 500 with a JSON message and no details, instead of dropping the connection.
fn panic_response(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    ApiError::new(
        axum::http::StatusCode::INTERNAL_SERVER_ERROR,
        "The gateway hit an internal error.",
    )
    .into_response()
}

/// Serves until `shutdown` resolves, then stops accepting and lets the requests in flight
/// finish: up to the platform timeout and a little more, after which it returns anyway.
pub async fn serve(
    listener: TcpListener,
    gw: Shared,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let drain = gw.config.timeout + Duration::from_secs(5);
    let log = gw.log.clone();
    let (stopping, mut stopped) = watch::channel(false);
    let signal = async move {
        shutdown.await;
        let _ = stopping.send(true);
    };
    let service = app(gw).into_make_service_with_connect_info::<SocketAddr>();
    let server = axum::serve(listener, service).with_graceful_shutdown(signal);
    let deadline = async move {
        if stopped.wait_for(|s| *s).await.is_ok() {
            tokio::time::sleep(drain).await;
        } else {
            std::future::pending::<()>().await;
        }
    };
    tokio::select! {
        result = server => result,
        () = deadline => {
            log.event("warn", "some requests did not finish in time after the stop signal");
            Ok(())
        }
    }
}

/// A gateway running in the background of the current tokio runtime (tests and benches).
pub type RunningGateway = Running<Shared>;

/// Binds `config.addr` and serves in a background task.
pub async fn spawn(config: Config, log: LogSink) -> io::Result<RunningGateway> {
    let listener = TcpListener::bind(config.addr).await?;
    let gateway = Gateway::new(config, log).map_err(io::Error::other)?;
    Running::spawn(listener, gateway, serve)
}
