//! Hosting the built console (the shared [`gifting_web::site`] code) with the sandbox's own
//! `/config.json` and CSP.

use std::path::Path;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::routing::get;
use axum::Router;
use gifting_web::security::Csp;
use gifting_web::site::{console_files, ConsoleConfig};

use crate::host::origin;
use crate::state::{Shared, CLIENT_ID};

/// The console's policy here: images from anywhere over http(s) (the catalog's CDN), API
/// calls to the sandbox itself and to each `--allow-origin`.
pub fn console_csp(allow_origins: &[String]) -> String {
    Csp {
        img_src: ["data:", "http:", "https:"].map(String::from).to_vec(),
        connect_src: allow_origins.to_vec(),
    }
    .header_value()
}

/// The console's runtime configuration, pointing at this sandbox on whichever host name the
/// browser used. A public PKCE client: no secret.
pub async fn config_json(State(app): State<Shared>, headers: HeaderMap) -> ConsoleConfig {
    let base = origin(&headers, app.port);
    ConsoleConfig {
        base_url: base.clone(),
        auth_url: base,
        client_id: CLIENT_ID.to_owned(),
        scope: "scim marketplace".to_owned(),
        redirect_path: "/auth/callback".to_owned(),
    }
}

/// Everything that is not /api, /oauth, /cdn or /__sandbox.
pub fn router(dir: Option<&Path>, csp: &str) -> Router<Shared> {
    Router::new()
        .route("/config.json", get(config_json))
        .merge(console_files(dir, csp))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csp_lists_allowed_origins() {
        let csp = console_csp(&["http://localhost:3000".into()]);
        assert!(csp.contains("connect-src 'self' http://localhost:3000;"));
        assert!(csp.contains("img-src 'self' data: http: https:;"));
        assert!(csp.contains("frame-ancestors 'none'"));
    }
}
