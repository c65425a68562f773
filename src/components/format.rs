//! Display formatting in the viewer's locale: money and amounts (exact, never through a float),
//! timestamps in the viewer's zone. The one place that formats for the screen; CSV exports keep
//! the platform's own plain text.

use chrono::{DateTime, Datelike, FixedOffset, Local, Timelike};
use gifting_api::money::{format_money, Decimal};
use wasm_bindgen::JsValue;

use crate::i18n::intl::{bound, bound_format, format_decimal, intl_object};

/// `"1234.5"` → `"1,234.50"` (en-US), `"1.234,50"` (de-DE): at least two decimals, every digit
/// the platform sent. Text that is not a decimal is shown as it came rather than hidden.
pub(crate) fn amount(text: &str) -> String {
    let Some(value) = Decimal::parse(text) else {
        return text.to_owned();
    };
    format_decimal(&crate::i18n::locale(), None, value).unwrap_or_else(|| value.format_grouped(2))
}

/// The account's currency: budgets and balances are in it (docs/platform.md, "Currencies").
pub(crate) const ACCOUNT_CURRENCY: &str = "USD";

/// An amount in the account's currency: `"405"` → `"$405.00"`.
pub(crate) fn account_money(text: &str) -> String {
    money(ACCOUNT_CURRENCY, text)
}

/// `("USD", "1234.5")` → `"$1,234.50"` (en-US), `"1.234,50 $"` (de-DE).
pub(crate) fn money(currency: &str, text: &str) -> String {
    Decimal::parse(text)
        .and_then(|value| format_decimal(&crate::i18n::locale(), Some(currency), value))
        .unwrap_or_else(|| format_money(currency, text))
}

/// A count with the locale's grouping: `1234` → `"1,234"` (en-US), `"1.234"` (de-DE).
pub(crate) fn count(n: u64) -> String {
    crate::i18n::intl::format_count(&crate::i18n::locale(), n)
}

/// Progress as counts: `(412, 1234)` → `"412 of 1,234"`.
pub(crate) fn count_of(done: u64, of: u64) -> String {
    crate::i18n::msg::common_count_of(&count(done), &count(of))
}

/// A share in whole percent, grouped as a count: `1234` → `"1,234 %"`, `-5` → `"-5 %"`.
pub(crate) fn percent(p: i128) -> String {
    let sign = if p < 0 { "-" } else { "" };
    let n = u64::try_from(p.unsigned_abs()).unwrap_or(u64::MAX);
    crate::i18n::msg::common_percent(&format!("{sign}{}", count(n)))
}

/// Parses an ISO 8601 / RFC 3339 timestamp from the platform.
pub(crate) fn parse_timestamp(text: &str) -> Option<DateTime<FixedOffset>> {
    DateTime::parse_from_rfc3339(text.trim()).ok()
}

/// Date and time in the viewer's locale and time zone, e.g. "Mar 1, 2026, 3:05 PM".
/// Unreadable text is shown as it came.
pub fn date_time(text: &str) -> String {
    format_with(text, true)
}

/// An instant given in ms since the epoch (a time the console noted), as [`date_time`].
pub(crate) fn date_time_ms(ms: i64) -> String {
    let iso = js_sys::Date::new(&(ms as f64).into()).to_iso_string();
    date_time(&String::from(iso))
}

/// The date alone, in the viewer's locale and time zone.
pub(crate) fn date(text: &str) -> String {
    format_with(text, false)
}

fn format_with(text: &str, with_time: bool) -> String {
    let Some(instant) = parse_timestamp(text) else {
        return text.to_string();
    };
    let style = if with_time {
        DateStyle::DateTime
    } else {
        DateStyle::Date
    };
    intl_format(instant.timestamp_millis() as f64, style).unwrap_or_else(|| {
        // Without Intl (never in a current browser): ISO-like, still in local time. Built by
        // hand because chrono's strftime machinery costs kilobytes of wasm.
        let local = instant.with_timezone(&Local);
        let day = format!(
            "{:04}-{:02}-{:02}",
            local.year(),
            local.month(),
            local.day()
        );
        if with_time {
            format!("{day} {:02}:{:02}", local.hour(), local.minute())
        } else {
            day
        }
    })
}

