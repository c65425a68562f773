//! The large world: `cargo bench -p gifting-sandbox --bench world` (or `make bench`, through
//! scripts/bench-world.sh).
//!
//! Starts the release sandbox binary with `--world large` (5,000 users, 250 team groups,
//! 500 campaigns, 100,000 sends, 10,000 products), checks through the API that the world has
//! those sizes, and prints beside their budgets (exit 1 when one is missed):
//! - start: from spawning the process to its "listening" line, generation included (5 s);
//! - memory: the process's peak resident set (VmHWM) after the requests below (1 GB);
//! - one page of each list at that size, sequential requests over one connection with a
//!   browser's `Accept-Encoding`, the median of `WORLD_SAMPLES` (default 25) after a
//!   warm-up (10 ms each; the 3,000-member team's members, one bare array by contract,
//!   `WORLD_MAX_MEMBERS_MS`, default 50 ms).
//!
//! `WORLD_MAX_START_MS`, `WORLD_MAX_PEAK_MB`, `WORLD_MAX_PAGE_MS` and `WORLD_MAX_MEMBERS_MS`
//! override the budgets; `WORLD_ENCODING` the `Accept-Encoding` sent (`identity`: no
//! compression, to tell the handlers' time from the compressor's).

mod drive;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use drive::{env_or, ms};
use gifting_api::oauth::TokenResponse;
use gifting_sandbox::{CLIENT_ID, CLIENT_SECRET};
use reqwest::Client;
use serde_json::Value;

/// A page request, and what its answer must hold at the large world's size.
struct Probe {
    label: &'static str,
    path: &'static str,
    /// The budget's name: a page, or the team's members.
    members: bool,
    check: fn(&Value) -> bool,
}

const PROBES: &[Probe] = &[
    Probe {
        label: "SCIM users, last page (100 of 5,000)",
        path: "/api/scim/v2/Users?startIndex=4901&count=100",
        members: false,
        check: |v| v["totalResults"] == 5_000 && v["itemsPerPage"] == 100,
    },
    Probe {
        label: "SCIM users, userName filter",
        path: "/api/scim/v2/Users?filter=userName%20eq%20%22sender%40example.com%22",
        members: false,
        check: |v| v["totalResults"] == 1,
    },
    Probe {
        label: "active users, last page (98 of 4,898)",
        path: "/api/v3/users?page=49&per_page=100",
        members: false,
        check: |v| v["total_users"] == 4_898 && len(&v["users"]) == 98,
    },
    Probe {
        label: "sends, first page of 100",
        path: "/api/v3/send?per_page=100",
        members: false,
        check: |v| v["total_count"] == 100_000 && len(&v["sends"]) == 100,
    },
    Probe {
        label: "sends, page 1,000 of 100",
        path: "/api/v3/send?page=1000&per_page=100",
        members: false,
        check: |v| len(&v["sends"]) == 100,
    },
    Probe {
        label: "campaigns, email only, page 3",
        path: "/api/v3/touches?delivery_type=email&page=3&per_page=100",
        members: false,
        check: |v| v["total_posts"] == 250 && len(&v["touches"]) == 50,
    },
    Probe {
        label: "team groups, page 3 of 100",
        path: "/api/v3/groups?page=3&per_page=100",
        members: false,
        check: |v| v["total_groups"] == 250 && len(&v["groups"]) == 50,
    },
    Probe {
        label: "products, first page",
        path: "/api/v3/marketplace/products",
        members: false,
        check: |v| len(&v["products"]) == 24,
    },
    Probe {
        label: "products, price + category + text filters",
        path: "/api/v3/marketplace/products?price_gte_usd=20&price_lte_usd=150\
               &category_ids[]=101&category_ids[]=103&text_search=gift",
        members: false,
        check: |v| len(&v["products"]) > 0,
    },
    Probe {
        label: "products, a search matching none of 10,000",
        path: "/api/v3/marketplace/products?text_search=no-such-product",
        members: false,
        check: |v| len(&v["products"]) == 0,
    },
    Probe {
        label: "members of the 3,000-member team",
        path: "/api/v3/groups/101/members",
        members: true,
        check: |v| len(v) == 3_000,
    },
];

fn len(v: &Value) -> usize {
    v.as_array().map_or(usize::MAX, Vec::len)
}

/// The sandbox process, its URL and what it said on stderr at start.
struct Sandbox {
    child: Child,
    url: String,
    started_in: Duration,
    world_line: String,
}

/// The process ends with the bench, whichever way the bench ends.
impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start() -> Sandbox {
    let t0 = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_gifting-sandbox"))
        .args(["--addr", "127.0.0.1:0", "--world", "large"])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the release sandbox starts");
    let mut line = String::new();
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    stdout.read_line(&mut line).expect("the listening line");
    let started_in = t0.elapsed();
    let url = line
        .trim()
        .strip_prefix("gifting-sandbox listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_owned();
    // Drain stderr for the whole run; its first line describes the world.
    let (tx, rx) = mpsc::channel();
    let stderr = child.stderr.take().expect("stderr");
    std::thread::spawn(move || {
        for l in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(l);
        }
    });
    let world_line = rx.recv_timeout(Duration::from_secs(5)).unwrap_or_default();
    Sandbox {
        child,
        url,
        started_in,
        world_line,
    }
}

