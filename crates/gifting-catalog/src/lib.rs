//! The console's message catalog.
//!
//! `locales/<language>/<area>.msg` holds one message per line, `key = message`, in the syntax of
//! [`message`]; lines starting with `#` are comments. English (`en`) is the source: its keys
//! and text are compiled into the console ([`rust_source`], from the console's build script),
//! and every other language must have exactly its keys with the same arguments ([`check`]).
//! A language's messages reach the browser as one bundle, a JSON array in English's key order
//! ([`bundle`]), fetched when the language is chosen. Two pseudo-languages are made from
//! English for tests ([`pseudo`]): `en-XA`, accented and 40 % longer, and `ar-XB`, right to left.

use std::fmt::Write as _;
use std::path::Path;

pub mod message;

/// The source language.
pub const SOURCE: &str = "en";

/// A language's messages, in file then line order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Catalog {
    pub language: String,
    pub entries: Vec<(String, String)>,
}

impl Catalog {
    pub fn get(&self, key: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, m)| m.as_str())
    }
}

/// The entries of one file; an error names the line.
pub fn read_file(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut entries = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let place = || format!("line {}", index + 1);
        let Some((key, value)) = line.split_once(" = ") else {
            return Err(format!("{}: expected `key = message`", place()));
        };
        let key_ok = !key.is_empty()
            && key
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.');
        if !key_ok {
            return Err(format!(
                "{}: a key is lowercase letters, digits, `_` and `.`",
                place()
            ));
        }
        let value = value.replace("\\n", "\n");
        if let Err(e) = message::parse(&value) {
            return Err(format!("{} ({key}): {} at {}", place(), e.what, e.at));
        }
        entries.push((key.to_owned(), value));
    }
    Ok(entries)
}

/// Every `*.msg` file of `dir` (one language), in name order; keys must be unique.
pub fn read_language(dir: &Path) -> Result<Catalog, String> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|x| x == "msg"))
        .collect();
    files.sort();
    let mut entries: Vec<(String, String)> = Vec::new();
    for file in files {
        let text =
            std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        for (key, value) in read_file(&text).map_err(|e| format!("{}: {e}", file.display()))? {
            if entries.iter().any(|(k, _)| *k == key) {
                return Err(format!(
                    "{}: `{key}` is already in the catalog",
                    file.display()
                ));
            }
            entries.push((key, value));
        }
    }
    let language = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok(Catalog { language, entries })
}

/// Every language under `root`, English first.
pub fn read_all(root: &Path) -> Result<Vec<Catalog>, String> {
    let mut names: Vec<String> = std::fs::read_dir(root)
        .map_err(|e| format!("{}: {e}", root.display()))?
        .filter_map(|entry| entry.ok())
        .filter(|entry| entry.path().is_dir())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort_by_key(|name| (name != SOURCE, name.clone()));
    if names.first().map(String::as_str) != Some(SOURCE) {
        return Err(format!("{}: no `{SOURCE}` catalog", root.display()));
    }
    names
        .iter()
        .map(|name| read_language(&root.join(name)))
        .collect()
}

/// What keeps `other` from standing in for `source`: missing or extra keys, and messages whose
/// arguments differ in name or kind.
pub fn check(source: &Catalog, other: &Catalog) -> Vec<String> {
    let mut problems = Vec::new();
    for (key, text) in &source.entries {
        match other.get(key) {
            None => problems.push(format!("{}: `{key}` is missing", other.language)),
            Some(translated) => {
                let wanted = arguments_of(text);
                let found = arguments_of(translated);
                if wanted != found {
                    problems.push(format!(
                        "{}: `{key}` has arguments {found:?}, English has {wanted:?}",
                        other.language
                    ));
                }
            }
        }
    }
    for (key, _) in &other.entries {
        if source.get(key).is_none() {
            problems.push(format!("{}: `{key}` is not an English key", other.language));
        }
    }
    problems
}

