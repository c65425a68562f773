//! Asks before an admin leaves a form with unsaved changes: a link inside the console or the
//! browser's Back button opens the console's own dialog ("Leave" or "Stay"); a reload, a
//! typed address or closing the tab gets the browser's own question (`beforeunload`, the only
//! one a page may ask then). Nothing asks once the form is saved.

use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;
use leptos_router::NavigateOptions;
use send_wrapper::SendWrapper;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

use super::{ConfirmDialog, Navigator};
use crate::browser;
use crate::i18n::M;

type Listener = Closure<dyn FnMut(web_sys::Event)>;

/// The guarded form's state, for the Back listener, which must exist before the router's.
struct BackGuard {
    dirty: Signal<bool>,
    /// The guarded screen's address.
    here: String,
    ask: Rc<dyn Fn(String)>,
}

thread_local! {
    static BACK_GUARD: RefCell<Option<BackGuard>> = const { RefCell::new(None) };
}

/// Listens for Back and Forward ahead of the router, for [`LeaveGuard`]. The router handles
/// `popstate` on the window too, and listeners there run in the order they were added: added
/// later, the guard would find its screen already gone. Called once, before the `<Router>`.
pub(crate) fn listen_for_back() {
    let on_popstate: Listener = Closure::new(move |ev: web_sys::Event| {
        BACK_GUARD.with(|guard| {
            let guard = guard.borrow();
            let Some(guard) = guard.as_ref().filter(|g| g.dirty.get_untracked()) else {
                return;
            };
            // The address has already changed: put the form's back, keep the router from
            // showing the other screen, and ask.
            ev.stop_immediate_propagation();
            let to = browser::current_route();
            browser::push_url(&guard.here);
            (guard.ask)(to);
        });
    });
    listen("popstate", &on_popstate, true);
    // Lives as long as the page.
    on_popstate.forget();
}

/// Guards the screen it is placed on while `dirty` is true.
#[component]
pub(crate) fn LeaveGuard(#[prop(into)] dirty: Signal<bool>) -> impl IntoView {
    let open = RwSignal::new(false);
    let leave_to = StoredValue::new(String::new());
    let navigate = Navigator::new();
    let ask = move |to: String| {
        leave_to.set_value(to);
        open.set(true);
    };
    BACK_GUARD.with(|guard| {
        *guard.borrow_mut() = Some(BackGuard {
            dirty,
            here: browser::current_route(),
            ask: Rc::new(ask),
        })
    });
    let on_click: Listener = Closure::new(move |ev: web_sys::Event| {
        if dirty.get_untracked() {
            if let Some(to) = in_app_link(&ev) {
                ev.prevent_default();
                ev.stop_propagation();
                ask(to);
            }
        }
    });
    let on_unload: Listener = Closure::new(move |ev: web_sys::Event| {
        if dirty.get_untracked() {
            ev.prevent_default();
            if let Some(ev) = ev.dyn_ref::<web_sys::BeforeUnloadEvent>() {
                ev.set_return_value("");
            }
        }
    });
    let listening = [("click", on_click), ("beforeunload", on_unload)];
    for (event, listener) in &listening {
        listen(event, listener, true);
    }
    let listening = SendWrapper::new(listening);
    on_cleanup(move || {
        for (event, listener) in listening.iter() {
            listen(event, listener, false);
        }
        BACK_GUARD.with(|guard| guard.borrow_mut().take());
    });
    let leave = move |()| navigate.go(&leave_to.get_value(), NavigateOptions::default());
    view! {
        <ConfirmDialog open title=M::LeaveTitle confirm_label=M::LeaveConfirm on_confirm=leave>
            <p>{M::LeaveExplain}</p>
        </ConfirmDialog>
    }
}

/// Adds (or removes) `listener` for `event` on the window, in the capture phase: it runs
/// before the router's own listeners, so a refused navigation never reaches them.
fn listen(event: &str, listener: &Listener, add: bool) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let f = listener.as_ref().unchecked_ref();
    let _ = if add {
        window.add_event_listener_with_callback_and_bool(event, f, true)
    } else {
        window.remove_event_listener_with_callback_and_bool(event, f, true)
    };
}

/// The console address a plain click on a link would open; `None` for anything else (a new
/// tab, a download, another site, a link within this page).
fn in_app_link(ev: &web_sys::Event) -> Option<String> {
    let mouse = ev.dyn_ref::<web_sys::MouseEvent>()?;
    if ev.default_prevented()
        || mouse.button() != 0
        || mouse.ctrl_key()
        || mouse.meta_key()
        || mouse.shift_key()
        || mouse.alt_key()
    {
        return None;
    }
    let target = ev.target()?.dyn_into::<web_sys::Element>().ok()?;
    let link = target.closest("a[href]").ok()??;
    if link.has_attribute("download") || link.get_attribute("target").is_some_and(|t| t != "_self")
    {
        return None;
    }
    let href = link.get_attribute("href")?;
    (href.starts_with('/') && !href.starts_with("//")).then_some(href)
}
