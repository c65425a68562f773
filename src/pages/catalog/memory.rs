//! The catalog as the admin left it: the loaded products and the place in them, kept while
//! another screen is shown, so coming back (a link, Back) shows the same products at the same
//! place at once instead of the first page and a walk through the cursor pages again.
//!
//! In memory only, for one catalog: a reload starts from the top, and the next catalog left
//! replaces this one. The products are the platform's marketplace, not the admin's data.

use std::cell::RefCell;

use super::feed::Feed;

/// Where the viewport's top was: on the row of product `index`, `within` pixels into it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Mark {
    pub(crate) index: usize,
    pub(crate) within: f64,
}

thread_local! {
    static LEFT: RefCell<Option<(Feed, Option<Mark>)>> = const { RefCell::new(None) };
}

/// Keeps the catalog being left.
pub(crate) fn keep(feed: Feed, mark: Option<Mark>) {
    LEFT.with(|left| *left.borrow_mut() = Some((feed, mark)));
}

/// The catalog left last, once.
pub(crate) fn take() -> Option<(Feed, Option<Mark>)> {
    LEFT.with(|left| left.borrow_mut().take())
}
