//! The one pacing policy of the console: the tab's requests on the session's token (every
//! job's: bulk change, import, the sends walk, the home figures; and every screen's read)
//! take their turns from one [`Pacer`], as fast as the platform allows and no faster. What one
//! of them learns of the token's rate limit, every other one knows at once.
//!
//! The platform documents no rate limit and sends no rate-limit headers (docs/platform.md:
//! busy answers "may carry `Retry-After`"), so the pacer learns it: requests start as fast as
//! answers come until the platform first refuses one (429), then they are spaced at the rate
//! that got through before that refusal, a little wider ([`MARGIN`]). "What got through"
//! counts every answered request of the tab ([`Pacer::note_answered`], told by the API client).
//! That count can take in the platform's window before the refused one: refused while paced
//! with nothing else of the token read, the pace was too fast, and it is measured again the
//! same way, under the pace refused (see [`Pace::refused_among`]).
//! A later refusal while the screens read lowers the pace to the paced work's share then, and
//! a pace lowered that way doubles back toward one under the pace refused after each
//! [`RECOVER_MS`] without a refusal. A refusal's `Retry-After` holds every request of the
//! token back that long, capped at [`MAX_WAIT_MS`].
//!
//! A piece of work (a job, a guard's reads) asks through a [`Lane`]: its place in the token's
//! queue, its own stop, and whom to tell that it waits. Every wait looks every
//! [`CANCEL_CHECK_MS`] whether the work was cancelled, so Cancel takes effect at once.
//! Requests in a lane are tried once by the request layer (`ApiClient::get_paced`): retries
//! happen in the lane, where the pacing sees them, never stacked underneath.
//! The pacer's rules take the time as an argument ([`Pacer::reserve`], [`Pacer::refused_at`]),
//! so a simulation drives them with four requests in flight, without a browser or a clock.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::future::Future;
use std::rc::Rc;
use std::time::Duration;

use crate::browser::{now_ms, sleep};
use crate::http::retry::{backoff_ms, retry_after_wait};

/// How often a wait looks whether the work was cancelled.
pub const CANCEL_CHECK_MS: f64 = 100.0;

/// Requests of one piece of work in flight at once: their starts are paced anyway, and a few
/// at once hide each answer's latency without crowding the platform.
pub const MAX_IN_FLIGHT: usize = 4;

/// Told the seconds of a wait the platform asked for.
type HoldListener = Box<dyn Fn(u64)>;

/// The turns of every request of the tab on the session's token, and what the platform's
/// answers taught about its rate limit. One per tab: [`token_pacer`].
#[derive(Default)]
pub struct Pacer {
    pace: RefCell<Pace>,
    /// The earliest start the next request may have.
    next: Cell<f64>,
    /// Nothing starts before this (the platform said "busy", or an answer was lost).
    held_until: Cell<f64>,
    /// When the last turn was given: a turn given late (the page was busy) must not bring the
    /// next one, reserved before, closer than the pace, or one window gets a request too many.
    last_given: Cell<f64>,
    busy_in_a_row: Cell<u32>,
    /// When the last refusal arrived: a request that started before it was already in flight
    /// when the pace changed, and its refusal tells nothing new.
    refusal_seen_at: Cell<f64>,
    /// Start times of the tab's answered requests (not "busy") of the last two windows,
    /// oldest first.
    answered: RefCell<VecDeque<f64>>,
    /// The tab's pacer keeps what it learned in the tab's session storage ([`PACE_KEY`]).
    kept: bool,
}

fn now() -> f64 {
    now_ms() as f64
}

impl Pacer {
    /// Takes the next turn at or after `now`: when that request may start.
    pub fn reserve(&self, now: f64) -> f64 {
        let slot = self.next.get().max(now).max(self.held_until.get());
        let interval = self.pace.borrow().interval_ms();
        self.next.set(slot + interval);
        slot
    }

    /// Nothing starts before this.
    pub fn held_until(&self) -> f64 {
        self.held_until.get()
    }

    /// The paced request started at `started` was answered.
    pub fn answered(&self, started: f64) {
        self.busy_in_a_row.set(0);
        let before = self.pace.borrow().learned();
        self.pace.borrow_mut().answered(started);
        self.keep(before);
    }

    /// The tab's pacer, with what the tab learned before a reload: the token is the same, and
    /// so is its limit, which a fresh pacer would learn again at the cost of a refusal.
    fn restored() -> Self {
        let kept = crate::browser::session_storage()
            .and_then(|s| s.get_item(PACE_KEY).ok().flatten())
            .and_then(|text| Learned::parse(&text));
        let pacer = Self {
            kept: true,
            ..Self::default()
        };
        if let Some(learned) = kept {
            pacer.pace.borrow_mut().resume(learned, now());
        }
        pacer
    }

    /// Keeps what the pace learned, when it changed from `before`.
    fn keep(&self, before: Option<Learned>) {
        if !self.kept {
            return;
        }
        let now = self.pace.borrow().learned();
        if now != before {
            if let (Some(store), Some(learned)) = (crate::browser::session_storage(), now) {
                let _ = store.set_item(PACE_KEY, &learned.text());
            }
        }
    }

    /// The platform answered a request of the tab (anything but "busy") started at `started`:
    /// told by the API client for every request it sends, paced or not.
    pub fn note_answered(&self, started: f64) {
        let mut answered = self.answered.borrow_mut();
        // Two windows back: a refusal asks about the window before a request started a
        // little earlier than the newest answered.
        let keep_after = started.max(answered.back().copied().unwrap_or(started)) - 2.0 * WINDOW_MS;
        while answered.front().is_some_and(|&s| s <= keep_after) {
            answered.pop_front();
        }
        answered.push_back(started);
    }

