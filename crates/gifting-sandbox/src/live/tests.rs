//! The live platform, moved by hand: [`advance`] on the demo world.

use std::collections::{BTreeMap, BTreeSet};

use gifting_api::rest::{Campaign, Send, TeamGroup};
use gifting_api::SendStatus;

use super::*;
use crate::data::{self, WorldSize};

/// 2026-11-26T16:00:00Z, after the seeded data.
const NOW: i64 = 1_795_708_800;

struct Platform {
    sends: SendLog,
    users: BTreeMap<u64, UserRecord>,
    groups: Vec<TeamGroup>,
    touches: Vec<Campaign>,
    motion: Motion,
}

impl Platform {
    fn demo(per_second: u64) -> Self {
        let d = data::generate(1, &WorldSize::DEMO);
        let sends = SendLog::from_newest_first(d.sends);
        let motion = Motion::new(1, per_second, &sends, NOW);
        Platform {
            sends,
            users: d.users.into_iter().map(|u| (u.id, u)).collect(),
            groups: d.groups,
            touches: d.touches,
            motion,
        }
    }

    fn advance(&mut self, elapsed: Duration) -> Moved {
        let scene = Scene {
            sends: &mut self.sends,
            users: &self.users,
            groups: &self.groups,
            touches: &self.touches,
        };
        advance(&mut self.motion, scene, elapsed)
    }

    fn by_id(&self) -> BTreeMap<u64, Send> {
        self.sends.iter().map(|s| (s.id, s.clone())).collect()
    }
}

fn secs(n: u64) -> Duration {
    Duration::from_secs(n)
}

#[test]
fn the_log_pages_newest_first() {
    let p = Platform::demo(0);
    let all: Vec<Send> = p.sends.iter().cloned().collect();
    assert_eq!(p.sends.page(1, 25), all[..25]);
    assert_eq!(p.sends.page(12, 25), all[275..]);
    assert_eq!(p.sends.page(3, 100), all[200..]);
    assert_eq!(p.sends.page(4, 90), all[270..]);
    assert!(p.sends.page(13, 25).is_empty());
    assert!(p.sends.page(u32::MAX, 100).is_empty());
    assert!(all.windows(2).all(|w| w[0].created_at >= w[1].created_at));
}

#[test]
fn new_sends_arrive_on_top_with_new_ids_created_when_they_arrived() {
    let mut p = Platform::demo(3);
    let before: Vec<Send> = p.sends.iter().cloned().collect();
    let moved = p.advance(secs(20));
    let arrived = moved.arrived as usize;
    // 3 a second on average, each gap half to one and a half of the mean.
    assert!((40..=120).contains(&arrived), "{arrived}");
    assert_eq!(p.sends.len(), before.len() + arrived);
    let page: Vec<Send> = p.sends.iter().cloned().collect();
    // The old sends keep their order below the new ones.
    let ids_below: Vec<u64> = page[arrived..].iter().map(|s| s.id).collect();
    assert_eq!(ids_below, before.iter().map(|s| s.id).collect::<Vec<_>>());
    let newest_seeded = before.iter().map(|s| s.id).max().unwrap_or(0);
    let ids: Vec<u64> = page[..arrived].iter().map(|s| s.id).collect();
    assert!(ids.windows(2).all(|w| w[0] == w[1] + 1), "{ids:?}");
    assert_eq!(ids.last(), Some(&(newest_seeded + 1)));
    for s in &page[..arrived] {
        assert!(s.created_at.as_str() > before[0].created_at.as_str());
        assert!(
            s.created_at.starts_with("2026-11-26T11:00:"),
            "{}",
            s.created_at
        );
        assert_eq!(s.status_updates[0].status, SendStatus::Pending);
        assert_eq!(s.status_updates[0].occurred_at, s.created_at);
        assert_eq!(s.status_updates.last().map(|u| &u.status), Some(&s.status));
    }
    let unique: BTreeSet<u64> = page.iter().map(|s| s.id).collect();
    assert_eq!(unique.len(), page.len());
}

