//! The console as the gateway serves it: files, client routes, `/config.json` pointing at the
//! gateway, the security headers computed from the flags, and the operator's probes.

mod support;

use reqwest::StatusCode;
use support::sandbox::{self, header, Answer, Server};
use support::{gateway, HASHED_JS, INDEX};

#[tokio::test]
async fn serves_the_console_with_its_policy_and_cache_headers() {
    let s = sandbox::start().await;
    let g = gateway(&s.url, &["--image-origin", "https://cdn.gifting.example"]).await;
    let csp = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; \
        img-src 'self' https://cdn.gifting.example; connect-src 'self'; object-src 'none'; \
        base-uri 'self'; form-action 'self'; frame-ancestors 'none'";
    for path in ["/", "/users/1042", "/catalog?after=x"] {
        let res = g.get_req(path).answer().await;
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        let h = res.headers();
        assert_eq!(h["content-security-policy"], csp, "{path}");
        assert_eq!(h["x-content-type-options"], "nosniff");
        assert_eq!(h["referrer-policy"], "no-referrer");
        assert_eq!(h["cache-control"], "no-cache");
        assert!(
            h.get("strict-transport-security").is_none(),
            "no HSTS over plain http"
        );
        assert_eq!(res.text().await.unwrap(), INDEX);
    }
    let js = g.get_req(&format!("/{HASHED_JS}"));
    let js = js.header("accept-encoding", "br").answer().await;
    assert_eq!(js.status(), StatusCode::OK);
    assert_eq!(js.headers()["content-encoding"], "br");
    assert_eq!(js.headers()["vary"], "accept-encoding");
    assert!(header(&js, "cache-control").contains("immutable"));
    assert_eq!(js.bytes().await.unwrap().as_ref(), b"brotli bytes");
    for missing in ["/favicon.ico", "/gifting-console-0123456789abcdef_bg.wasm"] {
        let res = g.get_req(missing).answer().await;
        assert_eq!(res.status(), StatusCode::NOT_FOUND, "{missing}");
    }
}

#[tokio::test]
async fn config_json_points_the_console_at_the_gateway_without_a_secret() {
    let s = sandbox::start().await;
    let g = gateway(&s.url, &["--scope", "scim"]).await;
    let res = g.get_req("/config.json").answer().await;
    assert_eq!(res.headers()["cache-control"], "no-cache");
    let text = res.text().await.unwrap();
    support::assert_no_secret("config.json", &text);
    assert!(!text.contains("secret"), "{text}");
    let config: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(config["base_url"], g.url.as_str());
    assert_eq!(config["auth_url"], g.url.as_str());
    assert_eq!(config["client_id"], gifting_sandbox::CLIENT_ID);
    assert_eq!(config["scope"], "scim");
    assert_eq!(config["redirect_path"], "/auth/callback");
}

#[tokio::test]
async fn behind_tls_it_sends_hsts_and_names_the_public_origin() {
    let s = sandbox::start().await;
    let g = gateway(
        &s.url,
        &["--tls", "--public-url", "https://console.gifting.example"],
    )
    .await;
    let res = g.get_req("/config.json").answer().await;
    assert_eq!(
        res.headers()["strict-transport-security"],
        "max-age=63072000"
    );
    let config: serde_json::Value = res.json().await.unwrap();
    assert_eq!(config["base_url"], "https://console.gifting.example");
}

#[tokio::test]
async fn ready_only_while_the_platform_answers() {
    let s = sandbox::start().await;
    let g = gateway(&s.url, &[]).await;
    g.assert_alive().await;
    let ready = g.get_req("/readyz").answer().await;
    assert_eq!(ready.status(), StatusCode::OK);
    assert_eq!(ready.headers()["cache-control"], "no-store");
    s.running.stop().await.unwrap();
    // The last answer is reused for a moment (the platform is not asked on every check).
    tokio::time::sleep(gifting_gateway::ops::READY_CACHED_FOR).await;
    g.assert_alive_not_ready().await;
}

/// `/config.json`, `/healthz` and `/readyz` (the platform down: 503) are data, not pages: each
/// carries the answers' policy and `nosniff`, as the relayed answers do.
#[tokio::test]
async fn the_operator_answers_carry_a_policy_and_nosniff() {
    use axum::body::Body;
    use axum::http::Request;
    use gifting_gateway::{Config, Gateway, Log};
    use tower::ServiceExt as _;

    let platform = support::closed_port().await;
    let dir = support::dist("oneshot");
    let args = [
        "gifting-gateway",
        "--static",
        dir.to_str().expect("utf-8 path"),
        "--platform-url",
        &platform,
        "--client-id",
        "c",
    ];
    let config = Config::from_args(args, Some("s".to_owned())).expect("config");
    let app = gifting_gateway::app(Gateway::new(config, Log::memory().0).expect("gateway"));
    for (path, status) in [("/config.json", 200), ("/healthz", 200), ("/readyz", 503)] {
        let req = Request::builder()
            .uri(path)
            .body(Body::empty())
            .expect("request");
        let res = app.clone().oneshot(req).await.expect("infallible");
        assert_eq!(res.status().as_u16(), status, "{path}");
        let h = res.headers();
        assert_eq!(h["content-security-policy"], support::ANSWER_CSP, "{path}");
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
    }
}
