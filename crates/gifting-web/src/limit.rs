//! A fixed-window rate limiter: at most N requests per key in each window. The sandbox keys
//! it by token (per second, the platform's throttle); the gateway by client address (per
//! minute, on the token relay).

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::time::{Duration, Instant};

/// Keys tracked at most. A key beyond it evicts the oldest key of the current window: one
/// flood of distinct keys can then let an early key start over, but can never grow the
/// memory, nor slow every request with a scan under the lock.
pub const MAX_KEYS: usize = 10_000;

/// Expired entries dropped per request, so cleaning is spread thinly over the requests.
const CLEAN_PER_CALL: usize = 8;

#[derive(Debug)]
pub struct RateLimiter<K> {
    limit: u32,
    window: Duration,
    start: Instant,
    capacity: usize,
    /// Per key: the index of its current window and the requests counted in it.
    windows: HashMap<K, (u64, u32)>,
    /// Keys in the order their window started (a key appears again for each new window):
    /// the front is the oldest, so eviction and cleaning look only there.
    order: VecDeque<(K, u64)>,
    /// Every key's allowance is used up until [`RateLimiter::reset`] (the sandbox's test hook).
    exhausted: bool,
}

impl<K: Hash + Eq + Clone> RateLimiter<K> {
    /// `limit` requests per `window`; 0 means no limit.
    pub fn new(limit: u32, window: Duration) -> Self {
        Self::with_capacity(limit, window, MAX_KEYS)
    }

    /// As [`RateLimiter::new`], tracking at most `capacity` keys.
    pub fn with_capacity(limit: u32, window: Duration, capacity: usize) -> Self {
        RateLimiter {
            limit,
            window: window.max(Duration::from_millis(1)),
            start: Instant::now(),
            capacity: capacity.max(1),
            windows: HashMap::new(),
            order: VecDeque::new(),
            exhausted: false,
        }
    }

    /// Forgets every count and ends an [`exhaust`](RateLimiter::exhaust): each key has its
    /// whole allowance again, now, as if a new window had just begun.
    pub fn reset(&mut self) {
        self.windows.clear();
        self.order.clear();
        self.exhausted = false;
    }

    /// Uses up every key's allowance until [`reset`](RateLimiter::reset): each request is
    /// refused, as when someone else on the same key takes every window's allowance first.
    pub fn exhaust(&mut self) {
        self.exhausted = true;
    }

    /// Drops the front entry of `order`; true if it removed a tracked key. With `expired_only`
    /// it stops (false) at an entry of the current window.
    fn pop_front(&mut self, now: u64, expired_only: bool) -> Option<bool> {
        let (_, window) = self.order.front()?;
        if expired_only && *window == now {
            return None;
        }
        let (key, window) = self.order.pop_front()?;
        let current = self.windows.get(&key).is_some_and(|(w, _)| *w == window);
        if current {
            self.windows.remove(&key);
        }
        Some(current)
    }

    /// Counts one request for `key`. `Err(seconds)` when it is over the limit: how long until
    /// the window ends (at least 1, for a `Retry-After`).
    pub fn allow(&mut self, key: K) -> Result<(), u64> {
        self.allow_at(key, Instant::now())
    }

    /// [`RateLimiter::allow`] at the instant `at` (tests pass their own clock).
    fn allow_at(&mut self, key: K, at: Instant) -> Result<(), u64> {
        if self.limit == 0 {
            return Ok(());
        }
        let elapsed = at.saturating_duration_since(self.start);
        let window_ms = self.window.as_millis().max(1);
        let now = u64::try_from(elapsed.as_millis() / window_ms).unwrap_or(u64::MAX);
        let left_s = || {
            let ends_ms = (u128::from(now) + 1) * window_ms;
            let left_ms = ends_ms.saturating_sub(elapsed.as_millis());
            u64::try_from(left_ms.div_ceil(1000))
                .unwrap_or(u64::MAX)
                .max(1)
        };
        if self.exhausted {
            return Err(left_s());
        }
        for _ in 0..CLEAN_PER_CALL {
            if self.pop_front(now, true).is_none() {
                break;
            }
        }
        let fresh = self.windows.get(&key).is_none_or(|(w, _)| *w != now);
        if fresh {
            while self.windows.len() >= self.capacity && !self.windows.contains_key(&key) {
                if self.pop_front(now, false).is_none() {
                    break;
                }
            }
            self.windows.insert(key.clone(), (now, 0));
            self.order.push_back((key.clone(), now));
        }
        let count = match self.windows.get_mut(&key) {
            Some(entry) => {
                entry.1 = entry.1.saturating_add(1);
                entry.1
            }
            None => 1,
        };
        if count <= self.limit {
            return Ok(());
        }
        Err(left_s())
    }

    /// How many keys are tracked (for tests of the bound).
    pub fn tracked(&self) -> usize {
        self.windows.len()
    }
}

/// The key a client address counts under: an IPv4 address as it is, an IPv6 address by its
/// /64 (one subscriber's network: a host picks any address in it at will), an IPv4 address
/// mapped into IPv6 as the IPv4 address.
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from(v6.to_bits() & !u128::from(u64::MAX))),
        },
    }
}

