//! `gifting-gateway`: see `--help` and README's "Deploy" section.

use std::io::Write as _;
use std::process::ExitCode;

use clap::Parser as _;
use gifting_gateway::config::SECRET_ENV;
use gifting_gateway::{serve, serve_metrics, Config, Flags, Gateway, Log};
use tokio::net::TcpListener;

fn fail(message: &str) -> ExitCode {
    eprintln!("gifting-gateway: {message}");
    ExitCode::FAILURE
}

#[tokio::main]
async fn main() -> ExitCode {
    let flags = Flags::parse();
    let config = match Config::from_flags(flags, std::env::var(SECRET_ENV).ok()) {
        Ok(c) => c,
        Err(e) => return fail(&e),
    };
    let listener = match TcpListener::bind(config.addr).await {
        Ok(l) => l,
        Err(e) => return fail(&format!("cannot listen on {}: {e}", config.addr)),
    };
    let addr = match listener.local_addr() {
        Ok(a) => a,
        Err(e) => return fail(&e.to_string()),
    };
    let metrics = match config.metrics_addr {
        Some(at) => match TcpListener::bind(at).await {
            Ok(l) => Some(l),
            Err(e) => return fail(&format!("cannot listen on --metrics-addr {at}: {e}")),
        },
        None => None,
    };
    let log = Log::stderr();
    log.install_as_default();
    for warning in &config.warnings {
        tracing::warn!("{warning}");
    }
    let gateway = match Gateway::new(config, log.clone()) {
        Ok(g) => g,
        Err(e) => return fail(&format!("cannot set up the platform client: {e}")),
    };
    if let Some(listener) = metrics {
        if let Ok(at) = listener.local_addr() {
            tracing::info!(metrics = %format!("http://{at}/metrics"), "serving metrics");
        }
        // Ends with the process: scrapes keep working while the public listener drains.
        tokio::spawn(serve_metrics(
            listener,
            gateway.clone(),
            std::future::pending(),
        ));
    }
    // stdout carries only this line (scripts and tests wait for it); the log goes to stderr.
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "gifting-gateway listening on http://{addr}");
    let _ = out.flush();
    drop(out);
    let shutdown = async move {
        gifting_web::shutdown_signal().await;
        tracing::info!("shutting down: draining requests in flight");
    };
    match serve(listener, gateway, shutdown).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(&e.to_string()),
    }
}
