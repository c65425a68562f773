//! The catalog's filters live in the address bar, written and read with the contract's
//! [`ProductsQuery`], so a filtered catalog can be shared, bookmarked and reloaded.
//!
//! The address never carries a cursor: the grid is several pages long, and reopening it starts
//! from the first page of the same filters.

use gifting_api::marketplace::{
    ProductsQuery, MAX_CATEGORY_IDS, MAX_COUNTRY_CODES, MAX_TEXT_SEARCH,
};
use gifting_api::query::{encode_component, parse_pairs};

use super::price::{validate_prices, PriceErrors, PriceTexts};
use crate::routes;

/// The filters read from an address, with what was wrong in it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct UrlFilters {
    /// What is asked of the platform: the readable filters, no cursor.
    pub(crate) query: ProductsQuery,
    /// The price fields exactly as the address wrote them, for the form.
    pub(crate) prices: PriceTexts,
    /// Price bounds that were refused (dropped from `query`) or contradict each other.
    pub(crate) problems: PriceErrors,
    /// The address asked for more than a query takes (more countries or categories, a longer
    /// search): what was too much; `query` holds what fits.
    pub(crate) beyond: Option<String>,
}

/// Reads `?text_search=…&price_gte_usd=…` (with or without the `?`). A price that is not a
/// whole number is left out of the request and reported for its field, rather than failing
/// the whole address.
pub(crate) fn filters_from_search(search: &str) -> UrlFilters {
    let search = search.strip_prefix('?').unwrap_or(search);
    let raw = |key: &str| {
        parse_pairs(search)
            .into_iter()
            .rev()
            .find(|(k, v)| k == key && !v.is_empty())
            .map(|(_, v)| v)
            .unwrap_or_default()
    };
    let prices = PriceTexts {
        min: raw("price_gte_usd"),
        max: raw("price_lte_usd"),
    };
    let problems = validate_prices(&prices.min, &prices.max)
        .err()
        .unwrap_or_default();

    // The other filters never fail to parse; the prices come from the check above.
    let without_prices: Vec<String> = search
        .split('&')
        .filter(|part| {
            let key = part.split('=').next().unwrap_or("");
            key != "price_gte_usd" && key != "price_lte_usd"
        })
        .map(str::to_string)
        .collect();
    let rest = without_prices.join("&");
    let (mut query, beyond) = match ProductsQuery::parse(&rest) {
        Ok(query) => (query, None),
        Err(problem) => (within_bounds(&rest), Some(problem)),
    };
    query.after = None;
    // Each bound readable on its own is kept; a minimum above the maximum stays too (the
    // platform then answers with nothing, and the form says why).
    query.price_gte_usd = whole(&prices.min);
    query.price_lte_usd = whole(&prices.max);
    query.text_search = query
        .text_search
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty());
    normalise_list(&mut query.ship_to_country_codes, true);
    normalise_list(&mut query.category_ids, false);
    UrlFilters {
        query,
        prices,
        problems,
        beyond,
    }
}

/// The filters of `rest` up to what a query takes: the first countries and categories, the
/// search cut to its longest.
fn within_bounds(rest: &str) -> ProductsQuery {
    let (mut countries, mut categories) = (0, 0);
    let kept: Vec<String> = parse_pairs(rest)
        .into_iter()
        .filter_map(|(key, value)| {
            let keep = match key.trim_end_matches("[]") {
                "ship_to_country_codes" => {
                    countries += 1;
                    countries <= MAX_COUNTRY_CODES
                }
                "category_ids" => {
                    categories += 1;
                    categories <= MAX_CATEGORY_IDS
                }
                _ => true,
            };
            let value = if key == "text_search" {
                value.chars().take(MAX_TEXT_SEARCH).collect()
            } else {
                value
            };
            keep.then(|| format!("{}={}", encode_component(&key), encode_component(&value)))
        })
        .collect();
    ProductsQuery::parse(&kept.join("&")).unwrap_or_default()
}

fn whole(text: &str) -> Option<u32> {
    validate_prices(text, "").ok().and_then(|b| b.min)
}

