//! The search box a list screen keeps in its address (`?q=`): Enter writes what was typed
//! and goes back to page 1; back/forward or a shared link changes the box with the address.

use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_navigate, use_query_map};
use leptos_router::NavigateOptions;

use crate::components::query_href::href_with_first_page;
use crate::i18n::M;

/// The address's name search, on every screen that has one.
pub(crate) const KEY_SEARCH: &str = "q";

/// A labelled search form bound to `?q=`.
#[component]
pub(crate) fn NameSearch(
    /// The input's id (its label points at it).
    id: &'static str,
    /// The label, which says what is searched ("Find campaigns by name").
    label: M,
) -> impl IntoView {
    let query = use_query_map();
    let location = use_location();
    let navigate = use_navigate();
    let current = move || query.with(|q| q.get_str(KEY_SEARCH).unwrap_or("").to_owned());
    let typed = RwSignal::new(current());
    Effect::new(move |_| typed.set(current()));
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let change = [(KEY_SEARCH, Some(typed.get_untracked().trim().to_owned()))];
        let path = location.pathname.get_untracked();
        let href = query.with_untracked(|q| href_with_first_page(&path, q, &change));
        navigate(&href, NavigateOptions::default());
    };
    view! {
        <form class="search" role="search" on:submit=on_submit>
            <label for=id>{label}</label>
            <input id=id type="search" autocomplete="off" bind:value=typed />
            <button type="submit" class="button">{M::ShellSearch}</button>
        </form>
    }
}

/// Whether `haystack` contains `needle` (already lowercase) ignoring case, without
/// allocating when both are ASCII.
pub(crate) fn contains_folded(haystack: &str, needle: &str) -> bool {
    if needle.is_empty() {
        return true;
    }
    if haystack.is_ascii() && needle.is_ascii() {
        let (h, n) = (haystack.as_bytes(), needle.as_bytes());
        return h
            .windows(n.len())
            .any(|w| w.iter().zip(n).all(|(a, b)| a.to_ascii_lowercase() == *b));
    }
    haystack.to_lowercase().contains(needle)
}
