#![cfg(target_arch = "wasm32")]
//! The shared page-state components and the config-error screen, rendered in a real DOM.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use futures::channel::oneshot;
use gifting_console::api::{ApiError, NetStatus};
use gifting_console::app::Root;
use gifting_console::browser::{now_ms, sleep};
use gifting_console::components::format::date_time;
use gifting_console::components::{Badge, ErrorPanel, Loaded, Tone};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::HtmlElement;

wasm_bindgen_test_configure!(run_in_browser);

fn fresh_container() -> HtmlElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let div = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&div).unwrap();
    div.unchecked_into()
}

fn text(el: &HtmlElement) -> String {
    el.text_content().unwrap_or_default()
}

/// Waits until `ready` holds, asking again every 10 ms up to a 5 s deadline (the one polling
/// interval of these tests: each waits for what it checks, never for a fixed time).
async fn until(what: &str, ready: impl Fn() -> bool) {
    let deadline = now_ms() + 5_000;
    while !ready() {
        assert!(now_ms() < deadline, "still not so after 5 s: {what}");
        sleep(Duration::from_millis(10)).await;
    }
}

/// Waits (up to 5 s) until `selector` matches inside `root`.
async fn wait_for(root: &HtmlElement, selector: &str) -> web_sys::Element {
    let deadline = now_ms() + 5_000;
    loop {
        if let Ok(Some(found)) = root.query_selector(selector) {
            return found;
        }
        assert!(
            now_ms() < deadline,
            "{selector} never appeared; the container holds: {}",
            text(root)
        );
        sleep(Duration::from_millis(10)).await;
    }
}

/// A gate an answer waits at until the test opens it: `(open, wait)`; `wait` yields the
/// receiver once (later callers find none and go on at once).
fn gate() -> (
    oneshot::Sender<()>,
    impl Fn() -> Option<oneshot::Receiver<()>>,
) {
    let (open, shut) = oneshot::channel::<()>();
    let shut = Rc::new(RefCell::new(Some(shut)));
    (open, move || shut.borrow_mut().take())
}

fn click(root: &HtmlElement, selector: &str) {
    let button: HtmlElement = root
        .query_selector(selector)
        .unwrap()
        .expect(selector)
        .unchecked_into();
    button.click();
}

#[wasm_bindgen_test]
async fn a_config_that_cannot_be_loaded_gets_an_explaining_screen() {
    // The test server has no /config.json: the console must say so, not stay blank.
    let root = fresh_container();
    let _app = leptos::mount::mount_to(root.clone(), Root);
    let screen = wait_for(&root, "[data-testid=config-error]").await;
    assert_eq!(screen.get_attribute("role").as_deref(), Some("alert"));
    let message = screen.text_content().unwrap_or_default();
    assert!(message.contains("/config.json"), "{message}");
    assert!(message.contains("could not be loaded"), "{message}");
    assert!(text(&root).contains("Gifting Console"));
}

#[wasm_bindgen_test]
async fn error_panel_says_what_happened_and_try_again_calls_back() {
    let root = fresh_container();
    let clicks = RwSignal::new(0);
    let error = ApiError::NotFound {
        message: "Touch not found".into(),
    };
    let _app = leptos::mount::mount_to(root.clone(), move || {
        view! { <ErrorPanel error on_retry=Callback::new(move |()| clicks.update(|n| *n += 1)) /> }
    });
    leptos::task::tick().await;
    let panel = wait_for(&root, "[role=alert]").await;
    assert!(panel
        .text_content()
        .unwrap_or_default()
        .contains("Touch not found"));
    click(&root, "button");
    assert_eq!(clicks.get_untracked(), 1);
    assert!(text(&root).contains("Try again"));
}

#[wasm_bindgen_test]
async fn decode_errors_name_the_endpoint() {
    let root = fresh_container();
    let error = ApiError::Decode {
        endpoint: "GET /api/v3/send".into(),
        detail: "missing field `sends`".into(),
    };
    let _app = leptos::mount::mount_to(root.clone(), move || {
        view! { <ErrorPanel error on_retry=Callback::new(|()| {}) /> }
    });
    leptos::task::tick().await;
    let message = text(&root);
    assert!(
        message.contains("The platform sent data the console could not read"),
        "{message}"
    );
    assert!(message.contains("GET /api/v3/send"), "{message}");
}

#[wasm_bindgen_test]
async fn loaded_shows_loading_then_data_and_retries_after_an_error() {
    let root = fresh_container();
    let attempts = StoredValue::new(0u32);
    // The first answer waits until the test has seen "Loading…".
    let (open, first_answer) = gate();
    let _app = leptos::mount::mount_to(root.clone(), move || {
        let resource = LocalResource::new(move || {
            attempts.update_value(|n| *n += 1);
            let attempt = attempts.get_value();
            let held = first_answer();
            async move {
                if let Some(held) = held {
                    let _ = held.await;
                }
                if attempt == 1 {
                    Err(ApiError::Server {
                        status: 502,
                        message: String::new(),
                    })
                } else {
                    Ok(format!("answer {attempt}"))
                }
            }
        });
        view! {
            <Loaded resource let:answer>
                <p class="answer">{answer}</p>
            </Loaded>
        }
    });
    leptos::task::tick().await;
    assert!(text(&root).contains("Loading…"), "{}", text(&root));
    let _ = open.send(());
    wait_for(&root, "[role=alert]").await;
    assert!(text(&root).contains("HTTP 502"), "{}", text(&root));
    click(&root, "button");
    let answer = wait_for(&root, ".answer").await;
    assert_eq!(answer.text_content().as_deref(), Some("answer 2"));
    assert!(
        root.query_selector("[role=alert]").unwrap().is_none(),
        "the error is gone"
    );
}

