//! The token relay: the browser's code exchange, refresh and revocation, forwarded to the
//! platform with the client credentials added as the platform expects them (`client_id` and
//! `client_secret` in the token request's body; `Authorization: Basic` on revocation). The
//! browser never holds the secret; the gateway holds no token.
//!
//! Only the two grants the console uses are relayed, and a code exchange only with its PKCE
//! verifier, so the relay cannot redeem a code stolen from somebody else's redirect. Only the
//! console's own form posts are taken: a post from another site (which a browser sends without
//! asking, as `text/plain` or a form) is refused before it is counted, so it cannot spend a
//! victim's budget. Each client address (an IPv6 one by its /64) has a budget of relay
//! requests per minute.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::body::Bytes;
use axum::extract::{ConnectInfo, RawQuery, Request, State};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use gifting_api::oauth::{basic_auth_header, OAuthError, TokenRequest};
use gifting_api::paths;
use gifting_api::query::parse_pairs;
use gifting_web::errors::{oauth_json, OAuthFailure};
use gifting_web::limit::forwarded_address;
use gifting_web::security::answers_policy;

use crate::config::Config;
use crate::log::RequestId;
use crate::state::{Gateway, Shared};
use crate::telemetry::{TokenOp, TokenOutcome};
use crate::upstream::{
    never_stored, read_answer, read_request_body, send, BodyRefused, Unanswered,
};

/// The realm a refused client authentication names.
const REALM: &str = "gifting-gateway";
/// A token request or revocation is a few hundred bytes; an answer a few hundred more.
const OAUTH_BODY_LIMIT: usize = 16 * 1024;

pub fn router(gw: &Shared) -> Router<Shared> {
    let relay = Router::new()
        .route(paths::OAUTH_TOKEN, post(token).fallback(wrong_method))
        .route(paths::OAUTH_REVOKE, post(revoke).fallback(wrong_method))
        .route_layer(middleware::from_fn_with_state(gw.clone(), rate_limit))
        // Outermost: refused here, a request is never counted.
        .route_layer(middleware::from_fn_with_state(gw.clone(), own_form_posts));
    // Every answer of the area, the gateway's own refusals included, is never stored.
    never_stored(
        Router::new()
            .route(paths::OAUTH_AUTHORIZE, get(authorize))
            .merge(relay)
            .route("/oauth", axum::routing::any(not_found))
            .route("/oauth/{*rest}", axum::routing::any(not_found))
            .layer(answers_policy()),
    )
}

async fn not_found() -> Response {
    oauth_json(
        StatusCode::NOT_FOUND,
        &OAuthError::new("invalid_request", "There is no such OAuth endpoint."),
    )
}

async fn wrong_method() -> Response {
    let mut res = oauth_json(
        StatusCode::METHOD_NOT_ALLOWED,
        &OAuthError::new("invalid_request", "This endpoint takes POST."),
    );
    res.headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static("POST"));
    res
}

