//! The marketplace catalog: products, variants, images, categories and the cursor envelope.

use crate::query::{pairs, QueryBuilder};
use serde::{Deserialize, Serialize};

/// Products per page; the platform's page size is fixed.
pub const PAGE_SIZE: usize = 24;

/// The most `ship_to_country_codes[]` values a query may carry: every ISO country fits.
pub const MAX_COUNTRY_CODES: usize = 300;
/// The most `category_ids[]` values a query may carry: more than the catalog has categories.
pub const MAX_CATEGORY_IDS: usize = 200;
/// The longest `text_search`, in characters: longer than any product's name.
pub const MAX_TEXT_SEARCH: usize = 500;

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct CdnRef {
    pub url: String,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Image {
    pub url: String,
    pub cdn_main: CdnRef,
    pub cdn_thumbnail: CdnRef,
}

impl Image {
    /// Addresses to try for a small picture, best first: thumbnail, main image, original.
    pub fn thumbnail_candidates(&self) -> impl Iterator<Item = &str> {
        [&self.cdn_thumbnail.url, &self.cdn_main.url, &self.url]
            .into_iter()
            .map(String::as_str)
            .filter(|u| is_web_url(u))
    }

    /// Addresses to try for a large picture, best first: main image, original.
    pub fn main_candidates(&self) -> impl Iterator<Item = &str> {
        [&self.cdn_main.url, &self.url]
            .into_iter()
            .map(String::as_str)
            .filter(|u| is_web_url(u))
    }
}

/// Only `http:` and `https:` image addresses are used: never `javascript:` or `data:`.
pub fn is_web_url(url: &str) -> bool {
    let lower = url.trim_start().to_ascii_lowercase();
    lower.starts_with("https://") || lower.starts_with("http://")
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct EstimatedPrice {
    pub currency: String,
    /// Decimal text.
    pub price_per_unit: String,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    pub id: String,
    pub estimated_total_price: EstimatedPrice,
    #[serde(default)]
    pub images: Vec<Image>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Product {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub variants: Vec<Variant>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Category {
    pub id: String,
    pub name: String,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct CategoryGroup {
    pub group_name: String,
    #[serde(default)]
    pub children: Vec<Category>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct NextPage {
    pub url: String,
}

/// At the end of the catalog both fields are `null`.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, Default)]
pub struct Pagination {
    pub after: Option<String>,
    pub next_page: Option<NextPage>,
}

/// `GET /api/v3/marketplace/products`
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct ProductsPage {
    #[serde(default)]
    pub pagination: Pagination,
    #[serde(default)]
    pub categories: Vec<CategoryGroup>,
    #[serde(default)]
    pub products: Vec<Product>,
}

/// The catalog's filters and cursor. Also the console's URL state for the catalog screen.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProductsQuery {
    pub after: Option<String>,
    pub price_gte_usd: Option<u32>,
    pub price_lte_usd: Option<u32>,
    pub ship_to_country_codes: Vec<String>,
    pub category_ids: Vec<String>,
    pub text_search: Option<String>,
}

impl ProductsQuery {
    pub fn to_query_string(&self) -> String {
        let mut q = QueryBuilder::new()
            .push_opt("after", self.after.as_deref())
            .push_opt("price_gte_usd", self.price_gte_usd)
            .push_opt("price_lte_usd", self.price_lte_usd);
        for code in &self.ship_to_country_codes {
            q = q.push("ship_to_country_codes[]", code);
        }
        for id in &self.category_ids {
            q = q.push("category_ids[]", id);
        }
        q.push_opt("text_search", self.text_search.as_deref())
            .build()
    }

    /// Reads a query string (without `?`). Unparseable prices are reported by name, and so
    /// are more values than any client sends ([`MAX_COUNTRY_CODES`], [`MAX_CATEGORY_IDS`],
    /// [`MAX_TEXT_SEARCH`]): the read stops there, so a huge query costs no more than that.
    pub fn parse(query: &str) -> Result<ProductsQuery, String> {
        let mut q = ProductsQuery::default();
        for (key, value) in pairs(query).filter(|(_, v)| !v.is_empty()) {
            match key.as_str() {
                "after" => q.after = Some(value),
                "price_gte_usd" => q.price_gte_usd = Some(parse_usd("price_gte_usd", &value)?),
                "price_lte_usd" => q.price_lte_usd = Some(parse_usd("price_lte_usd", &value)?),
                "ship_to_country_codes[]" | "ship_to_country_codes" => push_at_most(
                    &mut q.ship_to_country_codes,
                    value,
                    "ship_to_country_codes[]",
                    MAX_COUNTRY_CODES,
                )?,
                "category_ids[]" | "category_ids" => push_at_most(
                    &mut q.category_ids,
                    value,
                    "category_ids[]",
                    MAX_CATEGORY_IDS,
                )?,
                "text_search" if value.chars().count() > MAX_TEXT_SEARCH => {
                    return Err(format!(
                        "text_search has at most {MAX_TEXT_SEARCH} characters."
                    ))
                }
                "text_search" => q.text_search = Some(value),
                _ => {}
            }
        }
        Ok(q)
    }
}

/// Adds `value` to a repeated parameter's `values`, unless that makes more than `max`.
fn push_at_most(
    values: &mut Vec<String>,
    value: String,
    name: &str,
    max: usize,
) -> Result<(), String> {
    if values.len() >= max {
        return Err(format!(
            "A query takes at most {max} {name} values; this one has more."
        ));
    }
    values.push(value);
    Ok(())
}

fn parse_usd(name: &str, value: &str) -> Result<u32, String> {
    value
        .trim()
        .parse()
        .map_err(|_| format!("{name} must be a whole number of US dollars, not {value:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = r#"{
        "pagination": {"after": "c24", "next_page": {"url": "http://127.0.0.1:8080/api/v3/marketplace/products?after=c24"}},
        "categories": [{"group_name": "Food & Drink", "children": [{"id": "cat_1", "name": "Coffee"}]}],
        "products": [{
            "id": "p_1", "name": "Coffee sampler", "description": "Four roasts",
            "variants": [{
                "id": "v_1",
                "estimated_total_price": {"currency": "USD", "price_per_unit": "32.50"},
                "images": [{"url": "http://x/o.png", "cdn_main": {"url": "http://x/m.svg"},
                            "cdn_thumbnail": {"url": "http://x/t.svg"}}]
            }]
        }]
    }"#;

    #[test]
    fn page_round_trips_and_end_reads_null() {
        let page: ProductsPage = serde_json::from_str(SAMPLE).unwrap();
        assert_eq!(
            page.products[0].variants[0]
                .estimated_total_price
                .price_per_unit,
            "32.50"
        );
        let again: ProductsPage =
            serde_json::from_value(serde_json::to_value(&page).unwrap()).unwrap();
        assert_eq!(again, page);
        let end: ProductsPage = serde_json::from_str(
            r#"{"pagination": {"after": null, "next_page": null}, "categories": [], "products": []}"#,
        )
        .unwrap();
        assert_eq!(end.pagination, Pagination::default());
    }

    #[test]
    fn image_candidates_prefer_thumbnails_and_refuse_scripts() {
        let image = Image {
            url: "javascript:alert(1)".into(),
            cdn_main: CdnRef {
                url: "https://cdn/m".into(),
            },
            cdn_thumbnail: CdnRef {
                url: "data:image/png;base64,AA".into(),
            },
        };
        assert_eq!(
            image.thumbnail_candidates().collect::<Vec<_>>(),
            ["https://cdn/m"]
        );
        assert!(is_web_url("HTTP://cdn/x"));
    }

    #[test]
    fn query_round_trips_with_array_parameters() {
        let q = ProductsQuery {
            after: Some("c48".into()),
            price_gte_usd: Some(10),
            price_lte_usd: Some(100),
            ship_to_country_codes: vec!["US".into(), "CA".into()],
            category_ids: vec!["cat_1".into()],
            text_search: Some("tea & cake".into()),
        };
        let text = q.to_query_string();
        assert!(text.contains("ship_to_country_codes%5B%5D=US&ship_to_country_codes%5B%5D=CA"));
        assert_eq!(ProductsQuery::parse(&text[1..]).unwrap(), q);
        assert!(ProductsQuery::parse("price_gte_usd=ten").is_err());
        assert_eq!(ProductsQuery::parse("").unwrap(), ProductsQuery::default());
    }

    fn repeated(key: &str, n: usize) -> String {
        (0..n).map(|i| format!("{key}=v{i}&")).collect()
    }

    #[test]
    fn query_takes_every_value_a_client_sends_and_refuses_more() {
        let every_country: String = crate::countries::COUNTRIES
            .iter()
            .map(|(code, _)| format!("ship_to_country_codes%5B%5D={code}&"))
            .collect();
        let q = ProductsQuery::parse(&every_country).unwrap();
        assert_eq!(
            q.ship_to_country_codes.len(),
            crate::countries::COUNTRIES.len()
        );
        assert!(
            ProductsQuery::parse(&repeated("ship_to_country_codes[]", MAX_COUNTRY_CODES)).is_ok()
        );
        let err = ProductsQuery::parse(&repeated("ship_to_country_codes[]", MAX_COUNTRY_CODES + 1))
            .unwrap_err();
        assert!(err.contains("at most 300 ship_to_country_codes[]"), "{err}");
        assert!(ProductsQuery::parse(&repeated("category_ids[]", MAX_CATEGORY_IDS)).is_ok());
        let err =
            ProductsQuery::parse(&repeated("category_ids", MAX_CATEGORY_IDS + 1)).unwrap_err();
        assert!(err.contains("at most 200 category_ids[]"), "{err}");
        let long = format!("text_search={}", "a".repeat(MAX_TEXT_SEARCH + 1));
        assert!(ProductsQuery::parse(&long)
            .unwrap_err()
            .contains("text_search"));
    }

    #[test]
    fn query_parse_stops_at_the_bound() {
        // 2,600 codes (a 65 KB URL) and then a bad price: the parse stops at code 301 and
        // never reads on to the price.
        let hostile = format!(
            "{}price_gte_usd=ten",
            repeated("ship_to_country_codes[]", 2600)
        );
        let err = ProductsQuery::parse(&hostile).unwrap_err();
        assert!(err.contains("ship_to_country_codes"), "{err}");
    }
}
