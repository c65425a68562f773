#![cfg(target_arch = "wasm32")]
//! The request layer's retry policy, run in the browser.

use gifting_console::http::retry::{
    is_retryable, parse_retry_after, Decision, Outcome, RequestKind, RetryPolicy, MAX_TRIES,
};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn reads_retry_transient_failures_writes_never() {
    // (outcome, a read retries it); a write never retries anything.
    let table = [
        (Outcome::Network, true),
        (Outcome::Status(429), true),
        (Outcome::Status(500), true),
        (Outcome::Status(502), true),
        (Outcome::Status(503), true),
        (Outcome::Timeout, false),
        (Outcome::Status(400), false),
        (Outcome::Status(401), false),
        (Outcome::Status(403), false),
        (Outcome::Status(404), false),
        (Outcome::Status(409), false),
    ];
    for (outcome, read_retries) in table {
        assert_eq!(
            is_retryable(RequestKind::Read, outcome),
            read_retries,
            "{outcome:?}"
        );
        assert!(!is_retryable(RequestKind::Write, outcome), "{outcome:?}");
    }
}

#[wasm_bindgen_test]
fn three_tries_at_most_with_growing_jittered_delays() {
    let policy = RetryPolicy::default();
    assert_eq!(MAX_TRIES, 3);
    let mut delays = Vec::new();
    for tries_done in 1.. {
        let jitter = js_sys::Math::random();
        match policy.decide(
            RequestKind::Read,
            tries_done,
            Outcome::Status(500),
            None,
            jitter,
        ) {
            Decision::Retry { delay_ms, busy } => {
                assert!(!busy);
                delays.push(delay_ms);
            }
            Decision::GiveUp => break,
        }
    }
    assert_eq!(delays.len(), 2, "two retries after the first try");
    // Equal jitter: each delay within [step/2, step], steps 500 then 1000 ms.
    assert!((250..=500).contains(&delays[0]), "{delays:?}");
    assert!((500..=1000).contains(&delays[1]), "{delays:?}");
}

#[wasm_bindgen_test]
fn retry_after_sets_the_wait_and_flags_busy() {
    let policy = RetryPolicy::default();
    let now = js_sys::Date::now() as i64;
    let after = parse_retry_after("3", now);
    assert_eq!(after, Some(3_000));
    assert_eq!(
        policy.decide(RequestKind::Read, 1, Outcome::Status(503), after, 0.5),
        Decision::Retry {
            delay_ms: 3_000,
            busy: true
        }
    );
    // Too long to wait silently: the page is told instead.
    assert_eq!(
        policy.decide(
            RequestKind::Read,
            1,
            Outcome::Status(429),
            parse_retry_after("120", now),
            0.5
        ),
        Decision::GiveUp
    );
    // An HTTP-date (IMF-fixdate) five seconds ahead.
    let date = chrono::DateTime::from_timestamp_millis(now + 5_000)
        .unwrap()
        .format("%a, %d %b %Y %H:%M:%S GMT")
        .to_string();
    let wait = parse_retry_after(&date, now).expect("date");
    assert!((4_000..=5_000).contains(&wait), "{wait}");
}
