//! Below home's answer: the groups that need attention, the sends needing attention by reason
//! and month, and the trend of the two months. A chunk of its own, fetched once the answer (the
//! summary above) is complete, so the answer never waits for this code.

use std::time::Duration;

use leptos::prelude::*;

use super::budget::AttentionGroups;
use super::charts::SpendTrend;
use super::export::download_report;
use super::figures::Shown;
use super::summary::AttentionCounts;
use crate::browser::page_hidden;

/// How often home reads its figures again while the tab is visible.
const REREAD_EVERY: Duration = Duration::from_secs(30);

#[component]
pub(crate) fn HomeDetails() -> impl IntoView {
    let shown = use_context::<Shown>()?;
    // The file's code comes with this chunk, off the way to the answer.
    shown.export.set(Some(download_report));
    reread_while_visible(shown);
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

/// Reads the answer again every [`REREAD_EVERY`] while the tab is visible (not while it is
/// hidden, nor while a read is under way), the team groups with it, as long as the details
/// are up (they are, once there is an answer). The answer above stays until the new read is
/// complete.
fn reread_while_visible(shown: Shown) {
    let tick = move || {
        if page_hidden() || untrack(|| shown.walk.running()) {
            return;
        }
        if !shown.sender {
            shown.groups.refetch();
        }
        let only = shown
            .report
            .with_untracked(|r| r.as_ref().and_then(|r| r.only.clone()));
        shown.walk.refresh(only);
    };
    if let Ok(handle) = set_interval_with_handle(tick, REREAD_EVERY) {
        on_cleanup(move || handle.clear());
    }
}
