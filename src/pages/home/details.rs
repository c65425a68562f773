//! Below home's answer: the groups that need attention, the sends needing attention by reason
//! and month, and the trend of the two months. A chunk of its own, fetched once the answer (the
//! summary above) is complete, so the answer never waits for this code.

use leptos::prelude::*;

use super::budget::AttentionGroups;
use super::charts::SpendTrend;
use super::export::download_report;
use super::figures::Shown;
use super::summary::AttentionCounts;

#[component]
pub(crate) fn HomeDetails() -> impl IntoView {
    let shown = use_context::<Shown>()?;
    // The file's code comes with this chunk, off the way to the answer.
    shown.export.set(Some(download_report));
    let Shown {
        rows,
        report,
        sender,
        ..
    } = shown;
    Some(view! {
        <Show when=move || !sender>
            <AttentionGroups rows report />
        </Show>
        <AttentionCounts report sender />
        <Show when=move || !sender>
            <SpendTrend report />
        </Show>
    })
}
