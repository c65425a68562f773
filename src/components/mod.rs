//! Building blocks the screens share. Every one renders text nodes only (never raw HTML).

pub mod badge;
pub mod bar_chart;
pub mod confirm_dialog;
pub mod country_codes;
pub mod download;
pub mod format;
pub mod page_state;
pub mod pager;
pub mod query_href;
pub mod text_field;

pub use badge::{Badge, Tone};
pub use bar_chart::{Bar, BarChart};
pub use confirm_dialog::ConfirmDialog;
pub use page_state::{Empty, ErrorPanel, ErrorView, Loaded, Loading};
pub use pager::{page_query_from, showing_text, use_page_query, use_paged_list, Pager, PAGE_SIZES};
pub use text_field::TextField;
