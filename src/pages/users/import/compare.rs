//! The comparison with the platform: which of the file's emails already have a user. Either
//! the users are read once (the SCIM list, 100 a page) or each email is looked up (`userName
//! eq`), whichever takes fewer requests for the file at hand; the first page is read in any
//! case, which also tells how many users there are. Requests are paced like the writes, by the
//! console's one pacing policy ([`crate::http::pacing`]).

use std::collections::{HashMap, HashSet};

use gifting_api::paths::{endpoint, Call};
use gifting_api::scim::{ListResponse, ListUsersQuery, ScimUser, MAX_COUNT};

use crate::api::{ApiClient, ApiError};
use crate::components::format::count;
use crate::http::pacing::Lane;
use crate::i18n::msg;

/// What the console knows of the platform's users, by lower-case email.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Known {
    pub(crate) users: HashMap<String, ScimUser>,
    /// Emails looked up one by one (found or not).
    pub(crate) looked_up: HashSet<String>,
    /// Every user was read: an email missing here has no user.
    pub(crate) complete: bool,
    /// The platform's number of users (from the first page).
    pub(crate) total: Option<u64>,
    /// The requests the last comparison made (after what was known before it): how it was
    /// made, with [`Known::total`] and [`Known::complete`] ([`how_text`]).
    pub(crate) requests: u64,
}

impl Known {
    fn take(&mut self, users: Vec<ScimUser>) {
        for user in users {
            self.users.insert(user.user_name.to_lowercase(), user);
        }
    }

    /// Whether the platform's answer for this email is known (a user, or none).
    pub(crate) fn settled(&self, key: &str) -> bool {
        self.complete || self.users.contains_key(key) || self.looked_up.contains(key)
    }
}

/// The two ways to compare, and what each costs in requests (after the first page).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Strategy {
    List { requests: u64 },
    Lookup { requests: u64 },
}

/// Reading the rest of the list, or looking up the `unsettled` emails one by one, whichever
/// asks less; `need_all` (deactivating users absent from the file) needs the whole list.
pub(crate) fn choose(total: u64, unsettled: u64, need_all: bool) -> Strategy {
    let list = total.div_ceil(MAX_COUNT).saturating_sub(1);
    if need_all || list <= unsettled {
        Strategy::List { requests: list }
    } else {
        Strategy::Lookup {
            requests: unsettled,
        }
    }
}

fn list_call(start_index: u64) -> Call {
    let query = ListUsersQuery {
        start_index: Some(start_index),
        count: Some(MAX_COUNT),
        filter: None,
    };
    endpoint::LIST_SCIM_USERS
        .call(&[])
        .query(&query.to_query_string())
}

/// Brings `known` up to date for `keys` (lower-case emails of the file).
pub(crate) async fn compare(
    api: ApiClient,
    lane: &Lane,
    mut known: Known,
    keys: &[String],
    need_all: bool,
) -> Result<Known, ApiError> {
    if known.complete {
        return Ok(known);
    }
    let mut requests = 0u64;
    if known.total.is_none() {
        let first: ListResponse = api.get_paced(lane, list_call(1)).await?;
        requests += 1;
        known.total = Some(first.total_results);
        known.complete = first.total_results <= first.resources.len() as u64;
        known.take(first.resources);
    }
    let total = known.total.unwrap_or(0);
    let mut unsettled: Vec<&String> = keys.iter().filter(|k| !known.settled(k)).collect();
    unsettled.sort();
    unsettled.dedup();
    match choose(total, unsettled.len() as u64, need_all) {
        _ if known.complete => {}
        Strategy::List { requests: pages } => {
            for page in 1..=pages {
                let list: ListResponse =
                    api.get_paced(lane, list_call(page * MAX_COUNT + 1)).await?;
                known.take(list.resources);
            }
            requests += pages;
            known.complete = true;
        }
        Strategy::Lookup { requests: n } => {
            for key in unsettled {
                let found = lookup(api, lane, key).await?;
                known.take(found.into_iter().collect());
                known.looked_up.insert(key.clone());
            }
            requests += n;
        }
    }
    known.requests = requests;
    Ok(known)
}

/// The user with this email, if any (`userName eq`, as the user form asks before a resend).
pub(crate) async fn lookup(
    api: ApiClient,
    lane: &Lane,
    email: &str,
) -> Result<Option<ScimUser>, ApiError> {
    let filter = gifting_api::scim::UserFilter::user_name_eq(email);
    let query = ListUsersQuery {
        start_index: None,
        count: Some(10),
        filter: Some(filter.clone()),
    };
    let call = endpoint::LIST_SCIM_USERS
        .call(&[])
        .query(&query.to_query_string());
    let list: ListResponse = api.get_paced(lane, call).await?;
    Ok(list
        .resources
        .into_iter()
        .find(|u| filter.matches(&u.user_name)))
}

/// "Compared with the platform by reading all its 60 users (1 request)…", in the chosen
/// language.
pub(crate) fn how_text(known: &Known) -> String {
    let total = known.total.unwrap_or(0);
    if known.complete {
        msg::import_how_listed(total, known.requests)
    } else {
        msg::import_how_looked_up(known.requests, total, &count(total.div_ceil(MAX_COUNT)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn fewer_requests_wins() {
        // 60 users: the first page holds them all; nothing more to read.
        assert_eq!(choose(60, 5, false), Strategy::List { requests: 0 });
        // 10,000 users and 3 new emails: 3 lookups beat 99 more pages.
        assert_eq!(choose(10_000, 3, false), Strategy::Lookup { requests: 3 });
        // 1,000 emails against 10,000 users: 99 pages beat 1,000 lookups.
        assert_eq!(
            choose(10_000, 1_000, false),
            Strategy::List { requests: 99 }
        );
        // Deactivating the absent needs everyone.
        assert_eq!(choose(10_000, 3, true), Strategy::List { requests: 99 });
    }
}
