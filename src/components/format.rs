//! Display formatting in the viewer's locale: money and amounts (exact, never through a float),
//! timestamps in the viewer's zone. The one place that formats for the screen; CSV exports keep
//! the platform's own plain text.

use std::collections::HashMap;

use chrono::{DateTime, Datelike, FixedOffset, Local, Timelike};
use gifting_api::money::{format_money, Decimal};
use wasm_bindgen::{JsCast, JsValue};

/// `"1234.5"` → `"1,234.50"` (en-US), `"1.234,50"` (de-DE): at least two decimals, every digit
/// the platform sent. Text that is not a decimal is shown as it came rather than hidden.
pub(crate) fn amount(text: &str) -> String {
    let Some(value) = Decimal::parse(text) else {
        return text.to_owned();
    };
    format_decimal(&browser_locale(), None, value).unwrap_or_else(|| value.format_grouped(2))
}

/// `("USD", "1234.5")` → `"$1,234.50"` (en-US), `"1.234,50 $"` (de-DE).
pub(crate) fn money(currency: &str, text: &str) -> String {
    Decimal::parse(text)
        .and_then(|value| format_decimal(&browser_locale(), Some(currency), value))
        .unwrap_or_else(|| format_money(currency, text))
}

/// Locale, currency (none for a plain number), fewest and most decimals.
type NumberStyle = (String, Option<String>, u32, u32);

/// A count with the locale's grouping: `1234` → `"1,234"` (en-US), `"1.234"` (de-DE).
pub(crate) fn count(n: u64) -> String {
    format_count(&browser_locale(), n)
}

pub(crate) fn format_count(locale: &str, n: u64) -> String {
    let style = (locale.to_owned(), None, 0, 0);
    format_with_style(style, &n.to_string()).unwrap_or_else(|| n.to_string())
}

thread_local! {
    /// `Intl.NumberFormat`s by style, built on first use: building one costs far more than
    /// formatting with it, and a table formats hundreds of amounts.
    static NUMBER_FORMATS: std::cell::RefCell<HashMap<NumberStyle, js_sys::Function>> =
        std::cell::RefCell::new(HashMap::new());
}

/// `value` through `Intl.NumberFormat` as a decimal string, which the browser formats exactly
/// (a float would lose cents above 2^53). `None` when the browser refuses (e.g. an unknown
/// currency code), so the caller falls back to plain text.
pub(crate) fn format_decimal(
    locale: &str,
    currency: Option<&str>,
    value: Decimal,
) -> Option<String> {
    // Never fewer decimals than the value has, so nothing is rounded; three covers currencies
    // with three minor digits, whose minimum may not exceed the maximum.
    let (fewest, most) = match currency {
        // The currency's own minor digits (2 for USD, 0 for JPY) at the least.
        Some(_) => (0, value.scale().max(3)),
        None => (2, value.scale().max(2)),
    };
    let style = (locale.to_owned(), currency.map(str::to_owned), fewest, most);
    format_with_style(style, &value.to_string())
}

/// `decimal` (exact text) through the cached formatter of `style`.
fn format_with_style(style: NumberStyle, decimal: &str) -> Option<String> {
    let format = NUMBER_FORMATS.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some(format) = cache.get(&style) {
            return Some(format.clone());
        }
        let format = number_format(&style)?;
        cache.insert(style, format.clone());
        Some(format)
    })?;
    let text = format
        .call1(&JsValue::NULL, &JsValue::from_str(decimal))
        .ok()?;
    text.as_string().filter(|t| !t.is_empty() && t != "NaN")
}

/// The bound `format` of a new `Intl.NumberFormat`; `None` if the options are refused.
fn number_format((locale, currency, fewest, most): &NumberStyle) -> Option<js_sys::Function> {
    let options = js_sys::Object::new();
    let set = |key: &str, value: JsValue| js_sys::Reflect::set(&options, &key.into(), &value);
    match currency {
        Some(code) => {
            set("style", "currency".into()).ok()?;
            set("currency", code.as_str().into()).ok()?;
        }
        None => {
            set("minimumFractionDigits", (*fewest).into()).ok()?;
        }
    }
    set("maximumFractionDigits", (*most).into()).ok()?;
    bound_format("NumberFormat", locale, &options)
}

/// The bound `format` of a new `Intl.<name>(locale, options)` (`""`: `Intl`'s default
/// locale), or `None` when the browser refuses them: the constructors throw a RangeError on a
/// language tag or a currency code they do not know, and a JS exception must never cross into
/// wasm. It unwinds the wasm stack
/// without running Rust's destructors, so a `RefCell` borrowed further up (tachys holds one
/// while it builds a `Suspend`'s view) stays borrowed, and the next use of it panics.
fn bound_format(name: &str, locale: &str, options: &js_sys::Object) -> Option<js_sys::Function> {
    let constructor: js_sys::Function = js_sys::Reflect::get(&js_sys::global(), &"Intl".into())
        .and_then(|intl| js_sys::Reflect::get(&intl, &name.into()))
        .ok()?
        .dyn_into()
        .ok()?;
    // No locale (an empty list) is `Intl`'s default one.
    let locales = js_sys::Array::new();
    if !locale.is_empty() {
        locales.push(&JsValue::from_str(locale));
    }
    let format =
        js_sys::Reflect::construct(&constructor, &js_sys::Array::of2(&locales, options)).ok()?;
    js_sys::Reflect::get(&format, &"format".into())
        .ok()?
        .dyn_into()
        .ok()
}

