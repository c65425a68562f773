//! The generated worlds: the demo world never changes for a seed, and the other sizes have the
//! shape they promise.

use std::collections::{BTreeMap, BTreeSet};

use gifting_api::{SendStatus, SendSubtype, SendType};
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
    for s in SendStatus::KNOWN {
        assert!(d.sends.iter().any(|x| &x.status == s), "status {s}");
    }
    for s in SendSubtype::KNOWN {
        assert!(d.sends.iter().any(|x| &x.subtype == s), "subtype {s}");
    }
    for t in SendType::KNOWN {
        assert!(d.sends.iter().any(|x| &x.kind == t), "type {t}");
    }
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
