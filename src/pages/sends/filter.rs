//! Filters over the loaded sends, read from and written to the address bar:
//! `?status=problem&sender=12&campaign=2001&q=acme`.

#[cfg(test)]
use std::collections::BTreeMap;

use gifting_api::attention::Attention;
#[cfg(test)]
use gifting_api::rest::Send;
use gifting_api::rest::StatusGroup;

pub(crate) const KEY_STATUS: &str = "status";
pub(crate) const KEY_SENDER: &str = "sender";
pub(crate) const KEY_CAMPAIGN: &str = "campaign";
pub(crate) const KEY_SEARCH: &str = "q";
/// One send by its id (the command palette goes there for a number).
pub(crate) const KEY_SEND: &str = "send";
/// Why a send needs attention (`gifting_api::attention`, or `any` reason), and the days from
/// and to which sends count (`2026-10-01`, `2026-10-31`): the home screen links to exactly the
/// sends it counted, month by month.
pub(crate) const KEY_ATTENTION: &str = "attention";
pub(crate) const KEY_SINCE: &str = "since";
pub(crate) const KEY_UNTIL: &str = "until";
/// `attention=any`: a send needing attention for any reason.
pub(crate) const ANY_REASON: &str = "any";
pub(crate) const KEYS: [&str; 8] = [
    KEY_SEND,
    KEY_STATUS,
    KEY_SENDER,
    KEY_CAMPAIGN,
    KEY_SEARCH,
    KEY_ATTENTION,
    KEY_SINCE,
    KEY_UNTIL,
];
/// The filters remembered as the list's last: all but one send (the first key), which the
/// palette opens in passing.
pub(crate) const REMEMBERED: &[&str] = KEYS.split_at(1).1;

/// Which sends needing attention a filter keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NeedsAttention {
    Any,
    For(Attention),
}

impl NeedsAttention {
    /// Whether a send needing attention for `reason` (if any) is kept.
    pub(crate) fn keeps(self, reason: Option<Attention>) -> bool {
        match self {
            NeedsAttention::Any => reason.is_some(),
            NeedsAttention::For(a) => reason == Some(a),
        }
    }

    /// Whether a send in `status` can be kept at all (only those are read whole).
    pub(crate) fn may_keep(self, status: &gifting_api::SendStatus) -> bool {
        match self {
            NeedsAttention::Any => Attention::ALL.iter().any(|a| a.status() == *status),
            NeedsAttention::For(a) => a.status() == *status,
        }
    }
}

impl SendFilter {
    /// What the filter keeps, for an export's file name: `-since-2026-10-01-status-problem`,
    /// `-sender-12`…; empty without a filter. The text searched for is not written out (a file
    /// name is no place for a recipient's name), only that there was one.
    pub(crate) fn file_part(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        parts.extend(self.send.map(|id| format!("send-{id}")));
        parts.extend(self.since.map(|d| format!("since-{}", day_param(d))));
        parts.extend(self.until.map(|d| format!("until-{}", day_param(d))));
        parts.extend(self.group.map(|g| format!("status-{}", g.slug())));
        parts.extend(self.attention.map(|a| match a {
            NeedsAttention::Any => "attention".to_owned(),
            NeedsAttention::For(reason) => reason.slug().to_owned(),
        }));
        parts.extend(self.sender.map(|id| format!("sender-{id}")));
        parts.extend(self.campaign.map(|id| format!("campaign-{id}")));
        if !self.search.trim().is_empty() {
            parts.push("search".to_owned());
        }
        parts.iter().map(|p| format!("-{p}")).collect()
    }
}

/// `20261001` as `2026-10-01`: the inverse of [`day_number`].
pub(crate) fn day_param(day: u32) -> String {
    format!(
        "{:04}-{:02}-{:02}",
        day / 10_000,
        day / 100 % 100,
        day % 100
    )
}

