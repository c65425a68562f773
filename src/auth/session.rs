//! The signed-in session and the pending sign-in, kept in `sessionStorage` only.
//!
//! `sessionStorage` is per tab and survives a reload but not closing the tab, which is the
//! lifetime a session should have. Nothing here ever goes to persistent browser storage, cookies, the URL or
//! the console log (the `Debug` impls leave the tokens out).

use std::fmt;

use gifting_api::oauth::TokenResponse;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::browser::session_storage;

/// `sessionStorage` key of the session.
pub const SESSION_KEY: &str = "gifting-console.session";
/// `sessionStorage` key of the sign-in this tab started and has not finished.
pub const PENDING_KEY: &str = "gifting-console.pending-sign-in";
/// `sessionStorage` key of the refresh token this tab presented without learning the answer
/// (kept across a reload, which is what loses most answers): it may be spent, so it is never
/// presented again, since a spent one presented again ends the whole grant.
pub const SPENDING_KEY: &str = "gifting-console.refresh-spending";

/// The refresh happens this long before expiry, or a quarter of the lifetime for short-lived
/// tokens (a 5-second token refreshed a minute early would be refreshed on every request).
pub const REFRESH_AHEAD_MS: i64 = 60_000;

/// Tokens and what they allow.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Session {
    pub access_token: String,
    pub refresh_token: String,
    /// Unix milliseconds when the access token stops working.
    pub expires_at_ms: i64,
    /// Unix milliseconds from which a request refreshes first.
    pub refresh_at_ms: i64,
    /// The granted scopes, space-separated.
    pub scope: String,
}

impl fmt::Debug for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Session")
            .field("expires_at_ms", &self.expires_at_ms)
            .field("refresh_at_ms", &self.refresh_at_ms)
            .field("scope", &self.scope)
            .finish_non_exhaustive()
    }
}

/// When a token issued at `created_at` (server Unix seconds) for `expires_in` seconds expires,
/// in local Unix milliseconds, received at `now_ms`.
///
/// `created_at` is trusted unless it contradicts the local clock: one in the future, or one so
/// old the token would be dead on arrival, means the clocks disagree, and then the lifetime is
/// counted from receipt instead (otherwise a fast local clock would refresh on every request).
pub fn expiry_ms(created_at: i64, expires_in: u64, now_ms: i64) -> i64 {
    let lifetime_ms = i64::try_from(expires_in)
        .unwrap_or(i64::MAX / 2_000)
        .saturating_mul(1000);
    let created_ms = created_at.saturating_mul(1000);
    let age_ms = now_ms.saturating_sub(created_ms);
    let start = if (0..lifetime_ms).contains(&age_ms) {
        created_ms
    } else {
        now_ms
    };
    start.saturating_add(lifetime_ms)
}

/// How long before expiry to refresh a token that lives `expires_in` seconds.
pub fn refresh_ahead_ms(expires_in: u64) -> i64 {
    let lifetime_ms = i64::try_from(expires_in)
        .unwrap_or(i64::MAX / 2_000)
        .saturating_mul(1000);
    REFRESH_AHEAD_MS.min(lifetime_ms / 4)
}

impl Session {
    /// The session a token answer starts. An answer without `scope` keeps `fallback_scope`
    /// (RFC 6749 §5.1: omitted means as requested, or as before for a refresh).
    pub fn from_token_response(
        token: &TokenResponse,
        now_ms: i64,
        fallback_scope: &str,
    ) -> Session {
        let expires_at_ms = expiry_ms(token.created_at, token.expires_in, now_ms);
        let scope = if token.scope.trim().is_empty() {
            fallback_scope.to_string()
        } else {
            token.scope.split_whitespace().collect::<Vec<_>>().join(" ")
        };
        Session {
            access_token: token.access_token.clone(),
            refresh_token: token.refresh_token.clone(),
            expires_at_ms,
            refresh_at_ms: expires_at_ms - refresh_ahead_ms(token.expires_in),
            scope,
        }
    }

    /// Whether the granted scope includes `scope` (e.g. `"marketplace"`).
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scope.split_whitespace().any(|s| s == scope)
    }

    /// Whether a request at `now_ms` should refresh first.
    pub fn needs_refresh(&self, now_ms: i64) -> bool {
        now_ms >= self.refresh_at_ms
    }

    pub fn is_expired(&self, now_ms: i64) -> bool {
        now_ms >= self.expires_at_ms
    }
}

/// A sign-in this tab started: what the callback must see again, and where to go after.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingSignIn {
    pub state: String,
    pub verifier: String,
    /// Path, query and fragment to open once signed in; always starts with a single `/`.
    pub return_to: String,
    /// For a sign-in again in a window of its own: the refresh token (maybe spent) of the
    /// session it renews, which the tabs holding it replace with the new one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaces: Option<String>,
}