/// WebKit under a POSIX "C" locale (WebKitGTK here, with no LANG) reports `navigator.language`
/// as "C", which `Intl` refuses with a RangeError. Thrown while a `<Transition>`'s rows were being
/// built, that JS exception unwound the wasm stack past tachys's `RefCell` borrow of the
/// `Suspend`'s state (an exception runs no Rust destructor), so the boundary's next mount
/// panicked "RefCell already borrowed" on every screen with a date (Teams, Campaigns, Sends).
#[wasm_bindgen_test]
async fn dates_inside_a_transition_survive_a_language_intl_refuses() {
    let navigator = web_sys::window().unwrap().navigator();
    let descriptor = js_sys::Object::new();
    js_sys::Reflect::set(&descriptor, &"value".into(), &"C".into()).unwrap();
    js_sys::Reflect::set(&descriptor, &"configurable".into(), &true.into()).unwrap();
    js_sys::Object::define_property(&navigator, &"language".into(), &descriptor);
    let root = fresh_container();
    // The answer comes after the boundary has shown its fallback, as from the platform.
    let (open, answer) = gate();
    let _app = leptos::mount::mount_to(root.clone(), move || {
        let resource = LocalResource::new(move || {
            let held = answer();
            async move {
                if let Some(held) = held {
                    let _ = held.await;
                }
                Ok::<_, ApiError>("2026-03-01T15:05:00Z".to_owned())
            }
        });
        view! {
            <Loaded resource let:at>
                <p class="when">{date_time(&at)}</p>
            </Loaded>
        }
    });
    leptos::task::tick().await;
    let _ = open.send(());
    let shown = wait_for(&root, ".when")
        .await
        .text_content()
        .unwrap_or_default();
    js_sys::Reflect::delete_property(&navigator, &"language".into()).unwrap();
    assert!(
        shown.contains("2026"),
        "a date in the browser's default locale: {shown}"
    );
    assert!(
        !shown.contains('T'),
        "formatted, not the platform's text: {shown}"
    );
}

#[wasm_bindgen_test]
async fn badges_carry_their_text() {
    let root = fresh_container();
    let _app = leptos::mount::mount_to(
        root.clone(),
        || view! { <Badge text="Delivered" tone=Tone::Success /> },
    );
    leptos::task::tick().await;
    let badge = wait_for(&root, ".badge--success").await;
    assert_eq!(badge.text_content().as_deref(), Some("Delivered"));
}

#[wasm_bindgen_test]
async fn an_offline_error_retries_by_itself_when_the_browser_is_back_online() {
    let root = fresh_container();
    let retries = RwSignal::new(0);
    let _app = leptos::mount::mount_to(root.clone(), move || {
        let net = NetStatus::new();
        net.listen_to_browser();
        provide_context(net);
        view! {
            <ErrorPanel
                error=ApiError::Offline
                on_retry=Callback::new(move |()| retries.update(|n| *n += 1))
            />
        }
    });
    leptos::task::tick().await;
    assert!(text(&root).contains("You are offline"), "{}", text(&root));
    // The panel is shown and its effects have run: nothing retried on its own.
    leptos::task::tick().await;
    assert_eq!(
        retries.get_untracked(),
        0,
        "no retry before the connection is back"
    );
    let online = web_sys::Event::new("online").unwrap();
    web_sys::window().unwrap().dispatch_event(&online).unwrap();
    until("a retry once the browser is back online", || {
        retries.get_untracked() > 0
    })
    .await;
    leptos::task::tick().await;
    assert_eq!(
        retries.get_untracked(),
        1,
        "one retry when the browser is back online"
    );
}

#[wasm_bindgen_test]
fn the_crash_screen_explains_offers_a_reload_and_shows_the_message_as_text() {
    let root = fresh_container();
    root.set_inner_html("<p>half-rendered screen</p>");
    let message = "panicked at src/x.rs:1:1: bad row <img src=x onerror=alert(1)>";
    gifting_console::panic::render_crash_screen(&root, message);

    assert!(!text(&root).contains("half-rendered"), "{}", text(&root));
    let main = root
        .query_selector("main#main[role=alert]")
        .unwrap()
        .expect("an alert main");
    assert_eq!(main.get_attribute("data-testid").as_deref(), Some("crash"));
    assert!(text(&root).contains("The console stopped"));
    let detail = root
        .query_selector("pre.crash__detail")
        .unwrap()
        .expect("the message");
    assert_eq!(detail.text_content().as_deref(), Some(message));
    assert!(
        root.query_selector("img").unwrap().is_none(),
        "the message is text, not markup"
    );
    let reload = root.query_selector("a").unwrap().expect("a reload link");
    assert_eq!(reload.text_content().as_deref(), Some("Reload the console"));
    let here = web_sys::window().unwrap().location().href().unwrap();
    assert_eq!(reload.get_attribute("href"), Some(here));
}
