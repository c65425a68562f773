//! Team groups and users, the demo accounts first.

use gifting_api::rest::TeamGroup;
use gifting_api::Role;

use super::prng::SplitMix64;
use super::text::{self, FIRST_NAMES, GROUP_NAMES, LAST_NAMES};
use super::time::{org_time, DAY, YEAR_2025};
use super::{money, ORG_ID};

pub const FIRST_GROUP_ID: u64 = 101;
pub const FIRST_USER_ID: u64 = 1001;
/// Users of the demo world.
pub const USER_COUNT: u64 = 60;
/// `admin@`, `manager@` and `sender@example.com`, in every world.
pub const DEMO_ACCOUNTS: usize = 3;

/// A user as the platform stores it; SCIM and REST v3 views are rendered from this.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserRecord {
    pub id: u64,
    pub email: String,
    pub given_name: String,
    pub family_name: String,
    pub role: Role,
    pub team_group_id: u64,
    pub active: bool,
    /// Personal balance in cents of the organization's currency.
    pub balance_cents: i64,
    pub sandbox: bool,
    /// Invitation key the user signed up with.
    pub key: String,
}

impl UserRecord {
    pub fn full_name(&self) -> String {
        format!("{} {}", self.given_name, self.family_name)
            .trim()
            .to_owned()
    }
}

/// The name of group number `i`: the demo's ten, then numbered repeats ("Sales 2"), so names
/// stay unique (SCIM's `division` names a group).
fn group_name(i: usize) -> String {
    let name = GROUP_NAMES[i % GROUP_NAMES.len()];
    match i / GROUP_NAMES.len() {
        0 => name.to_owned(),
        round => format!("{name} {}", round + 1),
    }
}

pub fn groups(rng: &mut SplitMix64, count: u64) -> Vec<TeamGroup> {
    (0..count as usize)
        .map(|i| {
            let created = YEAR_2025 + rng.range(3, 60) * DAY + rng.range(0, DAY - 1);
            let updated = created + rng.range(20, 400) * DAY;
            let monthly = rng.range(5, 60) * 100;
            TeamGroup {
                id: FIRST_GROUP_ID + i as u64,
                budget: rng.range(10, 200) * 500,
                created_at: org_time(created),
                monthly_budget: money(monthly * 100),
                name: group_name(i),
                one_time_budget: if rng.chance(0.4) {
                    rng.range(1, 20) * 250
                } else {
                    0
                },
                rollover: rng.chance(0.5),
                team_id: ORG_ID,
                updated_at: org_time(updated),
            }
        })
        .collect()
}

fn invitation_key(rng: &mut SplitMix64) -> String {
    format!("inv_{:012x}", rng.next_u64() & 0xffff_ffff_ffff)
}

/// ASCII-only local part from a display name, so emails pass strict validators.
fn slug(s: &str) -> String {
    s.chars()
        .filter_map(|c| {
            let c = match c {
                'á' | 'à' | 'ä' | 'â' => 'a',
                'é' | 'è' | 'ë' | 'ê' => 'e',
                'í' | 'ï' => 'i',
                'ó' | 'ö' | 'ô' => 'o',
                'ú' | 'ü' => 'u',
                'ñ' => 'n',
                c => c,
            };
            c.is_ascii_alphanumeric().then(|| c.to_ascii_lowercase())
        })
        .collect()
}

/// Whether generated user number `n` (from 0) is active: a few of the demo's 60 are not, so
/// "active only" lists visibly differ from SCIM's; beyond them every 50th is not (2 %).
fn is_active(n: u64) -> bool {
    if n < USER_COUNT {
        !matches!(n, 13 | 29 | 44 | 58)
    } else {
        !n.is_multiple_of(50)
    }
}

