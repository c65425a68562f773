//! `/sends`: the organization's sends.
//!
//! Without filters the table is the platform's page (`?page=&per_page=`). With a filter it is
//! the loaded sends that match, paged the same way, since the platform cannot filter: the
//! screen says how much of the history that covers, and "Load all pages" fetches the rest.
//! The state and the fetching (page cache, look-ahead) live in [`super::store::SendsStore`].

use leptos::either::Either;
use leptos::prelude::*;

use super::export::ExportCsv;
use super::filter::SendFilter;
use super::filter::{KEYS, REMEMBERED};
use super::filters_form::SendFilters;
use super::load_all::LoadAll;
use super::loaded::LoadedSends;
use super::overview::Overview;
use super::store::SendsStore;
use super::table::{SendsTable, SEND_COLUMNS};
use crate::components::format;
use crate::components::{remember_last_filters, SavedViews, ScreenHeading};
use crate::components::{ColumnChooser, Columns};
use crate::components::{Empty, Loaded, Pager};

#[component]
pub(crate) fn SendsPage() -> impl IntoView {
    remember_last_filters("sends", REMEMBERED);
    let store = SendsStore::for_current_screen();
    let columns = Columns::new("sends", SEND_COLUMNS);
    let loaded = store.loaded();
    let table = move || {
        if store.local() {
            Either::Left(view! { <FilteredSends store columns=columns.shown /> })
        } else {
            Either::Right(view! { <ServerPage store columns=columns.shown /> })
        }
    };
    let rows_came = Memo::new(move |came: Option<&bool>| {
        came.copied().unwrap_or(false) || store.shown_page().with(Option::is_some)
    });
    // The title, what is loaded and the actions share one line, the filters the next, so the
    // table starts high on a laptop; the overview (one line until opened) follows the table.
    view! {
        <div class="page-head">
            <ScreenHeading title="Sends" />
            <section class="sends-tools" aria-label="Loaded sends">
                <p class="sends-coverage" data-testid="sends-coverage">
                    {move || format!("Loaded: {}.", store.coverage())}
                </p>
                <LoadAll
                    loaded
                    since=Signal::derive(move || store.filter().with(|f| f.since))
                    send=Signal::derive(move || store.filter().with(|f| f.send))
                />
                <ExportCsv store />
                <SavedViews list="sends" keys=&KEYS />
                <ColumnChooser columns />
            </section>
        </div>
        <SendFilters filter=store.filter() loaded />
        {table}
        // Outside the rows' loading boundary: mounted once, it keeps its focus across pages.
        <Pager shown=store.shown_page() />
        // Once the first rows came: shown before them, it would jump down when they come.
        <Show when=move || rows_came.get()>
            <Overview summary=store.summary() covers=Signal::derive(move || store.covers()) />
        </Show>
    }
}

/// The platform's page of sends (no filter on).
#[component]
fn ServerPage(store: SendsStore, columns: Memo<Vec<usize>>) -> impl IntoView {
    view! {
        <Loaded resource=store.server_page() let:page>
            {page
                .map(|page| {
                    if page.sends.is_empty() {
                        Either::Left(view! { <Empty message="No sends on this page." /> })
                    } else {
                        Either::Right(
                            view! { <SendsTable sends=page.sends caption="Sends, newest first" columns /> },
                        )
                    }
                })}
        </Loaded>
    }
}

/// The loaded sends that match the filters (or all of them, sorted), paged by the address like
/// the platform's pages (the screen's pager counts them: [`SendsStore::shown_page`]). Only the
/// page on screen is made into whole sends.
#[component]
fn FilteredSends(store: SendsStore, columns: Memo<Vec<usize>>) -> impl IntoView {
    let (shown, loaded, paging) = (store.shown(), store.loaded(), store.paging());
    move || {
        let (page, per_page) = paging.with(|p| (p.page.unwrap_or(1), p.per_page.unwrap_or(25)));
        let total = shown.with(Vec::len) as u64;
        let loaded_count = loaded.with(LoadedSends::len);
        let note = loaded.with(|l| {
            store.filter().with(|f| {
                // A send asked for by its number, once loaded, is all there is to find.
                let found = f.send.is_some_and(|id| l.contains(id));
                match range_note(l, f) {
                    Some((range, covered)) => {
                        format!(
                            "{} {range}",
                            coverage_note(l, true, total, covered || found)
                        )
                    }
                    None => coverage_note(l, store.filtering(), total, found),
                }
            })
        });
        let start = (u64::from(page.max(1)) - 1) * u64::from(per_page);
        let start = start.min(usize::MAX as u64) as usize;
        let rows = store.shown_sends(start, per_page as usize);
        let caption = if store.filtering() {
            "Loaded sends matching the filters, newest first"
        } else {
            "Every loaded send"
        };
        let body = if loaded_count == 0 {
            Either::Left(view! {
                <Empty message="The filters search the loaded sends, and none are loaded yet: load all pages first." />
            })
        } else if rows.is_empty() {
            Either::Left(view! { <Empty message="No loaded send matches these filters." /> })
        } else {
            Either::Right(
                view! { <SendsTable sends=rows caption=caption presorted=true columns /> },
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

/// Whether every send of the filter's days is loaded: "Every send created from Nov 1, 2026 to
/// Nov 30, 2026 is loaded.", or that the sends back to its first day are not all loaded yet.
fn range_note(loaded: &LoadedSends, filter: &SendFilter) -> Option<(String, bool)> {
    let days = match (filter.since, filter.until) {
        (Some(since), Some(until)) => {
            format!("from {} to {}", format::day(since), format::day(until))
        }
        (Some(since), None) => format!("since {}", format::day(since)),
        (None, Some(until)) => format!("up to {}", format::day(until)),
        (None, None) => return None,
    };
    let covered = filter
        .since
        .map_or(loaded.is_whole(), |d| loaded.covers_since(d));
    let note = if covered {
        format!("Every send created {days} is loaded.")
    } else {
        format!("Not every send created {days} is loaded yet.")
    };
    Some((note, covered))
}

/// What the filtered or sorted rows cover, in a sentence; nothing about the rest of the
/// history when the filter's range is `covered`.
fn coverage_note(loaded: &LoadedSends, filtering: bool, matching: u64, covered: bool) -> String {
    let all = || format::count(loaded.len() as u64);
    let count = all();
    let rest = if loaded.is_complete() || covered {
        String::new()
    } else if loaded.is_whole() {
        format!(
            "; {} newer sends arrived since they were loaded",
            format::count(loaded.newer())
        )
    } else {
        "; load all pages to search the whole history".to_owned()
    };
    if filtering {
        format!(
            "{} of the {count} loaded sends match the filters{rest}.",
            format::count(matching)
        )
    } else if loaded.is_complete() {
        format!("All {} sends are loaded: sorted across all of them.", all())
    } else {
        format!("The {count} loaded sends are sorted across all of them{rest}.")
    }
}
