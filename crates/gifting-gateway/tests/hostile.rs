//! The gateway under hostile traffic: slow clients that would hold connections,
//! a forged `X-Forwarded-For` line, cross-site posts to the token relay, a token in a URL,
//! relayed answers that must not render on the console's origin, and request heads that never
//! parse.

mod support;

#[path = "../../gifting-web/tests/guarded/mod.rs"]
mod guarded;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use axum::routing::get;
use axum::Router;
use gifting_api::oauth::revocation_form;
use guarded::assert_guarded;
use support::sandbox::{self, Answer, Server};
use support::{fake_platform, gateway, Rig};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;

const ANSWER_CSP: &str = "default-src 'none'; sandbox; frame-ancestors 'none'";

/// Reads until the gateway closes the connection (or `patience` passes): what it sent, and
/// how long that took. `None` when the connection was still open after `patience`.
async fn until_closed(stream: &mut TcpStream, patience: Duration) -> Option<(String, Duration)> {
    let started = Instant::now();
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let left = patience.checked_sub(started.elapsed())?;
        match tokio::time::timeout(left, stream.read(&mut buf)).await {
            Err(_) => return None,
            Ok(Ok(0)) | Ok(Err(_)) => {
                return Some((
                    String::from_utf8_lossy(&seen).into_owned(),
                    started.elapsed(),
                ))
            }
            Ok(Ok(n)) => seen.extend_from_slice(&buf[..n]),
        }
    }
}

async fn connect(g: &support::Rig, first_bytes: &[u8]) -> TcpStream {
    let mut stream = TcpStream::connect(g.gateway.addr).await.expect("connect");
    stream.write_all(first_bytes).await.expect("write");
    stream
}

#[tokio::test]
async fn a_client_that_never_finishes_its_headers_is_cut_off() {
    let s = sandbox::start().await;
    let g = gateway(&s.url, &["--header-timeout-secs", "1"]).await;
    let mut silent = connect(&g, b"").await;
    let mut half = connect(&g, b"GET /healthz HTTP/1.1\r\nHost: gateway\r\nX-Slow: ").await;
    for (what, stream) in [("silent", &mut silent), ("half a head", &mut half)] {
        let (_, after) = until_closed(stream, Duration::from_secs(5))
            .await
            .unwrap_or_else(|| panic!("a {what} connection was still open after 5 s"));
        assert!(after < Duration::from_secs(3), "{what}: {after:?}");
    }
    // A kept-alive connection gets the same time for its next head.
    let mut kept = connect(&g, b"GET /healthz HTTP/1.1\r\nHost: gateway\r\n\r\n").await;
    let (answer, after) = until_closed(&mut kept, Duration::from_secs(5))
        .await
        .expect("an idle kept-alive connection is closed");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(after < Duration::from_secs(3), "{after:?}");
    // Meanwhile a normal request is served.
    g.assert_alive().await;
}

#[tokio::test]
async fn a_body_trickled_slower_than_the_body_timeout_is_refused_and_the_connection_closed() {
    let s = sandbox::start().await;
    let g = gateway(&s.url, &["--body-timeout-secs", "1"]).await;
    let heads: [&[u8]; 2] = [
        b"POST /oauth/token HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ngrant_type=",
        b"POST /api/scim/v2/Users HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/scim+json\r\nContent-Length: 100\r\n\r\n{\"userName\"",
    ];
    for head in heads {
        let mut stream = connect(&g, head).await;
        let started = Instant::now();
        // One more byte every 300 ms: never idle for long, never done.
        let trickle = async {
            loop {
                tokio::time::sleep(Duration::from_millis(300)).await;
                if stream.write_all(b"x").await.is_err() {
                    break;
                }
                if started.elapsed() > Duration::from_secs(6) {
                    break;
                }
            }
        };
        let _ = tokio::time::timeout(Duration::from_millis(1600), trickle).await;
        let (answer, _) = until_closed(&mut stream, Duration::from_secs(4))
            .await
            .expect("the connection is closed after the body timeout");
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
        assert!(
            answer.to_ascii_lowercase().contains("connection: close"),
            "{answer}"
        );
        assert!(started.elapsed() < Duration::from_secs(4));
    }
}

