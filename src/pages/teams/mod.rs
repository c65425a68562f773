//! Team groups: the paged list, one group's members, and the active users directory.

pub(crate) mod detail;
pub(crate) mod directory;
pub(crate) mod list;
pub(crate) mod rows;

pub(crate) use detail::TeamPage;
pub(crate) use directory::ActiveUsersPage;
pub(crate) use list::TeamsPage;
