//! The sends fetched so far, kept by their place in the platform's list counted from the
//! oldest send.
//!
//! The API has no server-side filters, so filters, the overview and the export all work over
//! what was loaded. The list is newest first and sends are never removed (docs/platform.md),
//! so a send that arrives only pushes the others down: a send's place counted from the
//! oldest (`total_count - 1 - offset`, from the answer that carried it) never changes. Kept
//! there, pages read at different times and page sizes line up while the platform moves, the
//! screen can say exactly which pages are covered, and a send fetched twice is kept once. Sends are kept as compact rows
//! ([`super::compact`]): a hundred thousand fit in a few tens of megabytes.

use std::collections::HashMap;

use gifting_api::rest::{page_count, Send};

use super::compact::Rows;
use crate::components::format::count;
use crate::i18n::{msg, t, M};

/// An empty position.
const NONE: u32 = u32::MAX;

#[derive(Clone, Debug, Default)]
pub(crate) struct LoadedSends {
    pub(crate) rows: Rows,
    /// Place counted from the oldest send (0-based) → its row in `rows`, or [`NONE`].
    slots: Vec<u32>,
    /// Send id → its place, so a send seen again moves instead of doubling.
    positions: HashMap<u64, u32>,
    /// Places filled.
    filled: usize,
    /// The platform's largest `total_count` seen (it only grows).
    total: Option<u64>,
    /// Rows replaced in place (sends changed on the platform), so such a change tells.
    replaced: u64,
    /// A walk read to the end of the list: every send from the oldest to its first page's
    /// newest is loaded (sends are never removed, so that stays so).
    walked: bool,
    /// A walk from the first page reached a send created before this day (`20261101`): every
    /// send created on it or later, as the list stood then, is loaded.
    since: Option<u32>,
}

impl PartialEq for LoadedSends {
    /// Same sends at the same positions (what a signal needs to tell a change).
    fn eq(&self, other: &Self) -> bool {
        self.total == other.total
            && self.filled == other.filled
            && self.rows.len() == other.rows.len()
            && self.replaced == other.replaced
            && self.walked == other.walked
            && self.since == other.since
            && self.slots == other.slots
    }
}

impl LoadedSends {
    /// Records one answer: `sends` of page `page` at `per_page`, with the list's `total` when
    /// it was read. Returns how many of them were not loaded before.
    pub(crate) fn insert_page(
        &mut self,
        page: u32,
        per_page: u32,
        total: u64,
        sends: &[Send],
    ) -> usize {
        // An answer read before a later one (a page fetched ahead) carries a smaller total:
        // its places are right all the same, counted from the oldest.
        self.total = Some(self.total.map_or(total, |t| t.max(total)));
        let offset = u64::from(page.max(1) - 1) * u64::from(per_page);
        let mut new = 0;
        for (i, send) in sends.iter().enumerate() {
            let Some(at) = total
                .checked_sub(offset + i as u64 + 1)
                .and_then(|at| u32::try_from(at).ok())
            else {
                break;
            };
            new += usize::from(!self.positions.contains_key(&send.id));
            self.put(at, send);
        }
        new
    }

    fn put(&mut self, at: u32, send: &Send) {
        if self.slots.len() <= at as usize {
            self.slots.resize(at as usize + 1, NONE);
        }
        let held = self.slots[at as usize];
        if held != NONE && self.rows.send(held).as_ref() == Some(send) {
            // Fetched again, unchanged: nothing new to keep.
            return;
        }
        if held != NONE && self.rows.row(held).is_some_and(|r| r.id == send.id) {
            // The same send, changed on the platform since (its status moved on): its row
            // now says what the platform says, and no second row is kept for it.
            self.rows.replace(held, send);
            self.replaced += 1;
            return;
        }
        if let Some(old_at) = self.positions.insert(send.id, at) {
            if old_at != at && self.slots[old_at as usize] != NONE {
                self.slots[old_at as usize] = NONE;
                self.filled -= 1;
            }
        }
        if held != NONE {
            if let Some(displaced) = self.rows.row(held).map(|r| r.id) {
                if displaced != send.id && self.positions.get(&displaced) == Some(&at) {
                    self.positions.remove(&displaced);
                }
            }
        } else {
            self.filled += 1;
        }
        self.slots[at as usize] = self.rows.push(send);
    }