#[tokio::test]
async fn the_answers_to_heads_that_never_parse_carry_the_security_headers_and_close() {
    let s = sandbox::start().await;
    let g = gateway(&s.url, &[]).await;
    let good = "GET /healthz HTTP/1.1\r\nHost: gateway\r\n\r\n";
    let long_path = format!(
        "GET /{} HTTP/1.1\r\nHost: gateway\r\n\r\n",
        "a".repeat(70_000)
    );
    let many_headers = format!("GET /healthz HTTP/1.1\r\n{}\r\n", "X-A: b\r\n".repeat(101));
    let cases = [
        ("GET /healthz HTTZ/1.1\r\n\r\n".to_owned(), "400"),
        (
            "GET /healthz HTTP/1.1\r\nBad Name: y\r\n\r\n".to_owned(),
            "400",
        ),
        (long_path, "414"),
        (many_headers, "431"),
        // After a good request, on the same kept-alive connection.
        (format!("{good}G@T /healthz HTTP/1.1\r\n\r\n"), "400"),
    ];
    for (head, status) in cases {
        let mut stream = connect(&g, head.as_bytes()).await;
        let (answers, _) = until_closed(&mut stream, Duration::from_secs(5))
            .await
            .expect("the connection is closed");
        let (before, last) = answers.rsplit_once("HTTP/1.1 ").expect("an answer");
        assert_guarded(&format!("HTTP/1.1 {last}"), status, true);
        if !before.is_empty() {
            assert_guarded(before, "200", false);
        }
    }
}

/// A gateway behind a proxy that appends each client's address to `X-Forwarded-For`, with
/// `extra` flags after that one. The test plays the proxy, from loopback.
async fn behind_proxy(platform_url: &str, extra: &[&str]) -> Rig {
    let mut flags = vec!["--client-ip-header", "X-Forwarded-For"];
    flags.extend_from_slice(&["--trusted-proxy", "127.0.0.1/32"]);
    flags.extend_from_slice(extra);
    gateway(platform_url, &flags).await
}

/// A peer that is no trusted proxy (a pod beside the balancer: here 127.0.0.2, while only the
/// balancer, 127.0.0.1, is trusted) names a new address in every request, then a victim's:
/// its header is not read, every request counts against its own address, and the victim
/// behind the balancer keeps its budget.
#[tokio::test]
async fn a_forwarded_address_from_a_peer_that_is_no_trusted_proxy_is_not_believed() {
    let s = sandbox::start().await;
    let mut g = behind_proxy(&s.url, &["--token-rate-limit", "3"]).await;
    let balancer = g.http.clone();
    g.http = reqwest::Client::builder()
        .local_address(std::net::IpAddr::from([127, 0, 0, 2]))
        .build()
        .expect("a client on 127.0.0.2");
    let (bad, busy) = (StatusCode::BAD_REQUEST, StatusCode::TOO_MANY_REQUESTS);
    let rotating = [
        "198.51.100.1",
        "198.51.100.2",
        "198.51.100.3",
        "198.51.100.4",
    ];
    assert_eq!(relayed_from(&g, &rotating).await, [bad, bad, bad, busy]);
    let victim = "203.0.113.9";
    assert_eq!(relayed_from(&g, &[victim, victim]).await, [busy, busy]);
    g.http = balancer;
    assert_eq!(relayed_from(&g, &[victim, victim]).await, [bad, bad]);
    assert!(
        !g.log_lines().iter().any(|l| l.contains("client address")),
        "an untrusted peer's header is not even read"
    );
}

