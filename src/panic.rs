//! What the user sees if the console panics.
//!
//! A panic in wasm ends the program (the release build aborts), so no component can recover.
//! The hook logs the panic to the browser console, then replaces the half-rendered page with a
//! plain explanation and a reload link that works without the program.

/// Installs the panic hook. Call first thing in `main`.
use crate::i18n::{t_now, M};

pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_crash_screen(&info.to_string());
    }));
}

fn show_crash_screen(message: &str) {
    let Some(body) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
    else {
        return;
    };
    render_crash_screen(&body, message);
}

/// Replaces everything in `root` with the crash screen for `message`. Plain DOM calls, no
/// framework: after a panic the program cannot be trusted to render. The message goes in as
/// text only, since it may quote data from the platform.
pub fn render_crash_screen(root: &web_sys::Element, message: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Some(document) = window.document() else {
        return;
    };
    while let Some(child) = root.first_child() {
        let _ = root.remove_child(&child);
    }
    let element = |tag: &str, class: &str, text: &str| {
        let el = document.create_element(tag).ok()?;
        if !class.is_empty() {
            el.set_class_name(class);
        }
        el.set_text_content(Some(text));
        Some(el)
    };
    let Some(main) = element("main", "crash", "") else {
        return;
    };
    main.set_id("main");
    let _ = main.set_attribute("role", "alert");
    let _ = main.set_attribute("data-testid", "crash");
    let reload_href = window.location().href().unwrap_or_else(|_| "/".into());
    let parts = [
        element("h1", "", t_now(M::AppCrashed)),
        element("p", "", t_now(M::AppCrashedExplain)),
        element("pre", "crash__detail", message),
        element("a", "button button--primary", t_now(M::AppReload)).inspect(|a| {
            let _ = a.set_attribute("href", &reload_href);
        }),
    ];
    for part in parts.into_iter().flatten() {
        let _ = main.append_child(&part);
    }
    let _ = root.append_child(&main);
}
