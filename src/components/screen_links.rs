//! One link per screen of the routes module, for the navigation.

use leptos::prelude::*;

use leptos_router::components::A;

use super::lazy_screen::use_prefetch;
use crate::api::{admin_allowed, use_current_user};
use crate::routes::SCREENS;

/// An `<li>` per screen. A screen for the admin role alone stays hidden until /me says the
/// user may use it: never in passing.
pub(crate) fn screen_links() -> impl IntoView {
    let prefetch = use_prefetch();
    let me = use_current_user();
    SCREENS
        .iter()
        .map(|screen| {
            // Pointing at or tabbing to a link starts downloading its screen.
            let ahead = move || {
                if let Some(prefetch) = prefetch {
                    prefetch.path(screen.path);
                }
            };
            let hidden = move || screen.admin && admin_allowed(me) != Some(true);
            view! {
                <li hidden=hidden on:mouseenter=move |_| ahead() on:focusin=move |_| ahead()>
                    <A href=screen.path>{screen.label}</A>
                </li>
            }
        })
        .collect_view()
}
