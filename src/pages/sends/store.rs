//! The sends screen's state, shared by its parts: what the address asks for (filter, page),
//! the loaded sends, and the platform page shown while no filter is on, with its page cache
//! and look-ahead (see [`super::page_cache`]).
//!
//! Why a store: the overview, the export, the filters, "Load all pages" and the table all read
//! the same loaded sends; keeping the fetching and the sums here leaves the components to draw.

use futures::future::{LocalBoxFuture, Shared};
use futures::FutureExt;
use gifting_api::paths::{endpoint, Call};
use gifting_api::rest::{PageQuery, Send, SendPage, DEFAULT_PER_PAGE};
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use send_wrapper::SendWrapper;

use super::filter::SendFilter;
use super::loaded::LoadedSends;
use super::page_cache::{neighbours, PageCache};
use super::summary::Summary;
use super::views::Kept;
use super::walk_job::WalkRun;
use crate::api::{use_api, use_current_user, ApiClient, ApiError};
use crate::browser::{self, now_ms};
use crate::components::format::count;
use crate::components::sort::{use_table_sort, TableSort};
use crate::components::{use_job, UseJob};
use crate::components::{use_page_query, ShownPage};
use crate::i18n::{msg, t, M};
use crate::jobs::JobKind;

/// A page being fetched ahead, awaitable by more than one reader.
type FetchAhead = Shared<LocalBoxFuture<'static, Option<SendPage>>>;

/// The platform's pages: fetched, kept fresh for a while and fetched ahead.
#[derive(Clone, Copy)]
struct Pages {
    api: ApiClient,
    loaded: RwSignal<LoadedSends>,
    cache: StoredValue<PageCache>,
    /// Pages being fetched ahead right now: opening one of them waits for that answer instead
    /// of asking the platform a second time.
    ahead: StoredValue<SendWrapper<Vec<(PageQuery, FetchAhead)>>>,
}

fn sends_call(query: &PageQuery) -> Call {
    endpoint::LIST_SENDS
        .call(&[])
        .query(&query.to_query_string())
}

impl Pages {
    /// The page for `paging`: fresh from the cache, from a fetch ahead, or asked for now.
    /// Then the pages around it are fetched ahead.
    async fn page(self, paging: PageQuery) -> Result<SendPage, ApiError> {
        let page = match self.cached(&paging).await {
            Some(page) => page,
            None => {
                let page: SendPage = self.api.get_json(sends_call(&paging)).await?;
                self.cache
                    .try_update_value(|c| c.put(paging, now_ms(), page.clone()));
                self.store_later(page.clone());
                page
            }
        };
        self.prefetch_around(paging, page.total_count);
        Ok(page)
    }

    async fn cached(self, paging: &PageQuery) -> Option<SendPage> {
        let cached = self
            .cache
            .try_with_value(|c| c.fresh(paging, now_ms()).cloned())
            .flatten();
        let fetching_ahead = self
            .ahead
            .try_with_value(|a| a.iter().find(|(q, _)| q == paging).map(|(_, f)| f.clone()))
            .flatten();
        match (cached, fetching_ahead) {
            (Some(page), _) => Some(page),
            // Its failure is no answer for this page: then the caller fetches it as usual.
            (None, Some(fetch)) => fetch.await,
            (None, None) => None,
        }
    }

    /// Pages fetched here (shown or fetched ahead) join the loaded sends after the rows paint,
    /// so a page change never waits for the overview, filters and coverage note.
    fn store_later(self, page: SendPage) {
        let loaded = self.loaded;
        browser::after_paint(move || {
            loaded.try_update(|l| {
                l.insert_page(
                    page.current_page,
                    page.per_page,
                    page.total_count,
                    &page.sends,
                )
            });
        });
    }

    /// Fetches the pages around the one on screen (see `page_cache`), after it is painted.
    fn prefetch_around(self, shown: PageQuery, total: u64) {
        let wanted: Vec<PageQuery> = self.cache.with_value(|c| {
            neighbours(&shown, total)
                .into_iter()
                .filter(|q| c.fresh(q, now_ms()).is_none())
                .collect()
        });
        if wanted.is_empty() {
            return;
        }
        request_animation_frame(move || {
            leptos::task::spawn_local(async move {
                for query in wanted {
                    if !self.fetch_ahead(query).await {
                        return;
                    }
                }
            });
        });
    }

