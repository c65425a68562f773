//! The one "not found" panel: for an address no route matches and for an id the platform
//! does not know (a user, a team group, a campaign, a product).

use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

use super::page_state::{ErrorPanel, ErrorView};
use super::ScreenHeading;
use std::future::Future;

use crate::api::{use_api, ApiClient, ApiError};
use crate::i18n::{t, M};

/// A heading, the platform's own sentence (or `fallback` when it gave none), and the way back.
#[component]
pub(crate) fn NotFound(
    title: M,
    /// What the platform said; empty means it said nothing.
    #[prop(optional, into)]
    message: String,
    fallback: M,
    /// Where to go instead, and the link's words.
    back: (&'static str, M),
    #[prop(optional)] testid: Option<&'static str>,
    /// `true` when the screen has its own `<h1>` above the panel.
    #[prop(optional)]
    subheading: bool,
) -> impl IntoView {
    let message = move || {
        if message.trim().is_empty() {
            t(fallback).to_owned()
        } else {
            message.clone()
        }
    };
    let (href, label) = back;
    let heading = if subheading {
        view! { <h2 class="not-found__title">{title}</h2> }.into_any()
    } else {
        view! { <ScreenHeading title class="not-found__title" /> }.into_any()
    };
    view! {
        <section class="panel not-found" role="alert" data-testid=testid>
            {heading}
            <p class="not-found__message">{message}</p>
            <p>
                <a href=href>{label}</a>
            </p>
        </section>
    }
}

/// The route's `:id` as typed in the address.
pub(crate) fn use_id_param() -> Memo<String> {
    let params = use_params_map();
    Memo::new(move |_| params.with(|p| p.get("id").unwrap_or_default()))
}

/// What the route's `:id` names on the platform: `fetch(api, id)`, read again when the address
/// changes. The platform's ids are numbers: anything else cannot name one and is reported as
/// not found, in the words of `not_an_id(raw)`.
pub(crate) fn use_by_id<T, Fut>(
    not_an_id: fn(&str) -> String,
    fetch: fn(ApiClient, u64) -> Fut,
) -> (Memo<String>, LocalResource<Result<T, ApiError>>)
where
    T: 'static,
    Fut: Future<Output = Result<T, ApiError>> + 'static,
{
    let api = use_api();
    let raw_id = use_id_param();
    let resource = LocalResource::new(move || {
        let raw = raw_id.get();
        async move {
            match raw.trim().parse::<u64>() {
                Ok(id) => fetch(api, id).await,
                Err(_) => Err(ApiError::NotFound {
                    message: not_an_id(&raw),
                }),
            }
        }
    });
    (raw_id, resource)
}

/// An `on_error` for [`super::Loaded`]: a not-found answer shows `panel(message)`, any other
/// failure the usual error panel with "Try again".
pub(crate) fn on_not_found(panel: fn(String) -> AnyView) -> ErrorView {
    Callback::new(
        move |(error, on_retry): (ApiError, Callback<()>)| match error {
            ApiError::NotFound { message } => panel(message),
            error => view! { <ErrorPanel error on_retry /> }.into_any(),
        },
    )
}
