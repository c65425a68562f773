//! Paging for REST v3 lists, with the address bar as the source of truth: `?page=&per_page=`
//! survive a reload, can be bookmarked, and the back button pages back.
//!
//! A screen mounts its pager once, outside the loading boundary of its rows (as leptos's
//! hackernews example does), and feeds it where the rows on screen sit ([`ShownPage`]): the
//! pager's elements stay while pages come and go, and the keyboard focus on one of them with it.

use gifting_api::paths::Endpoint;
use gifting_api::query::QueryBuilder;
use gifting_api::rest::{
    effective_page, effective_per_page, page_count, PageQuery, DEFAULT_PER_PAGE,
};
use leptos::html;
use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_navigate, use_query_map};
use leptos_router::params::ParamsMap;
use leptos_router::NavigateOptions;
use serde::de::DeserializeOwned;

use wasm_bindgen::JsCast;

use super::format::{count, count_of};
use crate::api::{ApiClient, ApiError};
use crate::i18n::{msg, t, M};

/// Page sizes offered; the platform's maximum is 100.
pub(crate) const PAGE_SIZES: [u32; 4] = [10, 25, 50, 100];

/// `page` and `per_page` as the platform will read them from this query (absent or not a
/// number: page 1, and `per_page` the size `remembered` for the list, else 25; out of range:
/// clamped).
pub(crate) fn page_query_from(query: &ParamsMap, remembered: Option<u32>) -> PageQuery {
    let number = |key: &str| query.get(key).and_then(|v| v.trim().parse::<i64>().ok());
    let per_page = number("per_page").or(remembered.map(i64::from));
    PageQuery::new(effective_page(number("page")), effective_per_page(per_page))
}

/// The rows per page last chosen for the list at `path` ([`crate::prefs`]): a list opened
/// without a size in its address shows as many as the admin chose before.
pub(crate) fn remembered_page_size(path: &str) -> Option<u32> {
    crate::prefs::page_size(&crate::prefs::list_of(path), &PAGE_SIZES)
}

/// Remembers `size` rows per page for the list at `path`.
fn remember_page_size(path: &str, size: u32) {
    crate::prefs::remember_page_size(&crate::prefs::list_of(path), size);
}

/// The current screen's paging, following the address bar. Use its `to_query_string()` in the
/// request: `endpoint::LIST_SENDS.call(&[]).query(&paging.get().to_query_string())`.
pub(crate) fn use_page_query() -> Memo<PageQuery> {
    let query = use_query_map();
    let path = use_location().pathname;
    Memo::new(move |_| {
        let remembered = path.with(|p| remembered_page_size(p));
        query.with(|q| page_query_from(q, remembered))
    })
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
    showing(page, per_page, total, false)
}

/// As [`showing_text`], for a list still being searched: its count is what was found so far,
/// never said as a total ("Showing 1–25 of 412 found so far").
pub(crate) fn showing_so_far_text(page: u32, per_page: u32, found: u64) -> String {
    showing(page, per_page, found, true)
}

/// A message of two counts, and one of three.
type Two = fn(&str, &str) -> String;
type Three = fn(&str, &str, &str) -> String;

fn showing(page: u32, per_page: u32, total: u64, so_far: bool) -> String {
    let (nothing, past, shown): (M, Two, Three) = if so_far {
        (
            M::PagerNothingYet,
            msg::pager_past_found,
            msg::pager_showing_so_far,
        )
    } else {
        (M::PagerNothing, msg::pager_past_end, msg::pager_showing)
    };
    if total == 0 {
        return t(nothing).into();
    }
    let start = u64::from(page - 1) * u64::from(per_page) + 1;
    if start > total {
        return past(&count(u64::from(page)), &count(total));
    }
    let end = (start + u64::from(per_page) - 1).min(total);
    shown(&count(start), &count(end), &count(total))
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

/// Where the rows on screen sit in their list, as the list's answer says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ShownPage {
    /// The list's total count (`total_count`, `total_users`, …).
    pub(crate) total: u64,
    /// The page the rows are (the envelope's `current_page`).
    pub(crate) page: u32,
    /// The envelope's `per_page`.
    pub(crate) per_page: u32,
    /// `total` is what a search found so far, not the list's total (see [`showing_so_far_text`]).
    pub(crate) so_far: bool,
}

impl ShownPage {
    pub(crate) fn new(total: u64, page: u32, per_page: u32) -> Self {
        Self {
            total,
            page,
            per_page,
            so_far: false,
        }
    }

    /// A page of a list still being searched: `found` so far.
    pub(crate) fn so_far(found: u64, page: u32, per_page: u32) -> Self {
        Self {
            so_far: true,
            ..Self::new(found, page, per_page)
        }
    }
}

