//! The CSV writer's formula guard, checked as the files are really read: rows of generated
//! fields (rich in formula triggers, separators, quotes and line breaks) are written with the
//! real writer, then read back with the `csv` crate under every separator a spreadsheet may
//! guess (`,`, `;`, tab) and every way it may treat quotes (RFC 4180 quoting, quotes as plain
//! text, quoting with backslash escapes). No cell any of these readers sees may run as a
//! formula, and the comma reader the file is written for gets every field back.

use gifting_api::csv::push_row;
use gifting_api::money::Decimal;
use proptest::prelude::*;

/// How a reader treats `"`.
#[derive(Clone, Copy, Debug)]
enum Quoting {
    Rfc4180,
    Ignored,
    BackslashEscapes,
}

const SEPARATORS: [u8; 3] = [b',', b';', b'\t'];
const QUOTINGS: [Quoting; 3] = [
    Quoting::Rfc4180,
    Quoting::Ignored,
    Quoting::BackslashEscapes,
];

/// Every row a reader splitting at `separator` sees, as lenient as a spreadsheet program
/// opening a file of another separator.
fn read_back(text: &str, separator: u8, quoting: Quoting) -> Vec<Vec<String>> {
    let mut builder = csv::ReaderBuilder::new();
    builder
        .has_headers(false)
        .flexible(true)
        .delimiter(separator);
    match quoting {
        Quoting::Rfc4180 => {}
        Quoting::Ignored => {
            builder.quoting(false);
        }
        Quoting::BackslashEscapes => {
            builder.escape(Some(b'\\'));
        }
    }
    builder
        .from_reader(text.as_bytes())
        .byte_records()
        .map(|record| {
            let record = record.expect("the csv crate reads any bytes as some record");
            record
                .iter()
                .map(|cell| String::from_utf8_lossy(cell).into_owned())
                .collect()
        })
        .collect()
}

/// Whether a spreadsheet could take `cell` for a formula. `=`, `+`, `-` and `@` start one
/// (OWASP's CSV injection list, which adds tab and CR: programs that drop a leading tab or CR
/// then read what follows). Programs also drop leading spaces and quotes (a reader that
/// ignores quoting keeps them as text; one with escapes drops backslashes), so those are
/// looked through. A plain number such as a cost of `-5.00` is no formula.
fn runs_as_formula(cell: &str) -> bool {
    if cell.trim() == cell && Decimal::parse(cell).is_some() {
        return false;
    }
    for c in cell.chars() {
        match c {
            '=' | '+' | '-' | '@' | '\t' | '\r' => return true,
            '"' | '\\' => {}
            c if c.is_whitespace() => {}
            _ => return false,
        }
    }
    false
}

fn write(rows: &[Vec<String>]) -> String {
    let mut text = String::new();
    for row in rows {
        push_row(&mut text, row);
    }
    text
}

/// Asserts that no reader sees a formula in `text`.
fn assert_no_formula(text: &str) -> Result<(), TestCaseError> {
    for separator in SEPARATORS {
        for quoting in QUOTINGS {
            for row in read_back(text, separator, quoting) {
                for cell in row {
                    prop_assert!(
                        !runs_as_formula(&cell),
                        "{cell:?} read with {:?} and {quoting:?} from {text:?}",
                        separator as char
                    );
                }
            }
        }
    }
    Ok(())
}

/// The pieces fields are made of: formula triggers, separators, quotes, line breaks, a
/// classic payload, and ordinary text.
fn field() -> impl Strategy<Value = String> {
    const PIECES: &[&str] = &[
        "=",
        "+",
        "-",
        "@",
        "\t",
        "\r",
        "\n",
        "\r\n",
        ",",
        ";",
        "\"",
        "'",
        "|",
        " ",
        "\\",
        "\u{a0}",
        "a",
        "Bob",
        "Zoë",
        "5",
        ".",
        "-5.00",
        "cmd|' /C calc'!A0",
        "SUM(A1)",
    ];
    prop::collection::vec(prop::sample::select(PIECES), 0..10).prop_map(|p| p.concat())
}

fn rows() -> impl Strategy<Value = Vec<Vec<String>>> {
    prop::collection::vec(prop::collection::vec(field(), 2..5), 1..4)
}

proptest! {
    // At least 1,024 cases; `PROPTEST_CASES` asks for more.
    #![proptest_config(ProptestConfig {
        cases: ProptestConfig::default().cases.max(1024),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn no_reader_sees_a_formula(rows in rows()) {
        assert_no_formula(&write(&rows))?;
    }

    #[test]
    fn the_comma_reader_gets_every_field_back(rows in rows()) {
        let read = read_back(&write(&rows), b',', Quoting::Rfc4180);
        prop_assert_eq!(read.len(), rows.len());
        for (got, sent) in read.iter().zip(&rows) {
            prop_assert_eq!(got.len(), sent.len());
            for (cell, field) in got.iter().zip(sent) {
                // The guard only ever adds apostrophes.
                prop_assert_eq!(cell.replace('\'', ""), field.replace('\'', ""));
            }
        }
    }
}

/// The issue's payloads, as they came: after a `;` and a quote, and after a tab.
#[test]
fn the_reported_payloads_are_guarded() {
    let payloads = [
        "a;\"=cmd|' /C calc'!A0",
        "a\t=cmd|' /C calc'!A0",
        "a;\"\"@SUM(A1)",
        "a; \"-2+3",
    ];
    for payload in payloads {
        let rows = vec![vec!["x".to_owned(), payload.to_owned(), "y".to_owned()]];
        let text = write(&rows);
        if let Err(e) = assert_no_formula(&text) {
            panic!("{payload:?}: {e}");
        }
    }
}
