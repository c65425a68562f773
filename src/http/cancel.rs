//! Cancellation of a screen's requests when the screen goes away.
//!
//! Every [`crate::api::ApiClient`] handed out by [`crate::api::use_api`] carries a scope tied to the
//! component that asked for it. When that component's reactive owner is disposed (the user left
//! the screen), the scope aborts every request still in flight and refuses new ones, so a slow
//! answer for an old screen can never land on the new one.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use web_sys::AbortController;

#[derive(Default)]
struct ScopeInner {
    cancelled: Cell<bool>,
    next_id: Cell<u64>,
    live: RefCell<Vec<(u64, AbortController)>>,
}

/// A set of requests that end together. Cheap to clone; clones share the set.
#[derive(Clone, Default)]
pub struct CancelScope(Rc<ScopeInner>);

impl CancelScope {
    /// A scope that lives until [`CancelScope::cancel`] is called.
    pub fn new() -> Self {
        Self::default()
    }

    /// A scope cancelled when the current reactive owner (the calling component) is disposed.
    pub fn for_current_owner() -> Self {
        let scope = Self::new();
        // on_cleanup wants Send + Sync; the console runs on one thread, and the wrapper checks it.
        let handle = send_wrapper::SendWrapper::new(scope.clone());
        leptos::prelude::on_cleanup(move || handle.cancel());
        scope
    }

    /// Aborts everything in flight and refuses new requests.
    pub fn cancel(&self) {
        self.0.cancelled.set(true);
        let live = std::mem::take(&mut *self.0.live.borrow_mut());
        for (_, controller) in live {
            controller.abort();
        }
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.cancelled.get()
    }

    /// A fresh abort controller registered in this scope until the returned guard drops.
    /// `None` once the scope is cancelled.
    pub(crate) fn enter(&self) -> Option<InFlight> {
        if self.is_cancelled() {
            return None;
        }
        let controller = AbortController::new().ok()?;
        let id = self.0.next_id.get();
        self.0.next_id.set(id + 1);
        self.0.live.borrow_mut().push((id, controller.clone()));
        Some(InFlight {
            scope: self.clone(),
            id,
            controller,
        })
    }
}

/// One request's registration in a [`CancelScope`].
pub(crate) struct InFlight {
    scope: CancelScope,
    id: u64,
    pub(crate) controller: AbortController,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.scope
            .0
            .live
            .borrow_mut()
            .retain(|(id, _)| *id != self.id);
    }
}
