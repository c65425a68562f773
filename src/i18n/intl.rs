//! `Intl` for numbers: the formatters the console writes counts and amounts with, in the chosen
//! language's locale. Here, below every screen, because the catalog's messages write their
//! counts (`#`) with them too; `components::format` is what screens call.

use std::collections::HashMap;

use gifting_api::money::Decimal;
use wasm_bindgen::{JsCast, JsValue};

/// Locale, currency (none for a plain number), fewest and most decimals.
type NumberStyle = (String, Option<String>, u32, u32);

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

/// The bound `format` of a new `Intl.<name>(locale, options)`, or `None` when the browser
/// refuses them. `Intl` throws a RangeError on a language tag or a currency code it does not
/// know, and a JS exception must never cross into wasm: it unwinds the wasm stack without
/// running Rust's destructors, so a `RefCell` borrowed further up (tachys holds one while it
/// builds a `Suspend`'s view) stays borrowed and its next use panics. A language it refuses
/// (WebKit under a POSIX "C" locale reports "C") gets `Intl`'s default locale instead, so the
/// screen still shows formatted dates and amounts.
pub(crate) fn bound_format(
    name: &str,
    locale: &str,
    options: &js_sys::Object,
) -> Option<js_sys::Function> {
    bound(&intl_object(name, locale, options)?, "format")
}

/// A new `Intl.<name>(locale, options)`, with `Intl`'s default locale when it refuses `locale`
/// (see [`bound_format`]); `None` when the browser has no such constructor or refuses the
/// options.
pub(crate) fn intl_object(name: &str, locale: &str, options: &js_sys::Object) -> Option<JsValue> {
    let constructor: js_sys::Function = js_sys::Reflect::get(&js_sys::global(), &"Intl".into())
        .and_then(|intl| js_sys::Reflect::get(&intl, &name.into()))
        .ok()?
        .dyn_into()
        .ok()?;
    let construct = |locales: js_sys::Array| {
        js_sys::Reflect::construct(&constructor, &js_sys::Array::of2(&locales, options)).ok()
    };
    construct(js_sys::Array::of1(&locale.into())).or_else(|| construct(js_sys::Array::new()))
}

/// The method `name` of `object`, bound to it (`format` and `compare` are, by `Intl`).
pub(crate) fn bound(object: &JsValue, name: &str) -> Option<js_sys::Function> {
    js_sys::Reflect::get(object, &name.into())
        .ok()?
        .dyn_into()
        .ok()
}

thread_local! {
    /// The chosen locale's `Intl.Collator` compare function, built on first use and again when
    /// the locale changes.
    static COLLATOR: std::cell::RefCell<(String, Option<js_sys::Function>)> =
        const { std::cell::RefCell::new((String::new(), None)) };
}

/// Text in the chosen language's order (`Intl.Collator`: "ada" beside "Ada", "Ärger" beside
/// "Anna", "Team 9" before "Team 10"), then exactly; ignoring ASCII case first where the browser
/// has no collator.
pub(crate) fn by_text(a: &str, b: &str) -> std::cmp::Ordering {
    collate(a, b)
        .unwrap_or_else(|| {
            let folded = |s: &str| {
                s.bytes()
                    .map(|c| c.to_ascii_lowercase())
                    .collect::<Vec<u8>>()
            };
            folded(a).cmp(&folded(b))
        })
        .then_with(|| a.cmp(b))
}

/// Text in the chosen locale's order (`Intl.Collator`, numbers by value: "Team 9" before
/// "Team 10"); `None` without `Intl.Collator`, for the caller's own order.
fn collate(a: &str, b: &str) -> Option<std::cmp::Ordering> {
    let locale = super::locale();
    let compare = COLLATOR.with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache.0 != locale || cache.1.is_none() {
            let options = js_sys::Object::new();
            js_sys::Reflect::set(&options, &"numeric".into(), &true.into()).ok()?;
            // Letters alone: case and accents are left to the exact order after it.
            js_sys::Reflect::set(&options, &"sensitivity".into(), &"base".into()).ok()?;
            let compare =
                intl_object("Collator", &locale, &options).and_then(|c| bound(&c, "compare"));
            *cache = (locale, compare);
        }
        cache.1.clone()
    })?;
    let order = compare
        .call2(&JsValue::NULL, &a.into(), &b.into())
        .ok()?
        .as_f64()?;
    order.partial_cmp(&0.0)
}
