//! The one request policy of the console, as plain functions of their inputs.
//!
//! No browser calls here (the jitter and the clock are passed in), so the policy is tested on
//! the host and in the browser alike. Every request has a [`RequestKind`], and what is done
//! after a try without a usable answer depends on it alone ([`RetryPolicy::decide`]):
//! - [`RequestKind::Read`], a screen's GET: retried by the request layer after a network
//!   failure, a 5xx or a busy answer, at most [`MAX_TRIES`] tries in all. A timeout is not
//!   retried: the request already took [`REQUEST_TIMEOUT_MS`], and making the user wait that
//!   long three times over is worse than offering "Try again".
//! - [`RequestKind::PacedRead`], a GET of long work in its lane (see [`crate::http::pacing`]):
//!   tried once by the request layer, sent again by the lane after a busy answer (as long as
//!   the pacer waits) or a lost one, up to [`MAX_LOST_READS`] lost answers.
//! - [`RequestKind::IdempotentWrite`], a SCIM PUT of long work: sent again after a lost answer.
//! - [`RequestKind::CheckedCreate`], a SCIM POST of long work: never sent again blindly; after a
//!   lost answer the platform is asked whether it landed, and it is sent again only if not.
//!
//! A lost answer is a network failure, a timeout, a 5xx or a busy answer (429, 503): the write
//! may or may not have landed. The one answer to it, for the bulk change, the import and every
//! undo alike: a PUT is sent again ([`RequestKind::IdempotentWrite`] says why), a POST is checked
//! first.
//!
//! Every wait before another try is one backoff ([`backoff_ms`]: exponential, with
//! "equal jitter", half fixed and half random, so many tabs failing together do not come back
//! in lockstep), and one `Retry-After` rule ([`retry_after_wait`]) honours what the platform
//! asked. Writes a screen sends (the user form, the user page) are tried once by the request
//! layer: the screen keeps the admin's input and says what happened. A 401 is no try of any
//! kind: the request layer refreshes the token once and sends the same request again; a second
//! 401 ends the session.

/// Tries per screen read, the first one included.
pub const MAX_TRIES: u32 = 3;

/// Lost answers of one paced read before it gives up.
pub const MAX_LOST_READS: u32 = 6;

/// Sends of one write of long work at most, the first one included.
pub const MAX_SENDS: u32 = 4;

/// How long one request may take before it is aborted.
pub const REQUEST_TIMEOUT_MS: u32 = 15_000;

/// What a request is, as far as sending it again is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RequestKind {
    /// A screen's GET: repeating it changes nothing, and someone is waiting for it.
    Read,
    /// A GET of long work, in its lane: repeated by the lane, where the pacing sees it.
    PacedRead,
    /// A SCIM PUT (replace) of the attributes changed: repeating it changes nothing more.
    ///
    /// After a lost answer it is sent again, not read back and compared: the console's PUT
    /// carries only the attributes the admin changed, each set to a fixed value, so applying it
    /// twice leaves the user as applying it once. Reading the user back first would cost one
    /// more request of the token's allowance for every lost answer and protect nothing more: a
    /// user someone else changed in between fails the comparison and is written again all the
    /// same. The bulk change, the import and every undo send their PUTs this one way.
    IdempotentWrite,
    /// A SCIM POST (create): repeating it after it landed would create the user twice.
    CheckedCreate,
}

impl RequestKind {
    /// Tries in all (the first one included) that end in a lost answer before it gives up.
    /// Busy answers in a lane do not count: the pacer bounds them
    /// ([`crate::http::pacing::MAX_BUSY_IN_A_ROW`]).
    pub const fn max_tries(self) -> u32 {
        match self {
            RequestKind::Read => MAX_TRIES,
            RequestKind::PacedRead => MAX_LOST_READS,
            RequestKind::IdempotentWrite | RequestKind::CheckedCreate => MAX_SENDS,
        }
    }

