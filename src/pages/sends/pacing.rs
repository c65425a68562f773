//! How "Load all pages" treats the platform: as fast as it allows, and no faster.
//!
//! The platform documents no rate limit and sends no rate-limit headers (docs/platform.md:
//! busy answers "may carry `Retry-After`"), so the walk learns it: it asks as fast as answers
//! come until the platform first refuses one (429), then spaces its requests at the rate that
//! got through before that refusal (see [`Pace::refused`]), a little wider ([`MARGIN`]). Each
//! later refusal lowers the pace to what got through then, and a pace that
//! collapsed (someone else on the same token used the allowance) climbs back toward the best
//! seen after [`RECOVER_MS`] without a refusal. A refused request is waited out as long as the
//! platform asked (`Retry-After`), by the walk alone: it asks through
//! `ApiClient::get_json_self_paced`, which hands busy answers straight back instead of
//! waiting them out too.
//! Plain functions of their inputs (times in ms), so they are tested without a browser.

use std::collections::VecDeque;

/// The span the platform counts requests over ("N requests per second per token").
pub(crate) const WINDOW_MS: f64 = 1_000.0;
/// Requests are spaced this much wider than the learned rate, so one that reaches the platform
/// a little late does not land in a window that is already full.
pub(crate) const MARGIN: f64 = 0.02;
/// After this long without a refusal, a pace below half the best one seen (it collapsed)
/// climbs one request per window.
pub(crate) const RECOVER_MS: f64 = 5_000.0;
/// The largest `per_page` the platform allows: fewest requests for the whole history.
pub(crate) const WALK_PER_PAGE: u32 = gifting_api::rest::MAX_PER_PAGE;

/// What the walk learned about the platform's rate limit.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Pace {
    /// Requests per window the platform lets through; `None` until it refused one.
    rate: Option<u32>,
    /// The most that got through in a window while paced (a reliable measure), for climbing
    /// back after a collapse.
    best: u32,
    /// Start times of the answered requests of the last window, oldest first.
    recent: VecDeque<f64>,
    /// Requests answered since the last refusal (or the start).
    since_refusal: u32,
    /// When the pace last changed.
    changed_at: f64,
}

impl Pace {
    /// The learned rate, requests per [`WINDOW_MS`].
    #[cfg(test)]
    pub(crate) fn rate(&self) -> Option<u32> {
        self.rate
    }

    /// How long to wait at `now` before the next request, the previous one having started at
    /// `last_start`: nothing until a rate is learned, then one interval between starts.
    pub(crate) fn delay_ms(&self, last_start: Option<f64>, now: f64) -> u64 {
        let (Some(rate), Some(last)) = (self.rate, last_start) else {
            return 0;
        };
        let interval = WINDOW_MS / f64::from(rate.max(1)) * (1.0 + MARGIN);
        (interval - (now - last).max(0.0)).max(0.0).ceil() as u64
    }

    /// The request started at `started` was answered.
    pub(crate) fn answered(&mut self, started: f64) {
        self.forget_before(started - WINDOW_MS);
        self.recent.push_back(started);
        self.since_refusal = self.since_refusal.saturating_add(1);
        if let Some(rate) = self.rate {
            let collapsed = rate.saturating_mul(2) < self.best;
            if collapsed && started - self.changed_at >= RECOVER_MS {
                self.rate = Some(rate + 1);
                self.changed_at = started;
            }
        }
    }

    /// The platform refused the request started at `started` (429): the pace becomes what got
    /// through before it, never more than it was. "What got through" is the fewer of the
    /// answers in the window before the refusal and those since the previous refusal: after
    /// a wait the platform's window is fresh, so whichever window the refusal fell in held at
    /// least its whole allowance of the latter, and a window counting from the platform's
    /// own boundaries never holds more than the former.
    pub(crate) fn refused(&mut self, started: f64) {
        self.forget_before(started - WINDOW_MS);
        let got_through = (self.recent.len() as u32).min(self.since_refusal);
        self.rate = Some(match self.rate {
            None => got_through.max(1),
            Some(rate) => {
                self.best = self.best.max(got_through);
                got_through.min(rate).max(1)
            }
        });
        self.since_refusal = 0;
        self.changed_at = started;
    }

    fn forget_before(&mut self, t: f64) {
        while self.recent.front().is_some_and(|&s| s <= t) {
            self.recent.pop_front();
        }
    }
}

#[cfg(test)]
/// The floor the rate limit sets on a walk: `requests` at `rate` a second, in ms.
pub(crate) fn floor_ms(requests: u64, rate: u32) -> f64 {
    requests as f64 * WINDOW_MS / f64::from(rate.max(1))
}

