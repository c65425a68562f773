//! The origin a request came in on (see [`gifting_web::origin`]); the sandbox speaks plain
//! http and falls back to its loopback address when the Host header is unusable.

use axum::http::HeaderMap;

pub fn origin(headers: &HeaderMap, port: u16) -> String {
    gifting_web::origin::from_host(headers, "http")
        .unwrap_or_else(|| format!("http://127.0.0.1:{port}"))
}
