//! Sends across every type, subtype and status of the platform, with status histories that
//! read like a real gift's life and end in the send's current status.

use gifting_api::rest::{Campaign, Recipient, Send, SendTouch, Sender, StatusUpdate, TeamGroup};
use gifting_api::{DeliveryType, SendStatus, SendSubtype, SendType};

use super::people::{UserRecord, FIRST_GROUP_ID};
use super::prng::SplitMix64;
use super::text::{self, COMPANIES, FIRST_NAMES, LAST_NAMES};
use super::time::{org_time, DATA_END, DAY, YEAR_2025};
use super::{money, WorldSize};

pub const FIRST_SEND_ID: u64 = 30_001;
/// Sends of the demo world.
pub const SEND_COUNT: u64 = 300;

const SENT_VIA: &[&str] = &["web", "web", "crm", "api", "mobile", "bulk_upload"];

/// The kind of gift each subtype belongs to, and what it plausibly costs (in cents).
fn kind_of(subtype: &SendSubtype) -> (SendType, i64, i64) {
    use SendSubtype as S;
    match subtype {
        S::BuySendViaRetailer | S::BuySendViaRetailerUk => (SendType::Retailer, 2_500, 15_000),
        S::HandwrittenNotes => (SendType::HandwrittenNotes, 450, 1_200),
        S::Bundles | S::CustomBundles | S::Custom | S::Wine | S::Coffee => {
            (SendType::InventoriedSends, 2_000, 18_000)
        }
        S::Experiences | S::Lunch | S::DonateToCharity => (SendType::ServiceChoice, 1_500, 25_000),
        S::OnDemand | S::DdoGift => (SendType::ServiceDirect, 1_500, 12_000),
        S::EGiftCardsUsa | S::NetworkEGiftCreditCardUs => (SendType::EGiftsUsa, 500, 25_000),
        _ => (SendType::EGiftsInternational, 500, 25_000),
    }
}

/// eGift cards are denominated in their country's currency.
fn currency_of(subtype: &SendSubtype) -> Option<&'static str> {
    use SendSubtype as S;
    Some(match subtype {
        S::EGiftCardsAustralia => "AUD",
        S::EGiftCardsBrazil => "BRL",
        S::EGiftCardsCanada => "CAD",
        S::EGiftCardsFrance
        | S::EGiftCardsGermany
        | S::EGiftCardsIreland
        | S::EGiftCardsItaly
        | S::EGiftCardsNetherlands
        | S::EGiftCardsSlovakia => "EUR",
        S::EGiftCardsIndia => "INR",
        S::EGiftCardsMexico => "MXN",
        S::EGiftCardsNewZealand => "NZD",
        S::EGiftCardsPoland => "PLN",
        S::EGiftCardsSingapore => "SGD",
        S::EGiftCardsUk | S::BuySendViaRetailerUk => "GBP",
        S::EGiftCardsUsa | S::NetworkEGiftCreditCardUs => "USD",
        _ => return None,
    })
}

pub(super) fn is_egift(kind: &SendType) -> bool {
    matches!(kind, SendType::EGiftsUsa | SendType::EGiftsInternational)
}

/// The statuses a send passed through to reach `status`, in order.
pub(super) fn history(status: &SendStatus) -> Vec<SendStatus> {
    use SendStatus as S;
    let path: &[SendStatus] = match status {
        S::Pending => &[S::Pending],
        S::Processing => &[S::Pending, S::Processing],
        S::CollectingRecipientInfo => &[S::Pending, S::CollectingRecipientInfo],
        S::ConfirmingAddress => &[S::Pending, S::CollectingRecipientInfo, S::ConfirmingAddress],
        S::AddressConfirmationCancelled => &[
            S::Pending,
            S::ConfirmingAddress,
            S::AddressConfirmationCancelled,
        ],
        S::Paused => &[S::Pending, S::Processing, S::Paused],
        S::Packed => &[S::Pending, S::Processing, S::Packed],
        S::Shipped => &[S::Pending, S::Processing, S::Packed, S::Shipped],
        S::Delivered => &[
            S::Pending,
            S::Processing,
            S::Packed,
            S::Shipped,
            S::Delivered,
        ],
        S::Undeliverable => &[
            S::Pending,
            S::Processing,
            S::Packed,
            S::Shipped,
            S::Undeliverable,
        ],
        S::Failed => &[S::Pending, S::Processing, S::Failed],
        S::Refunded => &[S::Pending, S::Processing, S::Failed, S::Refunded],
        S::Cancelled => &[S::Pending, S::Cancelled],
        S::Sent => &[S::Pending, S::Sent],
        S::Opened => &[S::Pending, S::Sent, S::Opened],
        S::Clicked => &[S::Pending, S::Sent, S::Opened, S::Clicked],
        S::Used => &[S::Pending, S::Sent, S::Opened, S::Clicked, S::Used],
        S::ExpiredAndCredited => &[S::Pending, S::Sent, S::ExpiredAndCredited],
        S::BouncedAndCredited => &[S::Pending, S::Sent, S::BouncedAndCredited],
        S::Other(_) => &[S::Pending],
    };
    path.to_vec()
}

