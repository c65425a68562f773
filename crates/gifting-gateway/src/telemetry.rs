//! What the gateway counts, for Prometheus: requests by route template and status class,
//! their latency, requests in flight, the platform's answers by outcome, the token relay's
//! outcomes, rate-limit refusals, connections closed for slowness, and the build.
//!
//! Every label comes from a fixed set (a route template, a status class, an outcome), never
//! from what a client sent: the number of series stays bounded whatever the traffic, and no
//! path, query, token, address or email can reach a scraper.
//!
//! Each gateway records into a recorder of its own (the `metrics` crate's local recorder,
//! rendered by `metrics-exporter-prometheus`), so several gateways in one process (the tests)
//! never mix their counts; the exposition is served on `--metrics-addr` only, a listener apart
//! from the public one.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use metrics::{counter, gauge, histogram, with_local_recorder, Gauge};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle, PrometheusRecorder};

/// Latency buckets in seconds: from a static file served from memory to a relayed call that
/// waited out the longest platform timeout the flags allow.
const LATENCY_BUCKETS: [f64; 14] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

/// How the platform answered one request from the gateway.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Upstream {
    Answered,
    Timeout,
    Unreachable,
}

impl Upstream {
    pub fn label(self) -> &'static str {
        match self {
            Upstream::Answered => "answered",
            Upstream::Timeout => "timeout",
            Upstream::Unreachable => "unreachable",
        }
    }
}

/// What a token relay request was for, as far as the gateway knows when it ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenOp {
    /// `authorization_code`: a sign-in.
    Code,
    /// `refresh_token`.
    Refresh,
    /// A revocation (sign-out).
    Revoke,
    /// A post to the token endpoint refused before its grant was read, or with no grant the
    /// gateway relays.
    Token,
}

/// How a token relay request ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenOutcome {
    /// The platform answered 2xx.
    Relayed,
    /// The platform refused it (4xx: an expired code, a spent refresh token).
    PlatformRefused,
    /// The platform failed (5xx), did not answer or could not be reached.
    PlatformFailed,
    /// Refused by the gateway: another origin or a cross-site post.
    RefusedOrigin,
    /// Refused by the gateway: not a form post.
    RefusedType,
    /// Refused by the gateway: over the client address's rate limit.
    RefusedLimit,
    /// Refused by the gateway: not a request the console makes (no PKCE verifier, another
    /// grant, a body that is no form).
    RefusedInvalid,
}

impl TokenOutcome {
    pub fn label(self) -> &'static str {
        match self {
            TokenOutcome::Relayed => "relayed",
            TokenOutcome::PlatformRefused => "platform_refused",
            TokenOutcome::PlatformFailed => "platform_failed",
            TokenOutcome::RefusedOrigin => "refused_origin",
            TokenOutcome::RefusedType => "refused_type",
            TokenOutcome::RefusedLimit => "refused_limit",
            TokenOutcome::RefusedInvalid => "refused_invalid",
        }
    }

    /// The outcome of a request the gateway relayed, from the status the browser got: the
    /// gateway's own 502/504 when the platform did not answer counts as a failure too.
    pub fn of_status(status: u16) -> TokenOutcome {
        match status {
            200..=299 => TokenOutcome::Relayed,
            500..=599 => TokenOutcome::PlatformFailed,
            _ => TokenOutcome::PlatformRefused,
        }
    }
}

impl TokenOp {
    pub fn label(self) -> &'static str {
        match self {
            TokenOp::Code => "code",
            TokenOp::Refresh => "refresh",
            TokenOp::Revoke => "revoke",
            TokenOp::Token => "token",
        }
    }
}

/// Why a connection was closed before its request was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slow {
    /// The request head did not arrive within `--header-timeout-secs`.
    Head,
    /// The body did not arrive within `--body-timeout-secs` (answered 408).
    Body,
}

/// "2xx" … "5xx": the class is the label, so a client inventing statuses cannot add series.
fn status_class(status: u16) -> &'static str {
    match status {
        100..=199 => "1xx",
        200..=299 => "2xx",
        300..=399 => "3xx",
        400..=499 => "4xx",
        _ => "5xx",
    }
}

