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

#[cfg(test)]
mod tests {
    #[test]
    fn paths_encode_their_parameters() {
        assert_eq!(super::scim_user("42"), "/api/scim/v2/Users/42");
        assert_eq!(super::scim_user("a/b"), "/api/scim/v2/Users/a%2Fb");
        assert_eq!(super::v3_group_members(3), "/api/v3/groups/3/members");
        assert_eq!(super::oauth_revoke("a+b"), "/oauth/revoke?token=a%2Bb");
    }
}
