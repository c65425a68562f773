//! CSV the console writes (the sends export, the import's and a bulk change's results, the home
//! report): RFC 4180 with CRLF line ends and a UTF-8 byte order mark (spreadsheet programs then
//! read "Zoë" or Arabic text as UTF-8), safe from formula injection whatever separator and
//! quoting the reader uses. Files are read with the `csv` crate (the import); they are written
//! here, by the rules below, which the `csv` crate's writer cannot be told (it quotes only
//! around its own separator and guards nothing). A rule with no I/O, so it lives in the
//! contract crate and is tested natively, against the `csv` crate's reader in every mode
//! (`tests/csv_guard.rs`).
//!
//! - A field holding a quote, `,`, `;`, a tab, CR or LF is quoted, its quotes doubled. Many
//!   European locales read `;` as the separator, and a pasted file may be read at tabs: an
//!   unquoted `Bob;=cmd|…` would be two cells there, the second a formula.
//! - A cell a spreadsheet would run as a formula (OWASP's CSV injection list: `=`, `+`, `-`,
//!   `@`, and tab or CR, which some programs drop before reading on) gets a leading `'`, which
//!   spreadsheets show as plain text. The trigger counts after any whitespace, quotes or
//!   backslashes (programs trim spaces, a reader ignoring quotes keeps them as text, one with
//!   escapes drops backslashes), and the `'` goes before those, where the cell starts.
//! - A cell can start where the field starts, and also after a `,`, `;`, tab, CR or LF inside
//!   it: a reader of another separator, or one that treats quotes differently, loses track of
//!   this file's quotes and splits there. So `a;"=1` becomes `a;'"=1`, and `a<TAB>=1`
//!   `a<TAB>'=1`.
//! - In a quoted field, a cell start followed by nothing but whitespace, quotes or backslashes
//!   up to the field's end is guarded too (`a;` becomes `a;'`): a reader that lost track of the
//!   quotes reads on past the closing quote, and at the row's end that means a CR.
//! - A plain decimal number (a cost of "-5.00") is no formula and stays as it is, except as a
//!   row's first field: a `;` or tab reader's cell starting there runs on through the commas.

use std::borrow::Cow;

use crate::money::Decimal;

/// The byte order mark every file starts with.
pub const BOM: char = '\u{feff}';

/// Appends one row: each field guarded and quoted as needed, CRLF at the end.
pub fn push_row<S: AsRef<str>>(out: &mut String, fields: impl IntoIterator<Item = S>) {
    for (i, field) in fields.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_field(out, field.as_ref(), i > 0);
    }
    out.push_str("\r\n");
}

