//! The gateway against a fake platform that misbehaves on purpose: headers that must not
//! cross, a slow and a silent platform, a redirect, a streamed answer, an answer that
//! would leak the secret, and a shutdown with a request in flight.

mod support;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use gifting_api::oauth::OAuthError;
use gifting_api::rest::RestError;
use gifting_api::scim::ScimError;
use gifting_sandbox::CLIENT_SECRET;
use serde::Deserialize;
use support::sandbox::{Answer, Server};
use support::{assert_no_secret, closed_port, dump, fake_platform, gateway};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

/// What the fake platform saw: each request's path and headers.
type Seen = Arc<Mutex<Vec<(String, HeaderMap)>>>;

#[derive(Deserialize)]
struct Delay {
    delay_ms: Option<u64>,
}

async fn record(seen: &Seen, path: &str, headers: HeaderMap) {
    seen.lock()
        .expect("seen lock")
        .push((path.to_owned(), headers));
}

async fn busy(State(seen): State<Seen>, headers: HeaderMap) -> Response {
    record(&seen, "/api/v3/me", headers).await;
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [
            ("retry-after", "7"),
            ("set-cookie", "platform_session=1"),
            ("x-internal-host", "db-7.internal"),
            ("content-type", "application/json"),
        ],
        r#"{"message":"Busy, come back later."}"#,
    )
        .into_response()
}

async fn slow(State(seen): State<Seen>, Query(d): Query<Delay>, headers: HeaderMap) -> Response {
    record(&seen, "/api/v3/send", headers).await;
    tokio::time::sleep(Duration::from_millis(d.delay_ms.unwrap_or(0))).await;
    (
        StatusCode::OK,
        [("content-type", "application/json")],
        r#"{"sends":[]}"#,
    )
        .into_response()
}

async fn redirect(State(seen): State<Seen>, headers: HeaderMap) -> Response {
    record(&seen, "/api/v3/users", headers).await;
    (
        StatusCode::FOUND,
        [("location", "http://127.0.0.1:9/elsewhere")],
    )
        .into_response()
}

/// Two chunks 1.5 s apart.
async fn streamed() -> Response {
    let chunks = futures_util::stream::unfold(0u8, |step| async move {
        match step {
            0 => Some((Ok::<_, std::io::Error>("first,"), 1)),
            1 => {
                tokio::time::sleep(Duration::from_millis(1500)).await;
                Some((Ok("second"), 2))
            }
            _ => None,
        }
    });
    Response::new(Body::from_stream(chunks))
}

async fn create_user(State(seen): State<Seen>, headers: HeaderMap) -> StatusCode {
    record(&seen, "/api/scim/v2/Users", headers).await;
    StatusCode::CREATED
}

