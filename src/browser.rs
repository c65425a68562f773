//! Thin wrappers over the few browser APIs the console uses outside the view layer.

use std::time::Duration;

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The page's `sessionStorage`, if the browser grants it (private modes may refuse).
pub fn session_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok().flatten()
}

/// `N` bytes from `crypto.getRandomValues`, the browser's CSPRNG.
pub fn random_bytes<const N: usize>() -> Result<[u8; N], String> {
    let mut bytes = [0u8; N];
    let crypto = web_sys::window()
        .ok_or("no window")?
        .crypto()
        .map_err(|_| "this browser offers no crypto.getRandomValues")?;
    crypto
        .get_random_values_with_u8_array(&mut bytes)
        .map_err(|_| "crypto.getRandomValues failed")?;
    Ok(bytes)
}

/// `crypto.subtle[method](...args)`, a promise; `None` without WebCrypto (the browser offers it
/// only on HTTPS and loopback). Called through `Function.prototype.apply` rather than bindings
/// of its own: the glue the first load already carries does it.
pub fn subtle(method: &str, args: &js_sys::Array) -> Option<js_sys::Promise> {
    use wasm_bindgen::JsValue;
    let get = |target: &JsValue, name: &str| js_sys::Reflect::get(target, &name.into()).ok();
    let subtle = get(&get(&js_sys::global(), "crypto")?, "subtle")?;
    let call = get(&subtle, method)?;
    let apply: js_sys::Function = get(&call, "apply")?.unchecked_into();
    Some(apply.call2(&call, &subtle, args).ok()?.unchecked_into())
}

/// SHA-256 of `data` by WebCrypto.
pub async fn sha256(data: &[u8]) -> Result<Vec<u8>, String> {
    const NO_CRYPTO: &str = "this browser offers no WebCrypto here (it needs HTTPS)";
    let args = js_sys::Array::of2(&"SHA-256".into(), &js_sys::Uint8Array::from(data));
    let digest = JsFuture::from(subtle("digest", &args).ok_or(NO_CRYPTO)?)
        .await
        .map_err(|_| "WebCrypto could not hash the sign-in's verifier")?;
    Ok(js_sys::Uint8Array::new(&digest).to_vec())
}

/// The page's element with this id, as an HTML element (a slot the console mounts a part in).
pub fn element_by_id(id: &str) -> Option<web_sys::HtmlElement> {
    use wasm_bindgen::JsCast;
    web_sys::window()?
        .document()?
        .get_element_by_id(id)?
        .dyn_into::<web_sys::HtmlElement>()
        .ok()
}

/// Current time, Unix milliseconds.
pub fn now_ms() -> i64 {
    js_sys::Date::now() as i64
}

/// Names the browser tab (`document.title`).
pub fn set_document_title(title: &str) {
    if let Some(document) = web_sys::window().and_then(|w| w.document()) {
        document.set_title(title);
    }
}

/// Whether the tab is hidden (`document.visibilityState` is "hidden": another tab in front,
/// the window minimised); `false` when unknown.
pub fn page_hidden() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .is_some_and(|d| d.hidden())
}

/// Whether the window is wider than a phone (40rem at the default font size), where the CSS
/// lays screens out side by side; `true` when unknown.
pub fn wide_screen() -> bool {
    web_sys::window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|width| width.as_f64())
        .is_none_or(|width| width >= 640.0)
}

/// `navigator.onLine`; `true` when unknown.
pub fn navigator_online() -> bool {
    web_sys::window()
        .map(|w| w.navigator().on_line())
        .unwrap_or(true)
}

/// The page's origin, e.g. `http://127.0.0.1:8080`.
pub fn origin() -> String {
    web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default()
}

/// Path, query and fragment of the current address.
pub fn current_route() -> String {
    let Some(location) = web_sys::window().map(|w| w.location()) else {
        return "/".into();
    };
    format!(
        "{}{}{}",
        location.pathname().unwrap_or_else(|_| "/".into()),
        location.search().unwrap_or_default(),
        location.hash().unwrap_or_default()
    )
}

/// Replaces the current history entry's URL without navigating (used to drop `code`/`state`).
pub fn replace_url(url: &str) {
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(url));
    }
}

/// Adds a history entry for `url` without navigating (the router is not told).
pub fn push_url(url: &str) {
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(url));
    }
}

