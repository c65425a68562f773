//! Prices on the catalog: the range a product's variants span, and the filter's dollar bounds.
//! Exact decimals throughout (the contract's [`Decimal`]), never floats.

use gifting_api::marketplace::Product;
use gifting_api::money::Decimal;

use crate::components::format::money;
use crate::i18n::{msg, t, M};

/// Largest bound the form accepts: far above any gift, and well inside `u32`.
pub(crate) const MAX_USD: u32 = 1_000_000;

/// "$25.00", "$25.00 – $40.00" (in the viewer's locale), or one range per currency when
/// variants are priced in several ("€20.00 · $25.00 – $30.00"). Prices that are not decimals are left out; a
/// product with no readable price says so.
pub(crate) fn price_range_text(product: &Product) -> String {
    // (currency, min, max), in the order currencies first appear.
    let mut ranges: Vec<(&str, Decimal, Decimal)> = Vec::new();
    for variant in &product.variants {
        let price = &variant.estimated_total_price;
        let Some(value) = Decimal::parse(&price.price_per_unit) else {
            continue;
        };
        let currency = price.currency.trim();
        match ranges.iter_mut().find(|(c, _, _)| *c == currency) {
            Some((_, min, max)) => {
                if value.cmp_value(*min).is_lt() {
                    *min = value;
                }
                if value.cmp_value(*max).is_gt() {
                    *max = value;
                }
            }
            None => ranges.push((currency, value, value)),
        }
    }
    if ranges.is_empty() {
        return t(M::CatalogPriceNotAvailable).into();
    }
    ranges
        .iter()
        .map(|(currency, min, max)| {
            let low = money(currency, &min.to_string());
            if min.cmp_value(*max).is_eq() {
                low
            } else {
                format!("{low} \u{2013} {}", money(currency, &max.to_string()))
            }
        })
        .collect::<Vec<_>>()
        .join(" \u{b7} ")
}

/// The price filter's two fields as typed (in the form, or in the address), unchecked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct PriceTexts {
    pub(crate) min: String,
    pub(crate) max: String,
}

/// The price filter's two fields as typed, checked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct PriceBounds {
    pub(crate) min: Option<u32>,
    pub(crate) max: Option<u32>,
}

/// The error to show next to each price field, if any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct PriceErrors {
    pub(crate) min: Option<PriceError>,
    pub(crate) max: Option<PriceError>,
}

impl PriceErrors {
    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.min.is_none() && self.max.is_none()
    }
}

/// Which of the two fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    Minimum,
    Maximum,
}

impl Bound {
    /// The word the messages choose by.
    fn key(self) -> &'static str {
        match self {
            Bound::Minimum => "minimum",
            Bound::Maximum => "maximum",
        }
    }
}

/// What is wrong with a price field: kept as what, and written in the language shown when
/// it is shown ([`PriceError::text`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PriceError {
    Negative(Bound),
    NotWhole(Bound),
    TooHigh(Bound),
    /// The maximum is below the minimum, this many dollars.
    BelowMinimum(u32),
}

impl PriceError {
    /// The sentence shown under the field (tracks the language).
    pub(crate) fn text(self) -> String {
        match self {
            PriceError::Negative(bound) => msg::catalog_price_negative(bound.key()),
            PriceError::NotWhole(bound) => msg::catalog_price_not_whole(bound.key()),
            PriceError::TooHigh(bound) => {
                msg::catalog_price_too_high(bound.key(), &MAX_USD.to_string())
            }
            PriceError::BelowMinimum(low) => msg::catalog_price_below_minimum(&low.to_string()),
        }
    }
}

/// One bound: empty means none; otherwise whole US dollars, 0 to [`MAX_USD`].
fn parse_bound(bound: Bound, text: &str) -> Result<Option<u32>, PriceError> {
    let text = text.trim();
    let text = text.strip_prefix('$').unwrap_or(text).trim();
    if text.is_empty() {
        return Ok(None);
    }
    if text.starts_with('-') {
        return Err(PriceError::Negative(bound));
    }
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(PriceError::NotWhole(bound));
    }
    match text.parse::<u32>() {
        Ok(value) if value <= MAX_USD => Ok(Some(value)),
        _ => Err(PriceError::TooHigh(bound)),
    }
}

