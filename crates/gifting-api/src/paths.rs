//! Endpoint paths, relative to `base_url` (API) or `auth_url` (OAuth).

use crate::query::encode_component;

/// An HTTP method the console uses on the platform's API.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Get,
    Post,
    Put,
}

impl Method {
    pub const fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Put => "PUT",
        }
    }
}

/// One API endpoint of the contract: a method and a path template, where `{…}` stands for one
/// path segment (axum's route syntax, so the sandbox registers the template as it is). Only the
/// table below makes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Endpoint {
    method: Method,
    template: &'static str,
}

impl Endpoint {
    pub const fn method(self) -> Method {
        self.method
    }

    /// E.g. `/api/scim/v2/Users/{id}`.
    pub const fn template(self) -> &'static str {
        self.template
    }
}

/// Writes the table once: each line a constant of [`endpoint`] and an entry of [`ENDPOINTS`].
macro_rules! endpoints {
    ($($(#[$doc:meta])* $name:ident = $method:ident $template:literal;)*) => {
        /// Every API endpoint the console calls, each written once: the console builds its
        /// requests from these ([`Endpoint::call`]), the sandbox serves each, the gateway relays
        /// exactly these ([`match_api_route`]), and the gateway's `endpoints` test checks all
        /// three agree.
        pub mod endpoint {
            use super::{Endpoint, Method};
            $(
                $(#[$doc])*
                pub const $name: Endpoint = Endpoint {
                    method: Method::$method,
                    template: $template,
                };
            )*
        }

        /// The table: every constant of [`endpoint`].
        pub const ENDPOINTS: &[Endpoint] = &[$(endpoint::$name),*];
    };
}

endpoints! {
    LIST_SCIM_USERS = Get "/api/scim/v2/Users";
    CREATE_SCIM_USER = Post "/api/scim/v2/Users";
    READ_SCIM_USER = Get "/api/scim/v2/Users/{id}";
    REPLACE_SCIM_USER = Put "/api/scim/v2/Users/{id}";
    LIST_SENDS = Get "/api/v3/send";
    LIST_USERS = Get "/api/v3/users";
    /// The signed-in user; also the gateway's readiness probe.
    ME = Get "/api/v3/me";
    LIST_TOUCHES = Get "/api/v3/touches";
    READ_TOUCH = Get "/api/v3/touches/{touch_id}";
    LIST_GROUPS = Get "/api/v3/groups";
    /// A bare array of the group's active users.
    LIST_GROUP_MEMBERS = Get "/api/v3/groups/{team_group_id}/members";
    LIST_PRODUCTS = Get "/api/v3/marketplace/products";
}

/// Paths other code names as text (a `Location` header, a next-page URL, a health probe).
pub const SCIM_USERS: &str = endpoint::LIST_SCIM_USERS.template;
pub const V3_ME: &str = endpoint::ME.template;
pub const MARKETPLACE_PRODUCTS: &str = endpoint::LIST_PRODUCTS.template;
pub const OAUTH_AUTHORIZE: &str = "/oauth/authorize";
pub const OAUTH_TOKEN: &str = "/oauth/token";
pub const OAUTH_REVOKE: &str = "/oauth/revoke";

/// One request to an [`Endpoint`]: its path with the parameters filled in, and a query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    endpoint: Endpoint,
    path_and_query: String,
    problem: Option<CallProblem>,
}

/// Why a [`Call`] must not be sent: the caller built it wrong. Without this, a missing id
/// would make `/api/scim/v2/Users/`, which asks the platform something else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallProblem {
    /// A `{…}` of the template got no value, or a blank one: its `name` (`id`, `touch_id`)
    /// and what it names (`user`, `campaign`, `team group`).
    MissingParameter {
        name: &'static str,
        of: &'static str,
    },
    /// More values than the template has `{…}`.
    TooManyParameters { template: &'static str },
}

impl std::fmt::Display for CallProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CallProblem::MissingParameter { name, of } => write!(f, "no {name} of the {of}"),
            CallProblem::TooManyParameters { template } => {
                write!(f, "too many parameters for {template}")
            }
        }
    }
}

/// What the parameter after `collection` in a template names.
fn subject(collection: &'static str) -> &'static str {
    match collection {
        "Users" => "user",
        "touches" => "campaign",
        "groups" => "team group",
        other => other,
    }
}

impl Endpoint {
    /// A request to this endpoint, each `{…}` of the template replaced in order by one of
    /// `params`, percent-encoded so it stays one segment. The count must match the template's
    /// and no value may be blank; otherwise the call carries its [`Call::problem`], and a
    /// client refuses to send it.
    pub fn call(self, params: &[&str]) -> Call {
        let mut params = params.iter();
        let mut problem = None;
        let mut previous = "";
        let mut segments = Vec::new();
        for segment in self.template.split('/') {
            if let Some(name) = segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                let value = params.next().copied().unwrap_or_default();
                if value.trim().is_empty() {
                    let of = subject(previous);
                    problem = problem.or(Some(CallProblem::MissingParameter { name, of }));
                }
                segments.push(encode_component(value));
            } else {
                segments.push(segment.to_owned());
            }
            previous = segment;
        }
        if params.next().is_some() {
            let template = self.template;
            problem = problem.or(Some(CallProblem::TooManyParameters { template }));
        }
        Call {
            endpoint: self,
            path_and_query: segments.join("/"),
            problem,
        }
    }
}

impl Call {
    /// The same request with a query string (`"?page=2"`, or `""` for none).
    pub fn query(mut self, query: &str) -> Call {
        self.path_and_query.push_str(query);
        self
    }

