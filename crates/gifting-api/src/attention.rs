//! Which sends need an admin's attention, and why, in the platform's own words; and the
//! calendar the home screen's figures are counted by. `docs/platform.md` ("What needs
//! attention", "Spend and budgets") decides each point; this module encodes it once for the
//! console's home and sends screens and the sandbox.

use crate::rest::Send;
use crate::SendStatus;

/// A send waiting this long in "Collecting recipient info" or "Confirming Address" is stuck.
pub const STUCK_DAYS: i64 = 7;

const DAY: i64 = 86_400;

/// Why a send needs attention.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Attention {
    Undeliverable,
    Bounced,
    Failed,
    AddressCancelled,
    Expired,
    StuckCollecting,
    StuckConfirming,
}

impl Attention {
    pub const ALL: [Attention; 7] = [
        Attention::Undeliverable,
        Attention::Bounced,
        Attention::Failed,
        Attention::AddressCancelled,
        Attention::Expired,
        Attention::StuckCollecting,
        Attention::StuckConfirming,
    ];

    /// The reason in the platform's words (its status names).
    pub fn label(self) -> &'static str {
        match self {
            Attention::Undeliverable => "Undeliverable",
            Attention::Bounced => "Bounced and Credited",
            Attention::Failed => "Failed",
            Attention::AddressCancelled => "Address Confirmation - Cancelled",
            Attention::Expired => "Expired and Credited",
            Attention::StuckCollecting => "Collecting recipient info for 7 days or more",
            Attention::StuckConfirming => "Confirming Address for 7 days or more",
        }
    }

    /// A stable token for addresses (`/sends?attention=bounced`).
    pub fn slug(self) -> &'static str {
        match self {
            Attention::Undeliverable => "undeliverable",
            Attention::Bounced => "bounced",
            Attention::Failed => "failed",
            Attention::AddressCancelled => "address-cancelled",
            Attention::Expired => "expired",
            Attention::StuckCollecting => "stuck-collecting",
            Attention::StuckConfirming => "stuck-confirming",
        }
    }

    /// The status a send needing attention for this reason is in.
    pub fn status(self) -> SendStatus {
        match self {
            Attention::Undeliverable => SendStatus::Undeliverable,
            Attention::Bounced => SendStatus::BouncedAndCredited,
            Attention::Failed => SendStatus::Failed,
            Attention::AddressCancelled => SendStatus::AddressConfirmationCancelled,
            Attention::Expired => SendStatus::ExpiredAndCredited,
            Attention::StuckCollecting => SendStatus::CollectingRecipientInfo,
            Attention::StuckConfirming => SendStatus::ConfirmingAddress,
        }
    }

    pub fn from_slug(slug: &str) -> Option<Attention> {
        Attention::ALL.into_iter().find(|a| a.slug() == slug)
    }
}

/// Why `send` needs attention at `now` (Unix seconds), if it does.
pub fn attention(send: &Send, now: i64) -> Option<Attention> {
    use SendStatus as S;
    let stuck = || {
        let since = in_status_since(send)?;
        (now - since >= STUCK_DAYS * DAY).then_some(())
    };
    match send.status {
        S::Undeliverable => Some(Attention::Undeliverable),
        S::BouncedAndCredited => Some(Attention::Bounced),
        S::Failed => Some(Attention::Failed),
        S::AddressConfirmationCancelled => Some(Attention::AddressCancelled),
        S::ExpiredAndCredited => Some(Attention::Expired),
        S::CollectingRecipientInfo => stuck().map(|()| Attention::StuckCollecting),
        S::ConfirmingAddress => stuck().map(|()| Attention::StuckConfirming),
        _ => None,
    }
}

/// When the send entered its current status (Unix seconds): the last status update naming
/// it, else its creation.
pub fn in_status_since(send: &Send) -> Option<i64> {
    send.status_updates
        .iter()
        .rev()
        .find(|u| u.status == send.status)
        .and_then(|u| unix_seconds(&u.occurred_at))
        .or_else(|| unix_seconds(&send.created_at))
}

