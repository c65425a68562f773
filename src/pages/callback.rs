//! The OAuth callback: checks the answer of the authorization server and finishes sign-in.
//! The parameters were already taken out of the address bar at start-up, and are handed over
//! here ([`hand_over`]). A screen of its own chunk: only the return from the sign-in page
//! needs it, so the first load of every other visit does not carry it.

use std::cell::RefCell;

use leptos::either::Either;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;

use crate::auth::flow::CallbackParams;
use crate::auth::use_auth;
use crate::components::Loading;
use crate::components::ScreenHeading;
use crate::i18n::M;

thread_local! {
    static PARAMS: RefCell<Option<CallbackParams>> = const { RefCell::new(None) };
}

/// The parameters the authorization server sent back, for [`CallbackScreen`] (used once).
pub(crate) fn hand_over(params: Option<CallbackParams>) {
    PARAMS.with(|p| *p.borrow_mut() = params);
}

/// The callback route's screen, with the parameters handed over (none on a reload).
#[component]
pub(crate) fn CallbackScreen() -> impl IntoView {
    let params = PARAMS.with(|p| p.borrow_mut().take());
    view! { <Callback params /> }
}

#[component]
fn Callback(params: Option<CallbackParams>) -> impl IntoView {
    let auth = use_auth();
    let navigate = use_navigate();
    let (failure, set_failure) = signal(None::<String>);
    let replace = NavigateOptions {
        replace: true,
        ..Default::default()
    };

    let Some(params) = params else {
        // Nothing came back (a reload or a bookmark of this address): home, which is the
        // sign-in screen when signed out. After this render, not during it.
        leptos::task::spawn_local(async move { navigate("/", replace) });
        return Either::Left(view! { <Loading /> });
    };

    leptos::task::spawn_local(async move {
        match auth.complete_sign_in(&params).await {
            Ok(route) => navigate(&route, replace),
            Err(error) => {
                set_failure.try_set(Some(error.user_message()));
            }
        }
    });

    let start_again = move |_| {
        leptos::task::spawn_local(async move {
            if let Err(message) = auth.begin_sign_in("/").await {
                set_failure.try_set(Some(message));
            }
        });
    };
    let view = move || match failure.get() {
        None => Either::Left(view! {
            <section class="panel">
                <ScreenHeading title=M::CallbackSigningIn />
                <Loading />
            </section>
        }),
        Some(message) => Either::Right(view! {
            <section class="panel signin">
                <ScreenHeading title=M::CallbackFailed />
                <p class="error-panel" role="alert" data-testid="signin-error">{message}</p>
                <button type="button" class="button button--primary" on:click=start_again>
                    {M::SigninSignIn}
                </button>
            </section>
        }),
    };
    Either::Right(view)
}
