//! The filter controls. Each change rewrites the address (page back to 1); the screen reads
//! the filter from there, so reload, back and shared links keep it.

use gifting_api::rest::StatusGroup;
use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_navigate, use_query_map};
use leptos_router::params::ParamsMap;
use leptos_router::NavigateOptions;

use super::filter::{
    campaign_choices, group_counts, sender_choices, Choice, SendFilter, KEYS, KEY_CAMPAIGN,
    KEY_SEARCH, KEY_SENDER, KEY_STATUS,
};
use super::loaded::LoadedSends;
use crate::components::query_href::href_with_first_page;

/// Options of a select: "All …" first, then each choice with its count. A chosen id that
/// no loaded send has still shows, so the select never silently reads "All".
fn options_view(all: &'static str, choices: Vec<Choice>, chosen: Option<u64>) -> impl IntoView {
    let mut choices = choices;
    if let Some(id) = chosen.filter(|id| !choices.iter().any(|c| c.id == *id)) {
        choices.insert(
            0,
            Choice {
                id,
                label: format!("#{id} (not among the loaded sends)"),
                count: 0,
            },
        );
    }
    let rest = choices
        .into_iter()
        .map(|c| {
            let selected = chosen == Some(c.id);
            view! {
                <option value=c.id.to_string() selected=selected>
                    {format!("{} ({})", c.label, c.count)}
                </option>
            }
        })
        .collect_view();
    view! {
        <option value="" selected=chosen.is_none()>
            {all}
        </option>
        {rest}
    }
}

#[component]
pub fn SendFilters(filter: Memo<SendFilter>, loaded: RwSignal<LoadedSends>) -> impl IntoView {
    let query = use_query_map();
    let location = use_location();
    let navigate = use_navigate();
    let go = move |key: &'static str, value: String, replace: bool| {
        let href = query.with_untracked(|q: &ParamsMap| {
            href_with_first_page(&location.pathname.get_untracked(), q, &[(key, Some(value))])
        });
        navigate(
            &href,
            NavigateOptions {
                replace,
                scroll: false,
                ..NavigateOptions::default()
            },
        );
    };
    let go_search = go.clone();
    let on_select = move |key: &'static str| {
        let go = go.clone();
        move |ev: leptos::ev::Event| go(key, event_target_value(&ev), false)
    };
    let on_search =
        move |ev: leptos::ev::Event| go_search(KEY_SEARCH, event_target_value(&ev), true);
    let clear_href = move || {
        query.with(|q| {
            let changes: Vec<(&str, Option<String>)> = KEYS.iter().map(|k| (*k, None)).collect();
            href_with_first_page(&location.pathname.get(), q, &changes)
        })
    };

    let status_options = move || {
        let counts = loaded.with(|l| group_counts(l.iter()));
        let chosen = filter.with(|f| f.group);
        let groups = StatusGroup::ALL
            .into_iter()
            .filter(|g| *g != StatusGroup::Other || counts.contains_key(g) || chosen == Some(*g))
            .map(|g| {
                let count = counts.get(&g).copied().unwrap_or(0);
                view! {
                    <option value=g.slug() selected=chosen == Some(g)>
                        {format!("{} ({count})", g.label())}
                    </option>
                }
            })
            .collect_view();
        view! {
            <option value="" selected=chosen.is_none()>
                "All statuses"
            </option>
            {groups}
        }
    };
    let sender_options = move || {
        let choices = loaded.with(|l| sender_choices(l.iter()));
        options_view("All senders", choices, filter.with(|f| f.sender))
    };
    let campaign_options = move || {
        let choices = loaded.with(|l| campaign_choices(l.iter()));
        options_view("All campaigns", choices, filter.with(|f| f.campaign))
    };
    let ignored = move || {
        filter.with(|f| {
            (!f.ignored.is_empty()).then(|| {
                view! {
                    <p class="notice" role="status">
                        {format!(
                            "Not understood in the address, so not applied: {}.",
                            f.ignored.join(", "),
                        )}
                    </p>
                }
            })
        })
    };

    view! {
        <form class="send-filters" role="search" aria-label="Filter the loaded sends" on:submit=|ev| ev.prevent_default()>
            <div class="field">
                <label for="send-filter-status">"Status"</label>
                <select id="send-filter-status" on:change=on_select(KEY_STATUS)>
                    {status_options}
                </select>
            </div>
            <div class="field">
                <label for="send-filter-sender">"Sender"</label>
                <select id="send-filter-sender" on:change=on_select(KEY_SENDER)>
                    {sender_options}
                </select>
            </div>
            <div class="field">
                <label for="send-filter-campaign">"Campaign"</label>
                <select id="send-filter-campaign" on:change=on_select(KEY_CAMPAIGN)>
                    {campaign_options}
                </select>
            </div>
            <div class="field">
                <label for="send-filter-search">"Recipient name, email or company"</label>
                <input
                    id="send-filter-search"
                    type="search"
                    autocomplete="off"
                    prop:value=move || filter.with(|f| f.search.clone())
                    on:input=on_search
                />
            </div>
            <Show when=move || filter.with(SendFilter::is_active)>
                <a class="button send-filters__clear" href=clear_href>
                    "Clear filters"
                </a>
            </Show>
        </form>
        {ignored}
    }
}
