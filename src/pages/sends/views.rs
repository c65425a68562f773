//! What the screen shows over the loaded sends, computed from their compact rows: the rows a
//! filter keeps, their order by a column, the overview's sums and the filters' choices.
//!
//! Each is one pass over plain numbers. What depends on a shared value (a sender's name, a
//! status's group, whether a company matches the search) is worked out once per value, not
//! per send, and nothing is allocated per send, so a hundred thousand sends take a few
//! milliseconds.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use gifting_api::attention::attention;
use gifting_api::money::Decimal;
use gifting_api::rest::StatusGroup;

use super::compact::{cents_text, Row, SenderKey};
use super::filter::{day_number, Choice, SendFilter};
use super::loaded::LoadedSends;
use super::summary::{CurrencySpend, Summary};
use crate::components::name_search::contains_folded;
use crate::components::sort::{by_amount, by_text, TableSort};

/// A row's rank by one column.
type RankKey<'a> = Box<dyn Fn(&Row) -> u32 + 'a>;
/// How two rows compare by one column.
type Comparer<'a> = Box<dyn Fn(&Row, &Row) -> Ordering + 'a>;

/// Ranks of `values` in the order `cmp` gives (equal values share a rank).
fn ranks<T>(values: &[T], cmp: impl Fn(&T, &T) -> Ordering) -> Vec<u32> {
    let mut order: Vec<u32> = (0..values.len() as u32).collect();
    order.sort_by(|&a, &b| cmp(&values[a as usize], &values[b as usize]));
    let mut rank = vec![0; values.len()];
    let mut current = 0;
    for (i, &at) in order.iter().enumerate() {
        if i > 0 && cmp(&values[order[i - 1] as usize], &values[at as usize]) != Ordering::Equal {
            current = i as u32;
        }
        rank[at as usize] = current;
    }
    rank
}

/// Text ignoring case first, then exactly, as [`by_text`], without allocating.
fn by_text_folded(a: &str, b: &str) -> Ordering {
    a.chars()
        .flat_map(char::to_lowercase)
        .cmp(b.chars().flat_map(char::to_lowercase))
        .then_with(|| a.cmp(b))
}

impl LoadedSends {
    fn group_of(&self) -> Vec<StatusGroup> {
        self.rows.statuses.map(|s| s.group())
    }

    /// The rows the filter keeps, in the platform's order.
    #[cfg(test)]
    pub(crate) fn matching(&self, filter: &SendFilter) -> Vec<u32> {
        self.kept(filter).rows
    }

    /// What `filter` keeps, in one pass: its rows, and for each select beside the filters the
    /// rows each choice would keep with every other filter as it is (so "Sam Lee (3)" is the
    /// number the table shows on choosing him).
    pub(crate) fn kept(&self, filter: &SendFilter) -> Kept {
        let rows = &self.rows;
        let groups = self.group_of();
        let senders: Vec<bool> = rows.senders.map(|s| filter.keeps_sender(s));
        let touches: Vec<bool> = rows
            .touches
            .map(|t| filter.campaign.is_none_or(|id| t.0 == id));
        let needle = filter.search.trim().to_lowercase();
        let strings_match: Vec<bool> = rows.strings.map(|s| contains_folded(s, &needle));
        // Whether a status can need attention at all: only those rows are read whole.
        let maybe: Vec<bool> = rows
            .statuses
            .map(|s| filter.attention.is_none_or(|a| a.may_keep(s)));
        let now = crate::browser::now_ms() / 1000;
        let needs = |at: u32| {
            filter.attention.is_none_or(|a| {
                rows.send(at)
                    .is_some_and(|send| a.keeps(attention(&send, now)))
            })
        };
        let rest = |row: &Row| {
            maybe[usize::from(row.status)]
                && filter.send.is_none_or(|id| row.id == id)
                && filter.in_range(day_number(rows.created_at(row)))
                && (needle.is_empty()
                    || strings_match[row.company as usize]
                    || contains_folded(rows.recipient_name(row), &needle)
                    || contains_folded(rows.recipient_email(row), &needle))
        };
        let mut kept = Kept::new(rows.senders.len(), rows.touches.len(), groups.len());
        for (place, at) in self.order().enumerate() {
            let Some(row) = rows.row(at) else { continue };
            kept.seen(row, place as u32);
            let mut fails = 0u8;
            if filter
                .group
                .is_some_and(|g| groups[usize::from(row.status)] != g)
            {
                fails |= FAILS_GROUP;
            }
            if !senders[row.sender as usize] {
                fails |= FAILS_SENDER;
            }
            if !touches[row.touch as usize] {
                fails |= FAILS_CAMPAIGN;
            }
            // The costly tests last, and only for a row some answer could still count.
            if fails.count_ones() > 1 || !rest(row) || !needs(at) {
                continue;
            }
            kept.count(row, at, fails);
        }
        kept
    }