/// Leaves the console for another address (the authorization server).
pub fn go_to(url: &str) -> Result<(), String> {
    web_sys::window()
        .ok_or("no window")?
        .location()
        .assign(url)
        .map_err(|_| "the browser refused to open the sign-in page".to_string())
}

/// Opens `url` in a window named `name` (the browser copies this tab's `sessionStorage` into
/// it); `false` when the browser would not open one.
pub fn open_window(url: &str, name: &str) -> bool {
    web_sys::window()
        .and_then(|w| {
            w.open_with_url_and_target_and_features(url, name, "popup")
                .ok()
        })
        .flatten()
        .is_some()
}

/// Closes this window if this tab opened it under `name` (a window a script opened may close
/// itself).
pub fn close_if_opened_as(name: &str) {
    if let Some(window) = web_sys::window() {
        let opened = window
            .opener()
            .is_ok_and(|o| !o.is_null() && !o.is_undefined());
        if opened && window.name().is_ok_and(|n| n == name) {
            let _ = window.close();
        }
    }
}

/// Opens `url` in a new tab that gets a copy of this tab's `sessionStorage`, and no handle on
/// this tab.
pub fn open_tab(url: &str) {
    if let Some(Ok(Some(tab))) =
        web_sys::window().map(|w| w.open_with_url_and_target(url, "_blank"))
    {
        let _ = tab.set_opener(&wasm_bindgen::JsValue::NULL);
    }
}

/// Resolves after `duration` (a `setTimeout` promise).
pub async fn sleep(duration: Duration) {
    let ms = duration.as_millis().min(i32::MAX as u128) as i32;
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        // The global scope's `setTimeout`: a window's, or Node's where unit tests of timed work
        // run (a window's method alone would never resolve there).
        let global = js_sys::global();
        let set_timeout = js_sys::Reflect::get(&global, &"setTimeout".into());
        if let Ok(set_timeout) = set_timeout.and_then(|f| f.dyn_into::<js_sys::Function>()) {
            let _ = set_timeout.call2(&global, &resolve, &ms.into());
        }
    });
    let _ = JsFuture::from(promise).await;
}

/// Runs `f` once the next frame has been painted (a timeout set in that frame's animation
/// callback), so that work started by a change never holds up the paint of the change itself.
pub fn after_paint(f: impl FnOnce() + 'static) {
    leptos::prelude::request_animation_frame(move || {
        leptos::prelude::set_timeout(f, Duration::ZERO);
    });
}

/// A `setTimeout` that is cleared when dropped.
pub struct Timer {
    /// Whatever `setTimeout` returned, handed back to `clearTimeout` as it is: a number in
    /// browsers, an object in Node and under some test clocks (read as a number, it would clear
    /// nothing, and the dropped callback would still be called).
    id: wasm_bindgen::JsValue,
    _callback: wasm_bindgen::closure::Closure<dyn FnMut()>,
}

/// The global function `name` (`setTimeout`, `clearTimeout`).
fn global_function(name: &str) -> Option<js_sys::Function> {
    js_sys::Reflect::get(&js_sys::global(), &name.into())
        .ok()?
        .dyn_into()
        .ok()
}

impl Timer {
    /// Calls `f` once after `ms` milliseconds unless the timer is dropped first.
    pub fn once(ms: u32, f: impl FnOnce() + 'static) -> Self {
        let mut f = Some(f);
        let callback = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(move || {
            if let Some(f) = f.take() {
                f();
            }
        });
        let id = global_function("setTimeout")
            .and_then(|set| {
                set.call2(
                    &wasm_bindgen::JsValue::UNDEFINED,
                    callback.as_ref(),
                    &ms.min(i32::MAX as u32).into(),
                )
                .ok()
            })
            .unwrap_or(wasm_bindgen::JsValue::UNDEFINED);
        Self {
            id,
            _callback: callback,
        }
    }
}

impl Drop for Timer {
    fn drop(&mut self) {
        if let (false, Some(clear)) = (self.id.is_undefined(), global_function("clearTimeout")) {
            let _ = clear.call1(&wasm_bindgen::JsValue::UNDEFINED, &self.id);
        }
    }
}