    /// Fetches `query` ahead into the cache; false when the look-ahead should stop (a failure,
    /// or the screen is gone).
    async fn fetch_ahead(self, query: PageQuery) -> bool {
        let (api, call) = (self.api, sends_call(&query));
        // Opportunistic: a failure here is simply a page fetched when opened.
        let fetch = async move { api.get_json::<SendPage>(call).await.ok() }
            .boxed_local()
            .shared();
        self.ahead
            .try_update_value(|a| a.push((query, fetch.clone())));
        let answer = fetch.await;
        self.ahead
            .try_update_value(|a| a.retain(|(q, _)| *q != query));
        let Some(page) = answer else {
            return false;
        };
        let cached = self
            .cache
            .try_update_value(|c| c.put(query, now_ms(), page.clone()));
        if cached.is_none() {
            return false;
        }
        self.store_later(page);
        true
    }
}

fn shown_of(page: &SendPage) -> ShownPage {
    ShownPage::new(page.total_count, page.current_page, page.per_page)
}

/// The sends screen's state; create it once in the screen's body (its requests end with it).
#[derive(Clone, Copy)]
pub(crate) struct SendsStore {
    filter: Memo<SendFilter>,
    filtering: Memo<bool>,
    paging: Memo<PageQuery>,
    loaded: RwSignal<LoadedSends>,
    /// The platform's page, only while no filter is on (filters work on the loaded sends).
    server_page: LocalResource<Result<Option<SendPage>, ApiError>>,
    pages: Pages,
    /// What the filter keeps of the loaded sends, and each choice's count beside it.
    kept: Memo<Kept>,
    /// The loaded sends' rows that match the filter (empty while none is on).
    matching: Memo<Vec<u32>>,
    /// Whether the matching rows are the filter's whole answer: every send it needs is read.
    answered: Memo<bool>,
    /// The latest walk of the sends, one view of it for every part of the screen (a walk one
    /// part starts, every part sees).
    walk: UseJob<WalkRun>,
    /// Whether the table shows the loaded sends (filtered, or sorted over all of them) rather
    /// than the platform's page.
    local: Memo<bool>,
    /// The rows the local table pages through: matching (or all), in the chosen order.
    shown: Memo<Vec<u32>>,
    coverage: Memo<String>,
    summary: Memo<Summary>,
    shown_page: Memo<Option<ShownPage>>,
}

impl SendsStore {
    pub(crate) fn for_current_screen() -> Self {
        let query = use_query_map();
        let paging = use_page_query();
        let mine = mine();
        let filter = Memo::new(move |_| {
            let mut filter = query.with(|q| SendFilter::from_query(|k| q.get(k)));
            filter.mine = mine.get().flatten();
            filter
        });
        let filtering = Memo::new(move |_| filter.with(SendFilter::is_active));
        // The session's loaded sends: a walk started here goes on when the screen is left.
        let loaded = RwSignal::from(super::memory::loaded());
        let pages = Pages {
            api: use_api(),
            loaded,
            cache: StoredValue::new(PageCache::default()),
            ahead: StoredValue::new(SendWrapper::new(Vec::new())),
        };
        let server_page = server_page_of(pages, paging, mine, filtering);
        let kept = Memo::new(move |_| filter.with(|f| loaded.with(|l| l.kept(f))));
        let matching = Memo::new(move |_| {
            if !filtering.get() {
                return Vec::new();
            }
            kept.with(|k| k.rows.clone())
        });
        let answered = Memo::new(move |_| filter.with(|f| loaded.with(|l| l.answers(f))));
        let sort = use_table_sort();
        // Without a filter, a sort covers every loaded send once all are loaded; until then
        // it sorts the platform's page on screen, as the table always did.
        let local = Memo::new(move |_| {
            filtering.get()
                || (sort.with(|s| s.column.is_some()) && loaded.with(LoadedSends::is_whole))
        });
        let shown = Memo::new(move |_| {
            if !local.get() {
                return Vec::new();
            }
            let mut rows = if filtering.get() {
                matching.get()
            } else {
                loaded.with(|l| l.order().collect())
            };
            sort.with(|s: &TableSort| loaded.with(|l| l.sort_rows(&mut rows, s)));
            rows
        });
        let per_page = Memo::new(move |_| paging.with(|p| p.per_page.unwrap_or(25)));
        let coverage = Memo::new(move |_| loaded.with(|l| l.coverage_text(per_page.get())));
        let summary = Memo::new(move |_| {
            loaded.with(|l| {
                if filtering.get() {
                    matching.with(|m| l.summary(m.iter().copied()))
                } else {
                    l.summary(l.order())
                }
            })
        });
        let so_far = Memo::new(move |_| filtering.get() && !answered.get());
        let shown_page = shown_page_of(local, so_far, shown, paging, server_page);
        SendsStore {
            filter,
            filtering,
            paging,
            loaded,
            server_page,
            pages,
            kept,
            matching,
            answered,
            walk: use_job(JobKind::SendsWalk),
            local,
            shown,
            coverage,
            summary,
            shown_page,
        }
    }

