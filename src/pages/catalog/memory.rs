//! The catalog as the admin left it: the loaded products and the place in them, kept while
//! another screen is shown, so coming back (a link, Back) shows the same products at the same
//! place at once instead of the first page and a walk through the cursor pages again.
//!
//! In memory only, for one catalog: a reload starts from the top, the next catalog left
//! replaces this one, and the end of the session (sign-out) forgets it. The products are the platform's marketplace, not the admin's data.

use std::cell::RefCell;

use super::feed::Feed;
use crate::auth::session::on_session_end;

/// Where the viewport's top was: on the row of product `index`, `within` pixels into it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Mark {
    pub(crate) index: usize,
    pub(crate) within: f64,
}

thread_local! {
    static LEFT: RefCell<Option<(Feed, Option<Mark>)>> = const { RefCell::new(None) };
}

/// Keeps the catalog being left, until it is taken or the session ends.
pub(crate) fn keep(feed: Feed, mark: Option<Mark>) {
    on_session_end(forget);
    LEFT.with(|left| *left.borrow_mut() = Some((feed, mark)));
}

fn forget() {
    LEFT.with(|left| left.borrow_mut().take());
}

/// The catalog left last, once.
pub(crate) fn take() -> Option<(Feed, Option<Mark>)> {
    LEFT.with(|left| left.borrow_mut().take())
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::auth::session::SessionStore;

    #[wasm_bindgen_test]
    fn the_catalog_kept_for_later_is_forgotten_when_the_session_ends() {
        keep(
            Feed::new(),
            Some(Mark {
                index: 700,
                within: 3.0,
            }),
        );
        assert!(take().is_some(), "kept, then taken once");
        assert!(take().is_none());
        keep(Feed::new(), None);
        // Sign-out, expiry or another tab signing out: the store is cleared.
        SessionStore::load().clear();
        assert!(take().is_none(), "no platform data outlives the session");
    }
}
