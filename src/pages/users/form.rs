//! The user form's rules, apart from the view: which field an error belongs to, checked
//! before anything is sent, and where a refusal from the platform is shown.

use gifting_api::scim::{CreateUser, ScimName};
use gifting_api::validate;
use gifting_api::Role;

use crate::api::ApiError;
use crate::i18n::{msg, t, M};

/// Longest name part the console accepts; longer text is a typing accident.
pub(crate) const MAX_NAME: usize = 100;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Field {
    Email,
    GivenName,
    FamilyName,
    Role,
    Team,
}

impl Field {
    #[cfg(test)]
    pub(crate) const ALL: [Field; 5] = [
        Field::Email,
        Field::GivenName,
        Field::FamilyName,
        Field::Role,
        Field::Team,
    ];

    /// The element id of the field's input; its error is `{id}-error`.
    pub(crate) fn id(self) -> &'static str {
        match self {
            Field::Email => "user-email",
            Field::GivenName => "user-given-name",
            Field::FamilyName => "user-family-name",
            Field::Role => "user-role",
            Field::Team => "user-team",
        }
    }

    /// The field's name, as its label shows it.
    pub(crate) fn message(self) -> M {
        match self {
            Field::Email => M::UsersEmail,
            Field::GivenName => M::UsersFirstName,
            Field::FamilyName => M::UsersLastName,
            Field::Role => M::UsersRole,
            Field::Team => M::UsersTeam,
        }
    }
}

/// What the admin typed, kept as typed so nothing is lost on an error. An import row holds
/// the same fields (`import::fate::Wanted`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct UserDraft {
    pub(crate) email: String,
    pub(crate) given_name: String,
    pub(crate) family_name: String,
    /// `""` until a role is chosen.
    pub(crate) role: String,
    /// A team group name; `""` until one is chosen.
    pub(crate) team: String,
}

/// One message per field that is wrong, in field order.
pub(crate) type FieldErrors = Vec<(Field, String)>;

pub(crate) fn error_for(errors: &FieldErrors, field: Field) -> Option<String> {
    errors
        .iter()
        .find(|(f, _)| *f == field)
        .map(|(_, m)| m.clone())
}

impl UserDraft {
    /// Checks every field the form shows; `teams` are the team group names that exist.
    /// `with_email` is false on the edit page, where the email cannot change.
    pub(crate) fn validate(&self, teams: &[String], with_email: bool) -> FieldErrors {
        let mut errors = FieldErrors::new();
        if with_email {
            if let Err(message) = validate::email(&self.email) {
                errors.push((Field::Email, email_problem(message)));
            }
        }
        let max = MAX_NAME.to_string();
        let names = [
            (
                Field::GivenName,
                &self.given_name,
                M::UsersEnterFirstName,
                msg::users_first_name_too_long as fn(&str) -> String,
            ),
            (
                Field::FamilyName,
                &self.family_name,
                M::UsersEnterLastName,
                msg::users_last_name_too_long,
            ),
        ];
        for (field, value, missing, too_long) in names {
            let value = value.trim();
            if value.is_empty() {
                errors.push((field, t(missing).to_owned()));
            } else if value.chars().count() > MAX_NAME {
                errors.push((field, too_long(&max)));
            }
        }
        if self.role.is_empty() {
            errors.push((Field::Role, t(M::UsersChooseRoleError).to_owned()));
        } else if Role::parse_known(&self.role).is_none() {
            let role = format!("{:?}", self.role);
            errors.push((Field::Role, msg::users_not_a_role(&role)));
        }
        if self.team.is_empty() {
            errors.push((Field::Team, t(M::UsersChooseTeamError).to_owned()));
        } else if !teams.contains(&self.team) {
            errors.push((Field::Team, t(M::UsersTeamGone).to_owned()));
        }
        errors
    }

    /// The SCIM create body; call after [`UserDraft::validate`] found nothing.
    pub(crate) fn create_body(&self) -> CreateUser {
        CreateUser::new(
            self.email.trim(),
            self.given_name.trim(),
            self.family_name.trim(),
            Role::parse(&self.role),
            &self.team,
        )
    }

    pub(crate) fn name(&self) -> ScimName {
        ScimName {
            given_name: self.given_name.trim().to_owned(),
            family_name: self.family_name.trim().to_owned(),
        }
    }
}

/// [`validate::email`]'s refusal in the language shown (its words are English; one the console
/// does not know stays as it came).
pub(crate) fn email_problem(english: String) -> String {
    email_message(&english).map_or(english, |m| t(m).to_owned())
}

/// The catalog's message for one of [`validate::email`]'s English refusals.
fn email_message(english: &str) -> Option<M> {
    const KNOWN: [(&str, M); 6] = [
        ("Enter an email address.", M::UsersEmailMissing),
        (
            "An email address has at most 254 characters.",
            M::UsersEmailTooLong,
        ),
        (
            "An email address needs an @, like name@example.com.",
            M::UsersEmailNoAt,
        ),
        (
            "The part before the @ must have 1 to 64 characters.",
            M::UsersEmailLocalLength,
        ),
        (
            "The part before the @ has a character an address cannot have.",
            M::UsersEmailLocalCharacter,
        ),
        (
            "The part after the @ must be a domain, like example.com.",
            M::UsersEmailDomain,
        ),
    ];
    KNOWN
        .iter()
        .find(|(text, _)| *text == english)
        .map(|(_, m)| *m)
}

