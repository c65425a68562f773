//! Paging for REST v3 lists, with the address bar as the source of truth: `?page=&per_page=`
//! survive a reload, can be bookmarked, and the back button pages back.

use gifting_api::paths::Endpoint;
use gifting_api::query::QueryBuilder;
use gifting_api::rest::{
    effective_page, effective_per_page, page_count, PageQuery, DEFAULT_PER_PAGE,
};
use leptos::either::Either;
use leptos::html;
use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_navigate, use_query_map};
use leptos_router::params::ParamsMap;
use leptos_router::NavigateOptions;
use serde::de::DeserializeOwned;

use super::format::count;
use super::pager_focus::{let_go, remember, restore, PagerControl, FIRST, LAST, NEXT, PREVIOUS};
use crate::api::{ApiClient, ApiError};

/// Page sizes offered; the platform's maximum is 100.
pub(crate) const PAGE_SIZES: [u32; 4] = [10, 25, 50, 100];

/// `page` and `per_page` as the platform will read them from this query (absent or not a
/// number: the defaults, 1 and 25; out of range: clamped).
pub(crate) fn page_query_from(query: &ParamsMap) -> PageQuery {
    let number = |key: &str| query.get(key).and_then(|v| v.trim().parse::<i64>().ok());
    PageQuery::new(
        effective_page(number("page")),
        effective_per_page(number("per_page")),
    )
}

/// The current screen's paging, following the address bar. Use its `to_query_string()` in the
/// request: `endpoint::LIST_SENDS.call(&[]).query(&paging.get().to_query_string())`.
pub(crate) fn use_page_query() -> Memo<PageQuery> {
    let query = use_query_map();
    Memo::new(move |_| query.with(page_query_from))
}

/// The platform's list at `endpoint` (e.g. `endpoint::LIST_GROUPS`), for the page and size the address
/// bar names, fetched again whenever they change.
pub(crate) fn use_paged_list<T>(
    api: ApiClient,
    endpoint: Endpoint,
) -> LocalResource<Result<T, ApiError>>
where
    T: DeserializeOwned + 'static,
{
    let paging = use_page_query();
    LocalResource::new(move || {
        let query = paging.get().to_query_string();
        async move { api.get_json::<T>(endpoint.call(&[]).query(&query)).await }
    })
}

/// "Showing 26–50 of 63" (en dash), or a sentence for the empty and past-the-end cases.
pub(crate) fn showing_text(page: u32, per_page: u32, total: u64) -> String {
    if total == 0 {
        return "Nothing to show".into();
    }
    let start = u64::from(page - 1) * u64::from(per_page) + 1;
    if start > total {
        return format!(
            "Page {page} is past the end: there are {} in all",
            count(total)
        );
    }
    let end = (start + u64::from(per_page) - 1).min(total);
    format!(
        "Showing {}\u{2013}{} of {}",
        count(start),
        count(end),
        count(total)
    )
}

/// The current address with `page` and `per_page` replaced, other parameters kept.
fn href_for(path: &str, query: &ParamsMap, page: u64, per_page: u32) -> String {
    let mut builder = QueryBuilder::new();
    for (key, value) in query.clone() {
        if key != "page" && key != "per_page" {
            builder = builder.push(&key, value);
        }
    }
    let builder = builder.push("page", page).push("per_page", per_page);
    format!("{path}{}", builder.build())
}

/// What a pager shows, whatever the list's paging style (REST `page`/`per_page` or SCIM
/// `startIndex`/`count`): each list computes it by its own rules, [`PagerNav`] draws it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PagerLinks {
    /// "Showing 26–50 of 63".
    pub(crate) summary: String,
    /// "Page 2 of 3".
    pub(crate) position: String,
    /// The addresses of the first, previous, next and last page; `None` where there is
    /// nowhere to go (the link is shown disabled).
    pub(crate) first: Option<String>,
    pub(crate) previous: Option<String>,
    pub(crate) next: Option<String>,
    pub(crate) last: Option<String>,
    /// Rows per page now.
    pub(crate) size: u32,
}

/// A pager link, or its label marked disabled when there is nowhere to go.
fn page_link(label: &'static str, href: Option<String>) -> impl IntoView {
    match href {
        Some(href) => Either::Left(view! {
            <a
                class="pager__link"
                href=href
                data-pager=label
                on:click=move |_| remember(PagerControl::Link(label))
            >
                {label}
            </a>
        }),
        None => Either::Right(view! {
            <span class="pager__link" aria-disabled="true">{label}</span>
        }),
    }
}

