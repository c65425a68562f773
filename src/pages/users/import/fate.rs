//! What an import would do to each row, decided before anything is written: create the user,
//! update them (and what changes), leave them unchanged, or refuse the row with the reason.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use gifting_api::scim::{CreateUser, ReplaceUser, ScimName, ScimUser};
use gifting_api::{validate, Role};

use super::columns::{slot, Mapping};
use super::parse::Row;
use crate::components::format::count;
use crate::i18n::{msg, t, M};
use crate::pages::users::form::{Field, UserDraft, MAX_NAME};

/// A row's values: the user form's fields, read through the mapping and trimmed ("" when
/// blank or unmapped).
pub(crate) type Wanted = UserDraft;

impl Wanted {
    pub(crate) fn read(row: &Row, mapping: &Mapping) -> Self {
        let cell = |field| row.cell(mapping[slot(field)]).to_owned();
        Wanted {
            email: cell(Field::Email),
            given_name: cell(Field::GivenName),
            family_name: cell(Field::FamilyName),
            // Spreadsheets capitalise: "Manager" means manager.
            role: cell(Field::Role).to_lowercase(),
            team: cell(Field::Team),
        }
    }

    /// The key the platform compares `userName` by.
    pub(crate) fn key(&self) -> String {
        self.email.to_lowercase()
    }
}

/// What an update changes on a user.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Attribute {
    GivenName,
    FamilyName,
    Role,
    Team,
    /// Deactivated → active (a user in the file is active).
    Status,
}

/// One attribute an update changes, as the preview shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Change {
    pub(crate) field: Attribute,
    pub(crate) from: String,
    pub(crate) to: String,
}

impl Change {
    /// "Role: sender → manager", in the chosen language (the values as the file and the
    /// platform have them).
    pub(crate) fn text(&self) -> String {
        let (from, to) = (shown(&self.from), shown(&self.to));
        match self.field {
            Attribute::GivenName => msg::import_change_given_name(from, to),
            Attribute::FamilyName => msg::import_change_family_name(from, to),
            Attribute::Role => msg::import_change_role(from, to),
            Attribute::Team => msg::import_change_team(from, to),
            Attribute::Status => t(M::ImportChangeReactivated).into(),
        }
    }
}

/// Why a row cannot be written: the preview's reason, worded when shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Problem {
    MissingEmail,
    /// The address, and the validator's English words for what is wrong with it.
    InvalidEmail(String),
    UnknownRole(String),
    /// A team that is no team group's name, and the closest one, if any is close.
    UnknownTeam(String, Option<String>),
    /// A name over [`MAX_NAME`] characters (the first name's, or the last name's).
    TooLong(Field),
    /// The other rows with the same email.
    Duplicate(Vec<usize>),
    /// A new user without this field.
    MissingForCreate(Field),
    /// More cells than the header's columns (their number).
    ExtraCells(usize),
}

impl Problem {
    /// The reason in words, in the chosen language.
    pub(crate) fn text(&self) -> String {
        match self {
            Problem::MissingEmail => t(M::ImportMissingEmail).into(),
            Problem::InvalidEmail(why) => invalid_email(why),
            Problem::UnknownRole(role) => msg::import_unknown_role(role),
            Problem::UnknownTeam(team, None) => msg::import_unknown_team(team),
            Problem::UnknownTeam(team, Some(hint)) => msg::import_unknown_team_hint(team, hint),
            Problem::TooLong(field) => {
                let max = count(MAX_NAME as u64);
                match field {
                    Field::GivenName => msg::import_given_name_too_long(&max),
                    _ => msg::import_family_name_too_long(&max),
                }
            }
            Problem::Duplicate(rows) => {
                let numbers: Vec<String> = rows.iter().map(usize::to_string).collect();
                msg::import_duplicate(rows.len() as u64, &numbers.join(", "))
            }
            Problem::MissingForCreate(field) => t(match field {
                Field::GivenName => M::ImportMissingGivenName,
                Field::FamilyName => M::ImportMissingFamilyName,
                Field::Role => M::ImportMissingRole,
                _ => M::ImportMissingTeam,
            })
            .into(),
            Problem::ExtraCells(columns) => msg::import_extra_cells(*columns as u64),
        }
    }
}

