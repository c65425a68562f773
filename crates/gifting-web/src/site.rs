//! Hosting the built console: the files of `dist/` (their precompressed `.br`/`.gz` copies
//! when the browser takes them), `index.html` for client-side routes, the console's CSP, and
//! cache headers; plus the `/config.json` answer each server fills in its own way.

use std::convert::Infallible;
use std::path::{Path, PathBuf};

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::{Json, Router};
use serde::Serialize;
use tower::service_fn;
use tower::ServiceExt as _;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;

/// The console's runtime configuration (`/config.json`). Public: no secret ever goes here.
#[derive(Clone, Debug, Serialize)]
pub struct ConsoleConfig {
    pub base_url: String,
    pub auth_url: String,
    pub client_id: String,
    pub scope: String,
    pub redirect_path: String,
}

impl IntoResponse for ConsoleConfig {
    /// Revalidated on every load: a changed deployment takes effect at the next reload.
    fn into_response(self) -> Response {
        let mut res = Json(self).into_response();
        res.headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        res
    }
}

/// The build names the stylesheet and the icon `name-<hash>.ext`, and puts the wasm and its
/// chunks under `app-<hash>/`: such a file never changes, so it may be cached for
/// a year. Anything else is revalidated.
fn is_hashed_asset(path: &str) -> bool {
    let hashed = |name: &str| {
        name.split(['-', '.', '_']).any(|part| {
            part.len() >= 8
                && part.len() <= 64
                && part.bytes().all(|b| b.is_ascii_hexdigit())
                && part.bytes().any(|b| b.is_ascii_digit())
        })
    };
    let file = path.rsplit('/').next().unwrap_or("");
    let mut folders = path.trim_start_matches('/').split('/').rev().skip(1);
    names_a_file(path) && !file.ends_with(".html") && (hashed(file) || folders.any(hashed))
}

/// A path whose last segment ends in `.ext` names a file, never a client-side route: when it
/// is missing the answer is 404, not the console (which would load as a broken script or
/// image, or hide a deployment that lost a file).
fn names_a_file(path: &str) -> bool {
    let last = path.rsplit('/').next().unwrap_or("");
    match last.rsplit_once('.') {
        Some((stem, ext)) => {
            !stem.is_empty()
                && (1..=8).contains(&ext.len())
                && ext.bytes().all(|b| b.is_ascii_alphanumeric())
        }
        None => false,
    }
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

fn text(status: StatusCode, body: &'static str) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        body,
    )
        .into_response()
}

/// What `ServeDir` falls back to when no file matches: the console for a client route,
/// 404 for a missing file.
async fn spa_fallback(index: PathBuf, req: Request) -> Result<Response, Infallible> {
    if names_a_file(req.uri().path()) {
        return Ok(text(StatusCode::NOT_FOUND, "Not found.\n"));
    }
    let res = ServeFile::new(index).oneshot(req).await?;
    Ok(res.map(Body::new))
}

/// Every path the server does not route itself: the console from `dir`, or, without one, a
/// 404 that says how to serve it.
pub fn console_files<S>(dir: Option<&Path>, csp: &str) -> Router<S>
where
    S: Clone + Send + Sync + 'static,
{
    let Some(dir) = dir else {
        return Router::new().fallback(|| async {
            text(
                StatusCode::NOT_FOUND,
                "No console is served here (start with --static DIR to serve one).\n",
            )
        });
    };
    let index = dir.join("index.html");
    let fallback = service_fn(move |req: Request| spa_fallback(index.clone(), req));
    let serve = ServeDir::new(dir)
        .precompressed_br()
        .precompressed_gzip()
        .fallback(fallback);
    let csp = HeaderValue::from_str(csp)
        .unwrap_or_else(|_| HeaderValue::from_static("default-src 'none'"));
    Router::new()
        .fallback_service(serve)
        .layer(middleware::from_fn(cache_headers))
        .layer(SetResponseHeaderLayer::overriding(
            header::CONTENT_SECURITY_POLICY,
            csp,
        ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::to_bytes;

    #[test]
    fn recognizes_content_hashed_names() {
        assert!(is_hashed_asset("/gifting-console-3f2a9c0b1d4e5f67_bg.wasm"));
        assert!(is_hashed_asset("/style-0a1b2c3d4e5f6071.css"));
        assert!(!is_hashed_asset("/index.html"));
        assert!(!is_hashed_asset("/favicon.ico"));
        assert!(!is_hashed_asset("/users/42"));
        assert!(is_hashed_asset("/app-3f2a9c0b1d4e5f67/chunk_12.wasm"));
        assert!(is_hashed_asset("/app-3f2a9c0b1d4e5f67/__wasm_split.js"));
        // A client route with a long hex id is not an asset.
        assert!(!is_hashed_asset("/catalog/5f2a9c0b1d4e5f6701234567"));
    }

    #[test]
    fn tells_files_from_client_routes() {
        for file in [
            "/favicon.ico",
            "/a/b.wasm",
            "/gifting-console-3f2a_bg.wasm",
            "/x.br",
        ] {
            assert!(names_a_file(file), "{file}");
        }
        for route in [
            "/",
            "/users",
            "/users/1042",
            "/teams/users",
            "/.hidden",
            "/a.b.c.toolong12",
        ] {
            assert!(!names_a_file(route), "{route}");
        }
    }

    fn dist(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("gifting-web-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(dir.join("index.html"), "<!doctype html><title>c</title>").expect("index");
        dir
    }

    async fn get(router: Router, path: &str) -> (StatusCode, Response) {
        let req = Request::builder()
            .uri(path)
            .body(Body::empty())
            .expect("request");
        let res = router.oneshot(req).await.expect("infallible");
        (res.status(), res)
    }

    #[tokio::test]
    async fn client_routes_get_the_console_and_missing_files_a_404() {
        let dir = dist("fallback");
        let router: Router = console_files(Some(&dir), "default-src 'self'");
        let (status, res) = get(router.clone(), "/users/1042").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            res.headers()["content-security-policy"],
            "default-src 'self'"
        );
        let body = to_bytes(res.into_body(), 1 << 16).await.expect("body");
        assert!(body.starts_with(b"<!doctype html>"));
        for missing in ["/favicon.ico", "/gifting-console-0123456789abcdef_bg.wasm"] {
            let (status, res) = get(router.clone(), missing).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{missing}");
            let body = to_bytes(res.into_body(), 1 << 16).await.expect("body");
            assert!(!body.starts_with(b"<!doctype html>"), "{missing}");
        }
        std::fs::remove_dir_all(dir).ok();
    }

    #[tokio::test]
    async fn config_json_is_revalidated() {
        let res = ConsoleConfig {
            base_url: "https://console.example.com".into(),
            auth_url: "https://console.example.com".into(),
            client_id: "c".into(),
            scope: "scim".into(),
            redirect_path: "/auth/callback".into(),
        }
        .into_response();
        assert_eq!(res.headers()["cache-control"], "no-cache");
        let body = to_bytes(res.into_body(), 1 << 16).await.expect("body");
        let v: serde_json::Value = serde_json::from_slice(&body).expect("json");
        assert_eq!(v["client_id"], "c");
        assert!(v.get("client_secret").is_none());
    }
}