    /// The tab's answered requests that started in the window before `started`.
    fn answered_in_window_before(&self, started: f64) -> u32 {
        let n = self
            .answered
            .borrow()
            .iter()
            .filter(|&&s| s > started - WINDOW_MS && s <= started)
            .count();
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    /// The platform refused the request started at `started` ("busy"), the refusal arriving at
    /// `now`: the pace slows to what got through, and every request waits as the platform
    /// asked. Returns that wait, or `None` after [`MAX_BUSY_IN_A_ROW`] refusals in a row (the
    /// work should stop and say so). A refusal of a request that started before the previous
    /// refusal arrived (several in flight at once) is waited out but changes neither the pace
    /// nor the count.
    pub fn refused_at(
        &self,
        started: f64,
        retry_after_s: Option<u64>,
        now: f64,
        jitter: f64,
    ) -> Option<u64> {
        let stale = started < self.refusal_seen_at.get();
        self.refusal_seen_at.set(now);
        let mut extra = 0;
        let in_a_row = if stale {
            self.busy_in_a_row.get().max(1)
        } else {
            let before = self.pace.borrow().learned();
            let token_answered = self.answered_in_window_before(started);
            extra = self
                .pace
                .borrow_mut()
                .refused_among(started, Some(token_answered));
            self.keep(before);
            self.busy_in_a_row.get() + 1
        };
        self.busy_in_a_row.set(in_a_row);
        let wait = busy_wait_ms(retry_after_s, in_a_row, jitter)? + extra;
        self.hold_at(wait, now);
        Some(wait)
    }

    /// As [`Pacer::refused_at`], now.
    pub fn refused(&self, started: f64, retry_after_s: Option<u64>) -> Option<u64> {
        self.refused_at(started, retry_after_s, now(), js_sys::Math::random())
    }

    /// No request starts for `ms` from `now`.
    pub fn hold_at(&self, ms: u64, now: f64) {
        let until = now + ms as f64;
        self.held_until.set(self.held_until.get().max(until));
        self.next.set(self.next.get().max(until));
    }

    /// Waits for a turn and for any hold that came while it waited: the start time, or `None`
    /// once `stopped` says so (looked at every [`CANCEL_CHECK_MS`]). `waiting` is told the
    /// seconds of each wait for a hold.
    pub async fn turn(&self, stopped: impl Fn() -> bool, waiting: impl Fn(u64)) -> Option<f64> {
        loop {
            let at = self.reserve(now());
            let held = self.held_until.get();
            if held > now() {
                waiting(((held - now()) / 1000.0).ceil() as u64);
            }
            wait_until(at, &stopped).await;
            if stopped() {
                return None;
            }
            // A refusal that came while this one waited held the token: a turn after the hold,
            // spaced as the others, not all at once the moment it ends.
            loop {
                let now = now();
                if self.held_until.get() > now {
                    break;
                }
                let interval = self.pace.borrow().interval_ms();
                let spaced = self.last_given.get() + interval;
                if now >= spaced {
                    self.last_given.set(now);
                    self.next.set(self.next.get().max(now + interval));
                    return Some(now);
                }
                wait_until(spaced, &stopped).await;
                if stopped() {
                    return None;
                }
            }
        }
    }

    /// Forgets what the platform taught: the session (and its token) ended.
    pub fn forget(&self) {
        *self.pace.borrow_mut() = Pace::default();
        self.next.set(0.0);
        self.held_until.set(0.0);
        self.last_given.set(0.0);
        self.busy_in_a_row.set(0);
        self.refusal_seen_at.set(0.0);
        self.answered.borrow_mut().clear();
        if let Some(store) = crate::browser::session_storage() {
            let _ = store.remove_item(PACE_KEY);
        }
    }
}

/// Where the tab's pacer keeps what it learned: a few numbers, nothing of the token.
const PACE_KEY: &str = "gifting-console.pace";

thread_local! {
    static TOKEN_PACER: Rc<Pacer> = Rc::new(Pacer::restored());
}

/// The tab's one pacer: every request on the session's token takes its turn from it.
pub fn token_pacer() -> Rc<Pacer> {
    TOKEN_PACER.with(Rc::clone)
}

/// Waits until `at` (ms since the epoch), returning early once `stopped`.
async fn wait_until(at: f64, stopped: &impl Fn() -> bool) {
    while !stopped() {
        let left = at - now();
        if left <= 0.0 {
            break;
        }
        sleep(Duration::from_millis(
            left.min(CANCEL_CHECK_MS).ceil() as u64
        ))
        .await;
    }
}

/// One piece of work's place in the token's queue: its turns come from the [`Pacer`], its stop
/// and its listener are its own.
pub struct Lane {
    pacer: Rc<Pacer>,
    stopped: Cell<bool>,
    /// Told the seconds of every hold it waits out (the job says it is waiting).
    on_hold: RefCell<Option<HoldListener>>,
}

impl Default for Lane {
    fn default() -> Self {
        Self::new(token_pacer())
    }
}

impl Lane {
    pub fn new(pacer: Rc<Pacer>) -> Self {
        Self {
            pacer,
            stopped: Cell::new(false),
            on_hold: RefCell::new(None),
        }
    }

    /// Waits for the next request's turn and returns its start time; `None` once stopped.
    pub fn turn(&self) -> impl Future<Output = Option<f64>> + '_ {
        self.pacer.turn(|| self.stopped(), |s| self.tell(s))
    }

    /// The request started at `started` was answered.
    pub fn answered(&self, started: f64) {
        self.pacer.answered(started);
    }

    /// The platform refused the request started at `started`: see [`Pacer::refused_at`].
    pub fn refused(&self, started: f64, retry_after_s: Option<u64>) -> Option<u64> {
        let wait = self.pacer.refused(started, retry_after_s)?;
        self.tell(wait.div_ceil(1000));
        Some(wait)
    }

    /// No request of the token starts for `ms` from now (an answer was lost: back off).
    pub fn hold(&self, ms: u64) {
        self.pacer.hold_at(ms, now());
    }

