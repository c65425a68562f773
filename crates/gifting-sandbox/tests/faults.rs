//! Fault injection, latency, rate limiting and the body-size cap.

mod common;

use std::time::{Duration, Instant};

use common::{assert_oauth_error, assert_scim_error, start, start_with, Answer, Server};
use reqwest::StatusCode;

#[tokio::test]
async fn at_rate_one_every_api_answer_is_a_fault_and_nothing_else_is() {
    let s = start_with(|c| c.fault_rate = 1.0).await;
    // Sign-in is OAuth: untouched.
    let t = s.admin().await;
    let (mut e500, mut e503, mut e429, mut dropped) = (0, 0, 0, 0);
    for _ in 0..40 {
        match s.get_req("/api/v3/send").bearer_auth(&t).send().await {
            Ok(res) => {
                let status = res.status();
                let retry = res
                    .headers()
                    .get("retry-after")
                    .map(|v| v.to_str().unwrap().to_owned());
                let body: gifting_api::rest::RestError = res.json().await.expect("JSON message");
                assert!(!body.message.is_empty());
                match status {
                    StatusCode::INTERNAL_SERVER_ERROR => e500 += 1,
                    StatusCode::SERVICE_UNAVAILABLE => {
                        assert_eq!(retry.as_deref(), Some("1"));
                        e503 += 1
                    }
                    StatusCode::TOO_MANY_REQUESTS => {
                        assert_eq!(retry.as_deref(), Some("1"));
                        e429 += 1
                    }
                    other => panic!("not a fault: {other}"),
                }
            }
            Err(e) => {
                assert!(!e.is_timeout(), "{e}");
                dropped += 1;
            }
        }
    }
    assert!(
        e500 > 0 && e503 > 0 && e429 > 0 && dropped > 0,
        "{e500} {e503} {e429} {dropped}"
    );
    // Not /oauth, /cdn, /config.json or /__sandbox.
    let stats = s.stats().await;
    assert_eq!(stats["faults_injected"], 40);
    let cfg = s.get_req("/config.json").answer().await;
    assert_eq!(cfg.status(), StatusCode::OK);
    let img = s
        .get_req("/cdn/products/prd_10001/var_0001_1/1/thumb.svg")
        .answer()
        .await;
    assert_eq!(img.status(), StatusCode::OK);
    let t2 = s.sign_in_pkce("manager@example.com", "scim").await;
    assert_eq!(t2.token_type, "bearer");
}

#[tokio::test]
async fn a_dropped_connection_is_a_reset_not_an_http_answer() {
    // Fault dice are seeded: find a request that is dropped and check the client saw no
    // status at all.
    let s = start_with(|c| c.fault_rate = 1.0).await;
    let t = s.admin().await;
    let mut saw_drop = false;
    for _ in 0..40 {
        let fresh = reqwest::Client::new();
        if let Err(e) = fresh.get(s.at("/api/v3/me")).bearer_auth(&t).send().await {
            assert!(e.status().is_none());
            assert!(e.is_request() || e.is_connect() || e.is_body(), "{e:?}");
            saw_drop = true;
            break;
        }
    }
    assert!(saw_drop);
}

#[tokio::test]
async fn no_faults_by_default() {
    let s = start().await;
    let t = s.admin().await;
    for _ in 0..30 {
        assert_eq!(s.get("/api/v3/me", &t).await.status(), StatusCode::OK);
    }
    assert_eq!(s.stats().await["faults_injected"], 0);
}

#[tokio::test]
async fn rate_limit_per_token_per_second() {
    let s = start_with(|c| c.rate_limit = 5).await;
    let a = s.admin().await;
    let b = s.sign_in("manager@example.com", "scim").await.access_token;
    let mut limited = None;
    for _ in 0..12 {
        let res = s.get("/api/v3/me", &a).await;
        if res.status() == StatusCode::TOO_MANY_REQUESTS {
            limited = Some(res);
            break;
        }
        assert_eq!(res.status(), StatusCode::OK);
    }
    let res = limited.expect("12 requests within a second exceed 5 per second");
    assert_eq!(res.headers()["retry-after"], "1");
    let msg = common::assert_rest_error(res, StatusCode::TOO_MANY_REQUESTS).await;
    assert!(msg.contains("5 requests per second"));
    // Another token has its own budget.
    assert_eq!(s.get("/api/v3/me", &b).await.status(), StatusCode::OK);
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(s.get("/api/v3/me", &a).await.status(), StatusCode::OK);
    assert!(s.stats().await["rate_limited"].as_u64().unwrap() >= 1);
}

#[tokio::test]
async fn latency_delays_api_answers_only() {
    let s = start_with(|c| c.latency_ms = 150).await;
    let t = s.admin().await;
    let started = Instant::now();
    for _ in 0..10 {
        assert_eq!(s.get("/api/v3/me", &t).await.status(), StatusCode::OK);
    }
    // Ten uniform delays in 0..=150 ms: the seeded dice sum to well over 200 ms. (A lower
    // bound only: a slow machine cannot make this fail.)
    assert!(
        started.elapsed() >= Duration::from_millis(200),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn oversized_bodies_get_413_in_each_family() {
    let s = start().await;
    let t = s.admin().await;
    let big = "x".repeat(100 * 1024);
    let scim = s
        .post_req("/api/scim/v2/Users")
        .bearer_auth(&t)
        .header("content-type", "application/scim+json")
        .body(format!("{{\"userName\": \"{big}\"}}"))
        .answer()
        .await;
    assert_scim_error(scim, StatusCode::PAYLOAD_TOO_LARGE, None).await;
    let token = s
        .post_req("/oauth/token")
        .form(&[("grant_type", "authorization_code"), ("code", big.as_str())])
        .answer()
        .await;
    assert_oauth_error(token, StatusCode::PAYLOAD_TOO_LARGE, "invalid_request").await;
    let consent = s
        .post_req("/oauth/authorize")
        .form(&[("state", big.as_str())])
        .answer()
        .await;
    assert_eq!(consent.status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert!(consent.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
}
