//! Bulk changes to the selected users: one SCIM PUT per user, a few at a time, with progress
//! and a result per user. One failure never stops the others; the users that failed stay
//! selected so the same change can be tried again on just them. The selection can be every
//! user the list matches, across its pages: they are read from the platform when the run starts.
//! These are the rules and words of a bulk change; the run itself is a job
//! ([`super::bulk_job`]) that goes on when the admin leaves the screen.

use std::collections::BTreeMap;

use gifting_api::csv::{push_row, BOM};
use gifting_api::scim::{ReplaceUser, ScimUser};
use gifting_api::Role;
use leptos::prelude::*;

use super::present::display_name;
use crate::components::format;
use crate::i18n::{msg, t, M};

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

/// "Every user the list matches", chosen across its pages: the search (`None`: everyone) and
/// how many the platform said match when it was chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AllMatching {
    pub(crate) email: Option<String>,
    pub(crate) total: u64,
}

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
            "role" if role.is_empty() => Err(t(M::UsersChooseNewRole).to_owned()),
            "role" => Role::parse_known(role)
                .map(BulkAction::SetRole)
                .ok_or_else(|| msg::users_not_a_role(&format!("{role:?}"))),
            "team" if team.is_empty() => Err(t(M::UsersChooseNewTeam).to_owned()),
            "team" => Ok(BulkAction::MoveToTeam(team.to_owned())),
            "activate" => Ok(BulkAction::Activate),
            "deactivate" => Ok(BulkAction::Deactivate),
            _ => Err(t(M::UsersChooseChange).to_owned()),
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
        let n = n as u64;
        match self {
            BulkAction::SetRole(role) => msg::users_make_role(n, role.as_str()),
            BulkAction::MoveToTeam(team) => msg::users_move_to_team(n, team),
            BulkAction::Activate => msg::users_activate_count(n),
            BulkAction::Deactivate => msg::users_deactivate_count(n),
        }
    }
}

/// "1 user", "12 users" (the tests' way to say a count of users).
#[cfg(test)]
pub(crate) fn users_word(n: usize) -> String {
    msg::users_count(n as u64)
}

/// The platform's answer for one user, in a few words: "manager · Sales · active".
pub(crate) fn answer_summary(user: &ScimUser) -> String {
    let role = user.user_type.to_string();
    let state = if user.active { "yes" } else { "no" };
    if user.division.is_empty() {
        msg::users_answer_no_team(&role, state)
    } else {
        msg::users_answer(&role, &user.division, state)
    }
}

/// How one user's change ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Written; the platform's answer, summarised.
    Changed(String),
    /// Not written: the error in words.
    Failed(String),
    /// Not written on purpose: why (someone changed the user since, or the signed-in admin
    /// chose to keep their own account).
    LeftAlone(String),
}

impl Outcome {
    pub(crate) fn changed(&self) -> bool {
        matches!(self, Outcome::Changed(_))
    }

    pub(crate) fn failed(&self) -> bool {
        matches!(self, Outcome::Failed(_))
    }

    /// The result line's badge and the results file's word.
    pub(crate) fn word(&self) -> &'static str {
        match self {
            Outcome::Changed(_) => "changed",
            Outcome::Failed(_) => "failed",
            Outcome::LeftAlone(_) => "left alone",
        }
    }

    pub(crate) fn detail(&self) -> String {
        match self {
            Outcome::Changed(answer) => msg::users_outcome_now(answer),
            Outcome::Failed(message) | Outcome::LeftAlone(message) => message.clone(),
        }
    }
}

/// The outcome for one user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BulkResult {
    /// Position in the run, so results read in a stable order whatever finished first.
    pub(crate) order: usize,
    pub(crate) id: String,
    pub(crate) who: Picked,
    pub(crate) outcome: Outcome,
    /// The user as the platform had them just before the run, and what was written: an undo
    /// puts back what changed.
    pub(crate) before: Option<ScimUser>,
    pub(crate) wrote: Option<ReplaceUser>,
}

