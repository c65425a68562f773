//! `POST /oauth/token` (authorization_code and refresh_token grants) and `POST /oauth/revoke`.

use std::collections::HashMap;

use axum::extract::{RawQuery, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::Response;
use gifting_api::oauth::{parse_basic_auth, TokenRequest, TokenResponse};
use gifting_api::query::parse_pairs;

use crate::errors::{oauth_json, OAuthFailure};
use crate::extract::OAuthBody;
use crate::state::{Shared, Stats, CLIENT_ID, CLIENT_SECRET};
use crate::stores::oauth::{constant_time_eq, ClientAuth, GrantError, IssuedTokens};

/// `Authorization: Basic` credentials, if the header is there. A present but unreadable
/// header is a failed client authentication.
fn basic_credentials(headers: &HeaderMap) -> Result<Option<(String, String)>, OAuthFailure> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    value
        .to_str()
        .ok()
        .and_then(parse_basic_auth)
        .map(Some)
        .ok_or_else(|| {
            OAuthFailure::invalid_client(
                "The Authorization header is not valid Basic client authentication.",
            )
        })
}

/// Authenticates the client: the registered id, and the secret when one is sent. No secret
/// at all means a public client, which the grant itself must then allow (PKCE), unless the
/// sandbox plays a platform that demands the secret (`--require-client-secret`).
fn authenticate(
    app: &Shared,
    client_id: &str,
    secret: Option<&str>,
) -> Result<ClientAuth, OAuthFailure> {
    if client_id != CLIENT_ID {
        return Err(OAuthFailure::invalid_client(format!(
            "Unknown client_id {client_id:?}."
        )));
    }
    match secret.filter(|s| !s.is_empty()) {
        None if app.config.require_client_secret => Err(OAuthFailure::invalid_client(
            "Client authentication failed: client_secret is required.",
        )),
        None => Ok(ClientAuth::Public),
        Some(s) if constant_time_eq(s.as_bytes(), CLIENT_SECRET.as_bytes()) => {
            Ok(ClientAuth::Secret)
        }
        Some(_) => Err(OAuthFailure::invalid_client(
            "Client authentication failed: wrong client_secret.",
        )),
    }
}

fn required<'a>(value: &'a Option<String>, name: &str) -> Result<&'a str, OAuthFailure> {
    value
        .as_deref()
        .filter(|v| !v.is_empty())
        .ok_or_else(|| OAuthFailure::invalid_request(format!("{name} is required.")))
}

fn grant_failure(e: GrantError) -> OAuthFailure {
    match e {
        GrantError::InvalidGrant(d) | GrantError::Reused(d) => OAuthFailure::invalid_grant(d),
        GrantError::InvalidClient(d) => OAuthFailure::invalid_client(d),
    }
}

fn token_response(t: IssuedTokens) -> Response {
    oauth_json(
        StatusCode::OK,
        &TokenResponse {
            access_token: t.access_token,
            token_type: "bearer".to_owned(),
            expires_in: t.expires_in,
            refresh_token: t.refresh_token,
            scope: t.scopes.to_string(),
            created_at: i64::try_from(t.created_at).unwrap_or(i64::MAX),
        },
    )
}

pub async fn token(
    State(app): State<Shared>,
    headers: HeaderMap,
    OAuthBody(body): OAuthBody<TokenRequest>,
) -> Result<Response, OAuthFailure> {
    let basic = basic_credentials(&headers)?;
    let (client_id, secret) = match (&basic, body.client_id.as_deref()) {
        (Some((id, _)), Some(body_id)) if id != body_id => {
            return Err(OAuthFailure::invalid_request(
                "client_id differs between the Authorization header and the body.",
            ))
        }
        (Some((id, secret)), _) => (id.as_str(), Some(secret.as_str())),
        (None, Some(id)) => (id, body.client_secret.as_deref()),
        (None, None) => return Err(OAuthFailure::invalid_request("client_id is required.")),
    };
    let auth = authenticate(&app, client_id, secret)?;
    match body.grant_type.as_str() {
        "authorization_code" => {
            let code = required(&body.code, "code")?;
            let redirect_uri = required(&body.redirect_uri, "redirect_uri")?;
            let issued = app.write().oauth.exchange_code(
                code,
                client_id,
                redirect_uri,
                body.code_verifier.as_deref().filter(|v| !v.is_empty()),
                auth,
            );
            let issued = issued.map_err(grant_failure)?;
            Stats::bump(&app.stats.authorization_codes_exchanged);
            Ok(token_response(issued))
        }
        "refresh_token" => {
            let refresh = required(&body.refresh_token, "refresh_token")?;
            let issued = app.write().oauth.refresh(refresh, client_id, auth, None);
            match issued {
                Ok(t) => {
                    Stats::bump(&app.stats.token_refreshes);
                    Ok(token_response(t))
                }
                Err(e) => {
                    Stats::bump(&app.stats.token_refresh_failures);
                    if matches!(e, GrantError::Reused(_)) {
                        Stats::bump(&app.stats.refresh_token_reuse);
                    }
                    Err(grant_failure(e))
                }
            }
        }
        "" => Err(OAuthFailure::invalid_request("grant_type is required.")),
        other => Err(OAuthFailure::unsupported_grant_type(format!(
            "grant_type {other:?} is not supported; use authorization_code or refresh_token."
        ))),
    }
}

/// RFC 7009. The token may come in the query (as the seed shows) or in a form body (as the
/// RFC shows). Unknown tokens are answered 200 too, so the endpoint reveals nothing.
pub async fn revoke(
    State(app): State<Shared>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    OAuthBody(body): OAuthBody<HashMap<String, String>>,
) -> Result<Response, OAuthFailure> {
    let Some((client_id, secret)) = basic_credentials(&headers)? else {
        return Err(OAuthFailure::invalid_client(
            "Revocation needs Authorization: Basic base64(client_id:client_secret).",
        ));
    };
    authenticate(&app, &client_id, Some(&secret))?;
    let from_query = parse_pairs(query.as_deref().unwrap_or(""))
        .into_iter()
        .find(|(k, _)| k == "token")
        .map(|(_, v)| v);
    let token = from_query
        .or_else(|| body.get("token").cloned())
        .filter(|t| !t.is_empty())
        .ok_or_else(|| OAuthFailure::invalid_request("token is required."))?;
    let revoked = app.write().oauth.revoke(&token);
    Stats::bump(&app.stats.revocations);
    if revoked {
        Stats::bump(&app.stats.tokens_revoked);
    }
    Ok(oauth_json(StatusCode::OK, &serde_json::json!({})))
}