/// Where a refused write is shown: next to a field, or (`None`) in the form's banner.
pub(crate) fn field_of_error(error: &ApiError) -> Option<(Field, String)> {
    let ApiError::Scim {
        status,
        scim_type,
        detail,
    } = error
    else {
        return None;
    };
    match (*status, scim_type.as_deref()) {
        (409, _) | (_, Some("uniqueness")) => {
            Some((Field::Email, t(M::UsersEmailTaken).to_owned()))
        }
        (400, _) => field_named_in(detail).map(|field| (field, detail.clone())),
        _ => None,
    }
}

/// The field a 400's detail talks about: the attribute (or word for it) it names first, so a
/// team called "Email Marketing" in a `division` message still points at the team.
pub(crate) fn field_named_in(detail: &str) -> Option<Field> {
    const WORDS: &[(Field, &[&str])] = &[
        (Field::GivenName, &["givenname", "given name", "first name"]),
        (
            Field::FamilyName,
            &["familyname", "family name", "last name"],
        ),
        (Field::Email, &["username", "email"]),
        (Field::Role, &["usertype", "role"]),
        (Field::Team, &["division", "team"]),
    ];
    let text = detail.to_lowercase();
    WORDS
        .iter()
        .flat_map(|(field, words)| words.iter().map(move |word| (*field, *word)))
        .filter_map(|(field, word)| text.find(word).map(|at| (at, field)))
        .min_by_key(|(at, _)| *at)
        .map(|(_, field)| field)
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn good() -> UserDraft {
        UserDraft {
            email: "new.person@example.com".into(),
            given_name: "New".into(),
            family_name: "Person".into(),
            role: "sender".into(),
            team: "Sales".into(),
        }
    }

    fn teams() -> Vec<String> {
        vec!["Sales".into(), "Marketing".into()]
    }

    #[wasm_bindgen_test]
    fn a_complete_draft_passes_and_builds_the_body() {
        assert!(good().validate(&teams(), true).is_empty());
        let body = good().create_body();
        assert_eq!(body.user_name, "new.person@example.com");
        assert_eq!(body.user_type, Role::Sender);
        assert_eq!(body.division, "Sales");
        assert_eq!(body.emails[0].value, "new.person@example.com");
    }

    #[wasm_bindgen_test]
    fn every_missing_field_has_its_own_message() {
        let errors = UserDraft::default().validate(&teams(), true);
        let fields: Vec<Field> = errors.iter().map(|(f, _)| *f).collect();
        assert_eq!(fields, Field::ALL.to_vec());
        let bad_email = UserDraft {
            email: "not-an-email".into(),
            ..good()
        };
        let errors = bad_email.validate(&teams(), true);
        assert_eq!(errors.len(), 1);
        assert!(error_for(&errors, Field::Email).is_some());
        // The edit page does not check the email it cannot change.
        assert!(bad_email.validate(&teams(), false).is_empty());
        let gone_team = UserDraft {
            team: "Dissolved".into(),
            ..good()
        };
        assert!(error_for(&gone_team.validate(&teams(), true), Field::Team).is_some());
    }

    #[wasm_bindgen_test]
    fn every_refusal_of_an_email_has_its_message_in_the_catalog() {
        let long = format!("{}@example.com", "a".repeat(250));
        let long_local = format!("{}@example.com", "a".repeat(65));
        // Also what the import checked on its own: an empty local part, two dots.
        for bad in [
            "",
            &long,
            "no-at",
            &long_local,
            "a b@example.com",
            "a@b",
            "@example.com",
            "a..b@example.com",
            "a@example",
        ] {
            let english = validate::email(bad).expect_err(bad);
            assert!(email_message(&english).is_some(), "{english}");
            assert_eq!(
                email_problem(english.clone()),
                english,
                "English stays as it was"
            );
        }
    }

    #[wasm_bindgen_test]
    fn refusals_land_on_the_field_they_name() {
        let conflict = ApiError::Scim {
            status: 409,
            scim_type: Some("uniqueness".into()),
            detail: "userName taken".into(),
        };
        assert_eq!(
            field_of_error(&conflict),
            Some((
                Field::Email,
                "A user with this email already exists.".into()
            ))
        );
        let bad_team = ApiError::Scim {
            status: 400,
            scim_type: Some("invalidValue".into()),
            detail: "division \"X\" names no team group".into(),
        };
        assert_eq!(field_of_error(&bad_team).map(|(f, _)| f), Some(Field::Team));
        assert_eq!(
            field_named_in("name.givenName is too long"),
            Some(Field::GivenName)
        );
        assert_eq!(field_named_in("userType must be one of"), Some(Field::Role));
        assert_eq!(
            field_named_in("division \"Email Marketing\" names no team group"),
            Some(Field::Team)
        );
        assert_eq!(
            field_named_in("userName: The part after the @ must be a domain"),
            Some(Field::Email)
        );
        assert_eq!(field_named_in("something else"), None);
        assert_eq!(field_of_error(&ApiError::Network), None);
        let server = ApiError::Server {
            status: 500,
            message: "boom".into(),
        };
        assert_eq!(field_of_error(&server), None);
    }
}