/// The status a send in progress moves to next, drawn along the paths of [`history`] (and
/// the problems that branch off them); `None` once its timeline has ended: a final status, or
/// one the sandbox does not know. No path returns to a status it left, so every send's
/// history ends after a few steps.
pub fn next_status(
    rng: &mut SplitMix64,
    status: &SendStatus,
    kind: &SendType,
) -> Option<SendStatus> {
    use SendStatus as S;
    let roll = rng.below(100);
    // In `percent` sends of 100 the problem branches off; the others go on along the path.
    let branch_off = |percent: u64, problem: SendStatus, next: SendStatus| {
        if roll < percent {
            problem
        } else {
            next
        }
    };
    let next = match status {
        S::Pending if is_egift(kind) => branch_off(4, S::Cancelled, S::Sent),
        S::Pending => match roll {
            0..=3 => S::Cancelled,
            4..=19 => S::CollectingRecipientInfo,
            _ => S::Processing,
        },
        S::CollectingRecipientInfo => S::ConfirmingAddress,
        S::ConfirmingAddress => branch_off(10, S::AddressConfirmationCancelled, S::Processing),
        S::Paused => S::Processing,
        S::Processing => branch_off(6, S::Failed, S::Packed),
        S::Packed => S::Shipped,
        S::Shipped => branch_off(5, S::Undeliverable, S::Delivered),
        S::Sent => match roll {
            0..=4 => S::BouncedAndCredited,
            5..=14 => S::ExpiredAndCredited,
            _ => S::Opened,
        },
        S::Opened => branch_off(10, S::ExpiredAndCredited, S::Clicked),
        S::Clicked => S::Used,
        _ => return None,
    };
    Some(next)
}

/// An unfinished send's cost after the platform re-prices it (shipping, taxes, exchange
/// rates): 1 to 5 % up or down, at least a cent, never below a dollar. Text that is not a
/// decimal amount stays as it is.
pub fn repriced(rng: &mut SplitMix64, cost: &str) -> String {
    let Some(cents) = super::cents(cost) else {
        return cost.to_owned();
    };
    let percent = rng.range(1, 5);
    let delta = (cents.abs() * percent / 100).max(1);
    let moved = if rng.chance(0.5) {
        cents + delta
    } else {
        cents - delta
    };
    let floored = if moved < 100 { cents + delta } else { moved };
    money(floored)
}

/// What every send draws from: the touches it can go out with (eGifts by email, every other
/// gift by mail), the team groups' names and the days it can be created on.
pub struct Pools<'a> {
    mail: Vec<&'a Campaign>,
    email: Vec<&'a Campaign>,
    groups: &'a [TeamGroup],
    days: (i64, i64),
}

impl<'a> Pools<'a> {
    /// The pools of `touches` and `groups`; seeded sends are created on `days` (after
    /// 2025-01-01), sends arriving later whenever they arrive.
    pub fn new(groups: &'a [TeamGroup], touches: &'a [Campaign], days: (i64, i64)) -> Self {
        let by_delivery =
            |kind: DeliveryType| touches.iter().filter(|t| t.delivery_type == kind).collect();
        Pools {
            mail: by_delivery(DeliveryType::Mail),
            email: by_delivery(DeliveryType::Email),
            groups,
            days,
        }
    }