/// "Invalid email: …", with the validator's reason (`gifting_api::validate::email`, in English)
/// in the chosen language (the user form's words for it).
fn invalid_email(why: &str) -> String {
    msg::import_invalid_email(&super::super::form::email_problem(why.to_owned()))
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Fate {
    Create,
    /// The existing user's id, and what changes.
    Update(String, Vec<Change>),
    Unchanged,
    Error(Problem),
}

impl Fate {
    pub(crate) fn kind(&self) -> FateKind {
        match self {
            Fate::Create => FateKind::Create,
            Fate::Update(..) => FateKind::Update,
            Fate::Unchanged => FateKind::Unchanged,
            Fate::Error(_) => FateKind::Error,
        }
    }

    /// The preview's words for what happens, in the chosen language: one text, or one per
    /// change of an update (shown with "; " between them).
    pub(crate) fn details(&self) -> Vec<String> {
        match self {
            Fate::Create => vec![t(M::ImportNewUser).into()],
            Fate::Update(_, changes) => changes.iter().map(Change::text).collect(),
            Fate::Unchanged => vec![t(M::ImportAlreadyAsInFile).into()],
            Fate::Error(problem) => vec![problem.text()],
        }
    }

    /// [`Fate::details`] as one text.
    #[cfg(test)]
    pub(crate) fn detail(&self) -> String {
        self.details().join("; ")
    }
}

/// A value as the preview shows it: "(none)" when blank.
fn shown(text: &str) -> &str {
    if text.is_empty() {
        t(M::ImportNone)
    } else {
        text
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum FateKind {
    Create,
    Update,
    Unchanged,
    Error,
}

impl FateKind {
    pub(crate) const ALL: [FateKind; 4] = [
        FateKind::Create,
        FateKind::Update,
        FateKind::Unchanged,
        FateKind::Error,
    ];

    /// Its name on screen (the filter's choices, the preview's badges).
    pub(crate) fn label(self) -> M {
        match self {
            FateKind::Create => M::ImportFateCreate,
            FateKind::Update => M::ImportFateUpdate,
            FateKind::Unchanged => M::ImportFateUnchanged,
            FateKind::Error => M::ImportFateError,
        }
    }

    pub(crate) fn key(self) -> &'static str {
        match self {
            FateKind::Create => "create",
            FateKind::Update => "update",
            FateKind::Unchanged => "unchanged",
            FateKind::Error => "error",
        }
    }
}

/// Rows whose email appears more than once in the file: row index → the other row numbers.
pub(crate) fn duplicates(wanted: &[Wanted], rows: &[Row]) -> HashMap<usize, Vec<usize>> {
    let mut by_key: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, w) in wanted.iter().enumerate() {
        if !w.email.is_empty() {
            by_key.entry(w.key()).or_default().push(i);
        }
    }
    let mut out = HashMap::new();
    for indexes in by_key.values().filter(|v| v.len() > 1) {
        for &i in indexes {
            let others = indexes
                .iter()
                .filter(|&&j| j != i)
                .map(|&j| rows[j].number)
                .collect();
            out.insert(i, others);
        }
    }
    out
}

/// Distinct unknown team names that get a "did you mean": enough for any real file's typos.
const HINTS_AT_MOST: usize = 100;

/// The team group names rows are checked against. A file repeats a handful of team names over
/// thousands of rows, and a crafted one can give every row a long unknown name: each distinct
/// unknown name gets its "did you mean" worked out once, and only the first [`HINTS_AT_MOST`]
/// get one at all, so the preview's work stays bounded whatever the file holds.
pub(crate) struct TeamNames<'a> {
    names: &'a [String],
    known: HashSet<&'a str>,
    hints: RefCell<HashMap<String, Option<&'a str>>>,
}

impl<'a> TeamNames<'a> {
    pub(crate) fn new(names: &'a [String]) -> Self {
        TeamNames {
            names,
            known: names.iter().map(String::as_str).collect(),
            hints: RefCell::default(),
        }
    }

    fn contains(&self, name: &str) -> bool {
        self.known.contains(name)
    }

    /// The closest name to `typed`, once per distinct `typed` (see [`TeamNames`]).
    fn hint(&self, typed: &str) -> Option<&'a str> {
        let mut hints = self.hints.borrow_mut();
        if let Some(hint) = hints.get(typed) {
            return *hint;
        }
        let hint = (hints.len() < HINTS_AT_MOST)
            .then(|| closest_team(typed, self.names))
            .flatten();
        hints.insert(typed.to_owned(), hint);
        hint
    }
}

/// The closest team group name to `typed`, for "did you mean": within half the longer name's
/// length (at least 2) of edits.
pub(crate) fn closest_team<'a>(typed: &str, teams: &'a [String]) -> Option<&'a str> {
    let typed: Vec<char> = typed.to_lowercase().chars().take(MAX_COMPARED).collect();
    let mut row = Vec::new();
    teams
        .iter()
        .filter_map(|t| {
            let team: Vec<char> = t.to_lowercase().chars().take(MAX_COMPARED).collect();
            let most = (team.len().max(typed.len()) / 2).max(2);
            // The distance is at least the difference in length: no need to work it out.
            if team.len().abs_diff(typed.len()) > most {
                return None;
            }
            let d = distance(&typed, &team, &mut row);
            (d <= most).then_some((d, t.as_str()))
        })
        .min_by_key(|(d, _)| *d)
        .map(|(_, t)| t)
}

