//! The gift catalog: the marketplace's products on CDN thumbnails, with its filters in the
//! address bar, cursor paging that loads on scroll, and a product dialog with its own address.
//!
//! - [`screen`]: `/catalog`, the filters and the grid; provides the [`store::CatalogStore`].
//! - [`detail`]: `/catalog/:id`, a product over the grid (found in, or walked into, the
//!   loaded set).
//! - [`grid`]: the grid, windowed: only the cards near the viewport are mounted.
//! - [`feed`], [`window`], [`price`], [`url`]: the logic, free of the browser and unit-tested.
//!
//! Needs the `marketplace` scope; a session without it gets [`scope::MissingScope`].

pub(crate) mod card;
pub(crate) mod detail;
pub(crate) mod feed;
pub(crate) mod filters;
pub(crate) mod grid;
pub(crate) mod image;
pub(crate) mod memory;
pub(crate) mod price;
pub(crate) mod scope;
pub(crate) mod screen;
pub(crate) mod sentinel;
pub(crate) mod store;
pub(crate) mod url;
pub(crate) mod window;

pub(crate) use detail::ProductDetail;
pub(crate) use screen::CatalogScreen;
