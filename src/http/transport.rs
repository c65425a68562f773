//! One HTTP exchange: send, read the whole body, with a timeout and the screen's cancel scope.
//! Retries, tokens and error mapping live above this, in [`crate::api`].

use std::cell::Cell;
use std::rc::Rc;

use gloo_net::http::{Headers, Method, RequestBuilder};

use super::cancel::CancelScope;
use crate::browser::Timer;

/// An answer with its whole body read.
pub(crate) struct RawResponse {
    pub status: u16,
    pub headers: Headers,
    pub body: String,
}

/// Why no answer came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SendError {
    Network,
    Timeout,
    Cancelled,
}

/// A request about to be sent.
pub(crate) struct Outgoing<'a> {
    pub method: Method,
    pub url: &'a str,
    pub headers: Vec<(&'static str, String)>,
    pub body: Option<String>,
}

/// A platform played by a unit test: the answer to a method and URL (the status and body).
#[cfg(test)]
pub(crate) type FakePlatform = std::rc::Rc<dyn Fn(&Method, &str) -> (u16, String)>;

#[cfg(test)]
thread_local! {
    /// Answers every request instead of the network while set ([`fake_platform`]).
    static FAKE: std::cell::RefCell<Option<FakePlatform>> = const { std::cell::RefCell::new(None) };
}

/// Answers every request of this thread with `platform` (none: the network again).
#[cfg(test)]
pub(crate) fn fake_platform(platform: Option<FakePlatform>) {
    FAKE.with(|f| *f.borrow_mut() = platform);
}

#[cfg(test)]
thread_local! {
    /// The body of the request the fake platform is answering, while it answers.
    static FAKE_BODY: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// The body of the request being answered: for a fake platform that keeps what was written.
#[cfg(test)]
pub(crate) fn fake_request_body() -> Option<String> {
    FAKE_BODY.with(|b| b.borrow().clone())
}

#[cfg(test)]
thread_local! {
    static FAKE_TAKEN: Cell<bool> = const { Cell::new(false) };
    /// When the test that holds the platform took it.
    static FAKE_TAKEN_AT: Cell<f64> = const { Cell::new(0.0) };
}

/// A test's hold on the fake platform: async tests may run interleaved, and the platform is
/// the thread's. Dropped, the platform is gone and the next test may take it.
#[cfg(test)]
pub(crate) struct FakeTurn;

#[cfg(test)]
impl Drop for FakeTurn {
    fn drop(&mut self) {
        fake_platform(None);
        FAKE_TAKEN.with(|t| t.set(false));
    }
}

/// Waits until no other test plays the platform, then holds it. A test that fails while it
/// holds it never lets go (a panic in wasm unwinds nothing): once it has held it for a minute,
/// far longer than any test takes, every waiting test fails at once, naming why, rather than
/// the whole run waiting for ever.
#[cfg(test)]
pub(crate) async fn take_fake_platform() -> FakeTurn {
    while FAKE_TAKEN.with(Cell::get) {
        let held_ms = js_sys::Date::now() - FAKE_TAKEN_AT.with(Cell::get);
        assert!(
            held_ms < 60_000.0,
            "the fake platform was never let go: a test that held it failed"
        );
        crate::browser::sleep(std::time::Duration::from_millis(5)).await;
    }
    FAKE_TAKEN.with(|t| t.set(true));
    FAKE_TAKEN_AT.with(|t| t.set(js_sys::Date::now()));
    FakeTurn
}

/// Sends `request` once; aborted after `timeout_ms` or when `scope` is cancelled.
pub(crate) async fn send_once(
    request: Outgoing<'_>,
    scope: &CancelScope,
    timeout_ms: u32,
) -> Result<RawResponse, SendError> {
    let flight = scope.enter().ok_or(SendError::Cancelled)?;
    #[cfg(test)]
    if let Some(platform) = FAKE.with(|f| f.borrow().clone()) {
        drop(flight);
        FAKE_BODY.with(|b| *b.borrow_mut() = request.body.clone());
        let (status, body) = platform(&request.method, request.url);
        let headers = Headers::new();
        if status == 429 {
            headers.set("Retry-After", "1");
        }
        return Ok(RawResponse {
            status,
            headers,
            body,
        });
    }
    let timed_out = Rc::new(Cell::new(false));
    let _timer = {
        let timed_out = timed_out.clone();
        let controller = flight.controller.clone();
        Timer::once(timeout_ms, move || {
            timed_out.set(true);
            controller.abort();
        })
    };

    let signal = flight.controller.signal();
    // Nothing a session reads may stay in the browser's HTTP cache after it ends: the platform
    // sends no caching headers, and a shared machine's next user could read the cache files.
    let mut builder = RequestBuilder::new(request.url)
        .method(request.method)
        .cache(web_sys::RequestCache::NoStore)
        .abort_signal(Some(&signal));
    for (name, value) in &request.headers {
        builder = builder.header(name, value);
    }
    let built = match request.body {
        Some(body) => builder.body(body),
        None => builder.build(),
    };
    let result = match built {
        Ok(req) => match req.send().await {
            Ok(response) => response.text().await.map(|body| RawResponse {
                status: response.status(),
                headers: response.headers(),
                body,
            }),
            Err(e) => Err(e),
        },
        Err(e) => Err(e),
    };
    result.map_err(|_| {
        if timed_out.get() {
            SendError::Timeout
        } else if scope.is_cancelled() {
            SendError::Cancelled
        } else {
            SendError::Network
        }
    })
}

/// Whether anything answers at `url` within `timeout_ms`. A `no-cors` HEAD without
/// credentials: any HTTP answer (even an error status, opaque to the page) proves the platform
/// is reachable again, and nothing about it is read or logged.
pub(crate) async fn probe(url: &str, timeout_ms: u32) -> bool {
    let scope = CancelScope::new();
    let Some(flight) = scope.enter() else {
        return false;
    };
    let _timer = {
        let controller = flight.controller.clone();
        Timer::once(timeout_ms, move || controller.abort())
    };
    let signal = flight.controller.signal();
    let request = RequestBuilder::new(url)
        .method(Method::HEAD)
        .mode(web_sys::RequestMode::NoCors)
        .cache(web_sys::RequestCache::NoStore)
        .abort_signal(Some(&signal))
        .build();
    match request {
        Ok(request) => request.send().await.is_ok(),
        Err(_) => false,
    }
}