/// A calendar day written `yyyymmdd` (`20261001`), in the locale's medium style ("Oct 1,
/// 2026"): the day itself, in no time zone (a day the admin chose, not an instant).
pub(crate) fn day(day: u32) -> String {
    let (year, month, date) = (day / 10_000, day / 100 % 100, day % 100);
    let utc_ms = js_sys::Date::utc(f64::from(year), f64::from(month.saturating_sub(1)))
        + f64::from(date.saturating_sub(1)) * 86_400_000.0;
    intl_format(utc_ms, DateStyle::DayUtc)
        .unwrap_or_else(|| format!("{year:04}-{month:02}-{date:02}"))
}

/// A calendar month in the locale's words ("November 2026"). Not cached with the day
/// formatters: a caption shows it, built when the months change, not per row.
pub(crate) fn month(year: i32, month: u32) -> String {
    let options = js_sys::Object::new();
    for (key, value) in [("year", "numeric"), ("month", "long"), ("timeZone", "UTC")] {
        let _ = js_sys::Reflect::set(&options, &key.into(), &value.into());
    }
    let first = js_sys::Date::utc(f64::from(year), f64::from(month.saturating_sub(1)));
    bound_format("DateTimeFormat", &crate::i18n::locale(), &options)
        .and_then(|format| {
            let date = js_sys::Date::new(&JsValue::from_f64(first));
            format.call1(&JsValue::NULL, &date).ok()?.as_string()
        })
        .unwrap_or_else(|| format!("{year:04}-{month:02}"))
}

/// A country's name in the chosen locale (`"DE"` → "Germany", "Deutschland"), or `None`
/// where the browser has no `Intl.DisplayNames`.
pub(crate) fn region_name(code: &str) -> Option<String> {
    let options = js_sys::Object::new();
    js_sys::Reflect::set(&options, &"type".into(), &"region".into()).ok()?;
    let names = intl_object("DisplayNames", &crate::i18n::locale(), &options)?;
    bound(&names, "of")?
        .call1(&names, &code.into())
        .ok()?
        .as_string()
        .filter(|n| n != code)
}

thread_local! {
    /// The browser's language and an `Intl.DateTimeFormat` per style for it (date, date and
    /// time), built on first use. `toLocaleString` with options builds a new formatter on every
    /// call (about a millisecond each in Chromium): a 100-row table spent ~100 ms on its dates.
    static FORMATTERS: std::cell::RefCell<(String, [Option<js_sys::Function>; 3])> =
        const { std::cell::RefCell::new((String::new(), [None, None, None])) };
}

/// What an `Intl.DateTimeFormat` writes: an instant's date, or date and time, in the viewer's
/// zone; or a calendar day (put at midnight UTC, and written in UTC so it stays that day).
#[derive(Clone, Copy)]
enum DateStyle {
    Date,
    DateTime,
    DayUtc,
}

/// `Intl.DateTimeFormat` with the browser's language, in `style`.
fn intl_format(unix_ms: f64, style: DateStyle) -> Option<String> {
    let locale = crate::i18n::locale();
    let format = FORMATTERS.with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache.0 != locale {
            *cache = (locale.clone(), [None, None, None]);
        }
        let slot = &mut cache.1[style as usize];
        if slot.is_none() {
            *slot = date_format(&locale, style);
        }
        slot.clone()
    })?;
    let date = js_sys::Date::new(&JsValue::from_f64(unix_ms));
    let text = format.call1(&JsValue::NULL, &date).ok()?.as_string()?;
    (!text.is_empty() && text != "Invalid Date").then_some(text)
}

