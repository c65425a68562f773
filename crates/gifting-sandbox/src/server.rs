//! The connection loop. axum's own `serve` cannot drop a connection on purpose, and the
//! fault injector needs exactly that, so connections are served with hyper directly: a
//! response marked [`DropConnection`] becomes a service error, on which hyper closes the
//! connection without answering, a real reset as a client sees it.

use std::future::Future;
use std::io;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, Response};
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
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

/// How long in-flight requests may take to finish after a shutdown signal.
const DRAIN: Duration = Duration::from_secs(5);

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
    let res = match router.oneshot(req.map(Body::new)).await {
        Ok(res) => res,
        Err(never) => match never {},
    };
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    if res.extensions().get::<DropConnection>().is_some() {
        tracing::info!(%method, %path, status = "dropped", ms = format_args!("{ms:.1}"), "request");
        return Err(DroppedOnPurpose);
    }
    tracing::info!(
        %method,
        %path,
        status = res.status().as_u16(),
        ms = format_args!("{ms:.1}"),
        "request"
    );
    Ok(res)
}

/// Serves `router` on `listener` until `shutdown` completes, then lets in-flight requests
/// finish (up to a few seconds) and returns.
pub async fn run(
    listener: TcpListener,
    router: Router,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of file descriptors and the like: back off instead of spinning.
                    tracing::warn!("accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let service = hyper::service::service_fn(move |req| handle(router.clone(), req));
        let conn = http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(Duration::from_secs(30))
            .serve_connection(TokioIo::new(stream), service);
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            // Errors here are clients going away or injected drops: nothing to do.
            let _ = conn.await;
        });
    }
    drop(listener);
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(DRAIN) => tracing::warn!("some connections did not finish in time"),
    }
    Ok(())
}