    /// Sets what is told of each wait the platform asks for, in seconds.
    pub fn on_hold(&self, tell: impl Fn(u64) + 'static) {
        *self.on_hold.borrow_mut() = Some(Box::new(tell));
    }

    fn tell(&self, seconds: u64) {
        if let Some(tell) = self.on_hold.borrow().as_ref() {
            tell(seconds);
        }
    }

    /// No request starts after this; waits end within [`CANCEL_CHECK_MS`].
    pub fn stop(&self) {
        self.stopped.set(true);
    }

    pub fn stopped(&self) -> bool {
        self.stopped.get()
    }
}

/// The span the platform counts requests over ("N requests per second per token").
pub const WINDOW_MS: f64 = 1_000.0;
/// Requests are spaced this much wider than the learned rate, so one that reaches the platform
/// a little late does not land in a window that is already full.
pub const MARGIN: f64 = 0.02;
/// After this long without a refusal, a pace lowered by a refusal doubles, up to one under the
/// pace that was refused:
/// a job slowed while the admin's screens shared the allowance is back to speed within seconds
/// of them going quiet, and one refusal brings it down again if they did not.
pub const RECOVER_MS: f64 = 3_000.0;
/// After this long without a refusal, a pace never refused while paced tries one more a window:
/// it may be short of the limit by the requests in flight when it was learned, and a refusal at
/// one past the limit costs a moment of a long walk, while a short walk is spared it.
pub const PROBE_MS: f64 = 15_000.0;
/// A pace measuring the limit again starts this much later than the platform asked: see
/// [`Pace::refused_among`].
pub const MEASURE_LATER_MS: u64 = 500;

/// What the pace knows of the platform's rate limit, and so how it goes on.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
enum Mode {
    /// Never refused: as fast as answers come.
    #[default]
    Unknown,
    /// Learned from a first refusal, never refused while paced: it may be short of the limit
    /// (see [`Pace::climb`]), and tries one more a window after each [`PROBE_MS`].
    Probing { rate: u32 },
    /// Refused while paced at `refused` requests per window: a pace lowered below it (the
    /// allowance was shared for a while) climbs back to one under it, never to it.
    /// `lowered_alone`: once refused while paced with nothing else of the token read in the
    /// window, and lowered to what got through: refused so again, it measures afresh (see
    /// [`Pace::refused_among`]).
    Paced {
        rate: u32,
        refused: u32,
        lowered_alone: bool,
    },
    /// Refused alone twice: as fast as answers come again, to measure the limit afresh, under
    /// the pace `refused`.
    Remeasuring { refused: u32 },
}

/// What the walk learned about the platform's rate limit.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pace {
    mode: Mode,
    /// The pace the first refusal taught: a pace lowered by refusals while others used the
    /// allowance climbs back to at least half of it, however low those refusals took it.
    learned: u32,
    /// Start times of the answered requests of the last window, oldest first.
    recent: VecDeque<f64>,
    /// Requests answered since the last refusal (or the start).
    since_refusal: u32,
    /// When the pace last changed.
    changed_at: f64,
}

/// What a [`Pace`] learned of the limit, kept across a reload: its rate, the pace refused and
/// the pace first learned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Learned(u32, u32, u32);

impl Learned {
    fn text(self) -> String {
        format!("{} {} {}", self.0, self.1, self.2)
    }

    fn parse(text: &str) -> Option<Self> {
        let mut numbers = text.split(' ').map(|n| n.parse::<u32>().ok());
        let learned = Learned(numbers.next()??, numbers.next()??, numbers.next()??);
        (learned.0 > 0).then_some(learned)
    }
}

impl Pace {
    /// Requests per [`WINDOW_MS`] it goes at; `None` while as fast as answers come.
    fn pace(&self) -> Option<u32> {
        match self.mode {
            Mode::Probing { rate } | Mode::Paced { rate, .. } => Some(rate),
            Mode::Unknown | Mode::Remeasuring { .. } => None,
        }
    }

    /// What it learned, once it did. Kept as three numbers: a pace never refused while paced
    /// keeps 0 as the pace refused.
    fn learned(&self) -> Option<Learned> {
        match self.mode {
            Mode::Probing { rate } => Some(Learned(rate, 0, self.learned)),
            Mode::Paced { rate, refused, .. } => Some(Learned(rate, refused, self.learned)),
            Mode::Unknown | Mode::Remeasuring { .. } => None,
        }
    }

    /// Goes on at `at` from what a pace learned before. A pace never refused while paced
    /// would try one more a window after [`PROBE_MS`]; resumed, it holds: the same token's
    /// limit was measured, and trying past it costs a refusal.
    fn resume(&mut self, Learned(rate, refused_at, learned): Learned, at: f64) {
        let refused = if refused_at == 0 {
            rate.saturating_add(1)
        } else {
            refused_at
        };
        let lowered_alone = matches!(
            self.mode,
            Mode::Paced {
                lowered_alone: true,
                ..
            }
        );
        self.mode = Mode::Paced {
            rate,
            refused,
            lowered_alone,
        };
        self.learned = learned;
        self.changed_at = at;
    }

    /// The learned rate, requests per [`WINDOW_MS`].
    #[cfg(test)]
    pub fn rate(&self) -> Option<u32> {
        self.pace()
    }

    /// The time between request starts: none until a rate is learned.
    pub fn interval_ms(&self) -> f64 {
        self.pace().map_or(0.0, |rate| {
            WINDOW_MS / f64::from(rate.max(1)) * (1.0 + MARGIN)
        })
    }

