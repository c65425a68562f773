//! This month's and last month's spend per team group against its budget, and the sends that
//! need attention, counted page by page as the sends list is walked from its newest send
//! (`docs/platform.md`, "Spend, budgets and what needs attention"). Only sums are kept, never
//! the sends: the memory is bounded by the number of groups and senders, whatever the list's
//! length.

use std::collections::BTreeMap;

use crate::components::format;
use crate::i18n::{msg, M};
use gifting_api::attention::{
    attention, money_returned, offset_minutes, Attention, Month, STUCK_DAYS,
};
use gifting_api::money::Decimal;
use gifting_api::rest::{Send, TeamGroup};

/// Money of one kind of sends: USD (the budgets' currency), and every other currency apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Spend {
    pub(crate) usd: Decimal,
    pub(crate) usd_sends: u32,
    /// Currency → (sum, sends).
    pub(crate) other: BTreeMap<String, (Decimal, u32)>,
}

impl Default for Spend {
    fn default() -> Self {
        Spend {
            usd: Decimal::ZERO,
            usd_sends: 0,
            other: BTreeMap::new(),
        }
    }
}

impl Spend {
    fn add(&mut self, currency: &str, cost: Decimal) {
        if currency == "USD" {
            self.usd = self.usd.checked_add(cost).unwrap_or(self.usd);
            self.usd_sends += 1;
        } else {
            let (sum, n) = self
                .other
                .entry(currency.to_owned())
                .or_insert((Decimal::ZERO, 0));
            *sum = sum.checked_add(cost).unwrap_or(*sum);
            *n += 1;
        }
    }

    /// "EUR 120.00 in 3 sends; GBP 15.00 in 1 send", or "" when all was USD: the plain text
    /// a report file holds, in English whatever the screen's language (as its headers).
    pub(crate) fn other_text(&self) -> String {
        self.other_in(|currency, sum, n| {
            let sends = if n == 1 { "send" } else { "sends" };
            format!("{currency} {} in {n} {sends}", sum.format_grouped(2))
        })
    }

    /// [`Self::other_text`] as the screen shows amounts and counts, in the admin's language:
    /// "€120.00 in 3 sends".
    pub(crate) fn other_shown(&self) -> String {
        self.other_in(|currency, sum, n| {
            msg::spend_other_currency(&format::money(currency, &sum.to_string()), n)
        })
    }

    fn other_in(&self, each: impl Fn(&str, Decimal, u64) -> String) -> String {
        self.other
            .iter()
            .map(|(currency, (sum, n))| each(currency, *sum, u64::from(*n)))
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// A group's spend in the two months.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct GroupSpend {
    pub(crate) name: String,
    pub(crate) months: [Spend; 2],
}

/// A sender's spend this month, for their team's page.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct SenderSpend {
    pub(crate) name: String,
    pub(crate) email: String,
    pub(crate) team_id: u64,
    pub(crate) spend: Spend,
}

/// A campaign's sends this month and what they cost (money returned not counted).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct CampaignSpend {
    pub(crate) sends: u32,
    pub(crate) spend: Spend,
}

/// What the walk has counted so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Report {
    /// This month and the month before: `[0]` is this month.
    pub(crate) months: [Month; 2],
    /// Now (Unix seconds) when the walk began: the "as of", and the age of waiting sends.
    pub(crate) now: i64,
    /// The offset the platform writes times with (minutes).
    pub(crate) offset: i64,
    /// Only the sends of this sender (lower-case email): a sender's own figures.
    pub(crate) only: Option<String>,
    /// By the sender's `team_id`.
    pub(crate) groups: BTreeMap<u64, GroupSpend>,
    /// By sender id, this month only.
    pub(crate) senders: BTreeMap<u64, SenderSpend>,
    /// USD spent per day of the month, for the trend: `[0]` this month.
    pub(crate) daily: [BTreeMap<u32, Decimal>; 2],
    /// Sends needing attention by reason, per month: `[0]` this month.
    pub(crate) attention: [BTreeMap<Attention, u32>; 2],
    /// By campaign (touch) id, this month only.
    pub(crate) campaigns: BTreeMap<u64, CampaignSpend>,
    /// Sends read (the ones counted) per month.
    pub(crate) read: [u32; 2],
    /// The oldest creation time read (Unix seconds), for the estimate of the month's size.
    pub(crate) oldest: Option<i64>,
    /// A send older than the month before was met: nothing older is needed.
    pub(crate) complete: bool,
}

