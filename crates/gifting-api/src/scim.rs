//! SCIM 2.0 users (RFC 7643/7644 names), as the platform provisions them.

use crate::enums::Role;
use crate::serde_quirks::string_or_int;
use serde::{Deserialize, Serialize};

pub const USER_SCHEMA: &str = "urn:ietf:params:scim:schemas:core:2.0:User";
pub const LIST_RESPONSE_SCHEMA: &str = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
pub const ERROR_SCHEMA: &str = "urn:ietf:params:scim:api:messages:2.0:Error";

/// The largest SCIM page; also the page size when `count` is omitted.
pub const MAX_COUNT: u64 = 100;

/// The longest `filter`, in characters: `userName eq "…"` with the longest email (254) fits
/// several times over.
pub const MAX_FILTER_LEN: usize = 1000;

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, Default)]
#[serde(rename_all = "camelCase")]
pub struct ScimName {
    #[serde(default)]
    pub given_name: String,
    #[serde(default)]
    pub family_name: String,
}

impl ScimName {
    /// "Given Family", without stray spaces when one part is empty.
    pub fn full(&self) -> String {
        full_name(&self.given_name, &self.family_name)
    }
}

/// "Given Family", without stray spaces when one part is empty: a SCIM name's parts, or a REST
/// user's `first_name` and `last_name`, shown alike on every screen.
pub fn full_name(given: &str, family: &str) -> String {
    format!("{given} {family}").trim().to_owned()
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct ScimEmail {
    pub value: String,
    /// Identity providers send `"work"`; stored by nobody, accepted from everybody.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub primary: Option<bool>,
}

impl ScimEmail {
    pub fn work(value: &str) -> Self {
        ScimEmail {
            value: value.to_owned(),
            kind: None,
            primary: None,
        }
    }
}

/// A user as the platform answers it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ScimUser {
    #[serde(default)]
    pub schemas: Vec<String>,
    #[serde(with = "string_or_int")]
    pub id: String,
    pub user_name: String,
    pub active: bool,
    #[serde(default)]
    pub name: ScimName,
    #[serde(default)]
    pub emails: Vec<ScimEmail>,
    pub user_type: Role,
    #[serde(default)]
    pub division: String,
}

/// The list response. `items_per_page` is the number of `Resources` in this page.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ListResponse {
    #[serde(default)]
    pub schemas: Vec<String>,
    pub total_results: u64,
    pub items_per_page: u64,
    pub start_index: u64,
    #[serde(rename = "Resources", default)]
    pub resources: Vec<ScimUser>,
}

/// RFC 7644 §3.12 error body. `status` is a string on the wire; a number is read too.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ScimError {
    #[serde(default)]
    pub schemas: Vec<String>,
    #[serde(with = "string_or_int")]
    pub status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scim_type: Option<String>,
    #[serde(default)]
    pub detail: String,
}

impl ScimError {
    pub fn new(status: u16, scim_type: Option<ScimErrorType>, detail: impl Into<String>) -> Self {
        ScimError {
            schemas: vec![ERROR_SCHEMA.to_owned()],
            status: status.to_string(),
            scim_type: scim_type.map(|t| t.as_str().to_owned()),
            detail: detail.into(),
        }
    }

    pub fn status_code(&self) -> Option<u16> {
        self.status.parse().ok()
    }
}

/// The `scimType` values this platform uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScimErrorType {
    Uniqueness,
    InvalidValue,
    InvalidFilter,
    InvalidSyntax,
    /// A change the platform's rules forbid on this resource (the sandbox's
    /// `--protect-last-admin`: taking the role or the active flag from the last active admin).
    Mutability,
}

impl ScimErrorType {
    pub fn as_str(self) -> &'static str {
        match self {
            ScimErrorType::Uniqueness => "uniqueness",
            ScimErrorType::InvalidValue => "invalidValue",
            ScimErrorType::InvalidFilter => "invalidFilter",
            ScimErrorType::InvalidSyntax => "invalidSyntax",
            ScimErrorType::Mutability => "mutability",
        }
    }
}

/// POST body. Standard SCIM attributes the platform does not store (`active`, `externalId`,
/// `displayName`, `emails` with `type`/`primary`) are accepted and ignored, so an identity
/// provider's body provisions fine.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct CreateUser {
    #[serde(default = "user_schemas")]
    pub schemas: Vec<String>,
    pub user_name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<ScimName>,
    pub user_type: Role,
    pub division: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub emails: Vec<ScimEmail>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
}

impl CreateUser {
    /// The body the console sends: the seed's fields and the user schema.
    pub fn new(email: &str, given: &str, family: &str, role: Role, division: &str) -> Self {
        CreateUser {
            schemas: user_schemas(),
            user_name: email.to_owned(),
            name: Some(ScimName {
                given_name: given.to_owned(),
                family_name: family.to_owned(),
            }),
            user_type: role,
            division: division.to_owned(),
            emails: vec![ScimEmail::work(email)],
            active: None,
            external_id: None,
            display_name: None,
        }
    }
}

