//! Connection state the whole console shares: offline, and "the platform is busy".

use leptos::prelude::*;

use crate::browser::{navigator_online, now_ms};

/// Shared, reactive connection state. `Copy`: pass it anywhere.
#[derive(Clone, Copy)]
pub struct NetStatus {
    online: RwSignal<bool>,
    /// Bumped each time the browser comes back online, so failed screens can retry.
    reconnects: RwSignal<u32>,
    /// While the request layer waits out a 429/503: Unix ms of the next try.
    busy_until_ms: RwSignal<Option<i64>>,
}

impl Default for NetStatus {
    fn default() -> Self {
        Self::new()
    }
}

impl NetStatus {
    pub fn new() -> Self {
        Self {
            online: RwSignal::new(navigator_online()),
            reconnects: RwSignal::new(0),
            busy_until_ms: RwSignal::new(None),
        }
    }

    /// Follows the browser's `online`/`offline` events for the lifetime of the current owner.
    pub fn listen_to_browser(&self) {
        let this = *self;
        let on = window_event_listener(leptos::ev::online, move |_| {
            this.online.set(true);
            this.reconnects.update(|n| *n += 1);
        });
        let off = window_event_listener(leptos::ev::offline, move |_| this.online.set(false));
        on_cleanup(move || {
            on.remove();
            off.remove();
        });
    }

    /// Reactive: whether the browser believes it is online.
    pub fn is_online(&self) -> bool {
        self.online.get()
    }

    /// Reactive: how many times the connection came back. Track it to retry after an outage.
    pub fn reconnects(&self) -> u32 {
        self.reconnects.get()
    }

    /// As [`NetStatus::reconnects`], without subscribing.
    pub fn reconnects_untracked(&self) -> u32 {
        self.reconnects.get_untracked()
    }

    /// Reactive: when the next try after a "busy" answer happens (Unix ms), if one is pending.
    pub fn busy_until_ms(&self) -> Option<i64> {
        self.busy_until_ms.get()
    }

    /// A request failed on the network while the browser says it is offline.
    pub(crate) fn note_offline(&self) {
        self.online.set(false);
    }

    /// A request waits until `until_ms` because the platform is busy.
    pub(crate) fn note_busy_until(&self, until_ms: i64) {
        self.busy_until_ms
            .update(|current| *current = Some(current.map_or(until_ms, |c| c.max(until_ms))));
    }

    /// A wait ended; the notice goes once no other wait runs past now.
    pub(crate) fn note_busy_over(&self) {
        let now = now_ms();
        if self
            .busy_until_ms
            .get_untracked()
            .is_some_and(|until| until <= now)
        {
            self.busy_until_ms.set(None);
        }
    }
}