impl Report {
    /// An empty report as of `now`, with the offset the newest send is written in.
    pub(crate) fn new(now: i64, newest: Option<&Send>, only: Option<String>) -> Report {
        let offset = newest
            .and_then(|s| offset_minutes(&s.created_at))
            .unwrap_or(0);
        let this = Month::at(now, offset);
        Report {
            months: [this, this.previous()],
            now,
            offset,
            only,
            groups: BTreeMap::new(),
            senders: BTreeMap::new(),
            daily: [BTreeMap::new(), BTreeMap::new()],
            attention: [BTreeMap::new(), BTreeMap::new()],
            campaigns: BTreeMap::new(),
            read: [0, 0],
            oldest: None,
            complete: false,
        }
    }

    /// Counts a page of sends (newest first); `true` once a send older than the month before
    /// was met, so the walk stops.
    pub(crate) fn add(&mut self, sends: &[Send]) -> bool {
        for send in sends {
            let Some(month) = Month::of(&send.created_at) else {
                continue;
            };
            if month < self.months[1] {
                self.complete = true;
                return true;
            }
            if let Some(at) = gifting_api::attention::unix_seconds(&send.created_at) {
                self.oldest = Some(self.oldest.map_or(at, |o| o.min(at)));
            }
            if self
                .only
                .as_ref()
                .is_some_and(|me| !send.sender.email.eq_ignore_ascii_case(me))
            {
                continue;
            }
            // A send dated after this month (a clock ahead) counts as this month's.
            let m = usize::from(month < self.months[0]);
            self.read[m] += 1;
            if let Some(reason) = attention(send, self.now) {
                *self.attention[m].entry(reason).or_default() += 1;
            }
            if m == 0 {
                self.campaigns.entry(send.touch.id).or_default().sends += 1;
            }
            if money_returned(&send.status) {
                continue;
            }
            let Some(cost) = Decimal::parse(&send.current_total_cost) else {
                continue;
            };
            self.count_spend(send, m, cost);
        }
        false
    }

    fn count_spend(&mut self, send: &Send, m: usize, cost: Decimal) {
        let group = self.groups.entry(send.sender.team_id).or_default();
        if group.name.is_empty() {
            group.name = send.sender.team_name.clone();
        }
        group.months[m].add(&send.currency, cost);
        if send.currency == "USD" {
            let day: u32 = send
                .created_at
                .get(8..10)
                .and_then(|d| d.parse().ok())
                .unwrap_or(1);
            let sum = self.daily[m].entry(day).or_insert(Decimal::ZERO);
            *sum = sum.checked_add(cost).unwrap_or(*sum);
        }
        if m == 0 {
            if let Some(campaign) = self.campaigns.get_mut(&send.touch.id) {
                campaign.spend.add(&send.currency, cost);
            }
            let sender = self
                .senders
                .entry(send.sender.id)
                .or_insert_with(|| SenderSpend {
                    name: send.sender.name.clone(),
                    email: send.sender.email.clone(),
                    team_id: send.sender.team_id,
                    spend: Spend::default(),
                });
            sender.spend.add(&send.currency, cost);
        }
    }

    /// The sends of this month there are, read or not: exact once the walk passed the month,
    /// else estimated from the pace of the sends read so far ("about 5,600").
    pub(crate) fn this_month_estimate(&self) -> (u64, bool) {
        let read = u64::from(self.read[0]);
        if self.complete || self.read[1] > 0 {
            return (read, true);
        }
        let start = self.months[0].start(self.offset);
        let Some(oldest) = self.oldest.filter(|o| *o < self.now) else {
            return (read, false);
        };
        let covered = (self.now - oldest.max(start)).max(1) as u64;
        let month_so_far = (self.now - start).max(1) as u64;
        (read.saturating_mul(month_so_far) / covered, false)
    }

    /// A group's USD spend this month: by its id, else by its name.
    pub(crate) fn group_spend(&self, id: u64, name: &str) -> Decimal {
        self.groups
            .get(&id)
            .or_else(|| self.groups.values().find(|g| g.name == name))
            .map_or(Decimal::ZERO, |g| g.months[0].usd)
    }