/// PUT body: every field optional; what is omitted keeps its value. `userName` is read (IdPs
/// send the whole resource) but never changes the user.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, Default)]
#[serde(rename_all = "camelCase")]
pub struct ReplaceUser {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schemas: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_type: Option<Role>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub division: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<ScimName>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub emails: Vec<ScimEmail>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
}

fn user_schemas() -> Vec<String> {
    vec![USER_SCHEMA.to_owned()]
}

/// `GET /api/scim/v2/Users` query. `None` means "not sent".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListUsersQuery {
    pub start_index: Option<u64>,
    pub count: Option<u64>,
    pub filter: Option<UserFilter>,
}

impl ListUsersQuery {
    pub fn to_query_string(&self) -> String {
        crate::query::QueryBuilder::new()
            .push_opt("startIndex", self.start_index)
            .push_opt("count", self.count)
            .push_opt(
                "filter",
                self.filter.as_ref().map(UserFilter::to_filter_string),
            )
            .build()
    }
}

/// `startIndex` below 1 (or absent) reads as 1.
pub fn effective_start_index(start_index: Option<i64>) -> u64 {
    start_index.filter(|&i| i >= 1).map_or(1, |i| i as u64)
}

/// `count` absent or above 100 reads as 100; below 0 reads as 0.
pub fn effective_count(count: Option<i64>) -> u64 {
    match count {
        None => MAX_COUNT,
        Some(c) if c < 0 => 0,
        Some(c) => (c as u64).min(MAX_COUNT),
    }
}

/// The one filter the platform supports: `userName eq "value"` (value compared
/// case-insensitively; attribute and operator names are case-insensitive as in RFC 7644).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserFilter {
    pub user_name: String,
}

impl UserFilter {
    pub fn user_name_eq(user_name: &str) -> Self {
        UserFilter {
            user_name: user_name.to_owned(),
        }
    }

    /// Renders with JSON string escaping so quotes in the value stay inside the string.
    pub fn to_filter_string(&self) -> String {
        let quoted = serde_json::to_string(&self.user_name).unwrap_or_else(|_| "\"\"".into());
        format!("userName eq {quoted}")
    }

    /// Parses a filter; anything but `userName eq "…"`, or longer than [`MAX_FILTER_LEN`]
    /// characters, is an error for `invalidFilter`.
    pub fn parse(filter: &str) -> Result<UserFilter, String> {
        if filter.chars().count() > MAX_FILTER_LEN {
            return Err(format!(
                "A filter has at most {MAX_FILTER_LEN} characters: use userName eq \"value\""
            ));
        }
        let text = filter.trim();
        let (attr, rest) = text
            .split_once(char::is_whitespace)
            .ok_or_else(|| format!("Unsupported filter {text:?}: use userName eq \"value\""))?;
        let (op, value) = rest
            .trim_start()
            .split_once(char::is_whitespace)
            .ok_or_else(|| format!("Unsupported filter {text:?}: use userName eq \"value\""))?;
        if !attr.eq_ignore_ascii_case("userName") || !op.eq_ignore_ascii_case("eq") {
            return Err(format!(
                "Unsupported filter {text:?}: only userName eq \"value\" is supported"
            ));
        }
        let value = value.trim();
        if !value.starts_with('"') {
            return Err("The filter value must be a quoted string".to_owned());
        }
        let user_name: String = serde_json::from_str(value)
            .map_err(|_| "The filter value must be one quoted string".to_owned())?;
        Ok(UserFilter { user_name })
    }

    /// True when this filter selects `user_name`. Compared a character at a time, without
    /// copying either: a list reads every user with it.
    pub fn matches(&self, user_name: &str) -> bool {
        self.user_name
            .chars()
            .flat_map(char::to_lowercase)
            .eq(user_name.chars().flat_map(char::to_lowercase))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE_USER: &str = r#"{
        "schemas": ["urn:ietf:params:scim:schemas:core:2.0:User"],
        "id": "1234",
        "userName": "jane.doe@example.com",
        "active": true,
        "name": {"givenName": "Jane", "familyName": "Doe"},
        "emails": [{"value": "jane.doe@example.com"}],
        "userType": "manager",
        "division": "Sales"
    }"#;

    #[test]
    fn user_round_trips_the_seed_shape() {
        let user: ScimUser = serde_json::from_str(SAMPLE_USER).unwrap();
        assert_eq!(user.user_type, Role::Manager);
        assert_eq!(user.name.full(), "Jane Doe");
        let back: serde_json::Value = serde_json::to_value(&user).unwrap();
        let orig: serde_json::Value = serde_json::from_str(SAMPLE_USER).unwrap();
        assert_eq!(back, orig);
    }

