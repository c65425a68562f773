//! The API relay: the console's API calls, on the console's own origin, forwarded to the
//! platform's `base_url`. Only the endpoints and methods the console uses (the contract's
//! [`paths::ENDPOINTS`]) are forwarded; the URL is always the configured platform's, whatever
//! the request's Host or form; the answer comes back as the platform gave it, streamed (a
//! team group's members without their invitation keys unless the token's user is an admin:
//! [`members`]), and is never stored by the browser.

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use axum::Router;
use gifting_api::paths::{self, ApiFamily};
use gifting_web::errors::{ApiError, ScimFailure};
use gifting_web::security::answers_policy;

use crate::log::{RequestId, UpstreamFailure};
use crate::members::{self, Unfiltered, MEMBERS_BODY_LIMIT};
use crate::state::Shared;
use crate::upstream::Unanswered;
use crate::upstream::{
    never_stored, read_request_body, request_headers, send, stream_back, BodyRefused,
};

/// Every answer under `/api`, relayed or the gateway's own, carries a policy that renders
/// nothing (an HTML answer from the platform opened on the console's origin stays inert), and
/// is never stored: whatever the platform said about caching, nothing a session read stays
/// in the browser's cache after sign-out.
pub fn router() -> Router<Shared> {
    never_stored(
        Router::new()
            .route("/api", any(relay))
            .route("/api/", any(relay))
            .route("/api/{*rest}", any(relay))
            .layer(answers_policy()),
    )
}

/// An error the gateway answers itself, in the body of the path's API family.
fn refusal(family: ApiFamily, status: StatusCode, message: &str) -> Response {
    match family {
        ApiFamily::Scim => ScimFailure::new(status, None, message).into_response(),
        ApiFamily::Rest => ApiError::new(status, message).into_response(),
    }
}

fn unanswered(family: ApiFamily, kind: Unanswered) -> Response {
    let message = match kind {
        Unanswered::Unreachable => "The platform could not be reached.",
        Unanswered::TimedOut => "The platform did not answer in time.",
    };
    kind.mark(refusal(family, kind.status(), message))
}

async fn relay(State(gw): State<Shared>, req: Request) -> Response {
    let path = req.uri().path().to_owned();
    let family = paths::api_family(&path);
    let Some(route) = paths::match_api_route(&path) else {
        return refusal(
            family,
            StatusCode::NOT_FOUND,
            "There is no such API endpoint.",
        );
    };
    if !route.allows(req.method().as_str()) {
        let mut res = refusal(
            family,
            StatusCode::METHOD_NOT_ALLOWED,
            "This endpoint does not take that method.",
        );
        if let Ok(allow) = HeaderValue::from_str(&route.methods().collect::<Vec<_>>().join(", ")) {
            res.headers_mut().insert(header::ALLOW, allow);
        }
        return res;
    }
    let (parts, body) = req.into_parts();
    let limit = gw.config.body_limit;
    let within = gw.config.body_timeout;
    let body = match read_request_body(body, limit, within).await {
        Ok(body) => body,
        Err(why) => {
            let message = match why {
                BodyRefused::TooLarge => format!("The request body is larger than {limit} bytes."),
                BodyRefused::TooSlow => format!(
                    "The request body did not arrive within {} s.",
                    within.as_secs()
                ),
            };
            return why.finish(refusal(family, why.status(), &message));
        }
    };
    let url = match parts.uri.query() {
        Some(query) => format!("{}{path}?{query}", gw.config.platform_url),
        None => format!("{}{path}", gw.config.platform_url),
    };
    let id = parts.extensions.get::<RequestId>();
    let mut headers = request_headers(&parts.headers, id);
    let keys_filtered = members::is_members_read(&route, &parts.method);
    if keys_filtered {
        members::plain_answer(&mut headers);
    }
    let request = gw
        .http
        .request(parts.method.clone(), url)
        .headers(headers)
        .body(body);
    match send(&gw, request).await {
        Ok(res) if keys_filtered => {
            let authorization = parts.headers.get(header::AUTHORIZATION);
            let answer = members::answer(&gw, res, authorization, id).await;
            answer.unwrap_or_else(|why| unfiltered(family, why))
        }
        Ok(res) => stream_back(res),
        Err(kind) => unanswered(family, kind),
    }
}

/// A members answer the gateway had to filter and could not: nothing rather than keys.
fn unfiltered(family: ApiFamily, why: Unfiltered) -> Response {
    let (message, label) = match why {
        Unfiltered::Platform(kind) => return unanswered(family, kind),
        Unfiltered::TooLarge => (
            format!(
                "The platform's list of members is larger than the {} MiB the gateway reads \
                 to remove invitation keys.",
                MEMBERS_BODY_LIMIT / (1024 * 1024)
            ),
            "too_large",
        ),
        Unfiltered::Unreadable => (
            "The platform's list of members could not be read to remove invitation keys."
                .to_owned(),
            "unreadable",
        ),
    };
    let mut res = refusal(family, StatusCode::BAD_GATEWAY, &message);
    res.extensions_mut().insert(UpstreamFailure(label));
    res
}
