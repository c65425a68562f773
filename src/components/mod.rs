//! Building blocks the screens share. Every one renders text nodes only (never raw HTML).

pub mod badge;
pub mod breadcrumb;
pub mod confirm_dialog;
pub mod country_codes;
pub mod download;
pub mod format;
pub mod not_found;
pub mod notice;
pub mod options;
pub mod page_state;
pub mod pager;
pub mod query_href;
pub mod screen_links;
pub mod table;

pub use badge::{Badge, Tone};
pub use breadcrumb::Breadcrumb;
pub use confirm_dialog::ConfirmDialog;
pub use not_found::{on_not_found, use_by_id, NotFound};
pub use notice::Notice;
pub use page_state::{Empty, ErrorPanel, ErrorView, Loaded, Loading};
pub use pager::{
    page_query_from, showing_text, use_page_query, use_paged_list, Pager, PagerLinks, PagerNav,
    PAGE_SIZES,
};
pub use table::{Column, DataTable};