/// One gateway's metrics.
pub struct Telemetry {
    recorder: PrometheusRecorder,
    handle: PrometheusHandle,
    in_flight: Gauge,
}

impl std::fmt::Debug for Telemetry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Telemetry")
    }
}

impl Default for Telemetry {
    fn default() -> Self {
        Self::new()
    }
}

impl Telemetry {
    pub fn new() -> Telemetry {
        let recorder = PrometheusBuilder::new()
            .set_buckets(&LATENCY_BUCKETS)
            // Refused only for an empty list of buckets; then summaries instead.
            .unwrap_or_else(|_| PrometheusBuilder::new())
            .build_recorder();
        let handle = recorder.handle();
        let in_flight = with_local_recorder(&recorder, || {
            describe();
            gauge!("gateway_build_info", "version" => env!("CARGO_PKG_VERSION")).set(1.0);
            gauge!("gateway_requests_in_flight")
        });
        Telemetry {
            recorder,
            handle,
            in_flight,
        }
    }

    fn record<T>(&self, f: impl FnOnce() -> T) -> T {
        with_local_recorder(&self.recorder, f)
    }

    /// One request answered: `route` is a template (see `log::route_label`).
    pub fn request(&self, route: &'static str, status: u16, latency: Duration) {
        let class = status_class(status);
        self.record(|| {
            counter!("gateway_http_requests_total", "route" => route, "status" => class)
                .increment(1);
            histogram!("gateway_http_request_duration_seconds", "route" => route)
                .record(latency.as_secs_f64());
        });
    }

    /// A request started; it counts as in flight until the guard is dropped.
    pub fn in_flight(&self) -> InFlight {
        self.in_flight.increment(1.0);
        InFlight(self.in_flight.clone())
    }

    /// One request the gateway sent the platform, by how it ended.
    pub fn upstream(&self, outcome: Upstream) {
        self.record(|| {
            counter!("gateway_platform_requests_total", "outcome" => outcome.label()).increment(1);
        });
    }

    /// One token relay request, by what it was for and how it ended.
    pub fn token_relay(&self, op: TokenOp, outcome: TokenOutcome) {
        self.record(|| {
            counter!("gateway_token_relay_total",
                "operation" => op.label(), "outcome" => outcome.label())
            .increment(1);
        });
    }

    /// One request refused by the token relay's rate limit.
    pub fn rate_limited(&self) {
        self.record(|| counter!("gateway_rate_limit_refusals_total").increment(1));
    }

    /// One connection closed because the client was too slow.
    pub fn closed_slow(&self, what: Slow) {
        let phase = match what {
            Slow::Head => "head",
            Slow::Body => "body",
        };
        self.record(|| {
            counter!("gateway_connections_closed_slow_total", "phase" => phase).increment(1);
        });
    }

    /// The Prometheus text exposition of everything recorded so far.
    pub fn render(&self) -> String {
        self.handle.run_upkeep();
        self.handle.render()
    }
}

/// Keeps a request counted in `gateway_requests_in_flight` while it lives.
pub struct InFlight(Gauge);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.decrement(1.0);
    }
}

fn describe() {
    use metrics::{describe_counter, describe_gauge, describe_histogram, Unit};
    describe_counter!(
        "gateway_http_requests_total",
        "Requests answered, by route template and status class."
    );
    describe_histogram!(
        "gateway_http_request_duration_seconds",
        Unit::Seconds,
        "Time from a request's head to its answer's head, by route template."
    );
    describe_gauge!(
        "gateway_requests_in_flight",
        "Requests received and not yet answered."
    );
    describe_counter!(
        "gateway_platform_requests_total",
        "Requests to the platform, by outcome: answered, timeout, unreachable."
    );
    describe_counter!(
        "gateway_token_relay_total",
        "Token relay requests (code, refresh, revoke; token when refused before the grant \
         was read), by outcome."
    );
    describe_counter!(
        "gateway_rate_limit_refusals_total",
        "Token relay requests refused by the per-client rate limit."
    );
    describe_counter!(
        "gateway_connections_closed_slow_total",
        "Connections closed because a request's head or body arrived too slowly."
    );
    describe_gauge!(
        "gateway_build_info",
        "Always 1; the version of the running gateway in its label."
    );
}

