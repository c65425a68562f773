#![cfg(target_arch = "wasm32")]
//! The exclusive Web Lock that serialises runs changing admins across tabs: held until
//! dropped, waited for a bounded time, given up when the run stops, and a grant that comes
//! after a request was given up is let go at once (never held by nobody).

use std::cell::Cell;
use std::time::Duration;

use gifting_console::browser::{exclusive_lock, LockWait};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

const WAIT: Duration = Duration::from_millis(400);

async fn take(name: &str, wait: Duration, stop: bool) -> (LockWait, bool) {
    let waited = Cell::new(false);
    let got = exclusive_lock(name, wait, || stop, || waited.set(true)).await;
    (got, waited.get())
}

#[wasm_bindgen_test]
async fn a_held_lock_makes_the_next_request_wait_then_time_out() {
    let (first, waited) = take("test.lock.a", WAIT, false).await;
    let LockWait::Held(held) = first else {
        panic!("a free lock is granted");
    };
    assert!(!waited, "a free lock is granted without a wait");
    let (second, waited) = take("test.lock.a", WAIT, false).await;
    assert!(matches!(second, LockWait::TimedOut), "held elsewhere: timed out");
    assert!(waited, "the wait was announced");
    drop(held);
    let (third, _) = take("test.lock.a", WAIT, false).await;
    assert!(
        matches!(third, LockWait::Held(_)),
        "dropped: granted again, and the timed-out request did not keep it"
    );
}

#[wasm_bindgen_test]
async fn a_run_that_stops_while_waiting_gives_the_request_up() {
    let (first, _) = take("test.lock.b", WAIT, false).await;
    let LockWait::Held(held) = first else {
        panic!("a free lock is granted");
    };
    let (second, _) = take("test.lock.b", Duration::from_secs(60), true).await;
    assert!(matches!(second, LockWait::Stopped), "stopped: given up at once");
    drop(held);
    let (third, _) = take("test.lock.b", WAIT, false).await;
    assert!(matches!(third, LockWait::Held(_)), "free again after the release");
}
