//! User administration over SCIM: the list with search and bulk changes, the create form and
//! the user's own page.

pub(crate) mod access;
pub(crate) mod bulk;
pub(crate) mod bulk_job;
pub(crate) mod bulk_panel;
mod change_job;
pub(crate) mod directory;
pub(crate) mod edit;
pub(crate) mod fields;
mod finder;
pub(crate) mod form;
pub(crate) mod guard;
pub(crate) mod import;
pub(crate) mod list;
pub(crate) mod new;
pub(crate) mod paging;
pub(crate) mod present;
pub(crate) mod search;
#[cfg(test)]
pub(crate) mod test_users;
pub(crate) mod user_form;

pub(crate) use edit::UserPage;
pub(crate) use import::ImportUsersPage;
pub(crate) use list::UsersPage;
pub(crate) use new::NewUserPage;