/// `2026-10-01` as `20261001`, the first ten characters of a timestamp likewise: days compare
/// as numbers, in the organisation's local calendar the platform writes.
pub(crate) fn day_number(text: &str) -> Option<u32> {
    let (y, m, d) = (text.get(0..4)?, text.get(5..7)?, text.get(8..10)?);
    if text.get(4..5) != Some("-") || text.get(7..8) != Some("-") {
        return None;
    }
    let n =
        y.parse::<u32>().ok()? * 10_000 + m.parse::<u32>().ok()? * 100 + d.parse::<u32>().ok()?;
    (m != "00" && d != "00").then_some(n)
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct SendFilter {
    pub(crate) group: Option<StatusGroup>,
    pub(crate) sender: Option<u64>,
    pub(crate) campaign: Option<u64>,
    /// Matched case-insensitively against the recipient's name, email and company.
    pub(crate) search: String,
    pub(crate) attention: Option<NeedsAttention>,
    /// Only sends created on this day or later ([`day_number`]).
    pub(crate) since: Option<u32>,
    /// Only sends created on this day or earlier.
    pub(crate) until: Option<u32>,
    /// Only the send with this id.
    pub(crate) send: Option<u64>,
    /// Parameters present in the address but not understood (name and value), to say so
    /// instead of silently showing everything.
    pub(crate) ignored: Vec<(&'static str, String)>,
    /// Only the sends of the sender with this email: a sender's own list (docs/platform.md:
    /// "a sender sees their own"). Not from the address: the store sets it from /me.
    pub(crate) mine: Option<String>,
}

impl SendFilter {
    /// Reads the filter from query parameters (`get` returns a parameter's decoded value).
    pub(crate) fn from_query(get: impl Fn(&str) -> Option<String>) -> SendFilter {
        let mut ignored = Vec::new();
        let group = get(KEY_STATUS).filter(|v| !v.is_empty()).and_then(|v| {
            let group = StatusGroup::from_slug(&v);
            if group.is_none() {
                ignored.push((KEY_STATUS, v.clone()));
            }
            group
        });
        let mut id = |key: &'static str| {
            get(key).filter(|v| !v.is_empty()).and_then(|v| {
                let id = v.trim().parse::<u64>().ok();
                if id.is_none() {
                    ignored.push((key, v));
                }
                id
            })
        };
        let send = id(KEY_SEND);
        let sender = id(KEY_SENDER);
        let campaign = id(KEY_CAMPAIGN);
        let attention = get(KEY_ATTENTION).filter(|v| !v.is_empty()).and_then(|v| {
            let reason = if v == ANY_REASON {
                Some(NeedsAttention::Any)
            } else {
                Attention::from_slug(&v).map(NeedsAttention::For)
            };
            if reason.is_none() {
                ignored.push((KEY_ATTENTION, v.clone()));
            }
            reason
        });
        let mut day = |key: &'static str| {
            get(key).filter(|v| !v.is_empty()).and_then(|v| {
                let day = day_number(v.trim()).filter(|_| v.trim().len() == 10);
                if day.is_none() {
                    ignored.push((key, v));
                }
                day
            })
        };
        let since = day(KEY_SINCE);
        let until = day(KEY_UNTIL);
        SendFilter {
            group,
            sender,
            campaign,
            search: get(KEY_SEARCH).unwrap_or_default(),
            attention,
            since,
            until,
            send,
            ignored,
            mine: None,
        }
    }

    /// Whether the sender select, and a sender's own scope, keep a send of `sender`.
    pub(crate) fn keeps_sender(&self, sender: &super::compact::SenderKey) -> bool {
        self.sender.is_none_or(|id| sender.0 == id)
            && self
                .mine
                .as_ref()
                .is_none_or(|me| sender.2.eq_ignore_ascii_case(me))
    }

    /// Whether the filter's answer needs every send read: any filter but one send by its id
    /// (found by its own walk), and any but a range with a first day (read back to that day).
    pub(crate) fn needs_every_send(&self) -> bool {
        self.is_active() && self.send.is_none() && self.since.is_none()
    }

    /// Whether a send created on `day` is within `since` and `until`.
    pub(crate) fn in_range(&self, day: Option<u32>) -> bool {
        let Some(day) = day else {
            return self.since.is_none() && self.until.is_none();
        };
        self.since.is_none_or(|d| day >= d) && self.until.is_none_or(|d| day <= d)
    }

    pub(crate) fn is_active(&self) -> bool {
        self.mine.is_some()
            || self.group.is_some()
            || self.send.is_some()
            || self.attention.is_some()
            || self.since.is_some()
            || self.until.is_some()
            || self.sender.is_some()
            || self.campaign.is_some()
            || !self.search.trim().is_empty()
    }

    /// A predicate over whole sends: what [`LoadedSends::matching`] computes over compact rows
    /// (its tests compare the two).
    ///
    /// [`LoadedSends::matching`]: super::loaded::LoadedSends::matching
    #[cfg(test)]
    pub(crate) fn matcher(&self, now: i64) -> impl Fn(&Send) -> bool + '_ {
        let needle = self.search.trim().to_lowercase();
        move |send: &Send| {
            self.group.is_none_or(|g| send.status.group() == g)
                && self
                    .mine
                    .as_ref()
                    .is_none_or(|me| send.sender.email.eq_ignore_ascii_case(me))
                && self.send.is_none_or(|id| send.id == id)
                && self
                    .attention
                    .is_none_or(|a| a.keeps(gifting_api::attention::attention(send, now)))
                && self.in_range(day_number(&send.created_at))
                && self.sender.is_none_or(|id| send.sender.id == id)
                && self.campaign.is_none_or(|id| send.touch.id == id)
                && (needle.is_empty() || recipient_matches(send, &needle))
        }
    }
}

