//! Tabs of one console working together, as far as they can prove they belong to one sign-in.
//!
//! Any script of this origin can open the tabs' `BroadcastChannel` (a page that is not the
//! console, such as `/healthz` opened as a page, or an iframe): nothing on it may be trusted
//! or worth stealing. So what carries tokens is sealed (AES-GCM, WebCrypto) with a key that
//! only tabs of one sign-in hold: 256 random bits kept in `sessionStorage` beside the session,
//! which the browser copies only into a tab that is a copy of this one ("Duplicate tab", or a
//! tab the console opens with `window.open`). A message that does not open with this tab's key
//! is dropped; what is posted in the clear carries no token.
//!
//! - A tab without a session (a link opened in a new tab starts with an empty
//!   `sessionStorage`) cannot be told apart from any other script of the origin, so it is not
//!   handed a session: it asks in the clear whether a console tab is signed in, and the
//!   sign-in page says so ("signed in in another tab"). It asks only when another console tab is
//!   open: each holds a shared Web Lock for its whole life, and `navigator.locks.query()` lists
//!   them, so the only tab asks nobody.
//! - Refresh tokens are single use, and a duplicated tab holds a copy of the same one: a
//!   refresh runs under a Web Lock (`navigator.locks`), so one tab at a time uses it, and the new
//!   tokens are broadcast, sealed, so every tab holding the spent one takes them instead.
//! - Signing out in one tab signs out every tab of that session.
//! - The refresh lock is waited for a bounded time ([`REFRESH_LOCK_WAIT`]): anything of the
//!   origin can hold it, and none of it may hang every refresh and sign-out.
//! - A tab that lost the answer to a refresh tells a tab about to present the same refresh
//!   token ([`Message::Lost`]): it may be spent, and only a sign-in again renews the session.
//!
//! Each tab keeps its tokens in its own `sessionStorage`. A browser without `BroadcastChannel`,
//! Web Locks or WebCrypto keeps the single-tab behaviour: sharing a session without the lock
//! would let two tabs spend one refresh token.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::Future;
use std::rc::Rc;
use std::time::Duration;

use futures::channel::oneshot;
use futures::future::{select, Either};
use leptos::prelude::{RwSignal, Set};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{BroadcastChannel, MessageEvent};

use super::session::{self, Session, SessionStore};
use crate::browser::{random_bytes, session_storage, sleep, subtle};

const CHANNEL: &str = "gifting-console.session";
/// `sessionStorage` key of the key that seals this sign-in's messages.
const KEY_KEY: &str = "gifting-console.tabs-key";
const REFRESH_LOCK: &str = "gifting-console.refresh";
/// Held in shared mode by every console tab for as long as it is open, so a tab can see in
/// `navigator.locks.query()` whether any other is, and skip asking when none is.
const PRESENCE_LOCK: &str = "gifting-console.tab";
/// How long a tab waits for its own presence lock before it asks anyway (it is granted at once
/// in practice: shared locks never wait for each other).
const PRESENCE_FOR: Duration = Duration::from_millis(200);
/// How long a tab about to refresh waits for a tab that already replaced its refresh token.
const SUCCESSOR_FOR: Duration = Duration::from_millis(120);
/// Spent refresh tokens a tab remembers, to recognise a tab that is still behind.
const SPENT_KEPT: usize = 8;

/// In the clear (no token): a tab without a session asks whether a console tab is signed in…
const ASK: &str = "\"ask\"";
/// …and a signed-in tab answers, without anything of its session.
const SIGNED_IN: &str = "\"signed_in\"";

/// What tabs of one sign-in tell each other, sealed.
#[cfg_attr(test, derive(Debug, PartialEq))]
enum Message {
    /// The tokens a refresh produced (`replaces` is the refresh token they replace, now spent).
    Session { session: Session, replaces: String },
    /// A tab about to use the refresh token `of` asks whether another tab already replaced it
    /// (a tab that was reloading missed the broadcast of the new tokens).
    Successor { of: String },
    /// The session holding this refresh token was signed out.
    SignedOut { refresh_token: String },
    /// The answer to presenting the refresh token `of` was lost: it may be spent, so no tab
    /// presents it again (the answer to [`Message::Successor`] from the tab that lost it).
    Lost { of: String },
}

