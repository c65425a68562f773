//! One message in the catalog's syntax, a subset of ICU MessageFormat:
//!
//! - `{name}`: an argument, written as the caller gave it;
//! - `{count, plural, =0 {no users} one {# user} other {# users}}`: a branch chosen by a count,
//!   `=N` before the language's category (`one`, `other`); `#` in a branch is the count as the
//!   console writes counts (grouped, in the locale);
//! - `{kind, select, admin {…} other {…}}`: a branch chosen by a word.
//!
//! Braces are never literal text. The console links this module to render messages, and the
//! build reads the catalog with it, so a message the console cannot render fails the build.

/// One piece of a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part<'a> {
    Text(&'a str),
    Arg(&'a str),
    /// `#` inside a plural branch.
    Count,
    Choice {
        name: &'a str,
        kind: Kind,
        branches: Vec<(&'a str, Vec<Part<'a>>)>,
    },
}

/// What an argument is: the type a caller passes for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// Text, written as given.
    Text,
    /// A count that chooses a branch.
    Plural,
    /// A word that chooses a branch.
    Select,
}

/// An argument's value.
#[derive(Clone, Copy, Debug)]
pub enum Value<'a> {
    Text(&'a str),
    /// A count and the text the console writes for it.
    Count(u64, &'a str),
}

/// Why a message cannot be read, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub at: usize,
    pub what: &'static str,
}

/// Reads `message` into its parts.
pub fn parse(message: &str) -> Result<Vec<Part<'_>>, SyntaxError> {
    let mut reader = Reader {
        text: message,
        at: 0,
    };
    let parts = reader.parts(false)?;
    if reader.at < message.len() {
        return Err(reader.error("a `}` closes nothing"));
    }
    Ok(parts)
}

struct Reader<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Reader<'a> {
    fn error(&self, what: &'static str) -> SyntaxError {
        SyntaxError { at: self.at, what }
    }

    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    /// Parts up to a `}` (left unread) or the end.
    fn parts(&mut self, in_plural: bool) -> Result<Vec<Part<'a>>, SyntaxError> {
        let mut parts = Vec::new();
        loop {
            let rest = self.rest();
            let stop = rest
                .find(|c| c == '{' || c == '}' || (in_plural && c == '#'))
                .unwrap_or(rest.len());
            if stop > 0 {
                parts.push(Part::Text(&rest[..stop]));
                self.at += stop;
            }
            match self.rest().chars().next() {
                Some('{') => {
                    self.at += 1;
                    parts.push(self.argument()?);
                }
                Some('#') => {
                    self.at += 1;
                    parts.push(Part::Count);
                }
                _ => return Ok(parts),
            }
        }
    }

    /// After `{`: `name}` or `name, plural|select, branches}`.
    fn argument(&mut self) -> Result<Part<'a>, SyntaxError> {
        let name = self.word();
        if name.is_empty() {
            return Err(self.error("an argument needs a name"));
        }
        self.spaces();
        if self.eat('}') {
            return Ok(Part::Arg(name));
        }
        if !self.eat(',') {
            return Err(self.error("expected `}` or `,` after an argument's name"));
        }
        self.spaces();
        let kind = match self.word() {
            "plural" => Kind::Plural,
            "select" => Kind::Select,
            _ => return Err(self.error("expected `plural` or `select`")),
        };
        self.spaces();
        if !self.eat(',') {
            return Err(self.error("expected `,` before the branches"));
        }
        let branches = self.branches(kind)?;
        Ok(Part::Choice {
            name,
            kind,
            branches,
        })
    }

    fn branches(&mut self, kind: Kind) -> Result<Vec<(&'a str, Vec<Part<'a>>)>, SyntaxError> {
        let mut branches = Vec::new();
        loop {
            self.spaces();
            if self.eat('}') {
                break;
            }
            let selector = self.word();
            if selector.is_empty() {
                return Err(self.error("expected a branch's selector"));
            }
            self.spaces();
            if !self.eat('{') {
                return Err(self.error("expected `{` after a selector"));
            }
            let parts = self.parts(kind == Kind::Plural)?;
            if !self.eat('}') {
                return Err(self.error("a branch is not closed"));
            }
            branches.push((selector, parts));
        }
        if !branches.iter().any(|(selector, _)| *selector == "other") {
            return Err(self.error("a choice needs an `other` branch"));
        }
        Ok(branches)
    }

    fn word(&mut self) -> &'a str {
        let rest = self.rest();
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '='))
            .unwrap_or(rest.len());
        self.at += end;
        &rest[..end]
    }

    fn spaces(&mut self) {
        let rest = self.rest();
        self.at += rest.len() - rest.trim_start().len();
    }

    fn eat(&mut self, c: char) -> bool {
        let hit = self.rest().starts_with(c);
        if hit {
            self.at += c.len_utf8();
        }
        hit
    }
}