    /// Whether the request layer itself tries it again. Every other kind is tried once there
    /// and sent again by its lane (or its screen), which knows how to check and how to wait.
    pub const fn retried_by_request_layer(self) -> bool {
        matches!(self, RequestKind::Read)
    }
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

impl Outcome {
    /// The platform said "not now" (429, 503).
    pub fn is_busy(self) -> bool {
        matches!(self, Outcome::Status(status) if is_busy_status(status))
    }

    /// No answer to go by: the request may or may not have been acted on.
    pub fn is_lost(self) -> bool {
        match self {
            Outcome::Network | Outcome::Timeout => true,
            Outcome::Status(status) => is_busy_status(status) || (500..=599).contains(&status),
        }
    }
}

/// What to do after a failed try.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Wait this long, then send it again. `busy` is set when the platform said it is
    /// overloaded (429 or 503), so the console can say "the platform is busy, retrying in N s".
    /// In a lane a busy answer's wait is the pacer's (it holds every request of the token), and
    /// `delay_ms` is 0.
    Retry { delay_ms: u64, busy: bool },
    /// Wait this long, ask the platform whether the write landed, and send it again only if
    /// it did not. `busy` and `delay_ms` as for [`Decision::Retry`].
    CheckFirst { delay_ms: u64, busy: bool },
    /// Hand the error over.
    GiveUp,
}

/// The numbers of the policy. [`RetryPolicy::default`] is what the console uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    /// The wait before a screen read's second try, before jitter.
    pub base_delay_ms: u64,
    /// A screen read's longest backoff wait, before jitter.
    pub max_delay_ms: u64,
    /// The wait after long work's first lost answer, before jitter: nobody waits at it, and
    /// the platform that lost an answer may need a moment.
    pub lane_base_delay_ms: u64,
    /// Long work's longest backoff wait, before jitter.
    pub lane_max_delay_ms: u64,
    /// The longest `Retry-After` a screen read waits out on its own.
    pub max_retry_after_ms: u64,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            base_delay_ms: 500,
            max_delay_ms: 4_000,
            lane_base_delay_ms: 1_000,
            lane_max_delay_ms: 30_000,
            max_retry_after_ms: 20_000,
        }
    }
}

/// 429 and 503 are the platform saying "not now"; other 5xx are failures.
pub fn is_busy_status(status: u16) -> bool {
    status == 429 || status == 503
}

