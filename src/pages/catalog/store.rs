//! The catalog's state, shared by the grid and the product dialog: one [`Feed`] and the
//! requests that fill it.
//!
//! Why not a `LocalResource`: a resource replaces its value on every run, while the catalog
//! appends cursor pages to what is already on screen and must keep them when a product is
//! opened. The feed is that state; this store only sends its requests.

use gifting_api::marketplace::{ProductsPage, ProductsQuery};
use gifting_api::paths::endpoint;
use leptos::prelude::*;
use leptos::reactive::owner::WeakOwner;

use super::feed::{Feed, PageRequest};
use super::memory::{self, Mark};
use crate::api::{use_api, ApiClient};

/// The requests of one filter generation: cleaning up `owner` aborts them.
struct Requests {
    owner: Owner,
    api: ApiClient,
}

#[derive(Clone, Copy)]
pub(crate) struct CatalogStore {
    feed: RwSignal<Feed>,
    /// The screen's owner (weak: it owns this store): each generation's requests live in a
    /// child of it, so leaving the screen aborts them too.
    owner: StoredValue<Option<WeakOwner>>,
    requests: StoredValue<Option<Requests>>,
    /// The product whose dialog closed last: the grid brings its card back into view.
    returned: RwSignal<Option<String>>,
    /// Where the catalog brought back from memory was left, for the grid to scroll to once.
    mark: StoredValue<Option<Mark>>,
}

impl CatalogStore {
    /// Call in the catalog screen's body and share with `provide_context`. Starts from the
    /// catalog left last, if any (`show` starts over if its filters are not the address's).
    pub(crate) fn for_current_screen() -> Self {
        let (feed, mark) = memory::take().map_or((Feed::new(), None), |(f, m)| (f.resumed(), m));
        CatalogStore {
            feed: RwSignal::new(feed),
            mark: StoredValue::new(mark),
            owner: StoredValue::new(Owner::current().map(|o| o.downgrade())),
            requests: StoredValue::new(None),
            returned: RwSignal::new(None),
        }
    }

    /// The loaded set, to read reactively (`store.feed().with(|f| …)`).
    pub(crate) fn feed(&self) -> ReadSignal<Feed> {
        self.feed.read_only()
    }

    /// Where to put the viewport, once: the place the catalog was left at, if it came back
    /// from memory with the same filters.
    pub(crate) fn take_mark(&self) -> Option<Mark> {
        self.mark.try_update_value(Option::take).flatten()
    }

    /// Keeps the loaded set and `mark` for the next visit (the screen is being left).
    pub(crate) fn leave(&self, mark: Option<Mark>) {
        // Taken, not cloned: the screen is going, and the set can be 10,000 products.
        if let Some(feed) = self.feed.try_update_untracked(std::mem::take) {
            if feed.has_first_page() {
                memory::keep(feed, mark);
            }
        }
    }

    /// The product whose dialog closed last.
    pub(crate) fn returned_to(&self) -> ReadSignal<Option<String>> {
        self.returned.read_only()
    }

    /// Says a product's dialog closed (or its route was left).
    pub(crate) fn close_product(&self, id: String) {
        self.returned.try_set(Some(id));
    }

    /// Shows the catalog for `filters`: starts again from the first page unless these are
    /// already the filters shown. Requests for the previous filters are aborted.
    pub(crate) fn show(&self, filters: ProductsQuery) {
        let current = self
            .feed
            .with_untracked(|f| f.generation() > 0 && *f.filters() == filters);
        if current {
            return;
        }
        if let Some(old) = self.requests.try_update_value(Option::take).flatten() {
            old.owner.cleanup();
        }
        // Other filters than the remembered ones: that place means nothing here.
        self.mark.try_set_value(None);
        let Some(request) = self.feed.try_update(|f| f.restart(filters)) else {
            return;
        };
        self.send(request);
    }

    /// Asks for the next page (or retries the one that failed); does nothing while a page is
    /// on its way or at the end.
    pub(crate) fn load_more(&self) {
        if let Some(Some(request)) = self.feed.try_update(Feed::next_request) {
            self.send(request);
        }
    }

    /// This generation's client, created on first use.
    fn client(&self) -> Option<ApiClient> {
        if let Some(api) = self.requests.with_value(|r| r.as_ref().map(|r| r.api)) {
            return Some(api);
        }
        let parent = self
            .owner
            .with_value(|o| o.as_ref().and_then(WeakOwner::upgrade))?;
        let owner = parent.child();
        let api = owner.with(use_api);
        self.requests.set_value(Some(Requests { owner, api }));
        Some(api)
    }

    fn send(&self, request: PageRequest) {
        let store = *self;
        let Some(api) = self.client() else {
            return;
        };
        let call = endpoint::LIST_PRODUCTS
            .call(&[])
            .query(&request.query.to_query_string());
        let generation = request.generation;
        leptos::task::spawn_local(async move {
            let result = api.get_json::<ProductsPage>(call).await;
            // `try_`: the screen may be gone by the time the answer arrives.
            store.feed.try_update(|feed| match result {
                Ok(page) => {
                    feed.accept(generation, page);
                }
                Err(error) => {
                    feed.fail(generation, error);
                }
            });
        });
    }
}
