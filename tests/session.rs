#![cfg(target_arch = "wasm32")]
//! The session: expiry math and `sessionStorage` round trips.

use gifting_api::oauth::TokenResponse;
use gifting_console::auth::session::{
    clear_session, expiry_ms, load_session, refresh_ahead_ms, save_pending, save_session,
    take_pending, PendingSignIn, Session, SessionStore, PENDING_KEY, SESSION_KEY,
};
use gifting_console::browser::session_storage;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn token(created_at: i64, expires_in: &str, scope: &str) -> TokenResponse {
    serde_json::from_str(&format!(
        r#"{{"access_token":"at-1","token_type":"bearer","expires_in":{expires_in},
            "refresh_token":"rt-1","scope":"{scope}","created_at":{created_at}}}"#
    ))
    .expect("token response")
}

#[wasm_bindgen_test]
fn expiry_counts_from_created_at() {
    let created = 1_700_000_000;
    let now = created * 1000 + 1_500; // received 1.5 s after issue
    assert_eq!(expiry_ms(created, 7200, now), (created + 7200) * 1000);
    // expires_in may come as a string.
    let session =
        Session::from_token_response(&token(created, "\"7200\"", "scim marketplace"), now, "x");
    assert_eq!(session.expires_at_ms, (created + 7200) * 1000);
    assert_eq!(session.refresh_at_ms, (created + 7200) * 1000 - 60_000);
    assert!(!session.needs_refresh(now));
    assert!(session.needs_refresh(session.refresh_at_ms));
    assert!(!session.is_expired(session.expires_at_ms - 1));
    assert!(session.is_expired(session.expires_at_ms));
}

#[wasm_bindgen_test]
fn clocks_that_disagree_fall_back_to_the_time_of_receipt() {
    let now = 1_700_000_000_000;
    // created_at in our future: the local clock is behind.
    assert_eq!(expiry_ms(1_700_000_100, 7200, now), now + 7_200_000);
    // created_at so old the token would be dead on arrival: the local clock is ahead.
    assert_eq!(expiry_ms(1_600_000_000, 7200, now), now + 7_200_000);
}

#[wasm_bindgen_test]
fn short_lived_tokens_refresh_a_quarter_ahead_not_a_minute() {
    assert_eq!(refresh_ahead_ms(7200), 60_000);
    assert_eq!(refresh_ahead_ms(5), 1_250);
    let now = 1_700_000_000_000;
    let session = Session::from_token_response(&token(1_700_000_000, "5", "scim"), now, "");
    assert_eq!(session.expires_at_ms, now + 5_000);
    assert_eq!(session.refresh_at_ms, now + 3_750);
    assert!(!session.needs_refresh(now + 3_000));
}

#[wasm_bindgen_test]
fn scope_comes_from_the_answer_or_the_request() {
    let now = 1_700_000_000_000;
    let granted =
        Session::from_token_response(&token(1_700_000_000, "60", "scim"), now, "scim marketplace");
    assert!(granted.has_scope("scim"));
    assert!(!granted.has_scope("marketplace"));
    assert!(!granted.has_scope("sci"));
    let omitted =
        Session::from_token_response(&token(1_700_000_000, "60", ""), now, "scim marketplace");
    assert!(omitted.has_scope("marketplace"));
}

#[wasm_bindgen_test]
fn sessions_round_trip_through_session_storage_only() {
    clear_session();
    assert_eq!(load_session(), None);
    let session =
        Session::from_token_response(&token(1_700_000_000, "7200", "scim"), 1_700_000_000_000, "");
    save_session(&session);
    assert_eq!(load_session(), Some(session.clone()));
    let raw = session_storage()
        .unwrap()
        .get_item(SESSION_KEY)
        .unwrap()
        .expect("stored");
    assert!(raw.contains("at-1") && raw.contains("rt-1"));
    // The only place the console names the persistent store: to prove nothing of ours is in it.
    let local = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    for i in 0..local.length().unwrap() {
        let key = local.key(i).unwrap().unwrap_or_default();
        let value = local.get_item(&key).unwrap().unwrap_or_default();
        assert!(
            !value.contains("at-1"),
            "a token leaked into localStorage under {key}"
        );
    }
    // Debug output never shows a token.
    assert!(!format!("{session:?}").contains("at-1"));
    clear_session();
    assert_eq!(load_session(), None);
}

#[wasm_bindgen_test]
fn unreadable_storage_is_discarded_not_trusted() {
    let storage = session_storage().unwrap();
    storage.set_item(SESSION_KEY, "{not json").unwrap();
    assert_eq!(load_session(), None);
    assert_eq!(storage.get_item(SESSION_KEY).unwrap(), None);
}

#[wasm_bindgen_test]
fn a_pending_sign_in_can_be_taken_once() {
    let pending = PendingSignIn {
        state: "s".into(),
        verifier: "v".into(),
        return_to: "/teams".into(),
        replaces: Some("rt-spent".into()),
    };
    save_pending(&pending);
    assert!(session_storage()
        .unwrap()
        .get_item(PENDING_KEY)
        .unwrap()
        .is_some());
    assert_eq!(take_pending(), Some(pending));
    assert_eq!(take_pending(), None);
}

#[wasm_bindgen_test]
fn the_store_keeps_storage_and_signal_in_step() {
    clear_session();
    let store = SessionStore::load();
    assert_eq!(store.current(), None);
    let session =
        Session::from_token_response(&token(1_700_000_000, "7200", "scim"), 1_700_000_000_000, "");
    store.set(session.clone());
    assert_eq!(store.current(), Some(session.clone()));
    assert_eq!(load_session(), Some(session.clone()));
    // A reload starts from storage.
    assert_eq!(SessionStore::load().current(), Some(session));
    store.clear();
    assert_eq!(store.current(), None);
    assert_eq!(load_session(), None);
}
