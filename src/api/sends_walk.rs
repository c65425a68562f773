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
///
/// One page at a time, in order: sends arriving during the walk push older ones down the
/// pages, so a page read after the next could miss a send that moved down between the two
/// reads. In order, an arrival can only make a send met twice (the callers count it once).
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

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;

    use leptos::prelude::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::api::testing::{platform, signed_in_app};
    use crate::api::{api_with_scope, CancelScope};
    use crate::http::transport::{fake_platform, take_fake_platform};

    fn client() -> (Owner, ApiClient) {
        let app = signed_in_app();
        let api = app.with(|| api_with_scope(CancelScope::new()));
        (app, api)
    }

    /// Walks from `from` (stopping after page `stop_after`), the fake platform gone after: how
    /// it ended and the ids of the sends read.
    async fn walk(
        api: ApiClient,
        lane: &Lane,
        from: u32,
        stop_after: Option<u32>,
    ) -> (WalkEnd, Vec<u64>) {
        let mut ids = Vec::new();
        let end = walk_sends(api, lane, from, |page, body| {
            ids.extend(body.sends.iter().map(|s| s.id));
            if Some(page) == stop_after {
                Flow::Stop
            } else {
                Flow::Next
            }
        })
        .await;
        fake_platform(None);
        (end, ids)
    }

    /// One test: one hold on the fake platform for the three.
    #[wasm_bindgen_test]
    async fn walks_against_a_fake_platform() {
        let _platform = take_fake_platform().await;
        a_walk_reads_every_page_once_to_the_end_of_the_list().await;
        a_walk_stops_where_its_caller_says_or_resumes_from_a_page().await;
        a_walk_refused_waits_and_goes_on_and_a_failure_says_where_it_stopped().await;
    }

    async fn a_walk_reads_every_page_once_to_the_end_of_the_list() {
        let asked = Rc::new(RefCell::new(Vec::new()));
        // 300 sends: the third page is full, and the last by the total.
        platform(300, asked.clone(), |_| None);
        let (_app, api) = client();
        let (end, ids) = walk(api, &Lane::default(), 1, None).await;
        let finished = WalkEnd::Finished {
            page: 3,
            at_end: true,
        };
        assert_eq!(end, finished);
        assert_eq!(*asked.borrow(), vec![1, 2, 3], "no page past the total");
        assert_eq!((ids.len(), ids.first()), (300, Some(&300)));
    }

    async fn a_walk_stops_where_its_caller_says_or_resumes_from_a_page() {
        let asked = Rc::new(RefCell::new(Vec::new()));
        platform(1_000, asked.clone(), |_| None);
        let (_app, api) = client();
        let (end, ids) = walk(api, &Lane::default(), 4, Some(5)).await;
        let stopped = WalkEnd::Finished {
            page: 5,
            at_end: false,
        };
        assert_eq!(end, stopped);
        assert_eq!(*asked.borrow(), vec![4, 5]);
        assert_eq!(ids.first(), Some(&700), "page 4 begins at the 301st newest");
    }

    async fn a_walk_refused_waits_and_goes_on_and_a_failure_says_where_it_stopped() {
        let asked = Rc::new(RefCell::new(Vec::new()));
        let refused = Rc::new(RefCell::new(false));
        let once = refused.clone();
        // Page 2 is "busy" once (Retry-After: 1), page 3 is forbidden.
        platform(1_000, asked.clone(), move |page| match page {
            2 if !once.replace(true) => Some((429, r#"{"error":"slow down"}"#.into())),
            3 => Some((403, r#"{"error":"no"}"#.into())),
            _ => None,
        });
        let (_app, api) = client();
        let lane = Lane::new(Rc::new(crate::http::pacing::Pacer::default()));
        let (end, _) = walk(api, &lane, 1, None).await;
        assert!(*refused.borrow());
        assert_eq!(
            *asked.borrow(),
            vec![1, 2, 2, 3],
            "page 2 asked again after the wait"
        );
        match end {
            WalkEnd::Stopped { page: 3, error } => {
                assert!(matches!(error, ApiError::Forbidden { .. }), "{error:?}")
            }
            other => panic!("{other:?}"),
        }
        // Cancelled: nothing is asked.
        asked.borrow_mut().clear();
        platform(1_000, asked.clone(), |_| None);
        lane.stop();
        let (end, _) = walk(api, &lane, 7, None).await;
        assert_eq!(
            end,
            WalkEnd::Stopped {
                page: 7,
                error: ApiError::Cancelled
            }
        );
        assert!(asked.borrow().is_empty());
    }
}
