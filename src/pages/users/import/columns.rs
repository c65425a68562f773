//! Which column of the file holds which of the user's fields: guessed from the header's
//! words, changeable by the admin, and remembered for the next file in this tab.

use crate::browser::session_storage;
use crate::pages::users::form::Field;

/// The fields an import fills, in the order the mapping form shows them.
pub(crate) const FIELDS: [Field; 5] = [
    Field::Email,
    Field::GivenName,
    Field::FamilyName,
    Field::Role,
    Field::Team,
];

/// Per field of [`FIELDS`], the column that holds it (by position in the header).
pub(crate) type Mapping = [Option<usize>; 5];

pub(crate) fn slot(field: Field) -> usize {
    FIELDS.iter().position(|f| *f == field).unwrap_or(0)
}

/// Header words that name each field, squeezed (lower case, letters and digits only).
fn names(field: Field) -> &'static [&'static str] {
    match field {
        Field::Email => &[
            "email",
            "emailaddress",
            "mail",
            "workemail",
            "businessemail",
            "username",
            "login",
            "courriel",
            "emailadresse",
        ],
        Field::GivenName => &[
            "firstname",
            "givenname",
            "forename",
            "first",
            "prenom",
            "vorname",
            "fname",
        ],
        Field::FamilyName => &[
            "lastname",
            "familyname",
            "surname",
            "last",
            "nom",
            "nachname",
            "lname",
        ],
        Field::Role => &[
            "role",
            "userrole",
            "usertype",
            "accessrole",
            "permission",
            "access",
        ],
        Field::Team => &[
            "team",
            "teamgroup",
            "teamname",
            "department",
            "dept",
            "division",
            "group",
            "departmentname",
        ],
    }
}

/// "E-mail address" → "emailaddress".
fn squeeze(header: &str) -> String {
    header
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'é' | 'è' => 'e',
            other => other,
        })
        .collect()
}

/// The guess: an exact name first, then a header that contains one ("Work email (primary)");
/// each column serves one field at most.
pub(crate) fn guess(header: &[String]) -> Mapping {
    let squeezed: Vec<String> = header.iter().map(|h| squeeze(h)).collect();
    let mut mapping: Mapping = [None; 5];
    let mut taken = vec![false; header.len()];
    for exact in [true, false] {
        for (slot, field) in FIELDS.iter().enumerate() {
            if mapping[slot].is_some() {
                continue;
            }
            let hit = squeezed.iter().enumerate().position(|(i, h)| {
                !taken[i]
                    && names(*field).iter().any(|n| {
                        if exact {
                            h == n
                        } else {
                            n.len() >= 4 && h.contains(n)
                        }
                    })
            });
            if let Some(i) = hit {
                mapping[slot] = Some(i);
                taken[i] = true;
            }
        }
    }
    mapping
}

const STORAGE_KEY: &str = "gifting.import.columns";

/// The header names chosen last time, per field ("" for none). Holds no token or user data.
pub(crate) fn remember(header: &[String], mapping: &Mapping) {
    let names: Vec<String> = mapping
        .iter()
        .map(|c| c.and_then(|c| header.get(c)).cloned().unwrap_or_default())
        .collect();
    if let (Some(storage), Ok(json)) = (session_storage(), serde_json::to_string(&names)) {
        let _ = storage.set_item(STORAGE_KEY, &json);
    }
}

/// The mapping for a new file: the remembered choice wherever the file has that header,
/// the guess elsewhere.
pub(crate) fn recall(header: &[String]) -> Mapping {
    let stored = session_storage()
        .and_then(|s| s.get_item(STORAGE_KEY).ok().flatten())
        .and_then(|json| serde_json::from_str::<Vec<String>>(&json).ok())
        .unwrap_or_default();
    apply_remembered(header, &stored, guess(header))
}

pub(crate) fn apply_remembered(header: &[String], stored: &[String], guessed: Mapping) -> Mapping {
    let mut mapping = guessed;
    for (slot, name) in stored.iter().enumerate().take(FIELDS.len()) {
        if let Some(i) = header.iter().position(|h| !name.is_empty() && h == name) {
            // The column moves here from whichever field the guess gave it to.
            for other in mapping.iter_mut() {
                if *other == Some(i) {
                    *other = None;
                }
            }
            mapping[slot] = Some(i);
        }
    }
    mapping
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn header(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[wasm_bindgen_test]
    fn guesses_from_common_header_names() {
        let h = header(&[
            "E-mail address",
            "First name",
            "Last Name",
            "Department",
            "Role",
        ]);
        assert_eq!(guess(&h), [Some(0), Some(1), Some(2), Some(4), Some(3)]);
        let h = header(&[
            "Employee ID",
            "Surname",
            "Given name",
            "Work Email (primary)",
            "Team",
        ]);
        assert_eq!(guess(&h), [Some(3), Some(2), Some(1), None, Some(4)]);
        let h = header(&["Prénom", "Nom", "Courriel"]);
        assert_eq!(guess(&h), [Some(2), Some(0), Some(1), None, None]);
        assert_eq!(guess(&header(&["id", "notes"])), [None; 5]);
    }

    #[wasm_bindgen_test]
    fn a_remembered_choice_wins_where_the_file_has_it() {
        let h = header(&["Email", "Personal email", "Team", "Cost centre"]);
        let guessed = guess(&h);
        assert_eq!(guessed[slot(Field::Email)], Some(0));
        let stored = header(&["Personal email", "", "", "", "Cost centre"]);
        let mapping = apply_remembered(&h, &stored, guessed);
        assert_eq!(mapping[slot(Field::Email)], Some(1));
        assert_eq!(mapping[slot(Field::Team)], Some(3));
        // A remembered header this file lacks leaves the guess alone.
        let other = header(&["Email", "Team"]);
        assert_eq!(
            apply_remembered(&other, &stored, guess(&other)),
            guess(&other)
        );
    }
}