// Written by hand, not derived: serde's code for an enum of structs (its tags, its fields, their
// visitors) cost the first load more than all the rest of the channel. One letter for the kind,
// then the token, which takes the rest of the text; a session first, as JSON, which never holds
// a raw line break, then one.
impl Message {
    fn to_text(&self) -> Option<String> {
        Some(match self {
            Message::Session { session, replaces } => {
                format!("s{}\n{replaces}", serde_json::to_string(session).ok()?)
            }
            Message::Successor { of } => format!("o{of}"),
            Message::SignedOut { refresh_token } => format!("x{refresh_token}"),
            Message::Lost { of } => format!("l{of}"),
        })
    }

    fn from_text(text: &str) -> Option<Message> {
        let token = text.get(1..)?.to_owned();
        Some(match text.as_bytes().first()? {
            b's' => {
                let (session, replaces) = token.split_once('\n')?;
                Message::Session {
                    session: serde_json::from_str(session).ok()?,
                    replaces: replaces.to_owned(),
                }
            }
            b'o' => Message::Successor { of: token },
            b'x' => Message::SignedOut {
                refresh_token: token,
            },
            b'l' => Message::Lost { of: token },
            _ => return None,
        })
    }
}

/// `[a, b, c]` as a JS array.
fn args3(a: &JsValue, b: &JsValue, c: &JsValue) -> js_sys::Array {
    let args = js_sys::Array::of2(a, b);
    args.push(c);
    args
}

/// The AES-GCM key of this tab's sign-in, from raw bytes; `None` without WebCrypto.
fn seal_key(raw: &[u8]) -> Option<js_sys::Promise> {
    let usages = js_sys::Array::of2(&"encrypt".into(), &"decrypt".into());
    let args = args3(
        &"raw".into(),
        &js_sys::Uint8Array::from(raw),
        &"AES-GCM".into(),
    );
    args.push(&JsValue::FALSE);
    args.push(&usages);
    subtle("importKey", &args)
}

fn gcm(iv: &JsValue) -> JsValue {
    let algorithm = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&algorithm, &"name".into(), &"AES-GCM".into());
    let _ = js_sys::Reflect::set(&algorithm, &"iv".into(), iv);
    algorithm.into()
}

/// `message` sealed with `key` (a `CryptoKey`) and the fresh nonce `iv` (12 bytes):
/// `[iv, ciphertext]`, what the channel carries.
async fn seal(key: &JsValue, message: &Message, iv: &[u8]) -> Option<JsValue> {
    let text = message.to_text()?;
    let iv: JsValue = js_sys::Uint8Array::from(iv).into();
    let data = js_sys::Uint8Array::from(text.as_bytes());
    let sealed = JsFuture::from(subtle("encrypt", &args3(&gcm(&iv), key, &data))?)
        .await
        .ok()?;
    Some(js_sys::Array::of2(&iv, &sealed).into())
}

/// The message sealed in `data` with `key`; `None` for anything else (posted in the clear,
/// sealed with another key, or altered).
async fn open(key: &JsValue, data: &JsValue) -> Option<Message> {
    let parts: &js_sys::Array = data.dyn_ref()?;
    let args = args3(&gcm(&parts.get(0)), key, &parts.get(1));
    let plain = JsFuture::from(subtle("decrypt", &args)?).await.ok()?;
    let text = String::from_utf8(js_sys::Uint8Array::new(&plain).to_vec()).ok()?;
    Message::from_text(&text)
}

/// Whether `data` is the clear-text `message` ([`ASK`] or [`SIGNED_IN`]). Nothing else is read
/// in the clear: whatever carries a token must open with this tab's key.
fn is_clear(data: &JsValue, message: &str) -> bool {
    data.as_string().is_some_and(|text| text == message)
}

/// This tab's sealing key: the one in `sessionStorage` (copied there with the session when this
/// tab was duplicated), or a new one kept there. Raw bytes, one per `char` (U+0000..U+00FF).
fn tab_key() -> Option<Vec<u8>> {
    let storage = session_storage()?;
    if let Some(kept) = storage.get_item(KEY_KEY).ok().flatten() {
        let bytes: Vec<u8> = kept.chars().filter_map(|c| u8::try_from(c).ok()).collect();
        if bytes.len() == 32 {
            return Some(bytes);
        }
    }
    let fresh = random_bytes::<32>().ok()?;
    let text: String = fresh.iter().map(|&b| char::from(b)).collect();
    storage.set_item(KEY_KEY, &text).ok()?;
    Some(fresh.to_vec())
}

type Listener = Closure<dyn FnMut(MessageEvent)>;

