//! `/users/import`: users from a spreadsheet (an HR export) over SCIM. The file is read and
//! every row previewed with its fate before anything is written; the run is paced under the
//! platform's rate limit, can be cancelled, and is safe to repeat. The pure parts (reading,
//! columns, fates, comparison strategy, results file) are plain modules with unit tests.

pub(crate) mod columns;
pub(crate) mod compare;
mod compare_job;
pub(crate) mod fate;
mod job;
pub(crate) mod parse;
pub(crate) mod preview;
pub(crate) mod results;
pub(crate) mod run_job;
mod store;
mod view;
mod view_rows;

pub(crate) use view::ImportUsersPage;
