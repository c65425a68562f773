#![cfg(target_arch = "wasm32")]
//! The refresh lock's wait is bounded: anything that holds `gifting-console.refresh` and never
//! lets go (a page of the origin that is not the console, a tab stuck in a debugger) delays a
//! refresh or a sign-out only that long, and the work given up on never runs later.

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use gifting_console::auth::tabs::with_refresh_lock_within;
use gifting_console::browser::now_ms;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// Takes the refresh lock as another holder would, and holds it until the function it resolves
/// to is called.
async fn hold_the_lock() -> js_sys::Function {
    let take = js_sys::Function::new_no_args(
        "return new Promise((held) => navigator.locks.request('gifting-console.refresh', \
         () => new Promise((release) => held(release))));",
    );
    let promise: js_sys::Promise = take.call0(&JsValue::NULL).expect("call").into();
    JsFuture::from(promise).await.expect("held").into()
}

#[wasm_bindgen_test]
async fn a_lock_held_for_ever_is_given_up_on_after_the_bound() {
    let release = hold_the_lock().await;
    let ran = Rc::new(Cell::new(false));
    let started = now_ms();
    let work_ran = ran.clone();
    let outcome = with_refresh_lock_within(Duration::from_millis(300), async move {
        work_ran.set(true);
    })
    .await;
    let waited = now_ms() - started;
    assert_eq!(outcome, None, "the lock was never had");
    assert!(!ran.get(), "the work did not run without the lock");
    assert!(waited >= 300, "gave up after {waited} ms, before the bound");
    assert!(waited < 5_000, "waited {waited} ms, far past the bound");

    // Once the holder lets go, the lock is had again, and the work given up on stays undone.
    release.call0(&JsValue::NULL).expect("release");
    let next = with_refresh_lock_within(Duration::from_millis(5_000), async { 7 }).await;
    assert_eq!(next, Some(7));
    assert!(!ran.get(), "the work given up on ran after all");
}

#[wasm_bindgen_test]
async fn a_free_lock_runs_the_work_under_it() {
    let outcome = with_refresh_lock_within(Duration::from_millis(300), async {
        let query = js_sys::Function::new_no_args(
            "return navigator.locks.query().then((s) => s.held.some((l) => l.name === 'gifting-console.refresh'));",
        );
        let promise: js_sys::Promise = query.call0(&JsValue::NULL).expect("query").into();
        JsFuture::from(promise).await.expect("query").as_bool()
    })
    .await;
    assert_eq!(outcome, Some(Some(true)), "the work ran holding the lock");
}
