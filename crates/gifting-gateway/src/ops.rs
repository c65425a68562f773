//! What the console and the operator ask the gateway itself: `/config.json`, `/healthz`
//! (the process answers) and `/readyz` (the platform answers too).

use std::time::{Duration, Instant};

use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use gifting_api::paths;
use gifting_web::site::ConsoleConfig;

use crate::state::Shared;

/// How long readiness waits for the platform.
const READY_TIMEOUT: Duration = Duration::from_secs(3);
/// How long a readiness answer is reused: health checks from every balancer (or anyone who
/// can reach `/readyz`) then cost the platform one request per this period, not one each.
pub const READY_CACHED_FOR: Duration = Duration::from_secs(2);

pub fn router() -> Router<Shared> {
    Router::new()
        .route("/config.json", get(config_json))
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
}

/// The console talks to this origin only: the API and the token relay are both here.
async fn config_json(State(gw): State<Shared>, headers: HeaderMap) -> ConsoleConfig {
    let config = &gw.config;
    let scheme = if config.tls { "https" } else { "http" };
    let origin = config
        .origin_for(&headers)
        .unwrap_or_else(|| format!("{scheme}://{}", config.addr));
    ConsoleConfig {
        base_url: origin.clone(),
        auth_url: origin,
        client_id: config.client_id.clone(),
        scope: config.scope.clone(),
        redirect_path: config.redirect_path.clone(),
    }
}

fn status(code: StatusCode, status: &str) -> Response {
    let mut res = (code, Json(serde_json::json!({ "status": status }))).into_response();
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

async fn healthz() -> Response {
    status(StatusCode::OK, "ok")
}

/// Ready when the platform gives any answer short of a server error: an unauthenticated
/// `GET /api/v3/me` is a 401 from a platform that is up. Asked at most once per
/// [`READY_CACHED_FOR`]; checks arriving while the platform is asked wait for that answer.
async fn readyz(State(gw): State<Shared>) -> Response {
    let mut last = gw.ready.lock().await;
    let ready = match *last {
        Some((at, ready)) if at.elapsed() < READY_CACHED_FOR => ready,
        _ => {
            let probe = gw
                .http
                .get(format!("{}{}", gw.config.platform_url, paths::V3_ME))
                .timeout(READY_TIMEOUT)
                .send()
                .await;
            let ready = matches!(probe, Ok(res) if !res.status().is_server_error());
            *last = Some((Instant::now(), ready));
            ready
        }
    };
    drop(last);
    if ready {
        status(StatusCode::OK, "ready")
    } else {
        status(
            StatusCode::SERVICE_UNAVAILABLE,
            "the platform does not answer",
        )
    }
}