    /// The organisation's spend per month.
    pub(crate) fn total(&self, m: usize) -> Spend {
        let mut total = Spend::default();
        for group in self.groups.values() {
            let spend = &group.months[m];
            total.usd = total.usd.checked_add(spend.usd).unwrap_or(total.usd);
            total.usd_sends += spend.usd_sends;
            for (currency, (sum, n)) in &spend.other {
                let (t, k) = total
                    .other
                    .entry(currency.clone())
                    .or_insert((Decimal::ZERO, 0));
                *t = t.checked_add(*sum).unwrap_or(*t);
                *k += n;
            }
        }
        total
    }

    /// USD spent by the end of each day of month `m`, from day 1 to `days`.
    pub(crate) fn cumulative(&self, m: usize, days: u32) -> Vec<Decimal> {
        let mut sum = Decimal::ZERO;
        (1..=days)
            .map(|day| {
                if let Some(spent) = self.daily[m].get(&day) {
                    sum = sum.checked_add(*spent).unwrap_or(sum);
                }
                sum
            })
            .collect()
    }

    /// A row per team group (the platform's list), then one for sends of no known group.
    pub(crate) fn rows(&self, groups: &[TeamGroup]) -> Vec<BudgetRow> {
        let mut rows: Vec<BudgetRow> = groups
            .iter()
            .map(|g| {
                let by_name = || self.groups.values().find(|s| s.name == g.name);
                let spend = self
                    .groups
                    .get(&g.id)
                    .or_else(by_name)
                    .cloned()
                    .unwrap_or_default();
                BudgetRow::of(g, spend)
            })
            .collect();
        let known =
            |id: &u64, s: &GroupSpend| groups.iter().any(|g| g.id == *id || g.name == s.name);
        let mut unknown = GroupSpend {
            name: "No team group".into(),
            ..GroupSpend::default()
        };
        for (id, spend) in &self.groups {
            if !known(id, spend) {
                for m in 0..2 {
                    let into = &mut unknown.months[m];
                    into.usd = into
                        .usd
                        .checked_add(spend.months[m].usd)
                        .unwrap_or(into.usd);
                    into.usd_sends += spend.months[m].usd_sends;
                    for (c, (sum, n)) in &spend.months[m].other {
                        into.add_many(c, *sum, *n);
                    }
                }
            }
        }
        if unknown
            .months
            .iter()
            .any(|m| m.usd_sends > 0 || !m.other.is_empty())
        {
            rows.push(BudgetRow::without_group(unknown));
        }
        rows
    }
}

impl Spend {
    fn add_many(&mut self, currency: &str, sum: Decimal, n: u32) {
        let (t, k) = self
            .other
            .entry(currency.to_owned())
            .or_insert((Decimal::ZERO, 0));
        *t = t.checked_add(sum).unwrap_or(*t);
        *k += n;
    }
}

/// Where a group stands against its budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Band {
    Under,
    /// 80 % or more.
    Near,
    /// 100 % or more.
    Over,
    /// No monthly budget to compare with.
    NoBudget,
}

impl Band {
    pub(crate) fn of(percent: Option<i128>) -> Band {
        match percent {
            None => Band::NoBudget,
            Some(p) if p >= 100 => Band::Over,
            Some(p) if p >= 80 => Band::Near,
            Some(_) => Band::Under,
        }
    }

    /// The band's name in an address (`/teams?band=over`): links from elsewhere rely on these.
    pub(crate) fn key(self) -> &'static str {
        match self {
            Band::Under => "within",
            Band::Near => "near",
            Band::Over => "over",
            Band::NoBudget => "none",
        }
    }

    /// The band an address names, if it names one.
    pub(crate) fn from_key(key: &str) -> Option<Band> {
        [Band::Over, Band::Near, Band::Under, Band::NoBudget]
            .into_iter()
            .find(|b| b.key() == key)
    }

    /// Said beside the colour, in the admin's language.
    pub(crate) fn label(self) -> M {
        match self {
            Band::Under => M::SpendBandWithin,
            Band::Near => M::SpendBandNear,
            Band::Over => M::SpendBandOver,
            Band::NoBudget => M::SpendBandNone,
        }
    }

    /// The band in the report file's `standing` column: stable English words, whatever the
    /// screen's language (what reads the file may filter on them).
    pub(crate) fn file_word(self) -> &'static str {
        match self {
            Band::Under => "Within budget",
            Band::Near => "Near budget",
            Band::Over => "Over budget",
            Band::NoBudget => "No monthly budget",
        }
    }
}

