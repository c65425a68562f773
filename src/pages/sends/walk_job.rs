//! "Load all pages" as a job ([`crate::jobs`]): walks the whole send history ([`walk_sends`])
//! into the session's loaded sends ([`super::memory`]), going on when the admin leaves the
//! screen, under the console's one pacing policy ([`crate::http::pacing`]).
//!
//! Against a platform that moves (sends arriving while it walks, docs/platform.md), the loaded
//! sends are kept by their place counted from the oldest ([`super::loaded`]): a send that
//! arrives pushes the others down, so later pages repeat some sends (kept once) and never
//! skip one. A walk from page 1 to the end therefore holds every send the list had when it
//! read page 1, each once; the sends that arrived meanwhile are counted and offered ("342
//! arrived while loading: Load them"), which reads from page 1 until it meets sends already
//! loaded. Statuses and costs are as each page was read.
//!
//! Job work: plain data in, the job's own client and result out; nothing of a screen.

use futures::future::LocalBoxFuture;
use gifting_api::paths::endpoint;
use gifting_api::rest::{page_count, PageQuery, SendPage};
use leptos::prelude::{ArcRwSignal, Notify, Update, UpdateUntracked, WithUntracked};

use crate::components::format::{self, count};
use crate::i18n::{msg, t, M};

use super::filter::day_number;
use super::loaded::LoadedSends;
use crate::api::sends_walk::{walk_sends, Flow, WalkEnd, PER_PAGE};
use crate::api::ApiError;
use crate::browser::now_ms;
use crate::components::jobs_indicator;
use crate::jobs::{self, JobCtx, JobEnd, JobHandle, JobKind, JobState};
use crate::routes;

/// How often a running walk shows what it loaded so far: the first page at once, so a search's
/// first matches show as soon as they are read, then every second while it holds few sends.
/// Each showing works over every send held (the matches, the choices' counts, the overview),
/// and the walk waits for it: past [`MANY`] sends held, every [`SHOW_MANY_EVERY_MS`] (the
/// job's own progress, page by page, needs none of it).
const SHOW_EVERY_MS: i64 = 1_000;
const MANY: usize = 10_000;
const SHOW_MANY_EVERY_MS: i64 = 15_000;

/// Where a walk starts and when it stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Walk {
    /// From `page` to the end of the list.
    From(u64),
    /// From page 1 until a page holds only sends already loaded: the ones that arrived.
    Newest,
    /// As [`Walk::Newest`], then the pages holding a send not yet in a final status, read again
    /// (the held sends kept fresh when the screen is shown again).
    Refresh,
    /// From page 1 until a send created before this day (`20261001`): every send since.
    Since(u32),
    /// From page 1 until the page that holds this send.
    Find(u64),
}

/// A walk as its screen shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct WalkRun {
    /// Where "Resume" starts, after a cancel or a failure.
    pub(crate) resume_page: Option<u64>,
    pub(crate) failure: Option<String>,
    /// A walk back to a day ([`Walk::Since`]) reached it: every send since is loaded.
    pub(crate) since_loaded: Option<u32>,
    /// A walk looking for a send ([`Walk::Find`]) met it.
    pub(crate) found: Option<u64>,
}

impl WalkRun {
    /// The walk stopped where it meant to, before the end of the list: the older sends are
    /// left unread on purpose.
    pub(crate) fn stopped_short(&self) -> bool {
        self.since_loaded.is_some() || self.found.is_some()
    }
}

/// "page 3 of 12", or "page 1" while the number of pages is not known yet.
pub(crate) fn progress_text(page: u64, pages: Option<u64>) -> String {
    match pages {
        Some(pages) => msg::sends_walk_page_of(&count(page.min(pages)), &count(pages)),
        None => msg::sends_walk_page(&count(page)),
    }
}

