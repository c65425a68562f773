//! One loaded send, compact: what the table, the filters, the overview and the export need and
//! nothing twice. A hundred thousand parsed sends would hold a dozen heap strings each; here
//! a send is one fixed-size [`Row`] of numbers, its own text (gid, time, recipient, status
//! times) sits in one shared arena, and what repeats across sends (sender, campaign, company,
//! currency, type, subtype, status, channel) is interned once. Costs in the platform's usual
//! form ("25.00") are integer cents; any other text is kept as it came, so a row always reads
//! back as exactly the send it was made from ([`Rows::send`]).

use std::collections::HashMap;
use std::hash::Hash;

use gifting_api::money::Decimal;
use gifting_api::rest::{Recipient, Send, SendTouch, Sender, StatusUpdate};
use gifting_api::{SendStatus, SendSubtype, SendType};

use crate::components::format::parse_timestamp;

/// Values that repeat across sends, each kept once and named by its index.
#[derive(Clone, Debug)]
pub(crate) struct Interner<K> {
    index: HashMap<K, u32>,
    values: Vec<K>,
}

impl<K> Default for Interner<K> {
    fn default() -> Self {
        Interner {
            index: HashMap::new(),
            values: Vec::new(),
        }
    }
}

impl<K: Hash + Eq + Clone> Interner<K> {
    fn intern(&mut self, key: K) -> u32 {
        if let Some(&at) = self.index.get(&key) {
            return at;
        }
        let at = self.values.len() as u32;
        self.values.push(key.clone());
        self.index.insert(key, at);
        at
    }

    pub(crate) fn get(&self, at: u32) -> &K {
        &self.values[at as usize]
    }

    pub(crate) fn len(&self) -> usize {
        self.values.len()
    }

    pub(crate) fn values(&self) -> &[K] {
        &self.values
    }

    /// `f` of each value, by the same index: a filter decides once per distinct value, and
    /// each row then looks its answer up.
    pub(crate) fn map<T>(&self, f: impl FnMut(&K) -> T) -> Vec<T> {
        self.values.iter().map(f).collect()
    }
}

/// A sender as sends name it: id, name, email, team id, team name.
pub(crate) type SenderKey = (u64, String, String, u64, String);
/// A campaign as sends name it: id, name.
pub(crate) type TouchKey = (u64, String);

/// Which text of a row's arena slice is which, in order.
const GID: usize = 0;
const CREATED: usize = 1;
const NAME: usize = 2;
const EMAIL: usize = 3;
const COST: usize = 4;

/// One send. `Copy`, 96 bytes on wasm32; its text is in [`Rows::text`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Row {
    pub(crate) id: u64,
    /// `created_at` as Unix ms, for sorting; `None` when unreadable (sorted last).
    pub(crate) created_ms: Option<i64>,
    /// The cost in cents, unless `odd_cost` (then its text is in the arena).
    pub(crate) cents: i64,
    pub(crate) odd_cost: bool,
    /// Where this row's text starts in the arena, and each part's length in bytes.
    text: u32,
    lens: [u32; 5],
    pub(crate) sender: u32,
    pub(crate) touch: u32,
    pub(crate) company: u32,
    pub(crate) currency: u32,
    via: u32,
    pub(crate) kind: u16,
    pub(crate) subtype: u16,
    pub(crate) status: u16,
    /// The status history: `history_len` entries from `history` in [`Rows::history`].
    history: u32,
    history_len: u32,
}

/// Every loaded send's compact row, its text and the values they share.
#[derive(Clone, Debug, Default)]
pub(crate) struct Rows {
    rows: Vec<Row>,
    /// Every row's own text, one after another.
    text: String,
    /// Status updates: the status and the length of its time, which follows the row's other
    /// text in the arena.
    history: Vec<(u16, u32)>,
    pub(crate) senders: Interner<SenderKey>,
    pub(crate) touches: Interner<TouchKey>,
    pub(crate) strings: Interner<String>,
    pub(crate) kinds: Interner<SendType>,
    pub(crate) subtypes: Interner<SendSubtype>,
    pub(crate) statuses: Interner<SendStatus>,
}

