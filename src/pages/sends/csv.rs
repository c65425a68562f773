//! The sends export: CSV built in the browser, one row per send.
//!
//! - Written by the console's CSV rules ([`gifting_api::csv`]): quoting, the byte order
//!   mark, and the formula guard (recipient names are typed by outsiders).
//! - Timestamps stay as the platform sent them (ISO 8601 with offset), so the file sorts and
//!   imports the same in every time zone.
//! - The status history is one column: `status @ time` entries joined by `"; "`, oldest first.

use gifting_api::csv::{push_row, BOM};
use gifting_api::rest::Send;

use super::loaded::LoadedSends;

/// The header row. Every cell below it is written by [`push_row`], so e.g. a recipient named
/// `=HYPERLINK(…)` reads back as `'=HYPERLINK(…)`.
pub(crate) const HEADER: [&str; 19] = [
    "send_id",
    "send_gid",
    "created_at",
    "recipient_name",
    "recipient_email",
    "recipient_company",
    "sender_id",
    "sender_name",
    "sender_email",
    "sender_team",
    "campaign_id",
    "campaign_name",
    "type",
    "subtype",
    "status",
    "status_group",
    "currency",
    "current_total_cost",
    "status_history",
];

/// The whole file, header row first (the export builds the same in slices: [`CsvSlices`]).
#[cfg(test)]
pub(crate) fn sends_csv<'a>(sends: impl IntoIterator<Item = &'a Send>) -> String {
    let mut out = head();
    for send in sends {
        push_row(&mut out, row(send));
    }
    out
}

/// The byte order mark and the header row: the file's first part.
pub(crate) fn head() -> String {
    let mut out = String::new();
    out.push(BOM);
    push_row(&mut out, HEADER);
    out
}

/// Rows written between two looks at the clock.
const ROWS_PER_CHECK: usize = 64;

/// The export of many sends, built a slice at a time so the page is never blocked for long:
/// the caller yields to the browser between slices. The rows are the loaded sends' rows to
/// write, in order; each slice is the text of the next rows, up to where `more` says stop.
pub(crate) struct CsvSlices {
    rows: Vec<u32>,
    next: usize,
}

impl CsvSlices {
    pub(crate) fn new(rows: Vec<u32>) -> Self {
        CsvSlices { rows, next: 0 }
    }

    /// Rows written so far, and in all.
    pub(crate) fn progress(&self) -> (usize, usize) {
        (self.next, self.rows.len())
    }

    /// The next slice: rows until `more()` answers false (asked every [`ROWS_PER_CHECK`] rows,
    /// so at least that many go into a slice); `None` once every row is written.
    pub(crate) fn next_slice(
        &mut self,
        loaded: &LoadedSends,
        mut more: impl FnMut() -> bool,
    ) -> Option<String> {
        if self.next >= self.rows.len() {
            return None;
        }
        let mut out = String::new();
        loop {
            let end = (self.next + ROWS_PER_CHECK).min(self.rows.len());
            for &at in &self.rows[self.next..end] {
                // A row gone (the loaded sends started over meanwhile) is left out.
                if let Some(send) = loaded.rows.send(at) {
                    push_row(&mut out, row(&send));
                }
            }
            self.next = end;
            if self.next >= self.rows.len() || !more() {
                return Some(out);
            }
        }
    }
}

fn row(send: &Send) -> [String; 19] {
    [
        send.id.to_string(),
        send.send_gid.clone(),
        send.created_at.clone(),
        send.recipient.name.clone(),
        send.recipient.email.clone(),
        send.recipient.company_name.clone(),
        send.sender.id.to_string(),
        send.sender.name.clone(),
        send.sender.email.clone(),
        send.sender.team_name.clone(),
        send.touch.id.to_string(),
        send.touch.name.clone(),
        send.kind.to_string(),
        send.subtype.to_string(),
        send.status.to_string(),
        send.status.group().label().to_string(),
        send.currency.clone(),
        send.current_total_cost.clone(),
        history(send),
    ]
}

