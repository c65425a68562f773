//! The application: configuration, shell, sign-in gate and routes.
//!
//! Adding a screen takes one line in the table of screens, [`crate::routes::screen_table!`]:
//! its address, chunk and component, and whether the navigation lists it.

use std::sync::Arc;

use leptos::either::EitherOf3;
use leptos::prelude::*;
use leptos_router::components::{ParentRoute, Route, Router, Routes};
use leptos_router::hooks::use_location;

use crate::api::{api_with_scope, CancelScope, NetStatus};
use crate::api::{provide_current_user, provide_team_groups};
use crate::auth::flow::CallbackParams;
use crate::auth::{use_auth, Auth};
use crate::components::lazy_screen::{lazy_screen, LazyScreen};
use crate::components::ScreenHeading;
use crate::components::{
    listen_for_back, Loading, NotificationArea, Notifications, IDLE_PREFETCH_DELAY,
};
use crate::config::{load_config, Config, ConfigError};
use crate::i18n::M;
use crate::pages::callback::hand_over;
use crate::pages::not_found::PageNotFound;
use crate::pages::signin::SignIn;
use crate::palette::KeyboardShortcuts;
use crate::routes::{self, screen_table};
use crate::shell::{Banners, Header, MainNav, SignedInExtras};

mod screens;

use screens::screen_routes;

lazy_screen!(callback_screen in signin => crate::pages::callback::CallbackScreen);

/// The routes of the signed-in console: every screen of the table
/// ([`crate::routes::screen_table!`]), each a [`screens`] chunk.
#[component]
fn AppRoutes() -> impl IntoView {
    prefetch_when_idle();
    // A list opened from another screen takes up its last filters; one loaded as a page does not.
    let path = use_location().pathname;
    Effect::new(move |first: Option<()>| {
        path.track();
        if first.is_some() {
            crate::components::note_screen_change();
        }
    });
    screen_table!(screen_routes)
}

/// Once the first screen is up and the browser has a quiet moment, every screen's chunk is
/// fetched, and the keyboard shortcuts' list, so opening one later costs no wait.
fn prefetch_when_idle() {
    provide_context(screens::PREFETCH);
    let _ = set_timeout_with_handle(
        || {
            screens::PREFETCH.all();
            crate::palette::prefetch();
        },
        IDLE_PREFETCH_DELAY,
    );
}

/// The whole console: reads `/config.json`, then starts the app or explains what is wrong.
#[component]
pub fn Root() -> impl IntoView {
    // Before anything renders: take `code`/`state` out of the address bar.
    let callback = CallbackParams::capture_from_address_bar();
    let config = LocalResource::new(load_config);
    // Not a <Suspense>: a screen reading a resource without its own boundary would otherwise
    // blank the whole console while it loads.
    move || match config.get() {
        None => EitherOf3::A(view! {
            <main id="main">
                <Loading />
            </main>
        }),
        Some(Ok(config)) => {
            EitherOf3::B(view! { <App config=Arc::new(config) callback=callback.clone() /> })
        }
        Some(Err(error)) => EitherOf3::C(view! { <ConfigErrorScreen error /> }),
    }
}

#[component]
fn ConfigErrorScreen(error: ConfigError) -> impl IntoView {
    view! {
        <header class="site-header">
            <span class="brand">{M::ShellBrand}</span>
        </header>
        <main id="main">
            <section class="panel config-error" role="alert" data-testid="config-error">
                <h1>{M::AppConfigError}</h1>
                // The file's and the field's names are code, not words to translate.
                <p>
                    <code translate="no">{error.location()}</code>
                    " "
                    {error.problem}
                </p>
                <p>{M::AppConfigFix}</p>
            </section>
        </main>
    }
}

#[component]
fn App(config: Arc<Config>, callback: Option<CallbackParams>) -> impl IntoView {
    let net = NetStatus::new();
    net.listen_to_browser();
    provide_context(net);
    // A tab opened without a session (a link in a new tab) learns whether another is signed in.
    let auth = Auth::new(config.clone(), callback.is_none());
    provide_context(auth);
    // The header's request lives as long as the app, not as long as one screen.
    provide_current_user(api_with_scope(CancelScope::new()));
    // Shared by every screen that names teams; read when the first of them opens.
    provide_team_groups(api_with_scope(CancelScope::new()));
    Notifications::provide();
    listen_for_back();
    // Long work (bulk changes, imports, the sends walk, exports) runs under the app, not a screen.
    crate::jobs::init();

    view! {
        <Router>
            <a class="skip-link" href="#main">
                {M::AppSkip}
            </a>
            <Header />
            <MainNav />
            <Banners />
            <Show when=move || auth.is_signed_in()>
                <SignedInExtras />
            </Show>
            <main id="main" tabindex="-1">
                <ErrorBoundary fallback=|errors| view! { <ViewErrors errors /> }>
                    <Content redirect_path=config.redirect_path.clone() callback />
                </ErrorBoundary>
            </main>
            <NotificationArea />
            <KeyboardShortcuts />
        </Router>
    }
}

/// The callback route, the sign-in gate, or the signed-in routes.
#[component]
fn Content(redirect_path: String, callback: Option<CallbackParams>) -> impl IntoView {
    let auth = use_auth();
    let location = use_location();
    let on_callback = Memo::new(move |_| location.pathname.with(|p| *p == redirect_path));
    let signed_in = Memo::new(move |_| auth.is_signed_in());
    // The callback's parameters are used once: a later visit to the route gets none.
    let callback = StoredValue::new(callback);
    move || {
        if on_callback.get() {
            hand_over(callback.try_update_value(Option::take).flatten());
            EitherOf3::A(view! { <Lazy screen=callback_screen::SCREEN /> })
        } else if signed_in.get() {
            EitherOf3::B(view! { <AppRoutes /> })
        } else {
            EitherOf3::C(view! { <SignIn /> })
        }
    }
}

/// A screen of its own chunk outside the router: shown once its code is there (or the panel
/// that offers to download it again).
#[component]
fn Lazy(screen: LazyScreen) -> impl IntoView {
    // Not `Clone`, so taken out once when it arrives.
    let arrived = RwSignal::new_local(None::<AnyView>);
    leptos::task::spawn_local_scoped(async move {
        let view = leptos_router::ChooseView::choose(screen).await;
        arrived.try_set(Some(view));
    });
    move || {
        arrived.track();
        arrived
            .try_update_untracked(Option::take)
            .flatten()
            .unwrap_or_else(|| view! { <Loading /> }.into_any())
    }
}

/// Shown when a view produced an error nothing closer handled.
#[component]
fn ViewErrors(errors: ArcRwSignal<Errors>) -> impl IntoView {
    let list = {
        let errors = errors.clone();
        move || {
            errors
                .get()
                .into_iter()
                .map(|(_, e)| view! { <li>{e.to_string()}</li> })
                .collect_view()
        }
    };
    view! {
        <section class="error-panel" role="alert">
            <ScreenHeading title=M::AppViewError />
            <ul>{list}</ul>
            <button type="button" class="button" on:click=move |_| errors.update(|e| *e = Errors::default())>
                {M::ShellTryAgain}
            </button>
        </section>
    }
}