/// The one backoff: the wait before try number `tries_done + 1`, doubling from `base_ms` up to
/// `max_ms`, with `jitter` in `[0, 1)` choosing a point in the upper half of the step ("equal
/// jitter").
pub fn backoff_ms(base_ms: u64, max_ms: u64, tries_done: u32, jitter: f64) -> u64 {
    let exponent = tries_done.saturating_sub(1).min(16);
    let step = base_ms.saturating_mul(1u64 << exponent).min(max_ms);
    let jitter = if jitter.is_finite() {
        jitter.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let half = step / 2;
    half + ((step - half) as f64 * jitter) as u64
}

/// The one `Retry-After` rule: after an answer that asked for `retry_after_ms` (parsed by
/// [`parse_retry_after`]), the wait is never shorter than what was asked, nor than `floor_ms`
/// (the wait the caller would take anyway). A wait asked longer than `max_ms` is not waited out
/// silently: `Err(max_ms)`, and the caller says so (a screen read gives up and tells when to
/// try again; the pacer waits `max_ms` and asks again).
pub fn retry_after_wait(
    retry_after_ms: Option<u64>,
    floor_ms: u64,
    max_ms: u64,
) -> Result<u64, u64> {
    match retry_after_ms {
        Some(wait) if wait > max_ms => Err(max_ms),
        Some(wait) => Ok(wait.max(floor_ms)),
        None => Ok(floor_ms),
    }
}

impl RetryPolicy {
    /// A screen read's backoff before try number `tries_done + 1`.
    pub fn backoff_ms(&self, tries_done: u32, jitter: f64) -> u64 {
        backoff_ms(self.base_delay_ms, self.max_delay_ms, tries_done, jitter)
    }

    /// Long work's backoff after its `lost`-th lost answer.
    pub fn lane_backoff_ms(&self, lost: u32, jitter: f64) -> u64 {
        backoff_ms(
            self.lane_base_delay_ms,
            self.lane_max_delay_ms,
            lost,
            jitter,
        )
    }

    /// Decides after a try of a request of `kind` ended with `outcome`. `tries_done`, at least
    /// one, counts the tries so far that count against [`RequestKind::max_tries`] (every try of
    /// a screen read; the lost answers other than busy ones of long work). `retry_after_ms` is
    /// the parsed `Retry-After` of that answer, if it had one.
    pub fn decide(
        &self,
        kind: RequestKind,
        tries_done: u32,
        outcome: Outcome,
        retry_after_ms: Option<u64>,
        jitter: f64,
    ) -> Decision {
        if !outcome.is_lost() {
            return Decision::GiveUp;
        }
        let busy = outcome.is_busy();
        if kind == RequestKind::Read {
            if outcome == Outcome::Timeout || tries_done >= kind.max_tries() {
                return Decision::GiveUp;
            }
            let backoff = self.backoff_ms(tries_done, jitter);
            return match retry_after_wait(retry_after_ms, backoff, self.max_retry_after_ms) {
                Ok(delay_ms) => Decision::Retry { delay_ms, busy },
                Err(_) => Decision::GiveUp,
            };
        }
        // Long work: a busy answer is waited out by the pacer, bounded by it; a lost one backs
        // off and counts.
        let delay_ms = if busy {
            0
        } else if tries_done >= kind.max_tries() {
            return Decision::GiveUp;
        } else {
            self.lane_backoff_ms(tries_done, jitter)
        };
        match kind {
            RequestKind::CheckedCreate => Decision::CheckFirst { delay_ms, busy },
            RequestKind::Read | RequestKind::PacedRead | RequestKind::IdempotentWrite => {
                Decision::Retry { delay_ms, busy }
            }
        }
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

    const KINDS: [RequestKind; 4] = [
        RequestKind::Read,
        RequestKind::PacedRead,
        RequestKind::IdempotentWrite,
        RequestKind::CheckedCreate,
    ];

    /// What each kind does after its first try ended with each outcome (jitter 0, no
    /// `Retry-After`): the policy's whole table.
    #[wasm_bindgen_test]
    fn each_kind_after_each_outcome() {
        use Decision::{CheckFirst, GiveUp, Retry};
        let p = RetryPolicy::default();
        let read = |busy| Retry {
            delay_ms: 250,
            busy,
        };
        let lane = Retry {
            delay_ms: 500,
            busy: false,
        };
        let lane_busy = Retry {
            delay_ms: 0,
            busy: true,
        };
        let check = CheckFirst {
            delay_ms: 500,
            busy: false,
        };
        let check_busy = CheckFirst {
            delay_ms: 0,
            busy: true,
        };
        // (outcome, Read, PacedRead, IdempotentWrite, CheckedCreate)
        let table = [
            (Outcome::Network, read(false), lane, lane, check),
            (Outcome::Timeout, GiveUp, lane, lane, check),
            (Outcome::Status(500), read(false), lane, lane, check),
            (Outcome::Status(502), read(false), lane, lane, check),
            (
                Outcome::Status(429),
                read(true),
                lane_busy,
                lane_busy,
                check_busy,
            ),
            (
                Outcome::Status(503),
                read(true),
                lane_busy,
                lane_busy,
                check_busy,
            ),
            (Outcome::Status(400), GiveUp, GiveUp, GiveUp, GiveUp),
            (Outcome::Status(401), GiveUp, GiveUp, GiveUp, GiveUp),
            (Outcome::Status(403), GiveUp, GiveUp, GiveUp, GiveUp),
            (Outcome::Status(404), GiveUp, GiveUp, GiveUp, GiveUp),
            (Outcome::Status(409), GiveUp, GiveUp, GiveUp, GiveUp),
        ];
        for (outcome, read, paced, put, create) in table {
            for (kind, expected) in KINDS.into_iter().zip([read, paced, put, create]) {
                assert_eq!(
                    p.decide(kind, 1, outcome, None, 0.0),
                    expected,
                    "{kind:?} after {outcome:?}"
                );
            }
        }
    }

    #[wasm_bindgen_test]
    fn a_lost_answer_gives_up_at_each_kinds_limit_and_busy_is_the_pacers_to_bound() {
        let p = RetryPolicy::default();
        assert_eq!(
            [MAX_TRIES, MAX_LOST_READS, MAX_SENDS, MAX_SENDS],
            KINDS.map(RequestKind::max_tries)
        );
        for kind in KINDS {
            let last = kind.max_tries();
            let lost = Outcome::Network;
            assert_ne!(p.decide(kind, last - 1, lost, None, 0.0), Decision::GiveUp);
            assert_eq!(p.decide(kind, last, lost, None, 0.0), Decision::GiveUp);
        }
        // In a lane busy answers do not count: the pacer stops the work after too many.
        for kind in &KINDS[1..] {
            let busy = p.decide(*kind, 50, Outcome::Status(429), Some(1_000), 0.0);
            assert_ne!(busy, Decision::GiveUp, "{kind:?}");
        }
        // Only a screen read is retried by the request layer itself.
        assert_eq!(
            KINDS.map(RequestKind::retried_by_request_layer),
            [true, false, false, false]
        );
    }

    #[wasm_bindgen_test]
    fn a_lost_put_is_sent_again_and_a_lost_create_checked_first() {
        // The one answer to a lost answer, for the bulk change, the import and undo alike.
        let p = RetryPolicy::default();
        for outcome in [Outcome::Network, Outcome::Timeout, Outcome::Status(500)] {
            for tries in 1..MAX_SENDS {
                assert!(matches!(
                    p.decide(RequestKind::IdempotentWrite, tries, outcome, None, 0.5),
                    Decision::Retry { busy: false, .. }
                ));
                assert!(matches!(
                    p.decide(RequestKind::CheckedCreate, tries, outcome, None, 0.5),
                    Decision::CheckFirst { busy: false, .. }
                ));
            }
        }
    }

    #[wasm_bindgen_test]
    fn one_backoff_doubles_with_jitter_in_the_upper_half_and_is_capped() {
        let p = RetryPolicy::default();
        assert_eq!(p.backoff_ms(1, 0.0), 250);
        assert_eq!(p.backoff_ms(1, 0.999_999), 499);
        assert_eq!(p.backoff_ms(2, 0.0), 500);
        assert_eq!(p.backoff_ms(2, 0.5), 750);
        assert_eq!(p.backoff_ms(10, 0.0), 2_000);
        assert_eq!(p.backoff_ms(10, 1.0), 4_000);
        assert_eq!(p.backoff_ms(1, f64::NAN), 250);
        // Long work backs off the same way from a longer start, to a longer cap.
        assert_eq!(p.lane_backoff_ms(1, 0.0), 500);
        assert_eq!(p.lane_backoff_ms(3, 1.0), 4_000);
        assert_eq!(p.lane_backoff_ms(20, 0.0), 15_000);
        assert_eq!(p.lane_backoff_ms(20, 1.0), 30_000);
        // The jitter is used: two tabs at different draws come back apart.
        assert_ne!(p.lane_backoff_ms(2, 0.1), p.lane_backoff_ms(2, 0.9));
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
        assert_eq!(retry_after_wait(Some(3_000), 1_000, 5_000), Ok(3_000));
        assert_eq!(retry_after_wait(Some(0), 1_000, 5_000), Ok(1_000));
        assert_eq!(retry_after_wait(None, 1_000, 5_000), Ok(1_000));
        assert_eq!(retry_after_wait(Some(9_000), 1_000, 5_000), Err(5_000));
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
