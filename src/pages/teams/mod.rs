//! Team groups: the paged list, one group's members, and the active users directory.

pub mod detail;
pub mod directory;
pub mod list;

pub use detail::TeamPage;
pub use directory::ActiveUsersPage;
pub use list::TeamsPage;
