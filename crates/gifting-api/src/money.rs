//! Money is decimal text on the wire ("25.00"). These helpers add and format it exactly, in
//! integer minor units, never through a float.

use std::fmt;

/// An exact decimal: `units / 10^scale`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decimal {
    units: i128,
    scale: u32,
}

const MAX_SCALE: u32 = 12;

impl Decimal {
    pub const ZERO: Decimal = Decimal { units: 0, scale: 0 };
    pub const ONE: Decimal = Decimal { units: 1, scale: 0 };

    /// Parses `"-1234.5"`, `"25"`, `"0.10"`. Refuses exponents, commas and anything else.
    pub fn parse(text: &str) -> Option<Decimal> {
        let text = text.trim();
        let (negative, digits) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text.strip_prefix('+').unwrap_or(text)),
        };
        let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
        if whole.is_empty() && frac.is_empty()
            || !whole.bytes().all(|b| b.is_ascii_digit())
            || !frac.bytes().all(|b| b.is_ascii_digit())
            || frac.len() as u32 > MAX_SCALE
            || whole.len() > 24
        {
            return None;
        }
        let scale = frac.len() as u32;
        let units: i128 = format!("{whole}{frac}").parse().unwrap_or(0);
        Some(Decimal {
            units: if negative { -units } else { units },
            scale,
        })
    }

    fn rescaled(self, scale: u32) -> i128 {
        self.units * 10i128.pow(scale - self.scale)
    }

    pub fn checked_add(self, other: Decimal) -> Option<Decimal> {
        let scale = self.scale.max(other.scale);
        Some(Decimal {
            units: self.rescaled(scale).checked_add(other.rescaled(scale))?,
            scale,
        })
    }

    /// Digits after the point, as written: `"0.10"` has 2.
    pub fn scale(self) -> u32 {
        self.scale
    }

    pub fn is_negative(self) -> bool {
        self.units < 0
    }

    /// `self - other`, exactly; `None` on overflow.
    pub fn checked_sub(self, other: Decimal) -> Option<Decimal> {
        self.checked_add(Decimal {
            units: other.units.checked_neg()?,
            scale: other.scale,
        })
    }

    /// `self / whole` in percent, rounded down (`None` when `whole` is zero).
    pub fn percent_of(self, whole: Decimal) -> Option<i128> {
        let scale = self.scale.max(whole.scale);
        let whole = whole.rescaled(scale);
        (whole != 0).then(|| self.rescaled(scale).saturating_mul(100) / whole)
    }

    /// Compares numerically, whatever the scales.
    pub fn cmp_value(self, other: Decimal) -> std::cmp::Ordering {
        let scale = self.scale.max(other.scale);
        self.rescaled(scale).cmp(&other.rescaled(scale))
    }

    /// Text with at least `min_frac` decimals and thousands separators: `1,234.50`.
    pub fn format_grouped(self, min_frac: u32) -> String {
        let scale = self.scale.max(min_frac);
        let units = self.rescaled(scale);
        let digits = units.unsigned_abs().to_string();
        let digits = format!("{digits:0>width$}", width = scale as usize + 1);
        let (whole, frac) = digits.split_at(digits.len() - scale as usize);
        let mut grouped = String::new();
        for (i, c) in whole.chars().enumerate() {
            if i > 0 && (whole.len() - i) % 3 == 0 {
                grouped.push(',');
            }
            grouped.push(c);
        }
        let sign = if units < 0 { "-" } else { "" };
        if frac.is_empty() {
            format!("{sign}{grouped}")
        } else {
            format!("{sign}{grouped}.{frac}")
        }
    }
}

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = self.units.unsigned_abs().to_string();
        let digits = format!("{digits:0>width$}", width = self.scale as usize + 1);
        let (whole, frac) = digits.split_at(digits.len() - self.scale as usize);
        let sign = if self.units < 0 { "-" } else { "" };
        if frac.is_empty() {
            write!(f, "{sign}{whole}")
        } else {
            write!(f, "{sign}{whole}.{frac}")
        }
    }
}

/// `"1234.5"` → `"1,234.50"`; text that is not a decimal is shown as it came.
pub fn format_amount(text: &str) -> String {
    Decimal::parse(text).map_or_else(|| text.to_owned(), |d| d.format_grouped(2))
}

/// `("USD", "25")` → `"USD 25.00"`.
pub fn format_money(currency: &str, text: &str) -> String {
    format!("{currency} {}", format_amount(text))
}

/// Sums decimal texts; `None` if one is not a decimal or the sum overflows.
pub fn sum<'a>(texts: impl IntoIterator<Item = &'a str>) -> Option<Decimal> {
    texts
        .into_iter()
        .try_fold(Decimal::ZERO, |acc, t| acc.checked_add(Decimal::parse(t)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subtracts_and_takes_percentages_exactly() {
        let budget = Decimal::parse("5000").unwrap();
        let spent = Decimal::parse("4100.50").unwrap();
        assert_eq!(budget.checked_sub(spent).unwrap().to_string(), "899.50");
        assert_eq!(spent.checked_sub(budget).unwrap().to_string(), "-899.50");
        assert_eq!(spent.percent_of(budget), Some(82));
        assert_eq!(spent.percent_of(Decimal::ZERO), None);
    }

    #[test]
    fn sums_exactly_where_floats_would_not() {
        let total = sum(["0.10", "0.20", "0.3"]).unwrap();
        assert_eq!(total.to_string(), "0.60");
        assert_eq!(total.format_grouped(2), "0.60");
        assert_eq!(sum(["1", "x"]), None);
    }

    #[test]
    fn formats_with_grouping_and_sign() {
        assert_eq!(format_amount("1234567.5"), "1,234,567.50");
        assert_eq!(format_amount("25"), "25.00");
        assert_eq!(format_amount("-0.5"), "-0.50");
        assert_eq!(format_amount("0.125"), "0.125");
        assert_eq!(format_amount("n/a"), "n/a");
        assert_eq!(format_money("EUR", "999.9"), "EUR 999.90");
    }

    #[test]
    fn parses_strictly() {
        for bad in ["", "-", ".", "1e3", "1,000", "12.3.4", "abc"] {
            assert_eq!(Decimal::parse(bad), None, "{bad}");
        }
        assert_eq!(Decimal::parse(".5").unwrap().to_string(), "0.5");
        let a = Decimal::parse("10").unwrap();
        let b = Decimal::parse("9.99").unwrap();
        assert_eq!(a.cmp_value(b), std::cmp::Ordering::Greater);
    }
}