    /// The touch a send of `kind` goes out with.
    fn touch(&self, rng: &mut SplitMix64, kind: &SendType) -> &'a Campaign {
        let pool = if is_egift(kind) {
            &self.email
        } else {
            &self.mail
        };
        let touch = *rng.pick(pool);
        touch
    }

    /// The team group's name; groups are numbered from the first id on, so this is an index
    /// (looked for, should they ever not be).
    fn team_name(&self, id: u64) -> String {
        let at = id.wrapping_sub(FIRST_GROUP_ID) as usize;
        match self.groups.get(at) {
            Some(g) if g.id == id => g.name.clone(),
            _ => self
                .groups
                .iter()
                .find(|g| g.id == id)
                .map(|g| g.name.clone())
                .unwrap_or_default(),
        }
    }
}

pub fn sends(
    rng: &mut SplitMix64,
    size: &WorldSize,
    users: &[UserRecord],
    groups: &[TeamGroup],
    touches: &[Campaign],
) -> Vec<Send> {
    let pools = Pools::new(groups, touches, size.send_days);
    let mut out: Vec<Send> = (0..size.sends)
        .map(|n| send(rng, n, users, &pools))
        .collect();
    // Newest first, as the platform lists them.
    out.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(b.id.cmp(&a.id)));
    out
}

/// Send number `n` (from 0). Every draw from `rng` is in a fixed order, so a seed always
/// gives the same sends.
fn send(rng: &mut SplitMix64, n: u64, users: &[UserRecord], pools: &Pools) -> Send {
    // Index-based choice guarantees every status and subtype occurs; the stride
    // decorrelates the two so each subtype meets several statuses.
    let statuses = SendStatus::KNOWN;
    let subtypes = SendSubtype::KNOWN;
    let status = statuses[(n as usize) % statuses.len()].clone();
    let subtype = subtypes[(n as usize * 7) % subtypes.len()].clone();
    let (kind, _, _) = kind_of(&subtype);
    let touch = pools.touch(rng, &kind);
    let sender = rng.pick(users);
    let (first_day, last_day) = pools.days;
    let created = YEAR_2025
        + first_day * DAY
        + rng.range(0, last_day - first_day) * DAY
        + rng.range(0, DAY - 1);
    let status_updates = status_updates(rng, &status, created);
    let draft = Draft {
        id: FIRST_SEND_ID + n,
        number: n,
        subtype,
        touch,
        sender,
        created,
        status,
        status_updates,
    };
    dress(rng, draft, pools)
}

/// A send arriving on a live platform: id `id`, created at `created` (Unix seconds) by
/// `sender`, pending.
pub fn arrival(
    rng: &mut SplitMix64,
    id: u64,
    created: i64,
    sender: &UserRecord,
    pools: &Pools,
) -> Send {
    let subtype = rng.pick(SendSubtype::KNOWN).clone();
    let (kind, _, _) = kind_of(&subtype);
    let touch = pools.touch(rng, &kind);
    let draft = Draft {
        id,
        number: id.saturating_sub(FIRST_SEND_ID),
        subtype,
        touch,
        sender,
        created,
        status: SendStatus::Pending,
        status_updates: vec![StatusUpdate {
            status: SendStatus::Pending,
            occurred_at: org_time(created),
        }],
    };
    dress(rng, draft, pools)
}

/// What is decided about a send before the draws every send makes alike.
struct Draft<'a> {
    id: u64,
    /// Numbers the recipient's address (and picks the seed's hostile names).
    number: u64,
    subtype: SendSubtype,
    touch: &'a Campaign,
    sender: &'a UserRecord,
    created: i64,
    status: SendStatus,
    status_updates: Vec<StatusUpdate>,
}

