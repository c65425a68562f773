//! SCIM paging and the email search, read from and written to the address bar.
//!
//! SCIM pages by `startIndex` (1-based) and `count`, not by page number, so the REST pager of
//! the core does not fit; the URL keeps SCIM's own names so a shared link reads the same as
//! the request it makes.

use gifting_api::query::QueryBuilder;
use gifting_api::scim::{ListUsersQuery, UserFilter};
use leptos_router::params::ParamsMap;

use super::search;
use crate::components::format::count;
use crate::components::PAGE_SIZES;
use crate::i18n::{msg, t, M};
use crate::routes;

/// Rows per page when the URL does not say.
pub(crate) const DEFAULT_COUNT: u64 = gifting_api::rest::DEFAULT_PER_PAGE as u64;

/// What the users list shows: its window of the SCIM list and the email searched for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ScimPaging {
    /// 1-based index of the first row.
    pub(crate) start_index: u64,
    /// Rows per page, one of [`PAGE_SIZES`].
    pub(crate) count: u64,
    /// The `userName eq` filter value, trimmed; `None` lists everyone.
    pub(crate) email: Option<String>,
    /// The directory search's parameters as the address has them ([`super::search`]), kept
    /// in every link that pages through its results.
    pub(crate) kept: Vec<(&'static str, String)>,
}

impl Default for ScimPaging {
    fn default() -> Self {
        Self {
            start_index: 1,
            count: DEFAULT_COUNT,
            email: None,
            kept: Vec::new(),
        }
    }
}

impl ScimPaging {
    /// Reads `startIndex`, `count` and `email` from the query. A value that is missing or not
    /// a number falls back to the default (for `count`, the size `remembered` for the list,
    /// else 25), so a hand-edited URL still shows a sensible page.
    pub(crate) fn from_query(query: &ParamsMap, remembered: Option<u32>) -> Self {
        Self::from_lookup(|key| query.get_str(key).map(str::to_owned), remembered)
    }

    /// As [`ScimPaging::from_query`], from any way of looking a parameter up.
    pub(crate) fn from_lookup(
        get: impl Fn(&str) -> Option<String>,
        remembered: Option<u32>,
    ) -> Self {
        let number = |key: &str| get(key).and_then(|v| v.trim().parse::<i64>().ok());
        let start_index = number("startIndex")
            .filter(|&i| i >= 1)
            .map_or(1, |i| i as u64);
        let offered = |c: &i64| PAGE_SIZES.iter().any(|&size| i64::from(size) == *c);
        let count = number("count")
            .filter(offered)
            .or(remembered.map(i64::from).filter(offered))
            .map_or(DEFAULT_COUNT, |c| c as u64);
        let email = get("email")
            .map(|e| e.trim().to_owned())
            .filter(|e| !e.is_empty());
        let kept = search::KEYS
            .iter()
            .filter_map(|&key| Some((key, get(key).filter(|v| !v.trim().is_empty())?)))
            .collect();
        Self {
            start_index,
            count,
            email,
            kept,
        }
    }

    /// The request's query string: `?startIndex=26&count=25&filter=userName%20eq%20...`.
    pub(crate) fn request_query(&self) -> String {
        ListUsersQuery {
            start_index: Some(self.start_index),
            count: Some(self.count),
            filter: self.email.as_deref().map(UserFilter::user_name_eq),
        }
        .to_query_string()
    }

    /// The users screen's address for another window of the same search.
    pub(crate) fn href(&self, start_index: u64, count: u64) -> String {
        let mut query = QueryBuilder::new().push_opt("email", self.email.as_deref());
        for (key, value) in &self.kept {
            query = query.push(key, value);
        }
        let query = query
            .push("startIndex", start_index.max(1))
            .push("count", count)
            .build();
        format!("{}{query}", routes::USERS)
    }

    /// The address for a new search (from its first row), keeping the page size.
    pub(crate) fn search_href(&self, email: &str) -> String {
        let email = email.trim();
        let searched = ScimPaging {
            email: (!email.is_empty()).then(|| email.to_owned()),
            ..self.clone()
        };
        searched.href(1, self.count)
    }

    pub(crate) fn previous_start(&self) -> Option<u64> {
        (self.start_index > 1).then(|| self.start_index.saturating_sub(self.count).max(1))
    }

    pub(crate) fn next_start(&self, total: u64) -> Option<u64> {
        let next = self.start_index + self.count;
        (next <= total).then_some(next)
    }

    /// The first row of the last page, aligned to whole pages from row 1.
    pub(crate) fn last_start(&self, total: u64) -> u64 {
        if total == 0 {
            1
        } else {
            (total - 1) / self.count * self.count + 1
        }
    }

    /// The first row of the page that holds the current first row at another page size, so
    /// the row the admin was looking at stays on screen.
    pub(crate) fn start_for_count(&self, count: u64) -> u64 {
        (self.start_index - 1) / count.max(1) * count.max(1) + 1
    }