    pub(crate) fn len(&self) -> usize {
        self.filled
    }

    pub(crate) fn total(&self) -> Option<u64> {
        self.total
    }

    /// Whether every send of the list is loaded.
    pub(crate) fn is_complete(&self) -> bool {
        self.total.is_some_and(|t| self.filled as u64 >= t)
    }

    /// A walk read to the end of the list (see [`LoadedSends::is_whole`]).
    pub(crate) fn mark_walked(&mut self) {
        self.walked = true;
    }

    /// Whether the send with this id is loaded.
    pub(crate) fn contains(&self, id: u64) -> bool {
        self.positions.contains_key(&id)
    }

    /// A walk back to `day` reached it (see `since`).
    pub(crate) fn mark_since(&mut self, day: u32) {
        self.since = Some(self.since.map_or(day, |d| d.min(day)));
    }

    /// Whether every send created on `day` or later is loaded (short only of sends that
    /// arrived after the walk that loaded them began).
    pub(crate) fn covers_since(&self, day: u32) -> bool {
        self.is_whole() || self.since.is_some_and(|d| d <= day)
    }

    /// The UTC offset (minutes) the newest loaded send is written in: the organisation's
    /// calendar, which the platform's timestamps keep.
    pub(crate) fn offset_minutes(&self) -> Option<i64> {
        let at = self.order().next()?;
        let row = self.rows.row(at)?;
        gifting_api::attention::offset_minutes(self.rows.created_at(row))
    }

    /// Whether the loaded sends are the list as it stood at one moment (a walk's end on a
    /// platform that moves, or every send from the oldest to the newest loaded), short only
    /// of sends that arrived since (some of which the screen's own pages may hold).
    pub(crate) fn is_whole(&self) -> bool {
        self.walked || (self.filled > 0 && self.filled == self.slots.len())
    }

    /// Whether the loaded sends hold every send `filter` keeps, so what matches is its whole
    /// answer (short only of sends that arrived after the list was read, which the screen
    /// counts and offers): one send by its id once loaded, the sends back to a first day once
    /// read back to it, anything else once the whole list is read.
    pub(crate) fn answers(&self, filter: &super::filter::SendFilter) -> bool {
        if filter.send.is_some_and(|id| self.contains(id)) {
            return true;
        }
        filter
            .since
            .map_or(self.is_whole(), |day| self.covers_since(day))
    }

    /// The pages (at `per_page`, by the largest total seen) holding a send not yet in a final
    /// status: the only sends that can still change (docs/platform.md), read again to keep
    /// what is held fresh (the platform has no read of one send).
    pub(crate) fn pages_in_progress(&self, per_page: u32) -> Vec<u32> {
        let Some(total) = self.total else {
            return Vec::new();
        };
        let moving: Vec<bool> = self.rows.statuses.map(|s| {
            matches!(
                s.group(),
                gifting_api::rest::StatusGroup::InProgress | gifting_api::rest::StatusGroup::Other
            )
        });
        let per_page = u64::from(per_page.max(1));
        let mut pages: Vec<u32> = self
            .slots
            .iter()
            .enumerate()
            .filter(|(_, &r)| {
                r != NONE
                    && self
                        .rows
                        .row(r)
                        .is_some_and(|row| moving[usize::from(row.status)])
            })
            .filter_map(|(place, _)| {
                let from_newest = total.checked_sub(place as u64 + 1)?;
                u32::try_from(from_newest / per_page + 1).ok()
            })
            .collect();
        pages.sort_unstable();
        pages.dedup();
        pages
    }

    /// The first page (at `per_page`) not wholly loaded: where a walk to the end resumes.
    pub(crate) fn first_missing_page(&self, per_page: u32) -> u64 {
        let complete = self.complete_pages(per_page);
        complete
            .iter()
            .enumerate()
            .find(|(i, &p)| p != *i as u64 + 1)
            .map_or(complete.len() as u64 + 1, |(i, _)| i as u64 + 1)
    }

