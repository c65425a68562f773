//! The present of a seeded world: its timeline moved to end at the anchor day (`--today`),
//! and what the home screen counts in the last two months made certain at every size: team
//! groups under, near and over budget this month, and a send in each state that needs
//! attention. `docs/platform.md` ("The sandbox's clock") describes it.
//!
//! Nothing here draws from a generator or reads a clock: the same world and anchor day always
//! give the same present.

use std::collections::{BTreeMap, BTreeSet};

use gifting_api::attention::{money_returned, Month};
use gifting_api::rest::{Send, StatusUpdate};
use gifting_api::SendStatus;

use super::sends::{history, is_egift};
use super::time::{civil, org_day, org_midnight, org_time, shifted, DAY};
use super::{cents, money, Seeded};

/// Moves every timestamp of the world by `days` whole days: the same world, earlier or later.
/// Campaigns' end dates move too (a plan keeps its length).
pub fn shift(d: &mut Seeded, days: i64) {
    if days == 0 {
        return;
    }
    let by = |text: &mut String| *text = shifted(text, days);
    for g in &mut d.groups {
        by(&mut g.created_at);
        by(&mut g.updated_at);
    }
    for t in &mut d.touches {
        by(&mut t.created_at);
        by(&mut t.start_date);
        if let Some(end) = &mut t.end_date {
            by(end);
        }
    }
    for s in &mut d.sends {
        by(&mut s.created_at);
        for u in &mut s.status_updates {
            by(&mut u.occurred_at);
        }
    }
}

const HOUR: i64 = 3_600;

/// A send made to be in `status`: created `created` before the anchor day began and
/// entering its status `entered` before it (both as (days, hour of that day)).
struct Forced {
    status: SendStatus,
    created: (i64, i64),
    entered: (i64, i64),
}

/// The states that need attention, each once, every one within 27 days before the anchor day
/// (so in its month or the month before, whatever day it is), with ages a platform shows: a
/// problem a few days to weeks old, two sends waiting past [`STUCK_DAYS`] and two waiting
/// a day or two.
///
/// [`STUCK_DAYS`]: gifting_api::attention::STUCK_DAYS
fn forced() -> [Forced; 9] {
    use SendStatus as S;
    let f = |status, created, entered| Forced {
        status,
        created,
        entered,
    };
    [
        f(S::Undeliverable, (20, 10), (15, 14)),
        f(S::BouncedAndCredited, (3, 9), (2, 11)),
        f(S::Failed, (5, 13), (4, 16)),
        f(S::AddressConfirmationCancelled, (25, 11), (17, 10)),
        f(S::ExpiredAndCredited, (27, 15), (12, 9)),
        // Stuck: waiting 8 and 10 days when the anchor day begins.
        f(S::CollectingRecipientInfo, (10, 9), (9, 14)),
        f(S::ConfirmingAddress, (16, 10), (11, 12)),
        // Fresh: waiting a day or so.
        f(S::CollectingRecipientInfo, (2, 10), (2, 15)),
        f(S::ConfirmingAddress, (6, 9), (1, 11)),
    ]
}

/// Team groups with USD spend this month the present makes sure of (fewer if the world has
/// fewer groups or USD sends): enough for each budget band twice.
const SPENDING_GROUPS: usize = 6;

/// What groups spend this month against their budget, cycled over the groups that spend:
/// under (50 %), near (90 %) and over (125 %), in percent.
const USED_PERCENT: [i64; 3] = [50, 90, 125];

/// Makes the present of a world whose timeline already ends before `today` (days since
/// 1970-01-01, the organization's calendar) begins: a few sends become the attention states,
/// a few more are moved into this month so several groups spend, and the budgets of the
/// groups that spend are set from what they spend. Sends stay newest first.
pub fn present(d: &mut Seeded, today: i64) {
    let now = org_midnight(today);
    let mut used: BTreeSet<usize> = BTreeSet::new();
    for f in forced() {
        let mail = !history(&f.status).contains(&SendStatus::Sent);
        // The newest send of the right kind (eGifts go by email, the rest by mail) not yet taken.
        let Some(at) =
            (0..d.sends.len()).find(|i| !used.contains(i) && is_egift(&d.sends[*i].kind) != mail)
        else {
            continue;
        };
        used.insert(at);
        let when = |(days, hour): (i64, i64)| now - days * DAY + hour * HOUR;
        force(
            &mut d.sends[at],
            &f.status,
            when(f.created),
            when(f.entered),
        );
    }
    spend_this_month(d, today, &used);
    d.sends
        .sort_by(|a, b| b.created_at.cmp(&a.created_at).then(b.id.cmp(&a.id)));
    set_budgets(d, today);
}

/// `send` in `status`, created at `created` and entering it at `entered` (Unix seconds), the
/// steps between evenly spaced.
fn force(send: &mut Send, status: &SendStatus, created: i64, entered: i64) {
    let path = history(status);
    let gaps = (path.len() as i64 - 1).max(1);
    send.status_updates = path
        .into_iter()
        .enumerate()
        .map(|(i, s)| StatusUpdate {
            status: s,
            occurred_at: org_time(created + (entered - created) * i as i64 / gaps),
        })
        .collect();
    send.status = status.clone();
    send.created_at = org_time(created);
}

