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

use std::time::{Duration, Instant};

const PATH: &str = "/api/v3/send?per_page=100";

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

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

        let deadline = Instant::now() + Duration::from_secs(secs);
        let started = Instant::now();
        let mut tasks = tokio::task::JoinSet::new();
        for _ in 0..clients {
            let (url, token) = (url.clone(), token.clone());
            tasks.spawn(async move {
                let http = reqwest::Client::new();
                let mut latencies = Vec::new();
                let mut errors = 0u64;
                while Instant::now() < deadline {
                    let t0 = Instant::now();
                    let ok = match http.get(&url).bearer_auth(&token).send().await {
                        Ok(res) if res.status().is_success() => res.bytes().await.is_ok(),
                        _ => false,
                    };
                    if ok {
                        latencies.push(t0.elapsed());
                    } else {
                        errors += 1;
                    }
                }
                (latencies, errors)
            });
        }
        let mut all = Vec::new();
        let mut errors = 0;
        while let Some(done) = tasks.join_next().await {
            let (lat, err) = done.expect("client task");
            all.extend(lat);
            errors += err;
        }
        let elapsed = started.elapsed();
        all.sort();
        let rps = all.len() as f64 / elapsed.as_secs_f64();
        println!("load: GET {PATH} ({body_bytes} bytes), {clients} concurrent clients, {:.1} s on loopback", elapsed.as_secs_f64());
        println!("  requests:   {} ok, {errors} failed", all.len());
        println!("  throughput: {rps:.0} requests/second");
        println!(
            "  latency:    p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            ms(percentile(&all, 50.0)),
            ms(percentile(&all, 99.0)),
            ms(all.last().copied().unwrap_or_default())
        );
        let _ = sandbox.running.stop().await;
        let min_rps = env_or("LOAD_MIN_RPS", 200) as f64;
        let max_p99 = env_or("LOAD_MAX_P99_MS", 1000) as f64;
        let p99 = ms(percentile(&all, 99.0));
        if errors > 0 || rps < min_rps || p99 > max_p99 {
            println!(
                "  over budget: need 0 failed, >= {min_rps:.0} requests/second, p99 <= {max_p99:.0} ms"
            );
            std::process::exit(1);
        }
        println!("  within budget (>= {min_rps:.0} requests/second, p99 <= {max_p99:.0} ms)");
    });
}
