//! A fixed-window rate limiter: at most N requests per key in each window. The sandbox keys
//! it by token (per second, the platform's throttle); the gateway by client address (per
//! minute, on the token relay).

use std::collections::HashMap;
use std::hash::Hash;
use std::time::{Duration, Instant};

/// Above this many keys, windows that have ended are dropped, so a flood of distinct keys
/// cannot grow the map without bound.
const PURGE_ABOVE: usize = 10_000;

#[derive(Debug)]
pub struct RateLimiter<K> {
    limit: u32,
    window: Duration,
    start: Instant,
    /// Per key: the index of its current window and the requests counted in it.
    windows: HashMap<K, (u64, u32)>,
}

impl<K: Hash + Eq> RateLimiter<K> {
    /// `limit` requests per `window`; 0 means no limit.
    pub fn new(limit: u32, window: Duration) -> Self {
        RateLimiter {
            limit,
            window: window.max(Duration::from_millis(1)),
            start: Instant::now(),
            windows: HashMap::new(),
        }
    }

    /// Counts one request for `key`. `Err(seconds)` when it is over the limit: how long until
    /// the window ends (at least 1, for a `Retry-After`).
    pub fn allow(&mut self, key: K) -> Result<(), u64> {
        if self.limit == 0 {
            return Ok(());
        }
        let elapsed = self.start.elapsed();
        let window_ms = self.window.as_millis().max(1);
        let now = u64::try_from(elapsed.as_millis() / window_ms).unwrap_or(u64::MAX);
        if self.windows.len() > PURGE_ABOVE {
            self.windows.retain(|_, (w, _)| *w == now);
        }
        let entry = self.windows.entry(key).or_insert((now, 0));
        if entry.0 != now {
            *entry = (now, 0);
        }
        entry.1 = entry.1.saturating_add(1);
        if entry.1 <= self.limit {
            return Ok(());
        }
        let ends_ms = (u128::from(now) + 1) * window_ms;
        let left_ms = ends_ms.saturating_sub(elapsed.as_millis());
        Err(u64::try_from(left_ms.div_ceil(1000))
            .unwrap_or(u64::MAX)
            .max(1))
    }

    /// How many keys are tracked (for tests of the bound).
    pub fn tracked(&self) -> usize {
        self.windows.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_per_key_within_a_window() {
        let mut l = RateLimiter::new(2, Duration::from_secs(3600));
        assert_eq!(l.allow(1), Ok(()));
        assert_eq!(l.allow(1), Ok(()));
        let refused = l.allow(1).expect_err("third in the window");
        assert!((1..=3600).contains(&refused), "{refused}");
        assert_eq!(l.allow(2), Ok(()));
        assert_eq!(RateLimiter::new(0, Duration::from_secs(1)).allow(1), Ok(()));
    }

    #[test]
    fn a_new_window_starts_over() {
        let mut l = RateLimiter::new(1, Duration::from_millis(20));
        assert_eq!(l.allow("a"), Ok(()));
        std::thread::sleep(Duration::from_millis(45));
        assert_eq!(l.allow("a"), Ok(()));
    }

    #[test]
    fn stays_bounded_under_many_keys() {
        let mut l = RateLimiter::new(5, Duration::from_millis(10));
        for k in 0..PURGE_ABOVE as u32 {
            let _ = l.allow(k);
        }
        std::thread::sleep(Duration::from_millis(25));
        for k in 0..50_u32 {
            let _ = l.allow(u32::MAX - k);
        }
        assert!(l.tracked() <= PURGE_ABOVE + 1, "{}", l.tracked());
    }
}
