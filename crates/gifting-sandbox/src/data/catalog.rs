//! The marketplace catalog: products in categories, 1-4 variants each, 1-3 images a variant.
//!
//! Image addresses depend on the Host a request came in on, so the catalog is stored without
//! them and rendered per request.

use gifting_api::marketplace::{Category, CategoryGroup};

use super::prng::SplitMix64;
use super::text::{self, CATEGORY_GROUPS, COUNTRIES, PRODUCT_ADJECTIVES, PRODUCT_BLURBS};

/// Products of the demo world.
pub const PRODUCT_COUNT: usize = 300;

#[derive(Debug, Clone)]
pub struct VariantRecord {
    pub id: String,
    pub currency: &'static str,
    pub price_cents: i64,
    pub image_count: u8,
}

#[derive(Debug, Clone)]
pub struct ProductRecord {
    pub id: String,
    pub name: String,
    pub description: String,
    pub category_ids: Vec<&'static str>,
    pub ship_to: Vec<&'static str>,
    pub variants: Vec<VariantRecord>,
    /// Picture colour, so every product's images look different.
    pub hue: u16,
}

/// US cents per 100 units of a currency, fixed: the catalog filters on USD prices.
pub fn usd_cents(currency: &str, cents: i64) -> i64 {
    let rate = match currency {
        "EUR" => 108,
        "GBP" => 127,
        "CAD" => 73,
        _ => 100,
    };
    cents * rate / 100
}

pub fn categories() -> Vec<CategoryGroup> {
    CATEGORY_GROUPS
        .iter()
        .map(|(group, children)| CategoryGroup {
            group_name: (*group).to_owned(),
            children: children
                .iter()
                .map(|(id, name)| Category {
                    id: (*id).to_owned(),
                    name: (*name).to_owned(),
                })
                .collect(),
        })
        .collect()
}

fn price_range(category_id: &str) -> (i64, i64) {
    match category_id.as_bytes().first() {
        Some(b'1') => (1_500, 12_000),
        Some(b'2') => (2_000, 20_000),
        Some(b'3') => (2_500, 35_000),
        Some(b'4') => (1_500, 9_000),
        Some(b'5') => (1_800, 12_000),
        _ => (2_500, 50_000),
    }
}

pub fn products(rng: &mut SplitMix64, count: u64) -> Vec<ProductRecord> {
    let all_categories: Vec<&'static str> = CATEGORY_GROUPS
        .iter()
        .flat_map(|(_, c)| c.iter().map(|(id, _)| *id))
        .collect();
    (0..count as usize)
        .map(|n| {
            let primary = all_categories[n % all_categories.len()];
            let mut category_ids = vec![primary];
            if rng.chance(0.25) {
                let extra = *rng.pick(&all_categories);
                if extra != primary {
                    category_ids.push(extra);
                }
            }
            let noun = rng.pick(text::product_nouns(primary));
            let adjective = rng.pick(PRODUCT_ADJECTIVES);
            let mut name = format!("{adjective} {noun}");
            let mut description =
                format!("{} {}", rng.pick(PRODUCT_BLURBS), rng.pick(PRODUCT_BLURBS));
            match n {
                4 => name = text::IMG_ONERROR.to_owned(),
                9 => name = text::SCRIPT_TAG.to_owned(),
                14 => name = format!("\"The Classic\" {noun}'s Edition"),
                19 => name = format!("🎁 {noun} Surprise 🎉"),
                24 => name = "سلة هدايا فاخرة".to_owned(),
                29 => description = format!("{} {description}", text::long_word()),
                34 => name = text::long_word(),
                39 => description = format!("{} {description}", text::SCRIPT_TAG),
                _ => {}
            }
            let (lo, hi) = price_range(primary);
            let currency = match rng.below(10) {
                0 => "EUR",
                1 => "GBP",
                _ => "USD",
            };
            let variant_count = 1 + rng.below(4) as usize;
            let variants = (0..variant_count)
                .map(|v| VariantRecord {
                    id: format!("var_{:04}_{}", n + 1, v + 1),
                    currency,
                    price_cents: rng.range(lo, hi) / 5 * 5,
                    image_count: 1 + rng.below(3) as u8,
                })
                .collect();
            let mut ship_to: Vec<&'static str> = COUNTRIES
                .iter()
                .copied()
                .filter(|c| *c == "US" && n % 7 != 0 || rng.chance(0.3))
                .collect();
            if ship_to.is_empty() {
                ship_to.push("US");
            }
            ProductRecord {
                id: format!("prd_{:05}", 10_001 + n),
                name,
                description,
                category_ids,
                ship_to,
                variants,
                hue: rng.below(360) as u16,
            }
        })
        .collect()
}