/// `"pending @ 2026-03-01T14:05:00+00:00; Delivered @ 2026-03-02T09:00:00+00:00"`
pub(crate) fn history(send: &Send) -> String {
    send.status_updates
        .iter()
        .map(|u| format!("{} @ {}", u.status, u.occurred_at))
        .collect::<Vec<_>>()
        .join("; ")
}

/// `sends-2026-03-01.csv` for the given local date (`YYYY-MM-DD`), with what the rows were
/// filtered by (`filtered`, from [`crate::pages::sends::filter::SendFilter::file_part`]) before
/// the extension: two exports of one day under different filters are told apart.
pub(crate) fn file_name(local_date: &str, filtered: &str) -> String {
    format!("sends-{local_date}{filtered}.csv")
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::pages::sends::loaded::tests::send;

    /// A small RFC 4180 reader, so the tests check what a consumer would read back.
    fn parse(text: &str) -> Vec<Vec<String>> {
        let text = text.strip_prefix(BOM).expect("BOM first");
        let mut rows = Vec::new();
        let mut row = Vec::new();
        let mut field = String::new();
        let mut quoted = false;
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match (quoted, c) {
                (true, '"') if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                (true, '"') => quoted = false,
                (true, c) => field.push(c),
                (false, '"') => quoted = true,
                (false, ',') => row.push(std::mem::take(&mut field)),
                (false, '\r') => {
                    assert_eq!(chars.next(), Some('\n'), "CR only before LF");
                    row.push(std::mem::take(&mut field));
                    rows.push(std::mem::take(&mut row));
                }
                (false, c) => field.push(c),
            }
        }
        assert!(row.is_empty() && field.is_empty(), "file ends with CRLF");
        rows
    }

    #[wasm_bindgen_test]
    fn one_row_per_send_and_hostile_text_reads_back_intact() {
        let mut a = send(30001);
        a.recipient.name = "O'Reilly \"Quoted\", Partners\r\n<b>x</b>".into();
        a.recipient.company_name = "=cmd|' /C calc'!A0".into();
        let b = send(30002);
        let text = sends_csv([&a, &b]);
        assert!(text.ends_with("\r\n"));
        let rows = parse(&text);
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[0], HEADER.map(String::from).to_vec());
        assert!(rows.iter().all(|r| r.len() == HEADER.len()));
        assert_eq!(rows[1][0], "30001");
        assert_eq!(rows[1][3], a.recipient.name);
        assert_eq!(rows[1][5], "'=cmd|' /C calc'!A0");
        assert_eq!(rows[1][15], "Delivered or used");
        assert_eq!(
            rows[1][18],
            "pending @ 2026-03-01T14:05:00+00:00; Delivered @ 2026-03-02T09:00:00+00:00"
        );
        assert_eq!(rows[2][0], "30002");
        assert_eq!(file_name("2026-03-01", ""), "sends-2026-03-01.csv");
        assert_eq!(
            file_name("2026-03-01", "-status-problem"),
            "sends-2026-03-01-status-problem.csv"
        );
        assert_eq!(parse(&sends_csv(std::iter::empty())).len(), 1);
    }

    #[wasm_bindgen_test]
    fn slices_add_up_to_the_whole_file() {
        let sends: Vec<Send> = (0..300).map(send).collect();
        let mut loaded = LoadedSends::default();
        loaded.insert_page(1, 300, 300, &sends);
        let rows: Vec<u32> = loaded.order().collect();
        let mut slices = CsvSlices::new(rows);
        assert_eq!(slices.progress(), (0, 300));
        let mut text = head();
        let mut count = 0;
        // Stop after every second look at the clock: slices of 128 rows.
        let mut looks = 0;
        while let Some(slice) = slices.next_slice(&loaded, || {
            looks += 1;
            looks % 2 != 0
        }) {
            count += 1;
            text.push_str(&slice);
        }
        assert_eq!(count, 3);
        assert_eq!(slices.progress(), (300, 300));
        assert_eq!(text, sends_csv(&sends));
        assert!(slices.next_slice(&loaded, || true).is_none());
    }
}