/// The sign-in page is the platform's: the browser goes there itself (a top-level
/// navigation, which needs no CORS), carrying the console's authorization request as is.
async fn authorize(State(gw): State<Shared>, RawQuery(query): RawQuery) -> Response {
    let target = format!(
        "{}{}?{}",
        gw.config.auth_url,
        paths::OAUTH_AUTHORIZE,
        query.unwrap_or_default()
    );
    match HeaderValue::from_str(&target) {
        Ok(location) => (
            StatusCode::FOUND,
            [
                (header::LOCATION, location),
                (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
            ],
        )
            .into_response(),
        Err(_) => OAuthFailure::invalid_request("The authorization request is not a valid URL.")
            .into_response(),
    }
}

/// Whether the browser says the request comes from the console's own origin, as a form post.
/// `Sec-Fetch-Site` and `Origin` are set by the browser and cannot be forged by a page; a
/// request without them (not from a browser) cannot spend a browser's budget either.
fn is_own_form_post(config: &Config, headers: &HeaderMap) -> Result<(), OAuthFailure> {
    let text = |name| {
        headers
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
    };
    let cross_site = text(HeaderName::from_static("sec-fetch-site"))
        .is_some_and(|site| !site.eq_ignore_ascii_case("same-origin"));
    let other_origin = headers
        .get(header::ORIGIN)
        .is_some_and(|origin| config.origin_for(headers).as_deref() != origin.to_str().ok());
    if cross_site || other_origin {
        let mut refused =
            OAuthFailure::invalid_request("Only the console's own pages may call this endpoint.");
        refused.status = StatusCode::FORBIDDEN;
        return Err(refused);
    }
    let form = text(header::CONTENT_TYPE).is_some_and(|ct| {
        let essence = ct.split(';').next().unwrap_or("").trim();
        essence.eq_ignore_ascii_case("application/x-www-form-urlencoded")
    });
    if !form {
        let mut refused =
            OAuthFailure::invalid_request("The body must be application/x-www-form-urlencoded.");
        refused.status = StatusCode::UNSUPPORTED_MEDIA_TYPE;
        return Err(refused);
    }
    Ok(())
}

/// What a request to `path` is for, before its body is read.
fn operation_of(path: &str) -> TokenOp {
    if path == paths::OAUTH_REVOKE {
        TokenOp::Revoke
    } else {
        TokenOp::Token
    }
}

async fn own_form_posts(State(gw): State<Shared>, req: Request, next: Next) -> Response {
    if req.method() != axum::http::Method::POST {
        // Answered by the method fallback (405), counted by nobody.
        return next.run(req).await;
    }
    match is_own_form_post(&gw.config, req.headers()) {
        Ok(()) => next.run(req).await,
        Err(refused) => {
            let outcome = if refused.status == StatusCode::FORBIDDEN {
                TokenOutcome::RefusedOrigin
            } else {
                TokenOutcome::RefusedType
            };
            gw.telemetry
                .token_relay(operation_of(req.uri().path()), outcome);
            refused.into_response()
        }
    }
}

/// The client address a request counts against: the connection's peer, or, when the peer is
/// a `--trusted-proxy`, the last entry of the configured header's last line (`ip`, `ip:port`,
/// `[v6]` or `[v6]:port`). A proxy that appends a line of its own (HAProxy's `option
/// forwardfor`) leaves the client's lines before it, forged or not: only the last one is the
/// proxy's word; and a peer that is no trusted proxy may have written the header itself.
fn client_address(gw: &Gateway, req: &Request) -> IpAddr {
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip().to_canonical());
    let from_proxy = peer.is_some_and(|p| gw.config.trusts_proxy(p));
    let header = gw.config.client_ip_header.as_ref().filter(|_| from_proxy);
    let from_header = header.and_then(|name| {
        let last_line = req.headers().get_all(name).iter().next_back();
        let found = last_line
            .and_then(|v| v.to_str().ok())
            .and_then(|v| forwarded_address(v.rsplit(',').next()?));
        if found.is_none() {
            gw.client_header_unparsed(name.as_str());
        }
        found
    });
    from_header
        .or(peer)
        .unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED))
}

async fn rate_limit(State(gw): State<Shared>, req: Request, next: Next) -> Response {
    let address = client_address(&gw, &req);
    let verdict = gw.count_token_request(address);
    match verdict {
        Ok(()) => next.run(req).await,
        Err(seconds) => {
            gw.telemetry.rate_limited();
            gw.telemetry
                .token_relay(operation_of(req.uri().path()), TokenOutcome::RefusedLimit);
            let mut res = OAuthFailure::unavailable(
                StatusCode::TOO_MANY_REQUESTS,
                format!("Too many sign-in requests from this address; try again in {seconds} s."),
            )
            .into_response();
            if let Ok(v) = HeaderValue::from_str(&seconds.to_string()) {
                res.headers_mut().insert(header::RETRY_AFTER, v);
            }
            res
        }
    }
}

/// The request's body, small and within the body timeout.
async fn read_body(gw: &Gateway, req: Request) -> Result<Bytes, Response> {
    let within = gw.config.body_timeout;
    read_request_body(req.into_body(), OAUTH_BODY_LIMIT, within)
        .await
        .map_err(|why| {
            let mut refused = match why {
                BodyRefused::TooLarge => OAuthFailure::too_large(OAUTH_BODY_LIMIT),
                BodyRefused::TooSlow => OAuthFailure::invalid_request(format!(
                    "The request body did not arrive within {} s.",
                    within.as_secs()
                )),
            };
            refused.status = why.status();
            why.finish(refused.into_response())
        })
}

