//! Shared helpers of the gateway's integration tests: a built-console directory, a gateway
//! in-process on a free port with its log in memory, and a fake platform whose behaviour
//! each test sets (the real sandbox is used wherever it can show the behaviour).
#![allow(dead_code)]

// The sandbox's own test helpers: the platform most tests stand the gateway in front of, and
// the request and answer vocabulary both servers' tests speak.
#[path = "../../../gifting-sandbox/tests/common/mod.rs"]
pub mod sandbox;

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use axum::Router;
use gifting_api::oauth::TokenResponse;
use gifting_gateway::{spawn, Config, Log, RunningGateway};
use gifting_sandbox::{CLIENT_ID, CLIENT_SECRET};
use reqwest::{Client, StatusCode};
use sandbox::{Answer, Sandbox, Server, VERIFIER};
use tokio::net::TcpListener;

pub const INDEX: &str = "<!doctype html><title>Gifting Console</title>";
pub const HASHED_JS: &str = "gifting-console-3f2a9c0b1d4e5f67.js";
/// The policy of every answer that is data, not a page.
pub const ANSWER_CSP: &str = gifting_web::security::ANSWER_CSP;

/// A `dist/` with index.html, a hashed script and its brotli copy, in a directory of its own:
/// the tests of one binary run at once, and rewriting a shared index.html while another
/// test's gateway read it served that test an empty page.
pub fn dist(name: &str) -> PathBuf {
    static MADE: AtomicUsize = AtomicUsize::new(0);
    let n = MADE.fetch_add(1, Ordering::Relaxed);
    let dir =
        std::env::temp_dir().join(format!("gifting-gateway-{name}-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dist");
    std::fs::write(dir.join("index.html"), INDEX).expect("index.html");
    std::fs::write(dir.join(HASHED_JS), "export function start() {}\n").expect("script");
    std::fs::write(dir.join(format!("{HASHED_JS}.br")), b"brotli bytes").expect("brotli copy");
    dir
}

pub struct Rig {
    pub gateway: RunningGateway,
    pub url: String,
    pub log: Arc<Mutex<Vec<String>>>,
    /// Follows no redirect, so a test sees what the gateway answered.
    pub http: Client,
}

impl Server for Rig {
    fn base(&self) -> (&str, &Client) {
        (&self.url, &self.http)
    }
}

impl Rig {
    /// `grant_type=refresh_token`, as the console sends it (no client credentials).
    pub async fn refresh(&self, refresh_token: &str) -> reqwest::Response {
        let form = [
            ("grant_type", "refresh_token"),
            ("refresh_token", refresh_token),
        ];
        self.token_form(&form).await
    }

    pub fn log_lines(&self) -> Vec<String> {
        self.log.lock().expect("log lock").clone()
    }

    /// `/healthz` answers 200: the process is alive, whatever its platform or clients do.
    pub async fn assert_alive(&self) {
        let health = self.get_req("/healthz").answer().await;
        assert_eq!(health.status(), StatusCode::OK);
    }

    /// The platform is out of reach: `/readyz` says 503 (take this gateway out of rotation)
    /// while `/healthz` still says 200 (do not restart it: a restart cannot bring the
    /// platform back).
    pub async fn assert_alive_not_ready(&self) {
        let ready = self.get_req("/readyz").answer().await;
        assert_eq!(ready.status(), StatusCode::SERVICE_UNAVAILABLE);
        self.assert_alive().await;
    }
}

pub fn client() -> Client {
    Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
}

/// A gateway in front of `platform_url` with the sandbox's client credentials; `extra` flags
/// after the defaults.
pub async fn gateway(platform_url: &str, extra: &[&str]) -> Rig {
    let dir = dist("rig");
    let mut args = vec![
        "gifting-gateway".to_owned(),
        "--addr".into(),
        "127.0.0.1:0".into(),
        "--static".into(),
        dir.to_string_lossy().into_owned(),
        "--platform-url".into(),
        platform_url.to_owned(),
        "--client-id".into(),
        CLIENT_ID.into(),
    ];
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    let config = Config::from_args(args, Some(CLIENT_SECRET.to_owned())).expect("gateway config");
    let (sink, log) = Log::memory();
    let gateway = spawn(config, sink).await.expect("gateway starts");
    Rig {
        url: gateway.url(),
        gateway,
        log,
        http: client(),
    }
}

/// The sandbox playing a platform that demands the client secret, as the gateway's relay is
/// meant to face: only the gateway holds the secret, so a sign-in works only through it.
pub async fn secret_platform() -> Sandbox {
    sandbox::start_with(|c| c.require_client_secret = true).await
}

/// A PKCE sign-in as the console makes it: consent at the platform, exchange at the gateway.
/// The code (now spent) and the tokens; the exchange is never stored by a cache.
pub async fn sign_in(s: &Sandbox, g: &Rig) -> (String, TokenResponse) {
    sign_in_as(s, g, "admin@example.com").await
}

/// [`sign_in`] as the seeded user `email` (`admin@`, `manager@` or `sender@example.com`).
pub async fn sign_in_as(s: &Sandbox, g: &Rig, email: &str) -> (String, TokenResponse) {
    let code = s.code_pkce(email, "scim marketplace").await;
    let res = g
        .token_form(&[
            ("grant_type", "authorization_code"),
            ("code", code.as_str()),
            ("redirect_uri", s.redirect_uri().as_str()),
            ("client_id", CLIENT_ID),
            ("code_verifier", VERIFIER),
        ])
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["cache-control"], "no-store");
    (code, res.json().await.expect("token response"))
}

/// Serves `router` on a free loopback port in the background; returns its URL.
pub async fn fake_platform(router: Router) -> String {
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind fake platform");
    let addr = listener.local_addr().expect("fake platform address");
    tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });
    format!("http://{addr}")
}

/// A loopback URL where nothing listens.
pub async fn closed_port() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("address");
    drop(listener);
    format!("http://{addr}")
}

/// Fails when `text` holds the client secret.
pub fn assert_no_secret(what: &str, text: &str) {
    assert!(
        !text.contains(CLIENT_SECRET),
        "{what} holds the client secret: {text}"
    );
}

/// Every header and the body of a response, as text, for [`assert_no_secret`].
pub async fn dump(res: reqwest::Response) -> (reqwest::StatusCode, String) {
    let status = res.status();
    let mut text = format!("{status}\n");
    for (k, v) in res.headers() {
        text.push_str(&format!("{k}: {}\n", String::from_utf8_lossy(v.as_bytes())));
    }
    text.push_str(&res.text().await.unwrap_or_default());
    (status, text)
}
