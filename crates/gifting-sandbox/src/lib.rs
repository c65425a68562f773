//! The gifting platform sandbox: a local stand-in for the platform's OAuth 2.0, SCIM,
//! REST v3 and marketplace APIs, with seeded data, a tiny image CDN, fault injection, and
//! hosting of the built console.
//!
//! The binary is a thin wrapper over [`bind`] and [`serve`]; tests start the same server
//! in-process with [`spawn`].

pub mod api_auth;
pub mod cdn;
pub mod config;
pub mod data;
pub mod extract;
pub mod faults;
pub mod hooks;
pub mod host;
pub mod html;
pub mod live;
pub mod marketplace;
pub mod oauth;
pub mod routing;
pub mod scim;
pub mod server;
pub mod state;
pub mod static_files;
pub mod stores;
pub mod v3;

pub use gifting_web::errors;

use std::future::Future;
use std::io;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderValue, Method};
use axum::middleware::{from_fn, from_fn_with_state};
use axum::routing::any;
use axum::Router;
use gifting_web::background::Running;
use tokio::net::TcpListener;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};

pub use config::Config;
pub use state::{AppState, Shared, CLIENT_ID, CLIENT_SECRET};

/// The /api tree: faults and rate limit first, then the bearer check, then each area's gate.
fn api(state: &Shared) -> Router<Shared> {
    Router::new()
        .nest(
            below_api(scim::PREFIX),
            scim::router().route_layer(from_fn(api_auth::require_scim_admin)),
        )
        .nest(
            below_api(marketplace::PREFIX),
            marketplace::router().route_layer(from_fn(api_auth::require_marketplace)),
        )
        .nest(below_api(v3::PREFIX), v3::router())
        .fallback(v3::not_found)
        .method_not_allowed_fallback(v3::method_not_allowed)
        .layer(from_fn_with_state(state.clone(), api_auth::require_bearer))
        .layer(from_fn_with_state(state.clone(), faults::api_chaos))
}

/// An area's prefix inside the `/api` nest: `/api/v3` → `/v3`.
fn below_api(prefix: &'static str) -> &'static str {
    prefix.strip_prefix(API).unwrap_or(prefix)
}

const API: &str = "/api";

fn cors(origins: &[String]) -> Option<CorsLayer> {
    let list: Vec<HeaderValue> = origins
        .iter()
        .filter_map(|o| match HeaderValue::from_str(o.trim_end_matches('/')) {
            Ok(v) => Some(v),
            Err(_) => {
                tracing::warn!("ignoring --allow-origin {o:?}: not a valid header value");
                None
            }
        })
        .collect();
    (!list.is_empty()).then(|| {
        CorsLayer::new()
            .allow_origin(AllowOrigin::list(list))
            .allow_methods([Method::GET, Method::POST, Method::PUT])
            .allow_headers([header::AUTHORIZATION, header::CONTENT_TYPE, header::ACCEPT])
            .expose_headers([
                header::RETRY_AFTER,
                header::WWW_AUTHENTICATE,
                header::LOCATION,
            ])
            .max_age(Duration::from_secs(600))
    })
}

/// The whole application for an already-built state.
pub fn app(state: Shared) -> Router {
    let cfg = &state.config;
    let csp = static_files::console_csp(&cfg.allow_origins);
    // A nested router does not see its bare `/prefix/`; route those explicitly so they
    // get their family's 404 rather than the console's index.html.
    let mut router = Router::new()
        .nest(API, api(&state))
        .route("/api/", any(v3::not_found))
        .nest("/oauth", oauth::router())
        .route("/oauth/", any(oauth::not_found))
        .nest("/cdn", cdn::router())
        .route("/cdn/", any(cdn::not_found));
    if cfg.test_hooks {
        router = router
            .nest("/__sandbox", hooks::router())
            .route("/__sandbox/", any(hooks::not_found));
    }
    router = router
        .merge(static_files::router(cfg.static_dir.as_deref(), &csp))
        .layer(DefaultBodyLimit::max(cfg.body_limit));
    if let Some(cors) = cors(&cfg.allow_origins) {
        router = router.layer(cors);
    }
    router = router.layer(CatchPanicLayer::custom(panic_response));
    // Outside CORS and the panic handler, so a preflight and a 500 carry them too. The
    // sandbox speaks plain http: no HSTS.
    gifting_web::security::with_security_headers(router, false)
        .layer(CompressionLayer::new())
        .with_state(state)
}

/// A bug must not take a connection down with it: answer 500 with a JSON message (and no
/// details; the panic itself goes to stderr).
fn panic_response(_: Box<dyn std::any::Any + Send + 'static>) -> axum::response::Response {
    axum::response::IntoResponse::into_response(errors::ApiError::new(
        axum::http::StatusCode::INTERNAL_SERVER_ERROR,
        "The sandbox hit an internal error.",
    ))
}

/// Binds `config.addr` and builds the state for the port actually bound.
pub async fn bind(config: Config) -> io::Result<(TcpListener, Shared)> {
    let listener = TcpListener::bind(config.addr).await?;
    let port = listener.local_addr()?.port();
    Ok((listener, AppState::new(config, port)))
}

/// Serves until `shutdown` resolves, then drains in-flight requests. With `--live`, the
/// platform also moves once a second between requests.
pub async fn serve(
    listener: TcpListener,
    state: Shared,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let ticks = state
        .live_clock()
        .is_some()
        .then(|| tokio::spawn(live_ticks(state.clone())));
    let served = server::run(listener, app(state), shutdown).await;
    if let Some(ticks) = ticks {
        ticks.abort();
    }
    served
}

/// Catches up with the live platform every second, so a read after a quiet hour has only a
/// second to apply.
async fn live_ticks(state: Shared) {
    let mut every = tokio::time::interval(Duration::from_secs(1));
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        state.catch_up();
    }
}

/// A sandbox running in the background of the current tokio runtime (for tests and benches).
pub type RunningSandbox = Running<Shared>;

/// Binds and serves in a background task.
pub async fn spawn(config: Config) -> io::Result<RunningSandbox> {
    let (listener, state) = bind(config).await?;
    Running::spawn(listener, state, |listener, state, stop| {
        serve(listener, state, stop)
    })
}
