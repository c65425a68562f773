//! Every address of the console, written once: the router's patterns ([`pattern`]), the
//! links to each screen (the constants and `user(id)`-style builders), and the screens the
//! navigation and the home screen list ([`SCREENS`]). Below the components and pages, so every
//! layer above can link to a screen; no other module writes a route path.

use gifting_api::query::encode_component;

pub(crate) const HOME: &str = "/";
pub(crate) const USERS: &str = "/users";
pub(crate) const NEW_USER: &str = "/users/new";
pub(crate) const IMPORT_USERS: &str = "/users/import";
pub(crate) const TEAMS: &str = "/teams";
pub(crate) const ACTIVE_USERS: &str = "/teams/users";
pub(crate) const SENDS: &str = "/sends";
pub(crate) const CAMPAIGNS: &str = "/campaigns";
pub(crate) const CATALOG: &str = "/catalog";

/// A user's page.
pub(crate) fn user(id: &str) -> String {
    format!("{USERS}/{}", encode_component(id))
}

/// A team group's page.
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

/// The router's patterns for the same addresses (`:id` is the parameter).
pub(crate) mod pattern {
    use leptos_router::{path, ParamSegment, StaticSegment};

    type Static = StaticSegment<&'static str>;

    pub(crate) fn home() {
        path!("/")
    }
    pub(crate) fn users() -> (Static,) {
        path!("/users")
    }
    pub(crate) fn new_user() -> (Static, Static) {
        path!("/users/new")
    }
    pub(crate) fn import_users() -> (Static, Static) {
        path!("/users/import")
    }
    pub(crate) fn user() -> (Static, ParamSegment) {
        path!("/users/:id")
    }
    pub(crate) fn teams() -> (Static,) {
        path!("/teams")
    }
    pub(crate) fn active_users() -> (Static, Static) {
        path!("/teams/users")
    }
    pub(crate) fn team() -> (Static, ParamSegment) {
        path!("/teams/:id")
    }
    pub(crate) fn sends() -> (Static,) {
        path!("/sends")
    }
    pub(crate) fn campaigns() -> (Static,) {
        path!("/campaigns")
    }
    pub(crate) fn campaign() -> (Static, ParamSegment) {
        path!("/campaigns/:id")
    }
    pub(crate) fn catalog() -> (Static,) {
        path!("/catalog")
    }
    /// Inside [`catalog`]: the grid alone, and a product over it.
    pub(crate) fn catalog_grid() {
        path!("")
    }
    pub(crate) fn product() -> (ParamSegment,) {
        path!(":id")
    }
}

/// A screen in the main navigation and on the home screen.
pub(crate) struct Screen {
    /// Route path, e.g. `/sends`.
    pub(crate) path: &'static str,
    /// Navigation label in the platform's words, e.g. "Sends".
    pub(crate) label: &'static str,
    /// One sentence for the home screen.
    pub(crate) summary: &'static str,
}

/// The screens that exist, in navigation order. One line per screen, e.g.
/// `Screen { path: SENDS, label: "Sends", summary: "Every gift sent in the organization." },`
/// Only screens that are built belong here: the navigation never shows a stub.
pub(crate) const SCREENS: &[Screen] = &[
    Screen {
        path: USERS,
        label: "Users",
        summary: "Find, add and change the people of the organization.",
    },
    Screen {
        path: IMPORT_USERS,
        label: "Import users",
        summary: "Add and update many users at once from a spreadsheet, previewed first.",
    },
    Screen {
        path: TEAMS,
        label: "Teams",
        summary: "Team groups, their budgets and members.",
    },
    Screen {
        path: SENDS,
        label: "Sends",
        summary: "Every gift sent in the organization: status, history, spend and export.",
    },
    Screen {
        path: CAMPAIGNS,
        label: "Campaigns",
        summary: "The active campaigns (touches) gifts are sent from.",
    },
    Screen {
        path: CATALOG,
        label: "Catalog",
        summary: "The marketplace's gifts, with their prices, variants and filters.",
    },
];