/// Whether the money of a send came back (it does not count as spend).
pub fn money_returned(status: &SendStatus) -> bool {
    matches!(
        status,
        SendStatus::BouncedAndCredited | SendStatus::ExpiredAndCredited | SendStatus::Refunded
    )
}

/// A calendar month, as the platform's timestamps write it (the organisation's local time).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Month {
    pub year: i32,
    pub month: u32,
}

impl Month {
    /// The month of a timestamp as written (`2026-11-03T…` is November 2026, whatever its
    /// offset: the platform writes the organisation's local time).
    pub fn of(timestamp: &str) -> Option<Month> {
        let year = timestamp.get(0..4)?.parse().ok()?;
        let month: u32 = timestamp.get(5..7)?.parse().ok()?;
        (timestamp.get(4..5) == Some("-") && (1..=12).contains(&month))
            .then_some(Month { year, month })
    }

    /// The month of Unix time `unix` at `offset_minutes` from UTC.
    pub fn at(unix: i64, offset_minutes: i64) -> Month {
        let (year, month, _) = civil_from_days((unix + offset_minutes * 60).div_euclid(DAY));
        Month {
            year: year as i32,
            month,
        }
    }

    pub fn previous(self) -> Month {
        if self.month == 1 {
            Month {
                year: self.year - 1,
                month: 12,
            }
        } else {
            Month {
                year: self.year,
                month: self.month - 1,
            }
        }
    }

    /// Its first instant (Unix seconds) at `offset_minutes` from UTC.
    pub fn start(self, offset_minutes: i64) -> i64 {
        days_from_civil(i64::from(self.year), self.month, 1) * DAY - offset_minutes * 60
    }

    /// `2026-11`.
    pub fn key(self) -> String {
        format!("{:04}-{:02}", self.year, self.month)
    }

    /// The days it has.
    pub fn days(self) -> u32 {
        match self.month {
            4 | 6 | 9 | 11 => 30,
            2 if self.year % 4 == 0 && (self.year % 100 != 0 || self.year % 400 == 0) => 29,
            2 => 28,
            _ => 31,
        }
    }
}

/// The UTC offset a timestamp is written with, in minutes (`Z`: 0).
pub fn offset_minutes(timestamp: &str) -> Option<i64> {
    if timestamp.ends_with('Z') {
        return Some(0);
    }
    let tail = timestamp.get(timestamp.len().checked_sub(6)?..)?;
    let sign = match tail.get(0..1)? {
        "+" => 1,
        "-" => -1,
        _ => return None,
    };
    let hours: i64 = tail.get(1..3)?.parse().ok()?;
    let minutes: i64 = tail.get(4..6)?.parse().ok()?;
    Some(sign * (hours * 60 + minutes))
}

/// `2025-03-14T09:26:53-05:00` (or `…Z`, fractions of a second ignored) as Unix seconds.
pub fn unix_seconds(timestamp: &str) -> Option<i64> {
    let num = |range: std::ops::Range<usize>| -> Option<i64> { timestamp.get(range)?.parse().ok() };
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hour, minute, second) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let days = days_from_civil(year, month as u32, day as u32);
    let local = days * DAY + hour * 3600 + minute * 60 + second;
    Some(local - offset_minutes(timestamp)? * 60)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// `2026-11-26` as days since 1970-01-01; `None` unless it is a real date of the years
/// 2000 to 2999 (every timestamp keeps four digits of year).
pub fn parse_day(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let part = text.get(r)?;
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())?
    };
    let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    if !(2000..=2999).contains(&y) || !(1..=12).contains(&m) || d == 0 {
        return None;
    }
    let day = unix_seconds(&format!("{text}T00:00:00Z"))? / DAY;
    // 2026-02-30 would read as 2 March: only a date that reads back as written is one.
    (civil_from_days(day) == (i64::from(y), m, d)).then_some(day)
}