/// "25.00" → 2500; `None` for any other form, whose text is then kept as it came.
pub(crate) fn cents_of(text: &str) -> Option<i64> {
    let decimal = Decimal::parse(text)?;
    if decimal.scale() != 2 || decimal.to_string() != text {
        return None;
    }
    text.replace('.', "").parse().ok()
}

/// 2500 → "25.00", -5 → "-0.05".
pub(crate) fn cents_text(cents: i128) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let abs = cents.unsigned_abs();
    format!("{sign}{}.{:02}", abs / 100, abs % 100)
}

fn intern_u16<K: Hash + Eq + Clone>(interner: &mut Interner<K>, key: &K) -> u16 {
    // Enumerations have a few dozen values; the platform would need 65,536 new ones.
    u16::try_from(interner.intern(key.clone())).unwrap_or(u16::MAX)
}

impl Rows {
    pub(crate) fn len(&self) -> usize {
        self.rows.len()
    }

    pub(crate) fn row(&self, at: u32) -> Option<&Row> {
        self.rows.get(at as usize)
    }

    /// Adds `send`; returns its row's index.
    pub(crate) fn push(&mut self, send: &Send) -> u32 {
        let row = self.compact(send);
        self.rows.push(row);
        (self.rows.len() - 1) as u32
    }

    /// Puts `send` in row `at` in place of what it held (the same send, changed on the
    /// platform since): its text is written anew, the old text is no longer read.
    pub(crate) fn replace(&mut self, at: u32, send: &Send) {
        let row = self.compact(send);
        if let Some(slot) = self.rows.get_mut(at as usize) {
            *slot = row;
        }
    }

    /// `send` as a row, its text and history appended to the arenas.
    fn compact(&mut self, send: &Send) -> Row {
        let start = self.text.len() as u32;
        let cents = cents_of(&send.current_total_cost);
        let cost_text = if cents.is_some() {
            ""
        } else {
            send.current_total_cost.as_str()
        };
        let parts = [
            send.send_gid.as_str(),
            send.created_at.as_str(),
            send.recipient.name.as_str(),
            send.recipient.email.as_str(),
            cost_text,
        ];
        let lens = parts.map(|p| {
            self.text.push_str(p);
            p.len() as u32
        });
        let history = self.history.len() as u32;
        for update in &send.status_updates {
            let status = intern_u16(&mut self.statuses, &update.status);
            self.text.push_str(&update.occurred_at);
            self.history.push((status, update.occurred_at.len() as u32));
        }
        let s = &send.sender;
        Row {
            id: send.id,
            created_ms: parse_timestamp(&send.created_at).map(|t| t.timestamp_millis()),
            cents: cents.unwrap_or(0),
            odd_cost: cents.is_none(),
            text: start,
            lens,
            sender: self.senders.intern((
                s.id,
                s.name.clone(),
                s.email.clone(),
                s.team_id,
                s.team_name.clone(),
            )),
            touch: self
                .touches
                .intern((send.touch.id, send.touch.name.clone())),
            company: self.strings.intern(send.recipient.company_name.clone()),
            currency: self.strings.intern(send.currency.clone()),
            via: self.strings.intern(send.sent_via.clone()),
            kind: intern_u16(&mut self.kinds, &send.kind),
            subtype: intern_u16(&mut self.subtypes, &send.subtype),
            status: intern_u16(&mut self.statuses, &send.status),
            history,
            history_len: send.status_updates.len() as u32,
        }
    }

    /// Part `part` of the row's own text.
    fn part(&self, row: &Row, part: usize) -> &str {
        let before: u32 = row.lens[..part].iter().sum();
        let from = (row.text + before) as usize;
        self.text
            .get(from..from + row.lens[part] as usize)
            .unwrap_or("")
    }

    pub(crate) fn recipient_name(&self, row: &Row) -> &str {
        self.part(row, NAME)
    }

    pub(crate) fn recipient_email(&self, row: &Row) -> &str {
        self.part(row, EMAIL)
    }

    pub(crate) fn created_at(&self, row: &Row) -> &str {
        self.part(row, CREATED)
    }

    /// The cost's text for a row that is not in cents.
    pub(crate) fn odd_cost(&self, row: &Row) -> &str {
        self.part(row, COST)
    }