fn required<'a>(value: &'a Option<String>, what: &str) -> Result<&'a str, OAuthFailure> {
    value
        .as_deref()
        .filter(|v| !v.is_empty())
        .ok_or_else(|| OAuthFailure::invalid_request(format!("{what} is required.")))
}

/// The request the platform gets for the browser's `incoming` one: the same grant, with this
/// deployment's client id and secret. Refused here, without asking the platform, when it is
/// not one the console makes.
pub fn relayed_token_request(
    config: &Config,
    incoming: &TokenRequest,
) -> Result<TokenRequest, OAuthFailure> {
    if let Some(id) = incoming.client_id.as_deref().filter(|id| !id.is_empty()) {
        if id != config.client_id {
            return Err(OAuthFailure::invalid_client("Unknown client_id.").in_realm(REALM));
        }
    }
    let secret = Some(config.client_secret.expose());
    match incoming.grant_type.as_str() {
        "authorization_code" => {
            let code = required(&incoming.code, "code")?;
            let redirect_uri = required(&incoming.redirect_uri, "redirect_uri")?;
            let verifier = required(
                &incoming.code_verifier,
                "code_verifier (the gateway relays PKCE sign-ins only)",
            )?;
            Ok(TokenRequest::authorization_code(
                code,
                redirect_uri,
                &config.client_id,
                secret,
                Some(verifier),
            ))
        }
        "refresh_token" => {
            let refresh_token = required(&incoming.refresh_token, "refresh_token")?;
            Ok(TokenRequest::refresh(
                refresh_token,
                &config.client_id,
                secret,
            ))
        }
        "" => Err(OAuthFailure::invalid_request("grant_type is required.")),
        _ => Err(OAuthFailure::unsupported_grant_type(
            "Only the authorization_code and refresh_token grants are relayed.",
        )),
    }
}

fn unanswered(kind: Unanswered) -> Response {
    let why = match kind {
        Unanswered::Unreachable => "The sign-in service could not be reached.",
        Unanswered::TimedOut => "The sign-in service did not answer in time.",
    };
    kind.mark(OAuthFailure::unavailable(kind.status(), why).into_response())
}

