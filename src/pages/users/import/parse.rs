//! Reading an HR export: the bytes checked for what they are (empty, binary, not UTF-8), the
//! separator guessed (comma or semicolon), then the `csv` crate reads the records, a slice at
//! a time, so a large file never holds the page up.
//!
//! Every limit has a sentence the admin can act on; nothing here writes anything.

use csv::{ReaderBuilder, StringRecord};

/// Larger files are refused before they are read: 5 MB holds ~50,000 rows of an HR export.
pub(crate) const MAX_FILE_BYTES: u64 = 5_000_000;
/// Rows (after the header) one import may hold.
pub(crate) const MAX_ROWS: usize = 20_000;
/// Columns one row may have: an HR export has a few dozen at most.
pub(crate) const MAX_COLUMNS: usize = 100;
/// Records read between two yields to the browser.
pub(crate) const SLICE_ROWS: usize = 2_000;

/// The file's header and its rows, cells as written (a row never has more cells than the
/// header once read: extra empty cells are dropped).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Table {
    pub(crate) header: Vec<String>,
    pub(crate) rows: Vec<Row>,
}

/// One data row: its number as a spreadsheet shows it (the header is row 1) and its cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Row {
    pub(crate) number: usize,
    pub(crate) cells: Vec<String>,
    /// Set when the row has more non-empty cells than the header has columns.
    pub(crate) extra_cells: bool,
}

impl Row {
    pub(crate) fn cell(&self, column: Option<usize>) -> &str {
        column
            .and_then(|c| self.cells.get(c))
            .map_or("", |s| s.trim())
    }
}

/// The size check, before the file is read at all.
pub(crate) fn check_size(bytes: u64) -> Result<(), String> {
    if bytes == 0 {
        return Err("The file is empty: choose the CSV file that holds the users.".into());
    }
    if bytes > MAX_FILE_BYTES {
        return Err(format!(
            "The file is {:.1} MB; an import takes at most {} MB ({} rows). Split it into \
             smaller files and import them one after the other.",
            bytes as f64 / 1e6,
            MAX_FILE_BYTES / 1_000_000,
            MAX_ROWS
        ));
    }
    Ok(())
}

/// What a file that is not text looks like, by its first bytes.
fn binary_kind(bytes: &[u8]) -> Option<&'static str> {
    const MAGIC: [(&[u8], &str); 7] = [
        (b"\x89PNG", "a PNG image"),
        (b"\xff\xd8\xff", "a JPEG image"),
        (b"GIF8", "a GIF image"),
        (b"%PDF", "a PDF document"),
        (
            b"PK\x03\x04",
            "a spreadsheet or ZIP file (.xlsx, .ods, .zip)",
        ),
        (b"\xd0\xcf\x11\xe0", "an old Excel file (.xls)"),
        (b"RIFF", "a media file"),
    ];
    if let Some((_, kind)) = MAGIC.iter().find(|(m, _)| bytes.starts_with(m)) {
        return Some(kind);
    }
    let head = &bytes[..bytes.len().min(8192)];
    head.contains(&0).then_some("a binary file")
}

/// The file's text: UTF-8, its byte order mark removed; anything else is refused with how to
/// save it right.
pub(crate) fn decode(bytes: &[u8]) -> Result<&str, String> {
    const SAVE_AS: &str =
        "Save it from the spreadsheet as \u{201c}CSV UTF-8 (comma delimited)\u{201d} and choose it again.";
    if bytes.starts_with(b"\xff\xfe") || bytes.starts_with(b"\xfe\xff") {
        return Err(format!("The file is UTF-16 text, not UTF-8. {SAVE_AS}"));
    }
    if let Some(kind) = binary_kind(bytes) {
        return Err(format!("This is {kind}, not a CSV file. {SAVE_AS}"));
    }
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()]
            .iter()
            .filter(|b| **b == b'\n')
            .count()
            + 1;
        format!(
            "The file is not UTF-8 text (line {line} has a character in another encoding, \
             such as Windows-1252). {SAVE_AS}"
        )
    })?;
    if text.trim().is_empty() {
        return Err("The file is empty: choose the CSV file that holds the users.".into());
    }
    Ok(text)
}

/// Comma or semicolon, whichever the header line uses more of (outside quotes).
pub(crate) fn separator(text: &str) -> u8 {
    let (mut commas, mut semicolons, mut quoted) = (0, 0, false);
    for c in text.chars() {
        match c {
            '"' => quoted = !quoted,
            '\n' | '\r' if !quoted => break,
            ',' if !quoted => commas += 1,
            ';' if !quoted => semicolons += 1,
            _ => {}
        }
    }
    if semicolons > commas {
        b';'
    } else {
        b','
    }
}