    pub(crate) fn cost_text(&self, row: &Row) -> String {
        if row.odd_cost {
            self.odd_cost(row).to_owned()
        } else {
            cents_text(i128::from(row.cents))
        }
    }

    fn status_updates(&self, row: &Row) -> Vec<StatusUpdate> {
        let mut from = (row.text + row.lens.iter().sum::<u32>()) as usize;
        let first = row.history as usize;
        let entries = self
            .history
            .get(first..first + row.history_len as usize)
            .unwrap_or(&[]);
        entries
            .iter()
            .map(|&(status, len)| {
                let at = self.text.get(from..from + len as usize).unwrap_or("");
                from += len as usize;
                StatusUpdate {
                    status: self.statuses.get(u32::from(status)).clone(),
                    occurred_at: at.to_owned(),
                }
            })
            .collect()
    }

    /// The send row `at` was made from, whole again (for the rows on screen and the export).
    pub(crate) fn send(&self, at: u32) -> Option<Send> {
        let row = self.row(at)?;
        let (id, name, email, team_id, team_name) = self.senders.get(row.sender).clone();
        let (touch_id, touch_name) = self.touches.get(row.touch).clone();
        Some(Send {
            id: row.id,
            send_gid: self.part(row, GID).to_owned(),
            kind: self.kinds.get(u32::from(row.kind)).clone(),
            subtype: self.subtypes.get(u32::from(row.subtype)).clone(),
            currency: self.strings.get(row.currency).clone(),
            current_total_cost: self.cost_text(row),
            status: self.statuses.get(u32::from(row.status)).clone(),
            created_at: self.created_at(row).to_owned(),
            touch: SendTouch {
                id: touch_id,
                name: touch_name,
            },
            recipient: Recipient {
                name: self.recipient_name(row).to_owned(),
                email: self.recipient_email(row).to_owned(),
                company_name: self.strings.get(row.company).clone(),
            },
            sender: Sender {
                id,
                name,
                email,
                team_id,
                team_name,
            },
            sent_via: self.strings.get(row.via).clone(),
            status_updates: self.status_updates(row),
        })
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::pages::sends::csv::sends_csv;
    use crate::pages::sends::loaded::tests::send;

    #[wasm_bindgen_test]
    fn cents_only_for_the_usual_form() {
        assert_eq!(cents_of("25.00"), Some(2_500));
        assert_eq!(cents_of("-0.05"), Some(-5));
        assert_eq!(cents_of("1234.5"), None);
        assert_eq!(cents_of("05.00"), None);
        assert_eq!(cents_of("n/a"), None);
        assert_eq!(cents_of(""), None);
        assert_eq!(cents_text(2_500), "25.00");
        assert_eq!(cents_text(-5), "-0.05");
    }

    #[wasm_bindgen_test]
    fn a_row_reads_back_as_the_send_it_was_made_from() {
        let mut odd = send(2);
        odd.current_total_cost = "1234.5".into();
        odd.created_at = "not a time".into();
        odd.recipient.name = "Zoë \"Q\", =HYPERLINK(x)\r\n".into();
        odd.status = SendStatus::Other("Teleported".into());
        odd.status_updates.clear();
        let mut empty_cost = send(3);
        empty_cost.current_total_cost = String::new();
        let sends = [send(1), odd, empty_cost, send(4)];
        let mut rows = Rows::default();
        let at: Vec<u32> = sends.iter().map(|s| rows.push(s)).collect();
        let back: Vec<Send> = at.iter().filter_map(|&i| rows.send(i)).collect();
        assert_eq!(back, sends);
        // So the table and the export show exactly what the platform sent.
        assert_eq!(sends_csv(&back), sends_csv(&sends));
        // Shared values are kept once.
        assert_eq!(rows.senders.len(), 1);
        assert_eq!(rows.touches.len(), 1);
        assert!(rows
            .row(at[1])
            .is_some_and(|r| r.odd_cost && r.created_ms.is_none()));
        assert!(rows.row(at[0]).is_some_and(|r| r.cents == 2_500));
        assert!(rows.send(99).is_none());
    }
}
