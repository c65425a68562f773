//! Users as the platform sends them, for the user screens' tests (the list's bulk changes, the
//! import's fates): one fixture, so each test states only what it varies.

use gifting_api::scim::ScimUser;

/// Ada Lovelace (id 7, ada@example.com), a `role` in team `team` ("" for none), active or not.
pub(crate) fn ada(role: &str, team: &str, active: bool) -> ScimUser {
    serde_json::from_value(serde_json::json!({
        "id": "7", "userName": "ada@example.com", "active": active,
        "name": {"givenName": "Ada", "familyName": "Lovelace"},
        "userType": role, "division": team
    }))
    .unwrap()
}
