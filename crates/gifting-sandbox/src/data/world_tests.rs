//! The generated worlds: the demo world never changes for a seed, and the other sizes have the
//! shape they promise.

use std::collections::{BTreeMap, BTreeSet};

use gifting_api::SendStatus;
use serde_json::json;
use sha2::{Digest, Sha256};

use super::*;

/// A digest of everything the generator produced, fed field by field through `serde_json`
/// (whose output does not depend on the Rust version, unlike `Debug`).
fn fingerprint(d: &Seeded) -> String {
    let mut h = Sha256::new();
    let mut feed = |tag: &str, value: serde_json::Value| {
        h.update(tag.as_bytes());
        h.update(value.to_string().as_bytes());
        h.update([0]);
    };
    for g in &d.groups {
        feed("group", json!(g));
    }
    for u in &d.users {
        feed(
            "user",
            json!([
                u.id,
                u.email,
                u.given_name,
                u.family_name,
                u.role,
                u.team_group_id,
                u.active,
                u.balance_cents,
                u.sandbox,
                u.key
            ]),
        );
    }
    for t in &d.touches {
        feed("touch", json!(t));
    }
    for s in &d.sends {
        feed("send", json!(s));
    }
    for p in &d.products {
        let variants: Vec<_> = p
            .variants
            .iter()
            .map(|v| json!([v.id, v.currency, v.price_cents, v.image_count]))
            .collect();
        feed(
            "product",
            json!([
                p.id,
                p.name,
                p.description,
                p.category_ids,
                p.ship_to,
                variants,
                p.hue
            ]),
        );
    }
    for c in &d.categories {
        feed("category", json!(c));
    }
    h.finalize()
        .iter()
        .take(16)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Measured on the generator as it was before worlds had sizes: the default world must stay
/// byte for byte what every screen, test and demo was built against.
#[test]
fn the_demo_world_is_unchanged_for_seeds_1_42_77() {
    for (seed, expected) in [
        (1, "43e303d0b4bd14f301b4d0d90806da6d"),
        (42, "efdff78144dcff69642f1885ec8f5a5a"),
        (77, "b0c93f5734dcd937ed792e2ce6fb80a5"),
    ] {
        assert_eq!(
            fingerprint(&generate(seed, &WorldSize::DEMO)),
            expected,
            "seed {seed}"
        );
    }
}

/// What the issue promises of the large world, as the sizes the generator is given.
#[test]
fn the_large_world_is_sized_as_promised() {
    let l = WorldSize::LARGE;
    assert_eq!(
        (l.users, l.groups, l.campaigns, l.sends, l.products),
        (5_000, 250, 500, 100_000, 10_000)
    );
    assert_eq!(l.big_team_percent * l.users / 100, 3_000);
}

/// Active members per team group id.
fn team_sizes(d: &Seeded) -> BTreeMap<u64, u64> {
    let mut sizes = BTreeMap::new();
    for u in d.users.iter().filter(|u| u.active) {
        *sizes.entry(u.team_group_id).or_default() += 1;
    }
    sizes
}

fn assert_unique<T: Ord>(mut items: Vec<T>, what: &str) {
    let n = items.len();
    items.sort();
    items.dedup();
    assert_eq!(items.len(), n, "{what} are unique");
}

/// The large world in full, except its sends (100,000 take seconds in a debug build; the
/// sends' count is only the length of a range, and `make bench` checks the full world through
/// the API): users, inactive share, the 3,000-member team, campaigns, products.
#[test]
fn the_large_world_has_its_people_teams_campaigns_and_products() {
    let d = generate(
        7,
        &WorldSize {
            sends: 3_000,
            ..WorldSize::LARGE
        },
    );
    assert_eq!(d.users.len(), 5_000);
    let inactive = d.users.iter().filter(|u| !u.active).count();
    assert_eq!(
        (inactive * 100 + 2_500) / 5_000,
        2,
        "{inactive} inactive: 2 %"
    );
    assert_eq!(d.groups.len(), 250);
    let sizes = team_sizes(&d);
    assert_eq!(sizes.get(&people::FIRST_GROUP_ID), Some(&3_000));
    assert!(sizes.values().filter(|&&n| n == 3_000).count() == 1);
    assert!(sizes.len() > 200, "the others are spread over the rest");
    assert_eq!(d.touches.len(), 500);
    assert_eq!(d.products.len(), 10_000);
    assert_unique(d.users.iter().map(|u| u.email.clone()).collect(), "emails");
    assert_unique(
        d.groups.iter().map(|g| g.name.clone()).collect(),
        "group names",
    );
    assert_unique(d.touches.iter().map(|t| t.id).collect(), "campaign ids");
    assert_unique(
        d.products.iter().map(|p| p.id.clone()).collect(),
        "product ids",
    );
    // The demo accounts are there, first, in their groups.
    let demo: Vec<(&str, u64)> = d.users[..3]
        .iter()
        .map(|u| (u.email.as_str(), u.team_group_id))
        .collect();
    assert_eq!(
        demo,
        [
            ("admin@example.com", 108),
            ("manager@example.com", 101),
            ("sender@example.com", 101)
        ]
    );
}

/// Sends of the large world's shape: every status, subtype and type, created in each of the
/// data's 18 months, newest first.
#[test]
fn large_world_sends_cover_every_status_and_type_over_18_months() {
    let d = generate(
        3,
        &WorldSize {
            sends: 4_000,
            users: 300,
            products: 0,
            ..WorldSize::LARGE
        },
    );
    assert_eq!(d.sends.len(), 4_000);
    super::coverage::assert_every_status_subtype_and_type(&d.sends);
    let months: BTreeSet<String> = d.sends.iter().map(|s| s.created_at[..7].into()).collect();
    let expected: BTreeSet<String> = (0..18)
        .map(|m| format!("{}-{:02}", 2025 + m / 12, m % 12 + 1))
        .collect();
    assert_eq!(months, expected);
    assert!(d
        .sends
        .windows(2)
        .all(|w| w[0].created_at >= w[1].created_at));
    assert_unique(d.sends.iter().map(|s| s.id).collect(), "send ids");
}

/// Any counts in between: exactly what was asked, the same for a seed, other for another.
#[test]
fn explicit_counts_make_a_world_of_that_size() {
    let size = WorldSize {
        groups: 12,
        users: 321,
        campaigns: 7,
        sends: 999,
        products: 55,
        ..WorldSize::DEMO
    };
    let d = generate(9, &size);
    let counts = (
        d.groups.len(),
        d.users.len(),
        d.touches.len(),
        d.sends.len(),
        d.products.len(),
    );
    assert_eq!(counts, (12, 321, 7, 999, 55));
    // A demo-shaped world keeps the groups drawn for each user: no team of 60 %.
    assert!(team_sizes(&d).values().all(|&n| n < 100));
    assert_eq!(d.sends, generate(9, &size).sends);
    assert_ne!(d.sends, generate(10, &size).sends);
    let least = WorldSize {
        groups: 1,
        users: 3,
        campaigns: 2,
        sends: 0,
        products: 0,
        ..WorldSize::LARGE
    };
    let d = generate(1, &least);
    assert_eq!((d.groups.len(), d.users.len(), d.touches.len()), (1, 3, 2));
    assert!(d
        .users
        .iter()
        .all(|u| u.team_group_id == people::FIRST_GROUP_ID));
}

/// `2026-11-26` as the generator's day.
fn day(text: &str) -> i64 {
    time::parse_day(text).expect("a date")
}

/// Moving the world by no days leaves it byte for byte as it was, so `--today 2026-06-30`
/// before the present is made is the world every pinned fact was measured on; and moving it
/// forth and back again is no change either.
#[test]
fn the_anchor_of_the_data_end_moves_nothing() {
    for (seed, expected) in [
        (1, "43e303d0b4bd14f301b4d0d90806da6d"),
        (42, "efdff78144dcff69642f1885ec8f5a5a"),
    ] {
        let mut d = generate(seed, &WorldSize::DEMO);
        present::shift(&mut d, day("2026-06-30") - time::DATA_END_DAY);
        assert_eq!(fingerprint(&d), expected, "seed {seed}");
        present::shift(&mut d, 149);
        assert_ne!(fingerprint(&d), expected);
        present::shift(&mut d, -149);
        assert_eq!(fingerprint(&d), expected, "seed {seed} there and back");
    }
}

/// The demo world as it stands on two days: what a change to the present moves.
#[test]
fn the_demo_world_on_a_day_is_pinned() {
    for (today, expected) in [
        ("2026-06-30", "6a79b534bc5f1825b9a29bef360e30f5"),
        ("2026-11-26", "a77b992da145349807479b62e22181df"),
    ] {
        assert_eq!(
            fingerprint(&world(1, &WorldSize::DEMO, day(today))),
            expected,
            "{today}"
        );
    }
}

/// Unix seconds of a timestamp the data wrote.
fn unix(text: &str) -> i64 {
    gifting_api::attention::unix_seconds(text).unwrap_or_else(|| panic!("{text}"))
}

/// What the home screen is promised of a world on `today`: nothing after the day began,
/// histories that read right, every state that needs attention in the two months (and a
/// send waiting that is not stuck yet), and groups under, near and over budget this month.
fn assert_present(d: &Seeded, today: &str) {
    let now = time::org_midnight(day(today));
    assert_all_before(d, now);
    let this = gifting_api::attention::Month::of(today).expect("month");
    let months = [this, this.previous()];
    assert_attention(d, today, now, &months);
    assert_budget_bands(d, today, &months);
}

/// No timestamp at or after `now`; histories start at creation, end in the status, in order;
/// the list newest first.
fn assert_all_before(d: &Seeded, now: i64) {
    for s in &d.sends {
        assert!(
            unix(&s.created_at) < now,
            "send {} at {}",
            s.id,
            s.created_at
        );
        assert_eq!(
            s.status_updates.first().map(|u| &u.occurred_at),
            Some(&s.created_at)
        );
        assert_eq!(s.status_updates.last().map(|u| &u.status), Some(&s.status));
        let times: Vec<i64> = s
            .status_updates
            .iter()
            .map(|u| unix(&u.occurred_at))
            .collect();
        assert!(times.windows(2).all(|w| w[0] <= w[1]), "send {}", s.id);
        assert!(times.iter().all(|&t| t < now), "send {}", s.id);
    }
    assert!(d
        .sends
        .windows(2)
        .all(|w| w[0].created_at >= w[1].created_at));
    for g in &d.groups {
        assert!(unix(&g.created_at) < now && unix(&g.updated_at) < now);
    }
    for t in &d.touches {
        assert!(unix(&t.created_at) < now && unix(&t.start_date) < now);
    }
}

/// Every reason to need attention among the two months' sends, and a fresh waiting send of
/// each waiting status.
fn assert_attention(
    d: &Seeded,
    today: &str,
    now: i64,
    months: &[gifting_api::attention::Month; 2],
) {
    use gifting_api::attention::{attention, Attention, Month};
    let recent: Vec<&gifting_api::rest::Send> = d
        .sends
        .iter()
        .filter(|s| Month::of(&s.created_at).is_some_and(|m| months.contains(&m)))
        .collect();
    for a in Attention::ALL {
        assert!(
            recent.iter().any(|s| attention(s, now) == Some(a)),
            "{today}: {}",
            a.label()
        );
    }
    for waiting in [
        SendStatus::CollectingRecipientInfo,
        SendStatus::ConfirmingAddress,
    ] {
        assert!(
            recent
                .iter()
                .any(|s| s.status == waiting && attention(s, now).is_none()),
            "{today}: a fresh {waiting}"
        );
    }
}

/// Groups under, near and over their budget this month, spend counted as docs/platform.md
/// says; some rollover and some one-time budgets.
fn assert_budget_bands(d: &Seeded, today: &str, months: &[gifting_api::attention::Month; 2]) {
    use gifting_api::attention::{money_returned, Month};
    // In cents: (this month, last month) per group.
    let mut spend: BTreeMap<u64, [i64; 2]> = BTreeMap::new();
    for s in &d.sends {
        let Some(at) = Month::of(&s.created_at).and_then(|m| months.iter().position(|&x| x == m))
        else {
            continue;
        };
        if s.currency == "USD" && !money_returned(&s.status) {
            spend.entry(s.sender.team_id).or_default()[at] += cents(&s.current_total_cost).unwrap();
        }
    }
    let mut bands = [0; 3];
    for g in &d.groups {
        let [now_spent, before] = spend.get(&g.id).copied().unwrap_or_default();
        let monthly = cents(&g.monthly_budget).expect("decimal budget");
        assert!(monthly > 0, "{} has a budget", g.name);
        if now_spent == 0 {
            continue;
        }
        let carried = if g.rollover {
            (monthly - before).max(0)
        } else {
            0
        };
        bands[match now_spent * 100 / (monthly + carried) {
            0..=79 => 0,
            80..=99 => 1,
            _ => 2,
        }] += 1;
    }
    assert!(
        bands.iter().all(|&n| n > 0),
        "{today}: under, near, over: {bands:?}"
    );
    assert!(d.groups.iter().any(|g| g.rollover));
    assert!(d.groups.iter().any(|g| g.one_time_budget != 0));
}

#[test]
fn the_demo_world_has_a_present_on_any_day() {
    for seed in [1, 42, 77] {
        for today in ["2026-11-26", "2026-06-30", "2027-03-02", "2025-03-15"] {
            assert_present(&world(seed, &WorldSize::DEMO, day(today)), today);
        }
    }
}

#[test]
fn a_large_world_has_a_present() {
    let small_large = WorldSize {
        users: 400,
        sends: 3_000,
        products: 0,
        ..WorldSize::LARGE
    };
    for today in ["2026-11-26", "2027-01-02"] {
        assert_present(&world(2, &small_large, day(today)), today);
    }
    let large = WorldSize {
        products: 0,
        ..WorldSize::LARGE
    };
    assert_present(&world(1, &large, day("2026-11-26")), "2026-11-26");
}

/// On the first of a month the month has just begun: nothing is spent yet, and the states
/// that need attention are all there, in the month before.
#[test]
fn on_the_first_of_a_month_attention_is_last_months() {
    use gifting_api::attention::{attention, Attention};
    let d = world(1, &WorldSize::DEMO, day("2026-12-01"));
    let now = time::org_midnight(day("2026-12-01"));
    assert!(d.sends.iter().all(|s| unix(&s.created_at) < now));
    for a in Attention::ALL {
        assert!(d
            .sends
            .iter()
            .any(|s| attention(s, now) == Some(a) && s.created_at.starts_with("2026-11")));
    }
}