    /// Sends on the platform newer than the newest loaded (arrived since), when whole.
    pub(crate) fn newer(&self) -> u64 {
        self.total.unwrap_or(0).saturating_sub(self.filled as u64)
    }

    /// The loaded sends' rows (indices into [`LoadedSends::rows`]) in the platform's order
    /// (newest first).
    pub(crate) fn order(&self) -> impl Iterator<Item = u32> + '_ {
        self.slots.iter().rev().copied().filter(|&r| r != NONE)
    }

    /// The loaded sends themselves, in the platform's order (tests compare them).
    #[cfg(test)]
    pub(crate) fn sends(&self) -> Vec<Send> {
        self.order().filter_map(|r| self.rows.send(r)).collect()
    }

    /// Pages (1-based, at `per_page`) whose every row is loaded.
    pub(crate) fn complete_pages(&self, per_page: u32) -> Vec<u64> {
        let Some(total) = self.total else {
            return Vec::new();
        };
        let per_page = u64::from(per_page.max(1));
        (1..=page_count(total, per_page as u32))
            .filter(|&p| {
                let start = (p - 1) * per_page;
                let end = (p * per_page).min(total);
                // Places counted from the oldest.
                let (low, high) = ((total - end) as usize, (total - start) as usize);
                end > start
                    && self
                        .slots
                        .get(low..high)
                        .is_some_and(|s| s.iter().all(|&r| r != NONE))
            })
            .collect()
    }

    /// "pages 1–3 of 12 at 25 a page, 75 of 300 sends": what the loaded sends cover.
    pub(crate) fn coverage_text(&self, per_page: u32) -> String {
        let Some(total) = self.total else {
            return t(M::SendsCoverageNone).into();
        };
        if total == 0 {
            return t(M::SendsCoverageEmpty).into();
        }
        let loaded = count(self.filled as u64);
        let pages = self.complete_pages(per_page);
        if pages.is_empty() {
            return msg::sends_coverage_sends(&loaded, total);
        }
        msg::sends_coverage_pages(
            pages.len() as u64,
            &page_ranges(&pages),
            &count(page_count(total, per_page)),
            &count(u64::from(per_page)),
            &loaded,
            total,
        )
    }
}

/// `[1, 2, 3, 5, 7, 8]` → `"1–3, 5, 7–8"`.
pub(crate) fn page_ranges(pages: &[u64]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < pages.len() {
        let start = pages[i];
        let mut end = start;
        while i + 1 < pages.len() && pages[i + 1] == end + 1 {
            i += 1;
            end = pages[i];
        }
        parts.push(if start == end {
            count(start)
        } else {
            format!("{}\u{2013}{}", count(start), count(end))
        });
        i += 1;
    }
    parts.join(", ")
}

