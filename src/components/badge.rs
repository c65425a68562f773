//! A short status label. The text carries the meaning; the colour only repeats it.

use leptos::prelude::*;

/// The colour family of a [`Badge`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tone {
    #[default]
    Neutral,
    Info,
    Success,
    Warning,
    Danger,
}

impl Tone {
    pub fn class(self) -> &'static str {
        match self {
            Tone::Neutral => "badge badge--neutral",
            Tone::Info => "badge badge--info",
            Tone::Success => "badge badge--success",
            Tone::Warning => "badge badge--warning",
            Tone::Danger => "badge badge--danger",
        }
    }
}

/// `<Badge text="Delivered" tone=Tone::Success/>`
#[component]
pub fn Badge(#[prop(into)] text: String, #[prop(optional)] tone: Tone) -> impl IntoView {
    view! { <span class=tone.class()>{text}</span> }
}
