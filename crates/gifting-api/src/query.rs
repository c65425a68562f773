//! Query strings: percent-encoding and a small builder, so every typed query renders the same way.

/// Percent-encodes everything but RFC 3986 unreserved characters.
pub fn encode_component(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                out.push(byte as char)
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// Decodes `%XX` escapes and `+` as space; invalid escapes are kept as written.
pub fn decode_component(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
                match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(b) => {
                        out.push(b);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The decoded pairs of `a=1&b=2` (no leading `?`), one at a time: a reader that stops early
/// (at a bound) decodes no further.
pub fn pairs(query: &str) -> impl Iterator<Item = (String, String)> + '_ {
    query
        .split('&')
        .filter(|part| !part.is_empty())
        .map(|part| match part.split_once('=') {
            Some((k, v)) => (decode_component(k), decode_component(v)),
            None => (decode_component(part), String::new()),
        })
}

/// Splits `a=1&b=2` (no leading `?`) into decoded pairs.
pub fn parse_pairs(query: &str) -> Vec<(String, String)> {
    pairs(query).collect()
}

/// Builds `?a=1&b=2`, skipping absent values; empty when nothing was added.
#[derive(Default, Debug, Clone)]
pub struct QueryBuilder {
    parts: Vec<String>,
}

impl QueryBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push(mut self, key: &str, value: impl ToString) -> Self {
        self.parts.push(format!(
            "{}={}",
            encode_component(key),
            encode_component(&value.to_string())
        ));
        self
    }

    pub fn push_opt<T: ToString>(self, key: &str, value: Option<T>) -> Self {
        match value {
            Some(v) => self.push(key, v),
            None => self,
        }
    }

    /// `?…` or an empty string.
    pub fn build(&self) -> String {
        if self.parts.is_empty() {
            String::new()
        } else {
            format!("?{}", self.parts.join("&"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_and_decodes_round_trip() {
        let hostile = r#"userName eq "a+b@example.com" & x=1 ✓"#;
        assert_eq!(decode_component(&encode_component(hostile)), hostile);
        assert_eq!(decode_component("a%2"), "a%2");
        assert_eq!(decode_component("%zz"), "%zz");
    }

    #[test]
    fn builder_skips_absent_values() {
        let q = QueryBuilder::new()
            .push("page", 2)
            .push_opt::<u32>("per_page", None)
            .push("ship_to_country_codes[]", "US")
            .build();
        assert_eq!(q, "?page=2&ship_to_country_codes%5B%5D=US");
        assert_eq!(QueryBuilder::new().build(), "");
        assert_eq!(
            parse_pairs("a=1&b=x%20y&c"),
            vec![
                ("a".into(), "1".into()),
                ("b".into(), "x y".into()),
                ("c".into(), String::new())
            ]
        );
    }
}
