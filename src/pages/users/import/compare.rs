//! The comparison with the platform: which of the file's emails already have a user. Either
//! the users are read once (the SCIM list, 100 a page) or each email is looked up (`userName
//! eq`), whichever takes fewer requests for the file at hand; the first page is read in any
//! case, which also tells how many users there are. Requests are paced like the writes.

use std::cell::Cell;
use std::collections::{HashMap, HashSet};
use std::time::Duration;

use gifting_api::paths::{endpoint, Call};
use gifting_api::scim::{ListResponse, ListUsersQuery, ScimUser, MAX_COUNT};
use serde::de::DeserializeOwned;

use crate::api::{ApiClient, ApiError};
use crate::browser::{now_ms, sleep};
use crate::components::format::count;
use crate::pages::sends::pacing::busy_wait_ms;

/// The platform throttles above 10 requests a second per token (docs/platform.md).
pub(crate) const PLATFORM_RATE_PER_SECOND: u64 = 10;
/// One request started every 105 ms: 5 % under the limit, so that a one-second window of
/// the platform never counts an eleventh request when answers arrive unevenly.
pub(crate) const MIN_INTERVAL_MS: f64 = 1000.0 / PLATFORM_RATE_PER_SECOND as f64 * 1.05;
/// Tries of one read when the platform is busy or does not answer.
const READ_TRIES: u32 = 6;

/// Hands out start times at most one per [`MIN_INTERVAL_MS`], to any number of tasks.
#[derive(Default)]
pub(crate) struct Pacer {
    next: Cell<f64>,
    stopped: Cell<bool>,
}

impl Pacer {
    /// Waits for this request's turn (returns early when stopped).
    pub(crate) async fn turn(&self) {
        let now = now_ms() as f64;
        let slot = self.next.get().max(now);
        self.next.set(slot + MIN_INTERVAL_MS);
        self.wait_until(slot).await;
    }

    /// Nobody starts a request for `ms` (the platform asked to slow down).
    pub(crate) fn hold(&self, ms: u64) {
        let until = now_ms() as f64 + ms as f64;
        self.next.set(self.next.get().max(until));
    }

    pub(crate) async fn wait_until(&self, at: f64) {
        while !self.stopped.get() {
            let left = at - now_ms() as f64;
            if left <= 0.0 {
                break;
            }
            sleep(Duration::from_millis(left.min(100.0).ceil() as u64)).await;
        }
    }

    pub(crate) fn stop(&self) {
        self.stopped.set(true);
    }

    pub(crate) fn stopped(&self) -> bool {
        self.stopped.get()
    }
}

/// A paced GET that waits out "busy" answers and tries again after a lost one (a read
/// changes nothing, so repeating it is safe).
pub(crate) async fn paced_get<T: DeserializeOwned>(
    api: ApiClient,
    pacer: &Pacer,
    call: Call,
) -> Result<T, ApiError> {
    let mut failures = 0;
    loop {
        pacer.turn().await;
        if pacer.stopped() {
            return Err(ApiError::Cancelled);
        }
        // Tried once per turn: every try of a read waits for its turn of the pacing.
        match api.get_json_once::<T>(call.clone()).await {
            Err(error) if error.is_transient() && failures + 1 < READ_TRIES => {
                failures += 1;
                let retry_after = match error {
                    ApiError::Busy { retry_after } => retry_after,
                    _ => None,
                };
                pacer.hold(busy_wait_ms(retry_after, failures).unwrap_or(1000));
            }
            other => return other,
        }
    }
}

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
    /// How the comparison was made, in words.
    pub(crate) how: String,
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
    pacer: &Pacer,
    mut known: Known,
    keys: &[String],
    need_all: bool,
) -> Result<Known, ApiError> {
    if known.complete {
        return Ok(known);
    }
    let mut requests = 0u64;
    if known.total.is_none() {
        let first: ListResponse = paced_get(api, pacer, list_call(1)).await?;
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
                    paced_get(api, pacer, list_call(page * MAX_COUNT + 1)).await?;
                known.take(list.resources);
            }
            requests += pages;
            known.complete = true;
        }
        Strategy::Lookup { requests: n } => {
            for key in unsettled {
                let found = lookup(api, pacer, key).await?;
                known.take(found.into_iter().collect());
                known.looked_up.insert(key.clone());
            }
            requests += n;
        }
    }
    known.how = how_text(&known, requests);
    Ok(known)
}

/// The user with this email, if any (`userName eq`, as the user form asks before a resend).
pub(crate) async fn lookup(
    api: ApiClient,
    pacer: &Pacer,
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
    let list: ListResponse = paced_get(api, pacer, call).await?;
    Ok(list
        .resources
        .into_iter()
        .find(|u| filter.matches(&u.user_name)))
}

/// "Compared with the platform by reading all its 60 users (1 request)."
pub(crate) fn how_text(known: &Known, requests: u64) -> String {
    let total = known.total.unwrap_or(0);
    let asked = match requests {
        0 => "no new request".to_owned(),
        1 => "1 request".to_owned(),
        n => format!("{} requests", count(n)),
    };
    if known.complete {
        format!(
            "Compared with the platform by reading all its {} users ({asked}): fewer requests \
             than looking up each email.",
            count(total)
        )
    } else {
        format!(
            "Compared with the platform by looking up each email ({asked}): fewer requests \
             than reading all its {} users ({}).",
            count(total),
            count(total.div_ceil(MAX_COUNT))
        )
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
        assert!((MIN_INTERVAL_MS - 105.0).abs() < 1e-9);
    }
}