/// This tab's end of the channel: the channel, its listener and the sealing key (a `CryptoKey`,
/// imported once when the tab joins; `undefined` until then, which seals and opens nothing).
struct End {
    channel: BroadcastChannel,
    _listener: Listener,
    key: RefCell<JsValue>,
}

/// This tab's end of the channel. Cheap to clone.
#[derive(Clone)]
pub struct Tabs {
    end: Option<Rc<End>>,
    /// Refresh tokens this tab knows to be spent (its own refreshes, and those it adopted).
    spent: Rc<RefCell<VecDeque<String>>>,
    /// Resolves once this tab holds its presence lock; taken by the first look at the others.
    present: Rc<RefCell<Option<oneshot::Receiver<()>>>>,
}

fn remember(spent: &RefCell<VecDeque<String>>, token: &str) {
    let mut spent = spent.borrow_mut();
    spent.push_back(token.to_owned());
    if spent.len() > SPENT_KEPT {
        spent.pop_front();
    }
}

/// Seals `message` and posts it, in the background (sealing takes a round trip to WebCrypto).
fn post_sealed(end: &Rc<End>, message: Message) {
    let end = end.clone();
    wasm_bindgen_futures::spawn_local(async move {
        send_sealed(&end, message).await;
    });
}

/// Seals `message` and posts it; resolves once it is posted, to whether it was.
async fn send_sealed(end: &End, message: Message) -> bool {
    // 32 bytes drawn as for the sign-in's other secrets; the nonce is the first 12.
    let Ok(random) = random_bytes::<32>() else {
        return false;
    };
    let key = end.key.borrow().clone();
    match seal(&key, &message, &random[..12]).await {
        Some(sealed) => end.channel.post_message(&sealed).is_ok(),
        None => false,
    }
}

impl Tabs {
    /// No coordination: what tests and old browsers get.
    pub fn alone() -> Self {
        Tabs {
            end: None,
            spent: Rc::new(RefCell::new(VecDeque::new())),
            present: Rc::new(RefCell::new(None)),
        }
    }

    /// Joins the channel. `signed_out` runs when another tab signs this session out;
    /// `elsewhere` is set when this tab has no session and another console tab says it has.
    /// With `ask`, a tab without a session (a link opened in a new tab) asks the open tabs
    /// whether one is signed in, so the sign-in page can say so (see [`Tabs::ask`]).
    pub fn join(
        store: SessionStore,
        signed_out: Rc<dyn Fn()>,
        elsewhere: RwSignal<bool>,
        ask: bool,
    ) -> Self {
        if lock_manager().is_none() {
            return Self::alone();
        }
        let Some(import) = tab_key().as_deref().and_then(seal_key) else {
            return Self::alone();
        };
        let Ok(channel) = BroadcastChannel::new(CHANNEL) else {
            return Self::alone();
        };
        let spent: Rc<RefCell<VecDeque<String>>> = Rc::new(RefCell::new(VecDeque::new()));
        let known_spent = spent.clone();
        let end = Rc::new_cyclic(|this: &std::rc::Weak<End>| {
            let this = this.clone();
            let listener: Listener = Closure::new(move |event: MessageEvent| {
                let Some(end) = this.upgrade() else {
                    return;
                };
                let data = event.data();
                let signed_in = store.current().is_some();
                if is_clear(&data, ASK) {
                    if signed_in {
                        let _ = end.channel.post_message(&JsValue::from_str(SIGNED_IN));
                    }
                } else if is_clear(&data, SIGNED_IN) {
                    if !signed_in {
                        elsewhere.set(true);
                    }
                } else {
                    let known_spent = known_spent.clone();
                    let signed_out = signed_out.clone();
                    let key = end.key.borrow().clone();
                    wasm_bindgen_futures::spawn_local(async move {
                        if let Some(message) = open(&key, &data).await {
                            on_sealed(&end, store, &known_spent, &*signed_out, message);
                        }
                    });
                }
            });
            channel.set_onmessage(Some(listener.as_ref().unchecked_ref()));
            End {
                channel,
                _listener: listener,
                key: RefCell::new(JsValue::UNDEFINED),
            }
        });
        let tabs = Tabs {
            end: Some(end),
            spent,
            present: Rc::new(RefCell::new(hold_presence_lock())),
        };
        let joined = tabs.clone();
        wasm_bindgen_futures::spawn_local(async move {
            if let (Some(end), Ok(key)) = (&joined.end, JsFuture::from(import).await) {
                end.key.replace(key);
            }
            if ask && store.current().is_none() {
                joined.ask().await;
            }
        });
        tabs
    }

