//! `--live`: a platform that moves. New sends arrive, sends in progress walk their timeline
//! (pending, processing, packed, shipped, delivered; or sent, opened, clicked, used; and the
//! problems that branch off), and an unfinished send's cost changes as it goes.
//!
//! Nothing here reads a clock: [`advance`] applies what happened in the `elapsed` time since
//! the last call, every event (an arrival, a send's next step) at its own instant, in order.
//! The state calls it with the time its [`Clock`] says has passed (on a sends read and once a
//! second in the background), and tests call it directly or move a manual clock. How the time
//! is cut into calls changes nothing: one call of ten minutes and six hundred of a second each
//! give the same sends.
//!
//! Memory: the sends only grow (up to [`MAX_SENDS`] in all), a send's history ends after a
//! few steps, and the only other thing kept is one timer per send in progress.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use gifting_api::rest::StatusGroup;
use gifting_api::rest::{Campaign, Send, StatusUpdate, TeamGroup};

use crate::data::people::UserRecord;
use crate::data::prng::SplitMix64;
use crate::data::sends::{self, Pools, FIRST_SEND_ID};
use crate::data::time::org_time;

/// Arrivals stop when the platform holds this many sends (about a gigabyte).
pub const MAX_SENDS: usize = 1_000_000;

/// Times are kept in microseconds.
const SECOND: i64 = 1_000_000;
/// A seeded send in progress takes its next step within this time of the start.
const SEEDED_FIRST_STEP: i64 = 30 * 60 * SECOND;
/// Between two steps of a send: 5 s to 2 min.
const STEP: (i64, i64) = (5 * SECOND, 120 * SECOND);

/// The sends, stored oldest first so a send keeps its place (and an arrival is a push); listed
/// newest first, as the platform does.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SendLog {
    oldest_first: Vec<Send>,
}

impl SendLog {
    pub fn from_newest_first(mut sends: Vec<Send>) -> Self {
        sends.reverse();
        SendLog {
            oldest_first: sends,
        }
    }

    pub fn len(&self) -> usize {
        self.oldest_first.len()
    }

    pub fn is_empty(&self) -> bool {
        self.oldest_first.is_empty()
    }

    /// One page of the newest-first list (`page` from 1); a page past the end is empty. Only
    /// the page is cloned.
    pub fn page(&self, page: u32, per_page: u32) -> Vec<Send> {
        let skip = (u64::from(page).max(1) - 1) * u64::from(per_page);
        let len = self.oldest_first.len();
        let skip = usize::try_from(skip).unwrap_or(usize::MAX).min(len);
        let end = len - skip;
        let start = end.saturating_sub(per_page as usize);
        self.oldest_first[start..end]
            .iter()
            .rev()
            .cloned()
            .collect()
    }

    /// Newest first.
    pub fn iter(&self) -> impl Iterator<Item = &Send> {
        self.oldest_first.iter().rev()
    }

    fn push(&mut self, send: Send) -> usize {
        self.oldest_first.push(send);
        self.oldest_first.len() - 1
    }
}

/// What a live platform keeps between two calls of [`advance`].
#[derive(Debug, Clone)]
pub struct Motion {
    rng: SplitMix64,
    /// Mean time between two arrivals (µs); `None` when nothing arrives.
    arrival_every: Option<i64>,
    /// How far the platform has moved (µs since the start).
    now: i64,
    next_arrival: i64,
    /// When each send in progress takes its next step: (µs, its place in the log).
    due: BinaryHeap<Reverse<(i64, usize)>>,
    next_id: u64,
    /// The start in Unix microseconds (the caller's: the wall clock, or the seeded data's end
    /// if that is later, so a new send is never older than a seeded one).
    origin_unix: i64,
    max_sends: usize,
}

/// What one call of [`advance`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Moved {
    pub arrived: u64,
    pub steps: u64,
}

/// What [`advance`] changes and what a new send is drawn from.
pub struct Scene<'a> {
    pub sends: &'a mut SendLog,
    pub users: &'a BTreeMap<u64, UserRecord>,
    pub groups: &'a [TeamGroup],
    pub touches: &'a [Campaign],
}

fn in_progress(send: &Send) -> bool {
    send.status.group() == StatusGroup::InProgress
}

impl Motion {
    /// A platform starting to move at `origin_unix` (seconds) with `sends` as they are: `per_second`
    /// sends arrive each second (on average), and each seeded send in progress takes its next
    /// step within half an hour.
    pub fn new(seed: u64, per_second: u64, sends: &SendLog, origin_unix: i64) -> Self {
        let mut rng = SplitMix64::fork(seed, "live");
        let due = sends
            .oldest_first
            .iter()
            .enumerate()
            .filter(|(_, s)| in_progress(s))
            .map(|(at, _)| Reverse((rng.range(0, SEEDED_FIRST_STEP), at)))
            .collect();
        let arrival_every = (per_second > 0).then(|| SECOND / per_second.min(1000) as i64);
        let next_id = sends
            .iter()
            .map(|s| s.id)
            .max()
            .unwrap_or(FIRST_SEND_ID - 1)
            + 1;
        let mut motion = Motion {
            rng,
            arrival_every,
            now: 0,
            next_arrival: 0,
            due,
            next_id,
            origin_unix: origin_unix * SECOND,
            max_sends: MAX_SENDS,
        };
        motion.next_arrival = motion.arrival_gap();
        motion
    }

