//! The admin's language: every word the console writes comes from the message catalog
//! (`locales/`, read by `crates/gifting-catalog`), in the language chosen on this browser.
//!
//! - English is compiled in, each message's text where it is used; another language's
//!   messages arrive as one bundle,
//!   fetched by `boot.js` (which also picks the first language, so the bundle downloads beside
//!   the wasm) and by [`choose`] when the admin switches.
//! - [`t`] and `M` itself as a view or attribute give a message without arguments, the generated functions (`msg::x(…)`)
//!   one with arguments. Both read the language, so a view or closure showing them is redrawn
//!   when it changes: switching is live, and nothing else on the screen is rebuilt.
//! - [`locale`] is what `Intl` formats numbers, amounts and dates with: the browser's own
//!   locale when it speaks the chosen language (`de-AT` stays `de-AT`), else the language.

use std::cell::RefCell;

use gifting_catalog::message::{self, Value};
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

pub(crate) mod intl;
mod view;

/// The generated catalog: `M` with a constant per message, `MESSAGES`, and one function per
/// message with arguments (`crates/gifting-catalog`'s `rust_source`).
#[allow(unused_imports)]
pub mod msg {
    use super::{count_text, with_args, Value};
    include!(concat!(env!("OUT_DIR"), "/messages.rs"));
}

pub use msg::M;
pub(crate) use view::live_text;

/// The languages an admin can choose, each named in itself.
pub(crate) const LANGUAGES: [(&str, &str); 3] =
    [("en", "English"), ("de", "Deutsch"), ("fr", "Français")];

/// Languages made from English for tests (`crates/gifting-catalog`): chosen only by the
/// browser's language or the kept preference, never offered.
pub(crate) const PSEUDO: [&str; 2] = ["en-XA", "ar-XB"];

thread_local! {
    /// The chosen language's code: what every message and formatter tracks.
    static LANGUAGE: ArcRwSignal<&'static str> = ArcRwSignal::new("en");
    /// The chosen language's messages (`None`: English) and the locale for `Intl`.
    static CURRENT: RefCell<(Option<&'static [&'static str]>, String)> =
        const { RefCell::new((None, String::new())) };
    /// Every bundle fetched in this page, kept: switching back is instant.
    static LOADED: RefCell<Vec<(&'static str, &'static [&'static str])>> = const { RefCell::new(Vec::new()) };
}

/// The languages a menu offers, each named in itself (tracked): the console's, and a
/// pseudo-language only while it is the one shown.
pub(crate) fn offered() -> Vec<(&'static str, &'static str)> {
    let shown = language();
    let pseudo = PSEUDO.iter().filter(|p| **p == shown).map(|p| (*p, *p));
    LANGUAGES.iter().copied().chain(pseudo).collect()
}

/// The chosen language's code (tracked).
pub(crate) fn language() -> &'static str {
    LANGUAGE.with(|l| l.get())
}

/// The locale `Intl` formats with (tracked).
pub(crate) fn locale() -> String {
    LANGUAGE.with(|l| l.track());
    let locale = CURRENT.with(|c| c.borrow().1.clone());
    if locale.is_empty() {
        browser_locale()
    } else {
        locale
    }
}

/// A message without arguments in the chosen language (tracked).
pub(crate) fn t(m: M) -> &'static str {
    lookup(m.0.into(), m.1)
}

/// [`t`] without tracking or waiting on anything, for the crash screen: drawn after a panic,
/// when the reactive system may be mid-update.
pub fn t_now(m: M) -> &'static str {
    CURRENT
        .with(|c| c.try_borrow().ok().and_then(|c| c.0))
        .and_then(|table| table.get(usize::from(m.0)).copied())
        .unwrap_or(m.1)
}

/// `title=M::X` for a prop that takes a text signal (a view takes `{M::X}` itself, see `view`).
impl From<M> for Signal<&'static str> {
    fn from(m: M) -> Self {
        Signal::derive(move || t(m))
    }
}

impl From<M> for Signal<String> {
    fn from(m: M) -> Self {
        Signal::derive(move || t(m).to_owned())
    }
}

/// Message `index` in the chosen language, or its English.
fn lookup(index: usize, english: &'static str) -> &'static str {
    LANGUAGE.with(|l| l.track());
    CURRENT
        .with(|c| c.borrow().0.and_then(|table| table.get(index).copied()))
        .unwrap_or(english)
}

/// A message with arguments (through the generated functions).
fn with_args(index: usize, english: &'static str, args: &[(&str, Value<'_>)]) -> String {
    let one = if language() == "fr" {
        message::one_is_zero_or_one
    } else {
        message::one_is_one
    };
    let mut out = String::new();
    message::write(lookup(index, english), args, one, &mut out);
    out
}