/// An exclusive Web Lock of this origin, held until dropped.
pub struct HeldLock {
    /// Dropping it settles the promise the lock's callback returned, which lets the lock go.
    _release: futures::channel::oneshot::Sender<()>,
}

/// How a request for an exclusive Web Lock ended.
pub enum LockWait {
    Held(HeldLock),
    /// The browser has no Web Locks: nothing is serialised (callers still check what they
    /// guard).
    Unsupported,
    /// Not granted within the wait.
    TimedOut,
    /// `stopped()` said so while waiting.
    Stopped,
}

/// A lock request under way: the release it hands over when granted (kept here until then;
/// `None` once this side gave up), and whether it was granted.
struct LockRequest {
    release: std::rc::Rc<std::cell::RefCell<Option<futures::channel::oneshot::Sender<()>>>>,
    granted: std::rc::Rc<std::cell::Cell<bool>>,
    controller: web_sys::AbortController,
}

/// `navigator.locks.request(name, {signal}, callback)`; `None` without Web Locks.
fn request_lock(name: &str) -> Option<LockRequest> {
    use std::cell::{Cell, RefCell};
    use std::rc::Rc;
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsValue;

    let get = |target: &JsValue, name: &str| js_sys::Reflect::get(target, &name.into()).ok();
    let locks = web_sys::window()
        .and_then(|w| get(&w.navigator().into(), "locks"))
        .filter(|l| !l.is_undefined() && !l.is_null())?;
    let request: js_sys::Function = get(&locks, "request")?.dyn_into().ok()?;
    let controller = web_sys::AbortController::new().ok()?;
    let options = js_sys::Object::new();
    js_sys::Reflect::set(&options, &"signal".into(), &controller.signal()).ok()?;
    let (release, released) = futures::channel::oneshot::channel::<()>();
    let asked = LockRequest {
        release: Rc::new(RefCell::new(Some(release))),
        granted: Rc::new(Cell::new(false)),
        controller,
    };
    let (slot, granted) = (asked.release.clone(), asked.granted.clone());
    let callback = Closure::once_into_js(move |_lock: JsValue| -> js_sys::Promise {
        let given_up = slot.borrow().is_none();
        granted.set(!given_up);
        wasm_bindgen_futures::future_to_promise(async move {
            if !given_up {
                let _ = released.await;
            }
            Ok(JsValue::UNDEFINED)
        })
    });
    let promise = request.call3(&locks, &JsValue::from_str(name), &options, &callback);
    // An aborted request rejects: caught here, so it is no uncaught error of the page.
    let promise: js_sys::Promise = promise.ok()?.dyn_into().ok()?;
    let ignore = Closure::<dyn FnMut(JsValue)>::new(|_: JsValue| {});
    let _ = promise.catch(&ignore);
    // Lives as long as the promise may settle: one small closure per request.
    ignore.forget();
    Some(asked)
}

/// Requests the exclusive Web Lock `name`, waiting at most `wait`; `waiting()` is called once
/// if it is not granted within a moment, and `stopped()` is asked while waiting. A request given up is
/// aborted, and a grant that comes after it is let go at once.
pub async fn exclusive_lock(
    name: &str,
    wait: Duration,
    stopped: impl Fn() -> bool,
    waiting: impl FnOnce(),
) -> LockWait {
    let Some(asked) = request_lock(name) else {
        return LockWait::Unsupported;
    };
    let step = Duration::from_millis(50);
    // A free lock is granted within a few tasks: only a longer wait is announced.
    let announce_after = Duration::from_millis(250);
    let started = js_sys::Date::now();
    let mut waiting = Some(waiting);
    loop {
        sleep(step).await;
        if asked.granted.get() {
            return match asked.release.borrow_mut().take() {
                Some(release) => LockWait::Held(HeldLock { _release: release }),
                None => LockWait::Stopped,
            };
        }
        let waited = Duration::from_millis((js_sys::Date::now() - started).max(0.0) as u64);
        let end = if stopped() {
            Some(LockWait::Stopped)
        } else if waited >= wait {
            Some(LockWait::TimedOut)
        } else {
            None
        };
        if let Some(end) = end {
            asked.release.borrow_mut().take();
            asked.controller.abort();
            return end;
        }
        if waited >= announce_after {
            if let Some(waiting) = waiting.take() {
                waiting();
            }
        }
    }
}