    /// The same, arrivals stopping at `max_sends` sends instead of [`MAX_SENDS`].
    pub fn with_max_sends(self, max_sends: usize) -> Self {
        Motion { max_sends, ..self }
    }

    /// How far the platform has moved since it started.
    pub fn elapsed(&self) -> Duration {
        Duration::from_micros(self.now as u64)
    }

    /// Sends in progress (each with its timer).
    pub fn open(&self) -> usize {
        self.due.len()
    }

    /// A gap between two arrivals: half to one and a half times the mean.
    fn arrival_gap(&mut self) -> i64 {
        let mean = self.arrival_every.unwrap_or(0);
        self.rng.range(mean / 2, mean + mean / 2)
    }

    fn unix_secs(&self, at: i64) -> i64 {
        (self.origin_unix + at).div_euclid(SECOND)
    }

    /// When the next send arrives, unless none will.
    fn next_arrival(&self, sends: &SendLog) -> Option<i64> {
        self.arrival_every?;
        (sends.len() < self.max_sends).then_some(self.next_arrival)
    }
}

/// Applies what happened on the platform in the `elapsed` time since the last call: sends
/// arrive (newest on top, new ids, created at their instant) and sends in progress take the
/// steps that fell due, a step to a status still in progress changing the cost too.
pub fn advance(motion: &mut Motion, scene: Scene<'_>, elapsed: Duration) -> Moved {
    let until = motion
        .now
        .saturating_add(i64::try_from(elapsed.as_micros()).unwrap_or(i64::MAX));
    let pools = Pools::new(scene.groups, scene.touches, (0, 0));
    let senders = Senders::of(scene.users);
    let mut moved = Moved::default();
    loop {
        let step_at = motion.due.peek().map(|Reverse((at, _))| *at);
        let arrive_at = motion.next_arrival(scene.sends);
        // Steps first at the same instant; nothing after `until`.
        match (step_at, arrive_at) {
            (Some(s), a) if s <= until && a.is_none_or(|a| s <= a) => {
                let Some(Reverse((at, place))) = motion.due.pop() else {
                    break;
                };
                step(motion, scene.sends, at, place);
                moved.steps += 1;
            }
            (_, Some(a)) if a <= until => {
                moved.arrived += u64::from(arrive(motion, scene.sends, &senders, &pools, a));
            }
            _ => break,
        }
    }
    motion.now = until;
    moved
}

/// Who sends: the active users, or any user when none is active.
struct Senders<'a>(Vec<&'a UserRecord>);

impl<'a> Senders<'a> {
    fn of(users: &'a BTreeMap<u64, UserRecord>) -> Self {
        let active: Vec<&UserRecord> = users.values().filter(|u| u.active).collect();
        Senders(if active.is_empty() {
            users.values().collect()
        } else {
            active
        })
    }
}

/// The send at `place` takes its next step at `at`; one still in progress gets a new timer.
fn step(motion: &mut Motion, sends: &mut SendLog, at: i64, place: usize) {
    let occurred_at = org_time(motion.unix_secs(at));
    let rng = &mut motion.rng;
    let Some(send) = sends.oldest_first.get_mut(place) else {
        return;
    };
    let Some(next) = sends::next_status(rng, &send.status, &send.kind) else {
        return;
    };
    send.status_updates.push(StatusUpdate {
        status: next.clone(),
        occurred_at,
    });
    send.status = next;
    if in_progress(send) {
        send.current_total_cost = sends::repriced(rng, &send.current_total_cost);
        let next_at = at + rng.range(STEP.0, STEP.1);
        motion.due.push(Reverse((next_at, place)));
    }
}

/// A send arrives at `at`, pending, with the next id, unless the platform has no user to send
/// it; the next arrival is drawn. Whether one arrived.
fn arrive(
    motion: &mut Motion,
    sends: &mut SendLog,
    senders: &Senders,
    pools: &Pools,
    at: i64,
) -> bool {
    motion.next_arrival = at + motion.arrival_gap();
    let Some(sender) = (!senders.0.is_empty()).then(|| *motion.rng.pick(&senders.0)) else {
        return false;
    };
    let created = motion.unix_secs(at);
    let send = sends::arrival(&mut motion.rng, motion.next_id, created, sender, pools);
    motion.next_id += 1;
    let place = sends.push(send);
    let first_step = at + motion.rng.range(STEP.0, STEP.1);
    motion.due.push(Reverse((first_step, place)));
    true
}

/// The time a live platform goes by: the system's monotonic clock, or (for tests) a manual one
/// that stands still until [`Clock::skip`] moves it. Both can be moved forward.
#[derive(Debug)]
pub struct Clock {
    started: Option<Instant>,
    skipped_ms: AtomicU64,
}

impl Clock {
    pub fn system() -> Self {
        Clock {
            started: Some(Instant::now()),
            skipped_ms: AtomicU64::new(0),
        }
    }

    pub fn manual() -> Self {
        Clock {
            started: None,
            skipped_ms: AtomicU64::new(0),
        }
    }

    /// Moves the clock forward by `by`.
    pub fn skip(&self, by: Duration) {
        let ms = u64::try_from(by.as_millis()).unwrap_or(u64::MAX);
        self.skipped_ms.fetch_add(ms, Ordering::Relaxed);
    }

    /// Time since the start.
    pub fn now(&self) -> Duration {
        let run = self.started.map(|s| s.elapsed()).unwrap_or_default();
        run + Duration::from_millis(self.skipped_ms.load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests;