    /// Where the rows on screen sit, for the screen's one pager: the platform's page, or the
    /// page of the matching sends while filtering.
    pub(crate) fn shown_page(&self) -> Memo<Option<ShownPage>> {
        self.shown_page
    }

    pub(crate) fn filter(&self) -> Memo<SendFilter> {
        self.filter
    }

    /// What the filter keeps, with each choice's count (see [`LoadedSends::kept`]).
    pub(crate) fn kept(&self) -> Memo<Kept> {
        self.kept
    }

    /// The latest walk of the sends (see the field).
    pub(crate) fn walk(&self) -> UseJob<WalkRun> {
        self.walk
    }

    /// Whether the rows matching the filter are its whole answer (else: found so far).
    pub(crate) fn answered(&self) -> bool {
        self.answered.get()
    }

    pub(crate) fn filtering(&self) -> bool {
        self.filtering.get()
    }

    /// The platform's pages are read afresh: new sends arrived, and the admin asked to see
    /// them (pages fetched before show the list as it was).
    pub(crate) fn read_newest_again(&self) {
        self.pages.cache.update_value(|c| *c = PageCache::default());
        self.server_page.refetch();
    }

    /// Page and size from the address (both optional).
    pub(crate) fn paging(&self) -> Memo<PageQuery> {
        self.paging
    }

    pub(crate) fn loaded(&self) -> RwSignal<LoadedSends> {
        self.loaded
    }

    pub(crate) fn server_page(&self) -> LocalResource<Result<Option<SendPage>, ApiError>> {
        self.server_page
    }

    /// Whether the table shows the loaded sends (see [`SendsStore::shown`]).
    pub(crate) fn local(&self) -> bool {
        self.local.get()
    }

    /// The rows the local table pages through, in order.
    pub(crate) fn shown(&self) -> Memo<Vec<u32>> {
        self.shown
    }

    /// The sends of rows `start..start + count` of [`SendsStore::shown`], whole, for the table.
    pub(crate) fn shown_sends(&self, start: usize, count: usize) -> Vec<Send> {
        self.shown.with(|rows| {
            self.loaded.with(|l| {
                rows.iter()
                    .skip(start)
                    .take(count)
                    .filter_map(|&r| l.rows.send(r))
                    .collect()
            })
        })
    }

    /// Which pages are loaded, e.g. "pages 1–3 of 12".
    pub(crate) fn coverage(&self) -> String {
        self.coverage.get()
    }

    pub(crate) fn summary(&self) -> Signal<Summary> {
        self.summary.into()
    }

    fn loaded_count(&self) -> usize {
        self.loaded.with(LoadedSends::len)
    }