/// The send of `d`: its cost, recipient, gid, company and channel drawn, in that order.
fn dress(rng: &mut SplitMix64, d: Draft, pools: &Pools) -> Send {
    let (kind, lo, hi) = kind_of(&d.subtype);
    let cents = if is_egift(&kind) {
        rng.range(lo / 500, hi / 500) * 500
    } else {
        rng.range(lo, hi)
    };
    let recipient_name = recipient_name(rng, d.number);
    Send {
        id: d.id,
        send_gid: format!("snd_{:012x}", rng.next_u64() & 0xffff_ffff_ffff),
        kind,
        currency: currency_of(&d.subtype)
            .map(str::to_owned)
            .unwrap_or_else(|| d.touch.currency.clone()),
        subtype: d.subtype,
        current_total_cost: money(cents),
        status: d.status,
        created_at: org_time(d.created),
        touch: SendTouch {
            id: d.touch.id,
            name: d.touch.name.clone(),
        },
        recipient: Recipient {
            name: recipient_name,
            email: format!("recipient{}@example.net", d.number + 1),
            company_name: (*rng.pick(COMPANIES)).to_owned(),
        },
        sender: Sender {
            id: d.sender.id,
            name: d.sender.full_name(),
            email: d.sender.email.clone(),
            team_id: d.sender.team_group_id,
            team_name: pools.team_name(d.sender.team_group_id),
        },
        sent_via: (*rng.pick(SENT_VIA)).to_owned(),
        status_updates: d.status_updates,
    }
}

/// The dated history of a send created at `created` that is now `status`; each step comes
/// ten minutes to three days after the one before (none after the data's end).
fn status_updates(rng: &mut SplitMix64, status: &SendStatus, created: i64) -> Vec<StatusUpdate> {
    let mut at = created;
    history(status)
        .into_iter()
        .enumerate()
        .map(|(i, s)| {
            if i > 0 {
                at += rng.range(600, 3 * DAY);
            }
            StatusUpdate {
                status: s,
                occurred_at: org_time(at.min(DATA_END)),
            }
        })
        .collect()
}

/// A made-up recipient name; a few sends carry the seed's hostile names instead.
fn recipient_name(rng: &mut SplitMix64, n: u64) -> String {
    let given = rng.pick(FIRST_NAMES);
    let family = rng.pick(LAST_NAMES);
    match n {
        5 => text::SCRIPT_TAG.to_owned(),
        8 => text::IMG_ONERROR.to_owned(),
        12 => text::RTL.to_owned(),
        17 => text::long_word(),
        _ => format!("{given} {family}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histories_end_in_their_status() {
        for s in SendStatus::KNOWN {
            let h = history(s);
            assert_eq!(h.last(), Some(s));
            assert_eq!(h.first(), Some(&SendStatus::Pending));
        }
    }

    #[test]
    fn every_subtype_maps_to_a_type_and_all_types_occur() {
        let mut kinds: Vec<SendType> = SendSubtype::KNOWN.iter().map(|s| kind_of(s).0).collect();
        kinds.sort();
        kinds.dedup();
        assert_eq!(kinds.len(), SendType::KNOWN.len());
    }

    #[test]
    fn every_timeline_ends_within_a_few_steps_and_only_final_statuses_end_it() {
        let mut rng = SplitMix64::new(3);
        for start in SendStatus::KNOWN {
            for kind in SendType::KNOWN {
                for _ in 0..200 {
                    let mut status = start.clone();
                    let mut steps = 0;
                    while let Some(next) = next_status(&mut rng, &status, kind) {
                        assert_ne!(next, status);
                        status = next;
                        steps += 1;
                        assert!(steps <= 6, "{start} went on past {status}");
                    }
                    assert!(status.is_final(), "{start} stopped at {status}");
                }
            }
        }
        let other = SendStatus::Other("Teleported".into());
        assert_eq!(next_status(&mut rng, &other, &SendType::EGiftsUsa), None);
    }

    #[test]
    fn repricing_moves_a_cost_by_a_little_and_never_below_a_dollar() {
        let mut rng = SplitMix64::new(9);
        for _ in 0..1000 {
            for cost in ["25.00", "1.00", "1.01", "180.00"] {
                let before = crate::data::cents(cost).expect("cost");
                let after = crate::data::cents(&repriced(&mut rng, cost)).expect("decimal");
                assert_ne!(after, before);
                assert!(after >= 100 && (after - before).abs() <= (before / 20).max(1));
            }
        }
        assert_eq!(repriced(&mut rng, "n/a"), "n/a");
    }
}