/// Writes `parts` with `args` into `out`. `one` is the language's rule for the `one` category.
/// An argument the caller did not give is written as its name in braces, so it shows.
pub fn render(
    parts: &[Part<'_>],
    args: &[(&str, Value<'_>)],
    one: fn(u64) -> bool,
    out: &mut String,
) {
    render_in(parts, args, one, None, out);
}

fn render_in(
    parts: &[Part<'_>],
    args: &[(&str, Value<'_>)],
    one: fn(u64) -> bool,
    count: Option<&str>,
    out: &mut String,
) {
    let find = |name: &str| args.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
    for part in parts {
        match part {
            Part::Text(text) => out.push_str(text),
            Part::Count => out.push_str(count.unwrap_or("#")),
            Part::Arg(name) => match find(name) {
                Some(Value::Text(text) | Value::Count(_, text)) => out.push_str(text),
                None => {
                    out.push('{');
                    out.push_str(name);
                    out.push('}');
                }
            },
            Part::Choice { name, branches, .. } => {
                let value = find(name);
                let (chosen, shown) = choose(branches, value, one);
                render_in(chosen, args, one, shown.or(count), out);
            }
        }
    }
}

/// The branch for `value`: `=N`, then the category, then `other` (which parsing ensured).
fn choose<'p, 'a, 'v>(
    branches: &'p [(&'a str, Vec<Part<'a>>)],
    value: Option<Value<'v>>,
    one: fn(u64) -> bool,
) -> (&'p [Part<'a>], Option<&'v str>) {
    let (wanted, exact, shown) = match value {
        Some(Value::Count(n, shown)) => {
            (if one(n) { "one" } else { "other" }, Some(n), Some(shown))
        }
        Some(Value::Text(word)) => (word, None, None),
        None => ("other", None, None),
    };
    let pick = |test: &dyn Fn(&str) -> bool| branches.iter().find(|(s, _)| test(s));
    let found = exact
        .and_then(|n| pick(&|s| s.strip_prefix('=').and_then(|d| d.parse().ok()) == Some(n)))
        .or_else(|| pick(&|s| s == wanted))
        .or_else(|| pick(&|s| s == "other"));
    (
        found.map(|(_, parts)| parts.as_slice()).unwrap_or(&[]),
        shown,
    )
}

/// Writes `message` with `args` into `out` as [`render`] does, reading the message as it goes:
/// nothing is parsed into parts, so the console links this and not the parser (the build has
/// parsed every message of every language, so a message here is well formed; one that is not
/// is written as far as it can be, never a panic).
pub fn write(message: &str, args: &[(&str, Value<'_>)], one: fn(u64) -> bool, out: &mut String) {
    write_in(message, false, None, args, one, out);
}

/// Writes a sequence: a whole message, or a branch's text (`in_plural`: `#` is the count).
fn write_in(
    text: &str,
    in_plural: bool,
    count: Option<&str>,
    args: &[(&str, Value<'_>)],
    one: fn(u64) -> bool,
    out: &mut String,
) {
    let mut rest = text;
    while let Some(at) = rest.find(|c| c == '{' || (in_plural && c == '#')) {
        out.push_str(&rest[..at]);
        let hash = rest[at..].starts_with('#');
        rest = &rest[at + 1..];
        if hash {
            out.push_str(count.unwrap_or("#"));
            continue;
        }
        let end = closing(rest);
        write_argument(&rest[..end], count, args, one, out);
        rest = rest.get(end + 1..).unwrap_or("");
    }
    out.push_str(rest);
}

/// What is between an argument's braces: `name`, or `name, plural|select, branches`.
fn write_argument(
    inside: &str,
    count: Option<&str>,
    args: &[(&str, Value<'_>)],
    one: fn(u64) -> bool,
    out: &mut String,
) {
    let (name, choice) = match inside.split_once(',') {
        Some((name, choice)) => (name.trim(), Some(choice)),
        None => (inside.trim(), None),
    };
    let value = args.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
    let Some((kind, mut branches)) = choice.and_then(|c| c.split_once(',')) else {
        match value {
            Some(Value::Text(text) | Value::Count(_, text)) => out.push_str(text),
            None => {
                out.push('{');
                out.push_str(name);
                out.push('}');
            }
        }
        return;
    };
    let (wanted, exact, shown) = match value {
        Some(Value::Count(n, shown)) => {
            (if one(n) { "one" } else { "other" }, Some(n), Some(shown))
        }
        Some(Value::Text(word)) => (word, None, None),
        None => ("other", None, None),
    };
    // The branch for the value: `=N`, then the category or word, then `other`.
    let mut found: [Option<&str>; 3] = [None; 3];
    while let Some(open) = branches.find('{') {
        let selector = branches[..open].trim();
        let body = &branches[open + 1..];
        let end = closing(body);
        let rank = if exact.is_some()
            && selector.strip_prefix('=').and_then(|d| d.parse().ok()) == exact
        {
            0
        } else if selector == wanted {
            1
        } else if selector == "other" {
            2
        } else {
            3
        };
        if let Some(slot) = found.get_mut(rank) {
            slot.get_or_insert(&body[..end]);
        }
        branches = body.get(end + 1..).unwrap_or("");
    }
    let chosen = found.into_iter().flatten().next().unwrap_or("");
    write_in(
        chosen,
        kind.trim() == "plural",
        shown.or(count),
        args,
        one,
        out,
    );
}

/// Where the `}` that closes an opened brace is in `text` (its end if none does).
fn closing(text: &str) -> usize {
    let mut depth = 0usize;
    for (at, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return at,
            '}' => depth -= 1,
            _ => {}
        }
    }
    text.len()
}

/// Every argument `parts` names, with its kind, in order of first appearance.
pub fn arguments<'a>(parts: &[Part<'a>]) -> Vec<(&'a str, Kind)> {
    let mut found = Vec::new();
    collect(parts, &mut found);
    found
}

fn collect<'a>(parts: &[Part<'a>], found: &mut Vec<(&'a str, Kind)>) {
    for part in parts {
        match part {
            Part::Arg(name) => add(found, name, Kind::Text),
            Part::Choice {
                name,
                kind,
                branches,
            } => {
                add(found, name, *kind);
                for (_, inner) in branches {
                    collect(inner, found);
                }
            }
            Part::Text(_) | Part::Count => {}
        }
    }
}

/// A name used both as text and to choose keeps the stricter kind (the choice's).
fn add<'a>(found: &mut Vec<(&'a str, Kind)>, name: &'a str, kind: Kind) {
    match found.iter_mut().find(|(n, _)| *n == name) {
        Some(entry) => entry.1 = entry.1.max(kind),
        None => found.push((name, kind)),
    }
}

/// The `one` rule of English and German: exactly 1.
pub fn one_is_one(n: u64) -> bool {
    n == 1
}

/// The `one` rule of French: 0 and 1.
pub fn one_is_zero_or_one(n: u64) -> bool {
    n <= 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(message: &str, args: &[(&str, Value<'_>)], one: fn(u64) -> bool) -> String {
        let parts = parse(message).expect("a valid message");
        let mut out = String::new();
        render(&parts, args, one, &mut out);
        out
    }

    #[test]
    fn arguments_and_counts_are_written() {
        let message = "{name} chose {count, plural, =0 {no users} one {# user} other {# users}}.";
        let args = |n, shown| {
            [
                ("name", Value::Text("Ada")),
                ("count", Value::Count(n, shown)),
            ]
        };
        assert_eq!(
            show(message, &args(0, "0"), one_is_one),
            "Ada chose no users."
        );
        assert_eq!(
            show(message, &args(1, "1"), one_is_one),
            "Ada chose 1 user."
        );
        assert_eq!(
            show(message, &args(1234, "1,234"), one_is_one),
            "Ada chose 1,234 users."
        );
        let french = "{count, plural, one {# utilisateur} other {# utilisateurs}}";
        let args = [("count", Value::Count(0, "0"))];
        assert_eq!(show(french, &args, one_is_zero_or_one), "0 utilisateur");
    }

    #[test]
    fn a_select_chooses_by_word_and_falls_back_to_other() {
        let message = "{role, select, admin {An admin} other {A member}}";
        assert_eq!(
            show(message, &[("role", Value::Text("admin"))], one_is_one),
            "An admin"
        );
        assert_eq!(
            show(message, &[("role", Value::Text("x"))], one_is_one),
            "A member"
        );
    }

    #[test]
    fn writing_as_it_reads_equals_rendering_the_parts() {
        let messages = [
            "{name} chose {count, plural, =0 {no users} one {# user} other {# users}}.",
            "{role, select, admin {An admin} other {A member of {name}}}",
            "{n, plural, one {# {kind, select, a {A #} other {B}}} other {#, {name}}} #",
            "Hello {name}",
            "Plain text, # not a count",
        ];
        for message in messages {
            for (n, shown) in [(0, "0"), (1, "1"), (2, "2"), (1234, "1,234")] {
                for kind in ["a", "admin", "zz"] {
                    let args = [
                        ("name", Value::Text("Ada")),
                        ("count", Value::Count(n, shown)),
                        ("n", Value::Count(n, shown)),
                        ("kind", Value::Text(kind)),
                        ("role", Value::Text(kind)),
                    ];
                    for one in [one_is_one as fn(u64) -> bool, one_is_zero_or_one] {
                        let mut written = String::new();
                        write(message, &args, one, &mut written);
                        assert_eq!(written, show(message, &args, one), "{message}");
                    }
                }
            }
            let mut written = String::new();
            write(message, &[], one_is_one, &mut written);
            assert_eq!(
                written,
                show(message, &[], one_is_one),
                "{message} without arguments"
            );
        }
    }

    /// Messages the build refuses.
    const BROKEN: [&str; 8] = [
        "{",
        "}",
        "{name",
        "{n, plural, one {x}}",
        "{n, plural, other {x}",
        "{n, list, other {x}}",
        "{}",
        "{n,",
    ];

    #[test]
    fn a_broken_message_is_written_without_a_panic() {
        for broken in BROKEN {
            let mut out = String::new();
            write(broken, &[("n", Value::Count(1, "1"))], one_is_one, &mut out);
        }
    }

    #[test]
    fn a_missing_argument_shows_its_name() {
        assert_eq!(show("Hello {name}", &[], one_is_one), "Hello {name}");
    }

    #[test]
    fn broken_messages_are_refused() {
        for broken in BROKEN {
            assert!(parse(broken).is_err(), "{broken}");
        }
    }

    #[test]
    fn arguments_are_listed_with_their_kind() {
        let parts = parse("{a} {n, plural, one {# {b}} other {#}} {a}").expect("valid");
        assert_eq!(
            arguments(&parts),
            [("a", Kind::Text), ("n", Kind::Plural), ("b", Kind::Text)]
        );
    }
}
