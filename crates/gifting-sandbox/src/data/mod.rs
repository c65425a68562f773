//! The deterministic seeded data: the same `--seed` gives the same organization everywhere.

pub mod campaigns;
pub mod catalog;
pub mod people;
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

pub fn generate(seed: u64) -> Seeded {
    let groups = people::groups(&mut SplitMix64::fork(seed, "groups"));
    let users = people::users(&mut SplitMix64::fork(seed, "users"), groups.len() as u64);
    let creators: Vec<u64> = users
        .iter()
        .filter(|u| matches!(u.role, Role::Admin | Role::Manager))
        .map(|u| u.id)
        .collect();
    let touches = campaigns::campaigns(&mut SplitMix64::fork(seed, "touches"), &creators);
    let sends = sends::sends(
        &mut SplitMix64::fork(seed, "sends"),
        &users,
        &groups,
        &touches,
    );
    let products = catalog::products(&mut SplitMix64::fork(seed, "products"));
    Seeded {
        groups,
        users,
        touches,
        sends,
        products,
        categories: catalog::categories(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gifting_api::{SendStatus, SendSubtype, SendType};

    #[test]
    fn money_is_exact_text() {
        assert_eq!(money(2500), "25.00");
        assert_eq!(money(5), "0.05");
        assert_eq!(money(-1234), "-12.34");
    }

    #[test]
    fn same_seed_same_data_other_seed_other_data() {
        let a = generate(42);
        let b = generate(42);
        let c = generate(43);
        assert_eq!(a.sends, b.sends);
        assert_eq!(a.users, b.users);
        assert_ne!(a.sends, c.sends);
    }

    #[test]
    fn volumes_and_coverage_of_the_issue() {
        let d = generate(1);
        assert!(d.groups.len() >= 8);
        assert_eq!(d.users.len(), 60);
        assert_eq!(d.touches.len(), 40);
        assert_eq!(d.sends.len(), 300);
        assert_eq!(d.products.len(), 300);
        for s in SendStatus::KNOWN {
            assert!(d.sends.iter().any(|x| &x.status == s), "status {s}");
        }
        for s in SendSubtype::KNOWN {
            assert!(d.sends.iter().any(|x| &x.subtype == s), "subtype {s}");
        }
        for t in SendType::KNOWN {
            assert!(d.sends.iter().any(|x| &x.kind == t), "type {t}");
        }
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
        for s in generate(5).sends {
            let times: Vec<&String> = s.status_updates.iter().map(|u| &u.occurred_at).collect();
            assert!(times.windows(2).all(|w| w[0] <= w[1]));
            assert_eq!(s.status_updates.last().map(|u| &u.status), Some(&s.status));
            assert!(s.created_at.starts_with("2025") || s.created_at.starts_with("2026"));
        }
    }
}
