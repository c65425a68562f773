//! The preview of a whole file: every row read through the mapping, its fate against what the
//! platform holds, the counts per fate, and (when every user was read) the active users the
//! file does not name, whom the run may deactivate.

use std::collections::HashSet;
use std::sync::Arc;

use super::columns::{slot, Mapping};
use super::compare::Known;
use super::fate::{duplicates, fate, Fate, FateKind, Problem, TeamNames, Wanted};
use super::parse::Table;
use crate::pages::users::form::Field;

#[derive(Debug, Default)]
pub(crate) struct Preview {
    pub(crate) wanted: Vec<Wanted>,
    pub(crate) fates: Vec<Fate>,
    /// Per [`FateKind::ALL`].
    pub(crate) counts: [usize; 4],
    /// Active users absent from the file (id, email), the signed-in admin left out; `None`
    /// until every user was read.
    pub(crate) absent: Option<Vec<(String, String)>>,
}

/// A shared preview; equal only to itself, so a memo holding it notifies on every rebuild.
#[derive(Clone, Debug, Default)]
pub(crate) struct Shared(pub(crate) Arc<Preview>);

impl PartialEq for Shared {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// The emails worth comparing: every non-empty one, lower case.
pub(crate) fn keys(table: &Table, mapping: &Mapping) -> Vec<String> {
    let column = mapping[slot(Field::Email)];
    table
        .rows
        .iter()
        .map(|r| r.cell(column).to_lowercase())
        .filter(|e| e.contains('@'))
        .collect()
}

pub(crate) fn build(
    table: &Table,
    mapping: &Mapping,
    known: &Known,
    teams: &[String],
    me: Option<&str>,
) -> Preview {
    let wanted: Vec<Wanted> = table
        .rows
        .iter()
        .map(|r| Wanted::read(r, mapping))
        .collect();
    let dups = duplicates(&wanted, &table.rows);
    let teams = TeamNames::new(teams);
    let mut counts = [0; 4];
    let fates: Vec<Fate> = wanted
        .iter()
        .zip(&table.rows)
        .enumerate()
        .map(|(i, (w, row))| {
            let f = if row.extra_cells {
                Fate::Error(Problem::ExtraCells(table.header.len()))
            } else {
                fate(
                    w,
                    known.users.get(&w.key()),
                    &teams,
                    dups.get(&i).map(Vec::as_slice),
                )
            };
            counts[FateKind::ALL
                .iter()
                .position(|k| *k == f.kind())
                .unwrap_or(3)] += 1;
            f
        })
        .collect();
    let absent = known.complete.then(|| {
        let named: HashSet<String> = wanted.iter().map(Wanted::key).collect();
        let me = me.map(str::to_lowercase);
        let mut absent: Vec<(String, String)> = known
            .users
            .iter()
            .filter(|(key, u)| u.active && !named.contains(*key) && Some(*key) != me.as_ref())
            .map(|(_, u)| (u.id.clone(), u.user_name.clone()))
            .collect();
        absent.sort_by(|a, b| a.1.cmp(&b.1));
        absent
    });
    Preview {
        wanted,
        fates,
        counts,
        absent,
    }
}

#[cfg(test)]
mod tests {
    use super::super::columns::guess;
    use super::super::parse::read_all;
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn counts_each_fate_and_finds_the_absent() {
        let table = read_all(
            "Email,First name,Last name,Role,Team\n\
             new@example.com,New,One,sender,Sales\n\
             ADMIN@example.com,Ada,Admin,admin,Executive Office\n\
             bad,X,Y,sender,Sales\n\
             dup@example.com,A,B,sender,Sales\n\
             dup@example.com,A,B,sender,Sales\n",
        )
        .unwrap();
        let mapping = guess(&table.header);
        let user = |email: &str, id: &str| -> gifting_api::scim::ScimUser {
            serde_json::from_value(serde_json::json!({
                "id": id, "userName": email, "active": true,
                "name": {"givenName": "Ada", "familyName": "Admin"},
                "userType": "admin", "division": "Executive Office"
            }))
            .unwrap()
        };
        let mut known = Known {
            complete: true,
            ..Known::default()
        };
        for (email, id) in [
            ("admin@example.com", "1"),
            ("gone@example.com", "2"),
            ("me@example.com", "3"),
        ] {
            known.users.insert(email.into(), user(email, id));
        }
        let teams = ["Sales", "Executive Office"].map(String::from).to_vec();
        let p = build(&table, &mapping, &known, &teams, Some("Me@example.com"));
        assert_eq!(p.counts, [1, 0, 1, 3]);
        assert_eq!(
            p.absent,
            Some(vec![("2".into(), "gone@example.com".into())])
        );
        assert_eq!(keys(&table, &mapping).len(), 4);
    }
}
