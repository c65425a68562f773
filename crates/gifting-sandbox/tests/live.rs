//! `--live`: sends arrive on top, sends in progress move, final ones stand still, and a walk of
//! the list by pages holds what docs/platform.md promises. The platform's clock is a manual
//! one here, moved by the test.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use common::{start, start_with, Sandbox};
use gifting_api::rest::{Send, SendPage, StatusGroup};

/// A live sandbox whose clock stands still until the test moves it.
async fn live(per_second: u64) -> Sandbox {
    start_with(|c| {
        c.live = true;
        c.live_sends_per_second = per_second;
        c.live_manual_clock = true;
    })
    .await
}

fn skip(s: &Sandbox, by: Duration) {
    s.running.state.live_clock().expect("live").skip(by);
}

async fn page(s: &Sandbox, t: &str, page: u32, per_page: u32) -> SendPage {
    s.get_ok(&format!("/api/v3/send?page={page}&per_page={per_page}"), t)
        .await
}

/// Every send, by id, read page by page while the clock stands still.
async fn all_sends(s: &Sandbox, t: &str) -> BTreeMap<u64, Send> {
    let mut all = BTreeMap::new();
    for n in 1.. {
        let p = page(s, t, n, 100).await;
        let short = p.sends.len() < 100;
        all.extend(p.sends.into_iter().map(|x| (x.id, x)));
        if short {
            break;
        }
    }
    all
}

fn ids(sends: &[Send]) -> Vec<u64> {
    sends.iter().map(|x| x.id).collect()
}

#[tokio::test]
async fn new_sends_arrive_on_page_one_and_the_rest_keep_their_order() {
    let s = live(3).await;
    let t = s.admin().await;
    let before = page(&s, &t, 1, 100).await;
    assert_eq!(before.total_count, 300);
    skip(&s, Duration::from_secs(10));
    let after = page(&s, &t, 1, 100).await;
    let arrived = (after.total_count - before.total_count) as usize;
    assert!((15..=60).contains(&arrived), "{arrived}");
    let newest_before = ids(&before.sends).into_iter().max().unwrap_or(0);
    let new_ids = ids(&after.sends[..arrived]);
    assert!(new_ids.iter().all(|id| *id > newest_before));
    assert_eq!(new_ids.iter().collect::<BTreeSet<_>>().len(), arrived);
    assert_eq!(
        ids(&after.sends[arrived..]),
        ids(&before.sends[..100 - arrived])
    );
    for x in &after.sends[..arrived] {
        assert!(x.created_at >= before.sends[0].created_at);
        assert_eq!(x.status_updates.last().map(|u| &u.status), Some(&x.status));
    }
    // The clock stands still: so does the list.
    assert_eq!(page(&s, &t, 1, 100).await, after);
}

#[tokio::test]
async fn a_send_in_progress_advances_and_a_final_one_never_changes() {
    let s = live(0).await;
    let t = s.admin().await;
    let before = all_sends(&s, &t).await;
    // Every seeded send in progress takes a step within half an hour.
    skip(&s, Duration::from_secs(31 * 60));
    let after = all_sends(&s, &t).await;
    assert_eq!(after.len(), 300);
    let mut advanced = 0;
    for (id, old) in &before {
        let new = &after[id];
        if old.status.group() == StatusGroup::InProgress {
            assert!(new.status_updates.len() > old.status_updates.len(), "{id}");
            assert_eq!(
                new.status_updates.last().map(|u| &u.status),
                Some(&new.status)
            );
            advanced += 1;
        } else {
            assert_eq!(new, old, "{id} in {} changed", old.status);
        }
    }
    assert!(advanced > 100, "{advanced}");
    let delivered = before
        .values()
        .filter(|x| x.status.group() == StatusGroup::DeliveredOrUsed);
    assert!(delivered.clone().count() > 10);
    for old in delivered {
        assert_eq!(after[&old.id].current_total_cost, old.current_total_cost);
    }
}

/// docs/platform.md, "A platform that moves": a walk from page 1 until a short page holds
/// every send that existed when it read page 1, each once by id; the sends that arrived
/// meanwhile are `total_count(now) - total_count(at page 1)`, and reading from page 1 until a
/// send already loaded finds exactly them.
#[tokio::test]
async fn a_walk_while_sends_arrive_misses_none_and_counts_the_newcomers() {
    let s = live(3).await;
    let t = s.admin().await;
    skip(&s, Duration::from_secs(5));
    let first = page(&s, &t, 1, 25).await;
    let existing: BTreeSet<u64> = s
        .running
        .state
        .read()
        .db
        .sends
        .iter()
        .map(|x| x.id)
        .collect();
    let mut loaded: BTreeMap<u64, Send> = first.sends.into_iter().map(|x| (x.id, x)).collect();
    let mut repeated = 0;
    for n in 2.. {
        skip(&s, Duration::from_secs(2));
        let p = page(&s, &t, n, 25).await;
        let short = p.sends.len() < 25;
        for x in p.sends {
            repeated += usize::from(loaded.insert(x.id, x).is_some());
        }
        if short {
            break;
        }
    }
    assert!(repeated > 0, "arrivals pushed sends down");
    // Fewer than a page arrived between two reads: the walk holds exactly what existed.
    assert_eq!(loaded.keys().copied().collect::<BTreeSet<_>>(), existing);
    let now = page(&s, &t, 1, 25).await;
    let arrived = (now.total_count - first.total_count) as usize;
    assert!(arrived > 25, "{arrived}");
    // "N arrived while loading: Load them": from page 1 until a send already loaded.
    let mut newcomers = Vec::new();
    'pages: for n in 1.. {
        for x in page(&s, &t, n, 25).await.sends {
            if loaded.contains_key(&x.id) {
                break 'pages;
            }
            newcomers.push(x.id);
        }
    }
    assert_eq!(newcomers.len(), arrived);
    assert!(newcomers.iter().all(|id| !existing.contains(id)));
}

#[tokio::test]
async fn without_live_nothing_moves() {
    let s = start().await;
    assert!(s.running.state.live_clock().is_none());
    let t = s.admin().await;
    let before = all_sends(&s, &t).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(all_sends(&s, &t).await, before);
    assert_eq!(before.len(), 300);
}

#[tokio::test]
async fn a_live_sandbox_moves_with_the_system_clock() {
    let s = start_with(|c| {
        c.live = true;
        c.live_sends_per_second = 1000;
    })
    .await;
    let t = s.admin().await;
    let before = page(&s, &t, 1, 10).await.total_count;
    tokio::time::sleep(Duration::from_millis(400)).await;
    let after = page(&s, &t, 1, 10).await.total_count;
    assert!(after > before, "{before} -> {after}");
}
