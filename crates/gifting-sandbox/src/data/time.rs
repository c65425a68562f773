//! ISO 8601 formatting of Unix seconds with a fixed UTC offset, without a date crate: the data
//! only ever needs "seconds since epoch -> civil time", which is a few lines of arithmetic.

/// The organization's offset. A non-zero offset makes clients prove they parse offsets rather
/// than assume `Z`.
pub const ORG_OFFSET_MINUTES: i64 = -5 * 60;

/// 2025-01-01T00:00:00Z
pub const YEAR_2025: i64 = 1_735_689_600;
/// 2026-01-01T00:00:00Z
pub const YEAR_2026: i64 = 1_767_225_600;
/// 2026-06-30T00:00:00Z: the newest timestamp the seeded data uses.
pub const DATA_END: i64 = 1_782_777_600;

pub const DAY: i64 = 86_400;

/// The days from 2025-01-01 to the data's end: 18 months.
pub const DATA_DAYS: i64 = (DATA_END - YEAR_2025) / DAY;

/// The day of [`DATA_END`] (days since 1970-01-01): `--today` moves the seeded timeline by
/// its distance from this day.
pub const DATA_END_DAY: i64 = DATA_END / DAY;

/// The organization's calendar day of Unix time `unix`.
pub fn org_day(unix: i64) -> i64 {
    (unix + ORG_OFFSET_MINUTES * 60).div_euclid(DAY)
}

/// The instant the organization's day `day` begins (its local midnight), in Unix seconds.
pub fn org_midnight(day: i64) -> i64 {
    day * DAY - ORG_OFFSET_MINUTES * 60
}

pub use gifting_api::attention::{day_text, parse_day};

/// (year, month, day of month) of days since 1970-01-01 (the contract's calendar).
pub fn civil(day: i64) -> (i64, u32, u32) {
    gifting_api::attention::civil_from_days(day)
}

/// `text` (a timestamp as the data writes it) `days` whole days later, in its own offset;
/// text that is not a timestamp stays as it is.
pub fn shifted(text: &str, days: i64) -> String {
    use gifting_api::attention::{offset_minutes, unix_seconds};
    match (unix_seconds(text), offset_minutes(text)) {
        (Some(unix), Some(offset)) => iso8601(unix + days * DAY, offset),
        _ => text.to_owned(),
    }
}

/// `2025-03-14T09:26:53-05:00`
pub fn iso8601(unix: i64, offset_minutes: i64) -> String {
    let local = unix + offset_minutes * 60;
    let days = local.div_euclid(DAY);
    let secs = local.rem_euclid(DAY);
    let (y, m, d) = civil(days);
    let sign = if offset_minutes < 0 { '-' } else { '+' };
    let off = offset_minutes.abs();
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}{sign}{:02}:{:02}",
        secs / 3600,
        secs % 3600 / 60,
        secs % 60,
        off / 60,
        off % 60
    )
}

/// The organization's local time, which is what the platform's REST v3 data carries.
pub fn org_time(unix: i64) -> String {
    iso8601(unix, ORG_OFFSET_MINUTES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_utc_and_offsets() {
        assert_eq!(iso8601(0, 0), "1970-01-01T00:00:00+00:00");
        assert_eq!(iso8601(YEAR_2025, 0), "2025-01-01T00:00:00+00:00");
        assert_eq!(iso8601(YEAR_2025, -300), "2024-12-31T19:00:00-05:00");
        assert_eq!(
            iso8601(YEAR_2026 + 59 * DAY, 330),
            "2026-03-01T05:30:00+05:30"
        );
        assert_eq!(iso8601(DATA_END, 0), "2026-06-30T00:00:00+00:00");
        assert_eq!(DATA_DAYS, 545);
    }

    #[test]
    fn days_read_and_write_and_shift() {
        assert_eq!(parse_day("2026-06-30"), Some(DATA_END_DAY));
        assert_eq!(day_text(DATA_END_DAY), "2026-06-30");
        assert_eq!(
            parse_day("2024-02-29").map(day_text).as_deref(),
            Some("2024-02-29")
        );
        for bad in [
            "2026-02-30",
            "2026-13-01",
            "2026-6-30",
            "26-06-30",
            "1999-12-31",
            "+026-06-30",
            "2026-06-3x",
            "",
        ] {
            assert_eq!(parse_day(bad), None, "{bad}");
        }
        let day = parse_day("2026-11-26").unwrap();
        assert_eq!(org_time(org_midnight(day)), "2026-11-26T00:00:00-05:00");
        assert_eq!(org_day(org_midnight(day)), day);
        assert_eq!(org_day(org_midnight(day) - 1), day - 1);
        assert_eq!(
            shifted("2026-06-29T19:00:00-05:00", 149),
            "2026-11-25T19:00:00-05:00"
        );
        assert_eq!(
            shifted("2026-03-08T01:30:00+05:30", 1),
            "2026-03-09T01:30:00+05:30"
        );
        assert_eq!(shifted("soon", 3), "soon");
    }
}
