//! CSV the console writes (the sends export, the import's results file): RFC 4180 with CRLF line
//! ends and a UTF-8 byte order mark (spreadsheet programs then read "Zoë" or Arabic text as
//! UTF-8), safe from formula injection whatever separator the reader uses. Files are read with
//! the `csv` crate (the import); they are written here, by the rules below, which the `csv`
//! crate's writer cannot be told (it quotes only around its own separator).
//!
//! - A field holding a quote, `,`, `;`, a tab, CR or LF is quoted, its quotes doubled. Many
//!   European locales read `;` as the separator: an unquoted `Bob;=cmd|…` would be two cells
//!   there, the second a formula.
//! - A field starting with `=`, `+`, `-`, `@`, a tab or CR (after any spaces) would run as a
//!   formula when the file is opened in a spreadsheet (OWASP's CSV injection advice): it is
//!   prefixed with `'`, which spreadsheets show as plain text, and so is such text after a
//!   separator or line break inside a field (where a reader of the other separator may start
//!   a cell). A plain decimal number (a cost of "-5.00") is no formula and stays as it is.

use std::borrow::Cow;

use gifting_api::money::Decimal;

/// The byte order mark every file starts with.
pub(crate) const BOM: char = '\u{feff}';

/// Appends one row: each field neutralised and quoted as needed, CRLF at the end.
pub(crate) fn push_row<S: AsRef<str>>(out: &mut String, fields: impl IntoIterator<Item = S>) {
    for (i, field) in fields.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_field(out, field.as_ref());
    }
    out.push_str("\r\n");
}

/// One field, neutralised and quoted as needed.
#[cfg(test)]
pub(crate) fn field_text(raw: &str) -> String {
    let mut out = String::new();
    push_field(&mut out, raw);
    out
}

fn push_field(out: &mut String, raw: &str) {
    let safe = neutralise_formula(raw);
    // Byte tests rather than `str::contains` with a set of chars: several times faster in the
    // wasm, and an export writes millions of fields.
    if safe
        .bytes()
        .any(|b| matches!(b, b'"' | b',' | b';' | b'\t' | b'\r' | b'\n'))
    {
        out.push('"');
        out.push_str(&safe.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(&safe);
    }
}

/// A character a spreadsheet reads as the start of a formula, at a cell's start.
fn starts_formula(b: u8) -> bool {
    matches!(b, b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r')
}

/// `=1+1` → `'=1+1`; `-5.00` stays (a number, not a formula). Within a field, text after a
/// `,`, `;` or line break is guarded the same way (`a;=1` → `a;'=1`): a reader splitting at
/// the other separator loses track of the quotes after the first quoted field and can start a
/// cell there.
fn neutralise_formula(raw: &str) -> Cow<'_, str> {
    // Most fields hold none of the characters that start a formula: an export writes millions.
    if !raw.bytes().any(starts_formula) || Decimal::parse(raw).is_some() {
        return Cow::Borrowed(raw);
    }
    // The characters that matter are ASCII, so byte positions are character boundaries.
    let mut out: Option<String> = None;
    let mut copied = 0;
    // Where the cell a reader could see here starts (its spaces included), while only spaces
    // have followed it.
    let mut cell_start = Some(0);
    for (i, &b) in raw.as_bytes().iter().enumerate() {
        if let Some(at) = cell_start {
            if starts_formula(b) {
                let out = out.get_or_insert_with(|| String::with_capacity(raw.len() + 4));
                out.push_str(&raw[copied..at]);
                out.push('\'');
                copied = at;
            }
            if b != b' ' {
                cell_start = None;
            }
        }
        if matches!(b, b',' | b';' | b'\r' | b'\n') {
            cell_start = Some(i + 1);
        }
    }
    match out {
        None => Cow::Borrowed(raw),
        Some(mut out) => {
            out.push_str(&raw[copied..]);
            Cow::Owned(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    /// The rows a reader splitting at `separator` sees (the `csv` crate, as lenient as a
    /// spreadsheet program with a file of another separator).
    fn read_back(text: &str, separator: u8) -> Vec<Vec<String>> {
        csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .delimiter(separator)
            .from_reader(text.as_bytes())
            .records()
            .map(|r| {
                r.map(|r| r.iter().map(str::to_owned).collect())
                    .unwrap_or_default()
            })
            .collect()
    }

    const HOSTILE: [&str; 12] = [
        "Bob;=cmd|' /C calc'!A0",
        "=HYPERLINK(\"x\")",
        "a,b",
        "tab\t=1",
        "\t=1",
        "@SUM(A1)",
        "-2+3",
        " =1+1",
        "say \"hi\"; =2",
        "two\nlines;@3",
        "-5.00",
        "plain",
    ];

    #[wasm_bindgen_test]
    fn no_cell_reads_as_a_formula_with_either_separator() {
        let mut text = String::new();
        push_row(&mut text, HOSTILE);
        push_row(&mut text, HOSTILE.iter().rev());
        for separator in [b',', b';'] {
            for row in read_back(&text, separator) {
                for cell in row {
                    let start = cell.trim_start_matches(' ');
                    let formula = start.starts_with(['=', '+', '-', '@', '\t', '\r'])
                        && Decimal::parse(&cell).is_none();
                    assert!(!formula, "{cell:?} read with {:?}", separator as char);
                }
            }
        }
        // Read with its own separator, every field comes back whole, formulas as text.
        let rows = read_back(&text, b',');
        assert_eq!(rows.len(), 2);
        let expected: Vec<String> = HOSTILE
            .iter()
            .map(|f| neutralise_formula(f).into_owned())
            .collect();
        assert_eq!(rows[0], expected);
        assert_eq!(rows[0][0], "Bob;'=cmd|' /C calc'!A0");
    }

    #[wasm_bindgen_test]
    fn quotes_what_needs_quoting_and_nothing_else() {
        let cases = [
            ("plain", "plain"),
            ("a,b", "\"a,b\""),
            ("a;b", "\"a;b\""),
            ("a\tb", "\"a\tb\""),
            ("say \"hi\"", "\"say \"\"hi\"\"\""),
            ("two\nlines", "\"two\nlines\""),
            ("cr\rhere", "\"cr\rhere\""),
            ("<script>alert(1)</script>", "<script>alert(1)</script>"),
            ("=1,2", "\"'=1,2\""),
        ];
        for (text, expected) in cases {
            assert_eq!(field_text(text), expected, "{text:?}");
        }
    }

    #[wasm_bindgen_test]
    fn formulas_are_neutralised_but_numbers_are_not() {
        // (text, whether a spreadsheet would run it, so it gets a leading apostrophe)
        let cases = [
            ("=HYPERLINK(\"x\")", true),
            ("+1", false),
            ("+1+cmd|' /C calc'!A0", true),
            ("-2+3", true),
            ("@SUM(A1)", true),
            ("\t=1", true),
            ("  =1", true),
            ("-5.00", false),
            ("a=b", false),
        ];
        for (text, formula) in cases {
            let expected = if formula {
                format!("'{text}")
            } else {
                text.to_owned()
            };
            assert_eq!(neutralise_formula(text), expected, "{text:?}");
        }
        assert_eq!(neutralise_formula("Bob;=cmd"), "Bob;'=cmd");
        assert_eq!(neutralise_formula("a, -1\n@x"), "a,' -1\n'@x");
        assert_eq!(
            neutralise_formula("pending @ 2026-03-01; Delivered @ 2026-03-02"),
            "pending @ 2026-03-01; Delivered @ 2026-03-02"
        );
    }
}
