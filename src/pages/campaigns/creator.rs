//! A campaign's creator by name. The campaign carries only the REST user id (`user_id`); the
//! platform has no user-by-id endpoint, but lists its active users by id (docs/platform.md,
//! "Paging and order"), so the page holding an id is found by halving: about seven requests
//! of 100 users among 5,000, never the whole directory.

use gifting_api::paths::endpoint;
use gifting_api::rest::{PageQuery, RestUser, UserPage, MAX_PER_PAGE};
use gifting_api::scim::full_name;
use leptos::prelude::*;

use crate::api::{use_api, ApiClient, ApiError};
use crate::i18n::msg;

/// Stops a platform whose pages contradict their order from searching forever.
const MOST_READS: u32 = 20;

async fn users_page(api: ApiClient, page: u32) -> Result<UserPage, ApiError> {
    let query = PageQuery::new(page, MAX_PER_PAGE).to_query_string();
    api.get_json(endpoint::LIST_USERS.call(&[]).query(&query))
        .await
}

/// Where `id` stands against a page of users sorted by id.
fn place(users: &[RestUser], id: u64) -> std::cmp::Ordering {
    match (users.first(), users.last()) {
        (Some(first), _) if id < first.id => std::cmp::Ordering::Less,
        (_, Some(last)) if id > last.id => std::cmp::Ordering::Greater,
        (Some(_), Some(_)) => std::cmp::Ordering::Equal,
        _ => std::cmp::Ordering::Less,
    }
}

/// The active user with REST id `id`, if the directory lists them.
async fn find_user(api: ApiClient, id: u64) -> Result<Option<RestUser>, ApiError> {
    let first = users_page(api, 1).await?;
    let pages = first.total_users.div_ceil(u64::from(MAX_PER_PAGE)).max(1) as u32;
    let (mut low, mut high) = (1u32, pages);
    let mut page = first;
    let mut at = 1u32;
    for _ in 0..MOST_READS {
        match place(&page.users, id) {
            std::cmp::Ordering::Equal => {
                return Ok(page.users.into_iter().find(|u| u.id == id));
            }
            std::cmp::Ordering::Less => high = at.saturating_sub(1),
            std::cmp::Ordering::Greater => low = at + 1,
        }
        if low > high {
            return Ok(None);
        }
        at = low + (high - low) / 2;
        page = users_page(api, at).await?;
    }
    Ok(None)
}

/// "Ada Lovelace", or "User 1041" until found and when the directory does not list them
/// (a deactivated user is not listed).
#[component]
pub(crate) fn CreatorName(user_id: u64) -> impl IntoView {
    let api = use_api();
    let found = LocalResource::new(move || find_user(api, user_id));
    let id = user_id.to_string();
    move || match found.get() {
        Some(Ok(Some(user))) => {
            let name = full_name(&user.first_name, &user.last_name);
            view! { <span translate="no">{name}</span> }.into_any()
        }
        Some(Ok(None)) => msg::campaigns_creator_not_listed(&id).into_any(),
        _ => msg::campaigns_creator(&id).into_any(),
    }
}

#[cfg(test)]
mod tests {
    use std::cmp::Ordering;

    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn user(id: u64) -> RestUser {
        serde_json::from_value(serde_json::json!({
            "id": id, "first_name": "A", "last_name": "B", "email": "a@example.com", "team_group_id": 1,
        }))
        .expect("a user")
    }

    #[wasm_bindgen_test]
    fn a_page_of_users_by_id_says_which_way_an_id_lies() {
        let page = [user(10), user(14), user(20)];
        assert_eq!(place(&page, 3), Ordering::Less);
        assert_eq!(place(&page, 15), Ordering::Equal, "within, listed or not");
        assert_eq!(place(&page, 21), Ordering::Greater);
        assert_eq!(place(&[], 21), Ordering::Less, "an empty page: look lower");
    }
}
