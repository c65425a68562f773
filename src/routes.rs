//! Every address of the console, written once, in the table of screens ([`screen_table!`]):
//! the router's patterns ([`pattern`]), the links to each screen (the constants and
//! `user(id)`-style builders), and the screens the navigation lists ([`SCREENS`]). Below the components and pages, so every layer above can link to a screen;
//! no other module writes a route path.

use gifting_api::query::encode_component;

/// Every screen of the console, once, in navigation order. A line: the screen's name (its
/// chunk's link name and router pattern), its address pattern (`:id` is a parameter), the chunk
/// of its area, its component below `crate::pages`, then what else it has:
/// `only admin` (for the admin role alone: the navigation lists it to admins only, and other roles opening it read that it needs the admin role), `link CONST` (a constant
/// to link to it by), `nav CONST Label` (the same, plus an entry in the main
/// navigation, named by the catalog's message `M::Label`), `over PARENT` (shown over another screen, which stays
/// loaded: a child route). `screen_table!(m)` hands the table to the macro
/// `m`: this module makes the addresses, links and navigation of it, [`crate::app`] the routes
/// and the chunks. Home is a chunk too: the first load is the shell and sign-in.
macro_rules! screen_table {
    ($then:ident) => {
        $then! {
            home "/" in home => home::Home, link HOME;
            users_list "/users" in users => users::UsersPage, only admin,
                nav USERS NavUsers;
            user_new "/users/new" in users => users::NewUserPage, only admin, link NEW_USER;
            users_import "/users/import" in users => users::ImportUsersPage, only admin,
                nav IMPORT_USERS NavImportUsers;
            user_page "/users/:id" in users => users::UserPage, only admin;
            teams_list "/teams" in teams => teams::TeamsPage,
                nav TEAMS NavTeams;
            active_users "/teams/users" in teams => teams::ActiveUsersPage, link ACTIVE_USERS;
            team_page "/teams/:id" in teams => teams::TeamPage;
            sends_page "/sends" in sends => sends::SendsPage,
                nav SENDS NavSends;
            campaigns_list "/campaigns" in campaigns => campaigns::CampaignsPage,
                nav CAMPAIGNS NavCampaigns;
            campaign_page "/campaigns/:id" in campaigns => campaigns::CampaignPage;
            catalog_screen "/catalog" in catalog => catalog::CatalogScreen,
                nav CATALOG NavCatalog;
            product_detail ":id" in catalog => catalog::ProductDetail, over catalog_screen;
        }
    };
}
pub(crate) use screen_table;

/// The constants, the router's patterns and [`SCREENS`] from the table.
macro_rules! addresses {
    ($($name:ident $pattern:tt in $chunk:ident => $($component:ident)::+ $(, only $only:ident)?
        $(, link $link:ident)? $(, nav $nav:ident $label:ident)? $(, over $parent:ident)?;)*) => {
        $($(pub(crate) const $link: &str = $pattern;)? $(pub(crate) const $nav: &str = $pattern;)?)*

        /// The router's patterns for the same addresses, one per screen, named as it is.
        pub(crate) mod pattern {
            use leptos_router::{path, PossibleRouteMatch};
            $(
                pub(crate) fn $name() -> impl PossibleRouteMatch + Clone + Send + 'static {
                    path!($pattern)
                }
            )*
        }

        /// Whether each screen is for the admin role alone (`only admin`), named as it is.
        #[allow(non_upper_case_globals, dead_code)]
        mod admin {
            $(pub(super) const $name: bool = only!($($only)?);)*
        }

        /// The screens of the main navigation, in order.
        pub(crate) const SCREENS: &[Screen] = &[
            $($(Screen { path: $nav, label: crate::i18n::M::$label, admin: admin::$name },)?)*
        ];
    };
}
/// `only admin` as [`Screen::admin`]; any other role is a compile error.
macro_rules! only {
    () => {
        false
    };
    (admin) => {
        true
    };
}
screen_table!(addresses);

/// A user's page.
pub(crate) fn user(id: &str) -> String {
    format!("{USERS}/{}", encode_component(id))
}

/// A team group's page.
/// The users screen searching for one email: REST members and SCIM users share no id, and a
/// SCIM user's `userName` is their email (docs/platform.md), so this finds a member's user.
pub(crate) fn user_with_email(email: &str) -> String {
    format!("{USERS}?email={}", encode_component(email))
}

pub(crate) fn team(team_group_id: u64) -> String {
    format!("{TEAMS}/{team_group_id}")
}

/// A campaign's page.
pub(crate) fn campaign(touch_id: u64) -> String {
    format!("{CAMPAIGNS}/{touch_id}")
}

/// A product's dialog over the catalog (the caller adds the catalog's query).
pub(crate) fn product(id: &str) -> String {
    format!("{CATALOG}/{}", encode_component(id))
}

/// A screen in the main navigation.
pub(crate) struct Screen {
    /// Route path, e.g. `/sends`.
    pub(crate) path: &'static str,
    /// Navigation label in the platform's words, e.g. "Sends".
    pub(crate) label: crate::i18n::M,
    /// For the admin role alone (`only admin`): listed only when the signed-in user may use it.
    pub(crate) admin: bool,
}