/// `2026-11-26` of days since 1970-01-01.
pub fn day_text(day: i64) -> String {
    let (y, m, d) = civil_from_days(day);
    format!("{y:04}-{m:02}-{d:02}")
}

/// (year, month, day of month) of days since 1970-01-01, proleptic Gregorian (Howard
/// Hinnant's `civil_from_days`).
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn send(status: &str, created: &str, updates: &[(&str, &str)]) -> Send {
        let mut value: serde_json::Value =
            serde_json::from_str(crate::rest::tests::SAMPLE_SEND).unwrap();
        value["status"] = status.into();
        value["created_at"] = created.into();
        value["status_updates"] = updates
            .iter()
            .map(|(s, at)| serde_json::json!({"status": s, "occurred_at": at}))
            .collect();
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn timestamps_read_with_their_offset() {
        assert_eq!(unix_seconds("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(unix_seconds("2026-01-01T00:00:00Z"), Some(1_767_225_600));
        assert_eq!(
            unix_seconds("2025-12-31T19:00:00-05:00"),
            Some(1_767_225_600),
            "the same instant in New York"
        );
        assert_eq!(unix_seconds("2026-13-01T00:00:00Z"), None);
        assert_eq!(unix_seconds("soon"), None);
        assert_eq!(offset_minutes("2025-03-14T09:26:53+05:30"), Some(330));
        assert_eq!(Month::at(1_767_225_600, -300).key(), "2025-12");
        assert_eq!(Month::at(1_767_225_600, 0).key(), "2026-01");
        assert_eq!(
            Month::of("2026-11-03T10:00:00-05:00")
                .map(Month::key)
                .as_deref(),
            Some("2026-11")
        );
        assert_eq!(
            Month::of("2026-01-03T10:00:00Z")
                .map(|m| m.previous().key())
                .as_deref(),
            Some("2025-12")
        );
        assert_eq!(
            (Month {
                year: 2024,
                month: 2
            })
            .days(),
            29
        );
        let november = Month {
            year: 2026,
            month: 11,
        };
        assert_eq!(
            november.start(-300),
            unix_seconds("2026-11-01T00:00:00-05:00").unwrap()
        );
    }

    #[test]
    fn problems_need_attention_and_waits_only_once_stuck() {
        let now = unix_seconds("2026-11-26T12:00:00-05:00").unwrap();
        let at = |status, created| attention(&send(status, created, &[]), now);
        assert_eq!(
            at("Undeliverable", "2026-11-01T10:00:00-05:00"),
            Some(Attention::Undeliverable)
        );
        assert_eq!(
            at("Bounced and Credited", "2026-11-01T10:00:00-05:00"),
            Some(Attention::Bounced)
        );
        assert_eq!(at("Delivered", "2026-11-01T10:00:00-05:00"), None);
        assert_eq!(
            at("Cancelled", "2026-11-01T10:00:00-05:00"),
            None,
            "cancelled on purpose"
        );
        // Waiting since its last update: 6 days is not stuck, 7 is.
        let waiting = |entered| {
            attention(
                &send(
                    "Collecting recipient info",
                    "2026-10-01T10:00:00-05:00",
                    &[
                        ("pending", "2026-10-01T10:00:00-05:00"),
                        ("Collecting recipient info", entered),
                    ],
                ),
                now,
            )
        };
        assert_eq!(waiting("2026-11-20T12:00:01-05:00"), None);
        assert_eq!(
            waiting("2026-11-19T12:00:00-05:00"),
            Some(Attention::StuckCollecting)
        );
        for a in Attention::ALL {
            assert_eq!(Attention::from_slug(a.slug()), Some(a));
            let created = "2026-01-01T00:00:00Z";
            let status = a.status();
            let entered = [("pending", created), (status.as_str(), created)];
            let at = attention(&send(status.as_str(), created, &entered), now);
            assert_eq!(at, Some(a), "each reason is its status");
        }
    }
}
