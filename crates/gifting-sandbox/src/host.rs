//! The origin a request came in on, for absolute URLs (/config.json, image addresses,
//! `next_page.url`, SCIM `Location`). Using the request's Host makes `localhost` and
//! `127.0.0.1` both work; a Host with anything but host-name characters is ignored, so a
//! forged header cannot inject text into those URLs.

use axum::http::{header, HeaderMap};

pub fn origin(headers: &HeaderMap, port: u16) -> String {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(str::trim)
        .filter(|h| {
            !h.is_empty()
                && h.len() <= 255
                && h.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b))
        });
    match host {
        Some(h) => format!("http://{h}"),
        None => format!("http://127.0.0.1:{port}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn uses_a_clean_host_and_refuses_a_forged_one() {
        let mut h = HeaderMap::new();
        assert_eq!(origin(&h, 9), "http://127.0.0.1:9");
        h.insert(header::HOST, HeaderValue::from_static("localhost:9"));
        assert_eq!(origin(&h, 9), "http://localhost:9");
        h.insert(header::HOST, HeaderValue::from_static("evil.example/\"><x"));
        assert_eq!(origin(&h, 9), "http://127.0.0.1:9");
    }
}