/// `after_first`: the field is not its row's first (see [`guard`]).
fn push_field(out: &mut String, raw: &str, after_first: bool) {
    let quoted = needs_quotes(raw);
    let safe = guard(raw, quoted, after_first);
    if quoted {
        out.push('"');
        out.push_str(&safe.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(&safe);
    }
}

/// Whether the field must be quoted. Byte tests rather than `str::contains` with a set of
/// chars: several times faster in the wasm, and an export writes millions of fields.
fn needs_quotes(raw: &str) -> bool {
    raw.bytes()
        .any(|b| matches!(b, b'"' | b',' | b';' | b'\t' | b'\r' | b'\n'))
}

/// A character after which some reader starts a new cell.
fn ends_cell(c: char) -> bool {
    matches!(c, ',' | ';' | '\t' | '\r' | '\n')
}

/// A character a spreadsheet reads as the start of a formula, at a cell's start.
fn starts_formula(c: char) -> bool {
    matches!(c, '=' | '+' | '-' | '@' | '\t' | '\r')
}

/// A character some reader drops or looks through before it decides what a cell holds.
fn looked_through(c: char) -> bool {
    c == '"' || c == '\\' || c.is_whitespace()
}

/// `-5.00`, `+1`, `25`: what a cost or a count looks like, and no formula.
fn is_plain_number(raw: &str) -> bool {
    raw.trim() == raw && Decimal::parse(raw).is_some()
}

/// The field with a `'` at every cell start a reader could take for a formula (see the module
/// notes); `quoted` says whether the field will be written between quotes.
/// `=1+1` → `'=1+1`; `Bob;"=cmd` → `Bob;'"=cmd`; `-5.00` stays unless it starts the row
/// (`after_first` false): there it also starts the cell a `;` or tab reader sees, which runs on
/// through the row's commas (`-5.00,=1` is no number).
fn guard(raw: &str, quoted: bool, after_first: bool) -> Cow<'_, str> {
    // Most fields hold no trigger and need no quotes, so nothing can be guarded in them: an
    // export writes millions, and a number's parse allocates.
    let trigger = raw
        .bytes()
        .any(|b| matches!(b, b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r'));
    if (!trigger && !quoted) || (after_first && is_plain_number(raw)) {
        return Cow::Borrowed(raw);
    }
    let mut guarded = Guarded::new(raw);
    // Where the run of cell starts not yet decided begins: only looked-through characters
    // (among them the line breaks that start further cells) have followed it.
    let mut run = Some(0);
    for (i, c) in raw.char_indices() {
        if let Some(start) = run {
            if starts_formula(c) {
                guarded.mark_run(start, i);
                run = None;
            } else if !looked_through(c) {
                run = None;
            }
        }
        if ends_cell(c) && run.is_none() {
            run = Some(i + c.len_utf8());
        }
    }
    if let (true, Some(start)) = (quoted, run) {
        guarded.mark_run(start, raw.len());
    }
    guarded.finish()
}

/// The guarded text being built: copied from `raw` as far as `copied`, created at the first `'`.
struct Guarded<'a> {
    raw: &'a str,
    out: Option<String>,
    copied: usize,
}

impl<'a> Guarded<'a> {
    fn new(raw: &'a str) -> Self {
        Guarded {
            raw,
            out: None,
            copied: 0,
        }
    }

    /// A `'` at `start` and after every cell end in `raw[start..end]`: each is a cell start
    /// that reaches the trigger (or the field's end) through looked-through characters only.
    fn mark_run(&mut self, start: usize, end: usize) {
        self.mark(start);
        for (i, c) in self.raw[start..end].char_indices() {
            if ends_cell(c) {
                self.mark(start + i + c.len_utf8());
            }
        }
    }

    fn mark(&mut self, at: usize) {
        let raw = self.raw;
        let out = self
            .out
            .get_or_insert_with(|| String::with_capacity(raw.len() + 4));
        out.push_str(&raw[self.copied..at]);
        out.push('\'');
        self.copied = at;
    }

    fn finish(self) -> Cow<'a, str> {
        match self.out {
            None => Cow::Borrowed(self.raw),
            Some(mut out) => {
                out.push_str(&self.raw[self.copied..]);
                Cow::Owned(out)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One field as written: guarded, then quoted as needed.
    fn field_text(raw: &str) -> String {
        let mut out = String::new();
        push_field(&mut out, raw, true);
        out
    }

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

    #[test]
    fn read_with_its_own_separator_every_field_comes_back_whole() {
        let mut text = String::new();
        push_row(&mut text, HOSTILE);
        push_row(&mut text, HOSTILE.iter().rev());
        let rows = read_back(&text, b',');
        assert_eq!(rows.len(), 2);
        let expected: Vec<String> = HOSTILE
            .iter()
            .map(|f| guard(f, needs_quotes(f), true).into_owned())
            .collect();
        assert_eq!(rows[0], expected);
        assert_eq!(rows[0][0], "Bob;'=cmd|' /C calc'!A0");
        assert_eq!(rows[0][3], "tab\t'=1");
    }

    #[test]
    fn a_number_starting_a_row_is_guarded_elsewhere_it_stays() {
        let mut text = String::new();
        push_row(&mut text, ["-5.00", "-5.00", "+1"]);
        assert_eq!(text, "'-5.00,-5.00,+1\r\n");
    }

    #[test]
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
            ("", ""),
            ("   ", "   "),
        ];
        for (text, expected) in cases {
            assert_eq!(field_text(text), expected, "{text:?}");
        }
    }

    #[test]
    fn formulas_are_guarded_but_numbers_and_text_are_not() {
        // (text, whether a spreadsheet would run it, so it gets a leading apostrophe)
        let cases = [
            ("=HYPERLINK(\"x\")", true),
            ("+1", false),
            ("+1+cmd|' /C calc'!A0", true),
            ("-2+3", true),
            ("@SUM(A1)", true),
            ("  =1", true),
            (" -5.00", true),
            ("\"=1", true),
            ("\\=1", true),
            ("\u{a0}@x", true),
            ("-5.00", false),
            ("a=b", false),
            ("O'Reilly", false),
        ];
        for (text, formula) in cases {
            let expected = if formula {
                format!("'{text}")
            } else {
                text.to_owned()
            };
            assert_eq!(guard(text, needs_quotes(text), true), expected, "{text:?}");
        }
    }

    #[test]
    fn every_cell_start_inside_a_field_is_guarded() {
        let cases = [
            ("Bob;=cmd", "Bob;'=cmd"),
            ("a, -1\n@x", "a,' -1\n'@x"),
            ("a;\"=cmd|' /C calc'!A0", "a;'\"=cmd|' /C calc'!A0"),
            ("a\t=1", "a\t'=1"),
            ("\t=1", "'\t'=1"),
            ("a;\n=1", "a;'\n'=1"),
            ("a; b", "a; b"),
            ("a;", "a;'"),
            ("a\n", "a\n'"),
            ("\"", "'\""),
            ("x;\"\"", "x;'\"\""),
            (
                "pending @ 2026-03-01; Delivered @ 2026-03-02",
                "pending @ 2026-03-01; Delivered @ 2026-03-02",
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(guard(text, needs_quotes(text), true), expected, "{text:?}");
        }
    }
}