/// `VmRSS` or `VmHWM` of a process, in MB.
fn memory_mb(pid: u32, key: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(key))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb / 1024)
}

/// The consent page's Allow as the admin, then the code exchanged with the client secret.
async fn sign_in(http: &Client, url: &str) -> String {
    let redirect = format!("{url}/auth/callback");
    let mut form = vec![
        ("client_id", CLIENT_ID),
        ("redirect_uri", redirect.as_str()),
        ("response_type", "code"),
        ("scope", "scim marketplace"),
        ("state", "bench"),
    ];
    let page = http.get(format!("{url}/oauth/authorize")).query(&form);
    assert!(page
        .send()
        .await
        .expect("consent page")
        .status()
        .is_success());
    form.extend([("user", "admin@example.com"), ("decision", "allow")]);
    let res = http
        .post(format!("{url}/oauth/authorize"))
        .form(&form)
        .send()
        .await
        .expect("consent");
    let location = res.headers()["location"].to_str().expect("location");
    let code = location
        .split(['?', '&'])
        .find_map(|p| p.strip_prefix("code="))
        .expect("a code")
        .to_owned();
    let token: TokenResponse = http
        .post(format!("{url}/oauth/token"))
        .form(&[
            ("grant_type", "authorization_code"),
            ("code", &code),
            ("redirect_uri", &redirect),
            ("client_id", CLIENT_ID),
            ("client_secret", CLIENT_SECRET),
        ])
        .send()
        .await
        .expect("token")
        .json()
        .await
        .expect("token response");
    token.access_token
}

/// Checks the answer's sizes, then times `samples` requests; returns the median and the
/// largest, in ms, and the compressed size of one answer.
async fn time_probe(http: &Client, url: &str, token: &str, probe: &Probe) -> (f64, f64, usize) {
    let target = format!("{url}{}", probe.path);
    let body: Value = http
        .get(&target)
        .bearer_auth(token)
        .send()
        .await
        .expect("answer")
        .json()
        .await
        .expect("JSON");
    assert!((probe.check)(&body), "{}: unexpected answer", probe.label);
    let samples = env_or("WORLD_SAMPLES", 25).max(1) as usize;
    let encoding =
        std::env::var("WORLD_ENCODING").unwrap_or_else(|_| "gzip, deflate, br".to_owned());
    let mut times = Vec::with_capacity(samples);
    let mut bytes = 0;
    for i in 0..samples + 3 {
        let t0 = Instant::now();
        let res = http
            .get(&target)
            .bearer_auth(token)
            .header("accept-encoding", encoding.as_str())
            .send()
            .await
            .expect("answer");
        assert!(
            res.status().is_success(),
            "{}: {}",
            probe.label,
            res.status()
        );
        bytes = res.bytes().await.expect("body").len();
        if i >= 3 {
            times.push(ms(t0.elapsed()));
        }
    }
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], times[times.len() - 1], bytes)
}

fn main() {
    let max_start = env_or("WORLD_MAX_START_MS", 5_000) as f64;
    let max_peak = env_or("WORLD_MAX_PEAK_MB", 1_000);
    let max_page = env_or("WORLD_MAX_PAGE_MS", 10) as f64;
    let max_members = env_or("WORLD_MAX_MEMBERS_MS", 50) as f64;
    let sandbox = start();
    let pid = sandbox.child.id();
    let mut over = Vec::new();
    println!("world: {}", sandbox.world_line);
    let start_ms = ms(sandbox.started_in);
    println!("  start:  listening after {start_ms:.0} ms (budget {max_start:.0} ms)");
    if start_ms > max_start {
        over.push("start");
    }
    let resident = memory_mb(pid, "VmRSS:");
    println!("  memory: resident {resident} MB after start");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    rt.block_on(async {
        let http = Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client");
        let token = sign_in(&http, &sandbox.url).await;
        println!("  one page each (median and largest of sequential requests, compressed size):");
        for probe in PROBES {
            let (median, max, bytes) = time_probe(&http, &sandbox.url, &token, probe).await;
            let budget = if probe.members { max_members } else { max_page };
            let verdict = if median <= budget { "ok" } else { "OVER" };
            println!(
                "    {:<46} {median:>6.2} ms (max {max:>6.2}), {:>7} bytes; budget {budget:.0} ms {verdict}",
                probe.label, bytes
            );
            if median > budget {
                over.push(probe.label);
            }
        }
    });
    let peak = memory_mb(pid, "VmHWM:");
    println!(
        "  memory: resident {} MB, peak {peak} MB after the requests (budget {max_peak} MB)",
        memory_mb(pid, "VmRSS:")
    );
    if peak > max_peak {
        over.push("memory");
    }
    drop(sandbox);
    if over.is_empty() {
        println!("  within budget");
    } else {
        println!("  over budget: {}", over.join(", "));
        std::process::exit(1);
    }
}