/// The metrics listener's only route: `GET /metrics`.
pub fn router(telemetry: Arc<Telemetry>) -> Router {
    Router::new()
        .route("/metrics", get(exposition))
        .with_state(telemetry)
}

async fn exposition(State(telemetry): State<Arc<Telemetry>>) -> Response {
    let mut res = telemetry.render().into_response();
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"),
    );
    res
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::{to_bytes, Body};
    use axum::http::{Request, StatusCode};
    use tower::ServiceExt as _;

    async fn scrape(t: Arc<Telemetry>) -> String {
        let res = router(t)
            .oneshot(
                Request::get("/metrics")
                    .body(Body::empty())
                    .expect("request"),
            )
            .await
            .expect("answer");
        assert_eq!(res.status(), StatusCode::OK);
        assert!(res.headers()[header::CONTENT_TYPE]
            .to_str()
            .is_ok_and(|ct| ct.starts_with("text/plain; version=0.0.4")));
        let body = to_bytes(res.into_body(), 1 << 20).await.expect("body");
        String::from_utf8(body.to_vec()).expect("utf-8")
    }

    #[tokio::test]
    async fn what_is_recorded_is_exposed_with_bounded_labels() {
        let t = Arc::new(Telemetry::new());
        t.request("/api/scim/v2/Users/{id}", 201, Duration::from_millis(3));
        t.request("/api/scim/v2/Users/{id}", 404, Duration::from_millis(1));
        t.upstream(Upstream::Timeout);
        t.token_relay(TokenOp::Refresh, TokenOutcome::of_status(200));
        t.token_relay(TokenOp::Token, TokenOutcome::RefusedLimit);
        t.rate_limited();
        t.closed_slow(Slow::Head);
        let held = t.in_flight();
        let text = scrape(t.clone()).await;
        for series in [
            r#"gateway_http_requests_total{route="/api/scim/v2/Users/{id}",status="2xx"} 1"#,
            r#"gateway_http_requests_total{route="/api/scim/v2/Users/{id}",status="4xx"} 1"#,
            r#"gateway_http_request_duration_seconds_bucket{route="/api/scim/v2/Users/{id}",le="0.005"} 2"#,
            r#"gateway_platform_requests_total{outcome="timeout"} 1"#,
            r#"gateway_token_relay_total{operation="refresh",outcome="relayed"} 1"#,
            r#"gateway_token_relay_total{operation="token",outcome="refused_limit"} 1"#,
            "gateway_rate_limit_refusals_total 1",
            r#"gateway_connections_closed_slow_total{phase="head"} 1"#,
            "gateway_requests_in_flight 1",
            concat!(
                r#"gateway_build_info{version=""#,
                env!("CARGO_PKG_VERSION"),
                r#""} 1"#
            ),
            "# TYPE gateway_http_request_duration_seconds histogram",
        ] {
            assert!(text.contains(series), "no {series} in\n{text}");
        }
        drop(held);
        assert!(scrape(t).await.contains("gateway_requests_in_flight 0"));
    }

    #[test]
    fn gateways_in_one_process_keep_their_own_counts() {
        let a = Telemetry::new();
        let b = Telemetry::new();
        a.rate_limited();
        assert!(a.render().contains("gateway_rate_limit_refusals_total 1"));
        assert!(!b.render().contains("gateway_rate_limit_refusals_total"));
    }

    #[test]
    fn statuses_fall_into_classes() {
        assert_eq!(status_class(204), "2xx");
        assert_eq!(status_class(302), "3xx");
        assert_eq!(status_class(429), "4xx");
        assert_eq!(status_class(999), "5xx");
        assert_eq!(TokenOutcome::of_status(400), TokenOutcome::PlatformRefused);
        assert_eq!(TokenOutcome::of_status(504), TokenOutcome::PlatformFailed);
    }
}
