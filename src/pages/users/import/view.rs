//! The import screen's view: pick or drop a file, check the columns, read the preview, choose
//! the options, run, follow the progress and download the results. State and actions live in
//! [`super::store::Import`].

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::columns::{slot, FIELDS};
use super::compare::how_text;
use super::fate::FateKind;
use super::store::Import;
use super::view_rows::{PreviewTable, RunPanel};
use crate::components::format::count;
use crate::components::ScreenHeading;
use crate::i18n::{live_text, msg, t, M};
use crate::routes;

#[component]
pub(crate) fn ImportUsersPage() -> impl IntoView {
    let import = Import::new();
    let has_table = move || import.table.with(Option::is_some);
    view! {
        <section class="user-import" aria-labelledby="import-heading">
            <ScreenHeading
                back=(routes::USERS, M::NavUsers) title=M::ImportTitle id="import-heading"
                intro=M::ImportIntro
            />
            <FilePicker import />
            <Show when=has_table>
                <ColumnsForm import />
                <CompareStatus import />
                <PreviewTable import />
                <RunPanel import />
            </Show>
        </section>
    }
}

/// The file input (keyboard and screen reader) inside a drop zone (mouse).
#[component]
fn FilePicker(import: Import) -> impl IntoView {
    let dragging = RwSignal::new(false);
    let on_change = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        if let Some(file) = input.files().and_then(|f| f.get(0)) {
            import.open(file);
        }
        // The same file can be chosen again (after a change to it on disk).
        input.set_value("");
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        dragging.set(false);
        let file = ev
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|f| f.get(0));
        if let Some(file) = file {
            import.open(file);
        }
    };
    let on_over = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        dragging.set(true);
    };
    view! {
        <div
            class="import-drop" class:import-drop--over=move || dragging.get() data-testid="import-drop"
            on:dragover=on_over on:dragleave=move |_| dragging.set(false) on:drop=on_drop
        >
            <label for="import-file">{M::ImportFileLabel}</label>
            <input id="import-file" type="file" accept=".csv,text/csv" on:change=on_change aria-describedby="import-file-hint" disabled=move || import.running() />
            <p id="import-file-hint" class="field__hint">{M::ImportFileHint}</p>
            {move || import.reading.get().map(|rows| view! { <p role="status">{reading_text(rows)}</p> })}
            {move || {
                import.file_error.get().map(|error| view! {
                    <p class="notice notice--error" role="alert" data-testid="import-file-error">
                        {live_text(move || msg::import_file_error(&import.file_name.get(), &error.text()))}
                    </p>
                })
            }}
        </div>
    }
}

/// "Reading the file… 4,000 rows", in the chosen language.
fn reading_text(rows: u64) -> String {
    if rows == 0 {
        t(M::ImportReading).into()
    } else {
        msg::import_reading_rows(rows)
    }
}

/// One select per field: which column holds it.
#[component]
fn ColumnsForm(import: Import) -> impl IntoView {
    let header = move || {
        import
            .table
            .with(|t| t.as_ref().map(|t| t.header.clone()).unwrap_or_default())
    };
    let selects = FIELDS
        .into_iter()
        .map(|field| {
            let id = format!("import-col-{}", field.id());
            let on_change = move |ev: leptos::ev::Event| {
                let value = event_target_value(&ev);
                import.map(field, value.parse::<usize>().ok());
            };
            let options = move || {
                let chosen = import.mapping.get()[slot(field)];
                header()
                    .into_iter()
                    .enumerate()
                    .map(|(i, name)| view! { <option value=i.to_string() prop:selected=chosen == Some(i) translate="no">{name}</option> })
                    .collect_view()
            };
            view! {
                <div class="field">
                    <label for=id.clone()>{field.message()}</label>
                    <select id=id on:change=on_change>
                        <option value="" prop:selected=move || import.mapping.get()[slot(field)].is_none()>{M::ImportNotInFile}</option>
                        {options}
                    </select>
                </div>
            }
        })
        .collect_view();
    view! {
        // A running import writes the rows as they were mapped when it started.
        <fieldset class="import-columns" disabled=move || import.running()>
            <legend>{M::ImportColumns}</legend>
            {selects}
            <Show when=move || import.running()>
                <p class="field__hint" role="status">{M::ImportColumnsLocked}</p>
            </Show>
            <Show when=move || !import.email_mapped()>
                <p class="notice notice--error" role="alert" data-testid="import-no-email">
                    {M::ImportNoEmail}
                </p>
            </Show>
        </fieldset>
    }
}

/// Comparing, how it was compared, or why it could not be.
#[component]
fn CompareStatus(import: Import) -> impl IntoView {
    move || {
        if import.comparing.get() {
            view! { <p role="status" data-testid="import-comparing">{M::ImportComparing}</p> }
                .into_any()
        } else if let Some(message) = import.compare_error.get() {
            view! {
                <div class="notice notice--error" role="alert">
                    <p>{live_text(move || msg::import_compare_failed(&message))}</p>
                    <button type="button" class="button" on:click=move |_| import.compare()>{M::CommonTryAgain}</button>
                </div>
            }
            .into_any()
        } else if import.groups_failed() {
            view! { <p class="notice notice--error" role="alert">{M::ImportGroupsFailed}</p> }
                .into_any()
        } else {
            let how = move || {
                import.known.with(|k| {
                    k.as_ref()
                        .filter(|k| k.total.is_some())
                        .map(|k| how_text(k))
                })
            };
            view! { <p class="import-how" data-testid="import-how">{how}</p> }.into_any()
        }
    }
}

/// "Create (400)", one radio per fate plus "All", as the preview's filter.
#[component]
pub(crate) fn FateFilter(import: Import) -> impl IntoView {
    let counts = move || {
        import
            .preview
            .with(|p| p.as_ref().map(|p| p.0.counts).unwrap_or_default())
    };
    let choice = move |kind: Option<FateKind>, label: M, key: &'static str| {
        let n = move || match kind {
            None => counts().iter().sum::<usize>(),
            Some(k) => counts()[FateKind::ALL.iter().position(|x| *x == k).unwrap_or(0)],
        };
        view! {
            <label class="import-filter__choice" data-fate=key>
                <input
                    type="radio" name="import-filter" checked=move || import.filter.get() == kind
                    on:change=move |_| { import.filter.set(kind); import.page.set(0); }
                />
                {label} " " <span data-testid=format!("import-count-{key}")>{live_text(move || count(n() as u64))}</span>
            </label>
        }
    };
    let kinds = FateKind::ALL.map(|k| choice(Some(k), k.label(), k.key()));
    view! {
        <fieldset class="import-filter">
            <legend>{M::ImportShowRows}</legend>
            {choice(None, M::ImportFilterAll, "all")}
            {kinds.into_iter().collect_view()}
        </fieldset>
    }
}

/// The element an event came from, as the type expected.
fn event_target<T: JsCast>(ev: &leptos::ev::Event) -> T {
    ev.target().expect("an event has a target").unchecked_into()
}
