//! The three states every screen has besides its data: loading, failed, empty.

use std::sync::Arc;

use leptos::either::Either;
use leptos::prelude::*;

use crate::api::{use_net_status, ApiError};
use crate::i18n::{live_text, M};

/// "Loading…" with a spinner, announced politely to screen readers.
#[component]
pub fn Loading() -> impl IntoView {
    view! {
        <div class="loading" role="status" aria-live="polite">
            <span class="spinner" aria-hidden="true"></span>
            <span>{M::CommonLoading}</span>
        </div>
    }
}

/// A failed request: the message in plain words and, when repeating could help, "Try again".
/// After an offline error it retries by itself when the browser is back online.
#[component]
pub fn ErrorPanel(
    error: ApiError,
    /// Called by "Try again" (and on reconnect after an offline error).
    #[prop(into)]
    on_retry: Callback<()>,
) -> impl IntoView {
    if error == ApiError::Cancelled {
        // The screen is going away; nothing to tell.
        return None;
    }
    if matches!(error, ApiError::Offline | ApiError::Network) {
        let net = use_net_status();
        let seen = net.reconnects_untracked();
        Effect::new(move |_| {
            if net.reconnects() != seen {
                on_retry.run(());
            }
        });
    }
    // After a 401 the shell already shows the sign-in screen; repeating cannot help.
    let retry = (error != ApiError::Unauthorized).then(|| {
        view! {
            <button type="button" class="button" on:click=move |_| on_retry.run(())>
                {M::CommonTryAgain}
            </button>
        }
    });
    let detail = match &error {
        ApiError::Decode { detail, .. } => Some(view! {
            <details class="error-panel__detail">
                <summary>{M::CommonTechnicalDetail}</summary>
                <p>{detail.clone()}</p>
            </details>
        }),
        _ => None,
    };
    Some(view! {
        <div class="error-panel" role="alert">
            <p class="error-panel__message">{live_text(move || error.user_message())}</p>
            {detail}
            {retry}
        </div>
    })
}

/// A screen's own view of a failed request: `(error, try_again)` in, a view out.
pub type ErrorView = Callback<(ApiError, Callback<()>), AnyView>;

/// A list with nothing in it, said in words.
#[component]
pub fn Empty(#[prop(into)] message: Signal<String>) -> impl IntoView {
    view! { <p class="empty">{message}</p> }
}

/// Renders a request's result: [`Loading`] until the first answer, [`ErrorPanel`] (with
/// "Try again" refetching the resource) on failure, `children(data)` on success. While a new
/// answer loads (next page, retry) the previous one stays on screen, marked busy.
///
/// ```ignore
/// view! {
///     <Loaded resource=sends let:list>
///         <SendsTable sends=list.sends/>
///     </Loaded>
/// }
/// ```
#[component]
pub fn Loaded<T, V, F>(
    resource: LocalResource<Result<T, ApiError>>,
    children: F,
    /// How a failure reads on this screen, given the error and "Try again"; the default is
    /// [`ErrorPanel`]. A screen with its own explanations (e.g. SCIM's 403) passes one.
    #[prop(optional)]
    on_error: Option<ErrorView>,
) -> impl IntoView
where
    T: Clone + Send + Sync + 'static,
    F: Fn(T) -> V + Send + Sync + 'static,
    V: IntoView + 'static,
{
    let children = Arc::new(children);
    let (pending, set_pending) = signal(false);
    let retry = Callback::new(move |()| resource.refetch());
    view! {
        <div class="loaded" aria-busy=move || pending.get().to_string()>
            <Transition fallback=|| view! { <Loading /> } set_pending>
                {move || {
                    let children = children.clone();
                    Suspend::new(async move {
                        match resource.await {
                            Ok(data) => Either::Left(children(data)),
                            Err(error) => Either::Right(match on_error {
                                Some(render) => render.run((error, retry)),
                                None => view! { <ErrorPanel error on_retry=retry /> }.into_any(),
                            }),
                        }
                    })
                }}
            </Transition>
        </div>
    }
}
