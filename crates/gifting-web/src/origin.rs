//! The origin a request came in on, for absolute URLs (`/config.json`, image addresses,
//! `next_page.url`, SCIM `Location`). Using the request's Host makes `localhost` and
//! `127.0.0.1` both work; a Host with anything but host-name characters is ignored, so a
//! forged header cannot inject text into those URLs.

use axum::http::{header, HeaderMap};

/// `scheme://host[:port]` from a clean `Host` header, or `None`.
pub fn from_host(headers: &HeaderMap, scheme: &str) -> Option<String> {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(str::trim)
        .filter(|h| {
            !h.is_empty()
                && h.len() <= 255
                && h.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b))
        })?;
    Some(format!("{scheme}://{host}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn uses_a_clean_host_and_refuses_a_forged_one() {
        let mut h = HeaderMap::new();
        assert_eq!(from_host(&h, "http"), None);
        h.insert(header::HOST, HeaderValue::from_static("localhost:9"));
        assert_eq!(
            from_host(&h, "https").as_deref(),
            Some("https://localhost:9")
        );
        h.insert(header::HOST, HeaderValue::from_static("evil.example/\"><x"));
        assert_eq!(from_host(&h, "http"), None);
    }
}
