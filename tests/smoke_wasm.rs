#![cfg(target_arch = "wasm32")]
//! Proves the wasm test runner really drives a browser: the DOM must exist
//! and behave (this fails under Node or with a broken webdriver setup).

use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn runs_in_a_browser_with_a_live_document() {
    let window = web_sys::window().expect("a browser window");
    let document = window.document().expect("the window has a document");
    let body = document.body().expect("the document has a body");

    let probe = document.create_element("p").expect("create <p>");
    probe.set_id("smoke-probe");
    probe.set_text_content(Some("wasm sees the DOM"));
    body.append_child(&probe).expect("append to <body>");

    let found = document
        .get_element_by_id("smoke-probe")
        .expect("the appended element is found by id");
    assert_eq!(found.text_content().as_deref(), Some("wasm sees the DOM"));

    found.remove();
    assert!(document.get_element_by_id("smoke-probe").is_none());
}
