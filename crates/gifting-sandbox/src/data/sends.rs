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

fn is_egift(kind: &SendType) -> bool {
    matches!(kind, SendType::EGiftsUsa | SendType::EGiftsInternational)
}

/// The statuses a send passed through to reach `status`, in order.
fn history(status: &SendStatus) -> Vec<SendStatus> {
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

/// What every send draws from: the touches it can go out with (eGifts by email, every other
/// gift by mail), the team groups' names and the days it can be created on.
struct Pools<'a> {
    mail: Vec<&'a Campaign>,
    email: Vec<&'a Campaign>,
    groups: &'a [TeamGroup],
    days: (i64, i64),
}

impl Pools<'_> {
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
    let by_delivery =
        |kind: DeliveryType| touches.iter().filter(|t| t.delivery_type == kind).collect();
    let pools = Pools {
        mail: by_delivery(DeliveryType::Mail),
        email: by_delivery(DeliveryType::Email),
        groups,
        days: size.send_days,
    };
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
    let id = FIRST_SEND_ID + n;
    // Index-based choice guarantees every status and subtype occurs; the stride
    // decorrelates the two so each subtype meets several statuses.
    let statuses = SendStatus::KNOWN;
    let subtypes = SendSubtype::KNOWN;
    let status = statuses[(n as usize) % statuses.len()].clone();
    let subtype = subtypes[(n as usize * 7) % subtypes.len()].clone();
    let (kind, lo, hi) = kind_of(&subtype);
    let touch = if is_egift(&kind) {
        *rng.pick(&pools.email)
    } else {
        *rng.pick(&pools.mail)
    };
    let sender = rng.pick(users);
    let team_name = pools.team_name(sender.team_group_id);
    let (first_day, last_day) = pools.days;
    let created = YEAR_2025
        + first_day * DAY
        + rng.range(0, last_day - first_day) * DAY
        + rng.range(0, DAY - 1);
    let status_updates = status_updates(rng, &status, created);
    let cents = if is_egift(&kind) {
        rng.range(lo / 500, hi / 500) * 500
    } else {
        rng.range(lo, hi)
    };
    let recipient_name = recipient_name(rng, n);
    Send {
        id,
        send_gid: format!("snd_{:012x}", rng.next_u64() & 0xffff_ffff_ffff),
        kind,
        subtype: subtype.clone(),
        currency: currency_of(&subtype)
            .map(str::to_owned)
            .unwrap_or_else(|| touch.currency.clone()),
        current_total_cost: money(cents),
        status,
        created_at: org_time(created),
        touch: SendTouch {
            id: touch.id,
            name: touch.name.clone(),
        },
        recipient: Recipient {
            name: recipient_name,
            email: format!("recipient{}@example.net", n + 1),
            company_name: (*rng.pick(COMPANIES)).to_owned(),
        },
        sender: Sender {
            id: sender.id,
            name: sender.full_name(),
            email: sender.email.clone(),
            team_id: sender.team_group_id,
            team_name,
        },
        sent_via: (*rng.pick(SENT_VIA)).to_owned(),
        status_updates,
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
}