    /// Whether another console tab of this origin is open (holds its presence lock). Yes when
    /// the browser cannot tell: asking then costs a wait, not a missed answer.
    async fn others_open(&self) -> bool {
        let present = self.present.borrow_mut().take();
        if let Some(granted) = present {
            let _ = select(granted, Box::pin(sleep(PRESENCE_FOR))).await;
        }
        match presence_locks_held().await {
            // This tab's own lock is one of them.
            Some(held) => held > 1,
            None => true,
        }
    }

    /// Asks the open tabs, in the clear, whether one is signed in (the answer sets `elsewhere`,
    /// see [`Tabs::join`]). Nobody is asked when no other tab is open.
    async fn ask(&self) {
        if let Some(end) = self.end.as_deref() {
            if self.others_open().await {
                let _ = end.channel.post_message(&JsValue::from_str(ASK));
            }
        }
    }

    /// Asks whether another tab already replaced the refresh token `of`, and waits a moment
    /// for its answer (which the listener applies to this tab's session).
    pub async fn ask_successor(&self, of: &str) {
        if let Some(end) = &self.end {
            if self.others_open().await {
                post_sealed(end, Message::Successor { of: of.to_owned() });
                sleep(SUCCESSOR_FOR).await;
            }
        }
    }

    /// Tells the other tabs that `session` replaces the spent refresh token `spent`.
    pub fn refreshed(&self, spent: &str, session: &Session) {
        remember(&self.spent, spent);
        if let Some(end) = &self.end {
            post_sealed(
                end,
                Message::Session {
                    session: session.clone(),
                    replaces: spent.to_owned(),
                },
            );
        }
    }

    /// Tells the tabs holding the maybe spent refresh token `replaces` that a sign-in again
    /// (in a window of its own) renewed their session as `session`; resolves once it is posted,
    /// so the window may close then. `false` when there is no channel to post it on.
    pub async fn renewed(&self, replaces: &str, session: &Session) -> bool {
        remember(&self.spent, replaces);
        let Some(end) = &self.end else {
            return false;
        };
        let message = Message::Session {
            session: session.clone(),
            replaces: replaces.to_owned(),
        };
        send_sealed(end, message).await
    }

    /// Tells the other tabs of this session that it was signed out.
    pub fn signed_out(&self, refresh_token: &str) {
        if let Some(end) = &self.end {
            post_sealed(
                end,
                Message::SignedOut {
                    refresh_token: refresh_token.to_owned(),
                },
            );
        }
    }
}

/// What a tab of this sign-in told this one.
fn on_sealed(
    end: &Rc<End>,
    store: SessionStore,
    known_spent: &RefCell<VecDeque<String>>,
    signed_out: &dyn Fn(),
    message: Message,
) {
    let mine = store.current();
    match message {
        // Another tab refreshed the grant this tab holds: take the new tokens, never use the
        // spent refresh token.
        Message::Session { session, replaces } => {
            if mine.is_some_and(|mine| mine.refresh_token == replaces) {
                remember(known_spent, &replaces);
                store.set(session)
            }
        }
        Message::Successor { of } => {
            if let Some(session) = mine.filter(|_| known_spent.borrow().contains(&of)) {
                let answer = Message::Session {
                    session,
                    replaces: of,
                };
                post_sealed(end, answer);
            } else if session::maybe_spent(&of) {
                post_sealed(end, Message::Lost { of });
            }
        }
        Message::Lost { of } => {
            if mine.is_some_and(|mine| mine.refresh_token == of) {
                session::mark_spending(&of);
            }
        }
        Message::SignedOut { refresh_token } => {
            if mine.is_some_and(|mine| mine.refresh_token == refresh_token) {
                signed_out();
            }
        }
    }
}

/// `navigator.locks`, when the browser has the Web Locks API.
fn lock_manager() -> Option<(JsValue, js_sys::Function)> {
    let navigator = web_sys::window()?.navigator();
    let locks = js_sys::Reflect::get(&navigator, &JsValue::from_str("locks")).ok()?;
    if locks.is_undefined() || locks.is_null() {
        return None;
    }
    let request = js_sys::Reflect::get(&locks, &JsValue::from_str("request")).ok()?;
    Some((locks, request.dyn_into().ok()?))
}