#[tokio::test]
async fn the_rate_limit_counts_the_last_forwarded_line_not_a_forged_first_one() {
    let s = sandbox::start().await;
    let g = behind_proxy(&s.url, &["--token-rate-limit", "3"]).await;
    let mut statuses = Vec::new();
    for i in 0..6 {
        // The client's own (forged, changing) line first; the proxy's appended line last.
        let res = g
            .post_req("/oauth/token")
            .header("x-forwarded-for", format!("198.51.100.{i}"))
            .header("x-forwarded-for", "203.0.113.9")
            .form(&[("grant_type", "password")])
            .answer()
            .await;
        statuses.push(res.status());
    }
    assert_eq!(
        statuses
            .iter()
            .filter(|s| **s == StatusCode::TOO_MANY_REQUESTS)
            .count(),
        3,
        "{statuses:?}"
    );
    // Another address behind the same proxy has its own budget.
    let other = g
        .post_req("/oauth/token")
        .header("x-forwarded-for", "203.0.113.10")
        .form(&[("grant_type", "password")])
        .answer()
        .await;
    assert_eq!(other.status(), StatusCode::BAD_REQUEST);
}

/// Token relay statuses for one request per `X-Forwarded-For` value, in order.
async fn relayed_from(g: &Rig, entries: &[&str]) -> Vec<StatusCode> {
    let mut statuses = Vec::new();
    for entry in entries {
        let req = g.post_req("/oauth/token").header("x-forwarded-for", *entry);
        let res = req.form(&[("grant_type", "password")]).answer().await;
        statuses.push(res.status());
    }
    statuses
}

#[tokio::test]
async fn forwarded_entries_with_a_port_count_per_client_not_per_proxy() {
    let s = sandbox::start().await;
    let g = behind_proxy(&s.url, &["--token-rate-limit", "2"]).await;
    let (bad, busy) = (StatusCode::BAD_REQUEST, StatusCode::TOO_MANY_REQUESTS);
    // One client from three source ports: one budget, spent after two.
    let one = [
        "10.0.0.1, 203.0.113.9:4711",
        "203.0.113.9:4712",
        "203.0.113.9:4713",
    ];
    assert_eq!(relayed_from(&g, &one).await, [bad, bad, busy]);
    // Others behind the same proxy, in each form proxies write, have budgets of their own.
    let others = [
        "198.51.100.7:80",
        "[2001:db8::7]:443",
        "[2001:db8::8]",
        "2001:db8:0:1::9",
    ];
    assert_eq!(relayed_from(&g, &others).await, [bad; 4]);
    assert!(
        !g.log_lines().iter().any(|l| l.contains("client address")),
        "every entry was an address"
    );
}

#[tokio::test]
async fn a_client_address_header_that_never_parses_is_logged_once() {
    let s = sandbox::start().await;
    let g = behind_proxy(&s.url, &[]).await;
    let entries = ["unknown", "_hidden-proxy", "203.0.113.9:port"];
    assert_eq!(
        relayed_from(&g, &entries).await,
        [StatusCode::BAD_REQUEST; 3]
    );
    let warned: Vec<String> = g
        .log_lines()
        .into_iter()
        .filter(|l| l.contains("client address"))
        .collect();
    assert_eq!(warned.len(), 1, "{warned:?}");
    assert!(warned[0].contains("\"level\":\"WARN\""), "{}", warned[0]);
    assert!(warned[0].to_ascii_lowercase().contains("x-forwarded-for"));
    for value in ["unknown", "_hidden", "203.0.113.9", "?"] {
        assert!(!warned[0].contains(value), "{value} in {}", warned[0]);
    }
}

#[tokio::test]
async fn cross_site_posts_are_refused_before_they_spend_the_budget() {
    let s = sandbox::start().await;
    let g = gateway(&s.url, &["--token-rate-limit", "3"]).await;
    let form = "grant_type=refresh_token&refresh_token=r";
    let attacks = [
        ("text/plain", None, None),
        ("application/json", None, None),
        (
            "application/x-www-form-urlencoded",
            Some("https://evil.example"),
            None,
        ),
        ("application/x-www-form-urlencoded", Some("null"), None),
        (
            "application/x-www-form-urlencoded",
            None,
            Some("cross-site"),
        ),
        ("application/x-www-form-urlencoded", None, Some("same-site")),
    ];
    for _ in 0..3 {
        for (content_type, origin, fetch_site) in attacks {
            for path in ["/oauth/token", "/oauth/revoke"] {
                let mut req = g.post_req(path).header("content-type", content_type);
                if let Some(origin) = origin {
                    req = req.header("origin", origin);
                }
                if let Some(site) = fetch_site {
                    req = req.header("sec-fetch-site", site);
                }
                let res = req.body(form).answer().await;
                let status = res.status();
                assert!(
                    status == StatusCode::FORBIDDEN || status == StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    "{path} {content_type} {origin:?} {fetch_site:?}: {status}"
                );
                assert_eq!(res.headers()["content-security-policy"], ANSWER_CSP);
            }
        }
    }
    // 36 refused posts later, the console's own requests still have their whole budget.
    let own_origin = g.url.clone();
    for _ in 0..3 {
        let res = g
            .post_req("/oauth/token")
            .header("origin", own_origin.as_str())
            .header("sec-fetch-site", "same-origin")
            .form(&[("grant_type", "refresh_token"), ("refresh_token", "r")])
            .answer()
            .await;
        assert_eq!(
            res.status(),
            StatusCode::BAD_REQUEST,
            "the platform's invalid_grant"
        );
    }
    assert_eq!(s.stats().await["token_refresh_failures"], 3);
}