/// A reason needing attention as the screen says it, and whether it is the platform's word
/// alone (a status name, shown as the platform writes it): a send stuck in a status is the
/// status's name in the console's sentence.
pub(crate) fn reason_text(reason: Attention) -> (String, bool) {
    match reason {
        Attention::StuckCollecting | Attention::StuckConfirming => (
            msg::spend_reason_stuck(reason.status().as_str(), STUCK_DAYS.unsigned_abs()),
            false,
        ),
        _ => (reason.label().to_owned(), true),
    }
}

/// One line of the budget table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BudgetRow {
    pub(crate) name: String,
    pub(crate) monthly: Decimal,
    /// Last month's unspent budget carried over (rollover groups only).
    pub(crate) carried: Decimal,
    pub(crate) rollover: bool,
    pub(crate) one_time: i64,
    /// This month's budget: monthly plus what was carried.
    pub(crate) budget: Decimal,
    pub(crate) spend: GroupSpend,
    pub(crate) percent: Option<i128>,
    pub(crate) band: Band,
    /// Budget minus this month's USD spend (negative when over).
    pub(crate) remaining: Decimal,
}

impl BudgetRow {
    fn of(group: &TeamGroup, spend: GroupSpend) -> BudgetRow {
        let monthly = Decimal::parse(&group.monthly_budget).unwrap_or(Decimal::ZERO);
        let unspent = monthly
            .checked_sub(spend.months[1].usd)
            .filter(|d| !d.is_negative())
            .unwrap_or(Decimal::ZERO);
        let carried = if group.rollover && !monthly.is_negative() {
            unspent
        } else {
            Decimal::ZERO
        };
        let budget = monthly.checked_add(carried).unwrap_or(monthly);
        let percent = spend.months[0].usd.percent_of(budget);
        BudgetRow {
            name: group.name.clone(),
            monthly,
            carried,
            rollover: group.rollover,
            one_time: group.one_time_budget,
            budget,
            remaining: budget.checked_sub(spend.months[0].usd).unwrap_or(budget),
            percent,
            band: Band::of(percent),
            spend,
        }
    }

    fn without_group(spend: GroupSpend) -> BudgetRow {
        BudgetRow {
            name: spend.name.clone(),
            monthly: Decimal::ZERO,
            carried: Decimal::ZERO,
            rollover: false,
            one_time: 0,
            budget: Decimal::ZERO,
            remaining: Decimal::ZERO,
            percent: None,
            band: Band::NoBudget,
            spend,
        }
    }
}

#[cfg(test)]
mod tests {
    use gifting_api::attention::unix_seconds;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn send(id: u64, created: &str, status: &str, cost: &str, currency: &str, team: u64) -> Send {
        serde_json::from_value(serde_json::json!({
            "id": id, "send_gid": format!("g{id}"), "type": "eGifts USA", "subtype": "eGift Cards USA",
            "currency": currency, "current_total_cost": cost, "status": status,
            "created_at": created,
            "touch": {"id": 1, "name": "T"},
            "recipient": {"name": "R S", "email": "r@example.com", "company_name": "C"},
            "sender": {"id": team * 10, "name": "S", "email": format!("s{team}@example.com"), "team_id": team, "team_name": format!("Team {team}")},
            "sent_via": "web", "status_updates": []
        }))
        .unwrap()
    }

    fn group(id: u64, monthly: &str, rollover: bool) -> TeamGroup {
        serde_json::from_value(serde_json::json!({
            "id": id, "budget": 0, "created_at": "2025-01-01T00:00:00Z", "monthly_budget": monthly,
            "name": format!("Team {id}"), "one_time_budget": 0, "rollover": rollover, "team_id": 1,
            "updated_at": "2025-01-01T00:00:00Z"
        }))
        .unwrap()
    }

