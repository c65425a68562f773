//! Hosting the console, /config.json, security headers, compression, test hooks, and the
//! binary itself (its stdout line, its logs, and a clean stop on SIGTERM).

mod common;

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use common::{header, start, start_with, Answer, Sandbox, Server};
use reqwest::{Response, StatusCode};

const INDEX: &str =
    "<!doctype html><html><head><title>Gifting Console</title></head><body></body></html>";
const SCRIPT: &str = "gifting-console-3f2a9c0b1d4e5f67.js";
/// Paths the console routes itself: each gets index.html.
const CLIENT_ROUTES: [&str; 5] = [
    "/",
    "/index.html",
    "/users",
    "/sends/30001",
    "/catalog?after=x",
];

/// GET `path` taking only `encoding`.
async fn get_encoded(s: &Sandbox, path: &str, encoding: &str) -> Response {
    let req = s.get_req(path).header("accept-encoding", encoding);
    req.answer().await
}

fn dist(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gifting-sandbox-{name}-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("assets")).unwrap();
    std::fs::write(dir.join("index.html"), INDEX).unwrap();
    std::fs::write(dir.join(SCRIPT), "export function start() {}\n".repeat(40)).unwrap();
    std::fs::write(
        dir.join("favicon.svg"),
        "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
    )
    .unwrap();
    dir
}

#[tokio::test]
async fn serves_files_with_index_fallback_csp_and_cache_headers() {
    let dir = dist("static");
    let s = start_with(|c| {
        c.static_dir = Some(dir.clone());
        c.allow_origins = vec!["http://localhost:3000".into()];
    })
    .await;
    let csp_expected = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; \
        img-src 'self' data: http: https:; connect-src 'self' http://localhost:3000; object-src 'none'; \
        base-uri 'self'; form-action 'self'; frame-ancestors 'none'";
    for path in CLIENT_ROUTES {
        let res = s.get_req(path).answer().await;
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        assert_eq!(res.headers()["content-security-policy"], csp_expected);
        assert_eq!(res.headers()["x-content-type-options"], "nosniff");
        assert_eq!(res.headers()["referrer-policy"], "no-referrer");
        assert_eq!(res.headers()["cache-control"], "no-cache", "{path}");
        assert_eq!(res.text().await.unwrap(), INDEX);
    }
    let js = s.get_req(&format!("/{SCRIPT}")).answer().await;
    assert_eq!(js.status(), StatusCode::OK);
    assert!(header(&js, "cache-control").contains("immutable"));
    assert!(header(&js, "content-type").contains("javascript"));
    assert!(js.headers().contains_key("content-security-policy"));
    let icon = s.get_req("/favicon.svg").answer().await;
    assert_eq!(icon.headers()["cache-control"], "no-cache");
    // Reserved prefixes never fall back to the console.
    let api = s.get_req("/api/v3/nothing").answer().await;
    assert_eq!(api.status(), StatusCode::UNAUTHORIZED);
    for path in ["/api/", "/oauth/nothing", "/oauth/", "/cdn/x"] {
        let res = s.get_req(path).answer().await;
        assert_eq!(res.status(), StatusCode::NOT_FOUND, "{path}");
        assert_ne!(res.text().await.unwrap(), INDEX);
    }
    std::fs::remove_dir_all(dir).ok();
}

#[tokio::test]
async fn compresses_static_and_api_responses() {
    let dir = dist("gzip");
    let s = start_with(|c| c.static_dir = Some(dir.clone())).await;
    let t = s.admin().await;
    for encoding in ["gzip", "br"] {
        let api = s.get_req("/api/v3/send?per_page=100").bearer_auth(&t);
        let res = api.header("accept-encoding", encoding).answer().await;
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(res.headers()["content-encoding"], encoding);
        let js = get_encoded(&s, &format!("/{SCRIPT}"), encoding).await;
        assert_eq!(js.headers()["content-encoding"], encoding);
    }
    std::fs::remove_dir_all(dir).ok();
}

