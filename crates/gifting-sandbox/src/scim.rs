//! SCIM 2.0 user provisioning: list (with `userName eq` filter), read, create, replace.

use axum::extract::{RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json, Router};
use gifting_api::paths::{endpoint, SCIM_USERS};
use gifting_api::query::parse_pairs;
use gifting_api::scim::{
    effective_count, effective_start_index, CreateUser, ListResponse, ReplaceUser, ScimEmail,
    ScimErrorType, ScimName, ScimUser, UserFilter, LIST_RESPONSE_SCHEMA, USER_SCHEMA,
};
use gifting_api::{validate, Role};
use serde::Serialize;

use crate::api_auth::{Caller, NOT_AN_ADMIN};
use crate::data::people::UserRecord;
use crate::errors::{ScimFailure, SCIM_CONTENT_TYPE};
use crate::extract::{ScimJson, ScimPath};
use crate::host::origin;
use crate::routing::Area;
use crate::state::{Db, Shared};
use crate::stores::oauth::random_secret;
use crate::v3::int_param;

pub const PREFIX: &str = "/api/scim/v2";

/// Longest given or family name accepted (the seeded 200-character word fits).
const MAX_NAME: usize = 256;

/// The refusal of `--protect-last-admin`.
pub const NO_ADMIN_LEFT: &str = "This change would leave the organisation without an active admin.";

/// Nested at [`PREFIX`].
pub fn router() -> Router<Shared> {
    Area::new(PREFIX)
        .serve(endpoint::LIST_SCIM_USERS, list)
        .serve(endpoint::CREATE_SCIM_USER, create)
        .serve(endpoint::READ_SCIM_USER, read)
        .serve(endpoint::REPLACE_SCIM_USER, replace)
        .router()
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
}

/// SCIM answers `application/scim+json` unless the client asked for plain JSON only.
fn scim_json<T: Serialize>(status: StatusCode, request: &HeaderMap, body: &T) -> Response {
    let accept = request
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase();
    let plain = accept.contains("application/json") && !accept.contains("application/scim+json");
    let mut res = (status, Json(body)).into_response();
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(if plain {
            "application/json"
        } else {
            SCIM_CONTENT_TYPE
        }),
    );
    res
}

fn to_scim(db: &Db, u: &UserRecord) -> ScimUser {
    ScimUser {
        schemas: vec![USER_SCHEMA.to_owned()],
        id: u.id.to_string(),
        user_name: u.email.clone(),
        active: u.active,
        name: ScimName {
            given_name: u.given_name.clone(),
            family_name: u.family_name.clone(),
        },
        emails: vec![ScimEmail::work(&u.email)],
        user_type: u.role.clone(),
        division: db.group_name(u.team_group_id),
    }
}

fn known_role(role: &Role) -> Result<Role, ScimFailure> {
    if role.is_known() {
        Ok(role.clone())
    } else {
        validate::role(role.as_str()).map_err(ScimFailure::invalid_value)
    }
}

fn group_id(db: &Db, division: &str) -> Result<u64, ScimFailure> {
    db.group_by_name(division).map(|g| g.id).ok_or_else(|| {
        ScimFailure::invalid_value(format!(
            "division {division:?} names no team group (names must match exactly)."
        ))
    })
}

fn check_name(name: &ScimName) -> Result<(), ScimFailure> {
    for (label, value) in [
        ("givenName", &name.given_name),
        ("familyName", &name.family_name),
    ] {
        if value.chars().count() > MAX_NAME {
            return Err(ScimFailure::invalid_value(format!(
                "name.{label} has at most {MAX_NAME} characters."
            )));
        }
    }
    Ok(())
}

/// `name` if given, else the parts of `displayName` (identity providers send either).
fn name_of(name: Option<ScimName>, display: Option<&str>) -> ScimName {
    name.unwrap_or_else(|| {
        let display = display.unwrap_or("").trim();
        let (given, family) = display.split_once(' ').unwrap_or((display, ""));
        ScimName {
            given_name: given.to_owned(),
            family_name: family.trim().to_owned(),
        }
    })
}

