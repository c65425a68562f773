//! The preview table (a page of rows at a time, filtered by fate) and the run panel: options,
//! the confirmation before deactivating, progress, cancel, the summary and the results file.

use gifting_api::scim::full_name;
use leptos::prelude::*;

use super::fate::{Fate, FateKind};
use super::results::{file_name, results_csv, AbsentResult};
use super::run_job::Outcome;
use super::store::Import;
use super::view::FateFilter;
use crate::components::download::{download_parts, local_date};
use crate::components::format::count;
use crate::components::use_job;
use crate::components::{jobs_indicator, Badge, ConfirmDialog, Tone};
use crate::i18n::{live_text, msg, t, M};
use crate::jobs::{JobKind, JobState};
use crate::pages::users::bulk_job::{self, BulkRun, Change};
use crate::routes;
use leptos_router::components::A;

/// Rows shown at once: the file may hold 20,000.
const PAGE_ROWS: usize = 100;

fn fate_badge(fate: &Fate) -> (M, Tone) {
    let kind = fate.kind();
    let tone = match kind {
        FateKind::Create => Tone::Info,
        FateKind::Update => Tone::Warning,
        FateKind::Unchanged => Tone::Neutral,
        FateKind::Error => Tone::Danger,
    };
    (kind.label(), tone)
}

fn outcome_badge(outcome: &Outcome) -> (M, Tone) {
    let tone = match outcome {
        Outcome::Created { .. } | Outcome::Updated | Outcome::Deactivated => Tone::Success,
        Outcome::Unchanged | Outcome::Skipped(_) => Tone::Neutral,
        Outcome::Failed(_) => Tone::Danger,
        Outcome::NotRun => Tone::Warning,
    };
    (outcome.label(), tone)
}

/// The indexes of the rows the filter shows.
fn shown(import: Import) -> Vec<usize> {
    let filter = import.filter.get();
    import.preview.with(|p| {
        let Some(p) = p else { return Vec::new() };
        p.0.fates
            .iter()
            .enumerate()
            .filter(|(_, f)| filter.is_none_or(|k| f.kind() == k))
            .map(|(i, _)| i)
            .collect()
    })
}

#[component]
pub(crate) fn PreviewTable(import: Import) -> impl IntoView {
    let indexes = Memo::new(move |_| shown(import));
    let pages = move || indexes.with(|i| i.len().div_ceil(PAGE_ROWS).max(1));
    let rows = move || {
        // A new preview (another mapping) redraws the rows even when the same ones show.
        import.preview.track();
        let page = import.page.get().min(pages() - 1);
        let slice: Vec<usize> = indexes.with(|i| {
            i.iter()
                .skip(page * PAGE_ROWS)
                .take(PAGE_ROWS)
                .copied()
                .collect()
        });
        slice
            .into_iter()
            .map(|i| view! { <PreviewRow import index=i /> })
            .collect_view()
    };
    let range = move || {
        let total = indexes.with(Vec::len);
        let first = (import.page.get() * PAGE_ROWS).min(total);
        let last = (first + PAGE_ROWS).min(total);
        msg::import_rows_range(
            &count(first as u64 + u64::from(total > 0)),
            &count(last as u64),
            &count(total as u64),
        )
    };
    view! {
        <Show when=move || import.preview.with(Option::is_some)>
            <FateFilter import />
            <div class="table-wrap">
                <table class="data-table import-table" data-testid="import-preview">
                    <caption>{M::ImportPreviewCaption}</caption>
                    <thead>
                        <tr>
                            <th scope="col">{M::ImportColRow}</th>
                            <th scope="col">{M::ImportColEmail}</th>
                            <th scope="col">{M::ImportColName}</th>
                            <th scope="col">{M::ImportColRole}</th>
                            <th scope="col">{M::ImportColTeam}</th>
                            <th scope="col">{M::ImportColFate}</th>
                            <th scope="col">{M::ImportColDetails}</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            <nav class="import-pager" aria-label=M::ImportPreviewPages>
                <button type="button" class="button" disabled=move || import.page.get() == 0 on:click=move |_| import.page.update(|p| *p = p.saturating_sub(1))>{M::ImportPreviousRows}</button>
                <span data-testid="import-range">{range}</span>
                <button type="button" class="button" disabled={move || import.page.get() + 1 >= pages()} on:click=move |_| import.page.update(|p| *p += 1)>{M::ImportNextRows}</button>
            </nav>
        </Show>
    }
}

