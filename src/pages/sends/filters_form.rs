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
use super::table::group_label;
use super::views::Kept;
use crate::components::format::count;
use crate::components::query_href::{FilterAddress, FilterSelect};
use crate::components::TextField;
use crate::i18n::{live_text, msg, t, M};
use gifting_api::attention::{Attention, STUCK_DAYS};

/// "Sam Lee (Sales) (3)": a choice with the number of sends choosing it would show.
fn option_text(choice: &Choice) -> String {
    format!("{} ({})", choice.label, count(choice.count))
}

/// Options of a select: "All …" first, then each choice (a name in the platform's words)
/// with the number of sends choosing it would show, the other filters as they are. A chosen id
/// that no loaded send has still shows, so the select never silently reads "All".
///
/// Plain elements, made once per set of choices: their counts follow the filters through
/// [`follow_counts`], so a keystroke in the search rewrites thousands of numbers, never
/// thousands of elements (nor thousands of reactive closures).
fn options_view(all: M, choices: Memo<Vec<Choice>>, chosen: Option<u64>) -> impl IntoView {
    // Untracked: the caller redraws the options when the labels change.
    let choices = choices.get_untracked();
    let missing = chosen
        .filter(|id| !choices.iter().any(|c| c.id == *id))
        .map(|id| {
            view! {
                <option value=id.to_string() prop:selected=true>
                    {live_text(move || msg::sends_choice_not_loaded(&id.to_string()))}
                </option>
            }
        });
    let rest = choices
        .iter()
        .map(|c| {
            let selected = chosen == Some(c.id);
            view! {
                <option value=c.id.to_string() prop:selected=selected translate="no">
                    {option_text(c)}
                </option>
            }
        })
        .collect_view();
    view! {
        <option value="" prop:selected=chosen.is_none()>
            {all}
        </option>
        {missing}
        {rest}
    }
}

/// Keeps the counts of the select `id`'s options as `choices` says, written in place.
fn follow_counts(id: &'static str, choices: Memo<Vec<Choice>>) {
    Effect::new(move |_| {
        choices.with(|choices| {
            let Some(select) = crate::browser::element_by_id(id) else {
                return;
            };
            let by_id: std::collections::HashMap<String, &Choice> =
                choices.iter().map(|c| (c.id.to_string(), c)).collect();
            let options = select.children();
            for at in 0..options.length() {
                let Some(option) = options.item(at) else {
                    continue;
                };
                let value = option.get_attribute("value").unwrap_or_default();
                if let Some(choice) = by_id.get(&value) {
                    let text = option_text(choice);
                    if option.text_content().as_deref() != Some(text.as_str()) {
                        option.set_text_content(Some(&text));
                    }
                }
            }
        })
    });
}

/// The choices without their counts: what decides which options there are.
fn labels_of(choices: Memo<Vec<Choice>>) -> Memo<Vec<(u64, String)>> {
    Memo::new(move |_| choices.with(|c| c.iter().map(|c| (c.id, c.label.clone())).collect()))
}