    #[test]
    fn numeric_id_is_read_as_text() {
        let user: ScimUser =
            serde_json::from_str(&SAMPLE_USER.replace(r#""id": "1234""#, r#""id": 1234"#)).unwrap();
        assert_eq!(user.id, "1234");
    }

    #[test]
    fn list_response_reads_the_seed_sample_even_with_the_user_schema() {
        let body = format!(
            r#"{{"schemas": ["{USER_SCHEMA}"], "itemsPerPage": 1, "totalResults": 63,
                "startIndex": 1, "Resources": [{SAMPLE_USER}]}}"#
        );
        let list: ListResponse = serde_json::from_str(&body).unwrap();
        assert_eq!(list.total_results, 63);
        assert_eq!(list.resources.len(), 1);
    }

    #[test]
    fn identity_provider_create_body_is_accepted() {
        let body = r#"{
            "schemas": ["urn:ietf:params:scim:schemas:core:2.0:User"],
            "externalId": "00u1", "displayName": "Sam Lee", "active": true,
            "userName": "sam@example.org",
            "name": {"givenName": "Sam", "familyName": "Lee", "formatted": "Sam Lee"},
            "emails": [{"value": "sam@example.org", "type": "work", "primary": true}],
            "userType": "sender", "division": "Marketing"
        }"#;
        let create: CreateUser = serde_json::from_str(body).unwrap();
        assert_eq!(create.user_name, "sam@example.org");
        assert_eq!(create.emails[0].primary, Some(true));
    }

    #[test]
    fn error_body_matches_rfc_7644() {
        let err = ScimError::new(409, Some(ScimErrorType::Uniqueness), "taken");
        let json = serde_json::to_value(&err).unwrap();
        assert_eq!(json["status"], "409");
        assert_eq!(json["scimType"], "uniqueness");
        assert_eq!(json["schemas"][0], ERROR_SCHEMA);
        let numeric: ScimError =
            serde_json::from_str(r#"{"schemas":[],"status":404,"detail":"x"}"#).unwrap();
        assert_eq!(numeric.status_code(), Some(404));
    }

    #[test]
    fn replace_body_sends_only_what_changes() {
        let body = ReplaceUser {
            active: Some(false),
            ..Default::default()
        };
        assert_eq!(serde_json::to_string(&body).unwrap(), r#"{"active":false}"#);
    }

    #[test]
    fn paging_rules() {
        assert_eq!(effective_start_index(None), 1);
        assert_eq!(effective_start_index(Some(0)), 1);
        assert_eq!(effective_start_index(Some(-5)), 1);
        assert_eq!(effective_start_index(Some(26)), 26);
        assert_eq!(effective_count(None), 100);
        assert_eq!(effective_count(Some(500)), 100);
        assert_eq!(effective_count(Some(0)), 0);
        assert_eq!(effective_count(Some(-1)), 0);
        assert_eq!(effective_count(Some(25)), 25);
    }

    #[test]
    fn filter_length_is_bounded() {
        let at_most = |n: usize| format!(r#"userName eq "{}""#, "a".repeat(n - 14));
        assert_eq!(at_most(MAX_FILTER_LEN).len(), MAX_FILTER_LEN);
        assert!(UserFilter::parse(&at_most(MAX_FILTER_LEN)).is_ok());
        let err = UserFilter::parse(&at_most(MAX_FILTER_LEN + 1)).unwrap_err();
        assert!(err.contains("at most 1000 characters"), "{err}");
        assert!(UserFilter::parse(&"x".repeat(65_000)).is_err());
    }

    #[test]
    fn filter_parses_only_username_eq() {
        let f = UserFilter::parse(r#"userName eq "Admin@Example.com""#).unwrap();
        assert!(f.matches("admin@example.com"));
        assert_eq!(
            UserFilter::parse(r#"USERNAME EQ "a""#).unwrap().user_name,
            "a"
        );
        assert!(UserFilter::parse(r#"userName co "a""#).is_err());
        assert!(UserFilter::parse(r#"emails eq "a""#).is_err());
        assert!(UserFilter::parse("userName eq a").is_err());
        assert!(UserFilter::parse("").is_err());
        let tricky = UserFilter::user_name_eq(r#"a"b@example.com"#);
        assert_eq!(
            UserFilter::parse(&tricky.to_filter_string()).unwrap(),
            tricky
        );
        let q = ListUsersQuery {
            start_index: Some(26),
            count: Some(25),
            filter: Some(UserFilter::user_name_eq("x@example.com")),
        };
        assert_eq!(
            q.to_query_string(),
            "?startIndex=26&count=25&filter=userName%20eq%20%22x%40example.com%22"
        );
    }
}
