//! REST v3 reads: sends, users, current user, campaigns (touches), team groups and members.

use axum::extract::{OriginalUri, RawQuery, State};
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json, Router};
use gifting_api::paths::endpoint;
use gifting_api::query::parse_pairs;
use gifting_api::rest::{
    effective_page, effective_per_page, CurrentUser, GroupPage, Member, RestUser, SendPage,
    TouchPage, TouchResponse, UserPage,
};
use gifting_api::DeliveryType;

use crate::api_auth::Caller;
use crate::data::{money, people::UserRecord};
use crate::errors::ApiError;
use crate::extract::RestPath;
use crate::routing::Area;
use crate::state::Shared;

/// Nested at [`PREFIX`].
pub fn router() -> Router<Shared> {
    Area::new(PREFIX)
        .serve(endpoint::LIST_SENDS, sends)
        .serve(endpoint::LIST_USERS, users)
        .serve(endpoint::ME, me)
        .serve(endpoint::LIST_TOUCHES, touches)
        .serve(endpoint::READ_TOUCH, touch)
        .serve(endpoint::LIST_GROUPS, groups)
        .serve(endpoint::LIST_GROUP_MEMBERS, members)
        .router()
}

pub const PREFIX: &str = "/api/v3";

/// An integer query parameter. Absent or empty is `None`; digits too large for i64 saturate
/// (they are integers, just huge); anything else is a 400 naming the parameter.
pub fn int_param(pairs: &[(String, String)], name: &str) -> Result<Option<i64>, String> {
    let Some((_, raw)) = pairs.iter().find(|(k, _)| k == name) else {
        return Ok(None);
    };
    let text = raw.trim();
    if text.is_empty() {
        return Ok(None);
    }
    if let Ok(n) = text.parse::<i64>() {
        return Ok(Some(n));
    }
    let (negative, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(Some(if negative { i64::MIN } else { i64::MAX }));
    }
    Err(format!("{name} must be an integer, not {raw:?}."))
}

/// The effective paging of a REST v3 list, and the query's other parameters.
struct Paging {
    page: u32,
    per_page: u32,
    pairs: Vec<(String, String)>,
}

fn paging(query: &Option<String>) -> Result<Paging, ApiError> {
    let pairs = parse_pairs(query.as_deref().unwrap_or(""));
    let page = int_param(&pairs, "page").map_err(ApiError::bad_request)?;
    let per_page = int_param(&pairs, "per_page").map_err(ApiError::bad_request)?;
    Ok(Paging {
        page: effective_page(page),
        per_page: effective_per_page(per_page),
        pairs,
    })
}

/// The items of one page of a whole collection; a page past the end is empty. Only the page
/// is touched, however long the collection.
fn page_of<T>(items: &[T], page: u32, per_page: u32) -> &[T] {
    let skip = (u64::from(page) - 1) * u64::from(per_page);
    let start = usize::try_from(skip).unwrap_or(usize::MAX).min(items.len());
    let end = start.saturating_add(per_page as usize).min(items.len());
    &items[start..end]
}

/// The items of one page of a filtered collection; a page past the end is empty. Give it
/// references and convert the page: what is skipped is neither cloned nor rendered.
fn slice<T>(items: impl Iterator<Item = T>, page: u32, per_page: u32) -> Vec<T> {
    let skip = (u64::from(page) - 1) * u64::from(per_page);
    items
        .skip(usize::try_from(skip).unwrap_or(usize::MAX))
        .take(per_page as usize)
        .collect()
}

/// The size of a filtered collection and its page, converted: `matching()` is walked once to
/// count and once to the page, so only the page's items are converted (cloned, rendered).
fn filtered_page<T, I: Iterator<Item = T>, U>(
    matching: impl Fn() -> I,
    page: u32,
    per_page: u32,
    convert: impl FnMut(T) -> U,
) -> (u64, Vec<U>) {
    let total = matching().count() as u64;
    let items = slice(matching(), page, per_page);
    (total, items.into_iter().map(convert).collect())
}

fn rest_user(u: &UserRecord) -> RestUser {
    RestUser {
        id: u.id,
        first_name: u.given_name.clone(),
        last_name: u.family_name.clone(),
        email: u.email.clone(),
        team_group_id: u.team_group_id,
    }
}

/// A handler answering a page of one whole collection of the world: the collection `$items`
/// in a `$page` body, with the collection's size in `$total`. The lock is let go before the
/// body is written.
macro_rules! whole_list {
    ($handler:ident, $page:ident { $total:ident, $items:ident }) => {
        async fn $handler(
            State(app): State<Shared>,
            RawQuery(q): RawQuery,
        ) -> Result<Response, ApiError> {
            let Paging { page, per_page, .. } = paging(&q)?;
            let body = {
                let world = app.read();
                $page {
                    current_page: page,
                    per_page,
                    $total: world.db.$items.len() as u64,
                    $items: page_of(&world.db.$items, page, per_page).to_vec(),
                }
            };
            Ok(Json(body).into_response())
        }
    };
}

/// Sends, newest first; with `--live`, after catching up with what the platform did.
async fn sends(State(app): State<Shared>, RawQuery(q): RawQuery) -> Result<Response, ApiError> {
    let Paging { page, per_page, .. } = paging(&q)?;
    app.catch_up();
    let body = {
        let world = app.read();
        SendPage {
            current_page: page,
            per_page,
            total_count: world.db.sends.len() as u64,
            sends: world.db.sends.page(page, per_page),
        }
    };
    Ok(Json(body).into_response())
}