/// With `--protect-last-admin`: refuses giving user `key` the `role` and `active` flag a
/// change asks for (`None`: kept) when that takes the last active admin away. Checked under
/// the write lock, so two concurrent changes cannot each leave the other admin as the last.
fn keeps_an_admin(
    db: &Db,
    key: u64,
    role: Option<&Role>,
    active: Option<bool>,
) -> Result<(), ScimFailure> {
    let is_admin = |u: &UserRecord| u.active && u.role == Role::Admin;
    if !db.users.get(&key).is_some_and(is_admin) {
        return Ok(());
    }
    let stays = active.unwrap_or(true) && role.is_none_or(|r| *r == Role::Admin);
    if stays || db.users.values().any(|u| u.id != key && is_admin(u)) {
        return Ok(());
    }
    Err(ScimFailure::new(
        StatusCode::CONFLICT,
        Some(ScimErrorType::Mutability),
        NO_ADMIN_LEFT,
    ))
}

fn parse_id(id: &str) -> Result<u64, ScimFailure> {
    id.trim().parse().map_err(|_| ScimFailure::not_found(id))
}

async fn list(
    State(app): State<Shared>,
    headers: HeaderMap,
    RawQuery(q): RawQuery,
) -> Result<Response, ScimFailure> {
    let pairs = parse_pairs(q.as_deref().unwrap_or(""));
    let start = int_param(&pairs, "startIndex").map_err(ScimFailure::invalid_value)?;
    let count = int_param(&pairs, "count").map_err(ScimFailure::invalid_value)?;
    let filter = match pairs.iter().find(|(k, _)| k == "filter") {
        Some((_, f)) if !f.trim().is_empty() => Some(UserFilter::parse(f).map_err(|e| {
            ScimFailure::new(
                StatusCode::BAD_REQUEST,
                Some(ScimErrorType::InvalidFilter),
                e,
            )
        })?),
        _ => None,
    };
    let (start, count) = (effective_start_index(start), effective_count(count));
    let body = {
        let world = app.read();
        let db = &world.db;
        // Counted, then walked to the page: only the page is rendered.
        let matching = || {
            db.users
                .values()
                .filter(|u| filter.as_ref().is_none_or(|f| f.matches(&u.email)))
        };
        let resources: Vec<ScimUser> = matching()
            .skip(usize::try_from(start - 1).unwrap_or(usize::MAX))
            .take(usize::try_from(count).unwrap_or(usize::MAX))
            .map(|u| to_scim(db, u))
            .collect();
        ListResponse {
            schemas: vec![LIST_RESPONSE_SCHEMA.to_owned()],
            total_results: matching().count() as u64,
            items_per_page: resources.len() as u64,
            start_index: start,
            resources,
        }
    };
    Ok(scim_json(StatusCode::OK, &headers, &body))
}

async fn read(
    State(app): State<Shared>,
    headers: HeaderMap,
    ScimPath(id): ScimPath,
) -> Result<Response, ScimFailure> {
    let key = parse_id(&id)?;
    let world = app.read();
    let user = world
        .db
        .users
        .get(&key)
        .ok_or_else(|| ScimFailure::not_found(&id))?;
    Ok(scim_json(
        StatusCode::OK,
        &headers,
        &to_scim(&world.db, user),
    ))
}

/// The platform checks the author's role when a write arrives. The middleware read it when the
/// request came in; read again under the write's own lock, two admins demoting each other at
/// the same instant cannot both pass on roles the other's write is about to change.
fn author_may_write(db: &Db, caller: &Caller) -> Result<(), ScimFailure> {
    match db.users.get(&caller.user_id) {
        Some(u) if u.active && u.role == Role::Admin => Ok(()),
        _ => Err(ScimFailure::forbidden(NOT_AN_ADMIN)),
    }
}

