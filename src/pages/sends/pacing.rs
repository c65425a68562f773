//! How "Load all pages" treats the platform: at most [`MAX_REQUESTS_PER_SECOND`], and when
//! the platform still says "too many requests" after the request layer's own retries, the
//! walk waits as long as the platform asked (`Retry-After`) and goes on, instead of failing.
//! Plain functions of their inputs, so they are tested without a browser.

/// The walk's own pace, below the platform's documented rate limits.
pub(crate) const MAX_REQUESTS_PER_SECOND: u64 = 5;
pub(crate) const MIN_INTERVAL_MS: u64 = 1000 / MAX_REQUESTS_PER_SECOND;
/// The largest `per_page` the platform allows: fewest requests for the whole history.
pub(crate) const WALK_PER_PAGE: u32 = gifting_api::rest::MAX_PER_PAGE;
/// Waits after "busy" answers without a `Retry-After`: 1 s, 2 s, 4 s… up to this.
pub(crate) const MAX_BACKOFF_MS: u64 = 30_000;
/// A `Retry-After` longer than this is still honoured, but only up to this long per wait.
pub(crate) const MAX_WAIT_MS: u64 = 120_000;
/// After this many "busy" answers in a row the walk stops and offers to resume.
pub(crate) const MAX_BUSY_IN_A_ROW: u32 = 30;

/// How long to wait before the next request so requests start at most
/// [`MAX_REQUESTS_PER_SECOND`] a second. `last_start_ms` is when the previous one started.
pub(crate) fn pace_delay_ms(last_start_ms: Option<f64>, now_ms: f64) -> u64 {
    match last_start_ms {
        None => 0,
        Some(last) => {
            let since = (now_ms - last).max(0.0);
            (MIN_INTERVAL_MS as f64 - since).max(0.0).ceil() as u64
        }
    }
}

/// The wait after the `busy_in_a_row`-th "busy" answer in a row (1-based), given the
/// platform's `Retry-After` in seconds if it sent one. `None`: stop and let the user resume.
pub(crate) fn busy_wait_ms(retry_after_s: Option<u64>, busy_in_a_row: u32) -> Option<u64> {
    if busy_in_a_row == 0 || busy_in_a_row > MAX_BUSY_IN_A_ROW {
        return None;
    }
    let backoff = 1000u64
        .saturating_mul(1 << (busy_in_a_row - 1).min(16))
        .min(MAX_BACKOFF_MS);
    Some(match retry_after_s {
        // At least a second: "Retry-After: 0" from a busy server would otherwise spin.
        Some(s) => s.saturating_mul(1000).clamp(1000, MAX_WAIT_MS),
        None => backoff,
    })
}

/// "page 3 of 12", or "page 1" while the number of pages is not known yet.
pub(crate) fn progress_text(page: u64, pages: Option<u64>) -> String {
    match pages {
        Some(pages) => format!("page {} of {pages}", page.min(pages)),
        None => format!("page {page}"),
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn paces_to_five_requests_a_second() {
        assert_eq!(MIN_INTERVAL_MS, 200);
        assert_eq!(pace_delay_ms(None, 1_000.0), 0);
        assert_eq!(pace_delay_ms(Some(1_000.0), 1_050.0), 150);
        assert_eq!(pace_delay_ms(Some(1_000.0), 1_200.0), 0);
        assert_eq!(pace_delay_ms(Some(1_000.0), 5_000.0), 0);
        // A clock that went backwards never makes the wait longer than one interval.
        assert_eq!(pace_delay_ms(Some(1_000.0), 900.0), 200);
    }

    #[wasm_bindgen_test]
    fn waits_out_retry_after_and_backs_off_without_it() {
        assert_eq!(busy_wait_ms(Some(2), 1), Some(2_000));
        assert_eq!(busy_wait_ms(Some(0), 1), Some(1_000));
        assert_eq!(busy_wait_ms(Some(3_600), 1), Some(MAX_WAIT_MS));
        assert_eq!(busy_wait_ms(None, 1), Some(1_000));
        assert_eq!(busy_wait_ms(None, 3), Some(4_000));
        assert_eq!(busy_wait_ms(None, 20), Some(MAX_BACKOFF_MS));
        assert_eq!(busy_wait_ms(Some(1), MAX_BUSY_IN_A_ROW), Some(1_000));
        assert_eq!(busy_wait_ms(Some(1), MAX_BUSY_IN_A_ROW + 1), None);
    }

    #[wasm_bindgen_test]
    fn progress_reads_like_a_sentence() {
        assert_eq!(progress_text(3, Some(12)), "page 3 of 12");
        assert_eq!(progress_text(1, None), "page 1");
        assert_eq!(progress_text(13, Some(12)), "page 12 of 12");
    }
}
