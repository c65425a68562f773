//! Every screen but home, each its own chunk in the split release build: the first load
//! carries the shell, sign-in and home; a screen's code arrives when it is first opened, or
//! earlier when the browser is idle or a link to it is pointed at.

use crate::components::lazy_screen::{lazy_screen, Prefetch};
use crate::routes;

lazy_screen!(users_list in users => crate::pages::users::UsersPage);
lazy_screen!(user_new in users => crate::pages::users::NewUserPage);
lazy_screen!(users_import in users => crate::pages::users::ImportUsersPage);
lazy_screen!(user_page in users => crate::pages::users::UserPage);
lazy_screen!(teams_list in teams => crate::pages::teams::TeamsPage);
lazy_screen!(active_users in teams => crate::pages::teams::ActiveUsersPage);
lazy_screen!(team_page in teams => crate::pages::teams::TeamPage);
lazy_screen!(sends_page in sends => crate::pages::sends::SendsPage);
lazy_screen!(campaigns_list in campaigns => crate::pages::campaigns::CampaignsPage);
lazy_screen!(campaign_page in campaigns => crate::pages::campaigns::CampaignPage);
lazy_screen!(catalog_screen in catalog => crate::pages::catalog::CatalogScreen);
lazy_screen!(product_detail in catalog => crate::pages::catalog::ProductDetail);

/// The navigation's screens, fetched ahead on hover or focus, and all of them once idle. A
/// detail screen shares its list's chunk, so it arrives with it.
pub(crate) const PREFETCH: Prefetch = Prefetch(&[
    (routes::USERS, users_list::SCREEN),
    (routes::TEAMS, teams_list::SCREEN),
    (routes::SENDS, sends_page::SCREEN),
    (routes::CAMPAIGNS, campaigns_list::SCREEN),
    (routes::CATALOG, catalog_screen::SCREEN),
]);
