//! The signed-out screen. Shown at whatever address the user opened, so that after signing in
//! they land where they meant to go.

use leptos::prelude::*;

use crate::auth::{use_auth, SessionEnd};
use crate::browser::current_route;
use crate::components::ScreenHeading;

#[component]
pub(crate) fn SignIn() -> impl IntoView {
    let auth = use_auth();
    let (problem, set_problem) = signal(None::<String>);
    let reason = move || match auth.ended() {
        Some(SessionEnd::Expired) => Some("Your session has ended. Sign in again to continue."),
        Some(SessionEnd::SignedOut) => Some("You have signed out."),
        // Not handed that session (see `crate::auth::tabs`): this tab signs in for itself.
        None => auth.signed_in_elsewhere().then_some(
            "You are signed in in another tab. Each tab signs in for itself: sign in here too.",
        ),
    };
    let on_click = move |_| {
        set_problem.set(None);
        let route = current_route();
        leptos::task::spawn_local(async move {
            if let Err(message) = auth.begin_sign_in(&route).await {
                set_problem.try_set(Some(message));
            }
        });
    };
    view! {
        <section class="panel signin">
            <ScreenHeading title="Sign in to the Gifting Console" />
            {move || reason().map(|text| view! { <p class="notice" role="status">{text}</p> })}
            <p>"You will sign in on the platform's own page and come straight back here."</p>
            <button type="button" class="button button--primary" on:click=on_click>
                "Sign in"
            </button>
            {move || {
                problem
                    .get()
                    .map(|text| view! { <p class="error-panel" role="alert">{text}</p> })
            }}
        </section>
    }
}
