//! The gateway's metrics, recorded by real traffic against the real sandbox: requests by route
//! template and status class, the platform's answers, the token relay's outcomes (a sign-in, a
//! refresh, a revocation, and the refusals by origin, type and limit), connections closed for
//! slowness; and nothing a client sent (a token, a code, a path, an address) in any series.

mod support;

use std::time::Duration;

use gifting_api::oauth::{revocation_form, TokenResponse};
use gifting_gateway::telemetry;
use reqwest::StatusCode;
use support::sandbox::{self, Answer, Server};
use support::{closed_port, gateway, secret_platform, sign_in, Rig};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tower::ServiceExt as _;

/// What `GET /metrics` on the metrics router answers for `g`.
async fn scrape(g: &Rig) -> String {
    let router = telemetry::router(g.gateway.state.telemetry.clone());
    let res = router
        .oneshot(
            axum::http::Request::get("/metrics")
                .body(axum::body::Body::empty())
                .expect("request"),
        )
        .await
        .expect("answer");
    assert_eq!(res.status(), StatusCode::OK);
    let body = axum::body::to_bytes(res.into_body(), 1 << 20)
        .await
        .expect("body");
    String::from_utf8(body.to_vec()).expect("utf-8")
}

fn assert_has(text: &str, series: &[&str]) {
    for s in series {
        assert!(text.contains(s), "no {s} in\n{text}");
    }
}

#[tokio::test]
async fn a_session_and_its_refusals_are_counted_by_template_and_outcome() {
    let s = secret_platform().await;
    let g = gateway(&s.url, &["--token-rate-limit", "5"]).await;
    let (code, t) = sign_in(&s, &g).await;
    let me = g
        .get_req("/api/scim/v2/Users/1001?attributes=userName")
        .bearer_auth(&t.access_token)
        .answer()
        .await;
    assert_eq!(me.status(), StatusCode::OK);
    let refreshed = g.refresh(&t.refresh_token).await;
    assert_eq!(refreshed.status(), StatusCode::OK);
    let t2: TokenResponse = refreshed.json().await.expect("refreshed");
    let spent = g.refresh(&t.refresh_token).await;
    assert_eq!(spent.status(), StatusCode::BAD_REQUEST);
    let cross_site = g
        .post_req("/oauth/token")
        .header("sec-fetch-site", "cross-site")
        .form(&[("grant_type", "refresh_token"), ("refresh_token", "x")])
        .answer()
        .await;
    assert_eq!(cross_site.status(), StatusCode::FORBIDDEN);
    let plain = g
        .post_req("/oauth/token")
        .header("content-type", "text/plain")
        .body("grant_type=refresh_token")
        .answer()
        .await;
    assert_eq!(plain.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let refresh_token = t2.refresh_token.clone();
    let revoked = g
        .post_req("/oauth/revoke")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(revocation_form(&refresh_token, "refresh_token"))
        .answer()
        .await;
    assert_eq!(revoked.status(), StatusCode::OK);
    // The limit is 5 a minute: the sign-in, two refreshes and the revocation spent 4.
    let mut limited = 0;
    for _ in 0..3 {
        if g.refresh("nothing").await.status() == StatusCode::TOO_MANY_REQUESTS {
            limited += 1;
        }
    }
    assert_eq!(limited, 2);
    let text = scrape(&g).await;
    assert_has(
        &text,
        &[
            r#"gateway_http_requests_total{route="/oauth/token",status="2xx"} 2"#,
            r#"gateway_http_requests_total{route="/api/scim/v2/Users/{id}",status="2xx"} 1"#,
            r#"gateway_http_requests_total{route="/oauth/token",status="4xx"} 6"#,
            r#"gateway_http_request_duration_seconds_count{route="/oauth/revoke"} 1"#,
            r#"gateway_platform_requests_total{outcome="answered"} 6"#,
            r#"gateway_token_relay_total{operation="code",outcome="relayed"} 1"#,
            r#"gateway_token_relay_total{operation="refresh",outcome="relayed"} 1"#,
            r#"gateway_token_relay_total{operation="refresh",outcome="platform_refused"} 2"#,
            r#"gateway_token_relay_total{operation="revoke",outcome="relayed"} 1"#,
            r#"gateway_token_relay_total{operation="token",outcome="refused_origin"} 1"#,
            r#"gateway_token_relay_total{operation="token",outcome="refused_type"} 1"#,
            r#"gateway_token_relay_total{operation="token",outcome="refused_limit"} 2"#,
            "gateway_rate_limit_refusals_total 2",
            "gateway_requests_in_flight 0",
        ],
    );
    for sent in [
        code.as_str(),
        t.access_token.as_str(),
        refresh_token.as_str(),
        "attributes",
        "127.0.0.1",
        "admin@example.com",
        gifting_sandbox::CLIENT_SECRET,
    ] {
        assert!(!text.contains(sent), "{sent:?} in the metrics:\n{text}");
    }
}

#[tokio::test]
async fn a_silent_or_missing_platform_is_counted_by_outcome() {
    let g = gateway(&closed_port().await, &[]).await;
    let res = g.get_req("/api/v3/me").answer().await;
    assert_eq!(res.status(), StatusCode::BAD_GATEWAY);
    let text = scrape(&g).await;
    assert_has(
        &text,
        &[
            r#"gateway_platform_requests_total{outcome="unreachable"} 1"#,
            r#"gateway_http_requests_total{route="/api/v3/me",status="5xx"} 1"#,
        ],
    );
}

#[tokio::test]
async fn connections_closed_for_slowness_are_counted() {
    let s = sandbox::start().await;
    let g = gateway(
        &s.url,
        &["--header-timeout-secs", "1", "--body-timeout-secs", "1"],
    )
    .await;
    let mut half = tokio::net::TcpStream::connect(g.gateway.addr)
        .await
        .expect("connect");
    half.write_all(b"GET /healthz HTTP/1.1\r\nHost: g\r\nX-Slow: ")
        .await
        .expect("write");
    let mut trickled = tokio::net::TcpStream::connect(g.gateway.addr)
        .await
        .expect("connect");
    trickled
        .write_all(
            b"POST /api/scim/v2/Users HTTP/1.1\r\nHost: g\r\nContent-Type: application/scim+json\r\n\
              Content-Length: 100\r\n\r\n{",
        )
        .await
        .expect("write");
    for stream in [&mut half, &mut trickled] {
        let mut sink = Vec::new();
        tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut sink))
            .await
            .expect("closed within 5 s")
            .ok();
    }
    // The head timeout is counted by the connection's task, after the close the client saw.
    let wanted = [
        r#"gateway_connections_closed_slow_total{phase="head"} 1"#,
        r#"gateway_connections_closed_slow_total{phase="body"} 1"#,
    ];
    let mut text = String::new();
    for _ in 0..100 {
        text = scrape(&g).await;
        if wanted.iter().all(|w| text.contains(w)) {
            break;
        }
        tokio::task::yield_now().await;
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_has(&text, &wanted);
}
