//! Bulk changes to the selected users: one SCIM PUT per user, a few at a time, with progress
//! and a result per user. One failure never stops the others; the users that failed stay
//! selected so the same change can be tried again on just them.

use std::collections::BTreeMap;

use futures::StreamExt;
use gifting_api::paths::endpoint;
use gifting_api::scim::{ReplaceUser, ScimUser};
use gifting_api::Role;
use leptos::prelude::*;

use super::present::display_name;
use crate::api::{ApiClient, ApiError};

/// PUTs in flight at once: quick for a page of users, gentle on the platform's rate limit.
pub(crate) const MAX_IN_FLIGHT: usize = 4;

/// A selected user, remembered with what the results need to name them even after they
/// leave the page shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Picked {
    pub(crate) name: String,
    pub(crate) email: String,
}

impl Picked {
    pub(crate) fn of(user: &ScimUser) -> Self {
        Picked {
            name: display_name(user),
            email: user.user_name.clone(),
        }
    }
}

/// Selected users by SCIM id; kept across pages of the list.
pub(crate) type Selection = RwSignal<BTreeMap<String, Picked>>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum BulkAction {
    SetRole(Role),
    MoveToTeam(String),
    Activate,
    Deactivate,
}

impl BulkAction {
    /// Reads the bulk form: the change chosen and its value.
    pub(crate) fn from_form(kind: &str, role: &str, team: &str) -> Result<BulkAction, String> {
        match kind {
            "role" if role.is_empty() => Err("Choose the new role.".into()),
            "role" => gifting_api::validate::role(role).map(BulkAction::SetRole),
            "team" if team.is_empty() => Err("Choose the team to move them to.".into()),
            "team" => Ok(BulkAction::MoveToTeam(team.to_owned())),
            "activate" => Ok(BulkAction::Activate),
            "deactivate" => Ok(BulkAction::Deactivate),
            _ => Err("Choose a change to make.".into()),
        }
    }

    /// The PUT body: only the attribute that changes, so nothing else is overwritten.
    pub(crate) fn body(&self) -> ReplaceUser {
        let mut body = ReplaceUser::default();
        match self {
            BulkAction::SetRole(role) => body.user_type = Some(role.clone()),
            BulkAction::MoveToTeam(team) => body.division = Some(team.clone()),
            BulkAction::Activate => body.active = Some(true),
            BulkAction::Deactivate => body.active = Some(false),
        }
        body
    }

    /// What the apply button says for `n` users.
    pub(crate) fn describe(&self, n: usize) -> String {
        let users = users_word(n);
        match self {
            BulkAction::SetRole(role) => format!("Make {users} {role}"),
            BulkAction::MoveToTeam(team) => format!("Move {users} to {team}"),
            BulkAction::Activate => format!("Activate {users}"),
            BulkAction::Deactivate => format!("Deactivate {users}"),
        }
    }
}

/// "1 user", "12 users".
pub(crate) fn users_word(n: usize) -> String {
    if n == 1 {
        "1 user".into()
    } else {
        format!("{n} users")
    }
}

/// The platform's answer for one user, in a few words: "manager · Sales · active".
pub(crate) fn answer_summary(user: &ScimUser) -> String {
    let team = if user.division.is_empty() {
        "no team"
    } else {
        &user.division
    };
    let state = if user.active { "active" } else { "inactive" };
    format!("{} · {team} · {state}", user.user_type)
}

/// The outcome for one user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BulkResult {
    /// Position in the run, so results read in a stable order whatever finished first.
    pub(crate) order: usize,
    pub(crate) id: String,
    pub(crate) who: Picked,
    /// The platform's answer (summarised) or the error in words.
    pub(crate) outcome: Result<String, String>,
}

/// "Changed 11 of 12 users. 1 failed and stays selected."
pub(crate) fn results_summary(results: &[BulkResult]) -> String {
    let failed = results.iter().filter(|r| r.outcome.is_err()).count();
    let done = results.len() - failed;
    let mut text = format!("Changed {done} of {}.", users_word(results.len()));
    if failed > 0 {
        let stay = if failed == 1 { "stays" } else { "stay" };
        text.push_str(&format!(
            " {} failed and {stay} selected for another try.",
            failed
        ));
    }
    text
}