#[component]
fn PreviewRow(import: Import, index: usize) -> impl IntoView {
    let Some((number, wanted, fate)) = import.preview.with_untracked(|p| {
        let p = p.as_ref()?;
        let number = import
            .table
            .with_untracked(|t| t.as_ref()?.rows.get(index).map(|r| r.number))?;
        Some((
            number,
            p.0.wanted.get(index)?.clone(),
            p.0.fates.get(index)?.clone(),
        ))
    }) else {
        return ().into_any();
    };
    let (fate_text, fate_tone) = fate_badge(&fate);
    let outcome = move || import.outcome(index);
    let name = full_name(&wanted.given_name, &wanted.family_name);
    let kind = fate.kind().key();
    view! {
        <tr data-fate=kind data-row=number.to_string() data-outcome=move || outcome().map(|o| o.word())>
            <th scope="row">{number}</th>
            <td translate="no">{wanted.email}</td>
            <td translate="no">{name}</td>
            <td translate="no">{wanted.role}</td>
            <td translate="no">{wanted.team}</td>
            <td>
                {move || view! { <Badge text=t(fate_text) tone=fate_tone /> }}
                {move || outcome().map(|o| { let (label, tone) = outcome_badge(&o); view! { " " <Badge text=t(label) tone /> } })}
            </td>
            <td>{move || details(outcome(), &fate)}</td>
        </tr>
    }
    .into_any()
}

/// The row's details, in the chosen language: its outcome once it ran, else its fate (an
/// update's changes each a text of its own, "; " between them).
fn details(outcome: Option<Outcome>, fate: &Fate) -> impl IntoView {
    let texts = match outcome {
        Some(outcome) => vec![outcome.message()],
        None => fate.details(),
    };
    texts
        .into_iter()
        .enumerate()
        .map(|(i, text)| view! { {(i > 0).then_some("; ")} {text} })
        .collect_view()
}

/// Options, Run, progress with Cancel, the summary and the results file.
#[component]
pub(crate) fn RunPanel(import: Import) -> impl IntoView {
    let absent = move || import.absent_count();
    let can_run = move || {
        // Deactivating the absent waits for every user to be read.
        let everyone = !import.deactivate.get() || import.absent_count_known();
        import.preview.with(Option::is_some)
            && everyone
            && !import.running()
            && !import.comparing.get()
            && import.email_mapped()
    };
    let on_deactivate = move |ev: leptos::ev::Event| {
        import.deactivate.set(event_target_checked(&ev));
        // Deactivating the absent needs every user read.
        import.compare();
    };
    let absent_text = move || {
        (import.deactivate.get() && !import.comparing.get())
            .then(|| msg::import_absent_count(absent() as u64))
    };
    view! {
        <section class="import-run" aria-labelledby="import-run-heading">
            <h2 id="import-run-heading">{M::ImportRun}</h2>
            // What a running import was started with cannot change under it.
            <fieldset disabled=move || import.running()>
                <legend>{M::ImportWhatToWrite}</legend>
                <label><input type="radio" name="import-mode" checked=move || !import.update_too.get() on:change=move |_| import.update_too.set(false) />" "{M::ImportCreateOnly}</label>
                <label><input type="radio" name="import-mode" checked=move || import.update_too.get() on:change=move |_| import.update_too.set(true) />" "{M::ImportCreateAndUpdate}</label>
                <label>
                    <input type="checkbox" id="import-deactivate" checked=move || import.deactivate.get() on:change=on_deactivate />
                    " "{M::ImportDeactivateAbsent} {live_text(move || absent_text().map(|text| format!(" {text}")))}
                </label>
            </fieldset>
            <button type="button" class="button button--primary" disabled=move || !can_run() on:click=move |_| import.submit() data-testid="import-run">
                {M::ImportRun}
            </button>
            <RunProgress import />
            <RunSummary import />
            <ConfirmDialog
                open=import.confirm_open
                title=Signal::derive(move || msg::import_confirm_title(absent() as u64))
                confirm_label=Signal::derive(move || msg::import_confirm_label(absent() as u64))
                on_confirm=Callback::new(move |()| import.start())
            >
                <p>{live_text(move || msg::import_confirm_explain(absent() as u64))}</p>
            </ConfirmDialog>
        </section>
    }
}

#[component]
fn RunProgress(import: Import) -> impl IntoView {
    let status = move || import.status();
    move || {
        let (done, total) = import.progress();
        let status = status()?;
        // Until the writes are planned (the users are read first) the bar cannot say how far.
        let bar = match total {
            Some(total) => {
                view! { <progress max=total.to_string() value=done.to_string()></progress> }
                    .into_any()
            }
            None => view! { <progress></progress> }.into_any(),
        };
        status.running().then(|| view! {
            <div class="bulk__progress" role="status" data-testid="import-progress">
                {bar}
                <span>{status.note.clone()}</span>
                <button type="button" class="button" on:click=move |_| import.cancel()>{M::CommonCancel}</button>
            </div>
            {status.question.map(|q| jobs_indicator::question_view(status.id, q))}
        })
    }
}

