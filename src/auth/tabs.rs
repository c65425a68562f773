//! Tabs of one console working together: one sign-in serves every tab of the browser.
//!
//! - A tab without a session (a link opened in a new tab) asks the open tabs for theirs over a
//!   `BroadcastChannel`, and is signed in without the consent page if one answers. It asks only
//!   when another console tab is open: each holds a shared Web Lock for its whole life, and
//!   `navigator.locks.query()` lists them, so the only tab shows sign-in with no wait.
//! - Refresh tokens are single use, and a duplicated tab holds a copy of the same one: a
//!   refresh runs under a Web Lock (`navigator.locks`), so one tab at a time uses it, and the new
//!   tokens are broadcast so every tab holding the spent one takes them instead.
//! - Signing out in one tab signs out every tab of that session.
//!
//! Tokens pass between tabs only in memory, through the channel (same origin only); each tab
//! keeps them in its own `sessionStorage`. A browser without `BroadcastChannel` or without Web
//! Locks keeps the single-tab behaviour: sharing a session without the lock would let two tabs
//! spend one refresh token.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::Future;
use std::rc::Rc;
use std::time::Duration;

use futures::channel::oneshot;
use futures::future::{select, Either};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{BroadcastChannel, MessageEvent};

use super::session::{Session, SessionStore};
use crate::browser::sleep;

const CHANNEL: &str = "gifting-console.session";
const REFRESH_LOCK: &str = "gifting-console.refresh";
/// Held in shared mode by every console tab for as long as it is open, so a tab can see in
/// `navigator.locks.query()` whether any other is, and skip asking when none is.
const PRESENCE_LOCK: &str = "gifting-console.tab";
/// How long a tab waits for its own presence lock before it asks anyway (it is granted at once
/// in practice: shared locks never wait for each other).
const PRESENCE_FOR: Duration = Duration::from_millis(200);
/// How long a tab without a session waits for an open tab to hand it one.
const ASK_FOR: Duration = Duration::from_millis(400);
/// How long a tab about to refresh waits for a tab that already replaced its refresh token.
const SUCCESSOR_FOR: Duration = Duration::from_millis(120);
/// Spent refresh tokens a tab remembers, to recognise a tab that is still behind.
const SPENT_KEPT: usize = 8;

// Externally tagged (`"ask"`, `{"session": {…}}`): serde's internally tagged form buffers
// every message through a generic `Content` tree, which cost ~10 KB of the first load.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Message {
    /// A tab without a session asks the others for theirs.
    Ask,
    /// A tab's session: the answer to [`Message::Ask`], or the tokens a refresh produced
    /// (`replaces` is the refresh token they replace, now spent).
    Session {
        session: Session,
        replaces: Option<String>,
    },
    /// A tab about to use the refresh token `of` asks whether another tab already replaced it
    /// (a tab that was reloading missed the broadcast of the new tokens).
    Successor { of: String },
    /// The session holding this refresh token was signed out.
    SignedOut { refresh_token: String },
}

type Listener = Closure<dyn FnMut(MessageEvent)>;

/// This tab's end of the channel. Cheap to clone.
#[derive(Clone)]
pub struct Tabs {
    channel: Option<Rc<(BroadcastChannel, Listener)>>,
    waiting: Rc<RefCell<Option<oneshot::Sender<Session>>>>,
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

impl Tabs {
    /// No coordination: what tests and old browsers get.
    pub fn alone() -> Self {
        Tabs {
            channel: None,
            waiting: Rc::new(RefCell::new(None)),
            spent: Rc::new(RefCell::new(VecDeque::new())),
            present: Rc::new(RefCell::new(None)),
        }
    }

    /// Joins the channel. `signed_out` runs when another tab signs this session out.
    pub fn join(store: SessionStore, signed_out: Rc<dyn Fn()>) -> Self {
        if lock_manager().is_none() {
            return Self::alone();
        }
        let Ok(channel) = BroadcastChannel::new(CHANNEL) else {
            return Self::alone();
        };
        let waiting: Rc<RefCell<Option<oneshot::Sender<Session>>>> = Rc::new(RefCell::new(None));
        let spent: Rc<RefCell<VecDeque<String>>> = Rc::new(RefCell::new(VecDeque::new()));
        let reply_to = channel.clone();
        let asked = waiting.clone();
        let known_spent = spent.clone();
        let listener: Listener = Closure::new(move |event: MessageEvent| {
            let Some(text) = event.data().as_string() else {
                return;
            };
            let Ok(message) = serde_json::from_str::<Message>(&text) else {
                return;
            };
            match message {
                Message::Ask => {
                    if let Some(session) = store.current() {
                        post(
                            &reply_to,
                            &Message::Session {
                                session,
                                replaces: None,
                            },
                        );
                    }
                }
                Message::Session { session, replaces } => {
                    let current = store.current();
                    match (current, replaces) {
                        (None, _) => {
                            if let Some(sender) = asked.borrow_mut().take() {
                                let _ = sender.send(session);
                            }
                        }
                        // Another tab refreshed the grant this tab holds: take the new tokens,
                        // never use the spent refresh token.
                        (Some(mine), Some(replaced)) if mine.refresh_token == replaced => {
                            remember(&known_spent, &replaced);
                            store.set(session)
                        }
                        _ => {}
                    }
                }
                Message::Successor { of } => {
                    let replaced = known_spent.borrow().contains(&of);
                    if let Some(session) = store.current().filter(|_| replaced) {
                        post(
                            &reply_to,
                            &Message::Session {
                                session,
                                replaces: Some(of),
                            },
                        );
                    }
                }
                Message::SignedOut { refresh_token } => {
                    if store
                        .current()
                        .is_some_and(|mine| mine.refresh_token == refresh_token)
                    {
                        signed_out();
                    }
                }
            }
        });
        channel.set_onmessage(Some(listener.as_ref().unchecked_ref()));
        Tabs {
            channel: Some(Rc::new((channel, listener))),
            waiting,
            spent,
            present: Rc::new(RefCell::new(hold_presence_lock())),
        }
    }

