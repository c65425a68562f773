//! `/campaigns?q=`: a name search over every active campaign. The platform searches nothing
//! and pages campaigns 100 at most, so every page is read, in a lane of the token's pacer (as
//! the other long reads are), and the names matched here.

use gifting_api::paths::endpoint;
use gifting_api::rest::{Campaign, PageQuery, TouchPage, TouchesQuery, MAX_PER_PAGE};
use gifting_api::DeliveryType;

use crate::api::{ApiClient, ApiError};
use crate::http::pacing::Lane;

/// Stops a platform that keeps answering full pages from looping forever.
const MOST_PAGES: u32 = 1_000;

/// Whether `name` matches the search (without case).
pub(crate) fn matches(name: &str, search: &str) -> bool {
    name.to_lowercase().contains(&search.to_lowercase())
}

/// Every active campaign (of `delivery`, if given) whose name matches `search`, newest first.
pub(crate) async fn search_all(
    api: ApiClient,
    delivery: Option<DeliveryType>,
    search: String,
) -> Result<Vec<Campaign>, ApiError> {
    let lane = Lane::default();
    let mut found = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    let mut read = 0u64;
    for page in 1..=MOST_PAGES {
        let query = TouchesQuery {
            page: PageQuery::new(page, MAX_PER_PAGE),
            delivery_type: delivery.clone(),
        };
        let call = endpoint::LIST_TOUCHES
            .call(&[])
            .query(&query.to_query_string());
        let answer: TouchPage = api.get_paced(&lane, call).await?;
        let got = answer.touches.len() as u64;
        read += got;
        // A campaign added while reading pushes the others down: keep each once.
        found.extend(
            answer
                .touches
                .into_iter()
                .filter(|c| seen.insert(c.id) && matches(&c.name, &search)),
        );
        if got < u64::from(MAX_PER_PAGE) || read >= answer.total_posts {
            break;
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn names_match_without_case() {
        assert!(super::matches("Spring Welcome eGift", "welcome"));
        assert!(super::matches("Spring Welcome eGift", "SPRING W"));
        assert!(!super::matches("Spring Welcome eGift", "autumn"));
    }
}
