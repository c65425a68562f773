//! Campaigns (touches): mail and email, fixed prices and eGift ranges, several currencies.

use gifting_api::rest::Campaign;
use gifting_api::DeliveryType;

use super::prng::SplitMix64;
use super::text::{self, COUNTRIES, TOUCH_BLURBS, TOUCH_NAMES};
use super::time::{org_time, DATA_END, DAY, YEAR_2025};

pub const FIRST_TOUCH_ID: u64 = 2001;
/// Campaigns of the demo world.
pub const TOUCH_COUNT: u64 = 40;

const CURRENCIES: &[&str] = &["USD", "USD", "USD", "EUR", "GBP", "CAD", "AUD"];

/// `creators` are the ids of users who may create campaigns (admins and managers).
pub fn campaigns(rng: &mut SplitMix64, count: u64, creators: &[u64]) -> Vec<Campaign> {
    let mut out: Vec<Campaign> = (0..count)
        .map(|n| {
            let id = FIRST_TOUCH_ID + n;
            let delivery = if n % 2 == 0 {
                DeliveryType::Mail
            } else {
                DeliveryType::Email
            };
            let mut name = format!(
                "{} #{}",
                TOUCH_NAMES[(n as usize) % TOUCH_NAMES.len()],
                n / TOUCH_NAMES.len() as u64 + 1
            );
            let mut description = (*rng.pick(TOUCH_BLURBS)).to_owned();
            match n {
                3 => name = format!("{} Holiday", text::SCRIPT_TAG),
                6 => name = text::QUOTES.to_owned(),
                9 => name = text::EMOJI.to_owned(),
                12 => name = text::RTL.to_owned(),
                15 => description = format!("{} {}", text::long_word(), description),
                18 => description = format!("{} {}", text::IMG_ONERROR, description),
                _ => {}
            }
            let created = YEAR_2025 + rng.range(0, 480) * DAY + rng.range(0, DAY - 1);
            let start = created + rng.range(0, 30) * DAY;
            let end = rng
                .chance(0.5)
                .then(|| (start + rng.range(30, 365) * DAY).min(DATA_END + 180 * DAY));
            let ranged = delivery == DeliveryType::Email && n % 4 == 1;
            let (low, high) = if ranged {
                let low = *rng.pick(&[5i64, 10, 20, 25]);
                (Some(low), Some(low + *rng.pick(&[40i64, 75, 100, 250])))
            } else {
                (None, None)
            };
            let mut ship_to: Vec<String> = COUNTRIES
                .iter()
                .filter(|_| rng.chance(0.35))
                .map(|c| (*c).to_owned())
                .collect();
            if ship_to.is_empty() || n % 3 == 0 {
                ship_to.insert(0, "US".to_owned());
                ship_to.dedup();
            }
            Campaign {
                id,
                name,
                start_date: org_time(start),
                end_date: end.map(org_time),
                description,
                created_at: org_time(created),
                user_id: *rng.pick(creators),
                gift_id: 40_000 + rng.below(9_999),
                starting_egift_price: low.map(|v| v.to_string()),
                ending_egift_price: high.map(|v| v.to_string()),
                status: "Active".to_owned(),
                is_default_price: !ranged,
                delivery_type: delivery,
                crm_key: rng
                    .chance(0.4)
                    .then(|| format!("crm-{:06X}", rng.below(0xFF_FFFF))),
                ship_to_countries: ship_to,
                currency: (*rng.pick(CURRENCIES)).to_owned(),
            }
        })
        .collect();
    // Newest first, as the platform lists them.
    out.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(b.id.cmp(&a.id)));
    out
}