    /// The request started at `started` was answered.
    pub fn answered(&mut self, started: f64) {
        self.forget_before(started - WINDOW_MS);
        self.recent.push_back(started);
        self.since_refusal = self.since_refusal.saturating_add(1);
        // Never refused while paced, the pace counted every request of the token in its
        // window; only one still in flight when the refusal came can be missing from it.
        let quiet = match self.mode {
            Mode::Probing { .. } => PROBE_MS,
            Mode::Paced { .. } => RECOVER_MS,
            Mode::Unknown | Mode::Remeasuring { .. } => return,
        };
        if started - self.changed_at >= quiet {
            self.mode = self.climb();
            self.changed_at = started;
        }
    }

    /// The pace after a quiet spell. Never refused while paced, the pace may be short of the
    /// limit (the first refusal's window also held requests whose answers had not come yet):
    /// after [`PROBE_MS`] it tries one more a window, and one refusal at one over the limit
    /// settles it. Lowered by a refusal while
    /// paced: it doubles back, up to one under the pace that was refused, or half the pace
    /// first learned if that is more (refusals while the admin's screens shared the allowance
    /// can take the pace refused down to 1).
    fn climb(&self) -> Mode {
        match self.mode {
            Mode::Probing { rate } => Mode::Probing {
                rate: rate.saturating_add(1),
            },
            Mode::Paced {
                rate,
                refused,
                lowered_alone,
            } => {
                let ceiling = refused.saturating_sub(1).max(self.learned / 2).max(1);
                Mode::Paced {
                    rate: rate.max(rate.saturating_mul(2).min(ceiling)),
                    refused,
                    lowered_alone,
                }
            }
            other => other,
        }
    }

    /// As [`Pace::refused_among`], not knowing what else of the token got through.
    #[cfg(test)]
    pub fn refused(&mut self, started: f64) {
        self.refused_among(started, None);
    }

    /// The platform refused the request started at `started` (429): the pace becomes what got
    /// through before it, never more than it was. "What got through" is the fewer of the
    /// answers in the window before the refusal and those since the previous refusal: after
    /// a wait the platform's window is fresh, so whichever window the refusal fell in held at
    /// least its whole allowance of the latter, and a window counting from the platform's
    /// own boundaries never holds more than the former.
    ///
    /// `token_answered`: the answers to every request of the token (this pace's and others',
    /// the screens' reads) that started in the window before, when known. A first refusal
    /// learns from them all: its window was full, and a job that learned only its own share
    /// (the screen read beside it at first) would take many [`RECOVER_MS`] to climb to the
    /// limit. That count may also hold requests of the platform's previous window (the one
    /// before it began), so a refusal while paced with nothing else of the token read in its
    /// window means the pace was too fast, not shared: it becomes what got through since the
    /// wait (a fresh window), and does not climb past it. Refused so a second time, what got
    /// through since the wait spanned two of the platform's windows too: the pace measures
    /// again as the first time, under the pace refused. Other refusals lower the pace to the
    /// job's own share: others may still be reading.
    ///
    /// Returns how much longer than the platform asks the requests should wait: measuring
    /// again, half a window. A pace too fast is refused late in the platform's window (after
    /// the allowance of its evenly spaced requests, more than half of them), and a wait of
    /// `Retry-After` alone would start the measure as late in a window, where it would run
    /// into the next one and count both.
    pub fn refused_among(&mut self, started: f64, token_answered: Option<u32>) -> u64 {
        self.forget_before(started - WINDOW_MS);
        let own_in_window = self.recent.len() as u32;
        let got_through = own_in_window.min(self.since_refusal);
        // One request of others is no share to speak of (and the API client notes a request
        // a moment after the pacer gives it its turn).
        let alone =
            token_answered.is_some_and(|all| all <= own_in_window + 1) && self.since_refusal > 0;
        let mut extra = 0;
        self.mode = match self.mode {
            Mode::Remeasuring { .. } if self.since_refusal == 0 => self.mode,
            Mode::Unknown | Mode::Remeasuring { .. } => {
                self.learn(got_through.max(token_answered.unwrap_or(0)))
            }
            Mode::Paced {
                rate,
                lowered_alone: true,
                ..
            } if alone => {
                extra = MEASURE_LATER_MS;
                Mode::Remeasuring { refused: rate }
            }
            Mode::Probing { rate } | Mode::Paced { rate, .. } if alone => {
                // Nobody else read: the limit is what got through, nothing to climb to.
                let lowered = got_through.min(rate.saturating_sub(1)).max(1);
                Mode::Paced {
                    rate: lowered,
                    refused: lowered.saturating_add(1),
                    lowered_alone: true,
                }
            }
            // A refusal right after another (nothing got through between) is the same full
            // window: it lowers the pace, but the pace refused stays the first one.
            Mode::Probing { rate } => {
                let lowered = got_through.min(rate).max(1);
                if self.since_refusal > 0 {
                    Mode::Paced {
                        rate: lowered,
                        refused: rate,
                        lowered_alone: false,
                    }
                } else {
                    Mode::Probing { rate: lowered }
                }
            }
            Mode::Paced {
                rate,
                refused,
                lowered_alone,
            } => Mode::Paced {
                rate: got_through.min(rate).max(1),
                refused: if self.since_refusal > 0 {
                    rate
                } else {
                    refused
                },
                lowered_alone,
            },
        };
        self.since_refusal = 0;
        self.changed_at = started;
        extra
    }

    /// The pace a refusal's window measured: `measured` got through. Measured again after
    /// refusals while paced alone, it is the limit, under the pace refused: nothing to climb to.
    fn learn(&mut self, measured: u32) -> Mode {
        let measured = measured.max(1);
        match self.mode {
            Mode::Remeasuring { refused } => {
                self.learned = measured.min(refused.saturating_sub(1)).max(1);
                Mode::Paced {
                    rate: self.learned,
                    refused: self.learned.saturating_add(1),
                    lowered_alone: true,
                }
            }
            _ => {
                self.learned = measured;
                Mode::Probing { rate: measured }
            }
        }
    }

