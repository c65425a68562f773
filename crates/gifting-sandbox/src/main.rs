//! `gifting-sandbox`: see `--help`.

use std::io::Write as _;
use std::process::ExitCode;

use clap::Parser as _;
use gifting_sandbox::{bind, serve, Config};

/// The shared stop signal, logged.
async fn shutdown_signal() {
    gifting_web::shutdown_signal().await;
    tracing::info!("shutting down");
}

#[tokio::main]
async fn main() -> ExitCode {
    let config = Config::parse();
    // JSON lines on stderr, as the gateway writes them; stdout carries only the "listening
    // on" line tests wait for.
    gifting_web::log::Log::stderr().install_as_default();
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
