//! The filter controls. Each change rewrites the address (page back to 1); the screen reads
//! the filter from there, so reload, back and shared links keep it.

use gifting_api::rest::StatusGroup;
use leptos::prelude::*;

use super::filter::{
    Choice, NeedsAttention, SendFilter, ANY_REASON, KEYS, KEY_ATTENTION, KEY_CAMPAIGN, KEY_SEARCH,
    KEY_SEND, KEY_SENDER, KEY_STATUS,
};
use super::loaded::LoadedSends;
use super::range_form::RangeFilter;
use crate::components::format::count;
use crate::components::query_href::{FilterAddress, FilterSelect};
use crate::components::TextField;
use gifting_api::attention::Attention;

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
                    {format!("{} ({})", c.label, count(c.count))}
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
pub(crate) fn SendFilters(
    filter: Memo<SendFilter>,
    loaded: RwSignal<LoadedSends>,
) -> impl IntoView {
    let address = FilterAddress::new("page");
    // Each select follows its own choice only: typing a search does not rebuild thousands of
    // sender options.
    let sender = Memo::new(move |_| filter.with(|f| f.sender));
    let campaign = Memo::new(move |_| filter.with(|f| f.campaign));
    let sender_options = move || {
        let choices = loaded.with(|l| l.sender_choices());
        options_view("All senders", choices, sender.get())
    };
    let campaign_options = move || {
        let choices = loaded.with(|l| l.campaign_choices());
        options_view("All campaigns", choices, campaign.get())
    };
    view! {
        <form class="send-filters" role="search" aria-label="Filter the loaded sends" on:submit=|ev| ev.prevent_default()>
            <RangeFilter filter loaded address />
            <FilterSelect id="send-filter-status" label="Status" key=KEY_STATUS address>
                <StatusOptions filter loaded />
            </FilterSelect>
            <FilterSelect id="send-filter-attention" label="Needs attention" key=KEY_ATTENTION address>
                <AttentionOptions filter />
            </FilterSelect>
            <FilterSelect id="send-filter-sender" label="Sender" key=KEY_SENDER address>
                {sender_options}
            </FilterSelect>
            <FilterSelect id="send-filter-campaign" label="Campaign" key=KEY_CAMPAIGN address>
                {campaign_options}
            </FilterSelect>
            <TextField
                id="send-filter-search"
                kind="search"
                label="Recipient name, email or company"
                value=Signal::derive(move || filter.with(|f| f.search.clone()))
                on_input=move |value| address.set(KEY_SEARCH, value, true)
            />
            <Show when=move || filter.with(SendFilter::is_active)>
                <a class="button send-filters__clear" href=move || address.cleared(&KEYS)>
                    "Clear filters"
                </a>
            </Show>
        </form>
        <IgnoredNotice filter />
        {move || filter.with(|f| f.send).map(|id| view! {
            <p class="notice" role="status" data-testid="send-filter-id">
                {format!("Only send #{id}. ")}
                <a href=move || address.cleared(&[KEY_SEND])>"Show every send"</a>
            </p>
        })}
    }
}

/// "Any reason", then each reason a send can need attention for, in the platform's words.
#[component]
fn AttentionOptions(filter: Memo<SendFilter>) -> impl IntoView {
    let chosen = Memo::new(move |_| filter.with(|f| f.attention));
    move || {
        let chosen = chosen.get();
        let reasons = Attention::ALL
            .into_iter()
            .map(|a| view! { <option value=a.slug() selected=chosen == Some(NeedsAttention::For(a))>{a.label()}</option> })
            .collect_view();
        view! {
            <option value="" selected=chosen.is_none()>"Any or none"</option>
            <option value=ANY_REASON selected=chosen == Some(NeedsAttention::Any)>"Any reason"</option>
            {reasons}
        }
    }
}

/// "All statuses", then each status group with its count among the loaded sends.
#[component]
fn StatusOptions(filter: Memo<SendFilter>, loaded: RwSignal<LoadedSends>) -> impl IntoView {
    let chosen = Memo::new(move |_| filter.with(|f| f.group));
    move || {
        let counts = loaded.with(|l| l.group_counts());
        let chosen = chosen.get();
        let groups = StatusGroup::ALL
            .into_iter()
            .filter(|g| *g != StatusGroup::Other || counts.contains_key(g) || chosen == Some(*g))
            .map(|g| {
                let count_of_group = counts.get(&g).copied().unwrap_or(0);
                view! {
                    <option value=g.slug() selected=chosen == Some(g)>
                        {format!("{} ({})", g.label(), count(count_of_group))}
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
    }
}

/// Says which parameters of the address were not understood, so not applied.
#[component]
fn IgnoredNotice(filter: Memo<SendFilter>) -> impl IntoView {
    move || {
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
    }
}
