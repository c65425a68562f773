//! The users list's search and filters, kept in the address (`?q=&role=&team=&status=`) and
//! answered from the [directory](super::directory): any part of a name or an email, a role, a
//! team, active or not.

use gifting_api::scim::ScimUser;
use gifting_api::Role;

use super::present::display_name;
use crate::components::name_search::contains_folded;

pub(crate) const KEY_TEXT: &str = "q";
pub(crate) const KEY_ROLE: &str = "role";
pub(crate) const KEY_TEAM: &str = "team";
pub(crate) const KEY_STATUS: &str = "status";
/// Every key of the search, for "Clear".
pub(crate) const KEYS: [&str; 4] = [KEY_TEXT, KEY_ROLE, KEY_TEAM, KEY_STATUS];

/// The roles to filter by, as the platform names them.
pub(crate) const ROLES: [Role; 3] = [Role::Admin, Role::Manager, Role::Sender];

/// What the admin looks for. A value the address holds but the console does not know (a role
/// the platform does not have, a status other than active or inactive) filters nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct UserSearch {
    /// Lowercase and trimmed; empty matches everyone.
    pub(crate) text: String,
    pub(crate) role: Option<Role>,
    /// A team's name, as users carry it (SCIM `division`).
    pub(crate) team: Option<String>,
    pub(crate) active: Option<bool>,
}

impl UserSearch {
    pub(crate) fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Self {
        let value = |key: &str| {
            get(key)
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty())
        };
        UserSearch {
            text: value(KEY_TEXT).unwrap_or_default().to_lowercase(),
            role: value(KEY_ROLE).and_then(|r| Role::parse_known(&r)),
            team: value(KEY_TEAM),
            active: match value(KEY_STATUS).as_deref() {
                Some("active") => Some(true),
                Some("inactive") => Some(false),
                _ => None,
            },
        }
    }

    /// Whether anything is asked: then the list is the directory's, not the platform's page.
    pub(crate) fn is_active(&self) -> bool {
        !self.text.is_empty() || self.role.is_some() || self.team.is_some() || self.active.is_some()
    }

    pub(crate) fn matches(&self, user: &ScimUser) -> bool {
        self.role.as_ref().is_none_or(|r| *r == user.user_type)
            && self.team.as_ref().is_none_or(|t| *t == user.division)
            && self.active.is_none_or(|a| a == user.active)
            && (contains_folded(&user.user_name, &self.text)
                || contains_folded(&display_name(user), &self.text))
    }
}

/// The users that match, in the directory's order.
pub(crate) fn matching(users: &[ScimUser], search: &UserSearch) -> Vec<ScimUser> {
    users
        .iter()
        .filter(|u| search.matches(u))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use gifting_api::scim::ScimName;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn user(id: &str, given: &str, family: &str, role: Role, team: &str, active: bool) -> ScimUser {
        ScimUser {
            schemas: Vec::new(),
            id: id.into(),
            user_name: format!(
                "{}.{}@example.com",
                given.to_lowercase(),
                family.to_lowercase()
            ),
            active,
            name: ScimName {
                given_name: given.into(),
                family_name: family.into(),
            },
            emails: Vec::new(),
            user_type: role,
            division: team.into(),
        }
    }

    fn search(pairs: &[(&str, &str)]) -> UserSearch {
        UserSearch::from_lookup(|key| {
            pairs
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| (*v).to_owned())
        })
    }

    #[wasm_bindgen_test]
    fn any_part_of_a_name_or_an_email_and_each_filter() {
        let users = [
            user("1", "Nadia", "Dubois", Role::Sender, "Sales", true),
            user("2", "Omar", "O'Brien", Role::Manager, "Partnerships", true),
            user("3", "Zoë", "Müller", Role::Admin, "Sales", false),
        ];
        let ids = |s: &UserSearch| -> Vec<String> {
            matching(&users, s).into_iter().map(|u| u.id).collect()
        };
        assert_eq!(ids(&search(&[("q", " DUBO ")])), ["1"]);
        assert_eq!(ids(&search(&[("q", "brien@")])), ["2"]);
        assert_eq!(ids(&search(&[("q", "müll")])), ["3"]);
        assert_eq!(ids(&search(&[("role", "manager")])), ["2"]);
        assert_eq!(ids(&search(&[("team", "Sales")])), ["1", "3"]);
        assert_eq!(ids(&search(&[("status", "inactive")])), ["3"]);
        assert_eq!(
            ids(&search(&[("team", "Sales"), ("status", "active")])),
            ["1"]
        );
        // What the console does not know filters nothing, and asks for nothing.
        let unknown = search(&[("role", "auditor"), ("status", "maybe"), ("q", "  ")]);
        assert!(!unknown.is_active());
        assert_eq!(ids(&unknown), ["1", "2", "3"]);
    }
}