#[tokio::test]
async fn serves_precompressed_copies_as_they_are() {
    let dir = dist("precompressed");
    // Not real brotli: the point is that the file's own bytes are sent, not recompressed.
    let brotli: &[u8] = b"precompressed brotli bytes";
    std::fs::write(dir.join(format!("{SCRIPT}.br")), brotli).unwrap();
    let s = start_with(|c| c.static_dir = Some(dir.clone())).await;
    let path = format!("/{SCRIPT}");
    let res = get_encoded(&s, &path, "br").await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-encoding"], "br");
    assert!(header(&res, "content-type").contains("javascript"));
    let vary = res.headers().get_all("vary").iter().count();
    assert_eq!(vary, 1, "one Vary header");
    assert_eq!(res.headers()["vary"], "accept-encoding");
    assert_eq!(res.bytes().await.unwrap().as_ref(), brotli);
    // A browser that takes no brotli gets the file itself.
    let plain = get_encoded(&s, &path, "identity").await;
    assert!(plain.headers().get("content-encoding").is_none());
    assert_eq!(plain.headers()["vary"], "accept-encoding");
    assert_eq!(
        plain.text().await.unwrap(),
        "export function start() {}\n".repeat(40)
    );
    std::fs::remove_dir_all(dir).ok();
}

#[tokio::test]
async fn config_json_follows_the_request_host() {
    let s = start().await;
    let port = s.running.addr.port();
    let config = |host: Option<String>| async {
        let mut req = s.get_req("/config.json");
        if let Some(host) = host {
            req = req.header("host", host);
        }
        req.answer()
            .await
            .json::<serde_json::Value>()
            .await
            .unwrap()
    };
    let cfg = config(None).await;
    assert_eq!(
        cfg,
        serde_json::json!({
            "base_url": format!("http://127.0.0.1:{port}"),
            "auth_url": format!("http://127.0.0.1:{port}"),
            "client_id": "gifting-console",
            "scope": "scim marketplace",
            "redirect_path": "/auth/callback"
        })
    );
    let local = config(Some(format!("localhost:{port}"))).await;
    assert_eq!(local["base_url"], format!("http://localhost:{port}"));
    let forged = config(Some("evil\"host".to_owned())).await;
    assert_eq!(forged["base_url"], format!("http://127.0.0.1:{port}"));
    assert!(cfg.get("client_secret").is_none());
}

#[tokio::test]
async fn cors_preflight_for_allowed_origins_only() {
    let s = start_with(|c| c.allow_origins = vec!["http://localhost:3000".into()]).await;
    let preflight = |origin: &'static str| {
        s.http
            .request(reqwest::Method::OPTIONS, s.at("/api/v3/send"))
            .header("origin", origin)
            .header("access-control-request-method", "GET")
            .header("access-control-request-headers", "authorization")
            .answer()
    };
    let ok = preflight("http://localhost:3000").await;
    assert_eq!(
        ok.headers()["access-control-allow-origin"],
        "http://localhost:3000"
    );
    let other = preflight("http://evil.example.com").await;
    assert!(other.headers().get("access-control-allow-origin").is_none());
}

#[tokio::test]
async fn test_hooks_exist_only_when_enabled() {
    let stats = start().await.stats().await;
    for key in [
        "token_refreshes",
        "authorization_codes_exchanged",
        "revocations",
        "token_codes",
    ] {
        assert!(stats[key].is_u64(), "{key}");
    }
    let off = start_with(|c| c.test_hooks = false).await;
    let stats = off.get_req("/__sandbox/stats").answer().await;
    assert_eq!(stats.status(), StatusCode::NOT_FOUND);
    let delete = off.post_req("/__sandbox/users/1005/delete").answer().await;
    assert_ne!(delete.status(), StatusCode::NO_CONTENT);
}

#[tokio::test]
async fn graceful_stop_in_process() {
    let s = start().await;
    let url = s.url.clone();
    s.running.stop().await.expect("clean stop");
    assert!(reqwest::get(format!("{url}/config.json")).await.is_err());
}