    fn forget_before(&mut self, t: f64) {
        while self.recent.front().is_some_and(|&s| s <= t) {
            self.recent.pop_front();
        }
    }
}

#[cfg(test)]
/// The floor the rate limit sets on a walk: `requests` at `rate` a second, in ms.
pub fn floor_ms(requests: u64, rate: u32) -> f64 {
    requests as f64 * WINDOW_MS / f64::from(rate.max(1))
}

/// Waits after "busy" answers without a `Retry-After`: 1–2 s, 2–4 s, 4–8 s… up to this.
pub const MAX_BACKOFF_MS: u64 = 30_000;
/// A `Retry-After` longer than this is still honoured, but only up to this long per wait.
pub const MAX_WAIT_MS: u64 = 120_000;
/// After this many "busy" answers in a row the walk stops and offers to resume.
pub const MAX_BUSY_IN_A_ROW: u32 = 30;

/// The wait after the `busy_in_a_row`-th "busy" answer in a row (1-based), given the
/// platform's `Retry-After` in seconds if it sent one: the request policy's one `Retry-After`
/// rule ([`retry_after_wait`]: at least a second, as "Retry-After: 0" from a busy server would
/// otherwise spin, and at most [`MAX_WAIT_MS`] per wait) and its one backoff ([`backoff_ms`],
/// `jitter` in `[0, 1)`). `None`: stop and let the user resume.
pub fn busy_wait_ms(retry_after_s: Option<u64>, busy_in_a_row: u32, jitter: f64) -> Option<u64> {
    if busy_in_a_row == 0 || busy_in_a_row > MAX_BUSY_IN_A_ROW {
        return None;
    }
    Some(match retry_after_s {
        Some(s) => retry_after_wait(Some(s.saturating_mul(1000)), 1000, MAX_WAIT_MS)
            .unwrap_or_else(|longest| longest),
        None => backoff_ms(2 * 1000, MAX_BACKOFF_MS, busy_in_a_row, jitter),
    })
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    async fn a_turn_given_late_keeps_the_next_one_a_pace_apart() {
        let pacer = Pacer::default();
        pacer.pace.borrow_mut().resume(Learned(10, 11, 10), now());
        let interval = pacer.pace.borrow().interval_ms();
        assert!(interval > 100.0);
        let now_given = pacer.turn(|| false, |_| {});
        let first = pacer.turn(|| false, |_| {});
        let second = pacer.turn(|| false, |_| {});
        futures::pin_mut!(now_given, first, second);
        // Each reserves its turn, a pace apart; the first of them is given at once.
        assert!(futures::poll!(&mut now_given).is_ready());
        assert!(futures::poll!(&mut first).is_pending());
        assert!(futures::poll!(&mut second).is_pending());
        // The page was busy: the next turn is taken half a pace late.
        sleep(Duration::from_millis((interval * 1.5) as u64)).await;
        let first_at = first.await.expect("given");
        let second_at = second.await.expect("given");
        assert!(
            second_at - first_at >= interval - 1.0,
            "the second started {:.0} ms after the first, under the pace of {interval:.0} ms",
            second_at - first_at
        );
    }

    /// Requests of one piece of work in the simulation: `requests` of them, `in_flight` out at
    /// once, the first asked at `from_ms`; a screen's reads are not in a lane (their answers
    /// teach the pacer only through the API client's count, as in `ApiClient::request`).
    struct Work {
        requests: u64,
        in_flight: usize,
        from_ms: f64,
        screen: bool,
    }

    fn walk(requests: u64, in_flight: usize) -> Work {
        Work {
            requests,
            in_flight,
            from_ms: 0.0,
            screen: false,
        }
    }

    /// A platform allowing `limit` requests in each fixed second (as the sandbox counts, with
    /// `Retry-After: 1` on a refusal), whose windows start at `phase` ms; `works` asking
    /// through `pacer`, each answer taking `answer_ms`. It runs the pacer's own rules
    /// ([`Pacer::reserve`], [`Pacer::refused_at`], a turn taken again after a hold) on a
    /// simulated clock. Returns when the last request was answered.
    fn simulate(pacer: &Pacer, limit: u32, phase: f64, works: &[Work], answer_ms: f64) -> f64 {
        use std::cmp::Reverse;
        use std::collections::{BinaryHeap, HashMap};
        #[derive(PartialEq, Eq, PartialOrd, Ord)]
        enum Event {
            /// A request of work `.0` wants its turn.
            Ask(usize),
            /// Its turn came.
            Start(usize),
            /// Its answer arrives: started at `.1` µs, answered (or refused).
            Answer(usize, u64, bool),
        }
        let mut queue = BinaryHeap::new();
        let mut seq = 0_u64;
        let mut push = |queue: &mut BinaryHeap<_>, at: f64, event: Event| {
            seq += 1;
            queue.push(Reverse(((at * 1000.0).ceil() as u64, seq, event)));
        };
        let mut asked = vec![0_u64; works.len()];
        let (mut done, mut last) = (0, 0.0_f64);
        let mut used: HashMap<i64, u32> = HashMap::new();
        for (i, work) in works.iter().enumerate() {
            for _ in 0..work.in_flight {
                push(&mut queue, work.from_ms, Event::Ask(i));
            }
        }
        while let Some(Reverse((at_us, _, event))) = queue.pop() {
            let at = at_us as f64 / 1000.0;
            match event {
                Event::Ask(i) if asked[i] < works[i].requests => {
                    asked[i] += 1;
                    push(&mut queue, pacer.reserve(at), Event::Start(i));
                }
                Event::Ask(_) => {}
                Event::Start(i) if pacer.held_until() > at => {
                    push(&mut queue, pacer.reserve(at), Event::Start(i));
                }
                Event::Start(i) => {
                    let window = ((at - phase) / WINDOW_MS).floor() as i64;
                    let count = used.entry(window).or_default();
                    *count += 1;
                    push(
                        &mut queue,
                        at + answer_ms,
                        Event::Answer(i, at_us, *count <= limit),
                    );
                }
                Event::Answer(i, started_us, through) => {
                    let started = started_us as f64 / 1000.0;
                    if through {
                        pacer.note_answered(started);
                        if !works[i].screen {
                            pacer.answered(started);
                        }
                        done += 1;
                        last = at;
                    } else {
                        let waited = pacer.refused_at(started, Some(1), at, 0.5);
                        assert!(waited.is_some() || works[i].screen, "gave up");
                        asked[i] -= 1;
                    }
                    push(&mut queue, at, Event::Ask(i));
                }
            }
        }
        let all: u64 = works.iter().map(|w| w.requests).sum();
        assert_eq!(done, all, "every request answered");
        last
    }

    /// Every 50 ms of the platform's window.
    fn phases() -> impl Iterator<Item = f64> {
        (0..20).map(|i| f64::from(i) * 50.0)
    }

    #[wasm_bindgen_test]
    fn four_in_flight_through_the_token_pacer_stay_within_a_tenth_of_the_floor() {
        // 1,000 requests at 10 a second, four in flight: the floor is 100 s. At every phase of
        // the platform's window (each 50 ms), however fast the platform answers.
        for phase in phases() {
            for answer_ms in [5.0, 30.0, 60.0, 250.0] {
                let works = [walk(1_000, MAX_IN_FLIGHT)];
                let took = simulate(&Pacer::default(), 10, phase, &works, answer_ms);
                let ratio = took / floor_ms(1_000, 10);
                assert!(
                    ratio <= 1.1,
                    "phase {phase}, answers {answer_ms} ms: {ratio}"
                );
                assert!(ratio >= 0.98, "faster than the limit allows: {ratio}");
            }
        }
    }

    #[wasm_bindgen_test]
    fn two_jobs_on_one_token_share_its_pace_within_a_tenth_of_the_floor() {
        // A walk and an export of 500 requests each, four in flight each, the second starting
        // while the first is paced: together within 1.1 × the floor of the 1,000.
        for phase in phases() {
            for later_ms in [0.0, 3_000.0] {
                let second = Work {
                    from_ms: later_ms,
                    ..walk(500, MAX_IN_FLIGHT)
                };
                let works = [walk(500, MAX_IN_FLIGHT), second];
                let took = simulate(&Pacer::default(), 10, phase, &works, 30.0);
                let ratio = took / floor_ms(1_000, 10);
                assert!(
                    ratio <= 1.1,
                    "phase {phase}, second at {later_ms} ms: {ratio}"
                );
            }
        }
        // The home figures' two months (108 pages, one at a time) beside a sends walk.
        for phase in phases() {
            let works = [walk(108, 1), walk(108, 1)];
            let took = simulate(&Pacer::default(), 10, phase, &works, 30.0);
            let ratio = took / floor_ms(216, 10);
            assert!(ratio <= 1.1, "phase {phase}: {ratio}");
        }
    }

    #[wasm_bindgen_test]
    fn what_a_pace_learned_is_kept_as_three_numbers_and_anything_else_is_ignored() {
        let mut pace = learned(10);
        let kept = pace.learned().expect("learned");
        assert_eq!(Learned::parse(&kept.text()), Some(kept));
        for bad in ["", "10", "10 11", "a b c", "0 0 0", "-1 2 3"] {
            assert_eq!(Learned::parse(bad), None, "{bad:?}");
        }
        // Resumed after a reload, it goes on at the rate learned and does not try past it.
        let mut resumed = Pace::default();
        resumed.resume(kept, 50_000.0);
        assert_eq!(resumed.interval_ms(), pace.interval_ms());
        assert_eq!(climbs(&mut resumed, 50_000.0, 3), vec![10, 10, 10]);
        pace.answered(50_000.0);
        assert_eq!(
            pace.rate(),
            Some(11),
            "never refused while paced, a fresh one tries"
        );
    }

    #[wasm_bindgen_test]
    fn asks_as_fast_as_answers_come_until_refused() {
        let pacer = Pacer::default();
        assert_eq!(pacer.reserve(1_000.0), 1_000.0);
        assert_eq!(pacer.reserve(1_000.0), 1_000.0);
        assert_eq!(pacer.pace.borrow().rate(), None);
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
        assert_eq!(pace.interval_ms().round(), 102.0);
        let pacer = Pacer::default();
        *pacer.pace.borrow_mut() = pace.clone();
        let starts: Vec<f64> = (0..3).map(|_| pacer.reserve(1_300.0).round()).collect();
        assert_eq!(starts, vec![1_300.0, 1_402.0, 1_504.0]);
        // A turn taken late starts when taken, not earlier to catch up.
        assert_eq!(pacer.reserve(2_000.0), 2_000.0);
        // A hold moves every later turn past it.
        pacer.hold_at(1_000, 2_000.0);
        assert_eq!(pacer.reserve(2_100.0), 3_000.0);
        // Refused while paced: down to what got through in the window before.
        for i in 0..10 {
            pace.answered(1_300.0 + f64::from(i) * 102.0);
        }
        pace.refused(2_320.0);
        assert_eq!(pace.rate(), Some(9));
        assert_eq!(floor_ms(1_000, 10), 100_000.0);
    }

    #[wasm_bindgen_test]
    fn a_lowered_pace_climbs_back_to_one_under_the_pace_refused() {
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
        pace.answered(2_600.0 + RECOVER_MS - 1.0);
        assert_eq!(pace.rate(), Some(1), "not before RECOVER_MS");
        pace.answered(2_600.0 + RECOVER_MS);
        assert_eq!(pace.rate(), Some(2));
        // Doubles every RECOVER_MS up to one under the pace refused (8), then stays.
        assert_eq!(
            climbs(&mut pace, 2_600.0 + RECOVER_MS, 5),
            vec![4, 7, 7, 7, 7]
        );
    }

    #[wasm_bindgen_test]
    fn a_walk_under_a_rate_limit_stays_within_a_tenth_of_its_floor() {
        // 1,000 requests at 10 a second, one at a time: the floor is 100 s. At every phase of
        // the windows and however fast the platform answers, the walk ends within 1.1 × it.
        for phase in phases() {
            for answer_ms in [5.0, 30.0, 60.0] {
                let took = simulate(&Pacer::default(), 10, phase, &[walk(1_000, 1)], answer_ms);
                let ratio = took / floor_ms(1_000, 10);
                assert!(
                    ratio <= 1.1,
                    "phase {phase}, answers {answer_ms} ms: {ratio}"
                );
                assert!(ratio >= 0.98, "faster than the limit allows: {ratio}");
            }
        }
        // 200 requests (the e2e's mid-sized world at 100 a page takes 30).
        let ratio =
            simulate(&Pacer::default(), 10, 400.0, &[walk(200, 1)], 30.0) / floor_ms(200, 10);
        assert!(ratio <= 1.15, "{ratio}");
    }

    #[wasm_bindgen_test]
    fn waits_out_retry_after_and_backs_off_without_it() {
        assert_eq!(busy_wait_ms(Some(2), 1, 0.0), Some(2_000));
        assert_eq!(busy_wait_ms(Some(0), 1, 0.0), Some(1_000));
        assert_eq!(busy_wait_ms(Some(3_600), 1, 0.0), Some(MAX_WAIT_MS));
        // Without one, the policy's backoff: equal jitter, from 1–2 s.
        assert_eq!(busy_wait_ms(None, 1, 0.0), Some(1_000));
        assert_eq!(busy_wait_ms(None, 1, 1.0), Some(2_000));
        assert_eq!(busy_wait_ms(None, 3, 0.0), Some(4_000));
        assert_eq!(busy_wait_ms(None, 20, 1.0), Some(MAX_BACKOFF_MS));
        assert_eq!(busy_wait_ms(Some(1), MAX_BUSY_IN_A_ROW, 0.0), Some(1_000));
        assert_eq!(busy_wait_ms(Some(1), MAX_BUSY_IN_A_ROW + 1, 0.0), None);
    }

    /// A pace that learned `n` a second: `n` answered in the first window, then refused.
    fn learned(n: u32) -> Pace {
        let mut pace = Pace::default();
        for i in 0..n {
            pace.answered(f64::from(i) * 10.0);
        }
        pace.refused(f64::from(n) * 10.0);
        pace
    }

    /// The pace after each of `steps` quiet spells of [`RECOVER_MS`] from `t`.
    fn climbs(pace: &mut Pace, mut t: f64, steps: usize) -> Vec<u32> {
        (0..steps)
            .map(|_| {
                t += RECOVER_MS;
                pace.answered(t);
                pace.rate().unwrap_or(0)
            })
            .collect()
    }

    #[wasm_bindgen_test]
    fn refusals_in_a_row_lower_the_pace_but_it_climbs_back_to_under_the_first_refused() {
        // Paced at 10, then the admin's screens filled the window: refused after 5 got
        // through, then again at once, and again.
        let mut pace = learned(10);
        for i in 0..5 {
            pace.answered(1_100.0 + f64::from(i) * 102.0);
        }
        pace.refused(1_700.0);
        pace.refused(1_800.0);
        pace.refused(1_900.0);
        assert_eq!(pace.rate(), Some(1), "lowered to what got through");
        assert_eq!(
            climbs(&mut pace, 1_900.0, 4),
            vec![2, 4, 8, 9],
            "back to one under the 10 refused first"
        );
    }

    #[wasm_bindgen_test]
    fn a_pace_refused_low_while_others_shared_the_allowance_climbs_to_half_the_first() {
        // Learned 10; later, with the admin's screens busy, refused at 2 after one got through.
        let mut pace = learned(10);
        for i in 0..2 {
            pace.answered(1_100.0 + f64::from(i) * 500.0);
        }
        pace.refused(1_700.0); // refused at 10, after 2 got through: 2
        pace.answered(2_300.0);
        pace.refused(2_800.0); // refused at 2, after 1: 1
        assert_eq!(pace.rate(), Some(1));
        assert_eq!(
            climbs(&mut pace, 2_800.0, 4),
            vec![2, 4, 5, 5],
            "not stuck at 1 a second: half of the 10 learned"
        );
    }

    #[wasm_bindgen_test]
    fn a_pace_learned_short_of_the_limit_climbs_to_it() {
        // The first window also held three requests of the admin's screens: 7 of the job's got
        // through before the refusal, of a limit of 10.
        let pace = learned(7);
        assert_eq!(pace.rate(), Some(7));
        // A minute's work alone: it finds the limit again, and stays within it.
        let pacer = Pacer::default();
        *pacer.pace.borrow_mut() = pace;
        simulate(&pacer, 10, 300.0, &[walk(600, 1)], 30.0);
        let rate = pacer.pace.borrow().rate().unwrap_or(0);
        assert!((9..=10).contains(&rate), "{rate}");
    }

    #[wasm_bindgen_test]
    fn a_first_refusal_learns_from_every_request_of_the_token_in_its_window() {
        // The home screen read four times, then the walk got six through: the window held ten.
        let mut pace = Pace::default();
        for i in 0..6 {
            pace.answered(100.0 + f64::from(i) * 60.0);
        }
        pace.refused_among(460.0, Some(10));
        assert_eq!(pace.rate(), Some(10), "not the walk's own six");
        // A later refusal lowers it to the job's own share: the screen may still be reading.
        for i in 0..4 {
            pace.answered(1_500.0 + f64::from(i) * 102.0);
        }
        pace.refused_among(1_910.0, Some(10));
        assert_eq!(pace.rate(), Some(4));
    }

    #[wasm_bindgen_test]
    fn a_pace_learned_too_fast_measures_again_and_stays_under_what_it_measured() {
        // The first refusal's window also held eight requests of the platform's window before
        // it: 18 learned, of a limit of 10.
        let mut pace = Pace::default();
        for i in 0..18 {
            pace.answered(f64::from(i) * 50.0);
        }
        pace.refused_among(900.0, Some(18));
        assert_eq!(pace.rate(), Some(18));
        // Paced, alone on the token: refused after 10.
        for i in 0..10 {
            pace.answered(1_900.0 + f64::from(i) * 57.0);
        }
        pace.refused_among(2_470.0, Some(10));
        assert_eq!(pace.rate(), Some(10), "what got through since the wait");
        assert_eq!(
            climbs(&mut pace, 2_470.0, 3),
            vec![10, 10, 10],
            "never past it"
        );
    }

    #[wasm_bindgen_test]
    fn a_pace_refused_alone_twice_measures_again() {
        // 18 learned; paced, alone, 13 got through since the wait (two of the platform's
        // windows: 3 and 10): lowered to 13, refused again after 12 (2 and 10).
        let mut pace = Pace::default();
        for i in 0..18 {
            pace.answered(f64::from(i) * 50.0);
        }
        pace.refused_among(900.0, Some(18));
        for i in 0..13 {
            pace.answered(1_900.0 + f64::from(i) * 57.0);
        }
        assert_eq!(pace.refused_among(2_641.0, Some(13)), 0);
        assert_eq!(pace.rate(), Some(13));
        for i in 0..12 {
            pace.answered(3_700.0 + f64::from(i) * 78.0);
        }
        assert_eq!(pace.refused_among(4_636.0, Some(12)), MEASURE_LATER_MS);
        assert_eq!(
            pace.rate(),
            None,
            "as fast as answers come, to measure again"
        );
        for i in 0..10 {
            pace.answered(6_200.0 + f64::from(i) * 20.0);
        }
        pace.refused_among(6_400.0, Some(10));
        assert_eq!(pace.rate(), Some(10));
        assert_eq!(
            climbs(&mut pace, 6_400.0, 3),
            vec![10, 10, 10],
            "never past it"
        );
    }

    #[wasm_bindgen_test]
    fn a_pace_refused_while_others_read_is_lowered_not_measured_again() {
        let mut pace = learned(10);
        for i in 0..5 {
            pace.answered(1_100.0 + f64::from(i) * 102.0);
        }
        // The window also held five reads of the screens.
        pace.refused_among(1_700.0, Some(10));
        assert_eq!(pace.rate(), Some(5));
    }

    #[wasm_bindgen_test]
    fn a_walk_beside_the_screens_first_reads_is_not_held_to_its_own_share() {
        // The home screen's four reads share the walk's first window: its 104 pages at 10 a
        // second end within 1.15 × the floor of the 108 requests, whatever the windows' phase
        // (the first refusal's count may take in the window before it; one more refusal
        // finds the limit is not higher). Learning only its own six, it would take 1.27 ×.
        // Unpaced, the sandbox answers a page in 5 to 40 ms.
        for phase in phases() {
            for answer_ms in [10.0, 30.0] {
                let screen = Work {
                    screen: true,
                    ..walk(4, 4)
                };
                let works = [screen, walk(104, 1)];
                let took = simulate(&Pacer::default(), 10, phase, &works, answer_ms);
                let ratio = took / floor_ms(108, 10);
                assert!(
                    ratio <= 1.15,
                    "phase {phase}, answers {answer_ms} ms: {ratio}"
                );
            }
        }
    }

    #[wasm_bindgen_test]
    fn a_pacer_learns_from_the_answers_the_api_client_noted() {
        // Times far in the past: other tests' requests (now) are not in these windows.
        let pacer = Pacer::default();
        for i in 0..4 {
            pacer.note_answered(5_000.0 + f64::from(i));
        }
        for i in 0..6 {
            let started = 5_100.0 + f64::from(i) * 60.0;
            pacer.note_answered(started);
            pacer.answered(started);
        }
        assert!(pacer.refused(5_460.0, Some(1)).is_some());
        assert_eq!(pacer.pace.borrow().rate(), Some(10));
    }

    #[wasm_bindgen_test]
    fn refusals_of_requests_already_in_flight_do_not_collapse_the_pace() {
        // Four in flight when the platform's window filled: the first refusal sets the pace,
        // the three others (started before it arrived) leave it as it is.
        let pacer = Pacer::default();
        let t = now();
        for i in 0..10 {
            pacer.answered(t - 900.0 + f64::from(i) * 80.0);
        }
        assert_eq!(pacer.refused(t - 30.0, Some(1)), Some(1_000));
        let learned = pacer.pace.borrow().rate();
        assert_eq!(learned, Some(10));
        for started in [t - 40.0, t - 35.0, t - 31.0] {
            assert_eq!(pacer.refused(started, Some(1)), Some(1_000));
        }
        assert_eq!(
            pacer.pace.borrow().rate(),
            learned,
            "not collapsed to 1 a second"
        );
        assert_eq!(
            pacer.busy_in_a_row.get(),
            1,
            "one refusal in a row, not four"
        );
        // A request started after that refusal arrived and refused again does count.
        assert!(pacer.refused(now() + 1.0, None).is_some());
        assert_eq!(pacer.busy_in_a_row.get(), 2);
        // Cancel: the lane's waits end at once; another lane of the same pacer goes on.
        let pacer = Rc::new(pacer);
        let (cancelled, other) = (Lane::new(pacer.clone()), Lane::new(pacer));
        cancelled.stop();
        assert!(cancelled.stopped() && !other.stopped());
    }
}
