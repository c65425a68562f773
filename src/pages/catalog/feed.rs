//! The catalog's loaded set: cursor pages appended in order, each product once, and only
//! answers for the newest filters.
//!
//! Every change of filters starts a new *generation*; a request carries the generation it was
//! made for, and an answer for an older one is dropped. So a slow answer for "tea" can never
//! land on the grid after the user already searched for "coffee". (The store also aborts the
//! old generation's requests; this check is what makes the order of answers irrelevant.)

use std::collections::HashSet;
use std::sync::Arc;

use gifting_api::marketplace::{CategoryGroup, Product, ProductsPage, ProductsQuery};

use crate::api::ApiError;

/// Where the next page starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Cursor {
    /// Nothing loaded yet for these filters.
    Start,
    /// The platform's `pagination.after` from the last page.
    After(String),
    /// The platform said there is nothing after the last page.
    End,
}

/// A page to ask the platform for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PageRequest {
    pub(crate) generation: u64,
    /// The filters with `after` set for every page but the first.
    pub(crate) query: ProductsQuery,
}

/// What became of an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Accepted {
    /// Appended this many products not seen before.
    Appended(usize),
    /// For filters that are no longer current: dropped.
    Stale,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Feed {
    filters: ProductsQuery,
    generation: u64,
    products: Vec<Arc<Product>>,
    seen: HashSet<String>,
    categories: Vec<CategoryGroup>,
    cursor: Cursor,
    in_flight: bool,
    error: Option<ApiError>,
}

impl Default for Feed {
    fn default() -> Self {
        Self::new()
    }
}

impl Feed {
    pub(crate) fn new() -> Self {
        Feed {
            filters: ProductsQuery::default(),
            generation: 0,
            products: Vec::new(),
            seen: HashSet::new(),
            categories: Vec::new(),
            cursor: Cursor::Start,
            in_flight: false,
            error: None,
        }
    }

    /// Starts over for `filters` (its `after` is ignored) and returns the first page's request.
    /// The categories stay until the new answer replaces them, so the filter form does not
    /// flicker.
    pub(crate) fn restart(&mut self, mut filters: ProductsQuery) -> PageRequest {
        filters.after = None;
        self.filters = filters;
        self.generation += 1;
        self.products.clear();
        self.seen.clear();
        self.cursor = Cursor::Start;
        self.error = None;
        self.in_flight = true;
        PageRequest {
            generation: self.generation,
            query: self.filters.clone(),
        }
    }

    /// The next page's request, unless one is already on its way or the end was reached. After
    /// a failure this is the retry of the page that failed.
    pub(crate) fn next_request(&mut self) -> Option<PageRequest> {
        if self.generation == 0 || self.in_flight {
            return None;
        }
        let after = match &self.cursor {
            Cursor::Start => None,
            Cursor::After(after) => Some(after.clone()),
            Cursor::End => return None,
        };
        self.in_flight = true;
        self.error = None;
        Some(PageRequest {
            generation: self.generation,
            query: ProductsQuery {
                after,
                ..self.filters.clone()
            },
        })
    }

    /// Takes an answer: appends the products not already shown and moves the cursor.
    pub(crate) fn accept(&mut self, generation: u64, page: ProductsPage) -> Accepted {
        if generation != self.generation {
            return Accepted::Stale;
        }
        self.in_flight = false;
        let before = self.products.len();
        for product in page.products {
            if self.seen.insert(product.id.clone()) {
                self.products.push(Arc::new(product));
            }
        }
        let sent = match &self.cursor {
            Cursor::After(after) => Some(after.as_str()),
            _ => None,
        };
        self.cursor = match page.pagination.after.filter(|a| !a.is_empty()) {
            // A cursor that does not move would ask for the same page forever.
            Some(after) if Some(after.as_str()) == sent => Cursor::End,
            Some(after) => Cursor::After(after),
            None => Cursor::End,
        };
        if !page.categories.is_empty() || before == 0 {
            self.categories = page.categories;
        }
        Accepted::Appended(self.products.len() - before)
    }

