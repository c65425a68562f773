//! The way back to the list a detail screen belongs to.

use leptos::prelude::*;

use crate::i18n::M;

/// A link above the heading to the screen one level up.
#[component]
pub(crate) fn Breadcrumb(href: &'static str, label: M) -> impl IntoView {
    view! {
        <p class="breadcrumb">
            <a href=href>{label}</a>
        </p>
    }
}
