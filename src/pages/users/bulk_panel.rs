//! The bulk panel above the users list: choose a change, apply it to the selected users, and
//! follow its progress and a result per user. The rules live in [`super::bulk`].

use std::collections::BTreeMap;

use gifting_api::Role;
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::bulk::{
    results_summary, run_bulk, users_word, BulkAction, BulkResult, Picked, Selection,
};
use crate::api::{use_api, ApiClient, TeamGroups};
use crate::components::options::{options, same_label};
use crate::components::{use_notifications, Badge, ConfirmDialog, Notifications, Tone};

/// The panel's state and its actions, apart from the view.
#[derive(Clone, Copy)]
struct BulkRun {
    api: ApiClient,
    selection: Selection,
    /// Called when a run ends, to reload the list with the platform's state.
    on_done: Callback<()>,
    notifications: Notifications,
    /// The change chosen ("role", "team", "activate", "deactivate"), and its value.
    kind: RwSignal<String>,
    role: RwSignal<String>,
    team: RwSignal<String>,
    form_error: RwSignal<Option<String>>,
    running: RwSignal<bool>,
    /// (answered, asked) in this run.
    progress: RwSignal<(usize, usize)>,
    results: RwSignal<Vec<BulkResult>>,
    confirm_open: RwSignal<bool>,
}

impl BulkRun {
    fn new(selection: Selection, on_done: Callback<()>) -> Self {
        Self {
            api: use_api(),
            selection,
            on_done,
            notifications: use_notifications(),
            kind: RwSignal::new(String::new()),
            role: RwSignal::new(String::new()),
            team: RwSignal::new(String::new()),
            form_error: RwSignal::new(None),
            running: RwSignal::new(false),
            progress: RwSignal::new((0, 0)),
            results: RwSignal::new(Vec::new()),
            confirm_open: RwSignal::new(false),
        }
    }

    fn count(self) -> usize {
        self.selection.with(|s| s.len())
    }

    /// Shown while anything is selected, running or reported.
    fn visible(self) -> bool {
        self.count() > 0 || self.running.get() || self.results.with(|r| !r.is_empty())
    }

    fn blocked(self) -> bool {
        self.running.get() || self.count() == 0
    }

    fn chosen(self) -> Result<BulkAction, String> {
        BulkAction::from_form(&self.kind.get(), &self.role.get(), &self.team.get())
    }

    fn button_text(self) -> String {
        match self.chosen() {
            Ok(action) => action.describe(self.count()),
            Err(_) => format!("Apply to {}", users_word(self.count())),
        }
    }

    /// Checks the form; a deactivation asks first, anything else starts at once.
    fn submit(self) {
        if self.running.get_untracked() {
            return;
        }
        match self.chosen() {
            Err(message) => self.form_error.set(Some(message)),
            Ok(action) => {
                self.form_error.set(None);
                if action == BulkAction::Deactivate {
                    self.confirm_open.set(true);
                } else {
                    self.start();
                }
            }
        }
    }

    /// Runs the change on every selected user; those that succeed leave the selection.
    fn start(self) {
        let Ok(action) = self.chosen() else {
            return;
        };
        let targets: Vec<(String, Picked)> = self.selection.get_untracked().into_iter().collect();
        if targets.is_empty() || self.running.get_untracked() {
            return;
        }
        self.running.set(true);
        self.results.set(Vec::new());
        self.progress.set((0, targets.len()));
        spawn_local(async move {
            run_bulk(self.api, targets, action, move |result, _answer| {
                if result.outcome.is_ok() {
                    let id = result.id.clone();
                    self.selection.try_update(|s| s.remove(&id));
                }
                self.results.try_update(|r| {
                    r.push(result);
                    r.sort_by_key(|x| x.order);
                });
                self.progress.try_update(|p| p.0 += 1);
            })
            .await;
            self.running.try_set(false);
            self.notify();
            self.on_done.run(());
        });
    }