/// The client address of one entry of a forwarding header (the last of `X-Forwarded-For`,
/// say), as proxies write it: `ip`, `ip:port`, `[v6]` or `[v6]:port`. `None` for anything
/// else (`unknown`, an obfuscated name, garbage).
pub fn forwarded_address(entry: &str) -> Option<IpAddr> {
    let entry = entry.trim();
    let bracketed = || {
        entry
            .strip_prefix('[')?
            .strip_suffix(']')?
            .parse::<Ipv6Addr>()
            .ok()
    };
    entry
        .parse()
        .ok()
        .or_else(|| entry.parse::<SocketAddr>().ok().map(|s| s.ip()))
        .or_else(|| bracketed().map(IpAddr::V6))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forwarded_entries_in_every_form_proxies_write() {
        let v4: IpAddr = "203.0.113.7".parse().expect("ip");
        let v6: IpAddr = "2001:db8::7".parse().expect("ip");
        for (entry, want) in [
            ("203.0.113.7", v4),
            (" 203.0.113.7 ", v4),
            ("203.0.113.7:4711", v4),
            ("2001:db8::7", v6),
            ("[2001:db8::7]", v6),
            ("[2001:db8::7]:443", v6),
            (" [2001:db8::7]:443", v6),
        ] {
            assert_eq!(forwarded_address(entry), Some(want), "{entry:?}");
        }
        for bad in [
            "",
            "unknown",
            "_hidden",
            "203.0.113.7:",
            "203.0.113.7:port",
            "203.0.113.7:99999",
            "[2001:db8::7",
            "2001:db8::7]:443",
            "[203.0.113.7]",
            "example.com:80",
        ] {
            assert_eq!(forwarded_address(bad), None, "{bad:?}");
        }
    }

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

    /// `ms` after the limiter started, on the test's own clock.
    fn after<K>(l: &RateLimiter<K>, ms: u64) -> Instant {
        l.start + Duration::from_millis(ms)
    }

    #[test]
    fn a_new_window_starts_over() {
        let mut l = RateLimiter::new(1, Duration::from_millis(20));
        assert_eq!(l.allow_at("a", after(&l, 0)), Ok(()));
        assert!(l.allow_at("a", after(&l, 19)).is_err(), "the same window");
        assert_eq!(l.allow_at("a", after(&l, 45)), Ok(()), "two windows later");
    }

    #[test]
    fn stays_bounded_under_many_keys() {
        let mut l = RateLimiter::new(5, Duration::from_millis(10));
        for k in 0..MAX_KEYS as u32 {
            let _ = l.allow_at(k, after(&l, 0));
        }
        // Two windows later the old keys' entries have expired.
        for k in 0..50_u32 {
            let _ = l.allow_at(u32::MAX - k, after(&l, 25));
        }
        assert!(l.tracked() <= MAX_KEYS, "{}", l.tracked());
    }

    #[test]
    fn reset_gives_every_key_its_allowance_now_and_exhaust_takes_it() {
        let mut l = RateLimiter::new(1, Duration::from_secs(3600));
        assert_eq!(l.allow(1), Ok(()));
        assert!(l.allow(1).is_err());
        l.reset();
        assert_eq!(l.allow(1), Ok(()), "the same window, counted afresh");
        l.exhaust();
        let refused = l
            .allow(2)
            .expect_err("a key never seen has nothing left either");
        assert!((1..=3600).contains(&refused), "{refused}");
        l.reset();
        assert_eq!(l.allow(2), Ok(()));
        let mut unlimited = RateLimiter::new(0, Duration::from_secs(1));
        unlimited.exhaust();
        assert_eq!(unlimited.allow(1), Ok(()), "no limit, nothing to use up");
    }

    /// Past the bound, a new key costs what the first did (no scan of every key
    /// under the lock), and the table never holds more than its capacity, even when every key
    /// is in the current window.
    #[test]
    fn a_full_table_stays_cheap_and_bounded() {
        let mut l = RateLimiter::new(5, Duration::from_secs(3600));
        let started = Instant::now();
        for k in 0..(MAX_KEYS as u32 * 20) {
            let _ = l.allow(k);
            assert!(l.tracked() <= MAX_KEYS);
        }
        // 200,000 calls: a scan of 10,000 keys on each would take minutes, not this.
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        assert_eq!(l.tracked(), MAX_KEYS);
        assert!(l.order.len() <= MAX_KEYS * 2, "{}", l.order.len());
        // The newest keys are still counted.
        let newest = MAX_KEYS as u32 * 20 - 1;
        for _ in 0..4 {
            assert_eq!(l.allow(newest), Ok(()));
        }
        assert!(l.allow(newest).is_err());
    }

    #[test]
    fn ipv6_clients_count_by_their_64() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().expect("ip");
        let b: IpAddr = "2001:db8:1:2:ffff:ffff:ffff:ffff".parse().expect("ip");
        let other: IpAddr = "2001:db8:1:3::1".parse().expect("ip");
        assert_eq!(address_key(a), address_key(b));
        assert_ne!(address_key(a), address_key(other));
        let mapped: IpAddr = "::ffff:192.0.2.7".parse().expect("ip");
        assert_eq!(
            address_key(mapped),
            "192.0.2.7".parse::<IpAddr>().expect("ip")
        );
        let v4: IpAddr = "192.0.2.8".parse().expect("ip");
        assert_eq!(address_key(v4), v4);
        let mut l = RateLimiter::new(2, Duration::from_secs(3600));
        assert_eq!(l.allow(address_key(a)), Ok(()));
        assert_eq!(l.allow(address_key(b)), Ok(()));
        assert!(
            l.allow(address_key(a)).is_err(),
            "a second address of the /64"
        );
        assert_eq!(l.allow(address_key(other)), Ok(()));
    }
}
