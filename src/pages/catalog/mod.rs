//! The gift catalog: the marketplace's products on CDN thumbnails, with its filters in the
//! address bar, cursor paging that loads on scroll, and a product dialog with its own address.
//!
//! - [`screen`]: `/catalog`, the filters and the grid; provides the [`store::CatalogStore`].
//! - [`detail`]: `/catalog/:id`, a product over the grid (found in, or walked into, the
//!   loaded set).
//! - [`feed`], [`price`], [`url`]: the logic, free of the browser and unit-tested.
//!
//! Needs the `marketplace` scope; a session without it gets [`scope::MissingScope`].

pub mod card;
pub mod detail;
pub mod feed;
pub mod filters;
pub mod image;
pub mod price;
pub mod scope;
pub mod screen;
pub mod sentinel;
pub mod store;
pub mod url;

pub use detail::ProductDetail;
pub use screen::CatalogScreen;