/// Starts a walk into `loaded` as a job.
pub(crate) fn start(loaded: ArcRwSignal<LoadedSends>, walk: Walk) -> JobHandle<WalkRun> {
    let title = match walk {
        Walk::Newest => t(M::SendsWalkTitleNewest).to_owned(),
        Walk::Refresh => t(M::SendsWalkTitleRefresh).to_owned(),
        Walk::From(_) => t(M::SendsWalkTitleAll).to_owned(),
        Walk::Since(day) => msg::sends_walk_title_since(&format::day(day)),
        Walk::Find(id) => msg::sends_walk_title_find(&id.to_string()),
    };
    jobs_indicator::show();
    jobs::start(
        JobKind::SendsWalk,
        title,
        routes::SENDS.to_owned(),
        (loaded, walk),
        run,
    )
}

fn run(
    (loaded, walk): (ArcRwSignal<LoadedSends>, Walk),
    ctx: JobCtx<WalkRun>,
) -> LocalBoxFuture<'static, JobEnd> {
    Box::pin(work(loaded, walk, ctx))
}

async fn work(loaded: ArcRwSignal<LoadedSends>, walk: Walk, ctx: JobCtx<WalkRun>) -> JobEnd {
    let from = match walk {
        Walk::From(page) => page.clamp(1, u64::from(u32::MAX)) as u32,
        Walk::Newest | Walk::Refresh | Walk::Since(_) | Walk::Find(_) => 1,
    };
    let mut pages = None;
    reading(&ctx, u64::from(from), pages);
    let mut shown_at = 0;
    let mut since_reached = false;
    let end = walk_sends(ctx.api, &ctx.lane, from, |page, body| {
        let new = loaded.update_untracked(|l| {
            l.insert_page(
                body.current_page,
                body.per_page,
                body.total_count,
                &body.sends,
            )
        });
        pages = Some(page_count(body.total_count, PER_PAGE));
        let every = if held_count(&loaded) < MANY {
            SHOW_EVERY_MS
        } else {
            SHOW_MANY_EVERY_MS
        };
        if now_ms() - shown_at >= every {
            shown_at = now_ms();
            loaded.notify();
        }
        let stop = match walk {
            Walk::Since(day) => {
                since_reached = body
                    .sends
                    .last()
                    .and_then(|s| day_number(&s.created_at))
                    .is_some_and(|d| d < day);
                since_reached
            }
            Walk::Newest | Walk::Refresh => new < body.sends.len(),
            Walk::Find(id) => body.sends.iter().any(|s| s.id == id),
            Walk::From(_) => false,
        };
        if stop {
            return Flow::Stop;
        }
        reading(&ctx, u64::from(page) + 1, pages);
        Flow::Next
    })
    .await;
    match (end, walk) {
        (WalkEnd::Stopped { page, error }, _) => {
            let failure = (error != ApiError::Cancelled).then(|| error.user_message());
            stopped(&ctx, &loaded, (u64::from(page), pages), failure)
        }
        (WalkEnd::Finished { at_end, .. }, Walk::Since(day)) if since_reached || at_end => {
            reached(&ctx, &loaded, day)
        }
        (WalkEnd::Finished { .. }, Walk::Find(id)) if loaded.with_untracked(|l| l.contains(id)) => {
            found(&ctx, &loaded, id)
        }
        (WalkEnd::Finished { .. }, Walk::Refresh) => {
            match reread_in_progress(&loaded, &ctx).await {
                Ok(()) => done(&ctx, &loaded, walk),
                Err((page, error)) => {
                    let failure = (error != ApiError::Cancelled).then(|| error.user_message());
                    let end = stopped(&ctx, &loaded, (u64::from(page), None), failure);
                    ctx.result.update(|r| r.resume_page = None);
                    end
                }
            }
        }
        (WalkEnd::Finished { .. }, _) => done(&ctx, &loaded, walk),
    }
}

