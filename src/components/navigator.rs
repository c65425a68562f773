//! The router's `navigate` in a `Copy` handle, for view-models and their event handlers (the
//! hook itself only works while a component is being built).

use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;
use send_wrapper::SendWrapper;

type Navigate = Box<dyn Fn(&str, NavigateOptions)>;

/// Changes the address. Create it in a component body; it lives as long as that component.
#[derive(Clone, Copy)]
pub(crate) struct Navigator(StoredValue<SendWrapper<Navigate>>);

impl Navigator {
    pub(crate) fn new() -> Self {
        let navigate = use_navigate();
        let boxed: Navigate = Box::new(move |href, options| navigate(href, options));
        Navigator(StoredValue::new(SendWrapper::new(boxed)))
    }

    /// Goes to `href`; nothing when the component is gone.
    pub(crate) fn go(&self, href: &str, options: NavigateOptions) {
        self.0.try_with_value(|navigate| navigate(href, options));
    }
}
