//! The gateway's overhead: `cargo bench -p gifting-gateway --bench overhead` (or
//! `make bench`).
//!
//! Starts the sandbox as the platform (demanding the client secret) and a gateway in front
//! of it, both in-process on loopback, signs in, then drives `GET /api/v3/send?per_page=100`
//! with `OVERHEAD_CLIENTS` (default 16) concurrent clients for `OVERHEAD_SECS` (default 4)
//! seconds, first at the sandbox directly, then through the gateway, and prints requests per
//! second, p50 and p99 of each and the gateway's ratios.
//!
//! Budget (exit 1 when missed): no failed request, and through the gateway a p50 and a p99
//! at most `OVERHEAD_MAX_RATIO` (default 3) times the direct ones. On two cores the clients,
//! the gateway and the sandbox share the CPU, so a relay that costs as much as the platform's
//! own work shows as about 2: the bound catches a gateway that buffers, reconnects or
//! serialises requests, not a few hundred microseconds.

#[path = "../../gifting-sandbox/tests/common/mod.rs"]
mod common;

#[path = "../../gifting-sandbox/benches/drive/mod.rs"]
mod drive;

use common::Server;
use drive::{drive, env_or, Report};
use gifting_gateway::{spawn, Config, Log};
use gifting_sandbox::{CLIENT_ID, CLIENT_SECRET};

const PATH: &str = "/api/v3/send?per_page=100";

fn print(label: &str, r: &Report) {
    println!(
        "  {label:<16} {:>6.0} requests/second, p50 {:>6.2} ms, p99 {:>6.2} ms ({} ok, {} failed)",
        r.rps(),
        r.p(50.0),
        r.p(99.0),
        r.latencies.len(),
        r.errors
    );
}

fn main() {
    let secs = env_or("OVERHEAD_SECS", 4);
    let clients = env_or("OVERHEAD_CLIENTS", 16) as usize;
    let max_ratio = env_or("OVERHEAD_MAX_RATIO", 3) as f64;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    let failed = rt.block_on(async move {
        let sandbox = common::start_with(|c| c.require_client_secret = true).await;
        let token = sandbox
            .sign_in("admin@example.com", "scim marketplace")
            .await
            .access_token;
        let dist =
            std::env::temp_dir().join(format!("gifting-gateway-bench-{}", std::process::id()));
        std::fs::create_dir_all(&dist).expect("temp dist");
        std::fs::write(dist.join("index.html"), "<!doctype html>").expect("index.html");
        let config = Config::from_args(
            [
                "gifting-gateway",
                "--addr",
                "127.0.0.1:0",
                "--static",
                dist.to_str().expect("utf-8 path"),
                "--platform-url",
                &sandbox.url,
                "--client-id",
                CLIENT_ID,
            ],
            Some(CLIENT_SECRET.to_owned()),
        )
        .expect("gateway config");
        let gateway = spawn(config, Log::memory().0)
            .await
            .expect("gateway starts");
        let direct_url = sandbox.at(PATH);
        let relayed_url = format!("{}{PATH}", gateway.url());
        // Warm both paths (connection pools, the gateway's pool to the sandbox).
        drive(&direct_url, &token, clients, 1).await;
        drive(&relayed_url, &token, clients, 1).await;
        let direct = drive(&direct_url, &token, clients, secs).await;
        let relayed = drive(&relayed_url, &token, clients, secs).await;
        println!(
            "gateway overhead: GET {PATH}, {clients} concurrent clients, {secs} s each, loopback"
        );
        print("sandbox directly", &direct);
        print("through gateway", &relayed);
        let p50 = relayed.p(50.0) / direct.p(50.0).max(0.001);
        let p99 = relayed.p(99.0) / direct.p(99.0).max(0.001);
        let rps = relayed.rps() / direct.rps().max(0.001);
        println!("  ratio (gateway / direct): p50 {p50:.2}x, p99 {p99:.2}x, throughput {rps:.2}x");
        let _ = gateway.stop().await;
        let _ = sandbox.running.stop().await;
        std::fs::remove_dir_all(dist).ok();
        let failed = direct.errors + relayed.errors > 0 || p50 > max_ratio || p99 > max_ratio;
        if failed {
            println!("  over budget: need 0 failed and p50, p99 ratios <= {max_ratio:.1}");
        } else {
            println!("  within budget (0 failed, p50 and p99 ratios <= {max_ratio:.1})");
        }
        failed
    });
    if failed {
        std::process::exit(1);
    }
}
