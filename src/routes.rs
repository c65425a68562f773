//! Every address of the console, written once: the router's patterns ([`pattern`]), the
//! links to each screen (the constants and `user(id)`-style builders), and the screens the
//! navigation and the home screen list ([`SCREENS`]). Below the components and pages, so every
//! layer above can link to a screen; no other module writes a route path.

use gifting_api::query::encode_component;

pub const HOME: &str = "/";
pub const USERS: &str = "/users";
pub const NEW_USER: &str = "/users/new";
pub const TEAMS: &str = "/teams";
pub const ACTIVE_USERS: &str = "/teams/users";
pub const SENDS: &str = "/sends";
pub const CAMPAIGNS: &str = "/campaigns";
pub const CATALOG: &str = "/catalog";

/// A user's page.
pub fn user(id: &str) -> String {
    format!("{USERS}/{}", encode_component(id))
}

/// A team group's page.
pub fn team(team_group_id: u64) -> String {
    format!("{TEAMS}/{team_group_id}")
}

/// A campaign's page.
pub fn campaign(touch_id: u64) -> String {
    format!("{CAMPAIGNS}/{touch_id}")
}

/// A product's dialog over the catalog (the caller adds the catalog's query).
pub fn product(id: &str) -> String {
    format!("{CATALOG}/{}", encode_component(id))
}

/// The router's patterns for the same addresses (`:id` is the parameter).
pub mod pattern {
    use leptos_router::{path, ParamSegment, StaticSegment};

    type Static = StaticSegment<&'static str>;

    pub fn home() {
        path!("/")
    }
    pub fn users() -> (Static,) {
        path!("/users")
    }
    pub fn new_user() -> (Static, Static) {
        path!("/users/new")
    }
    pub fn user() -> (Static, ParamSegment) {
        path!("/users/:id")
    }
    pub fn teams() -> (Static,) {
        path!("/teams")
    }
    pub fn active_users() -> (Static, Static) {
        path!("/teams/users")
    }
    pub fn team() -> (Static, ParamSegment) {
        path!("/teams/:id")
    }
    pub fn sends() -> (Static,) {
        path!("/sends")
    }
    pub fn campaigns() -> (Static,) {
        path!("/campaigns")
    }
    pub fn campaign() -> (Static, ParamSegment) {
        path!("/campaigns/:id")
    }
    pub fn catalog() -> (Static,) {
        path!("/catalog")
    }
    /// Inside [`catalog`]: the grid alone, and a product over it.
    pub fn catalog_grid() {
        path!("")
    }
    pub fn product() -> (ParamSegment,) {
        path!(":id")
    }
}

/// A screen in the main navigation and on the home screen.
pub struct Screen {
    /// Route path, e.g. `/sends`.
    pub path: &'static str,
    /// Navigation label in the platform's words, e.g. "Sends".
    pub label: &'static str,
    /// One sentence for the home screen.
    pub summary: &'static str,
}

/// The screens that exist, in navigation order. One line per screen, e.g.
/// `Screen { path: SENDS, label: "Sends", summary: "Every gift sent in the organization." },`
/// Only screens that are built belong here: the navigation never shows a stub.
pub const SCREENS: &[Screen] = &[
    Screen {
        path: USERS,
        label: "Users",
        summary: "Find, add and change the people of the organization.",
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