    /// What the overview's numbers cover.
    pub(crate) fn covers(&self) -> String {
        let loaded_count = self.loaded_count();
        let matching = self.matching.with(Vec::len) as u64;
        if self.filtering() && !self.answered() {
            let total = self.loaded.with(|l| l.total().unwrap_or(0));
            msg::sends_covers_so_far(matching, &count(loaded_count as u64), total)
        } else if self.filtering() {
            msg::sends_covers_matching(matching, loaded_count as u64)
        } else if loaded_count == 0 {
            t(M::SendsCoversNothing).to_owned()
        } else {
            msg::sends_covers_loaded(loaded_count as u64, &self.coverage())
        }
    }

    /// How many sends the export writes: the matching ones while filtering, else all loaded.
    pub(crate) fn export_count(&self) -> usize {
        if self.filtering() {
            self.matching.with(Vec::len)
        } else {
            self.loaded_count()
        }
    }

    pub(crate) fn export_label(&self) -> String {
        let n = self.export_count() as u64;
        if self.filtering() && !self.answered() {
            msg::sends_export_so_far(n)
        } else if self.filtering() {
            msg::sends_export_matching(n)
        } else {
            msg::sends_export_loaded(n)
        }
    }

    /// What the export's rows were filtered by, for its file name (empty when it writes every
    /// loaded send).
    pub(crate) fn export_file_part(&self) -> String {
        if self.filtering.get_untracked() {
            self.filter.with_untracked(SendFilter::file_part)
        } else {
            String::new()
        }
    }

    /// The rows the export writes, in the platform's order, read once (on a click).
    pub(crate) fn export_rows(&self) -> Vec<u32> {
        if self.filtering.get_untracked() {
            self.matching.get_untracked()
        } else {
            self.loaded.with_untracked(|l| l.order().collect())
        }
    }
}

/// The platform's page the address asks for, while no filter is on.
fn server_page_of(
    pages: Pages,
    paging: Memo<PageQuery>,
    mine: Memo<Option<Option<String>>>,
    filtering: Memo<bool>,
) -> LocalResource<Result<Option<SendPage>, ApiError>> {
    LocalResource::new(move || {
        let paging = paging.get();
        // Until /me says whose sends these are, no page: a sender sees only their own.
        let known = mine.get().is_some();
        let filtering = filtering.get();
        async move {
            if filtering || !known {
                return Ok(None);
            }
            pages.page(paging).await.map(Some)
        }
    })
}

/// Where the rows on screen sit, for the screen's one pager: the local rows (filtered, or all
/// sorted) paged by the address, or the platform's page on screen until the next replaces it.
fn shown_page_of(
    local: Memo<bool>,
    so_far: Memo<bool>,
    shown: Memo<Vec<u32>>,
    paging: Memo<PageQuery>,
    server_page: LocalResource<Result<Option<SendPage>, ApiError>>,
) -> Memo<Option<ShownPage>> {
    Memo::new(move |_| {
        if local.get() {
            let total = shown.with(Vec::len) as u64;
            let (page, per_page) = paging.with(|p| (p.page, p.per_page));
            let (page, per_page) = (page.unwrap_or(1), per_page.unwrap_or(DEFAULT_PER_PAGE));
            return Some(if so_far.get() {
                ShownPage::so_far(total, page, per_page)
            } else {
                ShownPage::new(total, page, per_page)
            });
        }
        // The page on screen until the next one replaces it (the resource keeps it).
        server_page
            .map(|r| r.as_ref().ok().and_then(Option::as_ref).map(shown_of))
            .flatten()
    })
}

/// Whose sends the screen lists, as /me tells: `None` until it answers; then a sender's own
/// email (the platform lists every send to any token: the console shows a sender their own, a
/// view and not a boundary, see SECURITY.md), or `Some(None)` for everyone's. A failed /me
/// shows everyone's: the platform decides what a token may read.
fn mine() -> Memo<Option<Option<String>>> {
    let me = use_current_user();
    Memo::new(move |_| match me.get()? {
        Ok(me) => Some((me.role == gifting_api::Role::Sender).then_some(me.email)),
        Err(ApiError::Unauthorized) => None,
        Err(_) => Some(None),
    })
}