    /// Takes a failure. Returns false when it was for older filters (and dropped).
    pub(crate) fn fail(&mut self, generation: u64, error: ApiError) -> bool {
        if generation != self.generation {
            return false;
        }
        self.in_flight = false;
        // A cancelled request belongs to a screen that is going away: nothing to show, and
        // the next request may simply try again.
        if error != ApiError::Cancelled {
            self.error = Some(error);
        }
        true
    }

    /// The same set, brought back after its screen was left: the request that was on its way
    /// then was aborted with the screen, so the next one may go.
    pub(crate) fn resumed(mut self) -> Self {
        self.in_flight = false;
        if self.error == Some(ApiError::Cancelled) {
            self.error = None;
        }
        self
    }

    pub(crate) fn generation(&self) -> u64 {
        self.generation
    }

    pub(crate) fn filters(&self) -> &ProductsQuery {
        &self.filters
    }

    pub(crate) fn products(&self) -> &[Arc<Product>] {
        &self.products
    }

    pub(crate) fn categories(&self) -> &[CategoryGroup] {
        &self.categories
    }

    pub(crate) fn find(&self, id: &str) -> Option<Arc<Product>> {
        self.products.iter().find(|p| p.id == id).cloned()
    }

    pub(crate) fn is_loading(&self) -> bool {
        self.in_flight
    }

    pub(crate) fn error(&self) -> Option<&ApiError> {
        self.error.as_ref()
    }

    /// Whether the whole catalog (for these filters) is loaded.
    pub(crate) fn at_end(&self) -> bool {
        self.cursor == Cursor::End
    }

    /// Whether a next page exists and may be asked for now.
    pub(crate) fn can_load_more(&self) -> bool {
        self.generation > 0
            && !self.in_flight
            && self.error.is_none()
            && matches!(self.cursor, Cursor::After(_))
    }