#[component]
pub(crate) fn SendFilters(
    filter: Memo<SendFilter>,
    loaded: RwSignal<LoadedSends>,
    /// What the filters keep: each choice's count is what choosing it would show.
    kept: Memo<Kept>,
) -> impl IntoView {
    let address = FilterAddress::new("page");
    let sender = Memo::new(move |_| filter.with(|f| f.sender));
    let campaign = Memo::new(move |_| filter.with(|f| f.campaign));
    // The choices are memos: a keystroke that changes no count redraws no option.
    let senders = Memo::new(move |_| kept.with(|k| loaded.with(|l| l.sender_choices(k))));
    let campaigns = Memo::new(move |_| kept.with(|k| loaded.with(|l| l.campaign_choices(k))));
    let (sender_labels, campaign_labels) = (labels_of(senders), labels_of(campaigns));
    follow_counts("send-filter-sender", senders);
    follow_counts("send-filter-campaign", campaigns);
    let sender_options = move || {
        sender_labels.with(|_| ());
        options_view(M::SendsAllSenders, senders, sender.get())
    };
    let campaign_options = move || {
        campaign_labels.with(|_| ());
        options_view(M::SendsAllCampaigns, campaigns, campaign.get())
    };
    view! {
        <form class="send-filters" role="search" aria-label=M::SendsFilters on:submit=|ev| ev.prevent_default()>
            <RangeFilter filter loaded address />
            <FilterSelect id="send-filter-status" label=M::SendsFilterStatus key=KEY_STATUS address>
                <StatusOptions filter loaded kept />
            </FilterSelect>
            <FilterSelect id="send-filter-attention" label=M::SendsFilterAttention key=KEY_ATTENTION address>
                <AttentionOptions filter />
            </FilterSelect>
            <FilterSelect id="send-filter-sender" label=M::SendsFilterSender key=KEY_SENDER address>
                {sender_options}
            </FilterSelect>
            <FilterSelect id="send-filter-campaign" label=M::SendsFilterCampaign key=KEY_CAMPAIGN address>
                {campaign_options}
            </FilterSelect>
            <TextField
                id="send-filter-search"
                kind="search"
                label=M::SendsFilterSearch
                value=Signal::derive(move || filter.with(|f| f.search.clone()))
                on_input=move |value| address.set(KEY_SEARCH, value, true)
            />
            <Show when=move || filter.with(SendFilter::is_active)>
                <a class="button send-filters__clear" href=move || address.cleared(&KEYS)>
                    {M::SendsClearFilters}
                </a>
            </Show>
        </form>
        <IgnoredNotice filter />
        {move || filter.with(|f| f.send).map(|id| view! {
            <p class="notice" role="status" data-testid="send-filter-id">
                {live_text(move || msg::sends_only_send(&id.to_string()))}
                " "
                <a href=move || address.cleared(&[KEY_SEND])>{M::SendsShowEverySend}</a>
            </p>
        })}
    }
}

/// A reason as the select shows it: the platform's status name, with how long for a send
/// stuck in it ("Confirming Address for 7 days or more"), else `None`.
fn stuck_label(reason: Attention) -> Option<String> {
    matches!(
        reason,
        Attention::StuckCollecting | Attention::StuckConfirming
    )
    .then(|| msg::sends_attention_stuck(&reason.status().to_string(), STUCK_DAYS as u64))
}

/// "Any reason", then each reason a send can need attention for, in the platform's words.
#[component]
fn AttentionOptions(filter: Memo<SendFilter>) -> impl IntoView {
    let chosen = Memo::new(move |_| filter.with(|f| f.attention));
    move || {
        let chosen = chosen.get();
        let reasons = Attention::ALL
            .into_iter()
            .map(|a| {
                let selected = chosen == Some(NeedsAttention::For(a));
                match stuck_label(a) {
                    Some(label) => view! { <option value=a.slug() prop:selected=selected>{label}</option> }.into_any(),
                    None => view! { <option value=a.slug() prop:selected=selected translate="no">{a.label()}</option> }.into_any(),
                }
            })
            .collect_view();
        view! {
            <option value="" prop:selected=chosen.is_none()>{M::SendsAttentionAnyOrNone}</option>
            <option value=ANY_REASON prop:selected=chosen == Some(NeedsAttention::Any)>{M::SendsAttentionAny}</option>
            {reasons}
        }
    }
}

/// "All statuses", then each status group with its count among the loaded sends.
#[component]
fn StatusOptions(
    filter: Memo<SendFilter>,
    loaded: RwSignal<LoadedSends>,
    kept: Memo<Kept>,
) -> impl IntoView {
    let chosen = Memo::new(move |_| filter.with(|f| f.group));
    let counts = Memo::new(move |_| kept.with(|k| loaded.with(|l| l.group_counts(k))));
    move || {
        let counts = counts.get();
        let chosen = chosen.get();
        let groups = StatusGroup::ALL
            .into_iter()
            .filter(|g| *g != StatusGroup::Other || counts.contains_key(g) || chosen == Some(*g))
            .map(|g| {
                let count_of_group = counts.get(&g).copied().unwrap_or(0);
                view! {
                    <option value=g.slug() prop:selected=chosen == Some(g)>
                        {msg::sends_group_option(t(group_label(g)), &count(count_of_group))}
                    </option>
                }
            })
            .collect_view();
        view! {
            <option value="" prop:selected=chosen.is_none()>
                {M::SendsAllStatuses}
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
                        {msg::sends_ignored(&ignored_list(&f.ignored))}
                    </p>
                }
            })
        })
    }
}

/// The parameters not understood, each with its value, apart by commas.
fn ignored_list(ignored: &[(&'static str, String)]) -> String {
    ignored
        .iter()
        .map(|(key, value)| msg::sends_ignored_param(key, value))
        .collect::<Vec<_>>()
        .join(", ")
}
