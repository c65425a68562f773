//! The serving code the sandbox and the gateway share, written once: hosting the built
//! console ([`site`]), the security headers around it ([`security`]), the error body of each
//! API family ([`errors`]), the origin a request came in on ([`origin`]) and a fixed-window
//! rate limiter ([`limit`]), the connection loop with its timeouts ([`serve`]), the JSON log
//! ([`log`]), the signal that stops either server, and either one running in the background
//! for tests and benches ([`background`]).

pub mod background;
pub mod errors;
pub mod limit;
pub mod log;
pub mod origin;
pub mod security;
pub mod serve;
pub mod site;

/// Ctrl-C, or SIGTERM (what `kill`, systemd and container runtimes send): either starts a
/// graceful shutdown.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}
