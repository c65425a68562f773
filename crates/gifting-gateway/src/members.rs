//! Invitation keys for admins only. The platform answers a team group's members
//! (`GET /api/v3/groups/{team_group_id}/members`) with each member's invitation key, to any
//! token; the console shows keys to admins only, but a sender's browser would still receive
//! them all. The gateway reads that answer whole and removes each member's `key` unless the
//! token's user is an admin ([`upstream::current_user`]); a user the platform cannot name
//! counts as no admin, and the members still come back, without keys.

use axum::body::Body;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::Response;
use gifting_api::paths::{endpoint, ApiRoute};
use gifting_api::Role;
use serde_json::Value;

use crate::log::RequestId;
use crate::state::Gateway;
use crate::upstream::{self, read_answer, AnswerUnread, Unanswered};

/// The largest members answer the gateway reads to remove keys: a member is about 250 bytes,
/// so some 30,000 members in one group.
pub const MEMBERS_BODY_LIMIT: usize = 8 * 1024 * 1024;

/// Whether a request is a members read whose answer the gateway filters (HEAD has no body).
pub fn is_members_read(route: &ApiRoute, method: &axum::http::Method) -> bool {
    route.template == endpoint::LIST_GROUP_MEMBERS.template() && method == axum::http::Method::GET
}

/// What the platform is asked for a members read: an answer in plain bytes, so it can be read
/// (the gateway decompresses nothing).
pub fn plain_answer(headers: &mut HeaderMap) {
    headers.insert(
        header::ACCEPT_ENCODING,
        HeaderValue::from_static("identity"),
    );
}

/// Why a members answer that had to be filtered was not given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unfiltered {
    /// The body did not arrive whole: the platform's failure, as for any answer.
    Platform(Unanswered),
    /// Over [`MEMBERS_BODY_LIMIT`].
    TooLarge,
    /// Compressed after all, or no JSON: the keys could not be found, so nothing is given.
    Unreadable,
}

/// The platform's answer to a members read as the browser may have it: unchanged for an
/// admin's token and for anything but a 2xx JSON answer; otherwise read whole (within the
/// gateway's timeout) and given back without any member's `key`.
pub async fn answer(
    gw: &Gateway,
    res: reqwest::Response,
    authorization: Option<&HeaderValue>,
    id: Option<&RequestId>,
) -> Result<Response, Unfiltered> {
    if !res.status().is_success() || declares_other_than_json(res.headers()) {
        return Ok(upstream::stream_back(res));
    }
    let user = match authorization {
        Some(authorization) => upstream::current_user(gw, authorization, id).await,
        None => None,
    };
    if user.is_some_and(|u| u.role == Role::Admin) {
        return Ok(upstream::stream_back(res));
    }
    let status = res.status();
    let mut headers = upstream::answer_headers(&res);
    let read = tokio::time::timeout(gw.config.timeout, read_answer(res, MEMBERS_BODY_LIMIT));
    let body = match read.await {
        Err(_) => return Err(Unfiltered::Platform(Unanswered::TimedOut)),
        Ok(Err(AnswerUnread::Broken)) => return Err(Unfiltered::Platform(Unanswered::Unreachable)),
        Ok(Err(AnswerUnread::TooLarge)) => return Err(Unfiltered::TooLarge),
        Ok(Ok(body)) => body,
    };
    let encoded = headers
        .get(header::CONTENT_ENCODING)
        .is_some_and(|e| !e.as_bytes().eq_ignore_ascii_case(b"identity"));
    let mut members: Value = match serde_json::from_slice(&body) {
        Ok(value) if !encoded => value,
        _ => return Err(Unfiltered::Unreadable),
    };
    remove_keys(&mut members);
    let body = serde_json::to_vec(&members).map_err(|_| Unfiltered::Unreadable)?;
    headers.remove(header::CONTENT_LENGTH);
    headers.remove(header::CONTENT_ENCODING);
    let mut out = Response::new(Body::from(body));
    *out.status_mut() = status;
    *out.headers_mut() = headers;
    Ok(out)
}

/// A `Content-Type` that is there and is no JSON (`application/json`, `…+json`): such an
/// answer is no member list the console reads, and passes as it is.
fn declares_other_than_json(headers: &HeaderMap) -> bool {
    let Some(value) = headers.get(header::CONTENT_TYPE) else {
        return false;
    };
    let text = value.to_str().unwrap_or("").to_ascii_lowercase();
    let essence = text.split(';').next().unwrap_or("").trim();
    essence != "application/json" && !essence.ends_with("+json")
}

/// Removes `key` from every member of a members answer: the contract's bare array, or an
/// object whose arrays hold the members (a paged envelope, should the platform add one).
/// Every other field stays as it came. Returns how many keys went.
pub fn remove_keys(answer: &mut Value) -> usize {
    let lists: Vec<&mut Vec<Value>> = match answer {
        Value::Array(members) => vec![members],
        Value::Object(fields) => fields
            .values_mut()
            .filter_map(Value::as_array_mut)
            .collect(),
        _ => Vec::new(),
    };
    lists
        .into_iter()
        .flatten()
        .filter_map(Value::as_object_mut)
        .filter_map(|member| member.remove("key"))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_go_and_everything_else_stays() {
        let member = |id: u64| {
            json!({"id": id, "first_name": "A", "email": "a@example.com", "balance": "12.50",
                   "sandbox": false, "team_group_id": 3, "key": format!("inv_{id}"),
                   "added_later": {"key": "not a member's"}})
        };
        let mut bare = json!([member(1), member(2)]);
        assert_eq!(remove_keys(&mut bare), 2);
        let mut expected = json!([member(1), member(2)]);
        for m in expected.as_array_mut().into_iter().flatten() {
            m.as_object_mut().map(|m| m.remove("key"));
        }
        assert_eq!(bare, expected);
        assert_eq!(bare[0]["added_later"]["key"], "not a member's");
        let mut paged =
            json!({"current_page": 1, "total_members": 2, "members": [member(1), member(2)]});
        assert_eq!(remove_keys(&mut paged), 2);
        assert_eq!(paged["total_members"], 2);
        assert!(paged["members"][1].get("key").is_none());
        let mut odd = json!("key");
        assert_eq!(remove_keys(&mut odd), 0);
    }

    #[test]
    fn only_a_declared_other_type_passes_unread() {
        let with = |ct: &'static str| {
            let mut h = HeaderMap::new();
            h.insert(header::CONTENT_TYPE, HeaderValue::from_static(ct));
            declares_other_than_json(&h)
        };
        assert!(!declares_other_than_json(&HeaderMap::new()));
        assert!(!with("application/json; charset=utf-8"));
        assert!(!with("Application/JSON"));
        assert!(!with("application/problem+json"));
        assert!(with("text/html"));
    }
}