/// Waits after "busy" answers without a `Retry-After`: 1 s, 2 s, 4 s… up to this.
pub(crate) const MAX_BACKOFF_MS: u64 = 30_000;
/// A `Retry-After` longer than this is still honoured, but only up to this long per wait.
pub(crate) const MAX_WAIT_MS: u64 = 120_000;
/// After this many "busy" answers in a row the walk stops and offers to resume.
pub(crate) const MAX_BUSY_IN_A_ROW: u32 = 30;

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

    /// A platform allowing `limit` requests in each fixed second (as the sandbox counts),
    /// whose windows start at `phase` ms; a walk of `requests` that takes `answer_ms` per
    /// answer. Returns when the last request was answered.
    fn simulate(limit: u32, phase: f64, requests: u64, answer_ms: f64) -> f64 {
        let mut pace = Pace::default();
        let (mut now, mut done, mut last_start) = (0.0_f64, 0, None);
        let mut used: std::collections::HashMap<i64, u32> = Default::default();
        while done < requests {
            now += pace.delay_ms(last_start, now) as f64;
            last_start = Some(now);
            let window = ((now - phase) / 1_000.0).floor() as i64;
            let count = used.entry(window).or_default();
            *count += 1;
            if *count <= limit {
                pace.answered(now);
                done += 1;
                now += answer_ms;
            } else {
                pace.refused(now);
                // Retry-After: 1, as the sandbox says.
                now += answer_ms + busy_wait_ms(Some(1), 1).unwrap_or(0) as f64;
            }
        }
        now
    }

    #[wasm_bindgen_test]
    fn asks_as_fast_as_answers_come_until_refused() {
        let pace = Pace::default();
        assert_eq!(pace.delay_ms(None, 1_000.0), 0);
        assert_eq!(pace.delay_ms(Some(999.0), 1_000.0), 0);
        assert_eq!(pace.rate(), None);
    }

    #[wasm_bindgen_test]
    fn settles_at_the_rate_that_got_through() {
        let mut pace = Pace::default();
        for i in 0..10 {
            pace.answered(f64::from(i) * 30.0);
        }
        pace.refused(300.0);
        assert_eq!(pace.rate(), Some(10));
        // 102 ms between starts: 10 a second and the margin.
        assert_eq!(pace.delay_ms(Some(1_300.0), 1_300.0), 102);
        assert_eq!(pace.delay_ms(Some(1_300.0), 1_350.0), 52);
        assert_eq!(pace.delay_ms(Some(1_300.0), 1_500.0), 0);
        // A clock that went backwards never makes the wait longer than one interval.
        assert_eq!(pace.delay_ms(Some(1_300.0), 1_200.0), 102);
        // Refused while paced: down to what got through in the window before.
        for i in 0..10 {
            pace.answered(1_300.0 + f64::from(i) * 102.0);
        }
        pace.refused(2_320.0);
        assert_eq!(pace.rate(), Some(9));
        assert_eq!(floor_ms(1_000, 10), 100_000.0);
    }

    #[wasm_bindgen_test]
    fn a_collapsed_pace_climbs_back_toward_the_best() {
        let mut pace = Pace::default();
        for i in 0..8 {
            pace.answered(f64::from(i) * 20.0);
        }
        pace.refused(160.0);
        assert_eq!(pace.rate(), Some(8));
        // Paced, 8 got through, then someone else took the allowance: 1 got through.
        for i in 0..8 {
            pace.answered(1_000.0 + f64::from(i) * 120.0);
        }
        pace.refused(1_970.0);
        assert_eq!(pace.rate(), Some(8));
        pace.answered(2_500.0);
        pace.refused(2_600.0);
        assert_eq!(pace.rate(), Some(1));
        pace.answered(5_000.0);
        assert_eq!(pace.rate(), Some(1), "not before RECOVER_MS");
        pace.answered(2_600.0 + RECOVER_MS);
        assert_eq!(pace.rate(), Some(2));
        // Climbs only up to half the best seen (8): then it stays.
        let mut t = 2_600.0 + RECOVER_MS;
        for _ in 0..20 {
            t += RECOVER_MS;
            pace.answered(t);
        }
        assert_eq!(pace.rate(), Some(4));
    }

    #[wasm_bindgen_test]
    fn a_walk_under_a_rate_limit_stays_within_a_tenth_of_its_floor() {
        // 1,000 requests at 10 a second: the floor is 100 s. Whatever the windows' phase
        // and however fast the platform answers, the walk ends within 1.1 × the floor.
        for phase in [0.0, 130.0, 333.0, 500.0, 710.0, 999.0] {
            for answer_ms in [5.0, 30.0, 60.0] {
                let took = simulate(10, phase, 1_000, answer_ms);
                let ratio = took / floor_ms(1_000, 10);
                assert!(
                    ratio <= 1.1,
                    "phase {phase}, answers {answer_ms} ms: {ratio}"
                );
                assert!(ratio >= 0.98, "faster than the limit allows: {ratio}");
            }
        }
        // 200 requests (the e2e's mid-sized world at 100 a page takes 30).
        let ratio = simulate(10, 400.0, 200, 30.0) / floor_ms(200, 10);
        assert!(ratio <= 1.15, "{ratio}");
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