    /// Sorts `order` (rows) by the column `sort` names; stable, so equal rows keep the
    /// platform's order. A column the table does not know leaves the order as it is.
    pub(crate) fn sort_rows(&self, order: &mut [u32], sort: &TableSort) {
        let Some(column) = sort.column.as_deref() else {
            return;
        };
        // The common columns sort a compact key beside each row (no lookups while sorting).
        if let Some(rank) = self.rank_key(column) {
            let mut keyed: Vec<(u32, u32)> = order
                .iter()
                .map(|&at| (self.rows.row(at).map_or(u32::MAX, &rank), at))
                .collect();
            if sort.descending {
                keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
            } else {
                keyed.sort_by_key(|k| k.0);
            }
            order.iter_mut().zip(keyed).for_each(|(o, (_, at))| *o = at);
            return;
        }
        if column == "cost" {
            return self.sort_by_cost(order, sort.descending);
        }
        let Some(compare) = self.comparer(column) else {
            return;
        };
        let rows = &self.rows;
        let get = |at: u32| rows.row(at);
        let cmp = |a: &u32, b: &u32| match (get(*a), get(*b)) {
            (Some(x), Some(y)) => compare(x, y),
            _ => Ordering::Equal,
        };
        if sort.descending {
            order.sort_by(|a, b| cmp(b, a));
        } else {
            order.sort_by(cmp);
        }
    }

