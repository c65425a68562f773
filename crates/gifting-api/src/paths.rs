//! Endpoint paths, relative to `base_url` (API) or `auth_url` (OAuth).

use crate::query::encode_component;

pub const SCIM_USERS: &str = "/api/scim/v2/Users";
pub const V3_SENDS: &str = "/api/v3/send";
pub const V3_USERS: &str = "/api/v3/users";
pub const V3_ME: &str = "/api/v3/me";
pub const V3_TOUCHES: &str = "/api/v3/touches";
pub const V3_GROUPS: &str = "/api/v3/groups";
pub const MARKETPLACE_PRODUCTS: &str = "/api/v3/marketplace/products";
pub const OAUTH_AUTHORIZE: &str = "/oauth/authorize";
pub const OAUTH_TOKEN: &str = "/oauth/token";
pub const OAUTH_REVOKE: &str = "/oauth/revoke";

/// `/api/scim/v2/Users/{id}`
pub fn scim_user(id: &str) -> String {
    format!("{SCIM_USERS}/{}", encode_component(id))
}

/// `/api/v3/touches/{touch_id}`
pub fn v3_touch(touch_id: u64) -> String {
    format!("{V3_TOUCHES}/{touch_id}")
}

/// `/api/v3/groups/{team_group_id}/members`
pub fn v3_group_members(team_group_id: u64) -> String {
    format!("{V3_GROUPS}/{team_group_id}/members")
}

/// `/oauth/revoke?token=...`
pub fn oauth_revoke(token: &str) -> String {
    format!("{OAUTH_REVOKE}?token={}", encode_component(token))
}

/// The API family a path belongs to: each answers errors with its own body (SCIM RFC 7644
/// errors, or the REST `{"message"}` of v3 and the marketplace).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ApiFamily {
    Scim,
    Rest,
}

/// One endpoint the console calls: its path template (`{…}` stands for one segment) and the
/// methods it is called with. A relay forwards these and nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ApiRoute {
    pub template: &'static str,
    pub methods: &'static [&'static str],
}

/// Every API endpoint of the contract, as the console uses them.
pub const API_ROUTES: [ApiRoute; 10] = [
    ApiRoute {
        template: "/api/scim/v2/Users",
        methods: &["GET", "POST"],
    },
    ApiRoute {
        template: "/api/scim/v2/Users/{id}",
        methods: &["GET", "PUT"],
    },
    ApiRoute {
        template: "/api/v3/send",
        methods: &["GET"],
    },
    ApiRoute {
        template: "/api/v3/users",
        methods: &["GET"],
    },
    ApiRoute {
        template: "/api/v3/me",
        methods: &["GET"],
    },
    ApiRoute {
        template: "/api/v3/touches",
        methods: &["GET"],
    },
    ApiRoute {
        template: "/api/v3/touches/{touch_id}",
        methods: &["GET"],
    },
    ApiRoute {
        template: "/api/v3/groups",
        methods: &["GET"],
    },
    ApiRoute {
        template: "/api/v3/groups/{team_group_id}/members",
        methods: &["GET"],
    },
    ApiRoute {
        template: "/api/v3/marketplace/products",
        methods: &["GET"],
    },
];

impl ApiRoute {
    /// Whether `method` (upper case) is one this endpoint is called with; HEAD goes with GET.
    pub fn allows(&self, method: &str) -> bool {
        self.methods
            .iter()
            .any(|m| *m == method || (method == "HEAD" && *m == "GET"))
    }
}

/// The family of an `/api` path, known or not.
pub fn api_family(path: &str) -> ApiFamily {
    if path.starts_with("/api/scim/") {
        ApiFamily::Scim
    } else {
        ApiFamily::Rest
    }
}

/// The endpoint a concrete path such as `/api/v3/touches/7` is, if the console calls it. An id
/// segment must be 1 to 128 unreserved characters (letters, digits, `-`, `_`, `.`, `~`, not
/// `.` or `..`), so nothing matched can leave the API's path space.
pub fn match_api_route(path: &str) -> Option<&'static ApiRoute> {
    let given: Vec<&str> = path.split('/').collect();
    API_ROUTES.iter().find(|route| {
        let wanted: Vec<&str> = route.template.split('/').collect();
        wanted.len() == given.len()
            && wanted.iter().zip(&given).all(|(w, g)| {
                if w.starts_with('{') {
                    is_id_segment(g)
                } else {
                    w == g
                }
            })
    })
}

fn is_id_segment(segment: &str) -> bool {
    (1..=128).contains(&segment.len())
        && segment != "."
        && segment != ".."
        && segment
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.~".contains(&b))
}

#[cfg(test)]
mod tests {
    #[test]
    fn paths_encode_their_parameters() {
        assert_eq!(super::scim_user("42"), "/api/scim/v2/Users/42");
        assert_eq!(super::scim_user("a/b"), "/api/scim/v2/Users/a%2Fb");
        assert_eq!(super::v3_group_members(3), "/api/v3/groups/3/members");
        assert_eq!(super::oauth_revoke("a+b"), "/oauth/revoke?token=a%2Bb");
    }

    #[test]
    fn every_path_the_console_builds_is_a_known_route() {
        use super::*;
        for (method, path) in [
            ("GET", SCIM_USERS.to_owned()),
            ("POST", SCIM_USERS.to_owned()),
            ("PUT", scim_user("1042")),
            ("GET", V3_SENDS.to_owned()),
            ("GET", V3_ME.to_owned()),
            ("HEAD", V3_ME.to_owned()),
            ("GET", v3_touch(7)),
            ("GET", v3_group_members(3)),
            ("GET", MARKETPLACE_PRODUCTS.to_owned()),
        ] {
            let route = match_api_route(&path).unwrap_or_else(|| panic!("{path}"));
            assert!(route.allows(method), "{method} {path}");
        }
    }

    #[test]
    fn other_paths_and_methods_are_not_routes() {
        use super::*;
        for path in [
            "/api/v3",
            "/api/v3/send/",
            "/api/v3/touches/..",
            "/api/v3/touches/a%2Fb",
            "/api/v3/groups/3/members/x",
            "/api/scim/v2/Groups",
            "/api//v3/me",
            "/oauth/token",
        ] {
            assert!(match_api_route(path).is_none(), "{path}");
        }
        let me = match_api_route(V3_ME).expect("me");
        assert!(!me.allows("POST") && !me.allows("DELETE"));
        assert!(!match_api_route(SCIM_USERS).expect("users").allows("DELETE"));
        assert_eq!(api_family("/api/scim/v2/Users/1"), ApiFamily::Scim);
        assert_eq!(api_family("/api/v3/nothing"), ApiFamily::Rest);
    }
}