    /// Whether the first page of these filters has arrived.
    pub(crate) fn has_first_page(&self) -> bool {
        self.cursor != Cursor::Start
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gifting_api::marketplace::{Category, Pagination};
    use wasm_bindgen_test::wasm_bindgen_test;

    fn product(id: &str) -> Product {
        Product {
            id: id.into(),
            name: format!("Product {id}"),
            description: String::new(),
            variants: Vec::new(),
        }
    }

    fn page(ids: &[&str], after: Option<&str>) -> ProductsPage {
        ProductsPage {
            pagination: Pagination {
                after: after.map(Into::into),
                next_page: None,
            },
            categories: vec![CategoryGroup {
                group_name: "Food & Drink".into(),
                children: vec![Category {
                    id: "101".into(),
                    name: "Coffee & Tea".into(),
                }],
            }],
            products: ids.iter().map(|id| product(id)).collect(),
        }
    }

    /// A feed without filters that has taken `first` as its first page.
    fn showing(first: ProductsPage) -> Feed {
        let mut feed = Feed::new();
        let request = feed.restart(ProductsQuery::default());
        feed.accept(request.generation, first);
        feed
    }

    fn ids(feed: &Feed) -> Vec<&str> {
        feed.products().iter().map(|p| p.id.as_str()).collect()
    }

    #[wasm_bindgen_test]
    fn pages_append_in_order_until_the_end() {
        let mut feed = Feed::new();
        assert_eq!(
            feed.next_request(),
            None,
            "nothing before the first restart"
        );
        let first = feed.restart(ProductsQuery {
            after: Some("ignored".into()),
            text_search: Some("tea".into()),
            ..Default::default()
        });
        assert_eq!(first.query.after, None);
        assert_eq!(first.query.text_search.as_deref(), Some("tea"));
        assert!(feed.is_loading());
        assert_eq!(feed.next_request(), None, "one request at a time");

        assert_eq!(
            feed.accept(first.generation, page(&["a", "b"], Some("c2"))),
            Accepted::Appended(2)
        );
        assert!(feed.can_load_more());
        let second = feed.next_request().unwrap();
        assert_eq!(second.query.after.as_deref(), Some("c2"));
        assert_eq!(second.query.text_search.as_deref(), Some("tea"));
        assert_eq!(
            feed.accept(second.generation, page(&["c"], None)),
            Accepted::Appended(1)
        );
        assert!(feed.at_end());
        assert!(!feed.can_load_more());
        assert_eq!(feed.next_request(), None);
        assert_eq!(ids(&feed), ["a", "b", "c"]);
        assert_eq!(feed.categories().len(), 1);
    }

    #[wasm_bindgen_test]
    fn duplicates_are_shown_once() {
        let mut feed = showing(page(&["a", "b", "a"], Some("c2")));
        let second = feed.next_request().unwrap();
        assert_eq!(
            feed.accept(second.generation, page(&["b", "c"], Some("c3"))),
            Accepted::Appended(1)
        );
        assert_eq!(ids(&feed), ["a", "b", "c"]);
    }

    #[wasm_bindgen_test]
    fn an_answer_for_older_filters_never_overwrites_the_newer_one() {
        let mut feed = Feed::new();
        let tea = feed.restart(ProductsQuery {
            text_search: Some("tea".into()),
            ..Default::default()
        });
        let coffee = feed.restart(ProductsQuery {
            text_search: Some("coffee".into()),
            ..Default::default()
        });
        assert_eq!(
            feed.accept(coffee.generation, page(&["coffee-1"], None)),
            Accepted::Appended(1)
        );
        // The slow "tea" answer arrives last.
        assert_eq!(
            feed.accept(tea.generation, page(&["tea-1", "tea-2"], Some("t2"))),
            Accepted::Stale
        );
        assert!(!feed.fail(tea.generation, ApiError::Network));
        assert_eq!(ids(&feed), ["coffee-1"]);
        assert!(feed.at_end());
        assert_eq!(feed.error(), None);
        assert_eq!(feed.filters().text_search.as_deref(), Some("coffee"));
    }

    #[wasm_bindgen_test]
    fn a_failed_page_is_retried_from_the_same_cursor() {
        let mut feed = showing(page(&["a"], Some("c1")));
        let second = feed.next_request().unwrap();
        assert!(feed.fail(second.generation, ApiError::Timeout));
        assert_eq!(feed.error(), Some(&ApiError::Timeout));
        assert!(
            !feed.can_load_more(),
            "no automatic loading after a failure"
        );
        let retry = feed.next_request().unwrap();
        assert_eq!(retry.query.after.as_deref(), Some("c1"));
        assert_eq!(feed.error(), None);
        // A cancelled request shows nothing.
        assert!(feed.fail(retry.generation, ApiError::Cancelled));
        assert_eq!(feed.error(), None);
        assert!(feed.can_load_more());
    }

    #[wasm_bindgen_test]
    fn a_cursor_that_does_not_move_ends_the_catalog() {
        let mut feed = showing(page(&["a"], Some("same")));
        let second = feed.next_request().unwrap();
        feed.accept(second.generation, page(&["b"], Some("same")));
        assert!(feed.at_end());
        assert_eq!(
            feed.find("b").map(|p| p.name.clone()).as_deref(),
            Some("Product b")
        );
        assert_eq!(feed.find("zzz"), None);
    }

    #[wasm_bindgen_test]
    fn a_resumed_feed_asks_again_from_where_it_was() {
        let mut feed = showing(page(&["a", "b"], Some("c2")));
        let _aborted = feed.next_request().unwrap();
        let mut feed = feed.resumed();
        assert_eq!(ids(&feed), ["a", "b"]);
        assert!(!feed.is_loading());
        let again = feed.next_request().unwrap();
        assert_eq!(again.query.after.as_deref(), Some("c2"));
    }

    #[wasm_bindgen_test]
    fn restarting_keeps_categories_until_the_new_answer() {
        let mut feed = showing(page(&["a"], None));
        feed.restart(ProductsQuery {
            category_ids: vec!["101".into()],
            ..Default::default()
        });
        assert!(feed.products().is_empty());
        assert!(!feed.has_first_page());
        assert_eq!(feed.categories().len(), 1);
    }
}
