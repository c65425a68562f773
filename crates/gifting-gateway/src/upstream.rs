//! Talking to the platform: the browser's request body read within the gateway's limits, one
//! send with the gateway's timeout, the headers that may cross in each direction, and the
//! gateway's own question of who a token's user is. Headers are copied from an allowlist, so
//! hop-by-hop headers (`Connection` and those it names, `Keep-Alive`, `TE`,
//! `Transfer-Encoding`, `Upgrade`, `Proxy-*`), cookies and anything unknown never cross.

use std::time::Duration;

use axum::body::{to_bytes, Body, Bytes};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::response::Response;
use axum::Router;
use gifting_api::paths;
use gifting_api::rest::CurrentUser;

use tower_http::set_header::SetResponseHeaderLayer;

use crate::log::{RequestId, UpstreamFailure, REQUEST_ID};
use crate::state::Gateway;
use crate::telemetry::Upstream;

/// What the browser's request may carry on to the platform. No validator (`If-None-Match`):
/// an answer under `/api` is never stored (`Cache-Control: no-store`, set by the api area), so
/// a browser has nothing to revalidate, and the console sends none.
const TO_PLATFORM: [HeaderName; 4] = [
    header::AUTHORIZATION,
    header::ACCEPT,
    header::ACCEPT_ENCODING,
    header::CONTENT_TYPE,
];

/// What the platform's answer may carry back to the browser. None of the platform's caching
/// headers (`Cache-Control`, `Pragma`, `Expires`, `ETag`, `Last-Modified`): what a session read
/// must not stay in the browser's cache after sign-out, so the gateway says `no-store` itself.
const FROM_PLATFORM: [HeaderName; 7] = [
    header::CONTENT_TYPE,
    header::CONTENT_LENGTH,
    header::CONTENT_ENCODING,
    header::RETRY_AFTER,
    header::WWW_AUTHENTICATE,
    header::LOCATION,
    header::VARY,
];

fn copy(from: &HeaderMap, allowed: &[HeaderName]) -> HeaderMap {
    let mut to = HeaderMap::new();
    for name in allowed {
        for value in from.get_all(name) {
            to.append(name.clone(), value.clone());
        }
    }
    to
}

/// `router` with every answer marked never to be stored (`Cache-Control: no-store`, `Pragma:
/// no-cache`), whatever the platform or a handler said: nothing a session read or was refused
/// stays in the browser's cache after sign-out. The `/api` and `/oauth` areas are wrapped in it.
pub fn never_stored<S: Clone + Send + Sync + 'static>(router: Router<S>) -> Router<S> {
    let set =
        |name, value| SetResponseHeaderLayer::overriding(name, HeaderValue::from_static(value));
    router
        .layer(set(header::CACHE_CONTROL, "no-store"))
        .layer(set(header::PRAGMA, "no-cache"))
}

/// The browser's headers the platform may see, plus the request id.
pub fn request_headers(from: &HeaderMap, id: Option<&RequestId>) -> HeaderMap {
    let mut to = copy(from, &TO_PLATFORM);
    if let Some(Ok(value)) = id.map(|id| id.0.parse()) {
        to.insert(REQUEST_ID, value);
    }
    to
}

/// Why a request body was not read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyRefused {
    /// Longer than the limit: 413.
    TooLarge,
    /// Not all there within the body timeout (a client trickling it): 408.
    TooSlow,
}

impl BodyRefused {
    pub fn status(self) -> StatusCode {
        match self {
            BodyRefused::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            BodyRefused::TooSlow => StatusCode::REQUEST_TIMEOUT,
        }
    }

    /// The answer's last touch: after a body that did not arrive, the connection is closed
    /// (what is left of the body would otherwise be read as the next request).
    pub fn finish(self, mut res: Response) -> Response {
        if self == BodyRefused::TooSlow {
            res.headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        res
    }
}

/// The whole request body, at most `limit` bytes, all of it within `within`: a client that
/// trickles its body holds a connection for the body timeout, not for ever.
pub async fn read_request_body(
    body: Body,
    limit: usize,
    within: Duration,
) -> Result<Bytes, BodyRefused> {
    match tokio::time::timeout(within, to_bytes(body, limit)).await {
        Err(_) => Err(BodyRefused::TooSlow),
        Ok(Err(_)) => Err(BodyRefused::TooLarge),
        Ok(Ok(bytes)) => Ok(bytes),
    }
}

/// Why the platform gave no answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unanswered {
    /// No connection, or it broke before an answer: 502.
    Unreachable,
    /// No answer within the timeout: 504.
    TimedOut,
}

impl Unanswered {
    pub fn status(self) -> StatusCode {
        match self {
            Unanswered::Unreachable => StatusCode::BAD_GATEWAY,
            Unanswered::TimedOut => StatusCode::GATEWAY_TIMEOUT,
        }
    }

