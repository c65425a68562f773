//! Display formatting: money as exact decimal text, timestamps in the viewer's locale and zone.

use chrono::{DateTime, Datelike, FixedOffset, Local, Timelike};
use wasm_bindgen::JsValue;

/// `"1234.5"` → `"1,234.50"`. Exact (never through a float); text that is not a decimal is
/// shown as it came rather than hidden.
pub(crate) fn amount(text: &str) -> String {
    gifting_api::money::format_amount(text)
}

/// `("USD", "25")` → `"USD 25.00"`.
pub(crate) fn money(currency: &str, text: &str) -> String {
    gifting_api::money::format_money(currency, text)
}

/// Parses an ISO 8601 / RFC 3339 timestamp from the platform.
pub(crate) fn parse_timestamp(text: &str) -> Option<DateTime<FixedOffset>> {
    DateTime::parse_from_rfc3339(text.trim()).ok()
}

/// Date and time in the viewer's locale and time zone, e.g. "Mar 1, 2026, 3:05 PM".
/// Unreadable text is shown as it came.
pub(crate) fn date_time(text: &str) -> String {
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
    /// One `Intl.DateTimeFormat` per style (date, date and time), built on first use.
    /// `toLocaleString` with options builds a new formatter on every call (about a
    /// millisecond each in Chromium): a 100-row table spent ~100 ms on its dates alone.
    static FORMATTERS: std::cell::RefCell<[Option<js_sys::Function>; 2]> =
        const { std::cell::RefCell::new([None, None]) };
}

/// `Intl.DateTimeFormat` with the browser's language and zone.
fn intl_format(unix_ms: i64, with_time: bool) -> Option<String> {
    let format = FORMATTERS.with(|cache| {
        let mut cache = cache.borrow_mut();
        let slot = &mut cache[usize::from(with_time)];
        if slot.is_none() {
            *slot = build_formatter(with_time);
        }
        slot.clone()
    })?;
    let date = js_sys::Date::new(&JsValue::from_f64(unix_ms as f64));
    let text = format.call1(&JsValue::NULL, &date).ok()?.as_string()?;
    (!text.is_empty() && text != "Invalid Date").then_some(text)
}

/// The bound `format` function of a new `Intl.DateTimeFormat`.
fn build_formatter(with_time: bool) -> Option<js_sys::Function> {
    let options = js_sys::Object::new();
    js_sys::Reflect::set(&options, &"dateStyle".into(), &"medium".into()).ok()?;
    if with_time {
        js_sys::Reflect::set(&options, &"timeStyle".into(), &"short".into()).ok()?;
    }
    let locale = web_sys::window()
        .and_then(|w| w.navigator().language())
        .unwrap_or_else(|| "en-US".into());
    let locales = js_sys::Array::of1(&JsValue::from_str(&locale));
    Some(js_sys::Intl::DateTimeFormat::new(&locales, &options).format())
}
