//! `/sends`: the organization's sends.
//!
//! Without filters the table is the platform's page (`?page=&per_page=`). With a filter it is
//! the loaded sends that match, paged the same way, since the platform cannot filter: the
//! screen says how much of the history that covers, and "Load all pages" fetches the rest.
//! The state and the fetching (page cache, look-ahead) live in [`super::store::SendsStore`].

use gifting_api::rest::Send;
use leptos::either::Either;
use leptos::prelude::*;

use super::csv::file_name;
use super::filters_form::SendFilters;
use super::load_all::LoadAll;
use super::loaded::LoadedSends;
use super::overview::Overview;
use super::store::SendsStore;
use super::table::SendsTable;
use crate::components::download::{download_text, local_date};
use crate::components::ScreenHeading;
use crate::components::{Empty, Loaded, Pager};

#[component]
pub(crate) fn SendsPage() -> impl IntoView {
    let store = SendsStore::for_current_screen();
    let loaded = store.loaded();
    let table = move || {
        if store.filtering() {
            Either::Left(view! { <FilteredSends store /> })
        } else {
            Either::Right(view! { <ServerPage store /> })
        }
    };
    view! {
        <ScreenHeading title="Sends" />
        <Overview summary=store.summary() covers=Signal::derive(move || store.covers()) />
        <section class="sends-tools" aria-label="Loaded sends">
            <p class="sends-coverage" data-testid="sends-coverage">
                {move || format!("Loaded: {}.", store.coverage())}
            </p>
            <LoadAll loaded />
            <ExportCsv store />
        </section>
        <SendFilters filter=store.filter() loaded />
        {table}
        // Outside the rows' loading boundary: mounted once, it keeps its focus across pages.
        <Pager shown=store.shown_page() />
    }
}

/// "Export CSV" of the loaded sends (or those matching the filters), with its note.
#[component]
fn ExportCsv(store: SendsStore) -> impl IntoView {
    let (export_error, set_export_error) = signal(None::<String>);
    let on_export = move |_| {
        let text = store.export_csv();
        set_export_error
            .set(download_text(&file_name(&local_date()), "text/csv;charset=utf-8", &text).err());
    };
    view! {
        <div class="sends-export">
            <button
                type="button"
                class="button"
                on:click=on_export
                disabled=move || store.export_count() == 0
                data-testid="export-csv"
            >
                {move || store.export_label()}
            </button>
            <p class="field__hint">
                "One row per send, status history in one column. Cells starting with = + - or @ get a leading ' so spreadsheets do not run them as formulas."
            </p>
            {move || export_error.get().map(|e| view! { <p class="field__error" role="alert">{e}</p> })}
        </div>
    }
}

/// The platform's page of sends (no filter on).
#[component]
fn ServerPage(store: SendsStore) -> impl IntoView {
    view! {
        <Loaded resource=store.server_page() let:page>
            {page
                .map(|page| {
                    if page.sends.is_empty() {
                        Either::Left(view! { <Empty message="No sends on this page." /> })
                    } else {
                        Either::Right(
                            view! { <SendsTable sends=page.sends caption="Sends, newest first" /> },
                        )
                    }
                })}
        </Loaded>
    }
}

/// The loaded sends that match the filters, paged by the address like the platform's pages
/// (the screen's pager counts them: [`SendsStore::shown_page`]).
#[component]
fn FilteredSends(store: SendsStore) -> impl IntoView {
    let (matching, loaded, paging) = (store.matching(), store.loaded(), store.paging());
    move || {
        let (page, per_page) = paging.with(|p| (p.page.unwrap_or(1), p.per_page.unwrap_or(25)));
        let total = matching.with(Vec::len) as u64;
        let loaded_count = loaded.with(LoadedSends::len);
        let note = format!(
            "{total} of the {loaded_count} loaded sends match the filters{}.",
            if loaded.with(LoadedSends::is_complete) {
                ""
            } else {
                "; load all pages to search the whole history"
            }
        );
        let start = (u64::from(page.max(1)) - 1) * u64::from(per_page);
        let rows: Vec<Send> = matching.with(|m| {
            m.iter()
                .skip(start.min(usize::MAX as u64) as usize)
                .take(per_page as usize)
                .cloned()
                .collect()
        });
        let body = if loaded_count == 0 {
            Either::Left(view! {
                <Empty message="The filters search the loaded sends, and none are loaded yet: load all pages first." />
            })
        } else if rows.is_empty() {
            Either::Left(view! { <Empty message="No loaded send matches these filters." /> })
        } else {
            Either::Right(
                view! { <SendsTable sends=rows caption="Loaded sends matching the filters, newest first" /> },
            )
        };
        view! {
            <p class="sends-match-note" role="status" data-testid="filter-note">
                {note}
            </p>
            {body}
        }
    }
}