/// Trimmed, without blanks or repeats (country codes upper-cased), in first-seen order.
fn normalise_list(list: &mut Vec<String>, upper: bool) {
    let mut out: Vec<String> = Vec::with_capacity(list.len());
    for item in list.drain(..) {
        let item = item.trim();
        let item = if upper {
            item.to_ascii_uppercase()
        } else {
            item.to_string()
        };
        if !item.is_empty() && !out.contains(&item) {
            out.push(item);
        }
    }
    *list = out;
}

/// The filter part of the address: `?…` or empty. Never a cursor.
pub(crate) fn filters_query_string(filters: &ProductsQuery) -> String {
    ProductsQuery {
        after: None,
        ..filters.clone()
    }
    .to_query_string()
}

/// `/catalog?…` for these filters.
pub(crate) fn catalog_href(filters: &ProductsQuery) -> String {
    format!("{}{}", routes::CATALOG, filters_query_string(filters))
}

/// `/catalog/{id}?…`: a product, opened over the grid of the same filters.
pub(crate) fn product_href(id: &str, filters: &ProductsQuery) -> String {
    format!("{}{}", routes::product(id), filters_query_string(filters))
}

#[cfg(test)]
mod beyond_tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn an_address_beyond_the_bounds_keeps_what_fits_and_says_so() {
        let countries: Vec<String> = (0..MAX_COUNTRY_CODES + 5)
            .map(|i| format!("ship_to_country_codes[]=C{i}"))
            .collect();
        let search = format!("?text_search=mug&{}", countries.join("&"));
        let read = filters_from_search(&search);
        assert_eq!(
            read.query.text_search.as_deref(),
            Some("mug"),
            "the search is kept"
        );
        assert_eq!(read.query.ship_to_country_codes.len(), MAX_COUNTRY_CODES);
        assert!(read.beyond.is_some_and(|b| b.contains("at most 300")));
        assert_eq!(filters_from_search("?text_search=mug").beyond, None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn address_round_trips_through_the_contract_query() {
        let filters = ProductsQuery {
            after: Some("cursor".into()),
            price_gte_usd: Some(10),
            price_lte_usd: Some(80),
            ship_to_country_codes: vec!["CA".into(), "GB".into()],
            category_ids: vec!["101".into()],
            text_search: Some("tea & cake".into()),
        };
        let href = catalog_href(&filters);
        assert!(href.starts_with("/catalog?price_gte_usd=10&price_lte_usd=80&"));
        assert!(!href.contains("after="), "{href}");
        let back = filters_from_search(href.trim_start_matches("/catalog"));
        assert_eq!(
            back.query,
            ProductsQuery {
                after: None,
                ..filters.clone()
            }
        );
        assert!(back.problems.is_empty());
        assert_eq!(back.prices.min, "10");
        assert_eq!(catalog_href(&ProductsQuery::default()), "/catalog");
        assert_eq!(
            product_href("prd_1/x", &ProductsQuery::default()),
            "/catalog/prd_1%2Fx"
        );
    }

    #[wasm_bindgen_test]
    fn a_bad_price_is_reported_not_fatal() {
        let read = filters_from_search("?text_search=mug&price_gte_usd=ten&price_lte_usd=40");
        assert_eq!(read.query.text_search.as_deref(), Some("mug"));
        assert_eq!(read.query.price_gte_usd, None);
        assert_eq!(read.query.price_lte_usd, Some(40));
        assert!(read.problems.min.is_some());
        assert_eq!(read.problems.max, None);
        assert_eq!(read.prices.min, "ten");

        let crossed = filters_from_search("price_gte_usd=90&price_lte_usd=10");
        assert_eq!(crossed.query.price_gte_usd, Some(90));
        assert_eq!(crossed.query.price_lte_usd, Some(10));
        assert!(crossed.problems.max.is_some());
    }

    #[wasm_bindgen_test]
    fn lists_are_cleaned_and_cursor_dropped() {
        let read = filters_from_search(
            "after=abc&ship_to_country_codes%5B%5D=ca&ship_to_country_codes%5B%5D=CA\
             &ship_to_country_codes[]=%20&category_ids[]=101&category_ids[]=101&text_search=%20%20",
        );
        assert_eq!(read.query.after, None);
        assert_eq!(read.query.ship_to_country_codes, ["CA"]);
        assert_eq!(read.query.category_ids, ["101"]);
        assert_eq!(read.query.text_search, None);
    }
}