pub fn users(rng: &mut SplitMix64, count: u64, group_count: u64) -> Vec<UserRecord> {
    let group = |i: u64| FIRST_GROUP_ID + i % group_count;
    let mut out = vec![
        demo(
            1001,
            "admin@example.com",
            "Ada",
            "Admin",
            Role::Admin,
            group(7),
        ),
        demo(
            1002,
            "manager@example.com",
            "Max",
            "Manager",
            Role::Manager,
            group(0),
        ),
        demo(
            1003,
            "sender@example.com",
            "Sam",
            "Sender",
            Role::Sender,
            group(0),
        ),
    ];
    for rec in &mut out {
        rec.balance_cents = rng.range(50, 500) * 100;
        rec.key = invitation_key(rng);
    }
    out.truncate(count as usize);
    for n in 3..count {
        let id = FIRST_USER_ID + n;
        let mut given = (*rng.pick(FIRST_NAMES)).to_owned();
        let mut family = (*rng.pick(LAST_NAMES)).to_owned();
        // Hostile-but-valid names, at fixed places so tests and demos can find them.
        match n {
            7 => given = text::IMG_ONERROR.to_owned(),
            11 => family = text::SCRIPT_TAG.to_owned(),
            15 => family = r#""Quoted" O'Neil"#.to_owned(),
            19 => given = "Zoë 🎁".to_owned(),
            23 => {
                given = "ليلى".to_owned();
                family = "حداد".to_owned();
            }
            27 => family = text::long_word(),
            31 => given = text::RTL_HEBREW.to_owned(),
            _ => {}
        }
        let email = match n {
            7 | 11 | 23 | 27 | 31 => format!("user{id}@example.org"),
            _ => format!("{}.{}{}@example.com", slug(&given), slug(&family), n),
        };
        let role = match n % 10 {
            0 => Role::Admin,
            1 | 4 | 7 => Role::Manager,
            _ => Role::Sender,
        };
        out.push(UserRecord {
            id,
            email,
            given_name: given,
            family_name: family,
            role,
            team_group_id: group(rng.below(group_count)),
            active: is_active(n),
            balance_cents: rng.range(0, 75_000),
            sandbox: n % 17 == 0,
            key: invitation_key(rng),
        });
    }
    out
}

/// Makes `percent` of the users active members of the first team group, spread evenly over
/// the ids, and moves every other user out of it: one team as big as a sales force. The demo
/// accounts keep their groups (two of them are in the first).
pub fn fill_big_team(users: &mut [UserRecord], group_count: u64, percent: u64) {
    if percent == 0 || group_count < 2 {
        return;
    }
    let big = FIRST_GROUP_ID;
    let (demo, rest) = users.split_at_mut(DEMO_ACCOUNTS.min(users.len()));
    let already = demo
        .iter()
        .filter(|u| u.active && u.team_group_id == big)
        .count() as u64;
    let total = (demo.len() + rest.len()) as u64;
    let wanted = (total * percent / 100).saturating_sub(already);
    let candidates = rest.iter().filter(|u| u.active).count() as u64;
    let wanted = wanted.min(candidates);
    let mut seen = 0u64;
    for u in rest.iter_mut() {
        // Candidate k joins when k * wanted / candidates steps up: exactly `wanted` of them,
        // evenly spaced.
        let joins = u.active && (seen + 1) * wanted / candidates > seen * wanted / candidates;
        seen += u64::from(u.active);
        if joins {
            u.team_group_id = big;
        } else if u.team_group_id == big {
            u.team_group_id = big + 1 + u.id % (group_count - 1);
        }
    }
}

fn demo(id: u64, email: &str, given: &str, family: &str, role: Role, group: u64) -> UserRecord {
    UserRecord {
        id,
        email: email.to_owned(),
        given_name: given.to_owned(),
        family_name: family.to_owned(),
        role,
        team_group_id: group,
        active: true,
        balance_cents: 0,
        sandbox: false,
        key: String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_are_unique_and_ascii() {
        let mut rng = SplitMix64::new(3);
        let us = users(&mut rng, USER_COUNT, 10);
        assert_eq!(us.len(), USER_COUNT as usize);
        let mut emails: Vec<_> = us.iter().map(|u| u.email.clone()).collect();
        emails.sort();
        emails.dedup();
        assert_eq!(emails.len(), us.len());
        assert!(us.iter().all(|u| u.email.is_ascii()));
        assert!(us.iter().any(|u| !u.active));
    }
}
