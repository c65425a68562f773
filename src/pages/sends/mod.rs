//! Sends (`/sends`): every gift the organization dispatched, with an overview, filters over the
//! loaded pages, "Load all pages" and a CSV export. The pure parts (what is loaded, filtering,
//! sums, CSV, pacing) are plain modules with unit tests; the rest are components.

pub mod csv;
pub mod filter;
mod filters_form;
mod load_all;
pub mod loaded;
mod overview;
pub mod pacing;
mod page;
pub mod page_cache;
mod store;
pub mod summary;
pub mod table;

pub use page::SendsPage;
