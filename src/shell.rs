//! The frame around every screen: header with the signed-in user, main navigation, and the
//! connection banners.

use std::time::Duration;

use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;

use crate::api::{display_name, use_current_user, use_net_status, ApiError};
use crate::auth::{use_auth, Auth};
use crate::browser::now_ms;
use crate::components::format::account_money;
use crate::components::lazy_screen::{lazy_screen, LazyPart};
use crate::components::screen_links::screen_links;
use crate::components::{use_notifications, Badge, Tone};
use crate::i18n::{live_text, msg, t, M};
use crate::routes;
use crate::routes::SCREENS;

#[component]
pub(crate) fn Header() -> impl IntoView {
    let auth = use_auth();
    view! {
        <header class="site-header">
            <a class="brand" href=routes::HOME>
                {M::ShellBrand}
            </a>
            <Show when=move || auth.is_signed_in()>
                <div class="site-header__user">
                    // The jobs indicator goes here when a screen starts the first job
                    // (`components::jobs_indicator`): its code comes with those screens'.
                    <div id="jobs-slot" class="jobs-slot"></div>
                    <LazyPart part=profile::SCREEN />
                    <SignOutButton />
                </div>
            </Show>
        </header>
    }
}

// The signed-in user's name, role and balances come with the read that fills them (`/me`, in
// the app's reads' chunk) and the money formatting they need: the signed-out first load
// carries none of it.
lazy_screen!(profile in app_reads => crate::shell::CurrentUserSummary);

#[component]
fn CurrentUserSummary() -> impl IntoView {
    let me = use_current_user();
    let content = move || match me.get() {
        // The header shows this only while signed in, so "unauthorized" is the answer from
        // before sign-in, still held while /me loads (after a real 401 the sign-in screen
        // takes over): offering "Try again" for it would only send /me twice.
        None | Some(Err(ApiError::Unauthorized)) => {
            view! { <span class="muted">{M::ShellLoadingProfile}</span> }.into_any()
        }
        Some(Ok(user)) => {
            let (balance, team_balance) = (user.balance.clone(), user.team_balance.clone());
            view! {
            <span class="current-user__name" translate="no">{display_name(&user)}</span>
            <Badge text=user.role.as_str().to_string() attr:translate="no" />
            <span class="current-user__balance">
                {live_text(move || msg::shell_balance(&account_money(&balance)))}
            </span>
            <span class="current-user__balance">
                {live_text(move || msg::shell_team_balance(&account_money(&team_balance)))}
            </span>
            }
            .into_any()
        }
        Some(Err(error)) => view! {
            <span class="muted">{msg::shell_profile_unavailable(&error.user_message())}</span>
            <button type="button" class="button button--small" on:click=move |_| me.refetch()>
                {M::ShellTryAgain}
            </button>
        }
        .into_any(),
    };
    view! {
        <div class="current-user" data-testid="current-user" aria-live="polite">
            {content}
        </div>
    }
}

#[component]
fn SignOutButton() -> impl IntoView {
    let auth = use_auth();
    let notifications = use_notifications();
    let navigate = use_navigate();
    let (busy, set_busy) = signal(false);
    let on_click = move |_| {
        if crate::jobs::writing() && !confirm_sign_out() {
            return;
        }
        crate::jobs::cancel_all();
        set_busy.set(true);
        let navigate = navigate.clone();
        leptos::task::spawn_local(async move {
            if !auth.sign_out().await {
                notifications.push(Tone::Danger, t(M::ShellNotRevoked));
            }
            set_busy.try_set(false);
            // The next person to sign in in this tab starts from home, not from our last screen.
            navigate(routes::HOME, NavigateOptions::default());
        });
    };
    view! {
        <button
            type="button"
            class="button"
            on:click=on_click
            on:mouseenter=move |_| auth.prefetch_sign_out()
            on:focus=move |_| auth.prefetch_sign_out()
            disabled=move || busy.get()
        >
            {live_text(move || t(if busy.get() { M::ShellSigningOut } else { M::ShellSignOut }))}
        </button>
    }
}

/// Asked before signing out while a job writes to the platform: signing out cancels it.
fn confirm_sign_out() -> bool {
    web_sys::window()
        .and_then(|w| w.confirm_with_message(t(M::ShellConfirmSignOut)).ok())
        .unwrap_or(false)
}

/// The main navigation: one link per screen in [`SCREENS`], only when signed in.
#[component]
pub(crate) fn MainNav() -> impl IntoView {
    let auth = use_auth();
    view! {
        <nav class="main-nav" id="main-nav" aria-label=M::ShellMainNav>
            <Show when=move || auth.is_signed_in() && !SCREENS.is_empty()>
                <ul id="main-nav-list">{screen_links()}</ul>
            </Show>
            // Search and the phone's menu button arrive with the signed-in chunk
            // ([`NavTools`]).
            <div id="tools-slot" class="tools-slot"></div>
        </nav>
    }
}