    /// "Page 2 of 3", counting whole pages from row 1.
    pub(crate) fn position_text(&self, total: u64) -> String {
        let pages = total.div_ceil(self.count).max(1);
        let page = ((self.start_index - 1) / self.count + 1).min(pages.max(1));
        msg::users_page_position(&count(page), &count(pages))
    }
}

/// "Showing 26–50 of 63" for `shown` rows from `start_index`; a sentence for the empty and
/// past-the-end cases.
pub(crate) fn showing_text(start_index: u64, shown: u64, total: u64) -> String {
    if total == 0 {
        return t(M::UsersShowingNone).to_owned();
    }
    if shown == 0 {
        return msg::users_past_the_end(&count(start_index), total);
    }
    let end = start_index + shown - 1;
    msg::users_showing(&count(start_index), &count(end), &count(total))
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn read_remembering(pairs: &[(&str, &str)], remembered: Option<u32>) -> ScimPaging {
        let get = |key: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| v.to_string())
        };
        ScimPaging::from_lookup(get, remembered)
    }

    fn read(pairs: &[(&str, &str)]) -> ScimPaging {
        read_remembering(pairs, None)
    }

    #[wasm_bindgen_test]
    fn reads_the_query_with_fallbacks() {
        assert_eq!(read(&[]), ScimPaging::default());
        let p = read(&[
            ("startIndex", "26"),
            ("count", "50"),
            ("email", "  a@example.com "),
        ]);
        assert_eq!(
            (p.start_index, p.count, p.email.as_deref()),
            (26, 50, Some("a@example.com"))
        );
        let odd = read(&[("startIndex", "-3"), ("count", "7"), ("email", " ")]);
        assert_eq!(odd, ScimPaging::default());
        let junk = read(&[("startIndex", "x"), ("count", "1e3")]);
        assert_eq!(junk, ScimPaging::default());
        // Without a size in the address, the one the admin chose before; the address wins.
        assert_eq!(read_remembering(&[], Some(100)).count, 100);
        assert_eq!(read_remembering(&[("count", "x")], Some(50)).count, 50);
        assert_eq!(read_remembering(&[("count", "10")], Some(100)).count, 10);
        assert_eq!(read_remembering(&[], Some(7)).count, DEFAULT_COUNT);
    }

    #[wasm_bindgen_test]
    fn request_and_links_keep_the_search() {
        let p = ScimPaging {
            start_index: 26,
            count: 25,
            email: Some("a+b@example.com".into()),
            kept: Vec::new(),
        };
        assert_eq!(
            p.request_query(),
            "?startIndex=26&count=25&filter=userName%20eq%20%22a%2Bb%40example.com%22"
        );
        assert_eq!(
            p.href(51, 25),
            "/users?email=a%2Bb%40example.com&startIndex=51&count=25"
        );
        assert_eq!(p.search_href(""), "/users?startIndex=1&count=25");
        // The directory's search goes along when paging through its results.
        let found = read(&[
            ("q", "dubo"),
            ("role", "sender"),
            ("team", " "),
            ("count", "10"),
        ]);
        assert_eq!(
            found.href(11, 10),
            "/users?q=dubo&role=sender&startIndex=11&count=10"
        );
    }

    #[wasm_bindgen_test]
    fn first_previous_next_last() {
        let p = ScimPaging {
            start_index: 26,
            count: 25,
            ..ScimPaging::default()
        };
        assert_eq!(p.previous_start(), Some(1));
        assert_eq!(p.next_start(63), Some(51));
        assert_eq!(p.next_start(50), None);
        assert_eq!(p.last_start(63), 51);
        assert_eq!(p.last_start(50), 26);
        assert_eq!(p.last_start(0), 1);
        assert_eq!(p.position_text(63), "Page 2 of 3");
        let first = ScimPaging::default();
        assert_eq!(first.previous_start(), None);
        let odd = ScimPaging {
            start_index: 10,
            count: 25,
            ..ScimPaging::default()
        };
        assert_eq!(odd.previous_start(), Some(1));
        assert_eq!(odd.start_for_count(10), 1);
        assert_eq!(p.start_for_count(10), 21);
        assert_eq!(p.start_for_count(100), 1);
    }

    #[wasm_bindgen_test]
    fn showing_text_reads_like_the_issue() {
        assert_eq!(showing_text(26, 25, 63), "Showing 26\u{2013}50 of 63");
        assert_eq!(showing_text(51, 13, 63), "Showing 51\u{2013}63 of 63");
        assert_eq!(showing_text(1, 0, 0), "No users to show");
        assert_eq!(
            showing_text(80, 0, 63),
            "Row 80 is past the end: there are 63 users in all"
        );
    }
}