#[cfg(test)]
fn recipient_matches(send: &Send, needle: &str) -> bool {
    let r = &send.recipient;
    [&r.name, &r.email, &r.company_name]
        .into_iter()
        .any(|field| field.to_lowercase().contains(needle))
}

/// One choice of a filter's select, with how many loaded sends it matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Choice {
    pub(crate) id: u64,
    pub(crate) label: String,
    pub(crate) count: u64,
}

/// The senders among `sends` ("Sam Lee (Sales)"), by label; the screen uses
/// `LoadedSends::sender_choices`, which must agree.
#[cfg(test)]
pub(crate) fn sender_choices<'a>(sends: impl IntoIterator<Item = &'a Send>) -> Vec<Choice> {
    choices(sends, |s| {
        (
            s.sender.id,
            format!("{} ({})", s.sender.name, s.sender.team_name),
        )
    })
}

/// The campaigns among `sends`, by name (as `LoadedSends::campaign_choices`).
#[cfg(test)]
pub(crate) fn campaign_choices<'a>(sends: impl IntoIterator<Item = &'a Send>) -> Vec<Choice> {
    choices(sends, |s| (s.touch.id, s.touch.name.clone()))
}

#[cfg(test)]
fn choices<'a>(
    sends: impl IntoIterator<Item = &'a Send>,
    key: impl Fn(&Send) -> (u64, String),
) -> Vec<Choice> {
    let mut by_id: BTreeMap<u64, Choice> = BTreeMap::new();
    for send in sends {
        let (id, label) = key(send);
        by_id
            .entry(id)
            .or_insert(Choice {
                id,
                label,
                count: 0,
            })
            .count += 1;
    }
    let mut out: Vec<Choice> = by_id.into_values().collect();
    out.sort_by(|a, b| {
        a.label
            .to_lowercase()
            .cmp(&b.label.to_lowercase())
            .then(a.id.cmp(&b.id))
    });
    out
}

