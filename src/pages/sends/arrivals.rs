//! New sends as they arrive: while the sends screen is open and the tab is shown, a quiet read
//! of the platform's newest send every [`EVERY_MS`] (one request of one send, so the rate limit
//! is left to the admin's own work) tells how many sends the list gained since the screen's
//! sends were read. The screen says so above the table ("3 new sends: show them") instead of
//! moving the rows under the pointer; showing them reads the newest pages again ([`Walk::Newest`]
//! into the session's sends, and the platform's page on screen afresh).
//!
//! The count is exact: sends are never removed (docs/platform.md), so the list's `total_count`
//! only grows, and what it gained since the largest total the screen has seen is what arrived.

use std::time::Duration;

use gifting_api::paths::endpoint;
use gifting_api::rest::{PageQuery, SendPage};
use leptos::prelude::*;

use super::memory;
use super::store::SendsStore;
use super::walk_job::{self, Walk};
use crate::api::use_api;
use crate::browser::page_hidden;
use crate::i18n::{live_text, msg};

/// How often the newest send is read: a send arriving shows within this (and one answer).
pub(crate) const EVERY_MS: u64 = 30_000;

/// "3 new sends: Show them", once the platform's list has grown past what the screen read.
#[component]
pub(crate) fn NewSends(store: SendsStore) -> impl IntoView {
    let api = use_api();
    let loaded = store.loaded();
    let platform_total = RwSignal::new(None::<u64>);
    let read = move || {
        if page_hidden() {
            return;
        }
        let call = endpoint::LIST_SENDS
            .call(&[])
            .query(&PageQuery::new(1, 1).to_query_string());
        leptos::task::spawn_local(async move {
            // A lost answer is simply no news: the next read tries again.
            if let Ok(page) = api.get_json::<SendPage>(call).await {
                platform_total.try_set(Some(page.total_count));
            }
        });
    };
    let ticker = set_interval_with_handle(read, Duration::from_millis(EVERY_MS)).ok();
    on_cleanup(move || {
        if let Some(ticker) = ticker {
            ticker.clear();
        }
    });
    let arrived = Memo::new(move |_| {
        let now = platform_total.get()?;
        let seen = loaded.with(|l| l.total())?;
        (now > seen).then(|| now - seen)
    });
    let walk = store.walk();
    let show = move |_| {
        store.read_newest_again();
        // A walk already running meets the newcomers itself and says so when it ends.
        let _ = walk.start(|| walk_job::start(memory::loaded(), Walk::Newest));
        platform_total.set(None);
    };
    move || {
        arrived.get().map(|n| {
            view! {
                <p class="notice sends-arrived" role="status" data-testid="sends-arrived">
                    {live_text(move || msg::sends_arrived(n))}
                    " "
                    <button type="button" class="button button--small" on:click=show>
                        {crate::i18n::M::SendsShowArrived}
                    </button>
                </p>
            }
        })
    }
}