/// "Import ended: created 400, updated 3, unchanged 590, …", once the run ended, in the
/// chosen language.
fn summary(import: Import) -> Option<String> {
    let words = [
        "created",
        "updated",
        "unchanged",
        "deactivated",
        "skipped",
        "failed",
        "not run",
    ];
    let mut counts = [0usize; 7];
    let mut any = false;
    let mut tally = |o: &Outcome| {
        any = true;
        if let Some(i) = words.iter().position(|w| *w == o.word()) {
            counts[i] += 1;
        }
    };
    import.with_run(|r| {
        r.outcomes.iter().flatten().for_each(&mut tally);
        r.absent_outcomes.iter().for_each(|(_, x)| tally(x));
    });
    any.then(|| {
        let [created, updated, unchanged, deactivated, skipped, failed, not_run] =
            counts.map(|n| n as u64);
        msg::import_ended(
            created,
            updated,
            unchanged,
            deactivated,
            skipped,
            failed,
            not_run,
        )
    })
}

#[component]
fn RunSummary(import: Import) -> impl IntoView {
    let download = move |_| {
        // Written from the run's own copy of the file and mapping, as they were when it ran.
        let text = untrack(|| {
            import.with_run(|r| {
                let table = r.source.table.as_ref()?;
                let absent: Vec<AbsentResult> = r
                    .absent_outcomes
                    .iter()
                    .map(|(email, outcome)| AbsentResult { email, outcome })
                    .collect();
                let email = r.source.mapping[0];
                Some(results_csv(
                    table,
                    &r.outcomes,
                    &absent,
                    &r.before_after,
                    email,
                ))
            })
        })
        .flatten();
        if let Some(text) = text {
            let parts = js_sys::Array::of1(&text.into());
            let _ = download_parts(&file_name(&local_date()), "text/csv;charset=utf-8", &parts);
        }
    };
    // Kept here, not in the undo's own view: that view is made again whenever the jobs change.
    let undo_started = RwSignal::new(false);
    let undo_refused = RwSignal::new(None::<String>);
    // A run refused or stopped before its writes says why (a row refused up front, such as
    // the signed-in admin's own, is no write).
    let stopped = move || {
        let status = import.status()?;
        let written = import
            .with_run(|r| r.outcomes.iter().flatten().any(Outcome::wrote))
            .unwrap_or(false);
        (status.state == JobState::Failed || (status.state == JobState::Cancelled && !written))
            .then_some(status.note)
    };
    move || {
        if import.running() {
            return None;
        }
        if let Some(note) = stopped() {
            return Some(
                view! { <p class="notice" role="alert" data-testid="import-summary">{note}</p> }
                    .into_any(),
            );
        }
        summary(import).map(|text| view! {
            <div class="import-summary">
                <p data-testid="import-summary">{text}</p>
                <button type="button" class="button" on:click=download data-testid="import-download">{M::ImportDownload}</button>
                " "
                <button type="button" class="button" on:click=move |_| import.compare_afresh()>{M::ImportCompareAgain}</button>
                <UndoImport import undo_started undo_refused />
            </div>
        }.into_any())
    }
}

/// "Undo this import": a bulk change of its own (the users screen finds it again), refused in
/// words while another run writes.
#[component]
fn UndoImport(
    import: Import,
    undo_started: RwSignal<bool>,
    undo_refused: RwSignal<Option<String>>,
) -> impl IntoView {
    let undo_job = use_job::<BulkRun>(JobKind::BulkChange);
    let undo = move |_| {
        let reversals = untrack(|| import.with_run(|r| r.reversals.clone())).unwrap_or_default();
        if !reversals.is_empty() {
            let n = reversals.len();
            match undo_job.start(|| bulk_job::start(Change::Undo(reversals), n)) {
                Ok(()) => {
                    undo_refused.set(None);
                    undo_started.set(true);
                }
                Err(reason) => undo_refused.set(Some(reason)),
            }
        }
    };
    // The sentence around the link to the users, split where the link goes.
    let around = Memo::new(move |_| undo_started_text());
    let undoable = move || {
        import
            .with_run(|r| !r.reversals.is_empty())
            .unwrap_or(false)
    };
    view! {
        <Show when=undoable>
            " "
            <button type="button" class="button" data-testid="import-undo" disabled=move || undo_started.get() on:click=undo>{M::ImportUndo}</button>
        </Show>
        {move || undo_refused.get().map(|reason| view! { <p class="field__error" role="alert">{reason}</p> })}
        <Show when=move || undo_started.get()>
            <p data-testid="import-undo-started">
                {live_text(move || around.with(|a| a.0.clone()))}
                <A href=routes::USERS>{M::ImportUndoUsersLink}</A>
                {live_text(move || around.with(|a| a.1.clone()))}
            </p>
        </Show>
    }
}

/// "The undo runs as a job: …; its results are on [Users].": the text before and after the
/// link, in the chosen language.
fn undo_started_text() -> (String, String) {
    const LINK: &str = "\u{1}";
    let text = msg::import_undo_started(LINK);
    match text.split_once(LINK) {
        Some((before, after)) => (before.to_owned(), after.to_owned()),
        None => (text, String::new()),
    }
}
