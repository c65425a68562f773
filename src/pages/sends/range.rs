//! Which days the sends screen covers: this month, last month, the last 90 days or any two
//! days, kept in the address as `since` and `until` (days of the organisation's calendar, the
//! one the platform writes its timestamps in). The screen then reads the sends back to the
//! range's first day, so counts, filters and the export cover exactly the range.

use gifting_api::attention::{civil_from_days, parse_day};

use super::filter::SendFilter;
use crate::i18n::M;

/// One choice of the range select.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Range {
    Any,
    ThisMonth,
    LastMonth,
    Last90Days,
    Custom,
}

impl Range {
    pub(crate) const ALL: [Range; 5] = [
        Range::Any,
        Range::ThisMonth,
        Range::LastMonth,
        Range::Last90Days,
        Range::Custom,
    ];

    /// The select's value.
    pub(crate) fn slug(self) -> &'static str {
        match self {
            Range::Any => "",
            Range::ThisMonth => "this-month",
            Range::LastMonth => "last-month",
            Range::Last90Days => "last-90-days",
            Range::Custom => "custom",
        }
    }

    pub(crate) fn from_slug(slug: &str) -> Option<Range> {
        Range::ALL.into_iter().find(|r| r.slug() == slug)
    }

    pub(crate) fn label(self) -> M {
        match self {
            Range::Any => M::SendsRangeAny,
            Range::ThisMonth => M::SendsRangeThisMonth,
            Range::LastMonth => M::SendsRangeLastMonth,
            Range::Last90Days => M::SendsRangeLast90Days,
            Range::Custom => M::SendsRangeCustom,
        }
    }

    /// The first and last day it stands for (`20261101`), `today` in days since 1970-01-01;
    /// `None` for a custom range, whose days the admin types.
    pub(crate) fn days(self, today: i64) -> Option<(Option<u32>, Option<u32>)> {
        let (year, this, _) = civil_from_days(today);
        let month = |year: i64, month: u32| -> Option<(Option<u32>, Option<u32>)> {
            let first = parse_day(&format!("{year:04}-{month:02}-01"))?;
            let (next_year, next) = if month == 12 {
                (year + 1, 1)
            } else {
                (year, month + 1)
            };
            let next = parse_day(&format!("{next_year:04}-{next:02}-01"))?;
            Some((Some(day_number_of(first)), Some(day_number_of(next - 1))))
        };
        match self {
            Range::Any => Some((None, None)),
            Range::ThisMonth => month(year, this),
            Range::LastMonth if this == 1 => month(year - 1, 12),
            Range::LastMonth => month(year, this - 1),
            Range::Last90Days => Some((Some(day_number_of(today - 89)), None)),
            Range::Custom => None,
        }
    }

    /// The choice that stands for the filter's days, else [`Range::Custom`].
    pub(crate) fn of(filter: &SendFilter, today: i64) -> Range {
        let days = (filter.since, filter.until);
        Range::ALL
            .into_iter()
            .find(|r| *r != Range::Custom && r.days(today) == Some(days))
            .unwrap_or(Range::Custom)
    }
}

/// Days since 1970-01-01 as the filter's day number (`20261101`).
pub(crate) fn day_number_of(day: i64) -> u32 {
    let (year, month, date) = civil_from_days(day);
    u32::try_from(year).unwrap_or(0) * 10_000 + month * 100 + date
}

/// Today in days since 1970-01-01, at `offset_minutes` from UTC, `now` in Unix seconds.
pub(crate) fn today(now: i64, offset_minutes: i64) -> i64 {
    (now + offset_minutes * 60).div_euclid(86_400)
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn filter(since: Option<u32>, until: Option<u32>) -> SendFilter {
        SendFilter {
            since,
            until,
            ..SendFilter::default()
        }
    }

    #[wasm_bindgen_test]
    fn each_choice_stands_for_its_days_and_is_read_back_from_them() {
        let Some(today) = parse_day("2026-03-15") else {
            panic!("a real day");
        };
        assert_eq!(
            Range::ThisMonth.days(today),
            Some((Some(20260301), Some(20260331)))
        );
        assert_eq!(
            Range::LastMonth.days(today),
            Some((Some(20260201), Some(20260228)))
        );
        assert_eq!(Range::Last90Days.days(today), Some((Some(20251216), None)));
        assert_eq!(Range::Any.days(today), Some((None, None)));
        assert_eq!(Range::Custom.days(today), None);
        for range in Range::ALL {
            if let Some((since, until)) = range.days(today) {
                assert_eq!(Range::of(&filter(since, until), today), range);
            }
            assert_eq!(Range::from_slug(range.slug()), Some(range));
        }
        let odd = filter(Some(20260302), Some(20260331));
        assert_eq!(Range::of(&odd, today), Range::Custom);
    }

    #[wasm_bindgen_test]
    fn months_cross_the_year_and_leap_days() {
        let day = |text: &str| parse_day(text).unwrap_or_default();
        assert_eq!(
            Range::LastMonth.days(day("2026-01-31")),
            Some((Some(20251201), Some(20251231)))
        );
        assert_eq!(
            Range::ThisMonth.days(day("2028-02-10")),
            Some((Some(20280201), Some(20280229)))
        );
        assert_eq!(
            Range::ThisMonth.days(day("2026-12-01")),
            Some((Some(20261201), Some(20261231)))
        );
        // 23:30 on 31 October at five hours behind UTC is 04:30 on 1 November in UTC.
        let now = day("2026-11-01") * 86_400 + 4 * 3600 + 30 * 60;
        assert_eq!(today(now, -300), day("2026-10-31"));
        assert_eq!(today(now, 0), day("2026-11-01"));
    }
}
