//! The bulk panel above the users list: choose a change, apply it to the selected users, and
//! follow its progress and a result per user. The rules live in [`super::bulk`].

use std::collections::BTreeMap;

use gifting_api::Role;
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::bulk::{
    insert_result, matching_users, results_page, results_summary, run_bulk, users_word,
    AllMatching, BulkAction, BulkResult, Picked, ResultsPage, RunControl, Selection, RESULTS_PAGE,
};
use crate::api::{use_api, ApiClient, TeamGroups};
use crate::components::options::{options, same_label};
use crate::components::{use_notifications, Badge, ConfirmDialog, Notifications, Tone};

/// The panel's state and its actions, apart from the view.
#[derive(Clone, Copy)]
struct BulkRun {
    api: ApiClient,
    selection: Selection,
    /// Every user the list matches, across pages, in place of `selection`.
    matching: RwSignal<Option<AllMatching>>,
    /// Called when a run ends, to reload the list with the platform's state.
    on_done: Callback<()>,
    notifications: Notifications,
    /// The change chosen ("role", "team", "activate", "deactivate"), and its value.
    kind: RwSignal<String>,
    role: RwSignal<String>,
    team: RwSignal<String>,
    form_error: RwSignal<Option<String>>,
    running: RwSignal<bool>,
    /// Set by "Cancel": no request of the run is sent after it.
    cancelled: RwSignal<bool>,
    /// While the users matching the list are read: (read, matching).
    finding: RwSignal<Option<(usize, u64)>>,
    /// (answered, asked) in this run.
    progress: RwSignal<(usize, usize)>,
    results: RwSignal<Vec<BulkResult>>,
    confirm_open: RwSignal<bool>,
}

impl BulkRun {
    fn new(
        selection: Selection,
        matching: RwSignal<Option<AllMatching>>,
        on_done: Callback<()>,
    ) -> Self {
        Self {
            api: use_api(),
            selection,
            matching,
            on_done,
            notifications: use_notifications(),
            kind: RwSignal::new(String::new()),
            role: RwSignal::new(String::new()),
            team: RwSignal::new(String::new()),
            form_error: RwSignal::new(None),
            running: RwSignal::new(false),
            cancelled: RwSignal::new(false),
            finding: RwSignal::new(None),
            progress: RwSignal::new((0, 0)),
            results: RwSignal::new(Vec::new()),
            confirm_open: RwSignal::new(false),
        }
    }

    fn count(self) -> usize {
        match self.matching.with(|m| m.as_ref().map(|m| m.total)) {
            Some(total) => total as usize,
            None => self.selection.with(|s| s.len()),
        }
    }

