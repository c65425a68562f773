//! The connection loop both servers run, with hyper directly: `axum::serve` sets no
//! header-read timeout, so a client that opens a connection and sends half a request head (or
//! nothing) would hold it forever. Here the head must arrive within
//! [`Limits::header_read`] or the connection is closed; a request body is bounded by the
//! handlers that read it (the gateway's `--body-timeout-secs`).
//!
//! The service may answer with an error on purpose: hyper then closes the connection without
//! an answer (the sandbox's injected drops).
//!
//! The answers hyper writes by itself to a head it cannot parse (400, 414, 431) get the
//! security headers on their way out (`serve/own_answers.rs`).

mod own_answers;

use std::error::Error as StdError;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, Response};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;

use own_answers::{OwnAnswers, Phase, Watched};

/// How long a connection may take over its parts.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// From the moment the server waits for a request head (a new connection, or the next
    /// request on a kept-alive one) until the whole head has arrived.
    pub header_read: Duration,
    /// After the stop signal, how long requests in flight may take to finish.
    pub drain: Duration,
}

/// Serves connections from `listener` with `handle(request, peer)` until `shutdown`
/// resolves; then stops accepting, lets requests in flight finish (closing idle connections
/// at once) for at most `limits.drain`, and returns `true` if everything finished in time.
/// `head_timed_out()` is called each time a connection is closed because a request head did
/// not arrive within `limits.header_read` (for a metric; `|| {}` where none is kept).
pub async fn run<H, F, E>(
    listener: TcpListener,
    handle: H,
    limits: Limits,
    head_timed_out: impl Fn() + Clone + Send + 'static,
    shutdown: impl Future<Output = ()>,
) -> io::Result<bool>
where
    H: Fn(Request<Incoming>, SocketAddr) -> F + Clone + Send + Sync + 'static,
    F: Future<Output = Result<Response<Body>, E>> + Send + 'static,
    E: Into<Box<dyn StdError + Send + Sync>>,
{
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
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
        let phase = Phase::default();
        let io = OwnAnswers::new(stream, phase.clone());
        let handle = handle.clone();
        let service = hyper::service::service_fn(move |req| {
            let busy = phase.busy();
            let answer = handle(req, peer);
            let phase = phase.clone();
            async move { Ok::<_, E>(answer.await?.map(|body| Watched::new(body, phase, busy))) }
        });
        let conn = http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(limits.header_read)
            .serve_connection(TokioIo::new(io), service);
        let conn = graceful.watch(conn);
        let head_timed_out = head_timed_out.clone();
        tokio::spawn(async move {
            // Errors here are clients going away, timeouts or drops on purpose; only the
            // header-read timeout is the server's doing.
            if let Err(e) = conn.await {
                if e.is_timeout() {
                    head_timed_out();
                }
            }
        });
    }
    drop(listener);
    Ok(tokio::select! {
        () = graceful.shutdown() => true,
        () = tokio::time::sleep(limits.drain) => false,
    })
}