/// Why one user's change failed, in words that fit a result line.
fn failure_text(error: &ApiError) -> String {
    match error {
        ApiError::NotFound { .. } => {
            "This user no longer exists on the platform (it may have been removed).".into()
        }
        other => other.user_message(),
    }
}

/// Sends `action` to every target, at most [`MAX_IN_FLIGHT`] at a time, reporting each
/// outcome through `report` as it comes.
pub(crate) async fn run_bulk(
    api: ApiClient,
    targets: Vec<(String, Picked)>,
    action: BulkAction,
    report: impl Fn(BulkResult, Option<ScimUser>),
) {
    let body = action.body();
    let report = &report;
    let body = &body;
    futures::stream::iter(targets.into_iter().enumerate())
        .for_each_concurrent(MAX_IN_FLIGHT, |(order, (id, who))| async move {
            let answer = api
                .put_json::<_, ScimUser>(endpoint::REPLACE_SCIM_USER.call(&[&id]), body)
                .await;
            let (outcome, user) = match answer {
                Ok(response) => (Ok(answer_summary(&response.body)), Some(response.body)),
                Err(error) => (Err(failure_text(&error)), None),
            };
            report(
                BulkResult {
                    order,
                    id,
                    who,
                    outcome,
                },
                user,
            );
        })
        .await;
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn user(role: &str, team: &str, active: bool) -> ScimUser {
        serde_json::from_value(serde_json::json!({
            "id": "7", "userName": "a@example.com", "active": active,
            "name": {"givenName": "A", "familyName": "B"},
            "userType": role, "division": team
        }))
        .unwrap()
    }

    #[wasm_bindgen_test]
    fn each_action_sends_only_its_attribute() {
        let role = BulkAction::SetRole(Role::Manager).body();
        assert_eq!(
            serde_json::to_value(&role).unwrap(),
            serde_json::json!({"userType": "manager"})
        );
        let team = BulkAction::MoveToTeam("Sales".into()).body();
        assert_eq!(
            serde_json::to_value(&team).unwrap(),
            serde_json::json!({"division": "Sales"})
        );
        assert_eq!(
            serde_json::to_value(BulkAction::Deactivate.body()).unwrap(),
            serde_json::json!({"active": false})
        );
        assert_eq!(
            serde_json::to_value(BulkAction::Activate.body()).unwrap(),
            serde_json::json!({"active": true})
        );
    }

    #[wasm_bindgen_test]
    fn the_form_must_name_a_change_and_its_value() {
        assert!(BulkAction::from_form("", "", "").is_err());
        assert!(BulkAction::from_form("role", "", "").is_err());
        assert!(BulkAction::from_form("role", "owner", "").is_err());
        assert!(BulkAction::from_form("team", "", "").is_err());
        assert_eq!(
            BulkAction::from_form("team", "", "Sales"),
            Ok(BulkAction::MoveToTeam("Sales".into()))
        );
        assert_eq!(
            BulkAction::from_form("role", "admin", ""),
            Ok(BulkAction::SetRole(Role::Admin))
        );
        assert_eq!(
            BulkAction::MoveToTeam("Sales".into()).describe(3),
            "Move 3 users to Sales"
        );
        assert_eq!(BulkAction::Deactivate.describe(1), "Deactivate 1 user");
    }

    #[wasm_bindgen_test]
    fn summaries_count_failures() {
        assert_eq!(
            answer_summary(&user("manager", "Sales", true)),
            "manager · Sales · active"
        );
        assert_eq!(
            answer_summary(&user("sender", "", false)),
            "sender · no team · inactive"
        );
        let who = Picked {
            name: "A".into(),
            email: "a@example.com".into(),
        };
        let result = |order, ok: bool| BulkResult {
            order,
            id: order.to_string(),
            who: who.clone(),
            outcome: if ok { Ok("x".into()) } else { Err("y".into()) },
        };
        assert_eq!(
            results_summary(&[result(0, true), result(1, false), result(2, true)]),
            "Changed 2 of 3 users. 1 failed and stays selected for another try."
        );
        assert_eq!(results_summary(&[result(0, true)]), "Changed 1 of 1 user.");
    }
}