    fn clear(self) {
        self.matching.set(None);
        self.selection.set(BTreeMap::new());
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

    /// Runs the change on every selected user (first reading them from the platform when
    /// every matching user is selected); those that succeed leave the selection.
    fn start(self) {
        let Ok(action) = self.chosen() else {
            return;
        };
        if self.count() == 0 || self.running.get_untracked() {
            return;
        }
        self.running.set(true);
        self.cancelled.set(false);
        self.results.set(Vec::new());
        spawn_local(async move {
            let control = RunControl::new(self.cancelled);
            if let Some(targets) = self.targets(&control).await {
                self.progress.set((0, targets.len()));
                run_bulk(self.api, targets, action, &control, move |result, _| {
                    self.record(result)
                })
                .await;
            }
            self.running.try_set(false);
            self.notify();
            // The list it reloads is gone with its screen when the admin left mid-run.
            self.on_done.try_run(());
        });
    }

    /// The users to change: the selection, or every user the list matches, read now (and
    /// then selected, so those not changed stay selected).
    async fn targets(self, control: &RunControl) -> Option<Vec<(String, Picked)>> {
        let Some(all) = self.matching.get_untracked() else {
            return Some(self.selection.get_untracked().into_iter().collect());
        };
        self.finding.set(Some((0, all.total)));
        let found = matching_users(self.api, all.email, control, move |read, total| {
            self.finding.try_set(Some((read, total)));
        })
        .await;
        self.finding.try_set(None);
        match found {
            Ok(users) if !control.is_cancelled() => {
                self.matching.try_set(None);
                self.selection.try_set(users.iter().cloned().collect());
                Some(users)
            }
            Ok(_) => None,
            Err(error) => {
                let why = error.user_message();
                self.form_error
                    .try_set(Some(format!("The users could not be read: {why}")));
                None
            }
        }
    }

    /// One user's outcome: shown, counted, and a changed user leaves the selection.
    fn record(self, result: BulkResult) {
        if result.outcome.is_ok() {
            let id = result.id.clone();
            self.selection.try_update(|s| s.remove(&id));
        }
        self.results.try_update(|r| insert_result(r, result));
        self.progress.try_update(|p| p.0 += 1);
    }

    /// The run's summary as a notification, which a screen reader reads once; a run with
    /// failures stays until dismissed.
    fn notify(self) {
        let Some((summary, failed)) = self
            .results
            .try_with_untracked(|r| {
                let failed = r.iter().any(|x| x.outcome.is_err());
                (!r.is_empty())
                    .then(|| (results_summary(r, self.progress.get_untracked().1), failed))
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

/// The list on screen, for the offer to select every user it matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Listed {
    /// The search (`None`: everyone).
    pub(crate) email: Option<String>,
    /// How many users the list matches, on every page.
    pub(crate) total: u64,
    /// The ids on the page shown.
    pub(crate) page_ids: Vec<String>,
}

#[component]
pub(crate) fn BulkPanel(
    selection: Selection,
    matching: RwSignal<Option<AllMatching>>,
    #[prop(into)] listed: Signal<Option<Listed>>,
    groups: TeamGroups,
    /// Called when a run ends, to reload the list with the platform's state.
    on_done: Callback<()>,
) -> impl IntoView {
    let run = BulkRun::new(selection, matching, on_done);
    let count_text = move || match matching.get() {
        Some(all) => format!("All {} selected", users_word(all.total as usize)),
        None => format!("{} selected", users_word(run.count())),
    };
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
                        on:click=move |_| run.clear()
                    >
                        "Clear selection"
                    </button>
                </p>
                <SelectAllMatching run listed />
                <BulkForm run groups />
                <BulkProgress run />
                <BulkResults running=run.running results=run.results asked=run.progress />
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

/// "Finding the users: 300 of 1,234", then "412 of 1,234" changed, with Cancel.
#[component]
fn BulkProgress(run: BulkRun) -> impl IntoView {
    let line = move || match run.finding.get() {
        Some((read, total)) => Some((
            read,
            total as usize,
            format!("Finding the users: {read} of {total}"),
        )),
        None => {
            let (done, total) = run.progress.get();
            (total > 0).then(|| (done, total, format!("{done} of {total}")))
        }
    };
    move || {
        let (value, max, text) = line().filter(|_| run.running.get())?;
        Some(view! {
            <div class="bulk__progress">
                <div role="status" data-testid="bulk-progress">
                    <progress max=max.to_string() value=value.to_string()></progress>
                    <span>{text}</span>
                </div>
                <button
                    type="button"
                    class="button button--small"
                    disabled=move || run.cancelled.get()
                    on:click=move |_| run.cancelled.set(true)
                >
                    {move || if run.cancelled.get() { "Cancelling…" } else { "Cancel" }}
                </button>
            </div>
        })
    }
}

/// Offered when the whole page shown is selected and the list has more pages: select every
/// user it matches instead (read from the platform when the change starts).
#[component]
fn SelectAllMatching(run: BulkRun, listed: Signal<Option<Listed>>) -> impl IntoView {
    let offer = move || {
        let listed = listed.get()?;
        let page_selected = !listed.page_ids.is_empty()
            && run
                .selection
                .with(|s| listed.page_ids.iter().all(|id| s.contains_key(id)));
        let more = listed.total > run.selection.with(|s| s.len() as u64);
        (page_selected && more && run.matching.with(Option::is_none) && !run.running.get())
            .then_some(listed)
    };
    move || {
        offer().map(|listed| {
            let label = match &listed.email {
                Some(email) => format!("Select all {} matching \u{201c}{email}\u{201d}", users_word(listed.total as usize)),
                None => format!("Select all {}", users_word(listed.total as usize)),
            };
            let choose = move |_| {
                run.matching.set(Some(AllMatching {
                    email: listed.email.clone(),
                    total: listed.total,
                }))
            };
            view! {
                <p class="bulk__all">
                    "Every user on this page is selected. "
                    <button type="button" class="button button--small" data-testid="select-all-matching" on:click=choose>
                        {label}
                    </button>
                </p>
            }
        })
    }
}

#[component]
fn BulkResults(
    running: RwSignal<bool>,
    results: RwSignal<Vec<BulkResult>>,
    /// (answered, asked): how many the run was for.
    asked: RwSignal<(usize, usize)>,
) -> impl IntoView {
    // The summary waits for the last answer; until then the progress speaks.
    let summary = move || {
        let done = !running.get();
        results.with(|r| (done && !r.is_empty()).then(|| results_summary(r, asked.get().1)))
    };
    let failed_only = RwSignal::new(false);
    let page = RwSignal::new(0usize);
    // A new run starts at its first page, with every result.
    Effect::new(move |_| {
        if results.with(Vec::is_empty) {
            page.set(0);
            failed_only.set(false);
        }
    });
    let listed =
        Memo::new(move |_| results.with(|r| results_page(r, failed_only.get(), page.get())));
    view! {
        // Not a live region: the summary is announced once, as a notification.
        <div class="bulk__results">
            {move || summary().map(|text| view! { <p class="bulk__summary" data-testid="bulk-summary">{text}</p> })}
            <ResultsPager results listed failed_only page />
            <ul class="bulk-results">
                <For
                    each=move || listed.with(|l| l.shown.clone())
                    key=|r| (r.order, r.id.clone(), r.outcome.is_ok())
                    children=result_line
                />
            </ul>
        </div>
    }
}

/// Above a run's results when they fill more than a page (or some failed): where the list
/// is, the pages, and a switch to the failed ones only.
#[component]
fn ResultsPager(
    results: RwSignal<Vec<BulkResult>>,
    listed: Memo<ResultsPage>,
    failed_only: RwSignal<bool>,
    page: RwSignal<usize>,
) -> impl IntoView {
    let failed =
        Memo::new(move |_| results.with(|r| r.iter().filter(|x| x.outcome.is_err()).count()));
    let needed = move || results.with(Vec::len) > RESULTS_PAGE || failed.get() > 0;
    let at = Memo::new(move |_| listed.with(|l| (l.page, l.pages)));
    let step = move |forward: bool| {
        let (now, pages) = at.get_untracked();
        page.set(if forward {
            (now + 1).min(pages - 1)
        } else {
            now.saturating_sub(1)
        });
    };
    view! {
        <Show when=needed>
            <div class="bulk-results__pager" data-testid="bulk-results-pager">
                <label class="bulk-results__failed">
                    <input
                        type="checkbox"
                        prop:checked=move || failed_only.get()
                        on:change=move |ev| {
                            failed_only.set(event_target_checked(&ev));
                            page.set(0);
                        }
                    />
                    {move || format!(" Failed only ({})", failed.get())}
                </label>
                <span class="bulk-results__range" data-testid="bulk-results-range">
                    {move || listed.with(|l| l.range_text(failed_only.get()))}
                </span>
                <button
                    type="button"
                    class="button button--small"
                    aria-disabled=move || (at.get().0 == 0).to_string()
                    on:click=move |_| step(false)
                >
                    "Previous results"
                </button>
                <button
                    type="button"
                    class="button button--small"
                    aria-disabled=move || { let (p, n) = at.get(); (p + 1 >= n).to_string() }
                    on:click=move |_| step(true)
                >
                    "Next results"
                </button>
            </div>
        </Show>
    }
}

/// One user's line: changed or failed, who, and what the platform said.
fn result_line(r: BulkResult) -> impl IntoView {
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
