//! The outcome of writes and long work ("User created", "Bulk change: 3 changed, 1 failed"),
//! kept above the screens so it survives the navigation that often follows a write.
//!
//! One live region at the bottom corner of the window: a screen reader reads each new entry
//! once, successes leave on their own after [`SUCCESS_FOR`], failures stay until dismissed,
//! and every entry has its own Dismiss button. The page keeps room below its content, so the
//! region never hides something the admin needs (see `.notifications` in the CSS).

use std::time::Duration;

use leptos::prelude::*;

use super::badge::Tone;
use super::notice::notice_class;
use crate::i18n::{msg, M};

/// How long a success or piece of information stays on its own.
const SUCCESS_FOR: Duration = Duration::from_secs(10);
/// Entries kept at once: the oldest leave first, so a long session never piles them up.
const MOST: usize = 4;

#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    id: u32,
    tone: Tone,
    text: String,
}

/// The console's notifications; cheap to copy. Provided once by the app.
#[derive(Clone, Copy)]
pub(crate) struct Notifications {
    entries: RwSignal<Vec<Entry>>,
    next_id: StoredValue<u32>,
}

impl Notifications {
    pub(crate) fn provide() -> Self {
        let notifications = Self {
            entries: RwSignal::new(Vec::new()),
            next_id: StoredValue::new(0),
        };
        provide_context(notifications);
        notifications
    }

    /// Shows `text`; a success or information also leaves by itself.
    pub(crate) fn push(self, tone: Tone, text: impl Into<String>) {
        let id = self.next_id.get_value();
        self.next_id.set_value(id.wrapping_add(1));
        let entry = Entry {
            id,
            tone,
            text: text.into(),
        };
        self.entries.update(|entries| {
            entries.push(entry);
            let extra = entries.len().saturating_sub(MOST);
            entries.drain(..extra);
        });
        if matches!(tone, Tone::Success | Tone::Info | Tone::Neutral) {
            set_timeout(move || self.dismiss(id), SUCCESS_FOR);
        }
    }

    pub(crate) fn dismiss(self, id: u32) {
        self.entries
            .try_update(|entries| entries.retain(|e| e.id != id));
    }
}

/// The app's notifications. Outside the app (a component test) a fresh, unshown set.
pub(crate) fn use_notifications() -> Notifications {
    use_context().unwrap_or_else(Notifications::provide)
}

/// The region the notifications are shown in; the app renders it once.
#[component]
pub(crate) fn NotificationArea() -> impl IntoView {
    let notifications = use_notifications();
    view! {
        <section class="notifications" aria-label=M::CommonNotifications>
            <ul class="notifications__list" aria-live="polite" aria-relevant="additions">
                <For
                    each=move || notifications.entries.get()
                    key=|entry| entry.id
                    children=move |entry| view! { <NotificationItem entry notifications /> }
                />
            </ul>
        </section>
    }
}

#[component]
fn NotificationItem(entry: Entry, notifications: Notifications) -> impl IntoView {
    let class = format!("notification {}", notice_class(entry.tone));
    let text = entry.text.clone();
    let label = move || msg::common_dismiss_item(&text);
    let id = entry.id;
    view! {
        <li class=class data-testid="notification">
            <span class="notification__text">{entry.text}</span>
            <button
                type="button" class="notification__dismiss" aria-label=label
                on:click=move |_| notifications.dismiss(id)
            >
                {M::CommonDismiss}
            </button>
        </li>
    }
}
