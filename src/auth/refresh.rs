//! Single-flight token refresh.
//!
//! Refresh tokens are single use: if two requests refreshed at once, the second would present a
//! spent token, get `invalid_grant`, and sign the user out. So however many callers ask while a
//! refresh is running, exactly one refresh request goes out and they all get its result.
//!
//! The refresh runs as its own task, not inside any caller: if every caller is cancelled (the
//! user left the screen), the refresh still finishes and stores the new tokens, because the
//! platform has already spent the old refresh token.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use futures::channel::oneshot;
use gifting_api::oauth::TokenResponse;

use super::session::{self, Session, SessionStore};
use super::tabs::{with_refresh_lock, Tabs};
use crate::browser::now_ms;

/// Why a refresh did not produce a session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefreshError {
    /// The authorization server refused (`invalid_grant`: expired, used or revoked). The
    /// session is over and has been cleared.
    Rejected,
    /// Not now (the platform said it is busy, or the lock was not had in time): the refresh
    /// token was not spent. The session is kept for a later try.
    Unavailable,
    /// The answer was lost (no answer, a timeout, a 5xx such as a gateway's 504): the platform
    /// may have rotated the tokens. The refresh token is never presented again, since a spent
    /// one presented again ends the whole grant: only signing in again renews this session.
    Lost,
    /// The session this refresh was for ended while it ran (signed out): its answer was
    /// dropped, so it can never bring that session back.
    Dropped,
}

/// The future a [`RefreshTransport`] returns.
pub type RefreshFuture = Pin<Box<dyn Future<Output = Result<TokenResponse, RefreshError>>>>;

/// Performs one refresh request with the given refresh token. Injectable so tests can count
/// calls; the app's sends `grant_type=refresh_token` to the token endpoint.
pub type RefreshTransport = Rc<dyn Fn(String) -> RefreshFuture>;

type Waiters = Vec<oneshot::Sender<Result<Session, RefreshError>>>;

/// Runs refreshes one at a time, sharing each result with everyone who asked meanwhile.
#[derive(Clone)]
pub struct Refresher {
    transport: RefreshTransport,
    tabs: Tabs,
    /// `Some` while a refresh runs: the callers waiting for it.
    in_flight: Rc<RefCell<Option<Waiters>>>,
}

impl Refresher {
    pub fn new(transport: RefreshTransport) -> Self {
        Self {
            transport,
            tabs: Tabs::alone(),
            in_flight: Rc::new(RefCell::new(None)),
        }
    }

    /// Refreshes in step with the other tabs of this console (see [`super::tabs`]).
    pub fn with_tabs(mut self, tabs: Tabs) -> Self {
        self.tabs = tabs;
        self
    }

    /// Whether a refresh is running now.
    pub fn is_running(&self) -> bool {
        self.in_flight.borrow().is_some()
    }

    /// Returns once no refresh is running (at once if none is): the refresh's new tokens are
    /// stored by then, so a sign-out that waited here revokes the newest ones.
    pub async fn settled(&self) {
        let waiting = {
            let mut in_flight = self.in_flight.borrow_mut();
            in_flight.as_mut().map(|waiters| {
                let (sender, receiver) = oneshot::channel();
                waiters.push(sender);
                receiver
            })
        };
        if let Some(receiver) = waiting {
            let _ = receiver.await;
        }
    }

    /// Refreshes the session in `store`, or joins the refresh already running.
    /// On success the store holds the new session; on [`RefreshError::Rejected`] it is cleared.
    pub async fn refresh(&self, store: SessionStore) -> Result<Session, RefreshError> {
        let (sender, receiver) = oneshot::channel();
        let start = {
            let mut in_flight = self.in_flight.borrow_mut();
            match in_flight.as_mut() {
                Some(waiters) => {
                    waiters.push(sender);
                    false
                }
                None => {
                    *in_flight = Some(vec![sender]);
                    true
                }
            }
        };
        if start {
            let transport = self.transport.clone();
            let tabs = self.tabs.clone();
            let in_flight = self.in_flight.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let result = run_once(transport, tabs, store).await;
                let waiters = in_flight.borrow_mut().take().unwrap_or_default();
                for waiter in waiters {
                    let _ = waiter.send(result.clone());
                }
            });
        }
        receiver.await.unwrap_or(Err(RefreshError::Unavailable))
    }
}

/// One refresh, under the lock every tab of the console shares: a tab that waited for the lock
/// while another refreshed the same grant has been handed the new tokens by then, and uses
/// them instead of presenting the spent refresh token. A lock not had in time is "not now".
async fn run_once(
    transport: RefreshTransport,
    tabs: Tabs,
    store: SessionStore,
) -> Result<Session, RefreshError> {
    let Some(current) = store.current() else {
        return Err(RefreshError::Rejected);
    };
    let spent = current.refresh_token;
    let scope = current.scope;
    with_refresh_lock(async move {
        // Another tab may have replaced this refresh token already (this tab missed the
        // broadcast while it reloaded): ask before spending it.
        tabs.ask_successor(&spent).await;
        let holds = |store: SessionStore| {
            store
                .current()
                .filter(|s| s.refresh_token == spent)
                .is_some()
        };
        if !holds(store) {
            // Refreshed by another tab (its tokens are ours now), or signed out meanwhile.
            return store.current().ok_or(RefreshError::Dropped);
        }
        if session::maybe_spent(&spent) {
            return Err(RefreshError::Lost);
        }
        // Marked before it leaves, so that a reload before the answer still knows.
        session::mark_spending(&spent);
        let result = transport(spent.clone()).await;
        // Only the session that asked may take the answer: after a sign-out (or any other
        // change of session) meanwhile, storing it would sign the tab in again.
        if !holds(store) {
            return Err(RefreshError::Dropped);
        }
        take_answer(result, store, &tabs, &spent, &scope)
    })
    .await
    .unwrap_or(Err(RefreshError::Unavailable))
}

/// What the answer to presenting `spent` leaves in `store`.
fn take_answer(
    result: Result<TokenResponse, RefreshError>,
    store: SessionStore,
    tabs: &Tabs,
    spent: &str,
    scope: &str,
) -> Result<Session, RefreshError> {
    match result {
        Ok(token) => {
            let session = Session::from_token_response(&token, now_ms(), scope);
            store.set(session.clone());
            tabs.refreshed(spent, &session);
            Ok(session)
        }
        Err(RefreshError::Rejected) => {
            store.clear();
            Err(RefreshError::Rejected)
        }
        // The platform may have rotated: the mark stays, in this tab across a reload.
        Err(RefreshError::Lost) => Err(RefreshError::Lost),
        Err(e) => {
            session::clear_spending();
            Err(e)
        }
    }
}
