//! Bulk changes to the selected users: one SCIM PUT per user, a few at a time, with progress
//! and a result per user. One failure never stops the others; the users that failed stay
//! selected so the same change can be tried again on just them.

use std::collections::BTreeMap;

use futures::StreamExt;
use gifting_api::paths;
use gifting_api::rest::TeamGroup;
use gifting_api::scim::{ReplaceUser, ScimUser};
use gifting_api::Role;
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::present::display_name;
use crate::api::{use_api, ApiClient, ApiError};
use crate::components::confirm_dialog::ConfirmDialog;
use crate::components::{Badge, Tone};
use crate::pages::teams::groups::sorted_names;

/// PUTs in flight at once: quick for a page of users, gentle on the platform's rate limit.
pub const MAX_IN_FLIGHT: usize = 4;

/// A selected user, remembered with what the results need to name them even after they
/// leave the page shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picked {
    pub name: String,
    pub email: String,
}

impl Picked {
    pub fn of(user: &ScimUser) -> Self {
        Picked {
            name: display_name(user),
            email: user.user_name.clone(),
        }
    }
}

/// Selected users by SCIM id; kept across pages of the list.
pub type Selection = RwSignal<BTreeMap<String, Picked>>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BulkAction {
    SetRole(Role),
    MoveToTeam(String),
    Activate,
    Deactivate,
}

