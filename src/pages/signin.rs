//! The signed-out screen. Shown at whatever address the user opened, so that after signing in
//! they land where they meant to go.

use leptos::prelude::*;

use crate::auth::{use_auth, SessionEnd};
use crate::browser::current_route;
use crate::components::ScreenHeading;
use crate::i18n::{t, M};

#[component]
pub(crate) fn SignIn() -> impl IntoView {
    let auth = use_auth();
    let (problem, set_problem) = signal(None::<String>);
    let reason = move || match auth.ended() {
        Some(SessionEnd::Expired) => Some(t(M::SigninExpired)),
        Some(SessionEnd::SignedOut) => Some(t(M::SigninSignedOut)),
        // Not handed that session (see `crate::auth::tabs`): this tab signs in for itself.
        None => auth.signed_in_elsewhere().then(|| t(M::SigninElsewhere)),
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
            <ScreenHeading title=M::SigninTitle />
            {move || reason().map(|text| view! { <p class="notice" role="status">{text}</p> })}
            <p>{M::SigninExplain}</p>
            <button
                type="button"
                class="button button--primary"
                data-testid="sign-in"
                on:click=on_click
            >
                {M::SigninSignIn}
            </button>
            {move || {
                problem
                    .get()
                    .map(|text| view! { <p class="error-panel" role="alert">{text}</p> })
            }}
        </section>
    }
}