    /// Columns whose order is a rank of an interned value: that rank, per row.
    fn rank_key(&self, column: &str) -> Option<RankKey<'_>> {
        let rows = &self.rows;
        let text = |x: &dyn std::fmt::Display, y: &dyn std::fmt::Display| {
            by_text(&x.to_string(), &y.to_string())
        };
        Some(match column {
            "sender" => {
                let rank = ranks(rows.senders.values(), |x, y| by_text(&x.1, &y.1));
                Box::new(move |r: &Row| rank[r.sender as usize])
            }
            "campaign" => {
                let rank = ranks(rows.touches.values(), |x, y| by_text(&x.1, &y.1));
                Box::new(move |r: &Row| rank[r.touch as usize])
            }
            "type" => {
                let rank = ranks(rows.kinds.values(), |x, y| text(x, y));
                Box::new(move |r: &Row| rank[usize::from(r.kind)])
            }
            "status" => {
                let rank = ranks(rows.statuses.values(), |x, y| text(x, y));
                Box::new(move |r: &Row| rank[usize::from(r.status)])
            }
            _ => return None,
        })
    }

    /// Money by currency, then by value: cents beside each row, the text only for the rare
    /// cost in another form.
    fn sort_by_cost(&self, order: &mut [u32], descending: bool) {
        let rows = &self.rows;
        let currency = ranks(rows.strings.values(), |x, y| x.cmp(y));
        let mut keyed: Vec<(u32, i64, bool, u32)> = order
            .iter()
            .filter_map(|&at| rows.row(at).map(|r| (r, at)))
            .map(|(r, at)| (currency[r.currency as usize], r.cents, r.odd_cost, at))
            .collect();
        let text = |at: u32| rows.row(at).map(|r| rows.cost_text(r)).unwrap_or_default();
        let cmp = |a: &(u32, i64, bool, u32), b: &(u32, i64, bool, u32)| {
            a.0.cmp(&b.0).then_with(|| {
                if a.2 || b.2 {
                    by_amount(&text(a.3), &text(b.3))
                } else {
                    a.1.cmp(&b.1)
                }
            })
        };
        if descending {
            keyed.sort_by(|a, b| cmp(b, a));
        } else {
            keyed.sort_by(cmp);
        }
        order.iter_mut().zip(keyed).for_each(|(o, k)| *o = k.3);
    }

    /// How two rows compare by `column`, as the table's own comparisons of whole sends.
    fn comparer(&self, column: &str) -> Option<Comparer<'_>> {
        let rows = &self.rows;
        Some(match column {
            "created" => Box::new(move |a: &Row, b: &Row| {
                let key = |r: &Row| (r.created_ms.is_none(), r.created_ms);
                key(a)
                    .cmp(&key(b))
                    .then_with(|| rows.created_at(a).cmp(rows.created_at(b)))
            }),
            "recipient" => Box::new(move |a: &Row, b: &Row| {
                by_text_folded(rows.recipient_name(a), rows.recipient_name(b))
            }),
            _ => return None,
        })
    }

    /// The overview's numbers over `order` (rows).
    pub(crate) fn summary(&self, order: impl IntoIterator<Item = u32>) -> Summary {
        let rows = &self.rows;
        let groups = self.group_of();
        let mut by_group = [0u64; StatusGroup::ALL.len()];
        // Per currency (interned string): sends, readable in cents, their sum, other costs.
        let mut spend: BTreeMap<u32, (u64, u64, i128, Vec<u32>)> = BTreeMap::new();
        let mut sends = 0;
        for at in order {
            let Some(row) = rows.row(at) else { continue };
            sends += 1;
            let group = groups[usize::from(row.status)];
            by_group[StatusGroup::ALL
                .iter()
                .position(|g| *g == group)
                .unwrap_or(4)] += 1;
            let entry = spend.entry(row.currency).or_default();
            entry.0 += 1;
            if row.odd_cost {
                entry.3.push(at);
            } else {
                entry.1 += 1;
                entry.2 += i128::from(row.cents);
            }
        }
        let mut by_currency: Vec<CurrencySpend> = spend
            .into_iter()
            .map(|(currency, (count, in_cents, cents, odd))| {
                let mut spend = CurrencySpend {
                    currency: rows.strings.get(currency).clone(),
                    total: if in_cents == 0 {
                        Decimal::ZERO
                    } else {
                        Decimal::parse(&cents_text(cents)).unwrap_or(Decimal::ZERO)
                    },
                    sends: count,
                    unreadable: 0,
                };
                for at in odd {
                    let text = rows.row(at).map(|r| rows.odd_cost(r)).unwrap_or("");
                    match Decimal::parse(text).and_then(|c| spend.total.checked_add(c)) {
                        Some(total) => spend.total = total,
                        None => spend.unreadable += 1,
                    }
                }
                spend
            })
            .collect();
        by_currency.sort_by(|a, b| a.currency.cmp(&b.currency));
        Summary {
            sends,
            by_group: StatusGroup::ALL
                .into_iter()
                .zip(by_group)
                .filter(|(g, n)| *g != StatusGroup::Other || *n > 0)
                .collect(),
            by_currency,
        }
    }

    /// The senders among the loaded sends ("Sam Lee (Sales)"), by label, each with the sends
    /// `kept` counted for it.
    pub(crate) fn sender_choices(&self, kept: &Kept) -> Vec<Choice> {
        let label = |s: &SenderKey| format!("{} ({})", s.1, s.4);
        choices(
            self.rows
                .senders
                .values()
                .iter()
                .zip(&kept.by_sender)
                .map(|(s, c)| (s.0, *c, || label(s))),
        )
    }

    /// The campaigns among the loaded sends, by name, each with the sends `kept` counted for it.
    pub(crate) fn campaign_choices(&self, kept: &Kept) -> Vec<Choice> {
        choices(
            self.rows
                .touches
                .values()
                .iter()
                .zip(&kept.by_touch)
                .map(|(t, c)| (t.0, *c, || t.1.clone())),
        )
    }

    /// The sends `kept` counted per status group, for the status select's labels.
    pub(crate) fn group_counts(&self, kept: &Kept) -> BTreeMap<StatusGroup, u64> {
        let mut out = BTreeMap::new();
        for (group, (n, _)) in self.group_of().into_iter().zip(&kept.by_status) {
            if *n > 0 {
                *out.entry(group).or_default() += n;
            }
        }
        out
    }
}

/// A row fails the status select.
const FAILS_GROUP: u8 = 1;
/// A row fails the sender select (or is not the signed-in sender's).
const FAILS_SENDER: u8 = 2;
/// A row fails the campaign select.
const FAILS_CAMPAIGN: u8 = 4;

/// What a filter keeps ([`LoadedSends::kept`]): its rows in the platform's order, and per
/// interned sender, campaign and status the rows kept by every filter but that select's own,
/// each with the first place it was seen at among all loaded sends (`u32::MAX`: none loaded).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Kept {
    pub(crate) rows: Vec<u32>,
    by_sender: Vec<(u64, u32)>,
    by_touch: Vec<(u64, u32)>,
    by_status: Vec<(u64, u32)>,
}

