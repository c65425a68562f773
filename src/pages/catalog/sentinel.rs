//! Loads the next page by itself when the end of the grid comes near the viewport.

use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{IntersectionObserver, IntersectionObserverEntry, IntersectionObserverInit};

/// How far below the viewport the end of the grid starts the next page: about a row of cards,
/// so scrolling rarely waits, while a first screen never fetches a second page unasked.
pub(crate) const LOOKAHEAD: &str = "0px 0px 400px 0px";

/// The observer and the callback it calls, dropped together.
type Watcher = (IntersectionObserver, Closure<dyn FnMut(js_sys::Array)>);

/// An invisible marker after the grid. Render it only while a next page may be asked for:
/// it is observed from its insertion, so after each appended page a fresh marker reports
/// whether the end is still in reach (a short page on a tall screen loads the next at once).
#[component]
pub(crate) fn Sentinel(#[prop(into)] on_near: Callback<()>) -> impl IntoView {
    let marker = NodeRef::<leptos::html::Div>::new();
    // The observer and its callback live exactly as long as this marker.
    let observer: StoredValue<Option<SendWrapper<Watcher>>> = StoredValue::new(None);
    Effect::new(move |_| {
        let Some(element) = marker.get() else {
            return;
        };
        if observer.with_value(Option::is_some) {
            return;
        }
        let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
            let near = entries.iter().any(|entry| {
                entry
                    .dyn_into::<IntersectionObserverEntry>()
                    .is_ok_and(|e| e.is_intersecting())
            });
            if near {
                on_near.run(());
            }
        });
        let options = IntersectionObserverInit::new();
        options.set_root_margin(LOOKAHEAD);
        if let Ok(watcher) =
            IntersectionObserver::new_with_options(callback.as_ref().unchecked_ref(), &options)
        {
            watcher.observe(&element);
            observer.set_value(Some(SendWrapper::new((watcher, callback))));
        }
    });
    on_cleanup(move || {
        if let Some((watcher, _callback)) = observer
            .try_update_value(Option::take)
            .flatten()
            .map(SendWrapper::take)
        {
            watcher.disconnect();
        }
    });
    view! { <div class="catalog-sentinel" node_ref=marker aria-hidden="true"></div> }
}
