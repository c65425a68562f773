//! Links that change some query parameters and keep the rest, for filters kept in the address
//! bar (the address is the source of truth: reload and back work, links can be shared).

use gifting_api::query::QueryBuilder;
use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_query_map};
use leptos_router::params::ParamsMap;
use leptos_router::NavigateOptions;

use super::Navigator;
use crate::i18n::M;

/// Writes a list's filters to the address, each change back to the list's first page (its
/// paging key removed): the screen reads the filters from there, so reload, back and shared
/// links keep them.
#[derive(Clone, Copy)]
pub(crate) struct FilterAddress {
    query: Memo<ParamsMap>,
    pathname: Memo<String>,
    /// Stored so the handlers stay `Copy`.
    navigate: Navigator,
    /// The list's paging key: `page`, or SCIM's `startIndex`.
    paging: &'static str,
    /// Runs before each change is written.
    before: Option<Callback<()>>,
}

impl FilterAddress {
    pub(crate) fn new(paging: &'static str) -> Self {
        FilterAddress {
            query: use_query_map(),
            pathname: use_location().pathname,
            navigate: Navigator::new(),
            paging,
            before: None,
        }
    }

    /// The same, running `before` ahead of each change it writes.
    pub(crate) fn before(self, before: Callback<()>) -> Self {
        FilterAddress {
            before: Some(before),
            ..self
        }
    }

    /// Sets `key` to `value` (empty removes it); `replace` keeps typing out of the history.
    pub(crate) fn set(&self, key: &'static str, value: String, replace: bool) {
        self.set_all(&[(key, Some(value))], replace);
    }

    /// Several keys at once, as one change (one history entry): `None` or empty removes one.
    pub(crate) fn set_all(&self, changes: &[(&'static str, Option<String>)], replace: bool) {
        if let Some(before) = self.before {
            before.run(());
        }
        let href = self.query.with_untracked(|q| {
            let mut changes = changes.to_vec();
            changes.push((self.paging, None));
            href_with(&self.pathname.get_untracked(), q, &changes)
        });
        let options = NavigateOptions {
            replace,
            scroll: false,
            ..NavigateOptions::default()
        };
        self.navigate.go(&href, options);
    }

    /// The address without any of `keys`, tracked.
    pub(crate) fn cleared(&self, keys: &[&'static str]) -> String {
        self.query.with(|q| {
            let mut changes: Vec<(&str, Option<String>)> =
                keys.iter().map(|k| (*k, None)).collect();
            changes.push((self.paging, None));
            href_with(&self.pathname.get(), q, &changes)
        })
    }
}

/// A labelled select whose choice goes to the address under `key`.
#[component]
pub(crate) fn FilterSelect(
    id: &'static str,
    label: M,
    key: &'static str,
    address: FilterAddress,
    children: Children,
) -> impl IntoView {
    view! {
        <div class="field">
            <label for=id>{label}</label>
            <select id=id on:change=move |ev| address.set(key, event_target_value(&ev), false)>
                {children()}
            </select>
        </div>
    }
}

/// `path` with `query`, where each `(key, Some(value))` of `changes` is set, each
/// `(key, None)` removed, and everything else kept in its order. An empty value removes the
/// key too, so "All" choices leave no `?status=` behind.
pub(crate) fn href_with(
    path: &str,
    query: &ParamsMap,
    changes: &[(&str, Option<String>)],
) -> String {
    href_with_pairs(
        path,
        query.into_iter().map(|(k, v)| (k.as_ref(), v)),
        changes,
    )
}

/// [`href_with`] over plain decoded pairs (what a `ParamsMap` iterates).
pub(crate) fn href_with_pairs<'a>(
    path: &str,
    query: impl IntoIterator<Item = (&'a str, &'a str)>,
    changes: &[(&str, Option<String>)],
) -> String {
    let mut builder = QueryBuilder::new();
    for (key, value) in query {
        if !changes.iter().any(|(k, _)| *k == key) {
            builder = builder.push(key, value);
        }
    }
    for (key, value) in changes {
        if let Some(value) = value.as_ref().filter(|v| !v.is_empty()) {
            builder = builder.push(key, value);
        }
    }
    format!("{path}{}", builder.build())
}

/// As [`href_with`], and back to page 1: a new filter makes the old page number meaningless.
pub(crate) fn href_with_first_page(
    path: &str,
    query: &ParamsMap,
    changes: &[(&str, Option<String>)],
) -> String {
    href_with(path, query, &first_page(changes))
}

fn first_page<'a>(changes: &[(&'a str, Option<String>)]) -> Vec<(&'a str, Option<String>)> {
    let mut all = changes.to_vec();
    all.push(("page", None));
    all
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    // (A ParamsMap decodes through the browser's decodeURIComponent, so the host tests use
    // the pairs it would iterate.)
    #[wasm_bindgen_test]
    fn sets_removes_and_keeps() {
        let q = [("page", "3"), ("per_page", "10"), ("q", "a b&c")];
        assert_eq!(
            href_with_pairs("/sends", q, &[("status", Some("problem".into()))]),
            "/sends?page=3&per_page=10&q=a%20b%26c&status=problem"
        );
        assert_eq!(
            href_with_pairs("/sends", q, &first_page(&[("q", Some(String::new()))])),
            "/sends?per_page=10"
        );
        assert_eq!(href_with_pairs("/campaigns", [], &[]), "/campaigns");
        assert_eq!(
            href_with_pairs(
                "/campaigns",
                [("delivery_type", "mail")],
                &[("delivery_type", None)]
            ),
            "/campaigns"
        );
    }
}
