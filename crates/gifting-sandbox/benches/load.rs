//! Load benchmark: `cargo bench -p gifting-sandbox --bench load` (or `make bench`).
//!
//! Starts the sandbox in-process on a free loopback port, signs in through the real OAuth
//! flow (consent page, code, PKCE exchange), then has 64 concurrent clients request
//! `GET /api/v3/send?per_page=100` for a few seconds and prints requests per second and
//! latency percentiles. `LOAD_SECS` and `LOAD_CLIENTS` override the defaults.
//!
//! Budget (exit 1 when missed): at least `LOAD_MIN_RPS` requests/second (default 200) and a
//! p99 of at most `LOAD_MAX_P99_MS` (default 1000). Generous on purpose: the machine has two
//! cores shared by the clients and the server, and it only has to catch a gross regression.

#[path = "../tests/common/mod.rs"]
mod common;

mod drive;

use common::Server;
use drive::{drive, env_or};

const PATH: &str = "/api/v3/send?per_page=100";

fn main() {
    // `cargo bench` passes `--bench`; any other argument is a filter this bench ignores.
    let secs = env_or("LOAD_SECS", 5);
    let clients = env_or("LOAD_CLIENTS", 64) as usize;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    rt.block_on(async move {
        let sandbox = common::start().await;
        let token = sandbox
            .sign_in_pkce("admin@example.com", "scim marketplace")
            .await
            .access_token;
        let url = sandbox.at(PATH);
        // Warm-up, and a check that the endpoint answers what we think.
        let first = reqwest::Client::new()
            .get(&url)
            .bearer_auth(&token)
            .send()
            .await
            .expect("warm-up request");
        assert!(first.status().is_success(), "warm-up: {}", first.status());
        let body_bytes = first.bytes().await.map(|b| b.len()).unwrap_or(0);

        let report = drive(&url, &token, clients, secs).await;
        let rps = report.rps();
        let errors = report.errors;
        println!(
            "load: GET {PATH} ({body_bytes} bytes), {clients} concurrent clients, {:.1} s on loopback",
            report.elapsed.as_secs_f64()
        );
        println!("  requests:   {} ok, {errors} failed", report.latencies.len());
        println!("  throughput: {rps:.0} requests/second");
        println!(
            "  latency:    p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            report.p(50.0),
            report.p(99.0),
            report.max()
        );
        let _ = sandbox.running.stop().await;
        let min_rps = env_or("LOAD_MIN_RPS", 200) as f64;
        let max_p99 = env_or("LOAD_MAX_P99_MS", 1000) as f64;
        let p99 = report.p(99.0);
        if errors > 0 || rps < min_rps || p99 > max_p99 {
            println!(
                "  over budget: need 0 failed, >= {min_rps:.0} requests/second, p99 <= {max_p99:.0} ms"
            );
            std::process::exit(1);
        }
        println!("  within budget (>= {min_rps:.0} requests/second, p99 <= {max_p99:.0} ms)");
    });
}
