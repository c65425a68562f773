//! Links that change some query parameters and keep the rest, for filters kept in the address
//! bar (the address is the source of truth: reload and back work, links can be shared).

use gifting_api::query::QueryBuilder;
use leptos_router::params::ParamsMap;

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
