#![cfg(target_arch = "wasm32")]
//! Single-flight refresh: however many callers, one refresh request.

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use futures::future::join_all;
use gifting_api::oauth::TokenResponse;
use gifting_console::auth::refresh::{RefreshError, RefreshTransport, Refresher};
use gifting_console::auth::session::{load_session, Session, SessionStore};
use gifting_console::browser::{now_ms, sleep};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn token(n: u32) -> TokenResponse {
    serde_json::from_str(&format!(
        r#"{{"access_token":"at-{n}","token_type":"bearer","expires_in":7200,
            "refresh_token":"rt-{n}","scope":"scim","created_at":{}}}"#,
        now_ms() / 1000
    ))
    .expect("token")
}

/// A store holding a session whose refresh token is `rt-0`.
fn signed_in_store() -> SessionStore {
    let store = SessionStore::load();
    store.set(Session::from_token_response(&token(0), now_ms(), "scim"));
    store
}

/// A transport that counts its calls, remembers the refresh token it got, and answers with
/// `answer` after a short delay (so the callers really overlap).
fn counting_transport(
    calls: Rc<Cell<u32>>,
    seen: Rc<std::cell::RefCell<Vec<String>>>,
    answer: Result<(), RefreshError>,
) -> RefreshTransport {
    Rc::new(move |refresh_token: String| {
        calls.set(calls.get() + 1);
        seen.borrow_mut().push(refresh_token);
        let n = calls.get();
        let answer = answer.clone();
        Box::pin(async move {
            sleep(Duration::from_millis(30)).await;
            answer.map(|()| token(n))
        })
    })
}

#[wasm_bindgen_test]
async fn concurrent_callers_share_one_refresh() {
    let store = signed_in_store();
    let calls = Rc::new(Cell::new(0));
    let seen = Rc::new(std::cell::RefCell::new(Vec::new()));
    let refresher = Refresher::new(counting_transport(calls.clone(), seen.clone(), Ok(())));

    let results = join_all((0..8).map(|_| refresher.refresh(store))).await;

    assert_eq!(calls.get(), 1, "exactly one refresh request for 8 callers");
    assert_eq!(*seen.borrow(), vec!["rt-0".to_string()]);
    for result in &results {
        let session = result.as_ref().expect("every caller gets the new session");
        assert_eq!(session.access_token, "at-1");
        assert_eq!(session.refresh_token, "rt-1");
    }
    assert_eq!(load_session().map(|s| s.access_token), Some("at-1".into()));
    assert!(!refresher.is_running());

    // A later refresh is a new flight, with the new refresh token.
    let again = refresher.refresh(store).await.expect("second refresh");
    assert_eq!(calls.get(), 2);
    assert_eq!(seen.borrow()[1], "rt-1");
    assert_eq!(again.access_token, "at-2");
    store.clear();
}

/// `callers` refreshes at once against a token endpoint that fails with `error`: the endpoint
/// must get one request for them all, and each caller must be told `error`.
async fn refresh_failing_with(store: SessionStore, error: RefreshError, callers: usize) {
    let calls = Rc::new(Cell::new(0));
    let seen = Rc::new(std::cell::RefCell::new(Vec::new()));
    let answer = Err(error.clone());
    let refresher = Refresher::new(counting_transport(calls.clone(), seen, answer));
    let results = join_all((0..callers).map(|_| refresher.refresh(store))).await;
    assert_eq!(results.len(), callers);
    assert!(results.iter().all(|r| r.as_ref().err() == Some(&error)));
    assert_eq!(calls.get(), 1, "one refresh request for {callers} callers");
}

/// The failed refresh left the session in place, with the refresh token it had (`rt-0`):
/// `why` it must stay.
fn assert_session_kept(store: SessionStore, why: &str) {
    let kept = store.current().map(|s| s.refresh_token);
    assert_eq!(kept, Some("rt-0".into()), "{why}");
}

#[wasm_bindgen_test]
async fn a_refused_refresh_ends_the_session_for_everyone() {
    let store = signed_in_store();
    refresh_failing_with(store, RefreshError::Rejected, 5).await;
    assert_eq!(store.current(), None, "the session is cleared");
    assert_eq!(load_session(), None, "and gone from sessionStorage");
}

#[wasm_bindgen_test]
async fn an_unreachable_token_endpoint_keeps_the_session() {
    let store = signed_in_store();
    refresh_failing_with(store, RefreshError::Unavailable, 3).await;
    assert_session_kept(store, "kept for a later try");
    store.clear();
}

#[wasm_bindgen_test]
async fn a_lost_answer_is_never_presented_again_not_even_after_a_reload() {
    let store = signed_in_store();
    refresh_failing_with(store, RefreshError::Lost, 3).await;
    assert_session_kept(
        store,
        "kept: its access token may still work, and the tab is not signed out",
    );

    // Asked again, in this page or in the next one after a reload (a new store and refresher
    // read what sessionStorage kept): the maybe spent token does not leave again.
    let reloaded = SessionStore::load();
    let calls = Rc::new(Cell::new(0));
    let seen = Rc::new(std::cell::RefCell::new(Vec::new()));
    let refresher = Refresher::new(counting_transport(calls.clone(), seen, Ok(())));
    assert_eq!(refresher.refresh(reloaded).await, Err(RefreshError::Lost));
    assert_eq!(
        calls.get(),
        0,
        "the maybe spent refresh token was presented again"
    );

    // A new session (a sign-in again) is refreshed as usual.
    reloaded.set(Session::from_token_response(&token(5), now_ms(), "scim"));
    let fresh = refresher
        .refresh(reloaded)
        .await
        .expect("a refresh of the new session");
    assert_eq!(calls.get(), 1);
    assert_eq!(fresh.access_token, "at-1");
    reloaded.clear();
}

#[wasm_bindgen_test]
async fn a_busy_answer_leaves_the_token_to_present_again() {
    let store = signed_in_store();
    refresh_failing_with(store, RefreshError::Unavailable, 2).await;
    let again = Rc::new(Cell::new(0));
    let seen = Rc::new(std::cell::RefCell::new(Vec::new()));
    let refresher = Refresher::new(counting_transport(again.clone(), seen.clone(), Ok(())));
    refresher
        .refresh(store)
        .await
        .expect("presented again, and renewed");
    assert_eq!(*seen.borrow(), vec!["rt-0".to_string()]);
    store.clear();
}