async fn create(
    State(app): State<Shared>,
    Extension(caller): Extension<Caller>,
    headers: HeaderMap,
    ScimJson(body): ScimJson<CreateUser>,
) -> Result<Response, ScimFailure> {
    let email = body.user_name.trim().to_owned();
    validate::email(&email).map_err(|e| ScimFailure::invalid_value(format!("userName: {e}")))?;
    let role = known_role(&body.user_type)?;
    let name = name_of(body.name, body.display_name.as_deref());
    check_name(&name)?;
    // Validation and insertion under one write lock: two concurrent creates of the same
    // userName cannot both pass the uniqueness check.
    let (user, db_view) = {
        let mut world = app.write();
        let db = &mut world.db;
        author_may_write(db, &caller)?;
        let team_group_id = group_id(db, &body.division)?;
        if db.user_by_email(&email).is_some() {
            return Err(ScimFailure::new(
                StatusCode::CONFLICT,
                Some(ScimErrorType::Uniqueness),
                format!("userName {email:?} is already taken."),
            ));
        }
        let id = db.next_user_id;
        db.next_user_id += 1;
        let record = UserRecord {
            id,
            email,
            given_name: name.given_name,
            family_name: name.family_name,
            role,
            team_group_id,
            active: true,
            balance_cents: 0,
            sandbox: false,
            key: format!("inv_{}", &random_secret()[..12]),
        };
        let view = to_scim(db, &record);
        db.users.insert(id, record);
        (id, view)
    };
    let mut res = scim_json(StatusCode::CREATED, &headers, &db_view);
    let location = format!("{}{SCIM_USERS}/{user}", origin(&headers, app.port));
    if let Ok(v) = HeaderValue::from_str(&location) {
        res.headers_mut().insert(header::LOCATION, v);
    }
    Ok(res)
}

async fn replace(
    State(app): State<Shared>,
    Extension(caller): Extension<Caller>,
    headers: HeaderMap,
    ScimPath(id): ScimPath,
    ScimJson(body): ScimJson<ReplaceUser>,
) -> Result<Response, ScimFailure> {
    let key = parse_id(&id)?;
    let role = body.user_type.as_ref().map(known_role).transpose()?;
    let name = match (body.name, body.display_name.as_deref()) {
        (None, None) => None,
        (n, d) => Some(name_of(n, d)),
    };
    if let Some(n) = &name {
        check_name(n)?;
    }
    let mut world = app.write();
    let db = &mut world.db;
    author_may_write(db, &caller)?;
    if !db.users.contains_key(&key) {
        return Err(ScimFailure::not_found(&id));
    }
    let team = body
        .division
        .as_deref()
        .map(|d| group_id(db, d))
        .transpose()?;
    if app.config.protect_last_admin {
        keeps_an_admin(db, key, role.as_ref(), body.active)?;
    }
    // Everything is validated; apply it all at once.
    let Some(user) = db.users.get_mut(&key) else {
        return Err(ScimFailure::not_found(&id));
    };
    if let Some(active) = body.active {
        user.active = active;
    }
    if let Some(role) = role {
        user.role = role;
    }
    if let Some(team) = team {
        user.team_group_id = team;
    }
    if let Some(n) = name {
        user.given_name = n.given_name;
        user.family_name = n.family_name;
    }
    let user = user.clone();
    let view = to_scim(db, &user);
    if !user.active {
        // A deactivated user's sessions end now, not when their tokens expire.
        world.oauth.revoke_user(key);
    }
    drop(world);
    Ok(scim_json(StatusCode::OK, &headers, &view))
}

async fn not_found() -> ScimFailure {
    ScimFailure::new(StatusCode::NOT_FOUND, None, "No such SCIM endpoint.")
}

async fn method_not_allowed(method: Method) -> ScimFailure {
    ScimFailure::new(
        StatusCode::METHOD_NOT_ALLOWED,
        None,
        format!("{method} is not supported on this SCIM resource."),
    )
}