impl fmt::Debug for PendingSignIn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PendingSignIn")
            .field("return_to", &self.return_to)
            .finish_non_exhaustive()
    }
}

fn read<T: for<'de> Deserialize<'de>>(key: &str) -> Option<T> {
    let storage = session_storage()?;
    let text = storage.get_item(key).ok().flatten()?;
    match serde_json::from_str(&text) {
        Ok(value) => Some(value),
        Err(_) => {
            // Unreadable (an older console's format, or edited by hand): start clean.
            let _ = storage.remove_item(key);
            None
        }
    }
}

fn write<T: Serialize>(key: &str, value: &T) {
    if let (Some(storage), Ok(text)) = (session_storage(), serde_json::to_string(value)) {
        let _ = storage.set_item(key, &text);
    }
}

fn remove(key: &str) {
    if let Some(storage) = session_storage() {
        let _ = storage.remove_item(key);
    }
}

/// The stored session, if any.
pub fn load_session() -> Option<Session> {
    read(SESSION_KEY)
}

pub fn save_session(session: &Session) {
    write(SESSION_KEY, session)
}

pub fn clear_session() {
    remove(SESSION_KEY)
}

pub fn save_pending(pending: &PendingSignIn) {
    write(PENDING_KEY, pending)
}

/// Notes that `refresh_token` is being presented: until the answer is in, it may be spent.
pub fn mark_spending(refresh_token: &str) {
    if let Some(storage) = session_storage() {
        let _ = storage.set_item(SPENDING_KEY, refresh_token);
    }
}

/// Whether `refresh_token` was presented without its answer coming back.
pub fn maybe_spent(refresh_token: &str) -> bool {
    session_storage()
        .and_then(|storage| storage.get_item(SPENDING_KEY).ok().flatten())
        .is_some_and(|marked| marked == refresh_token)
}

/// The answer came back: the refresh token was not spent after all (a "busy" answer).
pub fn clear_spending() {
    remove(SPENDING_KEY)
}

/// Reads and removes the pending sign-in: a callback can use it once only.
pub fn take_pending() -> Option<PendingSignIn> {
    let pending = read(PENDING_KEY);
    remove(PENDING_KEY);
    pending
}

/// The session as the app sees it: `sessionStorage` plus a signal the views follow.
/// Every change goes through here so the two never disagree.
#[derive(Clone, Copy)]
pub struct SessionStore {
    signal: RwSignal<Option<Session>>,
}

impl SessionStore {
    /// Starts from what `sessionStorage` holds (a reload keeps the session).
    pub fn load() -> Self {
        Self {
            signal: RwSignal::new(load_session()),
        }
    }

    /// The current session without subscribing to changes.
    pub fn current(&self) -> Option<Session> {
        self.signal.get_untracked()
    }

    /// Reactive read: views re-render when the session starts, refreshes or ends.
    pub fn with<R>(&self, f: impl FnOnce(Option<&Session>) -> R) -> R {
        self.signal.with(|s| f(s.as_ref()))
    }

    pub fn set(&self, session: Session) {
        // A refresh token marked as maybe spent stays marked only while the tab still holds it.
        if !maybe_spent(&session.refresh_token) {
            remove(SPENDING_KEY);
        }
        save_session(&session);
        self.signal.set(Some(session));
        wake_waiters();
    }

    pub fn clear(&self) {
        clear_session();
        remove(SPENDING_KEY);
        self.signal.set(None);
        // What the admin typed into a list's search must not outlive the session either.
        crate::prefs::forget_last_filters();
        forget_kept_data();
        wake_waiters();
    }

    /// Resolves at the next change of session (a new one, a refresh, or the end).
    pub async fn changed(&self) {
        let (sender, receiver) = futures::channel::oneshot::channel();
        WAITERS.with(|all| all.borrow_mut().push(sender));
        let _ = receiver.await;
    }
}

thread_local! {
    static WAITERS: std::cell::RefCell<Vec<futures::channel::oneshot::Sender<()>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

fn wake_waiters() {
    let all = WAITERS.with(|all| std::mem::take(&mut *all.borrow_mut()));
    for waiter in all {
        let _ = waiter.send(());
    }
}

thread_local! {
    static ON_SESSION_END: std::cell::RefCell<Vec<fn()>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Registers `forget`, run whenever this tab's session ends (sign-out, expiry, another tab
/// signing out): platform data a screen keeps in memory beyond its own life (the catalog left
/// for later) must not outlive the session it was read with. A plain `fn`, so nothing of a
/// screen's reactive state is held here.
pub fn on_session_end(forget: fn()) {
    ON_SESSION_END.with(|all| {
        let mut all = all.borrow_mut();
        if !all.contains(&forget) {
            all.push(forget);
        }
    });
}

fn forget_kept_data() {
    let all = ON_SESSION_END.with(|all| all.borrow().clone());
    for forget in all {
        forget();
    }
}
