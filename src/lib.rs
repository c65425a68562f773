//! The Gifting Console: an admin web console for the gifting platform (Leptos, client-side).
//!
//! Layers, bottom up; each imports only the ones above it in this list
//! (`node scripts/check-layers.mjs` checks it):
//! - [`browser`], [`config`], [`panic`]: browser helpers, `/config.json` checked field by
//!   field, the crash screen.
//! - [`i18n`]: the admin's language: the message catalog's texts (`t`, `tr`, `msg::…`), the
//!   locale `Intl` formats and sorts with.
//! - [`http`]: one exchange with a timeout, cancellation with the screen, the retry policy.
//! - [`auth`]: OAuth sign-in (authorization code + PKCE + state), the session in
//!   `sessionStorage`, single-flight refresh, sign-out with revocation; its own [`auth::AuthError`].
//! - [`api`]: the one platform client pages use ([`api::use_api`]), with retries, typed errors
//!   ([`api::ApiError`]) and the signed-in user.
//! - [`routes`]: the screens, their paths and labels.
//! - [`components`]: loading/error/empty states, pager, badges, formatting.
//! - [`pages`]: one module per screen; [`shell`] frames them and [`app`] routes to them.
//!
//! A screen in a nutshell:
//! ```ignore
//! #[component]
//! pub fn SendsPage() -> impl IntoView {
//!     let api = use_api();
//!     let paging = use_page_query();
//!     let sends = LocalResource::new(move || {
//!         let call = endpoint::LIST_SENDS.call(&[]).query(&paging.get().to_query_string());
//!         async move { api.get_json::<SendPage>(call).await }
//!     });
//!     let shown = use_shown_page(sends, |list| {
//!         Some(ShownPage::new(list.total_count, list.current_page, list.per_page))
//!     });
//!     view! {
//!         <h1>"Sends"</h1>
//!         <Loaded resource=sends let:list>
//!             <SendsTable sends=list.sends.clone() />
//!         </Loaded>
//!         // Once, outside the rows' loading boundary: it stays while pages change.
//!         <Pager shown />
//!     }
//! }
//! ```

pub mod api;
pub mod app;
pub mod auth;
pub mod browser;
pub mod components;
pub mod config;
pub mod http;
pub mod i18n;
pub(crate) mod jobs;
pub(crate) mod pages;
pub(crate) mod palette;
pub mod panic;
pub(crate) mod prefs;
pub(crate) mod routes;
pub(crate) mod shell;
pub(crate) mod spend;