/// Sends per status group (as `LoadedSends::group_counts`).
#[cfg(test)]
pub(crate) fn group_counts<'a>(
    sends: impl IntoIterator<Item = &'a Send>,
) -> BTreeMap<StatusGroup, u64> {
    let mut counts = BTreeMap::new();
    for send in sends {
        *counts.entry(send.status.group()).or_default() += 1;
    }
    counts
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::pages::sends::loaded::tests::send;
    use gifting_api::SendStatus;
    use std::collections::HashMap;

    fn filter(pairs: &[(&str, &str)]) -> SendFilter {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        SendFilter::from_query(|k| map.get(k).cloned())
    }

    #[wasm_bindgen_test]
    fn an_export_s_file_name_says_what_the_filter_kept_but_not_the_text_searched() {
        let query = |pairs: &'static [(&'static str, &'static str)]| {
            SendFilter::from_query(move |key| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map(|(_, v)| (*v).to_owned())
            })
        };
        assert_eq!(query(&[]).file_part(), "");
        let kept = query(&[
            ("since", "2026-10-01"),
            ("status", "problem"),
            ("sender", "12"),
            ("q", "Ada Lovelace"),
        ]);
        assert_eq!(
            kept.file_part(),
            "-since-2026-10-01-status-problem-sender-12-search"
        );
        let reason = query(&[("attention", "bounced"), ("campaign", "7")]);
        assert_eq!(reason.file_part(), "-bounced-campaign-7");
    }

    #[wasm_bindgen_test]
    fn reads_the_address_and_reports_what_it_cannot_use() {
        let f = filter(&[("status", "problem"), ("sender", "12"), ("q", "Acme")]);
        assert_eq!(f.group, Some(StatusGroup::Problem));
        assert_eq!(f.sender, Some(12));
        assert_eq!(f.campaign, None);
        assert!(f.is_active());
        assert!(f.ignored.is_empty());
        let bad = filter(&[("status", "lost"), ("campaign", "x1"), ("q", "  ")]);
        assert_eq!((bad.group, bad.campaign), (None, None));
        let pair = |key, value: &str| (key, value.to_owned());
        assert_eq!(
            bad.ignored,
            vec![pair("status", "lost"), pair("campaign", "x1")]
        );
        assert!(!bad.is_active());
        assert!(!filter(&[]).is_active());
    }

    #[wasm_bindgen_test]
    fn every_criterion_narrows_and_search_ignores_case() {
        let mut a = send(1);
        a.recipient.name = "Zoë Müller".into();
        let mut b = send(2);
        b.status = SendStatus::Undeliverable;
        b.sender.id = 9;
        b.recipient.company_name = "Globex".into();
        let mut c = send(3);
        c.touch.id = 2001;
        c.recipient.email = "CFO@Initech.example".into();
        let sends = [a, b, c];
        let ids = |f: &SendFilter| -> Vec<u64> {
            let m = f.matcher(0);
            sends.iter().filter(|s| m(s)).map(|s| s.id).collect()
        };
        assert_eq!(ids(&filter(&[])), vec![1, 2, 3]);
        assert_eq!(ids(&filter(&[("status", "problem")])), vec![2]);
        assert_eq!(ids(&filter(&[("sender", "3")])), vec![1, 3]);
        assert_eq!(ids(&filter(&[("campaign", "2001")])), vec![3]);
        assert_eq!(ids(&filter(&[("send", "2")])), vec![2]);
        assert_eq!(ids(&filter(&[("q", "MÜLLER")])), vec![1]);
        assert_eq!(ids(&filter(&[("q", "globex")])), vec![2]);
        assert_eq!(ids(&filter(&[("q", "cfo@initech")])), vec![3]);
        assert_eq!(
            ids(&filter(&[("sender", "3"), ("status", "delivered")])),
            vec![1, 3]
        );
        assert!(ids(&filter(&[("sender", "3"), ("q", "globex")])).is_empty());
        assert_eq!(ids(&filter(&[("attention", "undeliverable")])), vec![2]);
        assert!(ids(&filter(&[
            ("attention", "undeliverable"),
            ("since", "2999-01-01")
        ]))
        .is_empty());
        assert_eq!(ids(&filter(&[("attention", "any")])), vec![2]);
        let march = [("since", "2026-03-01"), ("until", "2026-03-31")];
        assert_eq!(ids(&filter(&march)), vec![1, 2, 3]);
        assert!(ids(&filter(&[("until", "2026-02-28")])).is_empty());
        assert!(ids(&filter(&[("since", "2026-03-02")])).is_empty());
        let odd = filter(&[
            ("attention", "lost"),
            ("since", "last week"),
            ("until", "2026"),
        ]);
        let pair = |key, value: &str| (key, value.to_owned());
        assert_eq!(
            odd.ignored,
            vec![
                pair("attention", "lost"),
                pair("since", "last week"),
                pair("until", "2026")
            ]
        );
        assert_eq!(day_number("2026-10-01T00:00:00-05:00"), Some(20261001));
    }

    #[wasm_bindgen_test]
    fn choices_count_and_sort_by_label() {
        let mut a = send(1);
        a.sender.id = 5;
        a.sender.name = "ada Byron".into();
        let b = send(2);
        let c = send(3);
        let senders = sender_choices([&a, &b, &c]);
        assert_eq!(
            senders,
            vec![
                Choice {
                    id: 5,
                    label: "ada Byron (Sales)".into(),
                    count: 1
                },
                Choice {
                    id: 3,
                    label: "Sam Lee (Sales)".into(),
                    count: 2
                },
            ]
        );
        assert_eq!(campaign_choices([&a, &b]).len(), 1);
        let counts = group_counts([&a, &b]);
        assert_eq!(counts.get(&StatusGroup::DeliveredOrUsed), Some(&2));
    }
}
