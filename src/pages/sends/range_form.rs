//! The "Created" filter: a range of days ([`super::range`]) chosen from a select, or typed as
//! two days for a custom range; written to the address like every filter.

use leptos::prelude::*;

use super::filter::{day_number, day_param, SendFilter, KEY_SINCE, KEY_UNTIL};
use super::loaded::LoadedSends;
use super::range::{self, Range};
use crate::components::query_href::FilterAddress;
use crate::components::TextField;
use crate::i18n::{t, M};

/// A range's first and last day, as the filter keeps them.
type Days = (Option<u32>, Option<u32>);

/// Today in the organisation's calendar: the newest loaded send's offset, else the browser's.
fn today(loaded: RwSignal<LoadedSends>) -> i64 {
    let offset = loaded
        .with(LoadedSends::offset_minutes)
        .unwrap_or_else(|| -(js_sys::Date::new_0().get_timezone_offset() as i64));
    range::today(crate::browser::now_ms() / 1000, offset)
}

/// The range select, then, for a custom range, its first and last day.
#[component]
pub(crate) fn RangeFilter(
    filter: Memo<SendFilter>,
    loaded: RwSignal<LoadedSends>,
    address: FilterAddress,
) -> impl IntoView {
    let today = Memo::new(move |_| today(loaded));
    let from_address = Memo::new(move |_| filter.with(|f| Range::of(f, today.get())));
    // "Custom range…" picked while the address holds a preset's days (or none): the days
    // show, to be typed. Kept with the days it was picked or typed for, so an address changed
    // otherwise (back, "Clear filters") shows its own range again.
    let custom = RwSignal::new(None::<Days>);
    let chosen = move || {
        let days = filter.with(|f| (f.since, f.until));
        if custom.get() == Some(days) {
            Range::Custom
        } else {
            from_address.get()
        }
    };
    let on_change = move |ev| {
        let Some(range) = Range::from_slug(&event_target_value(&ev)) else {
            return;
        };
        if range == Range::Custom {
            custom.set(Some(filter.with_untracked(|f| (f.since, f.until))));
        }
        if let Some((since, until)) = range.days(today.get_untracked()) {
            custom.set(None);
            let changes = [
                (KEY_SINCE, since.map(day_param)),
                (KEY_UNTIL, until.map(day_param)),
            ];
            address.set_all(&changes, false);
        }
    };
    let options = move || {
        let chosen = chosen();
        Range::ALL
            .into_iter()
            .map(|r| view! { <option value=r.slug() prop:selected=r == chosen>{t(r.label())}</option> })
            .collect_view()
    };
    view! {
        <div class="field">
            <label for="send-filter-range">{M::SendsFilterCreated}</label>
            <select id="send-filter-range" on:change=on_change>
                {options}
            </select>
        </div>
        <Show when=move || chosen() == Range::Custom>
            <CustomDays filter address custom />
        </Show>
    }
}

/// A custom range's first and last day. A day is written to the address once it is whole; a
/// first day after the last is said and not written (the typed day stays in its box).
#[component]
fn CustomDays(
    filter: Memo<SendFilter>,
    address: FilterAddress,
    custom: RwSignal<Option<Days>>,
) -> impl IntoView {
    let error = RwSignal::new(None::<M>);
    // The days changed by other means (back, "Clear filters"): the refused day is gone too.
    Effect::new(move |_| {
        filter.with(|f| (f.since, f.until));
        error.set(None);
    });
    let shown = move |day: Option<u32>| day.map(day_param).unwrap_or_default();
    let write = move |key: &'static str, text: String| {
        let day = day_number(&text).filter(|_| text.len() == 10);
        if !text.is_empty() && day.is_none() {
            return;
        }
        let (since, until) = filter.with_untracked(|f| (f.since, f.until));
        let (since, until) = if key == KEY_SINCE {
            (day, until)
        } else {
            (since, day)
        };
        if let (Some(since), Some(until)) = (since, until) {
            if since > until {
                error.set(Some(M::SendsRangeBackwards));
                return;
            }
        }
        error.set(None);
        custom.set(Some((since, until)));
        address.set(key, text, true);
    };
    view! {
        <TextField
            id="send-filter-since"
            kind="date"
            label=M::SendsRangeFrom
            value=Signal::derive(move || filter.with(|f| shown(f.since)))
            on_input=move |text| write(KEY_SINCE, text)
        />
        <TextField
            id="send-filter-until"
            kind="date"
            label=M::SendsRangeTo
            value=Signal::derive(move || filter.with(|f| shown(f.until)))
            on_input=move |text| write(KEY_UNTIL, text)
        />
        // Its own line of the form, so the two days stay level with the other filters.
        {move || error.get().map(|e| view! {
            <p class="field__error send-filters__error" role="alert">{e}</p>
        })}
    }
}