/// What only a signed-in console needs, a chunk of its own (`signed_in`) fetched once signed in,
/// so the first load does not carry it: console links opened in new tabs keep the session
/// ([`keep_session_in_new_tabs`]), and the banner that asks to sign in again.
#[component]
pub(crate) fn SignedInExtras() -> impl IntoView {
    let auth = use_auth();
    let extras = RwSignal::new_local(None::<AnyView>);
    leptos::task::spawn_local_scoped(async move {
        // Not fetched (offline): a reload tries again; the console works without it.
        if let Ok(view) = signed_in_extras(auth).await {
            extras.try_set(Some(view));
        }
    });
    // Mounted once it arrives (not `Clone`, so taken out once).
    move || {
        extras.track();
        extras.try_update_untracked(Option::take).flatten()
    }
}

#[cfg(feature = "split")]
#[leptos::wasm_split::wasm_split(signed_in, wasm_split_path = ::leptos::wasm_split, fallible)]
fn signed_in_extras(auth: Auth) -> Result<AnyView, leptos::wasm_split::SplitLoaderError> {
    Ok(extras(auth))
}

#[cfg(not(feature = "split"))]
async fn signed_in_extras(auth: Auth) -> Result<AnyView, leptos::wasm_split::SplitLoaderError> {
    Ok(extras(auth))
}

fn extras(auth: Auth) -> AnyView {
    keep_session_in_new_tabs();
    mount_nav_tools();
    view! { <SignInAgainBanner auth /> }.into_any()
}

thread_local! {
    /// The navigation's tools, mounted in its slot, kept so they stay (dropping them unmounts
    /// them).
    static TOOLS: std::cell::RefCell<Option<Box<dyn std::any::Any>>> =
        const { std::cell::RefCell::new(None) };
}

/// Puts [`NavTools`] in the navigation's slot. Each sign-in makes new ones.
fn mount_nav_tools() {
    let Some(slot) = crate::browser::element_by_id("tools-slot") else {
        return;
    };
    // Under the signed-in console's owner (inside the router: the tools read the address).
    let mounted = leptos::mount::mount_to(slot, NavTools);
    TOOLS.with(|t| *t.borrow_mut() = Some(Box::new(mounted)));
    crate::palette::language_menu_when_idle();
    // Signed out, the navigation stays but its tools go (dropped, they leave the page).
    on_cleanup(|| {
        crate::palette::drop_language_menu();
        let tools = TOOLS.with(|t| t.borrow_mut().take());
        drop(tools);
    });
}

/// Search (the palette, for a pointer or a touch screen), Preferences, the language menu's slot,
/// and on a phone the button that shows and hides the navigation's links.
#[component]
fn NavTools() -> impl IntoView {
    let menu_open = RwSignal::new(false);
    // The navigation folds away on a phone only once this button is there to open it.
    Effect::new(move |_| set_nav_menu(if menu_open.get() { "open" } else { "closed" }));
    // Going to a screen closes the menu.
    let location = leptos_router::hooks::use_location();
    Effect::new(move |_| {
        location.pathname.track();
        menu_open.set(false);
    });
    view! {
        <button
            type="button"
            class="button button--small nav-tools__menu"
            aria-controls="main-nav-list"
            aria-expanded=move || menu_open.get().to_string()
            on:click=move |_| menu_open.update(|open| *open = !*open)
        >
            {M::ShellMenu}
        </button>
        <button
            type="button"
            class="button button--small"
            aria-keyshortcuts="Control+K Meta+K"
            on:click=|_| crate::palette::open_palette()
        >
            {M::ShellSearch}
        </button>
        <button
            type="button"
            class="button button--small"
            aria-haspopup="dialog"
            on:click=|_| crate::palette::open_preferences()
        >
            {M::ShellPreferences}
        </button>
        // The language menu arrives here with the dialogs' chunk (`palette::language_menu_when_idle`).
        <span id="language-slot" class="language-slot"></span>
    }
}

/// Marks the main navigation open or closed, for the phone's layout.
fn set_nav_menu(state: &str) {
    if let Some(nav) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("main-nav"))
    {
        let _ = nav.set_attribute("data-menu", state);
    }
}