    /// Whether another console tab of this origin is open (holds its presence lock). Yes when
    /// the browser cannot tell: asking then costs a wait, not a missed session.
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

    /// Whether other tabs can hear this one.
    pub fn is_shared(&self) -> bool {
        self.channel.is_some()
    }

    /// Asks the open tabs for their session; `None` when none answers in time.
    pub async fn ask(&self) -> Option<Session> {
        let (channel, _) = self.channel.as_deref()?;
        if !self.others_open().await {
            return None;
        }
        let (sender, receiver) = oneshot::channel();
        *self.waiting.borrow_mut() = Some(sender);
        post(channel, &Message::Ask);
        let answer = match select(receiver, Box::pin(sleep(ASK_FOR))).await {
            Either::Left((Ok(session), _)) => Some(session),
            _ => None,
        };
        self.waiting.borrow_mut().take();
        answer
    }

    /// Asks whether another tab already replaced the refresh token `of`, and waits a moment
    /// for its answer (which the listener applies to this tab's session).
    pub async fn ask_successor(&self, of: &str) {
        if let Some((channel, _)) = self.channel.as_deref() {
            if self.others_open().await {
                post(channel, &Message::Successor { of: of.to_owned() });
                sleep(SUCCESSOR_FOR).await;
            }
        }
    }

    /// Tells the other tabs that `session` replaces the spent refresh token `spent`.
    pub fn refreshed(&self, spent: &str, session: &Session) {
        remember(&self.spent, spent);
        if let Some((channel, _)) = self.channel.as_deref() {
            post(
                channel,
                &Message::Session {
                    session: session.clone(),
                    replaces: Some(spent.to_owned()),
                },
            );
        }
    }

    /// Tells the other tabs of this session that it was signed out.
    pub fn signed_out(&self, refresh_token: &str) {
        if let Some((channel, _)) = self.channel.as_deref() {
            post(
                channel,
                &Message::SignedOut {
                    refresh_token: refresh_token.to_owned(),
                },
            );
        }
    }
}

fn post(channel: &BroadcastChannel, message: &Message) {
    if let Ok(text) = serde_json::to_string(message) {
        let _ = channel.post_message(&JsValue::from_str(&text));
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

/// Runs `work` while holding the console's refresh lock, shared by every tab of this origin
/// (at once, without a lock, where the browser has none).
pub async fn with_refresh_lock<T: 'static>(work: impl Future<Output = T> + 'static) -> T {
    let Some((locks, request)) = lock_manager() else {
        return work.await;
    };
    let result: Rc<RefCell<Option<T>>> = Rc::new(RefCell::new(None));
    let slot = result.clone();
    let work = Rc::new(RefCell::new(Some(Box::pin(work))));
    let run = work.clone();
    let callback = Closure::once(move |_lock: JsValue| -> js_sys::Promise {
        wasm_bindgen_futures::future_to_promise(async move {
            let taken = run.borrow_mut().take();
            if let Some(work) = taken {
                *slot.borrow_mut() = Some(work.await);
            }
            Ok(JsValue::UNDEFINED)
        })
    });
    let granted = request
        .call2(&locks, &JsValue::from_str(REFRESH_LOCK), callback.as_ref())
        .ok()
        .and_then(|p| p.dyn_into::<js_sys::Promise>().ok());
    if let Some(promise) = granted {
        let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    }
    drop(callback);
    let done = result.borrow_mut().take();
    match done {
        Some(value) => value,
        // The lock could not be had: do the work unlocked rather than not at all.
        None => {
            let pending = work.borrow_mut().take();
            match pending {
                Some(work) => work.await,
                None => unreachable_after_run(),
            }
        }
    }
}

/// The callback took the work but stored no result: only a panic inside it does that, and the
/// app aborts on panic, so this is never reached.
fn unreachable_after_run<T>() -> T {
    wasm_bindgen::throw_str("the refresh lock's work did not finish")
}