/// Checks both fields: whole dollars, and the minimum not above the maximum (reported on the
/// maximum, the field to fix after typing the minimum).
pub(crate) fn validate_prices(min: &str, max: &str) -> Result<PriceBounds, PriceErrors> {
    let low = parse_bound(Bound::Minimum, min);
    let high = parse_bound(Bound::Maximum, max);
    match (low, high) {
        (Ok(Some(low)), Ok(Some(high))) if low > high => Err(PriceErrors {
            min: None,
            max: Some(PriceError::BelowMinimum(low)),
        }),
        (Ok(min), Ok(max)) => Ok(PriceBounds { min, max }),
        (low, high) => Err(PriceErrors {
            min: low.err(),
            max: high.err(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gifting_api::marketplace::{EstimatedPrice, Variant};
    use wasm_bindgen_test::wasm_bindgen_test;

    fn product(prices: &[(&str, &str)]) -> Product {
        Product {
            id: "p".into(),
            name: "P".into(),
            description: String::new(),
            variants: prices
                .iter()
                .enumerate()
                .map(|(i, (currency, price))| Variant {
                    id: format!("v{i}"),
                    estimated_total_price: EstimatedPrice {
                        currency: (*currency).into(),
                        price_per_unit: (*price).into(),
                    },
                    images: Vec::new(),
                })
                .collect(),
        }
    }

    /// A product's variant prices (currency, price) and the range shown for them.
    const RANGES: &[(&[(&str, &str)], &str)] = &[
        // The range spans the variants exactly.
        (
            &[("USD", "40"), ("USD", "9.5"), ("USD", "25.00")],
            "$9.50 \u{2013} $40.00",
        ),
        // 10 > 9.99 although "10" < "9.99" as text.
        (&[("USD", "9.99"), ("USD", "10")], "$9.99 \u{2013} $10.00"),
        (&[("EUR", "1234.5"), ("EUR", "1234.50")], "€1,234.50"),
        // Mixed currencies, each its own range.
        (
            &[("USD", "30"), ("EUR", "20"), ("USD", "25")],
            "$25.00 \u{2013} $30.00 \u{b7} €20.00",
        ),
        // Unreadable prices are left out.
        (&[("USD", "n/a"), ("USD", "12")], "$12.00"),
        (&[], "Price not available"),
        (&[("USD", "1e3")], "Price not available"),
    ];

    #[wasm_bindgen_test]
    fn ranges_span_the_variants_exactly_per_currency() {
        for (prices, want) in RANGES {
            assert_eq!(
                price_range_text(&product(prices)),
                *want,
                "prices {prices:?}"
            );
        }
    }

    #[wasm_bindgen_test]
    fn bounds_are_whole_dollars_in_order() {
        assert_eq!(validate_prices("", " "), Ok(PriceBounds::default()));
        assert_eq!(
            validate_prices("10", "$100"),
            Ok(PriceBounds {
                min: Some(10),
                max: Some(100)
            })
        );
        assert_eq!(
            validate_prices("50", "50"),
            Ok(PriceBounds {
                min: Some(50),
                max: Some(50)
            })
        );
        let errors = validate_prices("12.50", "abc").unwrap_err();
        assert!(errors.min.unwrap().text().contains("whole number"));
        assert!(errors.max.unwrap().text().contains("whole number"));
        let errors = validate_prices("-5", "").unwrap_err();
        assert!(errors.min.unwrap().text().contains("negative"));
        let errors = validate_prices("100", "20").unwrap_err();
        assert_eq!(errors.min, None);
        assert!(errors
            .max
            .unwrap()
            .text()
            .contains("at least the minimum (100"));
        assert!(validate_prices("", "99999999999")
            .unwrap_err()
            .max
            .is_some());
        assert!(PriceErrors::default().is_empty());
    }
}