impl BulkAction {
    /// Reads the bulk form: the change chosen and its value.
    pub fn from_form(kind: &str, role: &str, team: &str) -> Result<BulkAction, String> {
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
    pub fn body(&self) -> ReplaceUser {
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
    pub fn describe(&self, n: usize) -> String {
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
pub fn users_word(n: usize) -> String {
    if n == 1 {
        "1 user".into()
    } else {
        format!("{n} users")
    }
}

/// The platform's answer for one user, in a few words: "manager · Sales · active".
pub fn answer_summary(user: &ScimUser) -> String {
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
pub struct BulkResult {
    /// Position in the run, so results read in a stable order whatever finished first.
    pub order: usize,
    pub id: String,
    pub who: Picked,
    /// The platform's answer (summarised) or the error in words.
    pub outcome: Result<String, String>,
}

/// "Changed 11 of 12 users. 1 failed and stays selected."
pub fn results_summary(results: &[BulkResult]) -> String {
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
pub async fn run_bulk(
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
                .put_json::<_, ScimUser>(&paths::scim_user(&id), body)
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

#[component]
pub fn BulkPanel(
    selection: Selection,
    groups: LocalResource<Result<Vec<TeamGroup>, ApiError>>,
    /// Called when a run ends, to reload the list with the platform's state.
    on_done: Callback<()>,
) -> impl IntoView {
    let api = use_api();
    let kind = RwSignal::new(String::new());
    let role = RwSignal::new(String::new());
    let team = RwSignal::new(String::new());
    let form_error = RwSignal::new(None::<String>);
    let running = RwSignal::new(false);
    let progress = RwSignal::new((0usize, 0usize));
    let results = RwSignal::new(Vec::<BulkResult>::new());
    let confirm_open = RwSignal::new(false);

    let count = move || selection.with(|s| s.len());
    let visible = move || count() > 0 || running.get() || results.with(|r| !r.is_empty());
    let chosen = move || BulkAction::from_form(&kind.get(), &role.get(), &team.get());
    let team_names = move || {
        groups
            .get()
            .and_then(|r| r.ok())
            .map(|g| sorted_names(&g))
            .unwrap_or_default()
    };

    let start = move || {
        let Ok(action) = chosen() else {
            return;
        };
        let targets: Vec<(String, Picked)> = selection.get_untracked().into_iter().collect();
        if targets.is_empty() || running.get_untracked() {
            return;
        }
        running.set(true);
        results.set(Vec::new());
        progress.set((0, targets.len()));
        spawn_local(async move {
            run_bulk(api, targets, action, move |result, _answer| {
                if result.outcome.is_ok() {
                    let id = result.id.clone();
                    selection.try_update(|s| s.remove(&id));
                }
                results.try_update(|r| {
                    r.push(result);
                    r.sort_by_key(|x| x.order);
                });
                progress.try_update(|p| p.0 += 1);
            })
            .await;
            running.try_set(false);
            on_done.run(());
        });
    };

    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if running.get_untracked() {
            return;
        }
        match chosen() {
            Err(message) => form_error.set(Some(message)),
            Ok(BulkAction::Deactivate) => {
                form_error.set(None);
                confirm_open.set(true);
            }
            Ok(_) => {
                form_error.set(None);
                start();
            }
        }
    };

    let button_text = move || match chosen() {
        Ok(action) => action.describe(count()),
        Err(_) => format!("Apply to {}", users_word(count())),
    };

    view! {
        <Show when=visible>
            <section class="bulk" aria-labelledby="bulk-heading" data-testid="bulk-panel">
                <h2 id="bulk-heading">"Change the selected users"</h2>
                <p class="bulk__count">
                    <span data-testid="bulk-count">
                        {move || format!("{} selected", users_word(count()))}
                    </span>
                    " "
                    <button
                        type="button"
                        class="button button--small"
                        disabled=move || running.get() || count() == 0
                        on:click=move |_| selection.set(BTreeMap::new())
                    >
                        "Clear selection"
                    </button>
                </p>
                <form class="bulk__form" novalidate on:submit=on_submit>
                    <div class="field">
                        <label for="bulk-action">"Change"</label>
                        <select
                            id="bulk-action"
                            on:change=move |ev| {
                                kind.set(event_target_value(&ev));
                                form_error.set(None);
                            }
                        >
                            <option value="" selected=move || kind.get().is_empty()>
                                "Choose a change"
                            </option>
                            <option value="role">"Set the role"</option>
                            <option value="team">"Move to a team"</option>
                            <option value="activate">"Activate"</option>
                            <option value="deactivate">"Deactivate"</option>
                        </select>
                    </div>
                    <Show when=move || kind.get() == "role">
                        <div class="field">
                            <label for="bulk-role">"New role"</label>
                            <select id="bulk-role" on:change=move |ev| role.set(event_target_value(&ev))>
                                <option value="" selected=move || role.get().is_empty()>
                                    "Choose a role"
                                </option>
                                {Role::KNOWN
                                    .iter()
                                    .map(|r| {
                                        let r = r.as_str();
                                        view! {
                                            <option value=r selected=move || role.get() == r>
                                                {r}
                                            </option>
                                        }
                                    })
                                    .collect_view()}
                            </select>
                        </div>
                    </Show>
                    <Show when=move || kind.get() == "team">
                        <div class="field">
                            <label for="bulk-team">"New team"</label>
                            <select id="bulk-team" on:change=move |ev| team.set(event_target_value(&ev))>
                                <option value="" selected=move || team.get().is_empty()>
                                    {move || {
                                        if groups.get().is_none() {
                                            "Loading teams…"
                                        } else {
                                            "Choose a team"
                                        }
                                    }}
                                </option>
                                {move || {
                                    team_names()
                                        .into_iter()
                                        .map(|name| {
                                            let mine = name.clone();
                                            view! {
                                                <option value=name.clone() selected=move || team.get() == mine>
                                                    {name.clone()}
                                                </option>
                                            }
                                        })
                                        .collect_view()
                                }}
                            </select>
                        </div>
                    </Show>
                    <button
                        type="submit"
                        class="button button--primary"
                        disabled=move || running.get() || count() == 0
                    >
                        {button_text}
                    </button>
                    {move || {
                        form_error
                            .get()
                            .map(|message| view! { <p class="field__error" role="alert">{message}</p> })
                    }}
                </form>
                <BulkProgress running progress />
                <BulkResults running results />
                <ConfirmDialog
                    open=confirm_open
                    title=Signal::derive(move || format!("Deactivate {}?", users_word(count())))
                    confirm_label=Signal::derive(move || format!("Deactivate {}", users_word(count())))
                    on_confirm=Callback::new(move |()| start())
                >
                    <p>
                        "Deactivated users can no longer sign in to the platform or send gifts, and "
                        "they leave the active users directory. Their accounts and history are kept, "
                        "and they can be activated again at any time."
                    </p>
                </ConfirmDialog>
            </section>
        </Show>
    }
}

#[component]
fn BulkProgress(running: RwSignal<bool>, progress: RwSignal<(usize, usize)>) -> impl IntoView {
    move || {
        let (done, total) = progress.get();
        (running.get() && total > 0).then(|| {
            view! {
                <div class="bulk__progress" role="status" data-testid="bulk-progress">
                    <progress max=total.to_string() value=done.to_string()></progress>
                    <span>{format!("{done} of {total}")}</span>
                </div>
            }
        })
    }
}

#[component]
fn BulkResults(running: RwSignal<bool>, results: RwSignal<Vec<BulkResult>>) -> impl IntoView {
    // The summary waits for the last answer; until then the progress speaks.
    let summary = move || {
        let done = !running.get();
        results.with(|r| (done && !r.is_empty()).then(|| results_summary(r)))
    };
    view! {
        <div class="bulk__results" aria-live="polite">
            {move || summary().map(|text| view! { <p class="bulk__summary" data-testid="bulk-summary">{text}</p> })}
            <ul class="bulk-results">
                <For
                    each=move || results.get()
                    key=|r| (r.order, r.id.clone(), r.outcome.is_ok())
                    children=|r| {
                        let ok = r.outcome.is_ok();
                        let detail = match &r.outcome {
                            Ok(answer) => format!("now {answer}"),
                            Err(message) => message.clone(),
                        };
                        view! {
                            <li
                                class="bulk-result"
                                class:bulk-result--failed=!ok
                                data-user-id=r.id.clone()
                                data-outcome=if ok { "ok" } else { "failed" }
                            >
                                {if ok {
                                    view! { <Badge text="Changed" tone=Tone::Success /> }
                                } else {
                                    view! { <Badge text="Failed" tone=Tone::Danger /> }
                                }}
                                " "
                                <strong>{r.who.name.clone()}</strong>
                                {format!(" ({}): ", r.who.email)}
                                {detail}
                            </li>
                        }
                    }
                />
            </ul>
        </div>
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn user(role: &str, team: &str, active: bool) -> ScimUser {
        serde_json::from_value(serde_json::json!({
            "id": "7", "userName": "a@example.com", "active": active,
            "name": {"givenName": "A", "familyName": "B"},
            "userType": role, "division": team
        }))
        .unwrap()
    }

    #[test]
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

    #[test]
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

    #[test]
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