/// The platform's answer to a token or revocation request, read whole (it is small) so it
/// can be checked: an answer that would hand the secret to the browser is not passed on.
async fn answer(gw: &Gateway, res: reqwest::Response) -> Response {
    let status = res.status();
    let content_type = res.headers().get(header::CONTENT_TYPE).cloned();
    let Ok(body) = read_answer(res, OAUTH_BODY_LIMIT).await else {
        return unanswered(Unanswered::Unreachable);
    };
    let secret = gw.config.client_secret.expose().as_bytes();
    if body.windows(secret.len()).any(|w| w == secret) {
        tracing::error!("the platform's OAuth answer contained the client secret; withheld");
        return unanswered(Unanswered::Unreachable);
    }
    if status == StatusCode::UNAUTHORIZED {
        tracing::warn!(
            "the platform refused the gateway's client credentials (check the client id and secret)"
        );
    }
    let mut out = Response::new(axum::body::Body::from(body));
    *out.status_mut() = status;
    let headers = out.headers_mut();
    if let Some(ct) = content_type {
        headers.insert(header::CONTENT_TYPE, ct);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(header::PRAGMA, HeaderValue::from_static("no-cache"));
    out
}

/// The platform's answer to `request`, all of it within the gateway's timeout (its head and
/// its body together): the browser waits longer than that, so it always hears how it ended.
async fn relay(gw: &Gateway, request: reqwest::RequestBuilder) -> Response {
    let exchange = async {
        match send(gw, request).await {
            Ok(res) => answer(gw, res).await,
            Err(kind) => unanswered(kind),
        }
    };
    tokio::time::timeout(gw.config.timeout, exchange)
        .await
        .unwrap_or_else(|_| unanswered(Unanswered::TimedOut))
}

/// Counts how a token relay request ended: relayed (by the status the browser gets), or
/// refused by the gateway (`Err`).
fn counted(gw: &Gateway, op: TokenOp, answer: Result<Response, Response>) -> Response {
    let outcome = match &answer {
        Ok(res) => TokenOutcome::of_status(res.status().as_u16()),
        Err(_) => TokenOutcome::RefusedInvalid,
    };
    gw.telemetry.token_relay(op, outcome);
    answer.unwrap_or_else(|refused| refused)
}

async fn token(State(gw): State<Shared>, req: Request) -> Response {
    let mut op = TokenOp::Token;
    let answer = exchange(&gw, req, &mut op).await;
    counted(&gw, op, answer)
}

/// The code exchange or refresh; `op` says which once the body is read.
async fn exchange(gw: &Gateway, req: Request, op: &mut TokenOp) -> Result<Response, Response> {
    let id = req.extensions().get::<RequestId>().cloned();
    let body = read_body(gw, req).await?;
    let refused = |failure: OAuthFailure| failure.into_response();
    let incoming = form_token_request(&body).map_err(|_| {
        refused(OAuthFailure::invalid_request(
            "The body is not a token request.",
        ))
    })?;
    *op = match incoming.grant_type.as_str() {
        "authorization_code" => TokenOp::Code,
        "refresh_token" => TokenOp::Refresh,
        _ => TokenOp::Token,
    };
    let outgoing = relayed_token_request(&gw.config, &incoming).map_err(refused)?;
    let request = gw
        .http
        .post(format!("{}{}", gw.config.auth_url, paths::OAUTH_TOKEN))
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(header::ACCEPT, "application/json")
        .headers(crate::upstream::request_headers(
            &HeaderMap::new(),
            id.as_ref(),
        ))
        .body(outgoing.to_form());
    Ok(relay(gw, request).await)
}

/// A form body as a token request (the contract's parser: `+` is a space, `%XX` decoded).
fn form_token_request(body: &[u8]) -> Result<TokenRequest, ()> {
    let text = std::str::from_utf8(body).map_err(|_| ())?;
    let mut map = serde_json::Map::new();
    for (k, v) in parse_pairs(text) {
        map.entry(k).or_insert(serde_json::Value::String(v));
    }
    serde_json::from_value(serde_json::Value::Object(map)).map_err(|_| ())
}

/// RFC 7009 revocation: the token from the form body (never the URL, which proxies and logs
/// keep); toward the platform in the query, as the platform documents it. The browser's own
/// client authentication is replaced by this deployment's.
async fn revoke(State(gw): State<Shared>, RawQuery(query): RawQuery, req: Request) -> Response {
    let answer = revocation(&gw, query, req).await;
    counted(&gw, TokenOp::Revoke, answer)
}

async fn revocation(
    gw: &Gateway,
    query: Option<String>,
    req: Request,
) -> Result<Response, Response> {
    let token_in = |text: &str| {
        parse_pairs(text)
            .into_iter()
            .find(|(k, v)| k == "token" && !v.is_empty())
            .map(|(_, v)| v)
    };
    if query.as_deref().and_then(token_in).is_some() {
        return Err(OAuthFailure::invalid_request(
            "Send the token in the request body (RFC 7009), not in the URL.",
        )
        .into_response());
    }
    let id = req.extensions().get::<RequestId>().cloned();
    let body = read_body(gw, req).await?;
    let token = std::str::from_utf8(&body)
        .ok()
        .and_then(token_in)
        .ok_or_else(|| OAuthFailure::invalid_request("token is required.").into_response())?;
    let config = &gw.config;
    let request = gw
        .http
        .post(format!(
            "{}{}",
            config.auth_url,
            paths::oauth_revoke(&token)
        ))
        .header(
            header::AUTHORIZATION,
            basic_auth_header(&config.client_id, Some(config.client_secret.expose())),
        )
        .headers(crate::upstream::request_headers(
            &HeaderMap::new(),
            id.as_ref(),
        ));
    Ok(relay(gw, request).await)
}
