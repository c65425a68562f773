//! The retry policy of the request layer, as plain functions of their inputs.
//!
//! No browser calls here (the jitter and the clock are passed in), so the policy is tested on
//! the host and in the browser alike. What it decides:
//! - Only reads are retried. A write (SCIM create/replace) is not idempotent: repeating it
//!   blindly could create a user twice, so the page gets the error and lets the user resend.
//! - A read is retried after a network failure, a 5xx or a 429, at most [`MAX_TRIES`] tries in
//!   all.
//! - The wait grows exponentially with "equal jitter" (half fixed, half random) so many tabs
//!   failing together do not come back in lockstep.
//! - A `Retry-After` the platform sends is honoured: the wait is never shorter than it. One
//!   longer than [`RetryPolicy::max_retry_after_ms`] is not waited out silently; the error
//!   goes to the page, which tells the user when to try again.
//! - A timeout is not retried: the request already took [`REQUEST_TIMEOUT_MS`], and making the
//!   user wait that long three times over is worse than offering "Try again".

/// Tries per read request, the first one included.
pub const MAX_TRIES: u32 = 3;

/// How long one request may take before it is aborted.
pub const REQUEST_TIMEOUT_MS: u32 = 15_000;

/// Whether a request may safely be repeated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RequestKind {
    /// GET: repeating it changes nothing on the platform.
    Read,
    /// POST/PUT: never repeated automatically.
    Write,
}

/// What one try ended with, as far as retrying is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The request never got an answer (connection refused or dropped, DNS, CORS).
    Network,
    /// No answer within the timeout.
    Timeout,
    /// An HTTP answer with this status.
    Status(u16),
}

/// What to do after a failed try.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Wait this long, then try again. `busy` is set when the platform said it is overloaded
    /// (429 or 503), so the console can say "the platform is busy, retrying in N s".
    Retry { delay_ms: u64, busy: bool },
    /// Hand the error to the page.
    GiveUp,
}

/// The numbers of the policy. [`RetryPolicy::default`] is what the console uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Tries in all, the first one included.
    pub max_tries: u32,
    /// The wait before the second try, before jitter.
    pub base_delay_ms: u64,
    /// The longest backoff wait, before jitter.
    pub max_delay_ms: u64,
    /// The longest `Retry-After` the console waits out on its own.
    pub max_retry_after_ms: u64,
    /// Whether a busy answer (429, 503) is retried here. A caller that paces its own requests
    /// (the sends walk) turns this off and waits itself, so the two waits never add up.
    pub retry_busy: bool,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_tries: MAX_TRIES,
            base_delay_ms: 500,
            max_delay_ms: 4_000,
            max_retry_after_ms: 20_000,
            retry_busy: true,
        }
    }
}

/// Whether an outcome of a request of this kind is worth another try at all.
pub fn is_retryable(kind: RequestKind, outcome: Outcome) -> bool {
    match (kind, outcome) {
        (RequestKind::Write, _) => false,
        (RequestKind::Read, Outcome::Network) => true,
        (RequestKind::Read, Outcome::Timeout) => false,
        (RequestKind::Read, Outcome::Status(status)) => {
            status == 429 || (500..=599).contains(&status)
        }
    }
}

/// 429 and 503 are the platform saying "not now"; other 5xx are failures.
pub fn is_busy_status(status: u16) -> bool {
    status == 429 || status == 503
}