/// Characters of a name compared for "did you mean".
const MAX_COMPARED: usize = 200;

/// Levenshtein distance over characters, in one reused row of `row` (no allocation per row).
fn distance(a: &[char], b: &[char], row: &mut Vec<usize>) -> usize {
    row.clear();
    row.extend(0..=b.len());
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            let next = (diagonal + cost).min(row[j + 1] + 1).min(row[j] + 1);
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// What is wrong with the row's own values, whether the user exists or not.
fn check_values(w: &Wanted, teams: &TeamNames<'_>) -> Result<(), Problem> {
    if w.email.is_empty() {
        return Err(Problem::MissingEmail);
    }
    validate::email(&w.email).map_err(Problem::InvalidEmail)?;
    if !w.role.is_empty() {
        validate::role(&w.role).map_err(|_| Problem::UnknownRole(w.role.clone()))?;
    }
    if !w.team.is_empty() && !teams.contains(&w.team) {
        let hint = teams.hint(&w.team).map(str::to_owned);
        return Err(Problem::UnknownTeam(w.team.clone(), hint));
    }
    for (field, value) in [
        (Field::GivenName, &w.given_name),
        (Field::FamilyName, &w.family_name),
    ] {
        if value.chars().count() > MAX_NAME {
            return Err(Problem::TooLong(field));
        }
    }
    Ok(())
}

/// The fate of one row: `existing` is the platform's user with this email, if any;
/// `duplicate_of` the other rows with the same email.
pub(crate) fn fate(
    w: &Wanted,
    existing: Option<&ScimUser>,
    teams: &TeamNames<'_>,
    duplicate_of: Option<&[usize]>,
) -> Fate {
    if let Err(reason) = check_values(w, teams) {
        return Fate::Error(reason);
    }
    if let Some(rows) = duplicate_of {
        return Fate::Error(Problem::Duplicate(rows.to_vec()));
    }
    match existing {
        None => match missing_for_create(w) {
            Some(missing) => Fate::Error(Problem::MissingForCreate(missing)),
            None => Fate::Create,
        },
        Some(user) => {
            let changes = changes(w, user);
            if changes.is_empty() {
                Fate::Unchanged
            } else {
                Fate::Update(user.id.clone(), changes)
            }
        }
    }
}

fn missing_for_create(w: &Wanted) -> Option<Field> {
    [
        (Field::GivenName, &w.given_name),
        (Field::FamilyName, &w.family_name),
        (Field::Role, &w.role),
        (Field::Team, &w.team),
    ]
    .into_iter()
    .find(|(_, v)| v.is_empty())
    .map(|(label, _)| label)
}

/// What differs between the row and the user; a blank cell keeps the user's value.
pub(crate) fn changes(w: &Wanted, user: &ScimUser) -> Vec<Change> {
    let mut out = Vec::new();
    let mut differs = |field, from: &str, to: &str| {
        if !to.is_empty() && from != to {
            out.push(Change {
                field,
                from: from.to_owned(),
                to: to.to_owned(),
            });
        }
    };
    differs(Attribute::GivenName, &user.name.given_name, &w.given_name);
    differs(
        Attribute::FamilyName,
        &user.name.family_name,
        &w.family_name,
    );
    differs(Attribute::Role, user.user_type.as_str(), &w.role);
    differs(Attribute::Team, &user.division, &w.team);
    if !user.active {
        out.push(Change {
            field: Attribute::Status,
            from: "deactivated".into(),
            to: "active".into(),
        });
    }
    out
}

/// The POST body of a row whose fate is [`Fate::Create`]: the form's, since a row holds
/// what the form does (already trimmed, so the form's trimming changes nothing).
pub(crate) fn create_body(w: &Wanted) -> CreateUser {
    w.create_body()
}

/// The PUT body of a row whose fate is [`Fate::Update`]: only what the file sets.
pub(crate) fn update_body(w: &Wanted, user: &ScimUser) -> ReplaceUser {
    let keep = |wanted: &str, current: &str| {
        if wanted.is_empty() {
            current.to_owned()
        } else {
            wanted.to_owned()
        }
    };
    ReplaceUser {
        active: Some(true),
        user_type: (!w.role.is_empty()).then(|| Role::parse(&w.role)),
        division: (!w.team.is_empty()).then(|| w.team.clone()),
        name: Some(ScimName {
            given_name: keep(&w.given_name, &user.name.given_name),
            family_name: keep(&w.family_name, &user.name.family_name),
        }),
        ..ReplaceUser::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pages::users::test_users::ada;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn teams() -> Vec<String> {
        ["Sales", "Executive Office", "Engineering"]
            .map(String::from)
            .to_vec()
    }

    fn wanted(email: &str, role: &str, team: &str) -> Wanted {
        Wanted {
            email: email.into(),
            given_name: "Ada".into(),
            family_name: "Lovelace".into(),
            role: role.into(),
            team: team.into(),
        }
    }

    #[wasm_bindgen_test]
    fn each_fate_and_its_reason() {
        let names = teams();
        let t = TeamNames::new(&names);
        let w = wanted("ada@example.com", "manager", "Sales");
        assert_eq!(fate(&w, None, &t, None), Fate::Create);
        assert_eq!(
            fate(&w, Some(&ada("manager", "Sales", true)), &t, None),
            Fate::Unchanged
        );
        let Fate::Update(id, changes) = fate(&w, Some(&ada("sender", "Sales", true)), &t, None)
        else {
            panic!("an update");
        };
        assert_eq!(id, "7");
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].field, Attribute::Role);
        let reactivated = fate(&w, Some(&ada("manager", "Sales", false)), &t, None);
        assert!(reactivated
            .detail()
            .contains("Status: deactivated → active"));
        let err = |w: &Wanted| match fate(w, None, &t, None) {
            Fate::Error(problem) => problem.text(),
            other => panic!("{other:?}"),
        };
        assert!(err(&wanted("not-an-email", "manager", "Sales")).starts_with("Invalid email"));
        assert!(err(&wanted("", "manager", "Sales")).starts_with("Missing email"));
        assert!(err(&wanted("a@example.com", "owner", "Sales")).starts_with("Unknown role"));
        assert!(err(&wanted("a@example.com", "manager", "sales team"))
            .ends_with("Did you mean \u{201c}Sales\u{201d}?"));
        assert!(err(&wanted("a@example.com", "manager", "")).contains("Missing team"));
        let dup = fate(&w, None, &t, Some(&[9]));
        assert_eq!(dup.kind(), FateKind::Error);
        assert!(dup.detail().contains("also on row 9"));
    }

    #[wasm_bindgen_test]
    fn a_blank_cell_keeps_the_users_value() {
        let mut w = wanted("ADA@example.com", "", "");
        w.given_name.clear();
        let u = ada("admin", "Sales", true);
        assert_eq!(
            fate(&w, Some(&u), &TeamNames::new(&teams()), None),
            Fate::Unchanged
        );
        w.family_name = "Byron".into();
        let body = update_body(&w, &u);
        let name = body.name.unwrap();
        assert_eq!(
            (name.given_name.as_str(), name.family_name.as_str()),
            ("Ada", "Byron")
        );
        assert_eq!(body.user_type, None);
        assert_eq!(w.key(), "ada@example.com");
    }

    #[wasm_bindgen_test]
    fn suggests_the_closest_team_only_when_close() {
        let t = teams();
        assert_eq!(closest_team("Sale", &t), Some("Sales"));
        assert_eq!(
            closest_team("executive office", &t),
            Some("Executive Office")
        );
        assert_eq!(closest_team("Warehouse", &t), None);
        assert_eq!(closest_team("Sales team", &t), Some("Sales"));
    }

    /// A crafted file: every row a different long unknown team name. Each distinct name is
    /// looked up once, and past the first hundred none is compared with the teams at all.
    #[wasm_bindgen_test]
    fn hints_are_worked_out_once_per_name_and_at_most_a_hundred_times() {
        let names = teams();
        let t = TeamNames::new(&names);
        let near = "Saless".to_owned();
        let reason = |team: &str| match fate(&wanted("a@example.com", "", team), None, &t, None) {
            Fate::Error(problem) => problem.text(),
            other => panic!("{other:?}"),
        };
        assert!(reason(&near).ends_with("Did you mean \u{201c}Sales\u{201d}?"));
        for n in 0..20_000 {
            let long = format!("{n:05}{}", "x".repeat(195));
            assert!(reason(&long).ends_with("is not a team group name."));
        }
        assert_eq!(t.hints.borrow().len(), 20_001);
        // The hundred-and-first distinct name gets no hint, even a close one.
        assert!(reason("Engineerin").ends_with("is not a team group name."));
        assert!(
            reason(&near).ends_with("Did you mean \u{201c}Sales\u{201d}?"),
            "remembered"
        );
    }
}
