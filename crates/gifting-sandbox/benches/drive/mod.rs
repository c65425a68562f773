//! The load driver of the benches: N concurrent clients send one GET with a bearer token
//! for a fixed time; the report has every successful latency and the failures. Used by the
//! sandbox's `load` bench and the gateway's `overhead` bench (`#[path]`-included).
#![allow(dead_code)]

use std::time::{Duration, Instant};

pub fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

pub struct Report {
    /// Latencies of the successful requests, sorted.
    pub latencies: Vec<Duration>,
    pub errors: u64,
    pub elapsed: Duration,
}

impl Report {
    pub fn rps(&self) -> f64 {
        self.latencies.len() as f64 / self.elapsed.as_secs_f64()
    }

    /// The latency at percentile `p` (0–100), in milliseconds.
    pub fn p(&self, p: f64) -> f64 {
        let sorted = &self.latencies;
        if sorted.is_empty() {
            return 0.0;
        }
        let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
        ms(sorted[rank.clamp(1, sorted.len()) - 1])
    }

    pub fn max(&self) -> f64 {
        ms(self.latencies.last().copied().unwrap_or_default())
    }
}

/// `clients` concurrent clients, each with its own connection pool, GET `url` for `secs`.
pub async fn drive(url: &str, token: &str, clients: usize, secs: u64) -> Report {
    let deadline = Instant::now() + Duration::from_secs(secs);
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..clients {
        let (url, token) = (url.to_owned(), token.to_owned());
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
    let mut report = Report {
        latencies: Vec::new(),
        errors: 0,
        elapsed: Duration::ZERO,
    };
    while let Some(done) = tasks.join_next().await {
        let (lat, err) = done.expect("client task");
        report.latencies.extend(lat);
        report.errors += err;
    }
    report.elapsed = started.elapsed();
    report.latencies.sort();
    report
}
