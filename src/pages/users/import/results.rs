//! The results as a file: the original columns of every row, then its outcome and message,
//! written by the console's CSV rules ([`gifting_api::csv`]), so a cell such as
//! `=HYPERLINK(…)` from the HR export reads back as text, never as a formula.
//!
//! For machines, the added columns' headers (`outcome`, `message`, `before`, `after`) and the
//! outcome words (`created`, `not run`, …) stay English whatever the language; the messages
//! and the before and after are written in the language of the moment.

use gifting_api::csv::{push_row, BOM};

use super::parse::Table;
use super::run_job::Outcome;
use crate::i18n::{t, M};

/// One absent user the run deactivated (or tried to), after the file's rows.
pub(crate) struct AbsentResult<'a> {
    pub(crate) email: &'a str,
    pub(crate) outcome: &'a Outcome,
}

/// The user before and after each write that landed, by row index (absent users after the
/// rows), in a few words.
pub(crate) type BeforeAfter = std::collections::HashMap<usize, (String, String)>;

/// The whole file: a byte order mark (spreadsheets then read UTF-8), CRLF line ends.
/// `email_column` places an absent user's email under the file's own email header.
pub(crate) fn results_csv(
    table: &Table,
    outcomes: &[Option<Outcome>],
    absent: &[AbsentResult<'_>],
    states: &BeforeAfter,
    email_column: Option<usize>,
) -> String {
    let state = |i: usize| {
        states
            .get(&i)
            .map_or(("", ""), |(b, a)| (b.as_str(), a.as_str()))
    };
    let mut out = String::from(BOM);
    let width = table.header.len();
    let header = table
        .header
        .iter()
        .map(String::as_str)
        .chain(["outcome", "message", "before", "after"]);
    push_row(&mut out, header);
    for (n, (row, outcome)) in table.rows.iter().zip(outcomes).enumerate() {
        let (word, message) = match outcome {
            Some(o) => (o.word(), o.message()),
            None => ("not run", t(M::ImportNotWrittenYet).to_owned()),
        };
        let (before, after) = state(n);
        let cells = (0..width).map(|i| row.cells.get(i).map_or("", String::as_str));
        push_row(
            &mut out,
            cells.chain([word, message.as_str(), before, after]),
        );
    }
    for (k, user) in absent.iter().enumerate() {
        let message = user.outcome.message();
        let (before, after) = state(outcomes.len() + k);
        let cells = (0..width).map(|i| {
            if Some(i) == email_column {
                user.email
            } else {
                ""
            }
        });
        push_row(
            &mut out,
            cells.chain([user.outcome.word(), message.as_str(), before, after]),
        );
    }
    out
}

/// `import-results-2026-03-01.csv`.
pub(crate) fn file_name(local_date: &str) -> String {
    format!("import-results-{local_date}.csv")
}

#[cfg(test)]
mod tests {
    use super::super::fate::Problem;
    use super::super::parse::read_all;
    use super::super::run_job::Skip;
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn original_columns_then_outcome_and_message_read_back_intact() {
        let table = read_all(
            "Email;Name;Note\r\na@example.com;\"Ann, \"\"A\"\"\";=HYPERLINK(\"x\")\r\nb@x;Bo\r\n",
        )
        .unwrap();
        let outcomes = vec![
            Some(Outcome::Created { confirmed: false }),
            Some(Outcome::Skipped(Skip::Refused(Problem::MissingEmail))),
        ];
        let gone = Outcome::Deactivated;
        let absent = [AbsentResult {
            email: "old@example.com",
            outcome: &gone,
        }];
        let states = BeforeAfter::from([
            (0, (String::new(), "sender · Sales · active".to_owned())),
            (
                2,
                (
                    "sender · Sales · active".to_owned(),
                    "sender · Sales · inactive".to_owned(),
                ),
            ),
        ]);
        let text = results_csv(&table, &outcomes, &absent, &states, Some(0));
        let back = read_all(text.strip_prefix('\u{feff}').unwrap()).unwrap();
        assert_eq!(
            back.header,
            ["Email", "Name", "Note", "outcome", "message", "before", "after"]
        );
        assert_eq!(
            back.rows[0].cells[6], "sender · Sales · active",
            "after the create"
        );
        assert_eq!(back.rows[1].cells[5], "", "nothing written, no before");
        assert_eq!(back.rows[2].cells[5], "sender · Sales · active");
        assert_eq!(back.rows[2].cells[6], "sender · Sales · inactive");
        assert_eq!(back.rows.len(), 3);
        assert_eq!(back.rows[0].cells[1], "Ann, \"A\"");
        assert_eq!(
            back.rows[0].cells[2], "'=HYPERLINK(\"x\")",
            "the formula guard"
        );
        assert_eq!(back.rows[0].cells[3], "created");
        assert_eq!(back.rows[1].cells[2], "", "a short row is padded");
        assert_eq!(back.rows[1].cells[3], "skipped");
        assert_eq!(back.rows[2].cells[0], "old@example.com");
        assert_eq!(back.rows[2].cells[3], "deactivated");
        assert!(text.ends_with("\r\n"));
        assert_eq!(file_name("2026-03-01"), "import-results-2026-03-01.csv");
    }
}