    #[wasm_bindgen_test]
    fn two_months_are_counted_by_group_currency_and_reason_and_the_walk_stops_after() {
        let now = unix_seconds("2026-11-26T12:00:00-05:00").unwrap();
        let page = vec![
            send(
                9,
                "2026-11-20T10:00:00-05:00",
                "Delivered",
                "850.00",
                "USD",
                1,
            ),
            send(
                8,
                "2026-11-02T10:00:00-05:00",
                "Undeliverable",
                "100.00",
                "USD",
                1,
            ),
            send(
                7,
                "2026-11-01T00:30:00-05:00",
                "Delivered",
                "120.00",
                "EUR",
                1,
            ),
            send(
                6,
                "2026-11-01T00:10:00-05:00",
                "Bounced and Credited",
                "500.00",
                "USD",
                2,
            ),
            send(
                5,
                "2026-10-15T10:00:00-05:00",
                "Delivered",
                "300.00",
                "USD",
                2,
            ),
            send(4, "2026-10-03T10:00:00-05:00", "Used", "50.00", "USD", 99),
        ];
        let mut report = Report::new(now, page.first(), None);
        assert_eq!(report.months[0].key(), "2026-11");
        assert!(!report.add(&page), "not past October yet");
        let older = vec![send(
            3,
            "2026-09-30T23:59:00-05:00",
            "Delivered",
            "1.00",
            "USD",
            1,
        )];
        assert!(report.add(&older), "September ends the walk");
        assert_eq!(report.read, [4, 2]);
        assert_eq!(report.this_month_estimate(), (4, true));
        assert_eq!(report.attention[0].get(&Attention::Undeliverable), Some(&1));
        assert_eq!(report.attention[0].get(&Attention::Bounced), Some(&1));
        assert!(report.attention[1].is_empty(), "October's sends went well");
        let campaign = &report.campaigns[&1];
        assert_eq!(
            campaign.sends, 4,
            "this month's sends of the campaign, returned or not"
        );
        assert_eq!(campaign.spend.usd.to_string(), "950.00");
        assert_eq!(campaign.spend.other_text(), "EUR 120.00 in 1 send");

        let rows = report.rows(&[group(1, "1000", false), group(2, "500", true)]);
        assert_eq!(rows.len(), 3, "two groups and the sends of no known group");
        let one = &rows[0];
        assert_eq!(one.spend.months[0].usd.to_string(), "950.00");
        assert_eq!(one.percent, Some(95));
        assert_eq!(one.band, Band::Near);
        assert_eq!(one.remaining.to_string(), "50.00");
        assert_eq!(
            one.spend.months[0].other_text(),
            "EUR 120.00 in 1 send",
            "never added to USD"
        );
        let two = &rows[1];
        assert_eq!(
            two.spend.months[0].usd,
            Decimal::ZERO,
            "money returned is no spend"
        );
        assert_eq!(
            two.carried.to_string(),
            "200.00",
            "500 unspent less 300: carried over"
        );
        assert_eq!(two.budget.to_string(), "700.00");
        assert_eq!(two.band, Band::Under);
        assert_eq!(rows[2].name, "No team group");
        assert_eq!(report.total(0).usd.to_string(), "950.00");
        assert_eq!(report.cumulative(0, 30)[19].to_string(), "950.00");
        assert_eq!(
            report.cumulative(0, 30)[0].to_string(),
            "0",
            "day 1: the EUR send only"
        );
    }

    #[wasm_bindgen_test]
    fn a_sender_counts_only_their_own_sends_and_the_month_is_estimated_while_partial() {
        let now = unix_seconds("2026-11-26T00:00:00Z").unwrap();
        let page = vec![
            send(2, "2026-11-21T00:00:00Z", "Failed", "10.00", "USD", 1),
            send(1, "2026-11-16T00:00:00Z", "Failed", "10.00", "USD", 2),
        ];
        let mut mine = Report::new(now, page.first(), Some("S1@example.com".into()));
        mine.add(&page);
        assert_eq!(mine.read, [1, 0]);
        assert_eq!(mine.attention[0].get(&Attention::Failed), Some(&1));
        let mut all = Report::new(now, page.first(), None);
        all.add(&page);
        // 2 sends over the last 10 days of a month 25 days old: about 5.
        assert_eq!(all.this_month_estimate(), (5, false));
    }
}