/// The bound `format` function of a new `Intl.DateTimeFormat`.
fn date_format(locale: &str, style: DateStyle) -> Option<js_sys::Function> {
    let options = js_sys::Object::new();
    js_sys::Reflect::set(&options, &"dateStyle".into(), &"medium".into()).ok()?;
    match style {
        DateStyle::Date => {}
        DateStyle::DateTime => {
            js_sys::Reflect::set(&options, &"timeStyle".into(), &"short".into()).ok()?;
        }
        DateStyle::DayUtc => {
            js_sys::Reflect::set(&options, &"timeZone".into(), &"UTC".into()).ok()?;
        }
    }
    bound_format("DateTimeFormat", locale, &options)
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use gifting_api::money::Decimal;

    use super::{count_of, day, format_decimal, month, percent};

    fn formatted(locale: &str, currency: Option<&str>, text: &str) -> Option<String> {
        format_decimal(locale, currency, Decimal::parse(text)?)
    }

    #[wasm_bindgen_test]
    fn amounts_follow_the_locale_and_keep_every_digit() {
        let cases = [
            ("en-US", None, "1234567.5", "1,234,567.50"),
            ("de-DE", None, "1234567.5", "1.234.567,50"),
            ("en-US", Some("USD"), "1234.5", "$1,234.50"),
            ("de-DE", Some("EUR"), "1234.5", "1.234,50\u{a0}€"),
            ("de-DE", Some("USD"), "-25", "-25,00\u{a0}$"),
            ("en-US", Some("USD"), "0.125", "$0.125"),
            ("en-US", Some("JPY"), "25", "¥25"),
            // Beyond 2^53: a float would print ...568.00 here.
            (
                "en-US",
                Some("USD"),
                "12345678901234567.89",
                "$12,345,678,901,234,567.89",
            ),
        ];
        for (locale, currency, text, expected) in cases {
            let shown = formatted(locale, currency, text);
            assert_eq!(
                shown.as_deref(),
                Some(expected),
                "{text} in {locale} {currency:?}"
            );
        }
    }

    #[wasm_bindgen_test]
    fn counts_are_grouped_the_locale_s_way() {
        assert_eq!(
            crate::i18n::intl::format_count("en-US", 1_234_567),
            "1,234,567"
        );
        assert_eq!(
            crate::i18n::intl::format_count("de-DE", 1_234_567),
            "1.234.567"
        );
        assert_eq!(crate::i18n::intl::format_count("en-US", 63), "63");
    }

    #[wasm_bindgen_test]
    fn a_language_intl_refuses_gets_intl_s_default_locale_not_an_exception() {
        // "C" is what WebKit reports under a POSIX locale; Intl throws a RangeError on it.
        let money = formatted("C", Some("USD"), "1234.5").unwrap_or_default();
        assert!(money.contains("234") && money.contains('5'), "{money}");
        assert!(crate::i18n::intl::format_count("C", 1_234_567).contains("234"));
        assert!(super::date_format("C", super::DateStyle::DateTime).is_some());
    }

    #[wasm_bindgen_test]
    fn a_currency_code_the_browser_refuses_is_left_to_the_caller() {
        assert_eq!(formatted("en-US", Some("U$D"), "25"), None);
    }

    #[wasm_bindgen_test]
    fn counts_shares_and_days_are_written_one_way() {
        // No window in Node.js: the locale is en-US.
        assert_eq!(count_of(412, 1_234), "412 of 1,234");
        assert_eq!(percent(1_234), "1,234 %");
        assert_eq!(percent(-5), "-5 %");
        assert_eq!(percent(0), "0 %");
        // The day itself, whatever the machine's zone.
        assert_eq!(day(20_261_001), "Oct 1, 2026");
        assert_eq!(day(20_261_231), "Dec 31, 2026");
        assert_eq!(day(20_240_229), "Feb 29, 2024");
        assert_eq!(month(2026, 11), "November 2026");
        assert_eq!(month(2027, 1), "January 2027");
    }
}