/// The [`ShownPage`] of `resource`'s latest answer (`of` reads it), for a pager mounted outside
/// the rows' loading boundary. While the next page loads the resource keeps its last answer,
/// so the pager goes on describing the rows on screen, total included, until the new rows
/// replace them: nothing flickers or moves. `None` before the first answer and after a failure
/// (the pager is hidden then, as the rows are).
pub(crate) fn use_shown_page<T: 'static>(
    resource: LocalResource<Result<T, ApiError>>,
    of: fn(&T) -> Option<ShownPage>,
) -> Memo<Option<ShownPage>> {
    Memo::new(move |_| resource.map(|r| r.as_ref().ok().and_then(of)).flatten())
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

const FIRST: &str = "First";
const PREVIOUS: &str = "Previous";
const NEXT: &str = "Next";
const LAST: &str = "Last";
/// The pager's links, in the order it shows them.
const LINKS: [&str; 4] = [FIRST, PREVIOUS, NEXT, LAST];

impl PagerLinks {
    /// Where the link labelled `label` leads, if anywhere.
    fn href(&self, label: &str) -> Option<&String> {
        match label {
            FIRST => self.first.as_ref(),
            PREVIOUS => self.previous.as_ref(),
            NEXT => self.next.as_ref(),
            LAST => self.last.as_ref(),
            _ => None,
        }
    }
}

/// `label` and then the other links, nearest first (the earlier one of two as near): where
/// the focus goes when `label` is disabled on the new page.
fn nearest_links(label: &str) -> Vec<&'static str> {
    let Some(at) = LINKS.iter().position(|l| *l == label) else {
        return Vec::new();
    };
    let mut links: Vec<(usize, &'static str)> =
        LINKS.iter().enumerate().map(|(i, l)| (i, *l)).collect();
    links.sort_by_key(|(i, _)| (i.abs_diff(at), *i));
    links.into_iter().map(|(_, l)| l).collect()
}

/// What a link (named by its English word in `data-pager`) says in the chosen language.
fn link_words(label: &str) -> M {
    match label {
        FIRST => M::PagerFirst,
        PREVIOUS => M::PagerPrevious,
        NEXT => M::PagerNext,
        _ => M::PagerLast,
    }
}

/// A pager link. It is the same element for the pager's whole life, so the focus stays on it
/// from page to page. With nowhere to go it has no `href` (no link, out of the tab order) and
/// says so with `aria-disabled`; `tabindex="-1"` keeps a focus it had until
/// [`hand_on_focus`] moves it.
fn page_link(links: Signal<Option<PagerLinks>>, label: &'static str) -> impl IntoView {
    let href = move || links.with(|l| l.as_ref().and_then(|l| l.href(label)).cloned());
    let disabled = move || links.with(|l| l.as_ref().and_then(|l| l.href(label)).is_none());
    // No scroll to the top: the rows change under the pager, which stays where the admin is.
    view! {
        <a
            class="pager__link"
            href=href
            data-pager=label
            data-noscroll=""
            aria-disabled=move || disabled().then_some("true")
            tabindex=move || disabled().then_some("-1")
        >
            {link_words(label)}
        </a>
    }
}

/// When the focused control of `nav` is a link that now leads nowhere ("Next" on the last
/// page), the nearest link that leads somewhere takes the focus, so the keyboard is never left
/// on a dead control. Anywhere else the focus is left alone.
fn hand_on_focus(nav: &web_sys::HtmlElement, links: &PagerLinks) {
    let Some(active) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element())
    else {
        return;
    };
    let Some(label) = active
        .get_attribute("data-pager")
        .filter(|_| nav.contains(Some(&active)))
    else {
        return;
    };
    if links.href(&label).is_some() {
        return;
    }
    let to = nearest_links(&label)
        .into_iter()
        .find(|l| links.href(l).is_some())
        .and_then(|l| {
            nav.query_selector(&format!("a[data-pager=\"{l}\"]"))
                .ok()
                .flatten()
        })
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(link) = to {
        let _ = link.focus();
    }
}

