//! Building blocks the screens share. Every one renders text nodes only (never raw HTML).

pub(crate) mod admin_only;
pub mod badge;
pub(crate) mod bar_chart;
pub(crate) mod breadcrumb;
pub(crate) mod columns;
pub(crate) mod confirm_dialog;
pub(crate) mod country_codes;
pub(crate) mod download;
pub mod format;
pub(crate) mod job_view;
pub(crate) mod jobs_indicator;
pub(crate) mod lazy_screen;
pub(crate) mod leave_guard;
pub(crate) mod modal;
pub(crate) mod name_search;
pub(crate) mod navigator;
pub(crate) mod not_found;
pub(crate) mod notice;
pub(crate) mod notifications;
pub(crate) mod options;
pub mod page_state;
pub(crate) mod pager;
pub(crate) mod query_href;
pub(crate) mod saved_views;
pub(crate) mod screen_heading;
pub(crate) mod screen_links;
pub(crate) mod sort;
pub(crate) mod table;
pub(crate) mod text_field;

pub use badge::{Badge, Tone};
pub(crate) use breadcrumb::Breadcrumb;
pub(crate) use columns::{Choosable, ColumnChooser, Columns};
pub(crate) use confirm_dialog::ConfirmDialog;
pub(crate) use job_view::{use_job, UseJob};
pub(crate) use lazy_screen::IDLE_PREFETCH_DELAY;
pub(crate) use leave_guard::{listen_for_back, LeaveGuard};
pub(crate) use modal::Modal;
pub(crate) use name_search::{NameSearch, KEY_SEARCH};
pub(crate) use navigator::Navigator;
pub(crate) use not_found::{on_not_found, use_by_id, NotFound};
pub(crate) use notice::{FailedNotice, Notice};
pub(crate) use notifications::{use_notifications, NotificationArea, Notifications};
pub use page_state::{Empty, ErrorPanel, ErrorView, Loaded, Loading};
pub(crate) use pager::{
    remembered_page_size, use_page_query, use_paged_list, use_shown_page, Pager, PagerLinks,
    PagerNav, ShownPage, PAGE_SIZES,
};
pub(crate) use saved_views::{note_screen_change, remember_last_filters, SavedViews};
pub(crate) use screen_heading::ScreenHeading;
pub(crate) use table::{Column, DataTable, SortNote};
pub(crate) use text_field::TextField;
