//! The bulk panel above the users list: choose a change, apply it to the selected users, and
//! follow its progress and a result per user. The rules live in [`super::bulk`].

use std::collections::BTreeMap;

use gifting_api::Role;
use leptos::prelude::*;

use super::bulk::{
    results_csv, results_page, AllMatching, BulkAction, BulkResult, Outcome, ResultsPage,
    Selection, RESULTS_PAGE,
};
use super::bulk_job::{self, BulkRun, Change, Targets};
use crate::api::TeamGroups;
use crate::components::download::{download_parts, local_date};
use crate::components::format::{count, count_of};
use crate::components::options::{options, same_label};
use crate::components::{jobs_indicator, Badge, ConfirmDialog, Tone};
use crate::components::{use_job, UseJob};
use crate::i18n::{live_text, msg, t, M};
use crate::jobs::JobKind;

/// The panel's state and its actions, apart from the view. The run itself is a job
/// ([`super::bulk_job`]): the panel starts it, shows it, and finds it again when the admin
/// comes back to Users.
#[derive(Clone, Copy)]
struct Panel {
    selection: Selection,
    /// Every user the list matches, across pages, in place of `selection`.
    matching: RwSignal<Option<AllMatching>>,
    /// Called when a run ends while the panel is shown, to reload the list.
    on_done: Callback<()>,
    /// The change chosen ("role", "team", "activate", "deactivate"), and its value.
    kind: RwSignal<String>,
    role: RwSignal<String>,
    team: RwSignal<String>,
    form_error: RwSignal<Option<String>>,
    /// The latest bulk change, running or ended and not dismissed.
    job: UseJob<BulkRun>,
    /// "Cancel" was pressed for the running job.
    cancelling: RwSignal<bool>,
    confirm_open: RwSignal<bool>,
}

impl Panel {
    fn new(
        selection: Selection,
        matching: RwSignal<Option<AllMatching>>,
        on_done: Callback<()>,
    ) -> Self {
        let panel = Self {
            selection,
            matching,
            on_done,
            kind: RwSignal::new(String::new()),
            role: RwSignal::new(String::new()),
            team: RwSignal::new(String::new()),
            form_error: RwSignal::new(None),
            job: use_job(JobKind::BulkChange),
            cancelling: RwSignal::new(false),
            confirm_open: RwSignal::new(false),
        };
        // A run that ends while the panel is shown: those changed leave the selection, and
        // the list shows what the platform now holds.
        Effect::new(move |was_running: Option<bool>| {
            let running = panel.running();
            if was_running == Some(true) && !running {
                panel.finish();
            }
            running
        });
        panel
    }

    /// Reads the run shown, tracked.
    fn with_run<T>(self, f: impl FnOnce(&BulkRun) -> T) -> Option<T> {
        self.job.with(f)
    }

    fn running(self) -> bool {
        self.job.running()
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
        self.count() > 0 || self.job.shown()
    }

    fn blocked(self) -> bool {
        self.running() || self.count() == 0
    }

    fn chosen(self) -> Result<BulkAction, String> {
        BulkAction::from_form(&self.kind.get(), &self.role.get(), &self.team.get())
    }

    fn button_text(self) -> String {
        match self.chosen() {
            Ok(action) => action.describe(self.count()),
            Err(_) => msg::users_apply_to(self.count() as u64),
        }
    }

