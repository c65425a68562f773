//! Fault injection, latency and rate limiting for `/api`, so clients can be tested against a
//! platform that misbehaves the way real ones do. Nothing here touches /oauth, /cdn, the
//! static files or /__sandbox: the layer is only applied to the /api router.

use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

use crate::api_auth::bearer_token;
use crate::errors::ApiError;
use crate::state::{Shared, Stats};

/// Marks a response whose connection must be cut instead of answered. The connection loop
/// sees it and fails the request at the HTTP layer, so the client gets a real reset/close.
#[derive(Debug, Clone, Copy)]
pub struct DropConnection;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fault {
    ServerError,
    Unavailable,
    TooManyRequests,
    Drop,
}

fn fault_response(fault: Fault) -> Response {
    match fault {
        Fault::ServerError => ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Injected fault: the platform had an internal error.",
        )
        .into_response(),
        Fault::Unavailable => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "Injected fault: the platform is temporarily unavailable.",
        )
        .retry_after(1)
        .into_response(),
        Fault::TooManyRequests => ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "Injected fault: too many requests, slow down.",
        )
        .retry_after(1)
        .into_response(),
        Fault::Drop => {
            let mut res = StatusCode::INTERNAL_SERVER_ERROR.into_response();
            res.extensions_mut().insert(DropConnection);
            res
        }
    }
}

/// The /api middleware: latency, then faults, then the per-token rate limit.
pub async fn api_chaos(State(app): State<Shared>, req: Request, next: Next) -> Response {
    Stats::bump(&app.stats.api_requests);
    let cfg = &app.config;
    // Roll the dice up front and release the lock before awaiting anything.
    let (delay, fault) = {
        let mut dice = app.dice();
        let delay = if cfg.latency_ms > 0 {
            dice.below(cfg.latency_ms + 1)
        } else {
            0
        };
        let fault =
            (cfg.fault_rate > 0.0 && dice.unit() < cfg.fault_rate).then(|| match dice.below(4) {
                0 => Fault::ServerError,
                1 => Fault::Unavailable,
                2 => Fault::TooManyRequests,
                _ => Fault::Drop,
            });
        (delay, fault)
    };
    if delay > 0 {
        tokio::time::sleep(Duration::from_millis(delay)).await;
    }
    if let Some(fault) = fault {
        Stats::bump(&app.stats.faults_injected);
        return fault_response(fault);
    }
    if cfg.rate_limit > 0 {
        let key: [u8; 32] =
            Sha256::digest(bearer_token(req.headers()).unwrap_or("").as_bytes()).into();
        if app.limiter().allow(key).is_err() {
            Stats::bump(&app.stats.rate_limited);
            let mut res = ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "Rate limit exceeded: at most {} requests per second per token.",
                    cfg.rate_limit
                ),
            )
            .retry_after(1)
            .into_response();
            res.headers_mut().insert(
                header::CACHE_CONTROL,
                header::HeaderValue::from_static("no-store"),
            );
            return res;
        }
    }
    next.run(req).await
}
