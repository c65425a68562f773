//! Sign-in, the session, refresh and sign-out.
//!
//! Pages only need [`use_auth`] for questions such as "was the `marketplace` scope granted?"
//! ([`Auth::has_scope`]); requests go through [`crate::api::use_api`], which asks this module
//! for a valid token.

mod end_grant;
pub mod flow;
pub mod refresh;
pub mod session;
pub mod tabs;
pub mod token_endpoint;

use std::rc::Rc;
use std::sync::Arc;

use leptos::prelude::*;
use send_wrapper::SendWrapper;

use crate::browser::{now_ms, origin};
use crate::config::Config;
use flow::{check_callback, CallbackError, CallbackParams};
use refresh::{RefreshError, RefreshTransport, Refresher};
use session::{PendingSignIn, Session, SessionStore};
use tabs::Tabs;

/// Why no token could be had for a request. The platform client ([`crate::api`]) turns it
/// into its own error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AuthError {
    /// Signed out, or the session could not be renewed: only a new sign-in helps.
    SignedOut,
    /// The sign-in service did not answer and the token has expired.
    Unavailable,
    /// The app that owned the session is gone.
    Cancelled,
}

/// Why the tab is signed out, so the sign-in screen can say so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SessionEnd {
    /// The user pressed "Sign out".
    SignedOut,
    /// The session could not be renewed (refresh refused, token revoked elsewhere).
    Expired,
}

/// The tab's sign-in state and the OAuth client. `Copy`: use it freely in view closures.
/// Lives as long as the reactive owner that created it (the app).
#[derive(Clone, Copy)]
pub struct Auth {
    config: StoredValue<Arc<Config>>,
    store: SessionStore,
    refresher: StoredValue<SendWrapper<Refresher>>,
    tabs: StoredValue<SendWrapper<Tabs>>,
    ended: RwSignal<Option<SessionEnd>>,
    /// True once another console tab said it is signed in while this one is not.
    elsewhere: RwSignal<bool>,
    /// True once a refresh's answer was lost: the session goes on only by signing in again.
    renew: RwSignal<bool>,
}

impl Auth {
    /// Loads the session this tab already has, if any; refreshes through the token endpoint.
    /// With `ask_open_tabs`, a tab opened without a session (a link opened in a new tab) asks
    /// whether another tab of this console is signed in, so the sign-in page can say so.
    pub fn new(config: Arc<Config>, ask_open_tabs: bool) -> Self {
        let for_transport = config.clone();
        let transport: RefreshTransport = Rc::new(move |refresh_token: String| {
            let config = for_transport.clone();
            Box::pin(async move { token_endpoint::refresh(&config, &refresh_token).await })
        });
        let auth = Self::with_transport(config, transport.clone());
        let signed_out: Rc<dyn Fn()> = Rc::new(move || auth.end(SessionEnd::SignedOut));
        let tabs = Tabs::join(auth.store, signed_out, auth.elsewhere, ask_open_tabs);
        auth.tabs.set_value(SendWrapper::new(tabs.clone()));
        auth.refresher
            .set_value(SendWrapper::new(Refresher::new(transport).with_tabs(tabs)));
        auth
    }

    /// As [`Auth::new`], with the refresh request replaced (tests count refreshes with it).
    pub fn with_transport(config: Arc<Config>, transport: RefreshTransport) -> Self {
        Auth {
            config: StoredValue::new(config),
            store: SessionStore::load(),
            refresher: StoredValue::new(SendWrapper::new(Refresher::new(transport))),
            tabs: StoredValue::new(SendWrapper::new(Tabs::alone())),
            ended: RwSignal::new(None),
            elsewhere: RwSignal::new(false),
            renew: RwSignal::new(false),
        }
    }

    /// Reactive: whether another console tab of this browser is signed in (this one is not, and
    /// cannot be handed that session: see [`tabs`]).
    pub fn signed_in_elsewhere(&self) -> bool {
        self.elsewhere.get()
    }

    /// Reactive: whether this tab's session needs a sign-in again to go on (its refresh token
    /// may be spent, and the platform ends the whole grant if a spent one is presented again).
    pub fn needs_sign_in_again(&self) -> bool {
        self.renew.get()
            && self
                .store
                .with(|s| s.is_some_and(|s| session::maybe_spent(&s.refresh_token)))
    }

    pub fn config(&self) -> Arc<Config> {
        self.config.get_value()
    }

    pub fn store(&self) -> SessionStore {
        self.store
    }