/// A session whose refresh answer was lost goes on only by signing in again: said with the
/// button that does it in a window of its own, so the screen below stays as it is.
#[component]
fn SignInAgainBanner(auth: Auth) -> impl IntoView {
    let (failure, set_failure) = signal(None::<String>);
    let on_click = move |_| {
        leptos::task::spawn_local(async move {
            set_failure.try_set(auth.sign_in_again().await.err());
        });
    };
    view! {
        <Show when=move || auth.needs_sign_in_again()>
            <div class="banner banner--sign-in-again" role="alert" data-testid="sign-in-again">
                <span>{M::ShellLostAnswer}</span>
                <button type="button" class="button button--primary" on:click=on_click>
                    {M::ShellSignInAgain}
                </button>
                {live_text(move || failure.get())}
            </div>
        </Show>
    }
}

thread_local! {
    static LINKS_KEPT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Ctrl/⌘-click and middle click on a link to a console screen open it with `window.open`, which
/// hands the new tab a copy of this tab's `sessionStorage` (its session and the key its tabs
/// share, see [`crate::auth::tabs`]): a tab the browser opens from a link by itself starts
/// empty, and cannot prove it is the console to be handed a session. Only the console's own
/// screens go this way, never a file or an endpoint of the origin, which would get the copy too.
fn keep_session_in_new_tabs() {
    use wasm_bindgen::JsCast;
    if LINKS_KEPT.with(|kept| kept.replace(true)) {
        return;
    }
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let handler = wasm_bindgen::closure::Closure::<dyn Fn(web_sys::MouseEvent)>::new(
        |event: web_sys::MouseEvent| {
            let new_tab = match event.button() {
                0 => event.ctrl_key() || event.meta_key(),
                1 => event.type_() == "auxclick",
                _ => false,
            };
            if !new_tab || event.default_prevented() || event.shift_key() || event.alt_key() {
                return;
            }
            if let Some(href) = screen_link(&event) {
                event.prevent_default();
                crate::browser::open_tab(&href);
            }
        },
    );
    for kind in ["click", "auxclick"] {
        let _ = document.add_event_listener_with_callback(kind, handler.as_ref().unchecked_ref());
    }
    // Listens for the page's whole life.
    handler.forget();
}

/// The address of the console screen the link clicked leads to, if it is one.
fn screen_link(event: &web_sys::MouseEvent) -> Option<String> {
    use wasm_bindgen::JsCast;
    let target: web_sys::Element = event.target()?.dyn_into().ok()?;
    let link: web_sys::HtmlAnchorElement = target.closest("a[href]").ok()??.dyn_into().ok()?;
    let own_tab = matches!(link.target().as_str(), "" | "_self");
    let origin = web_sys::window()?.location().origin().ok()?;
    let path = link.pathname();
    let last = path.rsplit('/').next().unwrap_or_default();
    let endpoint = ["/api/", "/oauth/", "/__"]
        .iter()
        .any(|p| path.starts_with(p));
    let screen = own_tab
        && !link.has_attribute("download")
        && link.origin() == origin
        && !endpoint
        && !last.contains('.');
    screen.then(|| link.href())
}

/// "You are offline", "the platform cannot be reached" and "the platform is busy, retrying in
/// N s", while they are true.
#[component]
pub(crate) fn Banners() -> impl IntoView {
    let net = use_net_status();
    let now = RwSignal::new(now_ms());
    // Tick only while a busy wait runs, so the countdown moves.
    let ticker = StoredValue::new(None::<IntervalHandle>);
    let stop = move || {
        ticker.update_value(|handle| {
            if let Some(handle) = handle.take() {
                handle.clear();
            }
        })
    };
    Effect::new(move |_| {
        let busy = net.busy_until_ms().is_some();
        stop();
        now.set(now_ms());
        if busy {
            let handle = set_interval_with_handle(
                move || {
                    now.set(now_ms());
                    // A wait whose request was abandoned (screen left) ends here instead.
                    net.note_busy_over();
                },
                Duration::from_millis(250),
            );
            ticker.set_value(handle.ok());
        }
    });
    on_cleanup(stop);

    let busy_text = move || {
        let until = net.busy_until_ms()?;
        let seconds = (until - now.get() + 999) / 1000;
        (seconds > 0).then(|| msg::shell_busy(&seconds.to_string()))
    };
    view! {
        <div class="banners">
            <Show when=move || !net.is_online()>
                <p class="banner banner--offline" role="status">
                    {M::ShellOffline}
                </p>
            </Show>
            <Show when=move || net.is_online() && net.is_unreachable()>
                <p class="banner banner--unreachable" role="status">
                    {M::ShellUnreachable}
                </p>
            </Show>
            <Show when=move || busy_text().is_some()>
                <p class="banner banner--busy" role="status">
                    {live_text(move || busy_text().unwrap_or_default())}
                </p>
            </Show>
        </div>
    }
}