    pub fn endpoint(&self) -> Endpoint {
        self.endpoint
    }

    pub fn method(&self) -> Method {
        self.endpoint.method
    }

    /// E.g. `/api/v3/send?page=2&per_page=25`.
    pub fn path_and_query(&self) -> &str {
        &self.path_and_query
    }

    /// Why this call must not be sent, if it must not: a parameter missing or blank, or too
    /// many of them.
    pub fn problem(&self) -> Option<CallProblem> {
        self.problem
    }
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

/// A path template of the table, with the methods the console calls it with. A relay forwards
/// these and nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ApiRoute {
    pub template: &'static str,
}

impl ApiRoute {
    /// Whether `method` (upper case) is one this path is called with; HEAD goes with GET.
    pub fn allows(&self, method: &str) -> bool {
        self.methods()
            .any(|m| m == method || (method == "HEAD" && m == "GET"))
    }

    /// The methods of the table for this path, e.g. for an `Allow` header.
    pub fn methods(&self) -> impl Iterator<Item = &'static str> + '_ {
        ENDPOINTS
            .iter()
            .filter(|e| e.template == self.template)
            .map(|e| e.method.as_str())
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
pub fn match_api_route(path: &str) -> Option<ApiRoute> {
    let given: Vec<&str> = path.split('/').collect();
    ENDPOINTS
        .iter()
        .find(|endpoint| {
            let wanted: Vec<&str> = endpoint.template.split('/').collect();
            wanted.len() == given.len()
                && wanted.iter().zip(&given).all(|(w, g)| {
                    if w.starts_with('{') {
                        is_id_segment(g)
                    } else {
                        w == g
                    }
                })
        })
        .map(|endpoint| ApiRoute {
            template: endpoint.template,
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
    use super::*;

    #[test]
    fn calls_fill_and_encode_their_parameters() {
        let user = endpoint::READ_SCIM_USER.call(&["a/b"]);
        assert_eq!(user.path_and_query(), "/api/scim/v2/Users/a%2Fb");
        assert_eq!(user.method(), Method::Get);
        let members = endpoint::LIST_GROUP_MEMBERS.call(&["3"]);
        assert_eq!(members.path_and_query(), "/api/v3/groups/3/members");
        let sends = endpoint::LIST_SENDS.call(&[]).query("?page=2");
        assert_eq!(sends.path_and_query(), "/api/v3/send?page=2");
        assert_eq!(oauth_revoke("a+b"), "/oauth/revoke?token=a%2Bb");
        for call in [user, members, sends] {
            assert_eq!(call.problem(), None, "{call:?}");
        }
    }

    #[test]
    fn a_missing_or_blank_parameter_is_a_problem_named_by_what_it_names() {
        let missing = endpoint::READ_SCIM_USER.call(&[]);
        let user = CallProblem::MissingParameter {
            name: "id",
            of: "user",
        };
        assert_eq!(missing.problem(), Some(user));
        assert_eq!(user.to_string(), "no id of the user");
        for blank in ["", " "] {
            let call = endpoint::REPLACE_SCIM_USER.call(&[blank]);
            assert_eq!(call.problem(), Some(user), "{blank:?}");
        }
        let touch = endpoint::READ_TOUCH.call(&[""]).problem();
        assert_eq!(
            touch,
            Some(CallProblem::MissingParameter {
                name: "touch_id",
                of: "campaign"
            })
        );
        let members = endpoint::LIST_GROUP_MEMBERS.call(&[]).problem();
        assert_eq!(
            members,
            Some(CallProblem::MissingParameter {
                name: "team_group_id",
                of: "team group"
            })
        );
    }

    #[test]
    fn too_many_parameters_is_a_problem() {
        let template = endpoint::READ_TOUCH.template();
        let two = endpoint::READ_TOUCH.call(&["7", "8"]);
        assert_eq!(
            two.problem(),
            Some(CallProblem::TooManyParameters { template })
        );
        assert_eq!(two.path_and_query(), "/api/v3/touches/7");
        let me = endpoint::ME.call(&["1"]).problem().map(|p| p.to_string());
        assert_eq!(me.as_deref(), Some("too many parameters for /api/v3/me"));
    }

    #[test]
    fn every_call_of_the_table_is_a_known_route_with_its_method() {
        for &endpoint in ENDPOINTS {
            let params = ["1042"; 2];
            let n = endpoint.template.matches('{').count();
            let call = endpoint.call(&params[..n]);
            let route = match_api_route(call.path_and_query())
                .unwrap_or_else(|| panic!("{}", endpoint.template));
            assert_eq!(route.template, endpoint.template);
            assert!(route.allows(endpoint.method.as_str()), "{endpoint:?}");
        }
        assert!(match_api_route(V3_ME).expect("me").allows("HEAD"));
    }

    #[test]
    fn the_table_names_each_method_and_template_once() {
        for (i, a) in ENDPOINTS.iter().enumerate() {
            assert!(a.template.starts_with("/api/"), "{a:?}");
            assert!(!ENDPOINTS[..i].contains(a), "{a:?} twice");
        }
    }

    #[test]
    fn other_paths_and_methods_are_not_routes() {
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
        let users = match_api_route(SCIM_USERS).expect("users");
        assert!(!users.allows("DELETE"));
        assert_eq!(users.methods().collect::<Vec<_>>(), ["GET", "POST"]);
        assert_eq!(api_family("/api/scim/v2/Users/1"), ApiFamily::Scim);
        assert_eq!(api_family("/api/v3/nothing"), ApiFamily::Rest);
    }
}