/// "Changed 11 of 12 users. 1 failed and stays selected.", of the `asked` users of the run
/// (those without a result were not sent: the run was cancelled).
pub(crate) fn results_summary(results: &[BulkResult], asked: usize) -> String {
    let failed = results.iter().filter(|r| r.outcome.failed()).count();
    let left = results
        .iter()
        .filter(|r| matches!(r.outcome, Outcome::LeftAlone(_)))
        .count();
    let done = results.len() - failed - left;
    let mut text =
        msg::users_summary_changed(&format::count(done as u64), asked.max(results.len()) as u64);
    let mut add = |sentence: String| {
        text.push(' ');
        text.push_str(&sentence);
    };
    if failed > 0 {
        add(msg::users_summary_failed(failed as u64));
    }
    if left > 0 {
        add(msg::users_summary_left(left as u64));
    }
    let not_sent = asked.saturating_sub(results.len());
    if not_sent > 0 {
        add(msg::users_summary_not_sent(not_sent as u64));
    }
    text
}

/// Results listed a page at a time: a run over every matching user answers once per user,
/// thousands of times, and the list must not grow by a line each time.
pub(crate) const RESULTS_PAGE: usize = 50;

/// One page of a run's results, as the list shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ResultsPage {
    pub(crate) shown: Vec<BulkResult>,
    /// Results of the kind listed (all, or the failed ones), on every page.
    pub(crate) total: usize,
    /// The page shown (from 0; a page past the end shows the last) and how many there are.
    pub(crate) page: usize,
    pub(crate) pages: usize,
}

impl ResultsPage {
    /// "Results 51–100 of 5,000", or "Failed 1–3 of 3".
    pub(crate) fn range_text(&self, failed_only: bool) -> String {
        let first = self.page * RESULTS_PAGE;
        let start = format::count((first + 1).min(self.total) as u64);
        let end = format::count((first + self.shown.len()) as u64);
        let total = format::count(self.total as u64);
        if failed_only {
            msg::users_failed_range(&start, &end, &total)
        } else {
            msg::users_results_range(&start, &end, &total)
        }
    }
}

/// The `page` of `results` (in run order) to list: all of them, or only the failed ones.
pub(crate) fn results_page(results: &[BulkResult], failed_only: bool, page: usize) -> ResultsPage {
    let listed = |r: &&BulkResult| !failed_only || r.outcome.failed();
    let total = results.iter().filter(listed).count();
    let pages = total.div_ceil(RESULTS_PAGE).max(1);
    let page = page.min(pages - 1);
    let shown = results
        .iter()
        .filter(listed)
        .skip(page * RESULTS_PAGE)
        .take(RESULTS_PAGE)
        .cloned()
        .collect();
    ResultsPage {
        shown,
        total,
        page,
        pages,
    }
}

/// The run's results as a file (the console's CSV rules, [`gifting_api::csv`]): who,
/// whether they changed, the user before and after, and what the platform said; the users not
/// reached say so. The headers and the outcome column's words stay English for machines; the
/// messages are in the language shown.
pub(crate) fn results_csv(asked: &[(String, Picked)], results: &[BulkResult]) -> String {
    let mut out = String::from(BOM);
    push_row(
        &mut out,
        [
            "id", "name", "email", "outcome", "before", "after", "message",
        ],
    );
    let mut answered = results.iter().peekable();
    for (order, (id, who)) in asked.iter().enumerate() {
        let row = answered.next_if(|r| r.order == order);
        let before = row
            .and_then(|r| r.before.as_ref())
            .map(answer_summary)
            .unwrap_or_default();
        let (outcome, after, message) = match row.map(|r| &r.outcome) {
            Some(Outcome::Changed(answer)) => ("changed", answer.clone(), String::new()),
            Some(other) => (other.word(), before.clone(), other.detail()),
            None => (
                "not changed",
                before.clone(),
                t(M::UsersCancelledBeforeTurn).to_owned(),
            ),
        };
        push_row(
            &mut out,
            [
                id.as_str(),
                &who.name,
                &who.email,
                outcome,
                &before,
                &after,
                &message,
            ],
        );
    }
    out
}

