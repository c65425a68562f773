//! `/sends`: the organization's sends.
//!
//! Without filters the table is the platform's page (`?page=&per_page=`). With a filter it is
//! the loaded sends that match, paged the same way, since the platform cannot filter: the
//! screen says how much of the history that covers, and "Load all pages" fetches the rest.
//! The pages next to the one shown are fetched ahead (see [`super::page_cache`]).

use std::time::Duration;

use futures::future::{LocalBoxFuture, Shared};
use futures::FutureExt;
use gifting_api::paths;
use gifting_api::rest::{PageQuery, Send, SendPage};
use leptos::either::Either;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use super::csv::{file_name, sends_csv};
use super::filter::SendFilter;
use super::filters_form::SendFilters;
use super::load_all::LoadAll;
use super::loaded::LoadedSends;
use super::overview::Overview;
use super::page_cache::{neighbours, PageCache};
use super::summary::summarize;
use super::table::SendsTable;
use crate::api::use_api;
use crate::components::download::{download_text, local_date};
use crate::components::{use_page_query, Empty, Loaded, Pager};

/// A page being fetched ahead, awaitable by more than one reader.
type FetchAhead = Shared<LocalBoxFuture<'static, Option<SendPage>>>;

#[component]
pub fn SendsPage() -> impl IntoView {
    let api = use_api();
    let query = use_query_map();
    let paging = use_page_query();
    let filter = Memo::new(move |_| query.with(|q| SendFilter::from_query(|k| q.get(k))));
    let filtering = Memo::new(move |_| filter.with(SendFilter::is_active));
    let loaded = RwSignal::new(LoadedSends::default());

    let cache = StoredValue::new_local(PageCache::default());
    // Pages being fetched ahead right now: opening one of them waits for that answer instead
    // of asking the platform a second time.
    let ahead = StoredValue::new_local(Vec::<(PageQuery, FetchAhead)>::new());
    // Pages fetched here (shown or fetched ahead) join the loaded sends after the rows paint,
    // so a page change never waits for the overview, filters and coverage note.
    let store_later = move |page: SendPage| {
        request_animation_frame(move || {
            set_timeout(
                move || {
                    loaded.try_update(|l| {
                        l.insert_page(
                            page.current_page,
                            page.per_page,
                            page.total_count,
                            &page.sends,
                        )
                    });
                },
                Duration::ZERO,
            )
        });
    };
    // Fetches the pages around the one on screen (see `page_cache`), after it is painted.
    let prefetch_around = move |shown: PageQuery, total: u64| {
        let wanted: Vec<PageQuery> = cache.with_value(|c| {
            neighbours(&shown, total)
                .into_iter()
                .filter(|q| c.fresh(q, js_sys::Date::now()).is_none())
                .collect()
        });
        if wanted.is_empty() {
            return;
        }
        request_animation_frame(move || {
            leptos::task::spawn_local(async move {
                for query in wanted {
                    let path = format!("{}{}", paths::V3_SENDS, query.to_query_string());
                    // Opportunistic: a failure here is simply a page fetched when opened.
                    let fetch = async move { api.get_json::<SendPage>(&path).await.ok() }
                        .boxed_local()
                        .shared();
                    ahead.try_update_value(|a| a.push((query, fetch.clone())));
                    let answer = fetch.await;
                    ahead.try_update_value(|a| a.retain(|(q, _)| *q != query));
                    let Some(page) = answer else {
                        return;
                    };
                    if cache
                        .try_update_value(|c| c.put(query, js_sys::Date::now(), page.clone()))
                        .is_none()
                    {
                        return;
                    }
                    store_later(page);
                }
            });
        });
    };

    // The platform's page, only while no filter is on (filters work on the loaded sends).
    let server_page = LocalResource::new(move || {
        let paging = paging.get();
        let filtering = filtering.get();
        async move {
            if filtering {
                return Ok(None);
            }
            let cached = cache
                .try_with_value(|c| c.fresh(&paging, js_sys::Date::now()).cloned())
                .flatten();
            let fetching_ahead = ahead
                .try_with_value(|a| a.iter().find(|(q, _)| *q == paging).map(|(_, f)| f.clone()))
                .flatten();
            let cached = match (cached, fetching_ahead) {
                (Some(page), _) => Some(page),
                // Its failure is no answer for this page: then it is fetched below as usual.
                (None, Some(fetch)) => fetch.await,
                (None, None) => None,
            };
            let page = match cached {
                Some(page) => page,
                None => {
                    let path = format!("{}{}", paths::V3_SENDS, paging.to_query_string());
                    let page: SendPage = api.get_json(&path).await?;
                    cache.try_update_value(|c| c.put(paging, js_sys::Date::now(), page.clone()));
                    store_later(page.clone());
                    page
                }
            };
            prefetch_around(paging, page.total_count);
            Ok(Some(page))
        }
    });

    let matching = Memo::new(move |_| {
        if !filtering.get() {
            return Vec::new();
        }
        filter.with(|f| {
            let keep = f.matcher();
            loaded.with(|l| l.iter().filter(|s| keep(s)).cloned().collect::<Vec<Send>>())
        })
    });
    let per_page = Memo::new(move |_| paging.with(|p| p.per_page.unwrap_or(25)));
    let coverage = Memo::new(move |_| loaded.with(|l| l.coverage_text(per_page.get())));

    let summary = Memo::new(move |_| {
        if filtering.get() {
            matching.with(|m| summarize(m))
        } else {
            loaded.with(|l| summarize(l.iter()))
        }
    });
    let covers = Signal::derive(move || {
        let loaded_count = loaded.with(LoadedSends::len);
        if filtering.get() {
            format!(
                "Covers the {} loaded sends that match the filters, out of {loaded_count} loaded ({}).",
                matching.with(Vec::len),
                coverage.get()
            )
        } else if loaded_count == 0 {
            "Covers nothing yet: no sends are loaded.".to_string()
        } else {
            format!(
                "Covers the {loaded_count} loaded sends ({}). Load all pages to cover the whole history.",
                coverage.get()
            )
        }
    });

    let export_label = move || {
        if filtering.get() {
            format!(
                "Export CSV ({} sends matching the filters)",
                matching.with(Vec::len)
            )
        } else {
            format!(
                "Export CSV ({} loaded sends)",
                loaded.with(LoadedSends::len)
            )
        }
    };
    let export_count = move || {
        if filtering.get() {
            matching.with(Vec::len)
        } else {
            loaded.with(LoadedSends::len)
        }
    };
    let (export_error, set_export_error) = signal(None::<String>);
    let on_export = move |_| {
        let text = if filtering.get_untracked() {
            matching.with_untracked(|m| sends_csv(m))
        } else {
            loaded.with_untracked(|l| sends_csv(l.iter()))
        };
        set_export_error
            .set(download_text(&file_name(&local_date()), "text/csv;charset=utf-8", &text).err());
    };

    let table = move || {
        if filtering.get() {
            Either::Left(view! { <FilteredSends matching loaded /> })
        } else {
            Either::Right(view! {
                <Loaded resource=server_page let:page>
                    {page
                        .map(|page| {
                            let (total, current, size) =
                                (page.total_count, page.current_page, page.per_page);
                            if page.sends.is_empty() {
                                Either::Left(view! {
                                    <Empty message="No sends on this page." />
                                    <Pager total page=current per_page=size />
                                })
                            } else {
                                Either::Right(view! {
                                    <SendsTable sends=page.sends caption="Sends, newest first" />
                                    <Pager total page=current per_page=size />
                                })
                            }
                        })}
                </Loaded>
            })
        }
    };

    view! {
        <h1>"Sends"</h1>
        <Overview summary=Signal::from(summary) covers />
        <section class="sends-tools" aria-label="Loaded sends">
            <p class="sends-coverage" data-testid="sends-coverage">
                {move || format!("Loaded: {}.", coverage.get())}
            </p>
            <LoadAll loaded />
            <div class="sends-export">
                <button
                    type="button"
                    class="button"
                    on:click=on_export
                    disabled=move || export_count() == 0
                    data-testid="export-csv"
                >
                    {export_label}
                </button>
                <p class="field__hint">
                    "One row per send, status history in one column. Cells starting with = + - or @ get a leading ' so spreadsheets do not run them as formulas."
                </p>
                {move || export_error.get().map(|e| view! { <p class="field__error" role="alert">{e}</p> })}
            </div>
        </section>
        <SendFilters filter loaded />
        {table}
    }
}

/// The loaded sends that match the filters, paged by the address like the platform's pages.
#[component]
fn FilteredSends(matching: Memo<Vec<Send>>, loaded: RwSignal<LoadedSends>) -> impl IntoView {
    let paging = crate::components::use_page_query();
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
            <Pager total />
        }
    }
}