thread_local! {
    /// The browser's language as last read, and the locale the formatters use for it.
    static LOCALE: std::cell::RefCell<Option<(String, String)>> =
        const { std::cell::RefCell::new(None) };
}

/// The browser's language as `Intl` takes it, e.g. `de-DE`. A tag `Intl` refuses (WebKit
/// under a POSIX "C" locale reports the language "C") gives `""`, `Intl`'s own default locale,
/// so the screen still shows formatted dates and amounts.
fn browser_locale() -> String {
    let language = web_sys::window()
        .and_then(|w| w.navigator().language())
        .unwrap_or_default();
    LOCALE.with(|cache| {
        let mut cache = cache.borrow_mut();
        match &*cache {
            Some((read, usable)) if *read == language => usable.clone(),
            _ => {
                let usable = usable_locale(&language);
                *cache = Some((language, usable.clone()));
                usable
            }
        }
    })
}

/// `language` as `Intl` spells it when `Intl` accepts it as a locale, else `""`: no locale,
/// which `Intl` reads as its own default (see [`bound_format`]).
fn usable_locale(language: &str) -> String {
    js_sys::Reflect::get(&js_sys::global(), &"Intl".into())
        .and_then(|intl| js_sys::Reflect::get(&intl, &"getCanonicalLocales".into()))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|canonical| canonical.call1(&JsValue::NULL, &language.into()).ok())
        .and_then(|tags| js_sys::Array::from(&tags).get(0).as_string())
        .unwrap_or_default()
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

/// The date alone, in the viewer's locale and time zone.
pub(crate) fn date(text: &str) -> String {
    format_with(text, false)
}

fn format_with(text: &str, with_time: bool) -> String {
    let Some(instant) = parse_timestamp(text) else {
        return text.to_string();
    };
    intl_format(instant.timestamp_millis(), with_time).unwrap_or_else(|| {
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

thread_local! {
    /// One `Intl.DateTimeFormat` per locale and style (date, date and time), built on first use.
    /// `toLocaleString` with options builds a new formatter on every call (about a
    /// millisecond each in Chromium): a 100-row table spent ~100 ms on its dates alone.
    static FORMATTERS: std::cell::RefCell<HashMap<(String, bool), js_sys::Function>> =
        std::cell::RefCell::new(HashMap::new());
}

/// `Intl.DateTimeFormat` with the browser's language and zone.
fn intl_format(unix_ms: i64, with_time: bool) -> Option<String> {
    let key = (browser_locale(), with_time);
    let format = FORMATTERS.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some(format) = cache.get(&key) {
            return Some(format.clone());
        }
        let format = date_format(&key.0, with_time)?;
        cache.insert(key, format.clone());
        Some(format)
    })?;
    let date = js_sys::Date::new(&JsValue::from_f64(unix_ms as f64));
    let text = format.call1(&JsValue::NULL, &date).ok()?.as_string()?;
    (!text.is_empty() && text != "Invalid Date").then_some(text)
}

/// The bound `format` function of a new `Intl.DateTimeFormat`.
fn date_format(locale: &str, with_time: bool) -> Option<js_sys::Function> {
    let options = js_sys::Object::new();
    js_sys::Reflect::set(&options, &"dateStyle".into(), &"medium".into()).ok()?;
    if with_time {
        js_sys::Reflect::set(&options, &"timeStyle".into(), &"short".into()).ok()?;
    }
    bound_format("DateTimeFormat", locale, &options)
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use gifting_api::money::Decimal;

    use super::format_decimal;

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
        assert_eq!(super::format_count("en-US", 1_234_567), "1,234,567");
        assert_eq!(super::format_count("de-DE", 1_234_567), "1.234.567");
        assert_eq!(super::format_count("en-US", 63), "63");
    }

    #[wasm_bindgen_test]
    fn a_language_intl_refuses_gives_intl_s_default_locale() {
        assert_eq!(super::usable_locale("de-de"), "de-DE");
        assert_eq!(super::usable_locale("C"), "");
        assert_eq!(super::usable_locale(""), "");
        // No locale formats in Intl's default one instead of throwing.
        assert!(formatted("", Some("USD"), "1234.5").is_some_and(|t| t.contains("1")));
        assert!(super::date_format("", true).is_some());
        assert!(
            super::date_format("C", false).is_none(),
            "refused, not thrown"
        );
    }

    #[wasm_bindgen_test]
    fn a_currency_code_the_browser_refuses_is_left_to_the_caller() {
        assert_eq!(formatted("en-US", Some("U$D"), "25"), None);
    }
}