/// A count as the chosen locale groups it (`#` in a message).
fn count_text(n: u64) -> String {
    intl::format_count(&locale(), n)
}

fn browser_locale() -> String {
    web_sys::window()
        .and_then(|w| w.navigator().language())
        .unwrap_or_else(|| "en-US".into())
}

/// The language `boot.js` picked and its messages, which it fetched before starting the wasm
/// (beside the wasm's own download): called once before the app is drawn, so the first screen
/// is already in it.
pub fn start() {
    let Some(catalog) = boot_catalog() else {
        return;
    };
    let field = |name: &str| js_sys::Reflect::get(&catalog, &name.into()).ok();
    let picked = field("lang")
        .and_then(|l| l.as_string())
        .unwrap_or_default();
    let messages = field("messages").and_then(|m| m.dyn_into::<js_sys::Array>().ok());
    let code = supported(&picked).unwrap_or("en");
    show(code, messages.and_then(|list| keep(code, list)));
}

/// Switches to `code`, fetching its messages first; `false` when they could not be fetched
/// (the language stays as it was).
pub(crate) async fn choose(code: &str) -> bool {
    let Some(code) = supported(code) else {
        return false;
    };
    let messages = load(code).await;
    if messages.is_none() && code != "en" {
        return false;
    }
    show(code, messages);
    crate::prefs::remember_language(code);
    true
}

/// Shows the console in `code` with its `messages` (none: English, whatever `code` said).
fn show(code: &'static str, messages: Option<&'static [&'static str]>) {
    let code = if messages.is_some() { code } else { "en" };
    let browser = browser_locale();
    let locale = if PSEUDO.contains(&code) {
        "en".to_owned()
    } else if browser.split('-').next() == Some(code) {
        browser
    } else {
        code.to_owned()
    };
    CURRENT.with(|c| *c.borrow_mut() = (messages, locale));
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("lang", code);
        let _ = root.set_attribute("dir", if code == "ar-XB" { "rtl" } else { "ltr" });
    }
    LANGUAGE.with(|l| l.set(code));
}

/// `code` as one of the console's languages.
fn supported(code: &str) -> Option<&'static str> {
    LANGUAGES
        .iter()
        .map(|(c, _)| *c)
        .chain(PSEUDO)
        .find(|c| *c == code)
}

/// `globalThis.giftingCatalog`, which `boot.js` sets: `{ lang, load(code) }`.
fn boot_catalog() -> Option<JsValue> {
    js_sys::Reflect::get(&js_sys::global(), &"giftingCatalog".into())
        .ok()
        .filter(|c| c.is_object())
}

/// `code`'s messages, fetched once per page; `None` for English or when they cannot be had
/// (then the console stays in English rather than showing keys).
async fn load(code: &'static str) -> Option<&'static [&'static str]> {
    if code == "en" {
        return None;
    }
    if let Some(found) = LOADED.with(|l| l.borrow().iter().find(|(c, _)| *c == code).map(|e| e.1)) {
        return Some(found);
    }
    let catalog = boot_catalog()?;
    let fetch: js_sys::Function = js_sys::Reflect::get(&catalog, &"load".into())
        .ok()?
        .dyn_into()
        .ok()?;
    let promise: js_sys::Promise = fetch.call1(&catalog, &code.into()).ok()?.dyn_into().ok()?;
    let list: js_sys::Array = wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .ok()?
        .dyn_into()
        .ok()?;
    keep(code, list)
}

/// `list` (a bundle) as `code`'s messages, kept for the page's life; `None` if it is not this
/// build's catalog (another length).
fn keep(code: &'static str, list: js_sys::Array) -> Option<&'static [&'static str]> {
    if code == "en" || list.length() as usize != msg::MESSAGES {
        return None;
    }
    let messages: Vec<&'static str> = list
        .iter()
        .map(|m| &*Box::leak(m.as_string().unwrap_or_default().into_boxed_str()))
        .collect();
    let messages: &'static [&'static str] = Box::leak(messages.into_boxed_slice());
    LOADED.with(|l| l.borrow_mut().push((code, messages)));
    Some(messages)
}
