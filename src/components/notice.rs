//! A message above the content it is about: what a write did, or why something is missing.

use leptos::prelude::*;

use super::badge::Tone;
use crate::i18n::M;

/// `<Notice tone=Tone::Success testid="user-outcome">"Saved."</Notice>`. Success and neutral
/// notices are announced politely (`role="status"`); with `alert`, at once (`role="alert"`).
#[component]
pub(crate) fn Notice(
    #[prop(optional)] tone: Tone,
    /// Interrupts a screen reader: for failures the admin must act on.
    #[prop(optional)]
    alert: bool,
    #[prop(optional)] testid: Option<&'static str>,
    children: Children,
) -> impl IntoView {
    let class = notice_class(tone);
    let role = if alert { "alert" } else { "status" };
    view! {
        <div class=class role=role data-testid=testid>
            {children()}
        </div>
    }
}

/// The look of a notice (and of a notification) in `tone`.
pub(crate) fn notice_class(tone: Tone) -> &'static str {
    match tone {
        Tone::Neutral | Tone::Info => "notice",
        Tone::Success => "notice notice--success",
        Tone::Warning => "notice notice--warning",
        Tone::Danger => "notice notice--error",
    }
}

/// A write that failed, above the form it came from: the platform's reason, then what became
/// of the admin's input (`kept`), so nobody types it again for nothing.
#[component]
pub(crate) fn FailedNotice(
    #[prop(into)] message: String,
    kept: M,
    testid: &'static str,
) -> impl IntoView {
    view! {
        <Notice tone=Tone::Danger alert=true testid>
            <p>{message}</p>
            <p>{kept}</p>
        </Notice>
    }
}
