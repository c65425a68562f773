//! Reading an HR export: the bytes checked for what they are (empty, binary, not UTF-8), the
//! separator guessed (comma or semicolon), then the `csv` crate reads the records, a slice at
//! a time, so a large file never holds the page up.
//!
//! Every limit has a sentence the admin can act on; nothing here writes anything.

use csv::{ReaderBuilder, StringRecord};

use crate::components::format::{amount, count};
use crate::i18n::{msg, t, M};

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

/// Why a file cannot be imported, worded when shown (in the chosen language). Every one says
/// what to do about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum FileError {
    Empty,
    /// Its size in bytes.
    TooLarge(u64),
    Utf16,
    /// What it is instead.
    Binary(Binary),
    /// The line with the first character in another encoding.
    NotUtf8(usize),
    /// The `csv` crate's words for what it could not read.
    NotCsv(String),
    /// The row's number and its columns.
    TooManyColumns(usize, usize),
    TooManyRows,
    NoRows,
    /// The browser could not read the file.
    Unreadable,
}

/// What a file that is not text is, by its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Binary {
    Png,
    Jpeg,
    Gif,
    Pdf,
    Zip,
    Xls,
    Media,
    Other,
}

impl FileError {
    /// The error in words, in the chosen language.
    pub(crate) fn text(&self) -> String {
        match self {
            FileError::Empty => t(M::ImportFileEmpty).into(),
            FileError::TooLarge(bytes) => msg::import_file_too_large(
                &megabytes(*bytes),
                &count(MAX_FILE_BYTES / 1_000_000),
                MAX_ROWS as u64,
            ),
            FileError::Utf16 => t(M::ImportFileUtf16).into(),
            FileError::Binary(kind) => t(kind.message()).into(),
            FileError::NotUtf8(line) => msg::import_file_not_utf8(&line.to_string()),
            FileError::NotCsv(why) => msg::import_file_not_csv(why),
            FileError::TooManyColumns(row, columns) => msg::import_too_many_columns(
                &row.to_string(),
                *columns as u64,
                &count(MAX_COLUMNS as u64),
            ),
            FileError::TooManyRows => msg::import_too_many_rows(MAX_ROWS as u64),
            FileError::NoRows => t(M::ImportFileNoRows).into(),
            FileError::Unreadable => t(M::ImportFileUnreadable).into(),
        }
    }
}

impl Binary {
    /// "This is a PNG image, not a CSV file. Save it …"
    fn message(self) -> M {
        match self {
            Binary::Png => M::ImportFilePng,
            Binary::Jpeg => M::ImportFileJpeg,
            Binary::Gif => M::ImportFileGif,
            Binary::Pdf => M::ImportFilePdf,
            Binary::Zip => M::ImportFileZip,
            Binary::Xls => M::ImportFileXls,
            Binary::Media => M::ImportFileMedia,
            Binary::Other => M::ImportFileBinary,
        }
    }
}

/// `bytes` in megabytes with one decimal, in the locale's way: "50.0" (en), "50,0" (de).
fn megabytes(bytes: u64) -> String {
    let tenths = (bytes + 50_000) / 100_000;
    // The locale's decimal separator, as the console's formatter writes amounts.
    let point = amount("0.5")
        .chars()
        .find(|c| !c.is_ascii_digit())
        .unwrap_or('.');
    format!("{}{point}{}", count(tenths / 10), tenths % 10)
}

/// The size check, before the file is read at all.
pub(crate) fn check_size(bytes: u64) -> Result<(), FileError> {
    if bytes == 0 {
        return Err(FileError::Empty);
    }
    if bytes > MAX_FILE_BYTES {
        return Err(FileError::TooLarge(bytes));
    }
    Ok(())
}

/// What a file that is not text looks like, by its first bytes.
fn binary_kind(bytes: &[u8]) -> Option<Binary> {
    const MAGIC: [(&[u8], Binary); 7] = [
        (b"\x89PNG", Binary::Png),
        (b"\xff\xd8\xff", Binary::Jpeg),
        (b"GIF8", Binary::Gif),
        (b"%PDF", Binary::Pdf),
        (b"PK\x03\x04", Binary::Zip),
        (b"\xd0\xcf\x11\xe0", Binary::Xls),
        (b"RIFF", Binary::Media),
    ];
    if let Some((_, kind)) = MAGIC.iter().find(|(m, _)| bytes.starts_with(m)) {
        return Some(*kind);
    }
    let head = &bytes[..bytes.len().min(8192)];
    head.contains(&0).then_some(Binary::Other)
}

/// The file's text: UTF-8, its byte order mark removed; anything else is refused with how to
/// save it right.
pub(crate) fn decode(bytes: &[u8]) -> Result<&str, FileError> {
    if bytes.starts_with(b"\xff\xfe") || bytes.starts_with(b"\xfe\xff") {
        return Err(FileError::Utf16);
    }
    if let Some(kind) = binary_kind(bytes) {
        return Err(FileError::Binary(kind));
    }
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()]
            .iter()
            .filter(|b| **b == b'\n')
            .count()
            + 1;
        FileError::NotUtf8(line)
    })?;
    if text.trim().is_empty() {
        return Err(FileError::Empty);
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
    pub(crate) fn read_slice(&mut self, max: usize) -> Result<bool, FileError> {
        for _ in 0..max {
            let more = self
                .reader
                .read_record(&mut self.record)
                .map_err(|e| FileError::NotCsv(e.to_string()))?;
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

    fn take(&mut self, number: usize) -> Result<(), FileError> {
        if self.record.len() > MAX_COLUMNS {
            return Err(FileError::TooManyColumns(number, self.record.len()));
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
            return Err(FileError::TooManyRows);
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

    fn finish(&self) -> Result<(), FileError> {
        if self.table.header.is_empty() {
            return Err(FileError::Empty);
        }
        if self.table.rows.is_empty() {
            return Err(FileError::NoRows);
        }
        Ok(())
    }

    pub(crate) fn into_table(self) -> Table {
        self.table
    }
}

/// Reads a whole text at once (tests, small files).
#[cfg(test)]
pub(crate) fn read_all(text: &str) -> Result<Table, FileError> {
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
        let said = |e: FileError| e.text();
        assert!(said(check_size(0).unwrap_err()).contains("empty"));
        assert!(said(check_size(50_000_000).unwrap_err()).contains("50.0 MB"));
        assert!(said(decode(b"\x89PNG\r\n\x1a\n\0\0").unwrap_err()).contains("PNG image"));
        assert!(said(decode(b"\xff\xfee\0m\0").unwrap_err()).contains("UTF-16"));
        assert!(said(decode(b"email\nj\xe9r\xf4me@example.com\n").unwrap_err()).contains("line 2"));
        assert!(said(decode(b"\xef\xbb\xbf \r\n").unwrap_err()).contains("empty"));
        let wide = format!("{}\n", vec!["x"; 500].join(","));
        assert!(said(read_all(&wide).unwrap_err()).contains("500 columns"));
        assert!(said(read_all("email\n").unwrap_err()).contains("no users"));
    }
}