whole_list!(
    groups,
    GroupPage {
        total_groups,
        groups
    }
);

async fn users(State(app): State<Shared>, RawQuery(q): RawQuery) -> Result<Response, ApiError> {
    let Paging { page, per_page, .. } = paging(&q)?;
    let body = {
        let world = app.read();
        let active = || world.db.users.values().filter(|u| u.active);
        let (total_users, users) = filtered_page(active, page, per_page, rest_user);
        UserPage {
            current_page: page,
            per_page,
            total_users,
            users,
        }
    };
    Ok(Json(body).into_response())
}

async fn me(State(app): State<Shared>, Extension(caller): Extension<Caller>) -> Response {
    let world = app.read();
    let Some(u) = world.db.users.get(&caller.user_id) else {
        return ApiError::invalid_token("The token's user no longer exists.").into_response();
    };
    // "Sum of all the users' balances", documented as an integer: whole units, truncated.
    let team_cents: i64 = world
        .db
        .users
        .values()
        .filter(|u| u.active)
        .map(|u| u.balance_cents)
        .sum();
    Json(CurrentUser {
        id: u.id,
        first_name: u.given_name.clone(),
        last_name: u.family_name.clone(),
        email: u.email.clone(),
        balance: money(u.balance_cents),
        team_balance: (team_cents / 100).to_string(),
        role: u.role.clone(),
    })
    .into_response()
}

async fn touches(State(app): State<Shared>, RawQuery(q): RawQuery) -> Result<Response, ApiError> {
    let Paging {
        page,
        per_page,
        pairs,
    } = paging(&q)?;
    let delivery = match pairs
        .iter()
        .find(|(k, _)| k == "delivery_type")
        .map(|(_, v)| v.trim())
    {
        None | Some("") => None,
        Some("mail") => Some(DeliveryType::Mail),
        Some("email") => Some(DeliveryType::Email),
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "delivery_type must be mail or email, not {other:?}."
            )))
        }
    };
    let body = {
        let world = app.read();
        let matching = || {
            world
                .db
                .touches
                .iter()
                .filter(|t| delivery.as_ref().is_none_or(|d| &t.delivery_type == d))
        };
        let (total_posts, touches) = filtered_page(matching, page, per_page, Clone::clone);
        TouchPage {
            current_page: page,
            per_page,
            total_posts,
            touches,
        }
    };
    Ok(Json(body).into_response())
}

async fn touch(State(app): State<Shared>, RestPath(id): RestPath) -> Result<Response, ApiError> {
    let id: u64 = id
        .trim()
        .parse()
        .map_err(|_| ApiError::bad_request(format!("touch_id must be an integer, not {id:?}.")))?;
    let found = app.read().db.touches.iter().find(|t| t.id == id).cloned();
    match found {
        Some(touch) => Ok(Json(TouchResponse {
            success: true,
            touch,
        })
        .into_response()),
        None => Err(ApiError::not_found("Touch not found")),
    }
}

async fn members(State(app): State<Shared>, RestPath(id): RestPath) -> Result<Response, ApiError> {
    let id: u64 = id.trim().parse().map_err(|_| {
        ApiError::bad_request(format!("team_group_id must be an integer, not {id:?}."))
    })?;
    let world = app.read();
    let Some(group) = world.db.group(id) else {
        return Err(ApiError::not_found("Team group not found"));
    };
    let list: Vec<Member> = world
        .db
        .users
        .values()
        .filter(|u| u.active && u.team_group_id == id)
        .map(|u| Member {
            id: u.id,
            first_name: u.given_name.clone(),
            last_name: u.family_name.clone(),
            email: u.email.clone(),
            balance: money(u.balance_cents),
            sandbox: u.sandbox,
            team_group_id: u.team_group_id,
            team_id: group.team_id,
            key: u.key.clone(),
        })
        .collect();
    Ok(Json(list).into_response())
}

/// Unknown paths under /api.
pub async fn not_found(method: Method, OriginalUri(uri): OriginalUri) -> ApiError {
    ApiError::not_found(format!("No such endpoint: {method} {}.", uri.path()))
}

/// A known path with the wrong method.
pub async fn method_not_allowed(method: Method, OriginalUri(uri): OriginalUri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{method} is not allowed on {}.", uri.path()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(q: &str) -> Vec<(String, String)> {
        parse_pairs(q)
    }

    #[test]
    fn integer_parameters() {
        assert_eq!(int_param(&pairs("page=3"), "page"), Ok(Some(3)));
        assert_eq!(int_param(&pairs("page="), "page"), Ok(None));
        assert_eq!(int_param(&pairs("page=-4"), "page"), Ok(Some(-4)));
        assert_eq!(
            int_param(&pairs("page=99999999999999999999999"), "page"),
            Ok(Some(i64::MAX))
        );
        assert!(int_param(&pairs("page=abc"), "page").is_err());
        assert!(int_param(&pairs("page=1.5"), "page").is_err());
    }

    #[test]
    fn slices_pages() {
        let v: Vec<u32> = (0..10).collect();
        assert_eq!(slice(v.iter().copied(), 2, 4), vec![4, 5, 6, 7]);
        assert!(slice(v.iter().copied(), 4, 4).is_empty());
        assert!(slice(v.iter().copied(), u32::MAX, 100).is_empty());
        assert_eq!(page_of(&v, 2, 4), &[4, 5, 6, 7]);
        assert_eq!(page_of(&v, 3, 4), &[8, 9]);
        assert!(page_of(&v, 4, 4).is_empty());
        assert!(page_of(&v, u32::MAX, 100).is_empty());
    }
}
