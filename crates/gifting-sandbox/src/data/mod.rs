//! The deterministic seeded data: the same `--seed` gives the same organization everywhere.

pub mod campaigns;
pub mod catalog;
#[cfg(test)]
#[path = "../../tests/common/coverage.rs"]
mod coverage;
pub mod people;
pub mod present;
pub mod prng;
pub mod sends;
pub mod text;
pub mod time;
#[cfg(test)]
mod world_tests;

use gifting_api::marketplace::CategoryGroup;
use gifting_api::rest::{Campaign, Send, TeamGroup};
use gifting_api::Role;

use catalog::ProductRecord;
use people::UserRecord;
use prng::SplitMix64;

/// The organization's id (`team_id` on the platform).
pub const ORG_ID: u64 = 4021;

/// Cents to decimal text: `2500` -> `"25.00"`. Integer arithmetic only.
pub fn money(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let abs = cents.unsigned_abs();
    format!("{sign}{}.{:02}", abs / 100, abs % 100)
}

/// Decimal text to cents: `"25.00"` -> `2500`, `"-12.3"` -> `-1230`; `None` for anything
/// else (more than two decimals, no digits, a sign alone). Integer arithmetic only.
pub fn cents(text: &str) -> Option<i64> {
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (units, fraction) = body.split_once('.').unwrap_or((body, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if units.is_empty() || !digits(units) || !digits(fraction) || fraction.len() > 2 {
        return None;
    }
    let whole: i64 = units.parse().ok()?;
    let part: i64 = format!("{fraction:0<2}").parse().ok()?;
    let value = whole.checked_mul(100)?.checked_add(part)?;
    Some(if negative { -value } else { value })
}

/// How big an organization to generate. [`WorldSize::DEMO`] is the one every screen was built
/// against; [`WorldSize::LARGE`] is an enterprise a thousand times larger.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorldSize {
    /// Team groups (the demo's ten names, then numbered repeats of them).
    pub groups: u64,
    /// Users, the three demo accounts included.
    pub users: u64,
    pub campaigns: u64,
    pub sends: u64,
    pub products: u64,
    /// Percent of the users who are active members of the first team group (a sales team of
    /// thousands); 0 leaves every user in the group drawn for them.
    pub big_team_percent: u64,
    /// The days after 2025-01-01 on which sends were created: first and last.
    pub send_days: (i64, i64),
}

impl WorldSize {
    pub const DEMO: WorldSize = WorldSize {
        groups: text::GROUP_NAMES.len() as u64,
        users: people::USER_COUNT,
        campaigns: campaigns::TOUCH_COUNT,
        sends: sends::SEND_COUNT,
        products: catalog::PRODUCT_COUNT as u64,
        big_team_percent: 0,
        send_days: (10, 510),
    };

    /// 5,000 users (2 % inactive), 250 team groups (Sales with 3,000 members), 500 campaigns,
    /// 100,000 sends over the data's 18 months, 10,000 products.
    pub const LARGE: WorldSize = WorldSize {
        groups: 250,
        users: 5_000,
        campaigns: 500,
        sends: 100_000,
        products: 10_000,
        big_team_percent: 60,
        // From 2 January (UTC), so no send reads as 2024 in the organization's time zone.
        send_days: (1, time::DATA_DAYS - 1),
    };
}

/// Everything the sandbox starts with.
#[derive(Debug, Clone)]
pub struct Seeded {
    pub groups: Vec<TeamGroup>,
    pub users: Vec<UserRecord>,
    pub touches: Vec<Campaign>,
    pub sends: Vec<Send>,
    pub products: Vec<ProductRecord>,
    pub categories: Vec<CategoryGroup>,
}

/// The world of `size` for `seed`. Each area draws from its own generator, and every size draws
/// in the same order, so the demo world is the same for a seed whatever else changes.
pub fn generate(seed: u64, size: &WorldSize) -> Seeded {
    let groups = people::groups(&mut SplitMix64::fork(seed, "groups"), size.groups);
    let mut users = people::users(
        &mut SplitMix64::fork(seed, "users"),
        size.users,
        groups.len() as u64,
    );
    people::fill_big_team(&mut users, groups.len() as u64, size.big_team_percent);
    let creators: Vec<u64> = users
        .iter()
        .filter(|u| matches!(u.role, Role::Admin | Role::Manager))
        .map(|u| u.id)
        .collect();
    let touches = campaigns::campaigns(
        &mut SplitMix64::fork(seed, "touches"),
        size.campaigns,
        &creators,
    );
    let sends = sends::sends(
        &mut SplitMix64::fork(seed, "sends"),
        size,
        &users,
        &groups,
        &touches,
    );
    let products = catalog::products(&mut SplitMix64::fork(seed, "products"), size.products);
    Seeded {
        groups,
        users,
        touches,
        sends,
        products,
        categories: catalog::categories(),
    }
}

/// The world of `size` for `seed` as it stands on `today` (days since 1970-01-01, the
/// organization's calendar; `--today`): [`generate`]'s world moved by whole days so its
/// timeline ends before `today` begins, then its present made (see [`present`]).
pub fn world(seed: u64, size: &WorldSize, today: i64) -> Seeded {
    let mut d = generate(seed, size);
    present::shift(&mut d, today - time::DATA_END_DAY);
    present::present(&mut d, today);
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_is_exact_text() {
        assert_eq!(money(2500), "25.00");
        assert_eq!(money(5), "0.05");
        assert_eq!(money(-1234), "-12.34");
    }

    #[test]
    fn cents_read_what_money_writes() {
        for c in [0, 5, 2500, -1234, 99_999_999] {
            assert_eq!(cents(&money(c)), Some(c));
        }
        assert_eq!(cents("12.3"), Some(1230));
        assert_eq!(cents("7"), Some(700));
        for bad in [
            "",
            "-",
            ".5",
            "1.234",
            "1,00",
            "abc",
            "1.-2",
            "99999999999999999999",
        ] {
            assert_eq!(cents(bad), None, "{bad}");
        }
    }

    #[test]
    fn same_seed_same_data_other_seed_other_data() {
        let a = generate(42, &WorldSize::DEMO);
        let b = generate(42, &WorldSize::DEMO);
        let c = generate(43, &WorldSize::DEMO);
        assert_eq!(a.sends, b.sends);
        assert_eq!(a.users, b.users);
        assert_ne!(a.sends, c.sends);
    }

    #[test]
    fn volumes_and_coverage_of_the_issue() {
        let d = generate(1, &WorldSize::DEMO);
        assert!(d.groups.len() >= 8);
        assert_eq!(d.users.len(), 60);
        assert_eq!(d.touches.len(), 40);
        assert_eq!(d.sends.len(), 300);
        assert_eq!(d.products.len(), 300);
        coverage::assert_every_status_subtype_and_type(&d.sends);
        for u in &d.users {
            assert!(
                gifting_api::validate::email(&u.email).is_ok(),
                "{}",
                u.email
            );
        }
        assert!(d
            .products
            .iter()
            .all(|p| (1..=4).contains(&p.variants.len())));
        assert!(d.products.iter().any(|p| p.name == text::IMG_ONERROR));
        assert!(d.products.iter().any(|p| p.name == text::SCRIPT_TAG));
    }

    #[test]
    fn status_histories_are_ordered() {
        for s in generate(5, &WorldSize::DEMO).sends {
            let times: Vec<&String> = s.status_updates.iter().map(|u| &u.occurred_at).collect();
            assert!(times.windows(2).all(|w| w[0] <= w[1]));
            assert_eq!(s.status_updates.last().map(|u| &u.status), Some(&s.status));
            assert!(s.created_at.starts_with("2025") || s.created_at.starts_with("2026"));
        }
    }
}