fn month_of_day(day: i64) -> Month {
    let (year, month, _) = civil(day);
    Month {
        year: year as i32,
        month,
    }
}

/// Whether `send` counts as USD spend in `month` (docs/platform.md, "Spend, budgets and what
/// needs attention").
fn usd_spend_in(send: &Send, month: Month) -> Option<i64> {
    (send.currency == "USD"
        && !money_returned(&send.status)
        && Month::of(&send.created_at) == Some(month))
    .then(|| cents(&send.current_total_cost))
    .flatten()
}

/// Moves USD sends from groups that spend nothing this month into its days before `today`,
/// until [`SPENDING_GROUPS`] groups spend (a small world's last sends can be weeks older than
/// its anchor day). A moved send keeps its time of day and its history's pace, ending before
/// the anchor day begins. On the first of a month nothing is moved: the month
/// has just begun.
fn spend_this_month(d: &mut Seeded, today: i64, taken: &BTreeSet<usize>) {
    let (_, _, day_of_month) = civil(today);
    let first = today - i64::from(day_of_month) + 1;
    let elapsed = today - first;
    if elapsed == 0 {
        return;
    }
    let month = month_of_day(today);
    let mut spending: BTreeSet<u64> = d
        .sends
        .iter()
        .filter(|s| usd_spend_in(s, month).is_some())
        .map(|s| s.sender.team_id)
        .collect();
    let want = SPENDING_GROUPS.min(d.groups.len());
    let now = org_midnight(today);
    let mut moved = 0;
    for at in 0..d.sends.len() {
        if spending.len() >= want {
            break;
        }
        let s = &d.sends[at];
        let waiting = matches!(
            s.status,
            SendStatus::CollectingRecipientInfo | SendStatus::ConfirmingAddress
        );
        let Some(created) = gifting_api::attention::unix_seconds(&s.created_at) else {
            continue;
        };
        if taken.contains(&at)
            || waiting
            || s.currency != "USD"
            || money_returned(&s.status)
            || spending.contains(&s.sender.team_id)
            || org_day(created) >= first
        {
            continue;
        }
        // Spread over the month's days so far, newest first.
        let target = today - 1 - (moved * 3) % elapsed;
        let days = target - org_day(created);
        let s = &mut d.sends[at];
        s.created_at = org_time(created + days * DAY);
        for u in &mut s.status_updates {
            if let Some(t) = gifting_api::attention::unix_seconds(&u.occurred_at) {
                u.occurred_at = org_time((t + days * DAY).min(now - 1));
            }
        }
        spending.insert(s.sender.team_id);
        moved += 1;
    }
}

/// Under (0), near (1) or over (2) budget, of the percent used.
fn band(percent: i64) -> usize {
    match percent {
        ..=79 => 0,
        80..=99 => 1,
        _ => 2,
    }
}

/// Budgets from spend: the groups that spend USD this month, by id, use 50 %, 90 % and 125 %
/// of their month's budget in turn (a group with `rollover` has last month's unspent
/// budget added, so its `monthly_budget` is set for the sum to come out right). Groups that
/// spend nothing keep theirs. Some group has `rollover` and some a one-time budget.
fn set_budgets(d: &mut Seeded, today: i64) {
    let this = month_of_day(today);
    let last = this.previous();
    let mut spend: BTreeMap<u64, (i64, i64)> = BTreeMap::new();
    for s in &d.sends {
        if let Some(c) = usd_spend_in(s, this) {
            spend.entry(s.sender.team_id).or_default().0 += c;
        } else if let Some(c) = usd_spend_in(s, last) {
            spend.entry(s.sender.team_id).or_default().1 += c;
        }
    }
    let mut turn = 0;
    for g in &mut d.groups {
        let Some(&(now, before)) = spend.get(&g.id).filter(|(now, _)| *now > 0) else {
            continue;
        };
        let percent = USED_PERCENT[turn % USED_PERCENT.len()];
        turn += 1;
        let rollover = g.rollover;
        // The month's budget of a monthly budget: with rollover, last month's unspent part
        // is added.
        let budget = |monthly: i64| {
            monthly
                + if rollover {
                    (monthly - before).max(0)
                } else {
                    0
                }
        };
        let band = |monthly: i64| band(now * 100 / budget(monthly).max(1));
        // The month's budget that many percent of `now` is, rounded up to a cent.
        let total = (now * 100 + percent - 1) / percent;
        let exact = if rollover && total > before {
            // monthly + (monthly - before) = total
            (total + before + 1) / 2
        } else {
            total
        };
        // As round a figure as keeps the band: tens of dollars, dollars, else cents.
        let monthly = [1_000, 100, 1]
            .into_iter()
            .map(|unit| (exact + unit - 1) / unit * unit)
            .find(|&m| band(m) == band(exact))
            .unwrap_or(exact);
        g.monthly_budget = money(monthly);
    }
    if !d.groups.iter().any(|g| g.rollover) {
        if let Some(g) = d.groups.iter_mut().find(|g| !spend.contains_key(&g.id)) {
            g.rollover = true;
        }
    }
    if !d.groups.iter().any(|g| g.one_time_budget != 0) {
        if let Some(g) = d.groups.last_mut() {
            g.one_time_budget = 1_000;
        }
    }
}
