//! This month's spend where Teams lists budgets: a group's spend beside its budget, and each
//! member's share on a team's page, from the same walk as Home's figures (started if none
//! ran yet, kept for the tab's session).

use gifting_api::money::Decimal;
use leptos::prelude::*;

use super::walk_job::{self, Figures};
use crate::components::format;
use crate::i18n::msg;
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
                return Some(format!("{} ({})", usd(Decimal::ZERO), format::percent(0)));
            };
            let share = sender
                .spend
                .usd
                .percent_of(r.group_spend(sender.team_id, ""))
                .map_or_else(|| "—".to_owned(), format::percent);
            Some(format!("{} ({share})", usd(sender.spend.usd)))
        })
    }
}

/// A campaign's sends this month, "so far" while the walk reads.
#[component]
pub(crate) fn CampaignSends(touch: u64) -> impl IntoView {
    let figures = org_figures();
    let reading = {
        let figures = figures.clone();
        move || figures.running()
    };
    move || {
        let sends = figures.result.with(|f| {
            f.report
                .as_ref()
                .map(|r| r.campaigns.get(&touch).map_or(0, |c| c.sends))
        })?;
        let sends = format::count(u64::from(sends));
        Some(if reading() {
            msg::spend_so_far(&sends)
        } else {
            sends
        })
    }
}

/// What a campaign's sends this month cost, each currency apart (money returned not counted).
#[component]
pub(crate) fn CampaignSpent(touch: u64) -> impl IntoView {
    let figures = org_figures();
    move || {
        figures.result.with(|f| {
            let report = f.report.as_ref()?;
            let Some(spend) = report.campaigns.get(&touch).map(|c| &c.spend) else {
                return Some(usd(Decimal::ZERO));
            };
            let mut parts = Vec::new();
            if spend.usd_sends > 0 || spend.other.is_empty() {
                parts.push(usd(spend.usd));
            }
            for (currency, (sum, _)) in &spend.other {
                parts.push(format::money(currency, &sum.to_string()));
            }
            Some(parts.join(" + "))
        })
    }
}
