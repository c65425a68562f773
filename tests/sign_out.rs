#![cfg(target_arch = "wasm32")]
//! Sign-out leaves nothing alive: it waits for a refresh in flight, revokes the refresh token
//! (which ends the whole grant, so an expired access token needs no renewal first), and no
//! refresh answer that arrives afterwards signs the tab in again.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use futures::channel::oneshot;
use gifting_api::oauth::TokenResponse;
use gifting_console::auth::refresh::{RefreshError, RefreshTransport, Refresher};
use gifting_console::auth::session::{Session, SessionStore};
use gifting_console::auth::Auth;
use gifting_console::browser::{now_ms, sleep};
use gifting_console::config::parse_config;
use leptos::prelude::Owner;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// A token pair `n`, issued `age_s` seconds ago, living `expires_in` seconds.
fn token(n: u32, age_s: i64, expires_in: i64) -> TokenResponse {
    serde_json::from_str(&format!(
        r#"{{"access_token":"at-{n}","token_type":"bearer","expires_in":{expires_in},
            "refresh_token":"rt-{n}","scope":"scim","created_at":{}}}"#,
        now_ms() / 1000 - age_s
    ))
    .expect("token")
}

fn store_with(token: &TokenResponse) -> SessionStore {
    let store = SessionStore::load();
    store.set(Session::from_token_response(token, now_ms(), "scim"));
    store
}

/// A transport that counts its calls and answers `at-1` only once `release` is sent.
fn gated_transport(calls: Rc<Cell<u32>>) -> (RefreshTransport, oneshot::Sender<()>) {
    let (release, gate) = oneshot::channel::<()>();
    let gate = Rc::new(RefCell::new(Some(gate)));
    let transport: RefreshTransport = Rc::new(move |_refresh_token: String| {
        calls.set(calls.get() + 1);
        let gate = gate.borrow_mut().take();
        Box::pin(async move {
            if let Some(gate) = gate {
                let _ = gate.await;
            }
            Ok(token(1, 0, 7200))
        })
    });
    (transport, release)
}

/// Waits until `ready` holds, asking again every 10 ms up to a 5 s deadline: under a busy
/// machine a step may take longer than a fixed pause, and a wait that gives up early would fail
/// for the machine, not the code.
async fn until(what: &str, ready: impl Fn() -> bool) {
    let deadline = now_ms() + 5_000;
    while !ready() {
        assert!(now_ms() < deadline, "still not so after 5 s: {what}");
        sleep(Duration::from_millis(10)).await;
    }
}

/// A request to the unreachable platform of [`auth`], made after the tasks spawned so far ran,
/// has failed. A sign-out that did not wait for anything would have revoked there (and failed)
/// before it: a check that it did not finish reads after this, not after a pause.
async fn a_later_request_failed() {
    // Tasks spawned before this one run first: the sign-out has asked for what it asks for.
    let (ran, after_them) = oneshot::channel::<()>();
    wasm_bindgen_futures::spawn_local(async move {
        let _ = ran.send(());
    });
    let _ = after_them.await;
    let window = web_sys::window().expect("window");
    let request = window.fetch_with_str("http://127.0.0.1:9/oauth/revoke");
    let failed = wasm_bindgen_futures::JsFuture::from(request).await;
    assert!(failed.is_err(), "port 9 is unreachable");
}

/// An Auth whose platform is unreachable at once (port 9 is one browsers refuse), so a
/// revocation fails fast, as on a bad connection.
fn auth(transport: RefreshTransport) -> Auth {
    let config = parse_config(
        r#"{"base_url":"http://127.0.0.1:9","auth_url":"http://127.0.0.1:9","client_id":"c"}"#,
    )
    .expect("config");
    Auth::with_transport(Arc::new(config), transport)
}

#[wasm_bindgen_test]
async fn a_late_refresh_answer_after_sign_out_is_dropped() {
    let store = store_with(&token(0, 0, 7200));
    let calls = Rc::new(Cell::new(0));
    let (transport, release) = gated_transport(calls.clone());
    let refresher = Refresher::new(transport);
    let result = Rc::new(RefCell::new(None));
    {
        let (refresher, result) = (refresher.clone(), result.clone());
        wasm_bindgen_futures::spawn_local(async move {
            *result.borrow_mut() = Some(refresher.refresh(store).await);
        });
    }
    until("the refresh is running", || refresher.is_running()).await;
    store.clear(); // the tab signs out while the refresh is on its way
    let _ = release.send(());
    refresher.settled().await;
    until("the refresh has answered", || result.borrow().is_some()).await;
    assert_eq!(calls.get(), 1);
    assert_eq!(
        store.current(),
        None,
        "the late answer signed the tab in again"
    );
    assert_eq!(*result.borrow(), Some(Err(RefreshError::Dropped)));
}

#[wasm_bindgen_test]
async fn sign_out_waits_for_the_refresh_in_flight_and_stays_signed_out() {
    let owner = Owner::new();
    owner.set();
    // Issued almost two hours ago: due for a refresh, not yet expired.
    let _seeded = store_with(&token(0, 7170, 7200));
    let calls = Rc::new(Cell::new(0));
    let (transport, release) = gated_transport(calls.clone());
    let auth = auth(transport);
    wasm_bindgen_futures::spawn_local(async move {
        let _ = auth.access_token().await;
    });
    until("a refresh is in flight", || calls.get() == 1).await;
    let done = Rc::new(Cell::new(false));
    {
        let done = done.clone();
        wasm_bindgen_futures::spawn_local(async move {
            auth.sign_out().await;
            done.set(true);
        });
    }
    a_later_request_failed().await;
    assert!(!done.get(), "sign-out went ahead of the refresh in flight");
    assert!(
        auth.store().current().is_some(),
        "still signed in while the refresh runs"
    );
    let _ = release.send(());
    until("sign-out finished", || done.get()).await;
    assert_eq!(
        calls.get(),
        1,
        "no second refresh: the new token was not expired"
    );
    assert_signed_out(&auth);
}

#[wasm_bindgen_test]
async fn an_expired_access_token_is_not_renewed_the_refresh_token_ends_the_grant() {
    let owner = Owner::new();
    owner.set();
    // Expired a minute ago: the platform may have forgotten it; its refresh token still works.
    let store = SessionStore::load();
    store.set(Session {
        access_token: "at-0".into(),
        refresh_token: "rt-0".into(),
        expires_at_ms: now_ms() - 60_000,
        refresh_at_ms: now_ms() - 120_000,
        scope: "scim".into(),
    });
    let calls = Rc::new(Cell::new(0));
    let (transport, release) = gated_transport(calls.clone());
    let _ = release.send(());
    let auth = auth(transport);
    auth.sign_out().await;
    assert_eq!(
        calls.get(),
        0,
        "no renewal: revoking the refresh token ends the grant whatever the access token's age"
    );
    assert_signed_out(&auth);
}

/// Signed out in memory and in sessionStorage.
fn assert_signed_out(auth: &Auth) {
    assert_eq!(auth.store().current(), None);
    assert_eq!(
        SessionStore::load().current(),
        None,
        "nothing left in sessionStorage"
    );
}