fn arguments_of(text: &str) -> Vec<(String, message::Kind)> {
    let mut found: Vec<_> = message::parse(text)
        .map(|parts| {
            message::arguments(&parts)
                .into_iter()
                .map(|(name, kind)| (name.to_owned(), kind))
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

/// `other`'s messages as a JSON array in `source`'s key order (the console indexes it).
pub fn bundle(source: &Catalog, other: &Catalog) -> String {
    let mut out = String::from("[");
    for (index, (key, _)) in source.entries.iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        json_string(other.get(key).unwrap_or_default(), &mut out);
    }
    out.push(']');
    out
}

fn json_string(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The pseudo-languages made from English for tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pseudo {
    /// `en-XA`: every letter accented and each text 40 % longer, in brackets, so untranslated
    /// text and clipped controls stand out.
    Accented,
    /// `ar-XB`: every text shown right to left (the page is `dir="rtl"`).
    Mirrored,
}

impl Pseudo {
    pub const ALL: [Pseudo; 2] = [Pseudo::Accented, Pseudo::Mirrored];

    pub fn language(self) -> &'static str {
        match self {
            Pseudo::Accented => "en-XA",
            Pseudo::Mirrored => "ar-XB",
        }
    }
}

/// `source` in the pseudo-language `kind`: only text changes; arguments, selectors and `#` stay.
pub fn pseudo(source: &Catalog, kind: Pseudo) -> Catalog {
    let entries = source
        .entries
        .iter()
        .map(|(key, text)| {
            let parts = message::parse(text).unwrap_or_default();
            let mut out = String::new();
            pseudo_parts(&parts, kind, &mut out);
            (key.clone(), out)
        })
        .collect();
    Catalog {
        language: kind.language().to_owned(),
        entries,
    }
}

fn pseudo_parts(parts: &[message::Part<'_>], kind: Pseudo, out: &mut String) {
    use message::Part;
    for part in parts {
        match part {
            Part::Text(text) => pseudo_text(text, kind, out),
            Part::Arg(name) => {
                let _ = write!(out, "{{{name}}}");
            }
            Part::Count => out.push('#'),
            Part::Choice {
                name,
                kind: choice,
                branches,
            } => {
                let word = match choice {
                    message::Kind::Plural => "plural",
                    _ => "select",
                };
                let _ = write!(out, "{{{name}, {word},");
                for (selector, inner) in branches {
                    let _ = write!(out, " {selector} {{");
                    pseudo_parts(inner, kind, out);
                    out.push('}');
                }
                out.push('}');
            }
        }
    }
}

fn pseudo_text(text: &str, kind: Pseudo, out: &mut String) {
    if text.trim().is_empty() {
        out.push_str(text);
        return;
    }
    match kind {
        Pseudo::Accented => {
            out.push('[');
            out.extend(text.chars().map(accented));
            let letters = text.chars().filter(|c| c.is_alphanumeric()).count();
            let pad = (letters * 2).div_ceil(5);
            out.extend(std::iter::repeat_n('·', pad));
            out.push(']');
        }
        // Right-to-left override: the letters run right to left, as an Arabic text would.
        Pseudo::Mirrored => {
            out.push('\u{202e}');
            out.push_str(text);
            out.push('\u{202c}');
        }
    }
}

fn accented(c: char) -> char {
    const PLAIN: &str = "aceginorsuyACEGINORSUY";
    const MARKED: &str = "åçéĝîñöŕšûýÅÇÉĜÎÑÖŔŠÛÝ";
    PLAIN
        .chars()
        .position(|p| p == c)
        .and_then(|i| MARKED.chars().nth(i))
        .unwrap_or(c)
}

/// The Rust the console compiles in: `M`, a message's index and English text, with one
/// constant per message without arguments (`M::SigninTitle`); one function per message with
/// arguments, typed by them. The English text sits where it is used: a screen's chunk carries
/// its own words, and no table of every message weighs on the first load.
/// `with_args(index, english, args)` and `count_text(n)` are the console's own (its `i18n`).
pub fn rust_source(source: &Catalog) -> String {
    let mut plain = String::new();
    let mut functions = String::new();
    for (index, (key, text)) in source.entries.iter().enumerate() {
        let parts = message::parse(text).unwrap_or_default();
        let arguments = message::arguments(&parts);
        if arguments.is_empty() {
            let _ = writeln!(
                plain,
                "    /// {}\n    pub const {}: M = M({index}, {text:?});",
                doc(text),
                camel(key)
            );
            continue;
        }
        function(index, key, text, &arguments, &mut functions);
    }
    format!(
        "/// A message without arguments: its index in a language's bundle and its English text.\n\
         #[derive(Clone, Copy, Debug, PartialEq, Eq)]\n\
         pub struct M(pub(crate) u16, pub(crate) &'static str);\n\n\
         #[allow(non_upper_case_globals, dead_code)]\n\
         impl M {{\n{plain}}}\n\n\
         /// How many messages the catalog has: a language's bundle lists as many.\n\
         pub const MESSAGES: usize = {};\n\n{functions}",
        source.entries.len()
    )
}

fn function(
    index: usize,
    key: &str,
    text: &str,
    arguments: &[(&str, message::Kind)],
    out: &mut String,
) {
    let params: Vec<String> = arguments
        .iter()
        .map(|(name, kind)| match kind {
            message::Kind::Plural => format!("{name}: u64"),
            _ => format!("{name}: &str"),
        })
        .collect();
    let mut shown = String::new();
    let values: Vec<String> = arguments
        .iter()
        .map(|(name, kind)| match kind {
            message::Kind::Plural => {
                let _ = writeln!(shown, "    let {name}_shown = count_text({name});");
                format!("({name:?}, Value::Count({name}, &{name}_shown))")
            }
            _ => format!("({name:?}, Value::Text({name}))"),
        })
        .collect();
    let _ = write!(
        out,
        "/// {}\n#[allow(dead_code)]\npub fn {}({}) -> String {{\n{shown}    with_args({index}, {text:?}, &[{}])\n}}\n\n",
        doc(text),
        key.replace('.', "_"),
        params.join(", "),
        values.join(", ")
    );
}

fn doc(text: &str) -> String {
    text.replace('\n', " ")
}

/// `signin.title` → `SigninTitle`.
fn camel(key: &str) -> String {
    key.split(['.', '_'])
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog(language: &str, text: &str) -> Catalog {
        Catalog {
            language: language.into(),
            entries: read_file(text).expect("valid"),
        }
    }

    #[test]
    fn files_are_read_line_by_line() {
        let entries = read_file("# a comment\n\na.b = One\nc = Two {x}\n").expect("valid");
        assert_eq!(
            entries,
            [("a.b".into(), "One".into()), ("c".into(), "Two {x}".into())]
        );
        assert!(read_file("Bad Key = x").is_err());
        assert!(read_file("a = {x").is_err());
        assert!(read_file("no equals sign").is_err());
    }

    #[test]
    fn a_translation_must_have_every_key_with_the_same_arguments() {
        let en = catalog("en", "a = A {x}\nb = B\n");
        assert!(check(&en, &catalog("de", "a = Ä {x}\nb = Bé\n")).is_empty());
        let problems = check(&en, &catalog("de", "a = Ä {y}\nc = C\n"));
        assert_eq!(problems.len(), 3, "{problems:?}");
    }

    #[test]
    fn bundles_follow_the_source_order_and_escape_json() {
        let en = catalog("en", "a = A\nb = B\n");
        let de = catalog("de", "b = \"B\"\na = Ä\\n\n");
        assert_eq!(bundle(&en, &de), r#"["Ä\u000a","\"B\""]"#);
    }

    #[test]
    fn pseudo_languages_keep_arguments_and_change_text() {
        let en = catalog(
            "en",
            "a = Sign in {n, plural, one {# user} other {# users}}\n",
        );
        let accented = pseudo(&en, Pseudo::Accented);
        let text = &accented.entries[0].1;
        assert!(text.starts_with("[Šîĝñ îñ "), "{text}");
        assert!(check(&en, &accented).is_empty(), "{text}");
        let mirrored = pseudo(&en, Pseudo::Mirrored);
        assert!(check(&en, &mirrored).is_empty());
        assert!(mirrored.entries[0].1.starts_with('\u{202e}'));
    }

    #[test]
    fn the_console_gets_an_enum_functions_and_the_english_table() {
        let en = catalog("en", "sign_in.title = Sign in\nusers.count = {n, plural, one {# user} other {# users}} of {team}\n");
        let source = rust_source(&en);
        assert!(
            source.contains("pub const SignInTitle: M = M(0, \"Sign in\");"),
            "{source}"
        );
        assert!(
            source.contains("pub fn users_count(n: u64, team: &str) -> String"),
            "{source}"
        );
        assert!(source.contains("with_args(1, \"{n, plural, one {# user} other {# users}} of {team}\", &[(\"n\", Value::Count(n, &n_shown)), (\"team\", Value::Text(team))])"), "{source}");
    }

    /// French puts a no-break space before `:` (and a narrow one before `;`, `?`, `!`), so the
    /// sign never starts a line.
    #[test]
    fn french_punctuation_keeps_its_space() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../locales/fr");
        let french = read_language(&root).expect("the French catalog reads");
        let loose: Vec<&str> = french
            .entries
            .iter()
            .filter(|(_, m)| {
                [" :", " ;", " ?", " !", "« ", " »"]
                    .iter()
                    .any(|p| m.contains(p))
            })
            .map(|(k, _)| k.as_str())
            .collect();
        assert!(loose.is_empty(), "plain spaces in {loose:?}");
    }

    /// `boot.js` reads the first three messages of a bundle as its own sentences, and writes
    /// the English ones itself: the same words as the catalog's.
    #[test]
    fn boot_js_finds_its_sentences_first() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let english = read_language(&root.join("locales/en")).expect("the English catalog reads");
        let keys: Vec<&str> = english.entries[..3]
            .iter()
            .map(|(k, _)| k.as_str())
            .collect();
        assert_eq!(keys, ["boot.lacks", "boot.https", "boot.failed"]);
        let boot = std::fs::read_to_string(root.join("boot.js")).expect("boot.js reads");
        let joined = boot.replace("\" +\n    \"", "");
        for (key, text) in &english.entries[..3] {
            assert!(
                joined.contains(&format!("{text:?}")),
                "boot.js lacks {key}: {text}"
            );
        }
    }

    /// The real catalog: every language has every English key with the same arguments.
    #[test]
    fn every_language_has_every_key_with_the_same_arguments() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../locales");
        let all = read_all(&root).expect("the catalog reads");
        assert!(all.len() >= 3, "English, German and French");
        let problems: Vec<String> = all[1..].iter().flat_map(|c| check(&all[0], c)).collect();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    /// The console writes messages without parsing them ([`message::write`]): for every message
    /// of every language, with each argument given and each count tried, it writes what the
    /// parsed parts render.
    #[test]
    fn every_message_is_written_as_its_parts_render() {
        use message::{one_is_one, one_is_zero_or_one, Kind, Value};
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../locales");
        for catalog in read_all(&root).expect("the catalog reads") {
            for (key, text) in &catalog.entries {
                let parts = message::parse(text).expect("a valid message");
                let names = message::arguments(&parts);
                for (n, shown) in [(0, "0"), (1, "1"), (2, "2"), (12_345, "12,345")] {
                    let args: Vec<(&str, Value<'_>)> = names
                        .iter()
                        .map(|(name, kind)| match kind {
                            Kind::Plural => (*name, Value::Count(n, shown)),
                            Kind::Select | Kind::Text => (*name, Value::Text("admin")),
                        })
                        .collect();
                    for one in [one_is_one as fn(u64) -> bool, one_is_zero_or_one] {
                        let (mut written, mut rendered) = (String::new(), String::new());
                        message::write(text, &args, one, &mut written);
                        message::render(&parts, &args, one, &mut rendered);
                        assert_eq!(written, rendered, "{} {key}", catalog.language);
                    }
                }
            }
        }
    }
}