    /// Checks the form; a deactivation asks first, anything else starts at once.
    fn submit(self) {
        if self.running() {
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

    /// Starts the change on every selected user (or every user the list matches) as a job;
    /// the previous run's results, if any, are dismissed.
    fn start(self) {
        let Ok(action) = self.chosen() else {
            return;
        };
        let count = self.count();
        if count == 0 {
            return;
        }
        let targets = match self.matching.get_untracked() {
            Some(all) => Targets::Matching { email: all.email },
            None => Targets::Picked(self.selection.get_untracked().into_iter().collect()),
        };
        self.launch(Change::Action(action, targets), count);
    }

    /// Starts `change` as the job shown; refused in words while another run writes.
    fn launch(self, change: Change, count: usize) {
        match self.job.start(|| bulk_job::start(change, count)) {
            Ok(()) => self.cancelling.set(false),
            Err(reason) => self.form_error.set(Some(reason)),
        }
    }

    /// Puts back what the run shown changed, as a job of its own (the same guards; a user
    /// changed since by someone else is listed and left alone). The run's results stay in
    /// the jobs list until dismissed.
    fn undo(self) {
        if self.running() {
            return;
        }
        let Some(reversals) = self.with_run(BulkRun::reversals) else {
            return;
        };
        if reversals.is_empty() {
            return;
        }
        let count = reversals.len();
        self.launch(Change::Undo(reversals), count);
    }

    /// Whether the run shown changed anyone it could put back.
    fn undoable(self) -> bool {
        !self.running()
            && self
                .with_run(|r| {
                    r.results
                        .iter()
                        .any(|x| x.outcome.changed() && x.before.is_some())
                })
                .unwrap_or(false)
    }

    fn cancel(self) {
        self.cancelling.set(true);
        self.job.cancel();
    }

    /// The run's results as a file.
    fn download(self) {
        let Some(text) = untrack(|| self.with_run(|r| results_csv(&r.asked, &r.results))) else {
            return;
        };
        let parts = js_sys::Array::of1(&text.into());
        let name = format!("bulk-change-results-{}.csv", local_date());
        let _ = download_parts(&name, "text/csv;charset=utf-8", &parts);
    }

    /// Forgets the ended run's results.
    fn dismiss(self) {
        self.job.dismiss();
    }

    /// The run ended: the users it changed leave the selection (a run over every matching
    /// user leaves the others selected, by id), and the list is read again.
    fn finish(self) {
        let Some((asked, changed)) = self.job.with_untracked(|r| {
            let changed: std::collections::HashSet<String> = r
                .results
                .iter()
                .filter(|x| x.outcome.changed())
                .map(|x| x.id.clone())
                .collect();
            (r.asked.clone(), changed)
        }) else {
            return;
        };
        if self.matching.get_untracked().is_some() && !asked.is_empty() {
            self.matching.set(None);
            self.selection.set(asked.into_iter().collect());
        }
        self.selection
            .update(|s| s.retain(|id, _| !changed.contains(id)));
        self.on_done.run(());
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
    let run = Panel::new(selection, matching, on_done);
    let count_text = move || match matching.get() {
        Some(all) => msg::users_all_selected(all.total),
        None => msg::users_selected(run.count() as u64),
    };
    view! {
        <Show when=move || run.visible()>
            <section class="bulk" aria-labelledby="bulk-heading" data-testid="bulk-panel">
                <h2 id="bulk-heading">{M::UsersBulkHeading}</h2>
                <p class="bulk__count">
                    <span data-testid="bulk-count">{count_text}</span>
                    " "
                    <button
                        type="button"
                        class="button button--small"
                        disabled=move || run.blocked()
                        on:click=move |_| run.clear()
                    >
                        {M::UsersClearSelection}
                    </button>
                </p>
                <SelectAllMatching run listed />
                <BulkForm run groups />
                <BulkProgress run />
                <BulkResults run />
                <ConfirmDialog
                    open=run.confirm_open
                    title=Signal::derive(move || msg::users_deactivate_count_question(run.count() as u64))
                    confirm_label=Signal::derive(move || msg::users_deactivate_count(run.count() as u64))
                    on_confirm=Callback::new(move |()| run.start())
                >
                    <p>{M::UsersBulkDeactivateExplain}</p>
                </ConfirmDialog>
            </section>
        </Show>
    }
}

/// The change to make: its kind, then the role or team it needs, then "Apply".
#[component]
fn BulkForm(run: Panel, groups: TeamGroups) -> impl IntoView {
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        run.submit();
    };
    // Redrawn when the language changes.
    let kinds = move || {
        let kinds = [
            ("role", M::UsersKindRole),
            ("team", M::UsersKindTeam),
            ("activate", M::UsersKindActivate),
            ("deactivate", M::UsersKindDeactivate),
        ];
        let kinds = kinds.map(|(value, label)| (value.to_owned(), t(label).to_owned()));
        options(kinds.to_vec(), run.kind)
    };
    let team_placeholder = move || match groups.get() {
        None => t(M::UsersLoadingTeams),
        Some(_) => t(M::UsersChooseTeam),
    };
    let team_options =
        move || named_options(same_label(groups.names().unwrap_or_default()), run.team);
    // A new choice of change clears the complaint about the last one.
    Effect::new(move |_| {
        run.kind.track();
        run.form_error.set(None);
    });
    view! {
        <form class="bulk__form" novalidate on:submit=on_submit>
            <BulkSelect id="bulk-action" label=M::UsersChange value=run.kind placeholder=M::UsersChooseAChange>
                {kinds}
            </BulkSelect>
            <Show when=move || run.kind.get() == "role">
                <BulkSelect id="bulk-role" label=M::UsersNewRole value=run.role placeholder=M::UsersChooseRole>
                    {named_options(same_label(Role::KNOWN.iter().map(Role::as_str)), run.role)}
                </BulkSelect>
            </Show>
            <Show when=move || run.kind.get() == "team">
                <BulkSelect id="bulk-team" label=M::UsersNewTeam value=run.team placeholder=Signal::derive(team_placeholder)>
                    {team_options}
                </BulkSelect>
            </Show>
            <button type="submit" class="button button--primary" disabled=move || run.blocked()>
                {live_text(move || run.button_text())}
            </button>
            {move || {
                run.form_error
                    .get()
                    .map(|message| view! { <p class="field__error" role="alert">{message}</p> })
            }}
        </form>
    }
}

/// As [`options`], for choices named in the platform's own words (roles, teams): marked as
/// not to be translated.
fn named_options(choices: Vec<(String, String)>, selected: RwSignal<String>) -> impl IntoView {
    choices
        .into_iter()
        .map(|(value, label)| {
            let mine = value.clone();
            view! {
                <option value=value prop:selected=move || selected.with(|s| *s == mine) translate="no">
                    {label}
                </option>
            }
        })
        .collect_view()
}

/// A labelled select of the bulk form, "choose …" first.
#[component]
fn BulkSelect(
    id: &'static str,
    label: M,
    value: RwSignal<String>,
    #[prop(into)] placeholder: Signal<&'static str>,
    children: Children,
) -> impl IntoView {
    let on_change = move |ev: leptos::ev::Event| value.set(event_target_value(&ev));
    view! {
        <div class="field">
            <label for=id>{label}</label>
            <select id=id on:change=on_change>
                <option value="" prop:selected=move || value.get().is_empty()>
                    {placeholder}
                </option>
                {children()}
            </select>
        </div>
    }
}

/// "Reading the users: 300 of 1,234", then "412 of 1,234", with Cancel: the job's own status
/// says how far it is.
#[component]
fn BulkProgress(run: Panel) -> impl IntoView {
    let line = move || {
        let status = run.job.status()?;
        Some(match status.of {
            // While the users are read (or another tab's run is waited for): in words.
            None => (0, 1, status.note),
            Some(of) => (status.done, of.max(1), count_of(status.done, of)),
        })
    };
    let question = move || {
        let status = run.job.status()?;
        Some(jobs_indicator::question_view(status.id, status.question?))
    };
    move || {
        let (value, max, text) = line().filter(|_| run.running())?;
        Some(view! {
            <div class="bulk__progress">
                <div role="status" data-testid="bulk-progress">
                    <progress max=max.to_string() value=value.to_string()></progress>
                    <span>{text}</span>
                </div>
                <button
                    type="button"
                    class="button button--small"
                    disabled=move || run.cancelling.get()
                    on:click=move |_| run.cancel()
                >
                    {live_text(move || t(if run.cancelling.get() { M::UsersCancelling } else { M::CommonCancel }))}
                </button>
            </div>
            {question}
        })
    }
}

/// Offered when the whole page shown is selected and the list has more pages: select every
/// user it matches instead (read from the platform when the change starts).
#[component]
fn SelectAllMatching(run: Panel, listed: Signal<Option<Listed>>) -> impl IntoView {
    let offer = move || {
        let listed = listed.get()?;
        let page_selected = !listed.page_ids.is_empty()
            && run
                .selection
                .with(|s| listed.page_ids.iter().all(|id| s.contains_key(id)));
        let more = listed.total > run.selection.with(|s| s.len() as u64);
        (page_selected && more && run.matching.with(Option::is_none) && !run.running())
            .then_some(listed)
    };
    move || {
        offer().map(|listed| {
            let (total, email) = (listed.total, listed.email.clone());
            let label = move || match &email {
                Some(email) => msg::users_select_all_matching(total, email),
                None => msg::users_select_all(total),
            };
            let choose = move |_| {
                run.matching.set(Some(AllMatching {
                    email: listed.email.clone(),
                    total: listed.total,
                }))
            };
            view! {
                <p class="bulk__all">
                    {M::UsersPageSelected}
                    " "
                    <button type="button" class="button button--small" data-testid="select-all-matching" on:click=choose>
                        {label}
                    </button>
                </p>
            }
        })
    }
}

#[component]
fn BulkResults(run: Panel) -> impl IntoView {
    // The summary waits for the last answer; until then the progress speaks.
    let summary = move || {
        if run.running() {
            return None;
        }
        // A run refused or stopped before any write says why in its job's note.
        let note = move || run.job.status().map(|s| s.note);
        run.with_run(BulkRun::summary).flatten().or_else(note)
    };
    let failed_only = RwSignal::new(false);
    let page = RwSignal::new(0usize);
    // A new run starts at its first page, with every result.
    Effect::new(move |_| {
        run.job.id();
        page.set(0);
        failed_only.set(false);
    });
    let listed = Memo::new(move |_| {
        run.with_run(|r| results_page(&r.results, failed_only.get(), page.get()))
            .unwrap_or_default()
    });
    view! {
        // Not a live region: the header's jobs indicator announces the end.
        <div class="bulk__results">
            {move || summary().map(|text| view! {
                <p class="bulk__summary" data-testid="bulk-summary">{text}</p>
                <p class="bulk__summary-actions">
                    <button type="button" class="button button--small" data-testid="bulk-download" on:click=move |_| run.download()>
                        {M::UsersDownloadResults}
                    </button>
                    " "
                    <button type="button" class="button button--small" on:click=move |_| run.dismiss()>
                        {M::UsersDismissResults}
                    </button>
                    <Show when=move || run.undoable()>
                        " "
                        <button type="button" class="button button--small" data-testid="bulk-undo" on:click=move |_| run.undo()>
                            {M::UsersUndoChange}
                        </button>
                    </Show>
                </p>
            })}
            <ResultsPager run listed failed_only page />
            <ul class="bulk-results">
                <For
                    each=move || listed.with(|l| l.shown.clone())
                    key=|r| (r.order, r.id.clone(), r.outcome.word())
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
    run: Panel,
    listed: Memo<ResultsPage>,
    failed_only: RwSignal<bool>,
    page: RwSignal<usize>,
) -> impl IntoView {
    let counts = Memo::new(move |_| {
        run.with_run(|r| {
            let failed = r.results.iter().filter(|x| x.outcome.failed()).count();
            (r.results.len(), failed)
        })
        .unwrap_or_default()
    });
    let failed = move || counts.get().1;
    let needed = move || counts.get().0 > RESULTS_PAGE || failed() > 0;
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
                    " "
                    {live_text(move || msg::users_failed_only(&count(failed() as u64)))}
                </label>
                <span class="bulk-results__range" data-testid="bulk-results-range">
                    {live_text(move || listed.with(|l| l.range_text(failed_only.get())))}
                </span>
                <button
                    type="button"
                    class="button button--small"
                    aria-disabled=move || (at.get().0 == 0).to_string()
                    on:click=move |_| step(false)
                >
                    {M::UsersPreviousResults}
                </button>
                <button
                    type="button"
                    class="button button--small"
                    aria-disabled=move || { let (p, n) = at.get(); (p + 1 >= n).to_string() }
                    on:click=move |_| step(true)
                >
                    {M::UsersNextResults}
                </button>
            </div>
        </Show>
    }
}

/// One user's line: changed, failed or left alone, who, and what the platform said.
fn result_line(r: BulkResult) -> impl IntoView {
    let word = r.outcome.word();
    let tone = match r.outcome {
        Outcome::Changed(_) => Tone::Success,
        Outcome::Failed(_) => Tone::Danger,
        Outcome::LeftAlone(_) => Tone::Warning,
    };
    let badge = match r.outcome {
        Outcome::Changed(_) => M::UsersOutcomeChanged,
        Outcome::Failed(_) => M::UsersOutcomeFailed,
        Outcome::LeftAlone(_) => M::UsersOutcomeLeftAlone,
    };
    let outcome = r.outcome.clone();
    view! {
        <li
            class="bulk-result"
            class:bulk-result--failed=r.outcome.failed()
            data-user-id=r.id.clone()
            data-outcome=if r.outcome.changed() { "ok" } else { word }
        >
            {move || view! { <Badge text=t(badge) tone /> }}
            " "
            <strong translate="no">{r.who.name.clone()}</strong>
            {format!(" ({}): ", r.who.email)}
            {live_text(move || outcome.detail())}
        </li>
    }
}