#[test]
fn sends_in_progress_walk_their_timeline_and_final_ones_never_change() {
    let mut p = Platform::demo(0);
    let before = p.by_id();
    let open_before = before.values().filter(|s| in_progress(s)).count();
    assert!(open_before > 100, "{open_before}");
    assert_eq!(p.motion.open(), open_before);
    // Every seeded send in progress takes its first step within half an hour.
    p.advance(secs(31 * 60));
    let after = p.by_id();
    let mut repriced = 0;
    for (id, old) in &before {
        let new = &after[id];
        if old.status.is_final() || !in_progress(old) {
            assert_eq!(new, old, "{id} was final");
            continue;
        }
        assert!(new.status_updates.len() > old.status_updates.len(), "{id}");
        assert_eq!(
            new.status_updates[..old.status_updates.len()],
            old.status_updates
        );
        assert_eq!(
            new.status_updates.last().map(|u| &u.status),
            Some(&new.status)
        );
        assert!(new
            .status_updates
            .last()
            .is_some_and(|u| u.occurred_at.starts_with("2026-11-26")));
        if in_progress(new) {
            repriced += usize::from(new.current_total_cost != old.current_total_cost);
        }
        let rest = (&new.created_at, &new.recipient, &new.sender, &new.touch);
        assert_eq!(
            rest,
            (&old.created_at, &old.recipient, &old.sender, &old.touch)
        );
    }
    assert!(repriced > 0);
}

#[test]
fn a_cost_changes_while_in_progress_and_never_once_final() {
    let mut p = Platform::demo(1);
    let mut frozen: BTreeMap<u64, Send> = BTreeMap::new();
    let mut moved_costs = 0;
    // Slices shorter than the 5 s between two steps of a send: one step at most per slice.
    for _ in 0..300 {
        let before = p.by_id();
        p.advance(secs(4));
        for (id, new) in p.by_id() {
            if let Some(old) = frozen.get(&id) {
                assert_eq!(&new, old, "{id} changed after its final status");
            } else if new.status.is_final() {
                frozen.insert(id, new.clone());
            }
            let old = before.get(&id);
            if in_progress(&new) && old.is_some_and(|o| o.status != new.status) {
                assert_ne!(
                    Some(&new.current_total_cost),
                    old.map(|o| &o.current_total_cost)
                );
                moved_costs += 1;
            }
        }
    }
    assert!(moved_costs > 50, "{moved_costs}");
}

#[test]
fn how_the_time_is_cut_changes_nothing() {
    let mut once = Platform::demo(5);
    once.advance(secs(600));
    let mut often = Platform::demo(5);
    for _ in 0..600 {
        often.advance(Duration::from_millis(999));
    }
    often.advance(Duration::from_millis(600));
    assert_eq!(once.sends, often.sends);
    assert_eq!(once.motion.elapsed(), often.motion.elapsed());
}

#[test]
fn arrivals_stop_at_the_cap_and_nothing_but_the_sends_is_kept() {
    let mut p = Platform::demo(1000);
    p.motion = p.motion.clone().with_max_sends(2_000);
    let moved = p.advance(secs(24 * 3600));
    assert_eq!(p.sends.len(), 2_000);
    assert_eq!(moved.arrived, 1_700);
    // Every timeline ended: no timer is left, and no history grew past its path.
    assert_eq!(p.motion.open(), 0);
    assert!(p.sends.iter().all(|s| !in_progress(s)));
    assert!(p.sends.iter().all(|s| s.status_updates.len() <= 8));
    let quiet = p.advance(secs(24 * 3600));
    assert_eq!(quiet, Moved::default());
}

#[test]
fn a_thousand_a_second_is_a_thousand_a_second() {
    let mut p = Platform::demo(1000);
    let moved = p.advance(secs(10));
    assert!(
        (9_500..=10_500).contains(&moved.arrived),
        "{}",
        moved.arrived
    );
}

#[test]
fn without_users_nothing_arrives_but_statuses_still_move() {
    let mut p = Platform::demo(3);
    p.users.clear();
    let moved = p.advance(secs(3600));
    assert_eq!(moved.arrived, 0);
    assert!(moved.steps > 100);
    assert_eq!(p.sends.len(), 300);
}

#[test]
fn a_manual_clock_moves_only_when_told() {
    let clock = Clock::manual();
    assert_eq!(clock.now(), Duration::ZERO);
    clock.skip(secs(5));
    clock.skip(Duration::from_millis(250));
    assert_eq!(clock.now(), Duration::from_millis(5_250));
    let system = Clock::system();
    system.skip(secs(60));
    assert!(system.now() >= secs(60));
}