/// A token endpoint that repeats what it was sent, secret included.
async fn echo_token(body: String) -> Response {
    (
        StatusCode::BAD_REQUEST,
        [("content-type", "application/json")],
        format!(r#"{{"error":"invalid_grant","error_description":"got {body}"}}"#),
    )
        .into_response()
}

fn fake(seen: Seen) -> Router {
    let routes = [
        ("/api/v3/me", get(busy)),
        ("/api/v3/send", get(slow)),
        ("/api/v3/users", get(redirect)),
        ("/api/v3/groups", get(streamed)),
        ("/api/scim/v2/Users", post(create_user)),
        ("/oauth/token", post(echo_token)),
    ];
    let router = routes
        .into_iter()
        .fold(Router::new(), |router, (path, handler)| {
            router.route(path, handler)
        });
    router.with_state(seen)
}

async fn rig(extra: &[&str]) -> (support::Rig, Seen) {
    let seen = Seen::default();
    let url = fake_platform(fake(seen.clone())).await;
    (gateway(&url, extra).await, seen)
}

#[tokio::test]
async fn headers_cross_only_from_the_allowlist_and_status_body_and_retry_after_pass_unchanged() {
    let (g, seen) = rig(&[]).await;
    let res = g
        .get_req("/api/v3/me")
        .bearer_auth("tok")
        .header("cookie", "console=1")
        .header("connection", "x-hop")
        .header("x-hop", "1")
        .header("x-forwarded-for", "10.0.0.1")
        .answer()
        .await;
    assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(res.headers()["retry-after"], "7");
    assert!(res.headers().get("set-cookie").is_none());
    assert!(res.headers().get("x-internal-host").is_none());
    let id = res.headers()["x-request-id"].to_str().unwrap().to_owned();
    assert_eq!(
        res.json::<RestError>().await.unwrap().message,
        "Busy, come back later."
    );
    let seen = seen.lock().unwrap();
    let (_, headers) = seen.last().expect("the platform was asked");
    assert_eq!(headers["authorization"], "Bearer tok");
    assert_eq!(headers["x-request-id"], id.as_str());
    for dropped in ["cookie", "x-hop", "x-forwarded-for"] {
        assert!(
            headers.get(dropped).is_none(),
            "{dropped} reached the platform"
        );
    }
}

#[tokio::test]
async fn no_request_form_or_host_reaches_another_host() {
    let (g, seen) = rig(&[]).await;
    // An absolute-form request naming another host, as a proxy request would.
    let mut stream = tokio::net::TcpStream::connect(g.gateway.addr)
        .await
        .unwrap();
    stream
        .write_all(b"GET http://evil.example/api/v3/me HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    let seen = seen.lock().unwrap();
    let (path, headers) = seen.last().expect("the configured platform was asked");
    assert_eq!(path, "/api/v3/me");
    let fake_addr = g
        .gateway
        .state
        .config
        .platform_url
        .trim_start_matches("http://");
    assert_eq!(headers["host"], fake_addr);
}

#[tokio::test]
async fn a_redirect_goes_back_to_the_browser_unfollowed() {
    let (g, seen) = rig(&[]).await;
    let res = g.get_req("/api/v3/users").answer().await;
    assert_eq!(res.status(), StatusCode::FOUND);
    assert_eq!(res.headers()["location"], "http://127.0.0.1:9/elsewhere");
    assert_eq!(seen.lock().unwrap().len(), 1);
}

#[tokio::test]
async fn a_slow_platform_is_waited_for_and_a_silent_one_times_out() {
    let (g, _) = rig(&["--timeout-secs", "1"]).await;
    let slow = g.get_req("/api/v3/send?delay_ms=300").answer().await;
    assert_eq!(slow.status(), StatusCode::OK);
    let started = Instant::now();
    let silent = g.get_req("/api/v3/send?delay_ms=3000").answer().await;
    assert_eq!(silent.status(), StatusCode::GATEWAY_TIMEOUT);
    assert!(
        started.elapsed() < Duration::from_millis(2500),
        "{:?}",
        started.elapsed()
    );
    assert!(!silent.json::<RestError>().await.unwrap().message.is_empty());
    let lines = g.log_lines();
    let line = lines
        .iter()
        .find(|l| l.contains("\"status\":504"))
        .expect("a 504 line");
    assert!(line.contains("\"upstream\":\"timeout\""), "{line}");
    assert!(line.contains("\"route\":\"/api/v3/send\""), "{line}");
}

#[tokio::test]
async fn an_unreachable_platform_is_a_502_in_each_familys_body() {
    let url = closed_port().await;
    let g = gateway(&url, &[]).await;
    let rest = g.get_req("/api/v3/send").answer().await;
    assert_eq!(rest.status(), StatusCode::BAD_GATEWAY);
    assert!(!rest.json::<RestError>().await.unwrap().message.is_empty());
    let scim = g.get_req("/api/scim/v2/Users").answer().await;
    assert_eq!(scim.status(), StatusCode::BAD_GATEWAY);
    assert_eq!(scim.json::<ScimError>().await.unwrap().status, "502");
    let token = g.refresh("r").await;
    assert_eq!(token.status(), StatusCode::BAD_GATEWAY);
    assert_eq!(
        token.json::<OAuthError>().await.unwrap().error,
        "temporarily_unavailable"
    );
    g.assert_alive_not_ready().await;
}

#[tokio::test]
async fn answers_are_streamed_not_buffered() {
    let (g, _) = rig(&[]).await;
    let started = Instant::now();
    let mut res = g.get_req("/api/v3/groups").answer().await;
    let first = res.chunk().await.unwrap().expect("a first chunk");
    assert_eq!(&first[..], b"first,");
    assert!(
        started.elapsed() < Duration::from_millis(1200),
        "{:?}",
        started.elapsed()
    );
    let mut rest = Vec::new();
    while let Some(chunk) = res.chunk().await.unwrap() {
        rest.extend_from_slice(&chunk);
    }
    assert_eq!(rest, b"second");
    assert!(started.elapsed() >= Duration::from_millis(1400));
}

#[tokio::test]
async fn an_oversized_body_is_refused_before_the_platform() {
    let (g, seen) = rig(&["--body-limit", "1024"]).await;
    let res = g
        .post_req("/api/scim/v2/Users")
        .header("content-type", "application/scim+json")
        .body("x".repeat(4096))
        .answer()
        .await;
    assert_eq!(res.status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(res.json::<ScimError>().await.unwrap().status, "413");
    let small = g.post_req("/api/scim/v2/Users").body("{}").answer().await;
    assert_eq!(small.status(), StatusCode::CREATED);
    assert_eq!(
        seen.lock().unwrap().len(),
        1,
        "only the small body reached the platform"
    );
}

#[tokio::test]
async fn a_platform_answer_holding_the_secret_is_withheld() {
    let (g, _) = rig(&[]).await;
    let res = g.refresh("r").await;
    let (status, text) = dump(res).await;
    assert_eq!(status, StatusCode::BAD_GATEWAY);
    assert_no_secret("the relayed answer", &text);
    let lines = g.log_lines();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("contained the client secret")),
        "{lines:?}"
    );
    for line in lines {
        assert_no_secret("a log line", &line);
    }
    assert!(!CLIENT_SECRET.is_empty());
}

#[tokio::test]
async fn shutdown_lets_the_request_in_flight_finish_then_refuses_new_ones() {
    let (mut g, _) = rig(&[]).await;
    let http = g.http.clone();
    let url = g.at("/api/v3/send?delay_ms=800");
    let in_flight = tokio::spawn(async move { http.get(url).send().await });
    tokio::time::sleep(Duration::from_millis(200)).await;
    g.gateway.signal_stop();
    let res = in_flight
        .await
        .unwrap()
        .expect("the request in flight is answered");
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.text().await.unwrap(), r#"{"sends":[]}"#);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let late = support::client().get(g.at("/healthz")).send().await;
    assert!(
        late.is_err(),
        "a new request after the stop signal was served"
    );
    let addr = g.gateway.addr;
    g.gateway.stop().await.expect("clean stop");
    assert!(std::net::TcpStream::connect(addr).is_err());
}
