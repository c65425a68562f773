//! The part of [`super::Auth::sign_out`] that tells the platform: a chunk of its own in the
//! release build (fetched on the first sign-out, or when the button is pointed at), because
//! signing out is rare and its code would otherwise weigh on every first load.

use std::sync::Arc;

use futures::future::LocalBoxFuture;

use super::session::SessionStore;
use super::tabs::{with_refresh_lock, Tabs};
use super::token_endpoint;
use crate::config::Config;

/// The chunk could not be fetched.
pub struct NotFetched;

impl From<leptos::wasm_split::SplitLoaderError> for NotFetched {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        NotFetched
    }
}

/// Under the refresh lock: the session's successor asked of the other tabs (one of them may
/// have refreshed it), its grant revoked, and every tab of the session told to sign out.
/// Resolves to whether the platform confirmed the revocation. A lock held past any refresh's
/// length (by a page that is not the console, say) does not keep the grant alive: it is
/// revoked without the lock then.
fn work(store: SessionStore, config: Arc<Config>, tabs: Tabs) -> LocalBoxFuture<'static, bool> {
    Box::pin(async move {
        let locked = revoke(store, config.clone(), tabs.clone());
        match with_refresh_lock(locked).await {
            Some(revoked) => revoked,
            None => revoke(store, config, tabs).await,
        }
    })
}

async fn revoke(store: SessionStore, config: Arc<Config>, tabs: Tabs) -> bool {
    let Some(session) = store.current() else {
        return true;
    };
    tabs.ask_successor(&session.refresh_token).await;
    let session = store.current().unwrap_or(session);
    let revoked = token_endpoint::revoke(&config, &session.refresh_token).await;
    tabs.signed_out(&session.refresh_token);
    revoked.is_ok()
}

#[cfg(feature = "split")]
#[::leptos::wasm_split::wasm_split(sign_out, wasm_split_path = ::leptos::wasm_split, fallible, preload(prefetch))]
pub fn end_grant(
    store: SessionStore,
    config: Arc<Config>,
    tabs: Tabs,
) -> Result<LocalBoxFuture<'static, bool>, NotFetched> {
    Ok(work(store, config, tabs))
}

#[cfg(not(feature = "split"))]
pub async fn end_grant(
    store: SessionStore,
    config: Arc<Config>,
    tabs: Tabs,
) -> Result<LocalBoxFuture<'static, bool>, NotFetched> {
    Ok(work(store, config, tabs))
}

#[cfg(not(feature = "split"))]
pub async fn prefetch() -> Result<(), NotFetched> {
    Ok(())
}