impl Kept {
    fn new(senders: usize, touches: usize, statuses: usize) -> Kept {
        Kept {
            rows: Vec::new(),
            by_sender: vec![(0, u32::MAX); senders],
            by_touch: vec![(0, u32::MAX); touches],
            by_status: vec![(0, u32::MAX); statuses],
        }
    }

    /// `row` is loaded at `place` (newest first): its values are choices.
    fn seen(&mut self, row: &Row, place: u32) {
        for entry in [
            &mut self.by_sender[row.sender as usize],
            &mut self.by_touch[row.touch as usize],
            &mut self.by_status[usize::from(row.status)],
        ] {
            entry.1 = entry.1.min(place);
        }
    }

    /// `row` (`at`) passes every filter but those `fails` names (at most one select).
    fn count(&mut self, row: &Row, at: u32, fails: u8) {
        if fails == 0 {
            self.rows.push(at);
        }
        if fails & !FAILS_SENDER == 0 {
            self.by_sender[row.sender as usize].0 += 1;
        }
        if fails & !FAILS_CAMPAIGN == 0 {
            self.by_touch[row.touch as usize].0 += 1;
        }
        if fails & !FAILS_GROUP == 0 {
            self.by_status[usize::from(row.status)].0 += 1;
        }
    }
}

/// Choices from `(id, (count, first position), label)` of interned values: one per id (the
/// label of its first send), by label.
fn choices<F: FnOnce() -> String>(
    values: impl Iterator<Item = (u64, (u64, u32), F)>,
) -> Vec<Choice> {
    let mut by_id: BTreeMap<u64, (u32, Choice)> = BTreeMap::new();
    for (id, (count, first), label) in values {
        if first == u32::MAX {
            continue;
        }
        match by_id.get_mut(&id) {
            Some((seen, choice)) => {
                choice.count += count;
                if first < *seen {
                    *seen = first;
                    choice.label = label();
                }
            }
            None => {
                let choice = Choice {
                    id,
                    label: label(),
                    count,
                };
                by_id.insert(id, (first, choice));
            }
        }
    }
    let mut out: Vec<Choice> = by_id.into_values().map(|(_, c)| c).collect();
    out.sort_by_cached_key(|c| (c.label.to_lowercase(), c.id));
    out
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::pages::sends::filter::{campaign_choices, group_counts, sender_choices};
    use crate::pages::sends::loaded::tests::send;
    use crate::pages::sends::summary::summarize;
    use crate::pages::sends::table::send_order;
    use gifting_api::rest::Send;
    use gifting_api::SendStatus;

    /// Sends with every kind of difference the views look at.
    fn varied() -> Vec<Send> {
        (0..40u64)
            .map(|i| {
                let mut s = send(i);
                s.sender.id = i % 4;
                s.sender.name = ["ada", "Bob", "Ada", "zed"][(i % 4) as usize].into();
                s.touch.id = 100 + i % 3;
                s.touch.name = format!("Campaign {}", i % 3);
                s.status = SendStatus::KNOWN[(i as usize * 5) % SendStatus::KNOWN.len()].clone();
                s.currency = ["USD", "EUR"][(i % 2) as usize].into();
                s.current_total_cost = match i % 7 {
                    0 => "1234.5".into(),
                    1 => "n/a".into(),
                    n => format!("{}.{:02}", n * 13 % 50, i % 100),
                };
                s.created_at = format!("2026-03-{:02}T10:00:00+0{}:00", 1 + i % 9, i % 3);
                s.recipient.name = ["Zoë Müller", "ole", "Ole", "amy"][(i % 4) as usize].into();
                s.recipient.company_name = ["Acme", "Globex"][(i % 2) as usize].into();
                s
            })
            .collect()
    }

    fn loaded(sends: &[Send]) -> LoadedSends {
        let mut loaded = LoadedSends::default();
        loaded.insert_page(1, 100, sends.len() as u64, sends);
        loaded
    }

    #[wasm_bindgen_test]
    fn filters_match_what_the_send_filter_keeps() {
        let sends = varied();
        let l = loaded(&sends);
        let filters = [
            SendFilter::default(),
            SendFilter {
                group: Some(StatusGroup::Problem),
                ..SendFilter::default()
            },
            SendFilter {
                sender: Some(2),
                ..SendFilter::default()
            },
            SendFilter {
                campaign: Some(101),
                ..SendFilter::default()
            },
            SendFilter {
                search: " MÜLLER ".into(),
                ..SendFilter::default()
            },
            SendFilter {
                search: "globex".into(),
                sender: Some(1),
                ..SendFilter::default()
            },
            SendFilter {
                search: "r7@EXAMPLE".into(),
                ..SendFilter::default()
            },
        ];
        for f in filters {
            let keep = f.matcher(crate::browser::now_ms() / 1000);
            let expected: Vec<u64> = sends.iter().filter(|s| keep(s)).map(|s| s.id).collect();
            let rows = l.matching(&f);
            let got: Vec<u64> = rows
                .iter()
                .filter_map(|&r| l.rows.row(r))
                .map(|r| r.id)
                .collect();
            assert_eq!(got, expected, "{f:?}");
            let matched: Vec<&Send> = sends.iter().filter(|s| keep(s)).collect();
            assert_eq!(l.summary(rows), summarize(matched), "{f:?}");
        }
        let all = l.kept(&SendFilter::default());
        assert_eq!(l.sender_choices(&all), sender_choices(&sends));
        assert_eq!(l.campaign_choices(&all), campaign_choices(&sends));
        assert_eq!(l.group_counts(&all), group_counts(&sends));
    }

    #[wasm_bindgen_test]
    fn each_choice_counts_what_choosing_it_would_show() {
        let sends = varied();
        let l = loaded(&sends);
        let filter = SendFilter {
            search: "globex".into(),
            sender: Some(1),
            campaign: Some(101),
            group: Some(StatusGroup::Problem),
            ..SendFilter::default()
        };
        let kept = l.kept(&filter);
        let now = crate::browser::now_ms() / 1000;
        // Choosing another value of one select, the others as they are.
        let count = |f: SendFilter| {
            let keep = f.matcher(now);
            sends.iter().filter(|s| keep(s)).count() as u64
        };
        for choice in l.sender_choices(&kept) {
            let f = SendFilter {
                sender: Some(choice.id),
                ..filter.clone()
            };
            assert_eq!(choice.count, count(f), "sender {}", choice.id);
        }
        assert_eq!(
            l.sender_choices(&kept).len(),
            4,
            "every loaded sender stays a choice"
        );
        for choice in l.campaign_choices(&kept) {
            let f = SendFilter {
                campaign: Some(choice.id),
                ..filter.clone()
            };
            assert_eq!(choice.count, count(f), "campaign {}", choice.id);
        }
        for (group, n) in l.group_counts(&kept) {
            let f = SendFilter {
                group: Some(group),
                ..filter.clone()
            };
            assert_eq!(n, count(f), "{group:?}");
        }
        assert_eq!(kept.rows, l.matching(&filter));
    }

    #[wasm_bindgen_test]
    fn a_sender_keeps_their_own_sends_by_email() {
        let mut sends = varied();
        sends[3].sender.email = "OTHER@example.com".into();
        let l = loaded(&sends);
        let filter = SendFilter {
            mine: Some("other@EXAMPLE.com".into()),
            ..SendFilter::default()
        };
        let ids: Vec<u64> = l
            .matching(&filter)
            .iter()
            .filter_map(|&r| l.rows.row(r))
            .map(|r| r.id)
            .collect();
        assert_eq!(ids, vec![3]);
        assert!(filter.is_active() && filter.needs_every_send());
    }

    #[wasm_bindgen_test]
    fn every_column_sorts_as_the_table_sorts_whole_sends() {
        let sends = varied();
        let l = loaded(&sends);
        for column in [
            "created",
            "recipient",
            "sender",
            "campaign",
            "type",
            "status",
            "cost",
            "x",
        ] {
            for descending in [false, true] {
                let sort = TableSort {
                    column: Some(column.into()),
                    descending,
                };
                let mut expected = sends.clone();
                sort.apply(&mut expected, send_order);
                let mut order: Vec<u32> = l.order().collect();
                l.sort_rows(&mut order, &sort);
                let got: Vec<u64> = order
                    .iter()
                    .filter_map(|&r| l.rows.row(r))
                    .map(|r| r.id)
                    .collect();
                let want: Vec<u64> = expected.iter().map(|s| s.id).collect();
                assert_eq!(got, want, "{column} {descending}");
            }
        }
    }
}