    /// The run's summary as a notification, which a screen reader reads once; a run with
    /// failures stays until dismissed.
    fn notify(self) {
        let Some((summary, failed)) = self
            .results
            .try_with_untracked(|r| {
                let failed = r.iter().any(|x| x.outcome.is_err());
                (!r.is_empty()).then(|| (results_summary(r), failed))
            })
            .flatten()
        else {
            return;
        };
        let tone = if failed { Tone::Danger } else { Tone::Success };
        self.notifications
            .push(tone, format!("Bulk change: {summary}"));
    }
}

#[component]
pub(crate) fn BulkPanel(
    selection: Selection,
    groups: TeamGroups,
    /// Called when a run ends, to reload the list with the platform's state.
    on_done: Callback<()>,
) -> impl IntoView {
    let run = BulkRun::new(selection, on_done);
    let count_text = move || format!("{} selected", users_word(run.count()));
    view! {
        <Show when=move || run.visible()>
            <section class="bulk" aria-labelledby="bulk-heading" data-testid="bulk-panel">
                <h2 id="bulk-heading">"Change the selected users"</h2>
                <p class="bulk__count">
                    <span data-testid="bulk-count">{count_text}</span>
                    " "
                    <button
                        type="button"
                        class="button button--small"
                        disabled=move || run.blocked()
                        on:click=move |_| selection.set(BTreeMap::new())
                    >
                        "Clear selection"
                    </button>
                </p>
                <BulkForm run groups />
                <BulkProgress running=run.running progress=run.progress />
                <BulkResults running=run.running results=run.results />
                <ConfirmDialog
                    open=run.confirm_open
                    title=Signal::derive(move || format!("Deactivate {}?", users_word(run.count())))
                    confirm_label=Signal::derive(move || format!("Deactivate {}", users_word(run.count())))
                    on_confirm=Callback::new(move |()| run.start())
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

/// The change to make: its kind, then the role or team it needs, then "Apply".
#[component]
fn BulkForm(run: BulkRun, groups: TeamGroups) -> impl IntoView {
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        run.submit();
    };
    let kinds = vec![
        ("role".to_owned(), "Set the role".to_owned()),
        ("team".to_owned(), "Move to a team".to_owned()),
        ("activate".to_owned(), "Activate".to_owned()),
        ("deactivate".to_owned(), "Deactivate".to_owned()),
    ];
    let team_placeholder = move || match groups.get() {
        None => "Loading teams…",
        Some(_) => "Choose a team",
    };
    let team_options = move || options(same_label(groups.names().unwrap_or_default()), run.team);
    // A new choice of change clears the complaint about the last one.
    Effect::new(move |_| {
        run.kind.track();
        run.form_error.set(None);
    });
    view! {
        <form class="bulk__form" novalidate on:submit=on_submit>
            <BulkSelect id="bulk-action" label="Change" value=run.kind placeholder=Signal::stored("Choose a change")>
                {options(kinds, run.kind)}
            </BulkSelect>
            <Show when=move || run.kind.get() == "role">
                <BulkSelect id="bulk-role" label="New role" value=run.role placeholder=Signal::stored("Choose a role")>
                    {options(same_label(Role::KNOWN.iter().map(Role::as_str)), run.role)}
                </BulkSelect>
            </Show>
            <Show when=move || run.kind.get() == "team">
                <BulkSelect id="bulk-team" label="New team" value=run.team placeholder=Signal::derive(team_placeholder)>
                    {team_options}
                </BulkSelect>
            </Show>
            <button type="submit" class="button button--primary" disabled=move || run.blocked()>
                {move || run.button_text()}
            </button>
            {move || {
                run.form_error
                    .get()
                    .map(|message| view! { <p class="field__error" role="alert">{message}</p> })
            }}
        </form>
    }
}

/// A labelled select of the bulk form, "choose …" first.
#[component]
fn BulkSelect(
    id: &'static str,
    label: &'static str,
    value: RwSignal<String>,
    placeholder: Signal<&'static str>,
    children: Children,
) -> impl IntoView {
    let on_change = move |ev: leptos::ev::Event| value.set(event_target_value(&ev));
    view! {
        <div class="field">
            <label for=id>{label}</label>
            <select id=id on:change=on_change>
                <option value="" selected=move || value.get().is_empty()>
                    {placeholder}
                </option>
                {children()}
            </select>
        </div>
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
        // Not a live region: the summary is announced once, as a notification.
        <div class="bulk__results">
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