    /// Marks `res` so the request's log line says what happened upstream.
    pub fn mark(self, mut res: Response) -> Response {
        let label = match self {
            Unanswered::Unreachable => "unreachable",
            Unanswered::TimedOut => "timeout",
        };
        res.extensions_mut().insert(UpstreamFailure(label));
        res
    }
}

/// Sends `request` and waits for the answer's head, at most the configured timeout. The
/// error is only ever turned into a kind: reqwest's message names the URL, query and all.
pub async fn send(
    gw: &Gateway,
    request: reqwest::RequestBuilder,
) -> Result<reqwest::Response, Unanswered> {
    let answer = match tokio::time::timeout(gw.config.timeout, request.send()).await {
        Err(_) => Err(Unanswered::TimedOut),
        Ok(Err(e)) if e.is_timeout() => Err(Unanswered::TimedOut),
        Ok(Err(_)) => Err(Unanswered::Unreachable),
        Ok(Ok(res)) => Ok(res),
    };
    gw.telemetry.upstream(match answer {
        Ok(_) => Upstream::Answered,
        Err(Unanswered::TimedOut) => Upstream::Timeout,
        Err(Unanswered::Unreachable) => Upstream::Unreachable,
    });
    answer
}

/// Why the platform's answer body was not read whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnswerUnread {
    /// Longer than the reader's limit.
    TooLarge,
    /// The connection broke (or timed out) before its end.
    Broken,
}

/// The platform's whole answer body, at most `limit` bytes, for an answer the gateway must
/// look into before the browser gets it.
pub async fn read_answer(
    mut res: reqwest::Response,
    limit: usize,
) -> Result<Vec<u8>, AnswerUnread> {
    let mut body = Vec::new();
    while let Some(chunk) = res.chunk().await.map_err(|_| AnswerUnread::Broken)? {
        if body.len() + chunk.len() > limit {
            return Err(AnswerUnread::TooLarge);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// How long the gateway waits for `/me` when it asks on its own (never longer than
/// `--timeout-secs`): the members answer waiting on it is still given, without keys, after.
const ME_TIMEOUT: Duration = Duration::from_secs(5);
/// A `/me` answer is a few hundred bytes.
const ME_BODY_LIMIT: usize = 64 * 1024;

/// The user of the token in `authorization` (the browser's own `Authorization` value), by
/// `GET /api/v3/me` with it, remembered ([`crate::current_user`]): at most one question per
/// token per few minutes. `None` when the platform could not say (a failure, a timeout, a
/// 401, a body that is no user): the caller treats that as the least it could be.
pub async fn current_user(
    gw: &Gateway,
    authorization: &HeaderValue,
    id: Option<&RequestId>,
) -> Option<std::sync::Arc<CurrentUser>> {
    let ask = || async {
        let request = gw
            .http
            .get(format!("{}{}", gw.config.platform_url, paths::V3_ME))
            .header(header::AUTHORIZATION, authorization.clone())
            .header(header::ACCEPT, "application/json")
            .header(header::ACCEPT_ENCODING, "identity")
            .headers(request_headers(&HeaderMap::new(), id))
            .timeout(ME_TIMEOUT.min(gw.config.timeout));
        let res = send(gw, request).await.ok()?;
        if !res.status().is_success() {
            return None;
        }
        let body = read_answer(res, ME_BODY_LIMIT).await.ok()?;
        serde_json::from_slice::<CurrentUser>(&body).ok()
    };
    gw.current_users.lookup(authorization.as_bytes(), ask).await
}

/// The platform's allowed answer headers (for an answer the gateway rebuilds).
pub fn answer_headers(res: &reqwest::Response) -> HeaderMap {
    copy(res.headers(), &FROM_PLATFORM)
}

/// The platform's answer as the browser gets it: status and allowed headers unchanged, the
/// body streamed through as it arrives.
pub fn stream_back(res: reqwest::Response) -> Response {
    let status = res.status();
    let headers = answer_headers(&res);
    let mut out = Response::new(Body::from_stream(res.bytes_stream()));
    *out.status_mut() = status;
    *out.headers_mut() = headers;
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn only_allowed_headers_cross() {
        let mut h = HeaderMap::new();
        for (k, v) in [
            ("authorization", "Bearer t"),
            ("cookie", "session=1"),
            ("connection", "keep-alive, x-secret"),
            ("x-secret", "1"),
            ("te", "trailers"),
            ("content-type", "application/scim+json"),
            ("host", "evil.example"),
        ] {
            h.insert(HeaderName::from_static(k), HeaderValue::from_static(v));
        }
        let out = request_headers(&h, Some(&RequestId("abc".into())));
        let names: Vec<_> = out.keys().map(HeaderName::as_str).collect();
        assert_eq!(names.len(), 3, "{names:?}");
        assert_eq!(out["authorization"], "Bearer t");
        assert_eq!(out["content-type"], "application/scim+json");
        assert_eq!(out["x-request-id"], "abc");
    }
}
