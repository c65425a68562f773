//! Bearer-token authentication of every /api request, and the scope/role gates.

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use gifting_api::Role;

use crate::errors::{ApiError, ScimFailure};
use crate::state::Shared;
use crate::stores::scope::Scopes;

/// Who is calling, put into the request by [`require_bearer`].
#[derive(Debug, Clone)]
pub struct Caller {
    pub user_id: u64,
    pub scopes: Scopes,
    pub role: Role,
}

/// The token of `Authorization: Bearer <token>` (scheme case-insensitive).
pub fn bearer_token(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// Any live token of an active user reads /api; which scope an area needs is checked by the
/// area's own gate.
pub async fn require_bearer(State(app): State<Shared>, mut req: Request, next: Next) -> Response {
    let Some(token) = bearer_token(req.headers()) else {
        return ApiError::invalid_token(
            "Missing bearer token: send Authorization: Bearer <access token>.",
        )
        .into_response();
    };
    let caller = {
        let world = app.read();
        world.oauth.bearer(token).and_then(|b| {
            world
                .db
                .users
                .get(&b.user_id)
                .filter(|u| u.active)
                .map(|u| Caller {
                    user_id: u.id,
                    scopes: b.scopes,
                    role: u.role.clone(),
                })
        })
    };
    match caller {
        Some(caller) => {
            req.extensions_mut().insert(caller);
            next.run(req).await
        }
        None => ApiError::invalid_token("The access token is unknown, expired or revoked.")
            .into_response(),
    }
}

fn caller_of(req: &Request) -> Option<&Caller> {
    req.extensions().get::<Caller>()
}

/// The marketplace needs the `marketplace` scope.
pub async fn require_marketplace(req: Request, next: Next) -> Response {
    match caller_of(&req) {
        Some(c) if c.scopes.marketplace => next.run(req).await,
        _ => ApiError::insufficient_scope("marketplace").into_response(),
    }
}

/// The refusal of a SCIM request whose token's user is not an active admin.
pub const NOT_AN_ADMIN: &str =
    "Provisioning users needs an administrator; this token's user is not one.";

/// SCIM needs the `scim` scope and an administrator.
pub async fn require_scim_admin(req: Request, next: Next) -> Response {
    match caller_of(&req) {
        Some(c) if c.scopes.scim && c.role == Role::Admin => next.run(req).await,
        Some(c) if c.scopes.scim => ScimFailure::forbidden(NOT_AN_ADMIN).into_response(),
        _ => {
            let mut f = ScimFailure::forbidden("This token lacks the `scim` scope.");
            f.www_authenticate = Some("Bearer error=\"insufficient_scope\", scope=\"scim\"".into());
            f.into_response()
        }
    }
}