/// The one pager view: first / previous / next / last, the range shown, and a page-size
/// select that goes to `size_href(n)`. Mount it once per screen, outside the loading boundary
/// of the rows it pages, and feed it `links`: its elements then stay while pages come and go,
/// and so does the keyboard focus on them. Hidden while `links` is `None`.
#[component]
pub(crate) fn PagerNav(
    #[prop(into)] links: Signal<Option<PagerLinks>>,
    /// The address that shows the same rows at `n` rows per page.
    size_href: Callback<u32, String>,
    /// The navigation landmark's name.
    #[prop(default = M::PagerPages)]
    label: M,
    #[prop(optional)] summary_testid: Option<&'static str>,
) -> impl IntoView {
    let navigate = use_navigate();
    let path = use_location().pathname;
    let on_size = move |ev: leptos::ev::Event| {
        if let Ok(n) = event_target_value(&ev).parse::<u32>() {
            path.with_untracked(|p| remember_page_size(p, n));
            let stay = NavigateOptions {
                scroll: false,
                ..NavigateOptions::default()
            };
            navigate(&size_href.run(n), stay);
        }
    };
    let size = move || links.with(|l| l.as_ref().map_or(DEFAULT_PER_PAGE, |l| l.size));
    let text = move |of: fn(&PagerLinks) -> &String| {
        move || links.with(|l| l.as_ref().map(of).cloned().unwrap_or_default())
    };
    let nav = NodeRef::<html::Nav>::new();
    Effect::new(move |_| {
        links.with(|l| {
            if let (Some(links), Some(nav)) = (l, nav.get()) {
                hand_on_focus(&nav, links);
            }
        })
    });
    view! {
        <nav class="pager" aria-label=label node_ref=nav hidden=move || links.with(Option::is_none)>
            <p class="pager__summary" aria-live="polite" data-testid=summary_testid>
                {text(|l| &l.summary)}
            </p>
            <div class="pager__links">
                {page_link(links, FIRST)}
                {page_link(links, PREVIOUS)}
                <span class="pager__position">{text(|l| &l.position)}</span>
                {page_link(links, NEXT)}
                {page_link(links, LAST)}
            </div>
            <label class="pager__size">
                {M::PagerRowsPerPage}
                " "
                <select on:change=on_size prop:value=move || size().to_string()>
                    {PAGE_SIZES
                        .into_iter()
                        .map(|n| {
                            view! {
                                <option value=n.to_string() prop:selected=move || size() == n>
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

/// The links of a REST v3 list showing `shown`, at the address `path` + `query`.
fn rest_links(shown: ShownPage, path: &str, query: &ParamsMap) -> PagerLinks {
    let ShownPage {
        total,
        page: current,
        per_page: size,
        so_far,
    } = shown;
    let last = page_count(total, size);
    // The link to page `want` (clamped), or none when it is the page shown.
    let href_to = |want: i64| {
        let to = want.clamp(1, last as i64) as u64;
        (to != u64::from(current)).then(|| href_for(path, query, to, size))
    };
    PagerLinks {
        summary: if so_far {
            showing_so_far_text(current, size, total)
        } else {
            showing_text(current, size, total)
        },
        position: msg::pager_position(&count_of(u64::from(current), last)),
        first: href_to(1),
        previous: href_to(i64::from(current) - 1),
        next: href_to(i64::from(current) + 1),
        last: href_to(last as i64),
        size,
    }
}

/// The pager of a REST v3 list: mount it once, beside (not inside) the `Loaded` of its rows.
#[component]
pub(crate) fn Pager(
    /// Where the rows on screen sit (see [`use_shown_page`]); the pager is hidden while `None`.
    #[prop(into)]
    shown: Signal<Option<ShownPage>>,
) -> impl IntoView {
    let query = use_query_map();
    let location = use_location();
    let paging = use_page_query();
    // A zero from the platform would make no sense of the arithmetic: the address decides then.
    let shown = Memo::new(move |_| {
        shown.get().map(|s| {
            let asked = paging.get();
            ShownPage {
                page: if s.page >= 1 {
                    s.page
                } else {
                    asked.page.unwrap_or(1)
                },
                per_page: if s.per_page >= 1 {
                    s.per_page
                } else {
                    asked.per_page.unwrap_or(DEFAULT_PER_PAGE)
                },
                ..s
            }
        })
    });
    let links = Memo::new(move |_| {
        let shown = shown.get()?;
        Some(query.with(|q| rest_links(shown, &location.pathname.get(), q)))
    });
    // Keep the first row on screen in view after the size change.
    let size_href = Callback::new(move |per_page: u32| {
        let (current, size) = shown
            .get_untracked()
            .map_or((1, DEFAULT_PER_PAGE), |s| (s.page, s.per_page));
        let first_row = u64::from(current - 1) * u64::from(size);
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
        let so_far = [
            ((1, 25, 63), "Showing 1–25 of 63 found so far"),
            ((1, 25, 0), "Nothing found yet"),
            ((9, 25, 63), "Page 9 is past the 63 found so far"),
        ];
        for ((page, per_page, found), want) in so_far {
            assert_eq!(showing_so_far_text(page, per_page, found), want);
        }
    }

    #[wasm_bindgen_test]
    fn a_disabled_link_hands_the_focus_to_its_nearest_neighbour() {
        assert_eq!(nearest_links("Next"), ["Next", "Previous", "Last", "First"]);
        assert_eq!(nearest_links("Last"), ["Last", "Next", "Previous", "First"]);
        assert_eq!(
            nearest_links("First"),
            ["First", "Previous", "Next", "Last"]
        );
        assert_eq!(
            nearest_links("Previous"),
            ["Previous", "First", "Next", "Last"]
        );
        assert!(nearest_links("Elsewhere").is_empty());
    }
}
