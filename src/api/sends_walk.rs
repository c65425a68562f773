//! The send history read a page of [`PER_PAGE`] at a time, newest first, in a lane of the
//! token's pacer ([`crate::http::pacing`]): the one loop behind every walk of `/api/v3/send`
//! (the sends screen's "Load all", the home figures). Callers differ only in what they keep
//! of each page and where they stop, which the `each` they pass decides.

use gifting_api::paths::endpoint;
use gifting_api::rest::{PageQuery, SendPage, MAX_PER_PAGE};

use super::{ApiClient, ApiError};
use crate::http::pacing::Lane;

/// The largest `per_page` the platform allows: fewest requests for the whole history.
pub(crate) const PER_PAGE: u32 = MAX_PER_PAGE;

/// What the caller of [`walk_sends`] wants after a page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    Next,
    Stop,
}

/// How a walk ended.
#[derive(Debug, PartialEq)]
pub(crate) enum WalkEnd {
    /// After this page: the list's end, or the caller stopped.
    Finished { page: u32, at_end: bool },
    /// Before this page was read (cancelled: `ApiError::Cancelled`).
    Stopped { page: u32, error: ApiError },
}

/// Reads from page `from` on, handing each page to `each(page, body)`, until the list ends (a
/// page short of [`PER_PAGE`], or the last by the platform's `total_count`) or `each` says
/// [`Flow::Stop`].
pub(crate) async fn walk_sends(
    api: ApiClient,
    lane: &Lane,
    from: u32,
    mut each: impl FnMut(u32, SendPage) -> Flow,
) -> WalkEnd {
    let mut page = from.max(1);
    loop {
        let query = PageQuery::new(page, PER_PAGE);
        let call = endpoint::LIST_SENDS
            .call(&[])
            .query(&query.to_query_string());
        let body: SendPage = match api.get_paced(lane, call).await {
            Ok(body) => body,
            Err(error) => return WalkEnd::Stopped { page, error },
        };
        let at_end = body.sends.len() < PER_PAGE as usize
            || u64::from(page) * u64::from(PER_PAGE) >= body.total_count;
        if each(page, body) == Flow::Stop || at_end {
            return WalkEnd::Finished { page, at_end };
        }
        page = page.saturating_add(1);
    }
}
