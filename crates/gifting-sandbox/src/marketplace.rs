//! `GET /api/v3/marketplace/products`: the catalog with filters and an opaque cursor.

use axum::extract::{RawQuery, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::{Json, Router};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use gifting_api::marketplace::{
    CdnRef, EstimatedPrice, Image, NextPage, Pagination, Product, ProductsPage, ProductsQuery,
    Variant, PAGE_SIZE,
};
use gifting_api::paths::{endpoint, MARKETPLACE_PRODUCTS};

use crate::data::catalog::{usd_cents, ProductRecord, VariantRecord};
use crate::data::money;
use crate::errors::ApiError;
use crate::host::origin;
use crate::routing::Area;
use crate::state::Shared;

/// Nested at [`PREFIX`].
pub fn router() -> Router<Shared> {
    Area::new(PREFIX)
        .serve(endpoint::LIST_PRODUCTS, products)
        .router()
}

pub const PREFIX: &str = "/api/v3/marketplace";

/// The cursor is the catalog position of the last product returned, wrapped so clients
/// treat it as opaque (and a version prefix lets its format change later).
fn encode_cursor(position: usize) -> String {
    URL_SAFE_NO_PAD.encode(format!("v1:{position}"))
}

fn decode_cursor(cursor: &str) -> Option<usize> {
    let bytes = URL_SAFE_NO_PAD.decode(cursor.trim()).ok()?;
    let text = String::from_utf8(bytes).ok()?;
    text.strip_prefix("v1:")?.parse().ok()
}

/// Whether product `p`, whose lowercased name and description are `text`, passes the filters.
fn matches(
    p: &ProductRecord,
    text: &(String, String),
    q: &ProductsQuery,
    needle: Option<&str>,
) -> bool {
    let gte = q.price_gte_usd.map(|d| i64::from(d) * 100);
    let lte = q.price_lte_usd.map(|d| i64::from(d) * 100);
    let priced = p.variants.iter().any(|v| {
        let usd = usd_cents(v.currency, v.price_cents);
        gte.is_none_or(|g| usd >= g) && lte.is_none_or(|l| usd <= l)
    });
    let ships = q.ship_to_country_codes.is_empty()
        || q.ship_to_country_codes
            .iter()
            .any(|c| p.ship_to.iter().any(|s| s.eq_ignore_ascii_case(c.trim())));
    let categorized = q.category_ids.is_empty()
        || q.category_ids
            .iter()
            .any(|c| p.category_ids.contains(&c.trim()));
    // "Exact text match" in the seed; users expect a case-insensitive substring.
    let found = needle.is_none_or(|n| text.0.contains(n) || text.1.contains(n));
    priced && ships && categorized && found
}

fn render(p: &ProductRecord, base: &str) -> Product {
    Product {
        id: p.id.clone(),
        name: p.name.clone(),
        description: p.description.clone(),
        variants: p
            .variants
            .iter()
            .map(|v| render_variant(p, v, base))
            .collect(),
    }
}

fn render_variant(p: &ProductRecord, v: &VariantRecord, base: &str) -> Variant {
    let images = (1..=v.image_count)
        .map(|n| {
            let stem = format!("{base}/cdn/products/{}/{}/{n}", p.id, v.id);
            Image {
                url: format!("{stem}/original.svg"),
                cdn_main: CdnRef {
                    url: format!("{stem}/main.svg"),
                },
                cdn_thumbnail: CdnRef {
                    url: format!("{stem}/thumb.svg"),
                },
            }
        })
        .collect();
    Variant {
        id: v.id.clone(),
        estimated_total_price: EstimatedPrice {
            currency: v.currency.to_owned(),
            price_per_unit: money(v.price_cents),
        },
        images,
    }
}

async fn products(
    State(app): State<Shared>,
    headers: HeaderMap,
    RawQuery(raw): RawQuery,
) -> Result<Response, ApiError> {
    // Read and bounded before the lock: what is matched under it is at most a few hundred
    // values, however long the URL.
    let query =
        ProductsQuery::parse(raw.as_deref().unwrap_or("")).map_err(ApiError::bad_request)?;
    let start = match &query.after {
        None => 0,
        Some(c) => decode_cursor(c)
            .map(|p| p.saturating_add(1))
            .ok_or_else(|| {
                ApiError::bad_request("The after cursor is not one this catalog issued.")
            })?,
    };
    let needle = query
        .text_search
        .as_deref()
        .map(|t| t.trim().to_lowercase())
        .filter(|t| !t.is_empty());
    let base = origin(&headers, app.port);
    let world = app.read();
    let db = &world.db;
    let mut hits = db
        .products
        .iter()
        .zip(&db.product_text)
        .enumerate()
        .skip(start)
        .filter(|(_, (p, text))| matches(p, text, &query, needle.as_deref()))
        .map(|(at, (p, _))| (at, p));
    let page: Vec<(usize, &ProductRecord)> = hits.by_ref().take(PAGE_SIZE).collect();
    let more = hits.next().is_some();
    let pagination = match page.last() {
        Some((last, _)) if more => {
            let after = encode_cursor(*last);
            let next = ProductsQuery {
                after: Some(after.clone()),
                ..query.clone()
            };
            Pagination {
                after: Some(after),
                next_page: Some(NextPage {
                    url: format!("{base}{MARKETPLACE_PRODUCTS}{}", next.to_query_string()),
                }),
            }
        }
        _ => Pagination::default(),
    };
    let body = ProductsPage {
        pagination,
        categories: db.categories.clone(),
        products: page.iter().map(|(_, p)| render(p, &base)).collect(),
    };
    drop(world);
    Ok(Json(body).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_round_trips_and_refuses_garbage() {
        assert_eq!(decode_cursor(&encode_cursor(23)), Some(23));
        assert_eq!(decode_cursor("not-a-cursor"), None);
        assert_eq!(decode_cursor(&URL_SAFE_NO_PAD.encode("v2:1")), None);
    }
}