/// The one pager view: first / previous / next / last, the range shown, and a page-size
/// select that goes to `size_href(n)`.
#[component]
pub(crate) fn PagerNav(
    #[prop(into)] links: Signal<PagerLinks>,
    /// The address that shows the same rows at `n` rows per page.
    size_href: Callback<u32, String>,
    /// The navigation landmark's name.
    #[prop(default = "Pages")]
    label: &'static str,
    #[prop(optional)] summary_testid: Option<&'static str>,
) -> impl IntoView {
    let navigate = use_navigate();
    let on_size = move |ev: leptos::ev::Event| {
        if let Ok(n) = event_target_value(&ev).parse::<u32>() {
            remember(PagerControl::Size);
            navigate(&size_href.run(n), NavigateOptions::default());
        }
    };
    let size = move || links.with(|l| l.size);
    let nav = NodeRef::<html::Nav>::new();
    Effect::new(move |_| {
        links.track();
        if let Some(nav) = nav.get() {
            restore(nav);
        }
    });
    // Runs before the pager's elements leave the page (see `let_go`).
    on_cleanup(move || {
        if let Some(nav) = nav.get_untracked() {
            let_go(&nav);
        }
    });
    view! {
        <nav class="pager" aria-label=label node_ref=nav>
            <p class="pager__summary" aria-live="polite" data-testid=summary_testid>
                {move || links.with(|l| l.summary.clone())}
            </p>
            <div class="pager__links">
                {move || page_link(FIRST, links.with(|l| l.first.clone()))}
                {move || page_link(PREVIOUS, links.with(|l| l.previous.clone()))}
                <span class="pager__position">{move || links.with(|l| l.position.clone())}</span>
                {move || page_link(NEXT, links.with(|l| l.next.clone()))}
                {move || page_link(LAST, links.with(|l| l.last.clone()))}
            </div>
            <label class="pager__size">
                "Rows per page "
                <select on:change=on_size prop:value=move || size().to_string()>
                    {PAGE_SIZES
                        .into_iter()
                        .map(|n| {
                            view! {
                                <option value=n.to_string() selected=move || size() == n>
                                    {n.to_string()}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
        </nav>
    }
}

/// The pager of a REST v3 list. Place it under a list whose envelope gave `total`.
#[component]
pub(crate) fn Pager(
    /// The list's total count from the platform (`total_count`, `total_users`, …).
    total: u64,
    /// The page the rows on screen answer (the envelope's `current_page`). While the next
    /// page loads, the address already names it but the old rows are still shown: the
    /// summary and links must describe the rows. Without it the address is used.
    #[prop(optional)]
    page: Option<u32>,
    /// The envelope's `per_page`, likewise.
    #[prop(optional)]
    per_page: Option<u32>,
) -> impl IntoView {
    let query = use_query_map();
    let location = use_location();
    let paging = use_page_query();

    // A zero from the platform would make no sense of the arithmetic: the address decides then.
    let page = page.filter(|p| *p >= 1);
    let per_page = per_page.filter(|n| *n >= 1);
    let current = move || page.unwrap_or_else(|| paging.get().page.unwrap_or(1));
    let size =
        move || per_page.unwrap_or_else(|| paging.get().per_page.unwrap_or(DEFAULT_PER_PAGE));
    let links = Signal::derive(move || {
        let (current, size) = (current(), size());
        let last = page_count(total, size);
        // The link to page `want` (clamped), or none when it is the page shown.
        let href_to = |want: i64| {
            let to = want.clamp(1, last as i64) as u64;
            (to != u64::from(current))
                .then(|| href_for(&location.pathname.get(), &query.get(), to, size))
        };
        PagerLinks {
            summary: showing_text(current, size, total),
            position: format!("Page {current} of {last}"),
            first: href_to(1),
            previous: href_to(i64::from(current) - 1),
            next: href_to(i64::from(current) + 1),
            last: href_to(last as i64),
            size,
        }
    });
    // Keep the first row on screen in view after the size change.
    let size_href = Callback::new(move |per_page: u32| {
        let first_row = u64::from(current() - 1) * u64::from(size());
        let page = first_row / u64::from(per_page) + 1;
        href_for(
            &location.pathname.get_untracked(),
            &query.get_untracked(),
            page,
            per_page,
        )
    });
    view! { <PagerNav links size_href /> }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn showing_text_covers_first_middle_last_and_empty() {
        let cases = [
            ((1, 25, 63), "Showing 1–25 of 63"),
            ((2, 25, 63), "Showing 26–50 of 63"),
            ((3, 25, 63), "Showing 51–63 of 63"),
            ((1, 25, 0), "Nothing to show"),
            ((9, 25, 63), "Page 9 is past the end: there are 63 in all"),
        ];
        for ((page, per_page, total), want) in cases {
            assert_eq!(showing_text(page, per_page, total), want);
        }
    }
}