impl RetryPolicy {
    /// The backoff before try number `tries_done + 1`, with `jitter` in `[0, 1)` choosing a
    /// point in the upper half of the exponential step.
    pub fn backoff_ms(&self, tries_done: u32, jitter: f64) -> u64 {
        let exponent = tries_done.saturating_sub(1).min(16);
        let step = self
            .base_delay_ms
            .saturating_mul(1u64 << exponent)
            .min(self.max_delay_ms);
        let jitter = if jitter.is_finite() {
            jitter.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let half = step / 2;
        half + ((step - half) as f64 * jitter) as u64
    }

    /// Decides after `tries_done` tries (at least 1) ended with `outcome`.
    /// `retry_after_ms` is the parsed `Retry-After` of that answer, if it had one.
    pub fn decide(
        &self,
        kind: RequestKind,
        tries_done: u32,
        outcome: Outcome,
        retry_after_ms: Option<u64>,
        jitter: f64,
    ) -> Decision {
        if !is_retryable(kind, outcome) || tries_done >= self.max_tries {
            return Decision::GiveUp;
        }
        let busy = matches!(outcome, Outcome::Status(status) if is_busy_status(status));
        if busy && !self.retry_busy {
            return Decision::GiveUp;
        }
        let backoff = self.backoff_ms(tries_done, jitter);
        let delay_ms = match retry_after_ms {
            Some(wait) if wait > self.max_retry_after_ms => return Decision::GiveUp,
            Some(wait) => wait.max(backoff),
            None => backoff,
        };
        Decision::Retry { delay_ms, busy }
    }
}

/// Reads a `Retry-After` value (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.
/// `now_ms` is the current Unix time in milliseconds. A date in the past means "now" (0).
/// Anything unreadable is `None`, as if the header were absent.
pub fn parse_retry_after(value: &str, now_ms: i64) -> Option<u64> {
    let value = value.trim();
    if value.is_empty() {
        return None;
    }
    if value.bytes().all(|b| b.is_ascii_digit()) {
        // Saturate rather than fail on absurdly long numbers: the cap then gives up cleanly.
        let seconds: u64 = value.parse().unwrap_or(u64::MAX);
        return Some(seconds.saturating_mul(1000));
    }
    let wait = parse_http_date(value)?.saturating_sub(now_ms);
    Some(wait.max(0) as u64)
}

/// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`, the only form RFC 9110 lets servers
/// send) as Unix milliseconds. Hand-written: chrono's general parser costs kilobytes of wasm.
fn parse_http_date(value: &str) -> Option<i64> {
    let (_weekday, rest) = value.split_once(", ")?;
    let mut parts = rest.split(' ');
    let day: u32 = parts.next()?.parse().ok()?;
    let month_name = parts.next()?;
    let year: i32 = parts.next()?.parse().ok()?;
    let time = parts.next()?;
    if parts.next()? != "GMT" || parts.next().is_some() {
        return None;
    }
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let month = MONTHS.iter().position(|m| *m == month_name)? as u32 + 1;
    let mut hms = time.split(':').map(|n| n.parse::<u32>().ok());
    let (hour, minute, second) = (hms.next()??, hms.next()??, hms.next()??);
    if hms.next().is_some() {
        return None;
    }
    let instant =
        chrono::NaiveDate::from_ymd_opt(year, month, day)?.and_hms_opt(hour, minute, second)?;
    Some(instant.and_utc().timestamp_millis())
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn only_reads_are_retried_and_only_for_transient_failures() {
        // (outcome, a read retries it); a write never retries anything.
        let table = [
            (Outcome::Network, true),
            (Outcome::Status(429), true),
            (Outcome::Status(500), true),
            (Outcome::Status(502), true),
            (Outcome::Status(503), true),
            (Outcome::Timeout, false),
            (Outcome::Status(400), false),
            (Outcome::Status(401), false),
            (Outcome::Status(403), false),
            (Outcome::Status(404), false),
            (Outcome::Status(409), false),
        ];
        for (outcome, read_retries) in table {
            assert_eq!(
                is_retryable(RequestKind::Read, outcome),
                read_retries,
                "{outcome:?}"
            );
            assert!(!is_retryable(RequestKind::Write, outcome), "{outcome:?}");
        }
        assert_eq!(MAX_TRIES, 3);
    }

    #[wasm_bindgen_test]
    fn backoff_doubles_with_jitter_in_the_upper_half_and_is_capped() {
        let p = RetryPolicy::default();
        assert_eq!(p.backoff_ms(1, 0.0), 250);
        assert_eq!(p.backoff_ms(1, 0.999_999), 499);
        assert_eq!(p.backoff_ms(2, 0.0), 500);
        assert_eq!(p.backoff_ms(2, 0.5), 750);
        assert_eq!(p.backoff_ms(10, 0.0), 2_000);
        assert_eq!(p.backoff_ms(10, 1.0), 4_000);
        assert_eq!(p.backoff_ms(1, f64::NAN), 250);
    }

    #[wasm_bindgen_test]
    fn at_most_three_tries() {
        let p = RetryPolicy::default();
        let net = Outcome::Network;
        assert!(matches!(
            p.decide(RequestKind::Read, 1, net, None, 0.0),
            Decision::Retry { .. }
        ));
        assert!(matches!(
            p.decide(RequestKind::Read, 2, net, None, 0.0),
            Decision::Retry { .. }
        ));
        assert_eq!(
            p.decide(RequestKind::Read, 3, net, None, 0.0),
            Decision::GiveUp
        );
    }

    #[wasm_bindgen_test]
    fn retry_after_is_honoured_and_capped() {
        let p = RetryPolicy::default();
        let busy = Outcome::Status(429);
        assert_eq!(
            p.decide(RequestKind::Read, 1, busy, Some(3_000), 0.0),
            Decision::Retry {
                delay_ms: 3_000,
                busy: true
            }
        );
        // A Retry-After shorter than the backoff does not shorten the backoff.
        assert_eq!(
            p.decide(RequestKind::Read, 2, busy, Some(0), 0.0),
            Decision::Retry {
                delay_ms: 500,
                busy: true
            }
        );
        assert_eq!(
            p.decide(RequestKind::Read, 1, busy, Some(60_000), 0.0),
            Decision::GiveUp
        );
        assert_eq!(
            p.decide(RequestKind::Read, 1, Outcome::Status(500), None, 0.0),
            Decision::Retry {
                delay_ms: 250,
                busy: false
            }
        );
    }

    #[wasm_bindgen_test]
    fn a_self_pacing_caller_gets_busy_answers_at_once_and_the_rest_as_usual() {
        let p = RetryPolicy {
            retry_busy: false,
            ..RetryPolicy::default()
        };
        for status in [429, 503] {
            assert_eq!(
                p.decide(
                    RequestKind::Read,
                    1,
                    Outcome::Status(status),
                    Some(1_000),
                    0.0
                ),
                Decision::GiveUp,
                "{status}"
            );
        }
        assert!(matches!(
            p.decide(RequestKind::Read, 1, Outcome::Status(502), None, 0.0),
            Decision::Retry { busy: false, .. }
        ));
        assert!(matches!(
            p.decide(RequestKind::Read, 1, Outcome::Network, None, 0.0),
            Decision::Retry { .. }
        ));
    }

    #[wasm_bindgen_test]
    fn retry_after_parses_seconds_and_dates() {
        let now = 1_445_412_480_000; // Wed, 21 Oct 2015 07:28:00 GMT
        assert_eq!(parse_retry_after("2", now), Some(2_000));
        assert_eq!(parse_retry_after(" 0 ", now), Some(0));
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:28:05 GMT", now),
            Some(5_000)
        );
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:27:00 GMT", now),
            Some(0)
        );
        assert_eq!(parse_retry_after("-1", now), None);
        assert_eq!(parse_retry_after("soon", now), None);
        assert_eq!(parse_retry_after("", now), None);
        assert_eq!(
            parse_retry_after("99999999999999999999999", now),
            Some(u64::MAX)
        );
    }
}
