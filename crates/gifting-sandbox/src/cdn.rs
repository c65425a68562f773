//! A stand-in image CDN: product pictures drawn as SVG from the product itself, in three
//! sizes. The thumbnail is a different, simpler drawing (no text), so it is genuinely
//! smaller than the main image, as a real thumbnail is.
//!
//! Images never change for a given address, so they are cacheable for a year and carry an
//! ETag; a matching `If-None-Match` gets 304.

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use sha2::{Digest, Sha256};

use crate::data::catalog::ProductRecord;
use crate::html::escape;
use crate::state::Shared;

pub fn router() -> Router<Shared> {
    Router::new()
        .route("/products/{product}/{variant}/{image}/{file}", get(image))
        .fallback(not_found)
}

pub async fn not_found() -> Response {
    missing()
}

fn missing() -> Response {
    (StatusCode::NOT_FOUND, "No such image.").into_response()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Size {
    Original,
    Main,
    Thumb,
}

impl Size {
    fn from_file(file: &str) -> Option<Size> {
        match file {
            "original.svg" => Some(Size::Original),
            "main.svg" => Some(Size::Main),
            "thumb.svg" => Some(Size::Thumb),
            _ => None,
        }
    }
}

/// First `max` characters (never cutting a character in half), with an ellipsis if cut.
fn clip(text: &str, max: usize) -> String {
    let mut out: String = text.chars().take(max).collect();
    if text.chars().count() > max {
        out.push('…');
    }
    out
}

fn svg(p: &ProductRecord, variant_index: usize, image: u8, size: Size) -> String {
    let hue = (u32::from(p.hue) + variant_index as u32 * 47 + u32::from(image) * 23) % 360;
    let dark = (hue + 40) % 360;
    if size == Size::Thumb {
        return format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"120\" height=\"120\" viewBox=\"0 0 120 120\">\
             <rect width=\"120\" height=\"120\" fill=\"hsl({hue},65%,55%)\"/>\
             <rect x=\"34\" y=\"48\" width=\"52\" height=\"40\" fill=\"#fff\"/>\
             <rect x=\"56\" y=\"40\" width=\"8\" height=\"48\" fill=\"hsl({dark},70%,35%)\"/></svg>"
        );
    }
    let px = if size == Size::Original { 1200 } else { 600 };
    let name = escape(&p.name);
    let label = escape(&clip(&p.name, 28));
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{px}\" height=\"{px}\" viewBox=\"0 0 600 600\" role=\"img\" aria-label=\"{name}\">\n\
         <title>{name}</title>\n\
         <defs><linearGradient id=\"g\" x1=\"0\" y1=\"0\" x2=\"1\" y2=\"1\">\
         <stop offset=\"0\" stop-color=\"hsl({hue},70%,58%)\"/><stop offset=\"1\" stop-color=\"hsl({dark},70%,32%)\"/>\
         </linearGradient></defs>\n\
         <rect width=\"600\" height=\"600\" fill=\"url(#g)\"/>\n\
         <rect x=\"170\" y=\"250\" width=\"260\" height=\"190\" rx=\"12\" fill=\"#fff\" fill-opacity=\"0.92\"/>\n\
         <rect x=\"150\" y=\"205\" width=\"300\" height=\"60\" rx=\"10\" fill=\"#fff\"/>\n\
         <rect x=\"285\" y=\"205\" width=\"30\" height=\"235\" fill=\"hsl({dark},70%,38%)\"/>\n\
         <path d=\"M300 205 C250 130 190 170 300 205 C410 170 350 130 300 205Z\" fill=\"hsl({dark},70%,38%)\"/>\n\
         <text x=\"300\" y=\"515\" font-family=\"system-ui,sans-serif\" font-size=\"30\" text-anchor=\"middle\" fill=\"#fff\">{label}</text>\n\
         <text x=\"300\" y=\"555\" font-family=\"system-ui,sans-serif\" font-size=\"18\" text-anchor=\"middle\" fill=\"#fff\" fill-opacity=\"0.8\">variant {} · image {image}</text>\n\
         </svg>\n",
        variant_index + 1
    )
}

fn etag_of(body: &str) -> String {
    let d = Sha256::digest(body.as_bytes());
    let hex: String = d.iter().take(16).map(|b| format!("{b:02x}")).collect();
    format!("\"{hex}\"")
}

/// RFC 9110 §13.1.2: weak comparison, a list, or `*`.
fn none_match(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim())
        .any(|t| t == "*" || t.trim_start_matches("W/") == etag)
}

async fn image(
    State(app): State<Shared>,
    headers: HeaderMap,
    Path((product, variant, image, file)): Path<(String, String, String, String)>,
) -> Response {
    let Some(size) = Size::from_file(&file) else {
        return missing();
    };
    let body = {
        let world = app.read();
        let found = world
            .db
            .products
            .iter()
            .find(|p| p.id == product)
            .and_then(|p| {
                let (vi, v) = p
                    .variants
                    .iter()
                    .enumerate()
                    .find(|(_, v)| v.id == variant)?;
                let n: u8 = image.parse().ok()?;
                (1..=v.image_count)
                    .contains(&n)
                    .then(|| svg(p, vi, n, size))
            });
        match found {
            Some(b) => b,
            None => return missing(),
        }
    };
    let etag = etag_of(&body);
    let mut res = if none_match(&headers, &etag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        body.into_response()
    };
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("image/svg+xml"),
    );
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=31536000, immutable"),
    );
    if let Ok(v) = HeaderValue::from_str(&etag) {
        h.insert(header::ETAG, v);
    }
    // An SVG opened directly is a document: make sure it can never run anything.
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'none'; sandbox"),
    );
    res
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::catalog::VariantRecord;

    fn product(name: &str) -> ProductRecord {
        ProductRecord {
            id: "prd_1".into(),
            name: name.into(),
            description: String::new(),
            category_ids: vec!["101"],
            ship_to: vec!["US"],
            variants: vec![VariantRecord {
                id: "v".into(),
                currency: "USD",
                price_cents: 100,
                image_count: 1,
            }],
            hue: 10,
        }
    }

    #[test]
    fn thumbnail_is_smaller_and_text_is_escaped() {
        let p = product("<script>alert(1)</script>");
        let main = svg(&p, 0, 1, Size::Main);
        let thumb = svg(&p, 0, 1, Size::Thumb);
        assert!(thumb.len() < main.len());
        assert!(!main.contains("<script>"));
        let long = product(&"é".repeat(100));
        assert!(svg(&long, 0, 1, Size::Main).contains('…'));
    }
}
