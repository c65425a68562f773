//! `gifting-sandbox`: see `--help`.

use std::io::{IsTerminal as _, Write as _};
use std::process::ExitCode;

use clap::Parser as _;
use gifting_sandbox::{bind, serve, Config};
use tracing_subscriber::EnvFilter;

/// The shared stop signal, logged.
async fn shutdown_signal() {
    gifting_web::shutdown_signal().await;
    tracing::info!("shutting down");
}

#[tokio::main]
async fn main() -> ExitCode {
    let config = Config::parse();
    // Logs go to stderr; stdout carries only the "listening on" line tests wait for.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .init();
    let requested = config.addr;
    let (listener, state) = match bind(config).await {
        Ok(bound) => bound,
        Err(e) => {
            eprintln!("gifting-sandbox: cannot listen on {requested}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let addr = match listener.local_addr() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("gifting-sandbox: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "gifting-sandbox listening on http://{addr}");
    let _ = out.flush();
    drop(out);
    match serve(listener, state, shutdown_signal()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gifting-sandbox: {e}");
            ExitCode::FAILURE
        }
    }
}