#[tokio::test]
async fn the_token_to_revoke_travels_in_the_body_never_the_url() {
    let s = sandbox::start_with(|c| c.require_client_secret = true).await;
    let g = gateway(&s.url, &[]).await;
    let t = s.sign_in("admin@example.com", "scim").await;
    let in_url = g
        .post_req(&format!("/oauth/revoke?token={}", t.refresh_token))
        .header("content-type", "application/x-www-form-urlencoded")
        .answer()
        .await;
    assert_eq!(in_url.status(), StatusCode::BAD_REQUEST);
    assert_eq!(s.stats().await["revocations"], 0, "never relayed");
    assert_eq!(s.me_status(&t.access_token).await, StatusCode::OK);
    let in_body = g
        .post_req("/oauth/revoke")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(revocation_form(&t.refresh_token, "refresh_token"))
        .answer()
        .await;
    assert_eq!(in_body.status(), StatusCode::OK);
    assert_eq!(in_body.headers()["content-security-policy"], ANSWER_CSP);
    // Revoking the refresh token ended the whole grant, its access token too.
    assert_eq!(s.me_status(&t.access_token).await, StatusCode::UNAUTHORIZED);
    assert!(!g.log_lines().iter().any(|l| l.contains(&t.refresh_token)));
}

#[tokio::test]
async fn relayed_answers_carry_a_policy_that_renders_nothing() {
    let platform = Router::new().route(
        "/api/v3/me",
        get(|| async {
            (
                [
                    ("content-type", "text/html"),
                    ("content-security-policy", "default-src *"),
                ],
                "<script>alert(document.domain)</script>",
            )
        }),
    );
    let g = gateway(&fake_platform(platform).await, &[]).await;
    for path in [
        "/api/v3/me",
        "/api/v3/nothing",
        "/oauth/authorize?x=1",
        "/oauth/nothing",
    ] {
        let res = g.get_req(path).answer().await;
        assert_eq!(
            res.headers()["content-security-policy"],
            ANSWER_CSP,
            "{path}"
        );
    }
    // The console's own pages keep theirs.
    let page = g.get_req("/").answer().await;
    assert!(sandbox::header(&page, "content-security-policy").contains("script-src 'self'"));
}

#[tokio::test]
async fn readiness_asks_the_platform_at_most_once_every_few_seconds() {
    let asked = Arc::new(AtomicUsize::new(0));
    let count = asked.clone();
    let platform = Router::new().route(
        "/api/v3/me",
        get(move || {
            count.fetch_add(1, Ordering::SeqCst);
            async { StatusCode::UNAUTHORIZED }
        }),
    );
    let g = gateway(&fake_platform(platform).await, &[]).await;
    let checks = (0..20).map(|_| g.get_req("/readyz").answer());
    for res in futures_util::future::join_all(checks).await {
        assert_eq!(res.status(), StatusCode::OK);
    }
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    tokio::time::sleep(gifting_gateway::ops::READY_CACHED_FOR + Duration::from_millis(100)).await;
    assert_eq!(g.get_req("/readyz").answer().await.status(), StatusCode::OK);
    assert_eq!(asked.load(Ordering::SeqCst), 2);
}