/// Requests this tab's presence lock (shared mode) and never lets it go: the browser releases it
/// when the tab closes. The receiver resolves once it is held; `None` without Web Locks.
fn hold_presence_lock() -> Option<oneshot::Receiver<()>> {
    let (locks, request) = lock_manager()?;
    let (sender, receiver) = oneshot::channel();
    let options = js_sys::Object::new();
    js_sys::Reflect::set(&options, &"mode".into(), &"shared".into()).ok()?;
    let held = Closure::once_into_js(move |_lock: JsValue| -> js_sys::Promise {
        let _ = sender.send(());
        // A promise that never settles: the lock is held until the tab goes away.
        js_sys::Promise::new(&mut |_, _| {})
    });
    request
        .call3(&locks, &JsValue::from_str(PRESENCE_LOCK), &options, &held)
        .ok()?;
    Some(receiver)
}

/// How many presence locks are held in this origin (this tab's among them), from
/// `navigator.locks.query()`; `None` when the browser cannot say.
async fn presence_locks_held() -> Option<usize> {
    let (locks, _) = lock_manager()?;
    let query: js_sys::Function = js_sys::Reflect::get(&locks, &JsValue::from_str("query"))
        .ok()?
        .dyn_into()
        .ok()?;
    let promise: js_sys::Promise = query.call0(&locks).ok()?.dyn_into().ok()?;
    let snapshot = wasm_bindgen_futures::JsFuture::from(promise).await.ok()?;
    let held: js_sys::Array = js_sys::Reflect::get(&snapshot, &JsValue::from_str("held"))
        .ok()?
        .dyn_into()
        .ok()?;
    Some(
        held.iter()
            .filter(|lock| {
                js_sys::Reflect::get(lock, &JsValue::from_str("name"))
                    .ok()
                    .and_then(|name| name.as_string())
                    .is_some_and(|name| name == PRESENCE_LOCK)
            })
            .count(),
    )
}

/// How long a tab waits for the refresh lock: longer than its holder's work takes (a question
/// to the other tabs and one token request, which gives up after 25 s), so only a holder that
/// never lets go (a page that is not the console, a tab stuck in a debugger) is outwaited.
pub const REFRESH_LOCK_WAIT: Duration = Duration::from_secs(30);

/// Runs `work` while holding the console's refresh lock, shared by every tab of this origin
/// (at once, without a lock, where the browser has none); `None` when the lock was not had
/// within [`REFRESH_LOCK_WAIT`], and then `work` never runs.
pub async fn with_refresh_lock<T: 'static>(work: impl Future<Output = T> + 'static) -> Option<T> {
    with_refresh_lock_within(REFRESH_LOCK_WAIT, work).await
}

/// [`with_refresh_lock`], waiting at most `wait` for the lock.
pub async fn with_refresh_lock_within<T: 'static>(
    wait: Duration,
    work: impl Future<Output = T> + 'static,
) -> Option<T> {
    let Some((locks, request)) = lock_manager() else {
        return Some(work.await);
    };
    let result: Rc<RefCell<Option<T>>> = Rc::new(RefCell::new(None));
    let slot = result.clone();
    let work = Rc::new(RefCell::new(Some(Box::pin(work))));
    let run = work.clone();
    let (granted, on_grant) = oneshot::channel::<()>();
    // Left to the browser (not dropped here): a grant that comes after this gave up must find
    // a callback to call, which then runs nothing.
    let callback = Closure::once_into_js(move |_lock: JsValue| -> js_sys::Promise {
        let taken = run.borrow_mut().take();
        let _ = granted.send(());
        wasm_bindgen_futures::future_to_promise(async move {
            if let Some(work) = taken {
                *slot.borrow_mut() = Some(work.await);
            }
            Ok(JsValue::UNDEFINED)
        })
    });
    let abort = web_sys::AbortController::new().ok();
    let options = js_sys::Object::new();
    if let Some(abort) = &abort {
        let _ = js_sys::Reflect::set(&options, &"signal".into(), &abort.signal());
    }
    let requested = request
        .call3(
            &locks,
            &JsValue::from_str(REFRESH_LOCK),
            &options,
            &callback,
        )
        .ok()
        .and_then(|p| p.dyn_into::<js_sys::Promise>().ok());
    let Some(promise) = requested else {
        return unlocked(&work).await;
    };
    let mut done = JsFuture::from(promise);
    let (timed_out, settled) =
        match select(select(on_grant, &mut done), Box::pin(sleep(wait))).await {
            Either::Left((Either::Left(_), _)) => (false, None),
            Either::Left((Either::Right((settled, _)), _)) => (false, Some(settled)),
            Either::Right(_) => (true, None),
        };
    // Taken back, so a grant after this runs nothing; the request is withdrawn too.
    if timed_out && work.borrow_mut().take().is_some() {
        if let Some(abort) = &abort {
            abort.abort();
        }
        return None;
    }
    let settled = match settled {
        Some(settled) => settled,
        None => done.await,
    };
    let finished = result.borrow_mut().take();
    match (finished, settled) {
        (Some(value), _) => Some(value),
        // The browser refused the lock: do the work unlocked rather than not at all.
        (None, Err(_)) => unlocked(&work).await,
        (None, Ok(_)) => None,
    }
}