#[cfg(test)]
pub(crate) mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use gifting_api::rest::{Recipient, SendTouch, Sender, StatusUpdate};
    use gifting_api::{SendStatus, SendSubtype, SendType};

    /// A send for tests; the caller changes what it cares about.
    pub(crate) fn send(id: u64) -> Send {
        Send {
            id,
            send_gid: format!("snd_{id}"),
            kind: SendType::EGiftsUsa,
            subtype: SendSubtype::EGiftCardsUsa,
            currency: "USD".into(),
            current_total_cost: "25.00".into(),
            status: SendStatus::Delivered,
            created_at: "2026-03-01T14:05:00+00:00".into(),
            touch: SendTouch {
                id: 7,
                name: "Spring thank-you".into(),
            },
            recipient: Recipient {
                name: format!("Recipient {id}"),
                email: format!("r{id}@example.org"),
                company_name: "Acme".into(),
            },
            sender: Sender {
                id: 3,
                name: "Sam Lee".into(),
                email: "sam@example.com".into(),
                team_id: 1,
                team_name: "Sales".into(),
            },
            sent_via: "web".into(),
            status_updates: vec![
                StatusUpdate {
                    status: SendStatus::Pending,
                    occurred_at: "2026-03-01T14:05:00+00:00".into(),
                },
                StatusUpdate {
                    status: SendStatus::Delivered,
                    occurred_at: "2026-03-02T09:00:00+00:00".into(),
                },
            ],
        }
    }

    /// Sends `ids` as the platform lists them: newest (highest id) first.
    fn newest_first(range: std::ops::RangeInclusive<u64>) -> Vec<Send> {
        range.rev().map(send).collect()
    }

    #[wasm_bindgen_test]
    fn a_walk_back_to_a_day_covers_that_day_and_later_only() {
        let mut loaded = LoadedSends::default();
        let mut page = newest_first(11..=20);
        page[0].created_at = "2026-11-03T09:00:00-05:00".into();
        loaded.insert_page(1, 10, 20, &page);
        assert_eq!(
            loaded.offset_minutes(),
            Some(-300),
            "the newest send's offset"
        );
        assert!(!loaded.covers_since(20261101));
        loaded.mark_since(20261015);
        loaded.mark_since(20261020);
        assert!(loaded.covers_since(20261015) && loaded.covers_since(20261101));
        assert!(
            !loaded.covers_since(20261014),
            "an earlier day is not covered"
        );
        assert!(!loaded.is_whole(), "the older sends are not loaded");
    }

    #[wasm_bindgen_test]
    fn pages_of_any_size_line_up_by_position() {
        // 63 sends, ids 1..=63, newest first: row r holds send 63 - r.
        let rows = |a: u64, b: u64| newest_first(64 - b..=63 - a);
        let mut loaded = LoadedSends::default();
        assert_eq!(loaded.coverage_text(25), "No sends loaded yet");
        assert_eq!(loaded.insert_page(1, 25, 63, &rows(0, 25)), 25);
        assert_eq!(loaded.complete_pages(25), vec![1]);
        assert_eq!(
            loaded.coverage_text(25),
            "page 1 of 3 at 25 a page, 25 of 63 sends"
        );
        // Page 3 at 25 is rows 50..63.
        loaded.insert_page(3, 25, 63, &rows(50, 63));
        assert_eq!(loaded.complete_pages(25), vec![1, 3]);
        // Page 2 at 10 (rows 10..20) is already there: nothing doubles.
        assert_eq!(loaded.insert_page(2, 10, 63, &rows(10, 20)), 0);
        assert_eq!(loaded.len(), 38);
        // At 10 a page, pages 1-2 (rows 0..20) and 6-7 (rows 50..63) are complete.
        assert_eq!(loaded.complete_pages(10), vec![1, 2, 6, 7]);
        assert_eq!(
            loaded.coverage_text(10),
            "pages 1–2, 6–7 of 7 at 10 a page, 38 of 63 sends"
        );
        assert!(!loaded.is_complete());
        loaded.insert_page(1, 100, 63, &rows(0, 63));
        assert!(loaded.is_complete());
        assert_eq!(loaded.len(), 63);
        assert_eq!(
            loaded.sends(),
            newest_first(1..=63),
            "each send reads back whole, in order"
        );
    }

    #[wasm_bindgen_test]
    fn sends_arriving_between_pages_push_the_others_down_and_nothing_doubles_or_goes() {
        let mut loaded = LoadedSends::default();
        // Sends 1..=6; page 1 at 3 is 6, 5, 4.
        loaded.insert_page(1, 3, 6, &newest_first(4..=6));
        // Sends 7 and 8 arrive: page 2 at 3 is now 5, 4, 3 and page 3 is 2, 1.
        assert_eq!(loaded.insert_page(2, 3, 8, &newest_first(3..=5)), 1);
        assert_eq!(loaded.insert_page(3, 3, 8, &newest_first(1..=2)), 2);
        assert_eq!(
            loaded.len(),
            6,
            "every send of the list as it was, each once"
        );
        assert_eq!(loaded.sends(), newest_first(1..=6));
        assert_eq!(loaded.total(), Some(8));
        assert!(!loaded.is_complete(), "the two newer ones are not loaded");
        assert!(
            loaded.is_whole(),
            "every send from the oldest to the newest loaded"
        );
        assert_eq!(loaded.newer(), 2);
        // An answer read earlier (a smaller total) still lines up.
        assert_eq!(loaded.insert_page(2, 3, 6, &newest_first(1..=3)), 0);
        assert_eq!(loaded.insert_page(1, 3, 8, &newest_first(6..=8)), 2);
        assert!(loaded.is_complete());
        assert_eq!(loaded.sends(), newest_first(1..=8));
        // The same page again, unchanged, keeps nothing new.
        let rows = loaded.rows.len();
        loaded.insert_page(1, 3, 8, &newest_first(6..=8));
        assert_eq!(loaded.rows.len(), rows);
    }

    #[wasm_bindgen_test]
    fn a_send_seen_at_a_new_position_moves() {
        let mut loaded = LoadedSends::default();
        loaded.insert_page(1, 3, 6, &[send(0), send(1), send(2)]);
        // Same total, but send 2 now shows at row 3 (and row 2 holds send 9).
        loaded.insert_page(2, 3, 6, &[send(2), send(4), send(5)]);
        loaded.insert_page(1, 3, 6, &[send(0), send(1), send(9)]);
        let order: Vec<u64> = loaded.sends().iter().map(|s| s.id).collect();
        assert_eq!(order, vec![0, 1, 9, 2, 4, 5]);
    }

    #[wasm_bindgen_test]
    fn a_send_changed_on_the_platform_replaces_its_row() {
        let mut loaded = LoadedSends::default();
        loaded.insert_page(1, 3, 3, &(0..3).map(send).collect::<Vec<_>>());
        let before = loaded.clone();
        let rows = loaded.rows.len();
        let mut changed = send(1);
        changed.current_total_cost = "99.00".into();
        changed.recipient.name = "Renamed".into();
        loaded.insert_page(1, 3, 3, &[send(0), changed.clone(), send(2)]);
        assert_eq!(loaded.rows.len(), rows, "no second row for send 1");
        assert_eq!(loaded.sends(), vec![send(0), changed, send(2)]);
        assert_eq!(loaded.len(), 3);
        assert!(loaded != before, "the change tells");
    }

    #[wasm_bindgen_test]
    fn the_pages_read_again_are_those_holding_a_send_in_progress() {
        let mut loaded = LoadedSends::default();
        // 30 sends, ids 1..=30, newest first; 23 and 4 are in progress.
        let sends: Vec<Send> = newest_first(1..=30)
            .into_iter()
            .map(|mut s| {
                if s.id == 23 || s.id == 4 {
                    s.status = gifting_api::SendStatus::Processing;
                }
                s
            })
            .collect();
        loaded.insert_page(1, 100, 30, &sends);
        // At 10 a page: send 23 is the 8th newest (page 1), send 4 the 27th (page 3).
        assert_eq!(loaded.pages_in_progress(10), vec![1, 3]);
        // Two sends arrive: the pages are counted by the largest total seen.
        loaded.insert_page(1, 10, 32, &newest_first(31..=32));
        assert_eq!(loaded.pages_in_progress(10), vec![1, 3]);
        assert_eq!(loaded.first_missing_page(10), 5, "every page held");
        let mut partial = LoadedSends::default();
        partial.insert_page(2, 10, 63, &newest_first(44..=53));
        assert_eq!(partial.first_missing_page(10), 1);
        partial.insert_page(1, 10, 63, &newest_first(54..=63));
        assert_eq!(partial.first_missing_page(10), 3);
    }

    #[wasm_bindgen_test]
    fn empty_list_and_partial_pages_read_right() {
        let mut loaded = LoadedSends::default();
        loaded.insert_page(1, 25, 0, &[]);
        assert_eq!(loaded.coverage_text(25), "The platform has no sends");
        assert!(loaded.is_complete());
        let mut partial = LoadedSends::default();
        partial.insert_page(2, 10, 63, &(10..20).map(send).collect::<Vec<_>>());
        assert_eq!(partial.coverage_text(25), "10 of 63 sends loaded");
        assert_eq!(page_ranges(&[1, 2, 3, 5, 7, 8]), "1–3, 5, 7–8");
        assert_eq!(page_ranges(&[]), "");
    }
}
