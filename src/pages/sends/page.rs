//! `/sends`: the organization's sends.
//!
//! Without filters the table is the platform's page (`?page=&per_page=`). With a filter it is
//! the loaded sends that match, paged the same way, since the platform cannot filter: the
//! screen says how much of the history that covers, and "Load all pages" fetches the rest.
//! The state and the fetching (page cache, look-ahead) live in [`super::store::SendsStore`].

use leptos::either::Either;
use leptos::prelude::*;

use super::arrivals::NewSends;
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
use crate::i18n::{live_text, msg, M};

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
            <ScreenHeading title=M::SendsTitle />
            <section class="sends-tools" aria-label=M::SendsTools>
                <p class="sends-coverage" data-testid="sends-coverage">
                    {live_text(move || msg::sends_loaded(&store.coverage()))}
                </p>
                <LoadAll
                    loaded
                    walk=store.walk()
                    since=Signal::derive(move || store.filter().with(|f| f.since))
                    send=Signal::derive(move || store.filter().with(|f| f.send))
                    every=Signal::derive(move || store.filter().with(SendFilter::needs_every_send))
                />
                <ExportCsv store />
                <SavedViews list="sends" keys=&KEYS />
                <ColumnChooser columns />
            </section>
        </div>
        <Show when=move || store.filter().with(|f| f.mine.is_some())>
            <p class="notice" role="status" data-testid="sends-yours">{M::SendsOnlyYours}</p>
        </Show>
        <SendFilters filter=store.filter() loaded kept=store.kept() />
        <NewSends store />
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
                        Either::Left(view! { <Empty message=M::SendsPageEmpty /> })
                    } else {
                        Either::Right(
                            view! { <SendsTable sends=page.sends caption=M::SendsCaptionNewest columns /> },
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
    let walk = store.walk();
    let note = move || {
        let total = shown.with(Vec::len) as u64;
        let reading = walk.running();
        let answered = store.answered();
        loaded.with(|l| {
            store.filter().with(|f| {
                let note = coverage_note(l, store.filtering(), total, answered, reading);
                match range_note(l, f) {
                    Some(range) => format!("{note} {range}"),
                    None => note,
                }
            })
        })
    };
    // Apart from the note, so a new language redraws the note and not the rows.
    let body = move || {
        let (page, per_page) = paging.with(|p| (p.page.unwrap_or(1), p.per_page.unwrap_or(25)));
        let loaded_count = loaded.with(LoadedSends::len);
        let start = (u64::from(page.max(1)) - 1) * u64::from(per_page);
        let start = start.min(usize::MAX as u64) as usize;
        let rows = store.shown_sends(start, per_page as usize);
        let caption = if store.filtering() {
            M::SendsCaptionMatching
        } else {
            M::SendsCaptionLoaded
        };
        if loaded_count == 0 {
            Either::Left(view! { <Empty message=M::SendsNoneLoaded /> })
        } else if rows.is_empty() && store.answered() {
            Either::Left(view! { <Empty message=M::SendsNoneMatch /> })
        } else if rows.is_empty() {
            Either::Left(view! { <Empty message=M::SendsNoneMatchYet /> })
        } else {
            Either::Right(
                view! { <SendsTable sends=rows caption=caption presorted=true columns /> },
            )
        }
    };
    view! {
        <p class="sends-match-note" role="status" data-testid="filter-note">
            {note}
        </p>
        {body}
    }
}

/// Whether every send of the filter's days is loaded: "Every send created from Nov 1, 2026 to
/// Nov 30, 2026 is loaded.", or that the sends back to its first day are not all loaded yet.
fn range_note(loaded: &LoadedSends, filter: &SendFilter) -> Option<String> {
    let covered = filter
        .since
        .map_or(loaded.is_whole(), |d| loaded.covers_since(d));
    let (since, until) = (filter.since.map(format::day), filter.until.map(format::day));
    Some(match (since, until, covered) {
        (Some(since), Some(until), true) => msg::sends_range_loaded_between(&since, &until),
        (Some(since), Some(until), false) => msg::sends_range_partial_between(&since, &until),
        (Some(since), None, true) => msg::sends_range_loaded_since(&since),
        (Some(since), None, false) => msg::sends_range_partial_since(&since),
        (None, Some(until), true) => msg::sends_range_loaded_until(&until),
        (None, Some(until), false) => msg::sends_range_partial_until(&until),
        (None, None, _) => return None,
    })
}

/// What the filtered or sorted rows cover, in a sentence: the whole answer once `answered`
/// (every send the filter needs is read), else what was found so far while `reading`, or
/// that the rest is unread.
fn coverage_note(
    loaded: &LoadedSends,
    filtering: bool,
    matching: u64,
    answered: bool,
    reading: bool,
) -> String {
    let count = loaded.len() as u64;
    let all = format::count(count);
    let total = loaded.total().unwrap_or(count);
    let rest = if loaded.is_complete() {
        Rest::Nothing
    } else if loaded.is_whole() {
        Rest::Newer(loaded.newer())
    } else if answered {
        Rest::Covered
    } else if reading {
        Rest::Reading
    } else {
        Rest::Unread
    };
    match (filtering, rest) {
        (true, Rest::Newer(newer)) if newer > 0 => msg::sends_match_newer(matching, count, newer),
        (true, Rest::Nothing | Rest::Newer(_)) => msg::sends_match(matching, count),
        (true, Rest::Covered) => msg::sends_match_read(matching, count),
        (true, Rest::Reading) => msg::sends_match_partial(matching, &all, total),
        (true, Rest::Unread) => msg::sends_match_stopped(matching, &all, total),
        (false, Rest::Nothing) => msg::sends_sorted_complete(count),
        (false, Rest::Covered) => msg::sends_sorted(count),
        (false, Rest::Newer(newer)) => msg::sends_sorted_newer(count, newer),
        (false, Rest::Reading | Rest::Unread) => msg::sends_sorted_partial(count),
    }
}

/// What a coverage note says of the history beyond the loaded sends.
#[derive(Clone, Copy)]
enum Rest {
    /// Nothing: every send is loaded.
    Nothing,
    /// Every send the filter asks for is read (its days, or the one send), not the rest.
    Covered,
    /// This many sends arrived since the loaded ones were read.
    Newer(u64),
    /// Older sends are being read.
    Reading,
    /// Older sends are not read (the walk was cancelled or failed).
    Unread,
}