/// Puts `result` among `results` (kept in run order) where it belongs: answers come in any
/// order, and a sort after each of thousands would redo what is already sorted.
pub(crate) fn insert_result(results: &mut Vec<BulkResult>, result: BulkResult) {
    let at = results.partition_point(|r| r.order < result.order);
    results.insert(at, result);
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::pages::users::test_users::ada;

    fn result(order: usize, ok: bool) -> BulkResult {
        BulkResult {
            order,
            id: order.to_string(),
            who: Picked {
                name: format!("User {order}"),
                email: format!("u{order}@example.com"),
            },
            outcome: if ok {
                Outcome::Changed("manager".into())
            } else {
                Outcome::Failed("refused".into())
            },
            before: None,
            wrote: None,
        }
    }

    #[wasm_bindgen_test]
    fn results_are_listed_a_page_at_a_time_in_run_order() {
        // 120 answers arriving out of order; every seventh failed.
        let mut results = Vec::new();
        for n in (0..120).rev() {
            insert_result(&mut results, result(n, n % 7 != 0));
        }
        assert!(results.windows(2).all(|w| w[0].order < w[1].order));

        let first = results_page(&results, false, 0);
        assert_eq!((first.total, first.page, first.pages), (120, 0, 3));
        assert_eq!(first.shown.len(), RESULTS_PAGE);
        assert_eq!(first.shown[0].order, 0);
        assert_eq!(first.range_text(false), "Results 1\u{2013}50 of 120");

        // Past the end: the last page, which is short.
        let last = results_page(&results, false, 9);
        assert_eq!(last.page, 2);
        assert_eq!(last.shown.len(), 20);
        assert_eq!(last.shown[0].order, 100);
        assert_eq!(last.range_text(false), "Results 101\u{2013}120 of 120");

        let failed = results_page(&results, true, 0);
        assert_eq!(failed.total, 18, "0, 7, …, 119");
        assert_eq!(failed.pages, 1);
        assert!(failed.shown.iter().all(|r| r.outcome.failed()));
        assert_eq!(failed.range_text(true), "Failed 1\u{2013}18 of 18");

        let none = results_page(&[], true, 3);
        assert_eq!((none.total, none.page, none.pages), (0, 0, 1));
        assert_eq!(none.range_text(true), "Failed 0\u{2013}0 of 0");
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
            answer_summary(&ada("manager", "Sales", true)),
            "manager · Sales · active"
        );
        assert_eq!(
            answer_summary(&ada("sender", "", false)),
            "sender · no team · inactive"
        );
        assert_eq!(
            results_summary(&[result(0, true), result(1, false), result(2, true)], 3),
            "Changed 2 of 3 users. 1 failed and stays selected for another try."
        );
        assert_eq!(
            results_summary(&[result(0, true)], 1),
            "Changed 1 of 1 user."
        );
        assert_eq!(
            results_summary(&[result(0, true)], 4),
            "Changed 1 of 4 users. Cancelled: 3 users not changed, still selected."
        );
    }

    #[wasm_bindgen_test]
    fn the_results_file_lists_every_user_asked_and_is_safe_in_a_spreadsheet() {
        let asked: Vec<(String, Picked)> = (0..3)
            .map(|i| {
                let who = Picked {
                    name: if i == 1 {
                        "=HYPERLINK(\"x\")".into()
                    } else {
                        format!("User {i}")
                    },
                    email: format!("u{i}@example.com"),
                };
                (i.to_string(), who)
            })
            .collect();
        // User 0 changed, user 1 failed, user 2 never reached (cancelled).
        let results = vec![result(0, true), result(1, false)];
        let text = results_csv(&asked, &results);
        let lines: Vec<&str> = text.trim_start_matches(BOM).split("\r\n").collect();
        assert_eq!(lines[0], "id,name,email,outcome,before,after,message");
        assert_eq!(lines[1], "0,User 0,u0@example.com,changed,,manager,");
        assert!(
            lines[2].starts_with("1,\"'=HYPERLINK"),
            "a formula is neutralised: {}",
            lines[2]
        );
        assert!(lines[2].ends_with(",failed,,,refused"), "{}", lines[2]);
        assert_eq!(
            lines[3],
            "2,User 2,u2@example.com,not changed,,,Cancelled before its turn."
        );
    }
}
