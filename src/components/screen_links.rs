//! One link per screen of the routes module, for the navigation and the home screen.

use leptos::prelude::*;
use leptos_router::components::A;

use crate::routes::SCREENS;

/// An `<li>` per screen; `with_summary` adds what the screen is for after its link.
pub(crate) fn screen_links(with_summary: bool) -> impl IntoView {
    SCREENS
        .iter()
        .map(|screen| {
            let summary =
                with_summary.then(|| view! { <span class="muted">" " {screen.summary}</span> });
            view! {
                <li>
                    <A href=screen.path>{screen.label}</A>
                    {summary}
                </li>
            }
        })
        .collect_view()
}
