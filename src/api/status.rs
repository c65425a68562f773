//! Connection state the whole console shares: offline, the platform unreachable, and "the
//! platform is busy".

use std::time::Duration;

use leptos::prelude::*;

use crate::browser::{navigator_online, now_ms, sleep};
use crate::http::retry::backoff_ms;
use crate::http::transport::probe;

/// The looks after the platform stopped answering back off as every retry does
/// ([`backoff_ms`]): the first after at most this, each next one at most twice as long, up to
/// [`PROBE_MAX_MS`], with jitter so many tabs do not look in lockstep.
const PROBE_FIRST_MS: u64 = 2_000;
const PROBE_MAX_MS: u64 = 30_000;
const PROBE_TIMEOUT_MS: u32 = 5_000;

/// Shared, reactive connection state. `Copy`: pass it anywhere.
#[derive(Clone, Copy)]
pub struct NetStatus {
    online: RwSignal<bool>,
    /// Bumped each time the browser comes back online, so failed screens can retry.
    reconnects: RwSignal<u32>,
    /// While the request layer waits out a 429/503: Unix ms of the next try.
    busy_until_ms: RwSignal<Option<i64>>,
    /// Requests fail on the network although the browser says it is online: the platform, or
    /// the way to it, is down. Cleared by the next answer of any kind.
    unreachable: RwSignal<bool>,
    /// Whether a loop looking for the platform runs (at most one does).
    probing: StoredValue<bool>,
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
            unreachable: RwSignal::new(false),
            probing: StoredValue::new(false),
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

    /// Reactive: whether the platform stopped answering while the browser is online.
    pub fn is_unreachable(&self) -> bool {
        self.unreachable.get()
    }

    /// A request got no answer at all (after its retries) while the browser is online. Until
    /// something answers again, the platform at `probe_url` is looked for now and then; when
    /// it answers, screens that failed on the network retry as after a reconnect.
    pub(crate) fn note_unreachable(&self, probe_url: String) {
        self.unreachable.set(true);
        if self.probing.get_value() {
            return;
        }
        self.probing.set_value(true);
        let this = *self;
        leptos::task::spawn_local(async move {
            let mut looks = 0;
            // try_*: the loop ends quietly if the app is torn down meanwhile.
            while this.unreachable.try_get_untracked() == Some(true) {
                looks += 1;
                let jitter = js_sys::Math::random();
                let wait = backoff_ms(PROBE_FIRST_MS, PROBE_MAX_MS, looks, jitter);
                sleep(Duration::from_millis(wait)).await;
                // Offline is the browser's own banner; its `online` event ends that.
                if navigator_online() && probe(&probe_url, PROBE_TIMEOUT_MS).await {
                    this.note_answered();
                }
            }
            this.probing.try_set_value(false);
        });
    }

    /// The platform answered (any status): if it had been unreachable, it is back.
    pub(crate) fn note_answered(&self) {
        if self.unreachable.try_get_untracked() == Some(true) {
            self.unreachable.set(false);
            self.reconnects.update(|n| *n += 1);
        }
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
