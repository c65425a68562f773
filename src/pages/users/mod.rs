//! User administration over SCIM: the list with search and bulk changes, the create form and
//! the user's own page.

pub mod access;
pub mod bulk;
pub mod bulk_panel;
pub mod edit;
pub mod fields;
pub mod form;
pub mod list;
pub mod new;
pub mod paging;
pub mod present;
pub mod user_form;

pub use edit::UserPage;
pub use list::UsersPage;
pub use new::NewUserPage;
