//! Sends (`/sends`): every gift the organization dispatched, with an overview, filters answered
//! over every send (the pages they need are read as a job), new sends as they arrive, "Load
//! all pages" and a CSV export. The pure parts (what is loaded and its compact
//! rows, filtering, sorting, sums, CSV, pacing) are plain modules with unit tests; the rest are components.

mod arrivals;
pub(crate) mod compact;
pub(crate) mod csv;
mod export;
mod export_job;
pub(crate) mod filter;
mod filters_form;
mod load_all;
pub(crate) mod loaded;
mod memory;
mod overview;
mod page;
pub(crate) mod page_cache;
pub(crate) mod range;
mod range_form;
mod store;
pub(crate) mod summary;
pub(crate) mod table;
pub(crate) mod views;
mod walk_job;

pub(crate) use page::SendsPage;