/// The work, run without the lock, unless it already ran.
async fn unlocked<F: Future>(work: &RefCell<Option<std::pin::Pin<Box<F>>>>) -> Option<F::Output> {
    let pending = work.borrow_mut().take();
    match pending {
        Some(work) => Some(work.await),
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn session(token: &str) -> Session {
        Session {
            access_token: format!("access-{token}"),
            refresh_token: format!("refresh-{token}"),
            expires_at_ms: 2,
            refresh_at_ms: 1,
            scope: "users:read".into(),
        }
    }

    fn refresh(token: &str, replaces: &str) -> Message {
        Message::Session {
            session: session(token),
            replaces: replaces.into(),
        }
    }

    #[wasm_bindgen_test]
    fn only_the_ask_and_its_answer_are_read_in_the_clear() {
        assert!(is_clear(&ASK.into(), ASK));
        assert!(is_clear(&SIGNED_IN.into(), SIGNED_IN));
        assert!(!is_clear(&ASK.into(), SIGNED_IN));
        for planted in [
            refresh("planted", "mine").to_text().unwrap(),
            "omine".to_owned(),
            "xmine".to_owned(),
            r#"{"successor":{"of":"mine"}}"#.to_owned(),
            r#"{"signed_out":{"refresh_token":"mine"}}"#.to_owned(),
        ] {
            let planted: JsValue = planted.into();
            assert!(!is_clear(&planted, ASK) && !is_clear(&planted, SIGNED_IN));
        }
    }

    #[wasm_bindgen_test]
    fn every_message_reads_back_as_written() {
        for message in [
            refresh("new", "old\nwith a line break"),
            Message::Successor { of: "of".into() },
            Message::SignedOut {
                refresh_token: "gone".into(),
            },
        ] {
            let text = message.to_text().unwrap();
            assert_eq!(Message::from_text(&text), Some(message));
        }
        for unreadable in [
            "",
            "s",
            "s{}\nold",
            "q-token",
            "{\"successor\":{\"of\":\"x\"}}",
        ] {
            assert_eq!(Message::from_text(unreadable), None, "{unreadable:?}");
        }
    }

    async fn key(raw: &[u8]) -> JsValue {
        JsFuture::from(seal_key(raw).unwrap()).await.unwrap()
    }

    #[wasm_bindgen_test]
    async fn a_sealed_message_opens_only_with_the_key_of_its_sign_in() {
        let ours = key(&[7; 32]).await;
        let theirs = key(&[8; 32]).await;
        let sealed = seal(&ours, &refresh("new", "old"), &[3; 12]).await.unwrap();
        let text = format!("{:?}", sealed);
        assert!(!text.contains("access-new") && !text.contains("refresh-new"));
        match open(&ours, &sealed).await {
            Some(Message::Session {
                session: s,
                replaces,
            }) => {
                assert_eq!(s, session("new"));
                assert_eq!(replaces, "old");
            }
            _ => panic!("our own message did not open"),
        }
        assert!(
            open(&theirs, &sealed).await.is_none(),
            "another sign-in's key"
        );
        let plain = refresh("planted", "old").to_text().unwrap();
        assert!(
            open(&ours, &plain.as_str().into()).await.is_none(),
            "in the clear"
        );
        let forged = js_sys::Array::of2(
            &js_sys::Uint8Array::from(&[0u8; 12][..]),
            &js_sys::Uint8Array::from(plain.as_bytes()),
        );
        assert!(open(&ours, &forged.into()).await.is_none(), "not sealed");
    }
}
