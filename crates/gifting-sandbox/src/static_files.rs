//! Hosting the built console: files from `--static DIR` with index.html as the fallback for
//! client-side routes, the console's CSP, cache headers, and `/config.json`.

use std::path::Path;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;

use crate::host::origin;
use crate::state::{Shared, CLIENT_ID};

/// The console's policy: scripts only from itself (plus wasm compilation), no inline code,
/// images from anywhere over http(s) (the catalog's CDN), API calls to itself and to each
/// `--allow-origin`.
pub fn console_csp(allow_origins: &[String]) -> String {
    let mut connect = String::from("'self'");
    for o in allow_origins {
        connect.push(' ');
        connect.push_str(o);
    }
    format!(
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; \
         img-src 'self' data: http: https:; connect-src {connect}; object-src 'none'; \
         base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
    )
}

#[derive(Serialize)]
struct ConsoleConfig {
    base_url: String,
    auth_url: String,
    client_id: &'static str,
    scope: &'static str,
    redirect_path: &'static str,
}

/// The console's runtime configuration, pointing at this sandbox on whichever host name the
/// browser used. A public PKCE client: no secret.
pub async fn config_json(State(app): State<Shared>, headers: HeaderMap) -> Response {
    let base = origin(&headers, app.port);
    let mut res = Json(ConsoleConfig {
        base_url: base.clone(),
        auth_url: base,
        client_id: CLIENT_ID,
        scope: "scim marketplace",
        redirect_path: "/auth/callback",
    })
    .into_response();
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    res
}

/// Trunk names bundles `name-<hash>.ext` / `name-<hash>_bg.wasm`: such a file never changes,
/// so it may be cached for a year. Anything else is revalidated.
fn is_hashed_asset(path: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or("");
    file.split(['-', '.', '_']).any(|part| {
        part.len() >= 8
            && part.len() <= 64
            && part.bytes().all(|b| b.is_ascii_hexdigit())
            && part.bytes().any(|b| b.is_ascii_digit())
    }) && !file.ends_with(".html")
}

async fn cache_headers(req: Request, next: Next) -> Response {
    let hashed = is_hashed_asset(req.uri().path());
    let mut res = next.run(req).await;
    if res.status() == StatusCode::OK || res.status() == StatusCode::NOT_MODIFIED {
        let html = res
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|ct| ct.starts_with("text/html"));
        let value = if hashed && !html {
            "public, max-age=31536000, immutable"
        } else {
            "no-cache"
        };
        res.headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    }
    // A file may be answered from its `.br`/`.gz` copy: a shared cache must keep the
    // variants apart, or it could hand brotli to a browser that asked for none.
    if !res.headers().contains_key(header::VARY) {
        res.headers_mut()
            .insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    res
}

async fn no_console() -> Response {
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        "gifting-sandbox: no console is served here (start with --static DIR to serve one).\n",
    )
        .into_response()
}

/// Everything that is not /api, /oauth, /cdn, /config.json or /__sandbox.
pub fn router(dir: Option<&Path>, csp: &str) -> Router<Shared> {
    let base = Router::new().route("/config.json", get(config_json));
    let csp_layer = SetResponseHeaderLayer::overriding(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_str(csp)
            .unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'")),
    );
    match dir {
        Some(dir) => {
            let serve = ServeDir::new(dir)
                .precompressed_br()
                .precompressed_gzip()
                .fallback(ServeFile::new(dir.join("index.html")));
            let files = Router::new()
                .fallback_service(serve)
                .layer(middleware::from_fn(cache_headers))
                .layer(csp_layer);
            base.merge(files)
        }
        None => base.fallback(no_console),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognizes_trunk_hashed_names() {
        assert!(is_hashed_asset("/gifting-console-3f2a9c0b1d4e5f67_bg.wasm"));
        assert!(is_hashed_asset("/style-0a1b2c3d4e5f6071.css"));
        assert!(!is_hashed_asset("/index.html"));
        assert!(!is_hashed_asset("/favicon.ico"));
        assert!(!is_hashed_asset("/users/42"));
    }

    #[test]
    fn csp_lists_allowed_origins() {
        let csp = console_csp(&["http://localhost:3000".into()]);
        assert!(csp.contains("connect-src 'self' http://localhost:3000;"));
        assert!(csp.contains("frame-ancestors 'none'"));
    }
}