/// Reads again each page holding a send not yet in a final status: the sends that can still
/// change (there is no read of one send). Stops at the first failure: that page and the error.
async fn reread_in_progress(
    loaded: &ArcRwSignal<LoadedSends>,
    ctx: &JobCtx<WalkRun>,
) -> Result<(), (u32, ApiError)> {
    let pages = loaded.with_untracked(|l| l.pages_in_progress(PER_PAGE));
    let of = pages.len() as u64;
    for (done, page) in pages.into_iter().enumerate() {
        let note = msg::sends_walk_rereading(&count(done as u64 + 1), of);
        ctx.progress(done as u64, Some(of), note);
        let query = PageQuery::new(page, PER_PAGE).to_query_string();
        let call = endpoint::LIST_SENDS.call(&[]).query(&query);
        let body: SendPage = ctx
            .api
            .get_paced(&ctx.lane, call)
            .await
            .map_err(|e| (page, e))?;
        loaded.update_untracked(|l| {
            l.insert_page(
                body.current_page,
                body.per_page,
                body.total_count,
                &body.sends,
            )
        });
    }
    loaded.notify();
    Ok(())
}

/// How many sends are held, untracked.
fn held_count(loaded: &ArcRwSignal<LoadedSends>) -> usize {
    loaded.with_untracked(LoadedSends::len)
}

/// Shows that `page` of `pages` is being read: the pages done before it are the job's steps.
fn reading(ctx: &JobCtx<WalkRun>, page: u64, pages: Option<u64>) {
    ctx.progress(
        page.saturating_sub(1),
        pages,
        msg::sends_walk_loading(&progress_text(page, pages)),
    );
}

/// A walk back to `day` reached it: the loaded sends hold every send since (not the whole
/// list, so nothing is marked walked).
fn reached(ctx: &JobCtx<WalkRun>, loaded: &ArcRwSignal<LoadedSends>, day: u32) -> JobEnd {
    loaded.update(|l| l.mark_since(day));
    ctx.result.update(|r| {
        r.resume_page = None;
        r.since_loaded = Some(day);
    });
    JobEnd {
        state: JobState::Done,
        note: msg::sends_walk_since_done(&format::day(day)),
    }
}

/// A walk looking for a send met it.
fn found(ctx: &JobCtx<WalkRun>, loaded: &ArcRwSignal<LoadedSends>, id: u64) -> JobEnd {
    loaded.notify();
    ctx.result.update(|r| {
        r.resume_page = None;
        r.found = Some(id);
    });
    JobEnd {
        state: JobState::Done,
        note: msg::sends_walk_found(&id.to_string()),
    }
}

/// The walk ended: a walk to the end holds the whole list now; a read of the newest pages
/// keeps it whole if it was (it read down to the sends held), and says only that otherwise.
fn done(ctx: &JobCtx<WalkRun>, loaded: &ArcRwSignal<LoadedSends>, walk: Walk) -> JobEnd {
    if matches!(walk, Walk::From(_)) {
        loaded.update_untracked(LoadedSends::mark_walked);
    }
    loaded.notify();
    if !loaded.with_untracked(LoadedSends::is_whole) {
        ctx.result.update(|r| r.resume_page = None);
        return JobEnd {
            state: JobState::Done,
            note: t(M::SendsWalkNewestDone).to_owned(),
        };
    }
    let (held, total) = loaded.with_untracked(|l| (l.len() as u64, l.total().unwrap_or(0)));
    let arrived = total.saturating_sub(held);
    ctx.result.update(|r| r.resume_page = None);
    let note = if arrived == 0 {
        msg::sends_walk_done(held)
    } else {
        msg::sends_walk_done_arrived(&count(held), total, arrived)
    };
    JobEnd {
        state: JobState::Done,
        note,
    }
}

fn stopped(
    ctx: &JobCtx<WalkRun>,
    loaded: &ArcRwSignal<LoadedSends>,
    (page, pages): (u64, Option<u64>),
    failure: Option<String>,
) -> JobEnd {
    loaded.notify();
    ctx.result.update(|r| {
        r.resume_page = Some(page);
        r.failure = failure.clone();
    });
    match failure {
        Some(message) => JobEnd {
            state: JobState::Failed,
            note: msg::sends_walk_failed(&progress_text(page, pages), &message),
        },
        None => JobEnd {
            state: JobState::Cancelled,
            note: msg::sends_walk_cancelled(&progress_text(page, pages)),
        },
    }
}