/// The real binary: one stdout line with the bound port, request logs on stderr without
/// queries or tokens, and SIGTERM ends it cleanly.
#[test]
fn binary_prints_its_address_logs_safely_and_stops_on_sigterm() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gifting-sandbox"))
        .args(["--addr", "127.0.0.1:0", "--test-hooks"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary starts");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    let url = line
        .trim()
        .strip_prefix("gifting-sandbox listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_owned();
    assert!(url.starts_with("http://127.0.0.1:"));
    assert_ne!(url, "http://127.0.0.1:0");
    let rt = tokio::runtime::Runtime::new().unwrap();
    let secret_token = "tok-should-never-be-logged-123";
    rt.block_on(async {
        let http = reqwest::Client::new();
        let cfg = http.get(format!("{url}/config.json")).answer().await;
        assert_eq!(cfg.status(), StatusCode::OK);
        let revoke = http.post(format!("{url}/oauth/revoke?token={secret_token}"));
        let basic = "Basic Z2lmdGluZy1jb25zb2xlOnNhbmRib3gtc2VjcmV0";
        let res = revoke.header("authorization", basic).answer().await;
        assert_eq!(res.status(), StatusCode::OK);
        let me = http
            .get(format!("{url}/api/v3/me"))
            .bearer_auth(secret_token);
        assert_eq!(me.answer().await.status(), StatusCode::UNAUTHORIZED);
    });
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let exit = child.wait().unwrap();
    assert!(exit.success(), "clean exit on SIGTERM: {exit:?}");
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    assert_eq!(rest, "", "exactly one stdout line");
    let mut logs = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut logs)
        .unwrap();
    // The world it generated, how long that took and the memory it holds.
    assert!(
        logs.contains("world demo: 60 users (4 inactive), 10 team groups"),
        "{logs}"
    );
    assert!(logs.contains(" MB (peak "), "{logs}");
    assert!(logs.contains("/oauth/revoke"), "{logs}");
    assert!(logs.contains("/config.json"));
    assert!(logs.contains("401"));
    assert!(!logs.contains(secret_token), "{logs}");
    assert!(!logs.contains("sandbox-secret"));
    assert!(!logs.contains("?token"));
}

#[test]
fn bad_flags_are_refused_at_start_with_the_flag_named() {
    for (flag, value) in [
        ("--token-ttl", "18446744073709551615"),
        ("--code-ttl", "0"),
        ("--allow-origin", "http://a.example/path; script-src *"),
        ("--world", "huge"),
        ("--users", "2"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_gifting-sandbox"))
            .args(["--addr", "127.0.0.1:0", flag, value])
            .output()
            .expect("run the sandbox");
        assert!(!out.status.success(), "{flag} {value} was accepted");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(flag), "{flag}: {stderr}");
        assert!(out.stdout.is_empty(), "it never listened: {:?}", out.stdout);
    }
}

/// Every answer carries a policy and `nosniff`: data answers (`/config.json`, an API error,
/// a CORS preflight) the answers' policy, pages (the consent page) their own.
#[tokio::test]
async fn every_answer_carries_a_policy_and_nosniff() {
    use axum::body::Body;
    use axum::http::Request;
    use gifting_sandbox::{AppState, Config};
    use tower::ServiceExt as _;

    let config = Config {
        allow_origins: vec!["http://localhost:3000".into()],
        ..Config::default()
    };
    let app = gifting_sandbox::app(AppState::new(config, 8080));
    let preflight = Request::builder()
        .method("OPTIONS")
        .uri("/api/v3/me")
        .header("origin", "http://localhost:3000")
        .header("access-control-request-method", "GET");
    let get = |path: &str| Request::builder().uri(path);
    let answers = [
        (get("/config.json"), 200),
        (get("/api/v3/me"), 401),
        (get("/oauth/nowhere"), 404),
        (get("/cdn/nowhere"), 404),
        (get("/no/console/served"), 404),
        (preflight, 200),
    ];
    for (req, status) in answers {
        let req = req.body(Body::empty()).expect("request");
        let path = req.uri().path().to_owned();
        let res = app.clone().oneshot(req).await.expect("infallible");
        assert_eq!(res.status().as_u16(), status, "{path}");
        let h = res.headers();
        let csp = gifting_web::security::ANSWER_CSP;
        assert_eq!(h["content-security-policy"], csp, "{path}");
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
    }
    let consent = get("/oauth/authorize")
        .body(Body::empty())
        .expect("request");
    let res = app.oneshot(consent).await.expect("infallible");
    let csp = res.headers()["content-security-policy"]
        .to_str()
        .expect("text");
    assert!(csp.contains("form-action"), "the page's own policy: {csp}");
    assert_eq!(res.headers()["x-content-type-options"], "nosniff");
}
