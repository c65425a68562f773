//! This month's spend where Teams lists budgets: a group's spend beside its budget, and each
//! member's share on a team's page, from the same walk as Home's figures (started if none
//! ran yet, kept for the tab's session).

use gifting_api::money::Decimal;
use leptos::prelude::*;

use super::walk_job::{self, Figures};
use crate::components::format;
use crate::jobs::JobHandle;

/// The organisation-wide walk, found or started (a sender's own walk does not count here).
pub(crate) fn org_figures() -> JobHandle<Figures> {
    walk_job::latest()
        .filter(|j| {
            j.result
                .with_untracked(|f| f.report.as_ref().is_none_or(|r| r.only.is_none()))
        })
        .unwrap_or_else(|| walk_job::start(None))
}

fn usd(amount: Decimal) -> String {
    format::money("USD", &amount.to_string())
}

/// A member's USD spend this month and their share of their group's (the group they sent
/// from).
#[component]
pub(crate) fn MemberShare(member: u64) -> impl IntoView {
    let figures = org_figures();
    move || {
        figures.result.with(|f| {
            let r = f.report.as_ref()?;
            let Some(sender) = r.senders.get(&member) else {
                return Some(format!("{} (0 %)", usd(Decimal::ZERO)));
            };
            let share = sender
                .spend
                .usd
                .percent_of(r.group_spend(sender.team_id, ""))
                .map_or_else(|| "—".to_owned(), |p| format!("{p} %"));
            Some(format!("{} ({share})", usd(sender.spend.usd)))
        })
    }
}
