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

/// `, resident 180 MB (peak 190 MB)` from /proc/self/status, where there is one (Linux).
fn memory() -> String {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
        return String::new();
    };
    let mb = |key: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .map(|kb| kb / 1024)
    };
    match (mb("VmRSS:"), mb("VmHWM:")) {
        (Some(rss), Some(peak)) => format!(", resident {rss} MB (peak {peak} MB)"),
        _ => String::new(),
    }
}

/// The CPU time this thread has had, from /proc (Linux): on a machine whose cores are shared,
/// it tells the generator's own cost from the time spent waiting for a core.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

#[tokio::main]
async fn main() -> ExitCode {
    let config = Config::parse();
    // JSON lines on stderr, as the gateway writes them; stdout carries only the "listening
    // on" line tests wait for.
    gifting_web::log::Log::stderr().install_as_default();
    let requested = config.addr;
    let cpu_before = cpu_seconds();
    let (listener, state) = match bind(config).await {
        Ok(bound) => bound,
        Err(e) => {
            eprintln!("gifting-sandbox: cannot listen on {requested}: {e}");
            return ExitCode::FAILURE;
        }
    };
    // On stderr: stdout carries only the "listening on" line.
    let cpu = match (cpu_before, cpu_seconds()) {
        (Some(before), Some(after)) => format!(" ({:.2} s of CPU)", after - before),
        _ => String::new(),
    };
    eprintln!(
        "gifting-sandbox: {}{cpu}{}",
        state.world_summary(),
        memory()
    );
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
