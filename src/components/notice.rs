//! A message above the content it is about: what a write did, or why something is missing.

use leptos::prelude::*;

use super::badge::Tone;

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
    let class = match tone {
        Tone::Neutral | Tone::Info => "notice",
        Tone::Success => "notice notice--success",
        Tone::Warning => "notice notice--warning",
        Tone::Danger => "notice notice--error",
    };
    let role = if alert { "alert" } else { "status" };
    view! {
        <div class=class role=role data-testid=testid>
            {children()}
        </div>
    }
}