    /// `None` once the app that owns this `Auth` is gone.
    fn refresher(&self) -> Option<Refresher> {
        self.refresher.try_get_value().map(SendWrapper::take)
    }

    /// Reactive: whether this tab has a session.
    pub fn is_signed_in(&self) -> bool {
        self.store.with(|s| s.is_some())
    }

    /// Reactive: whether the session's granted scope includes `scope`, e.g.
    /// [`gifting_api::oauth::SCOPE_MARKETPLACE`]. False when signed out.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.store.with(|s| s.is_some_and(|s| s.has_scope(scope)))
    }

    /// Reactive: the granted scopes, space-separated ("" when signed out).
    pub fn granted_scope(&self) -> String {
        self.store
            .with(|s| s.map(|s| s.scope.clone()).unwrap_or_default())
    }

    /// Reactive: why the tab is signed out, if it was signed in before.
    pub fn ended(&self) -> Option<SessionEnd> {
        self.ended.get()
    }

    /// Starts a sign-in: remembers `state`, the PKCE verifier and `return_to` for this tab,
    /// then leaves for the authorization server. `Err` only when the browser cannot provide
    /// random numbers or WebCrypto's SHA-256 (for the PKCE challenge), or refuses the navigation.
    pub async fn begin_sign_in(&self, return_to: &str) -> Result<(), String> {
        let url = self.authorize(return_to, None).await?;
        crate::browser::go_to(&url)
    }

    /// Signs in again for a session whose refresh token may be spent, in a window of its own:
    /// it hands the new session to every tab holding that token and closes, so this screen and
    /// whatever was typed in it stay. Where no window may open, in this tab.
    pub async fn sign_in_again(&self) -> Result<(), String> {
        let replaces = self.store.current().map(|s| s.refresh_token);
        let url = self
            .authorize(&crate::browser::current_route(), replaces)
            .await?;
        if crate::browser::open_window(&url, flow::SIGN_IN_AGAIN_WINDOW) {
            Ok(())
        } else {
            crate::browser::go_to(&url)
        }
    }

    /// A fresh `state` and PKCE pair kept for this tab (and copied into a window it opens);
    /// the authorization request's address.
    async fn authorize(&self, return_to: &str, replaces: Option<String>) -> Result<String, String> {
        let state = flow::new_state()?;
        let verifier = flow::new_verifier()?;
        let challenge = flow::s256_challenge(&verifier).await?;
        let config = self.config();
        let url = flow::authorize_url(&config, &origin(), &state, &challenge);
        session::save_pending(&PendingSignIn {
            state,
            verifier,
            return_to: flow::safe_return_to(return_to, &config.redirect_path),
            replaces,
        });
        Ok(url)
    }

    /// Finishes a sign-in from the callback's parameters: checks `state` against this tab's
    /// pending sign-in (used up either way), exchanges the code, stores the session.
    /// Returns the route to open.
    pub async fn complete_sign_in(&self, params: &CallbackParams) -> Result<String, CallbackError> {
        let pending = session::take_pending();
        let code = check_callback(params, pending.as_ref())?;
        let Some(pending) = pending else {
            return Err(CallbackError::StateMismatch);
        };
        let config = self.config();
        let redirect_uri = config.redirect_uri(&origin());
        let token = token_endpoint::exchange_code(&config, &code, &redirect_uri, &pending.verifier)
            .await
            .map_err(|failure| CallbackError::Exchange(failure.user_message()))?;
        let session = Session::from_token_response(&token, now_ms(), &config.scope);
        self.ended.set(None);
        self.store.set(session.clone());
        if let (Some(replaces), Some(tabs)) = (&pending.replaces, self.tabs()) {
            // A sign-in again: the tabs holding the maybe spent token take this session, and
            // the window opened for it closes (a tab that signed in again itself stays).
            if tabs.renewed(replaces, &session).await {
                crate::browser::close_if_opened_as(flow::SIGN_IN_AGAIN_WINDOW);
            }
        }
        Ok(pending.return_to)
    }

    fn tabs(&self) -> Option<Tabs> {
        self.tabs.try_get_value().map(SendWrapper::take)
    }

    /// Ends the grant at the platform, then clears the session whatever the outcome; `false`
    /// when the platform did not confirm the end (the caller tells the admin: the grant may
    /// live on until its refresh token expires).
    ///
    /// It revokes the refresh token, which ends the whole grant whether or not the access token
    /// is still known to the platform. It first lets this tab's refresh in flight finish, and
    /// revokes under the refresh lock every tab shares, after asking whether another tab has
    /// just rotated the token: revoking a spent refresh token would leave its successor alive.
    pub async fn sign_out(&self) -> bool {
        let mut revoked = true;
        if let (Some(refresher), Some(tabs)) = (self.refresher(), self.tabs()) {
            refresher.settled().await;
            let store = self.store;
            revoked = match end_grant::end_grant(store, self.config(), tabs.clone()).await {
                Ok(ended) => ended.await,
                // Its code could not be fetched (offline): this browser signs out all the same,
                // every tab of the session with it, as when the platform cannot be told.
                Err(_) => {
                    if let Some(session) = store.current() {
                        tabs.signed_out(&session.refresh_token);
                    }
                    false
                }
            };
        }
        let _ = session::take_pending();
        self.end(SessionEnd::SignedOut);
        revoked
    }

    /// Fetches the code of [`Auth::sign_out`] ahead (the button is pointed at or focused).
    pub fn prefetch_sign_out(&self) {
        leptos::task::spawn_local(async {
            // A failed prefetch is tried again at sign-out.
            let _ = end_grant::prefetch().await;
        });
    }

    /// Clears the session and records why.
    pub fn end(&self, reason: SessionEnd) {
        self.store.clear();
        self.ended.set(Some(reason));
    }

    /// A token for the next request, refreshed first when it is about to expire (or joining a
    /// refresh already running).
    pub async fn access_token(&self) -> Result<String, AuthError> {
        let Some(session) = self.store.current() else {
            return Err(AuthError::SignedOut);
        };
        let refresher = self.refresher().ok_or(AuthError::Cancelled)?;
        if !session.needs_refresh(now_ms()) && !refresher.is_running() {
            return Ok(session.access_token);
        }
        match refresher.refresh(self.store).await {
            Ok(fresh) => Ok(fresh.access_token),
            // The old token may still have a little life in it; the request will tell.
            Err(RefreshError::Unavailable) if !session.is_expired(now_ms()) => {
                Ok(session.access_token)
            }
            Err(RefreshError::Lost) if !session.is_expired(now_ms()) => {
                self.renew.set(true);
                Ok(session.access_token)
            }
            Err(error) => self.after_failed_refresh(error, &session).await,
        }
    }

    /// A token after a refresh of `session` failed with `error` and its access token is spent.
    async fn after_failed_refresh(
        &self,
        error: RefreshError,
        session: &Session,
    ) -> Result<String, AuthError> {
        match error {
            RefreshError::Rejected => {
                self.end(SessionEnd::Expired);
                Err(AuthError::SignedOut)
            }
            RefreshError::Unavailable => Err(AuthError::Unavailable),
            // Signed out while the refresh ran: the sign-out already recorded why.
            RefreshError::Dropped => Err(AuthError::SignedOut),
            RefreshError::Lost => self.renewed(&session.refresh_token).await,
        }
    }

    /// Waits until the session holding the maybe spent `refresh_token` is renewed by a sign-in
    /// again (the screen waits with it, keeping what was typed), or ends.
    async fn renewed(&self, refresh_token: &str) -> Result<String, AuthError> {
        self.renew.set(true);
        loop {
            match self.store.current() {
                None => return Err(AuthError::SignedOut),
                Some(s) if s.refresh_token != refresh_token => {
                    self.renew.set(false);
                    return Ok(s.access_token);
                }
                Some(_) => self.store.changed().await,
            }
        }
    }

    /// After a 401 for `rejected_token`: refresh once (single-flight), unless another request
    /// already replaced that token, in which case the caller just retries with the new one.
    pub(crate) async fn recover_from_unauthorized(
        &self,
        rejected_token: &str,
    ) -> Result<(), AuthError> {
        let Some(session) = self.store.current() else {
            return Err(AuthError::SignedOut);
        };
        if session.access_token != rejected_token {
            return Ok(());
        }
        let refresher = self.refresher().ok_or(AuthError::Cancelled)?;
        match refresher.refresh(self.store).await {
            Ok(_) => Ok(()),
            Err(error) => self.after_failed_refresh(error, &session).await.map(|_| ()),
        }
    }
}

/// The tab's [`Auth`]. Panics outside the console's app tree (a programming error).
pub fn use_auth() -> Auth {
    use_context::<Auth>().expect("use_auth() called outside the console's <App/>")
}