/// Reads records from the text, a slice at a time.
pub(crate) struct Reader<'a> {
    reader: csv::Reader<&'a [u8]>,
    record: StringRecord,
    table: Table,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        let reader = ReaderBuilder::new()
            .delimiter(separator(text))
            .has_headers(false)
            .flexible(true)
            .from_reader(text.as_bytes());
        Reader {
            reader,
            record: StringRecord::new(),
            table: Table::default(),
        }
    }

    /// Reads up to `max` records. `Ok(true)`: more to read.
    pub(crate) fn read_slice(&mut self, max: usize) -> Result<bool, String> {
        for _ in 0..max {
            let more = self
                .reader
                .read_record(&mut self.record)
                .map_err(|e| format!("The file could not be read as CSV: {e}."))?;
            if !more {
                return self.finish().map(|()| false);
            }
            let number = self
                .record
                .position()
                .map_or(0, |p| p.record() as usize + 1);
            self.take(number)?;
        }
        Ok(true)
    }

    fn take(&mut self, number: usize) -> Result<(), String> {
        if self.record.len() > MAX_COLUMNS {
            return Err(format!(
                "Row {number} has {} columns; an import reads at most {MAX_COLUMNS}. Keep \
                 only the columns the users need (email, names, role, team).",
                self.record.len()
            ));
        }
        let cells: Vec<String> = self.record.iter().map(str::to_owned).collect();
        if cells.iter().all(|c| c.trim().is_empty()) {
            return Ok(());
        }
        if self.table.header.is_empty() {
            self.table.header = cells;
            return Ok(());
        }
        if self.table.rows.len() >= MAX_ROWS {
            return Err(format!(
                "The file has more than {MAX_ROWS} rows. Split it into smaller files and \
                 import them one after the other."
            ));
        }
        let width = self.table.header.len();
        let extra_cells = cells.iter().skip(width).any(|c| !c.trim().is_empty());
        let mut cells = cells;
        cells.truncate(width);
        self.table.rows.push(Row {
            number,
            cells,
            extra_cells,
        });
        Ok(())
    }

    fn finish(&self) -> Result<(), String> {
        if self.table.header.is_empty() {
            return Err("The file is empty: choose the CSV file that holds the users.".into());
        }
        if self.table.rows.is_empty() {
            return Err("The file has a header row but no users below it.".into());
        }
        Ok(())
    }

    pub(crate) fn into_table(self) -> Table {
        self.table
    }
}

/// Reads a whole text at once (tests, small files).
#[cfg(test)]
pub(crate) fn read_all(text: &str) -> Result<Table, String> {
    let mut reader = Reader::new(text);
    while reader.read_slice(SLICE_ROWS)? {}
    Ok(reader.into_table())
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn reads_what_spreadsheets_write() {
        let text = "\u{feff}Email;First name;Team\r\n\"a@example.com\";\"Ann; \"\"the\"\" one\";Sales\r\nb@example.com;\"two\nlines\";\r\n";
        let bytes = text.as_bytes();
        let table = read_all(decode(bytes).unwrap()).unwrap();
        assert_eq!(table.header, ["Email", "First name", "Team"]);
        assert_eq!(table.rows.len(), 2);
        assert_eq!(table.rows[0].cells[1], "Ann; \"the\" one");
        assert_eq!(table.rows[1].cells[1], "two\nlines");
        assert_eq!(table.rows[0].number, 2);
        assert_eq!(table.rows[1].number, 3);
        let lf = read_all("email,team\nc@example.com,Sales\n\n,,\n").unwrap();
        assert_eq!(lf.rows.len(), 1, "blank lines are skipped");
    }

    #[wasm_bindgen_test]
    fn bad_files_get_a_sentence() {
        assert!(check_size(0).unwrap_err().contains("empty"));
        assert!(check_size(50_000_000).unwrap_err().contains("50.0 MB"));
        assert!(decode(b"\x89PNG\r\n\x1a\n\0\0")
            .unwrap_err()
            .contains("PNG image"));
        assert!(decode(b"\xff\xfee\0m\0").unwrap_err().contains("UTF-16"));
        assert!(decode(b"email\nj\xe9r\xf4me@example.com\n")
            .unwrap_err()
            .contains("line 2"));
        assert!(decode(b"\xef\xbb\xbf \r\n").unwrap_err().contains("empty"));
        let wide = format!("{}\n", vec!["x"; 500].join(","));
        assert!(read_all(&wide).unwrap_err().contains("500 columns"));
        assert!(read_all("email\n").unwrap_err().contains("no users"));
    }
}
