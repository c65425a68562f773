//! `/catalog`: filters beside a grid of products, one cursor page after another.

use gifting_api::oauth::SCOPE_MARKETPLACE;
use leptos::either::{Either, EitherOf4};
use leptos::prelude::*;
use leptos_router::components::Outlet;
use leptos_router::hooks::use_location;

use super::filters::CatalogFilters;
use super::grid::ProductGrid;
use super::scope::MissingScope;
use super::sentinel::Sentinel;
use super::store::CatalogStore;
use super::url::filters_from_search;
use crate::api::ApiError;
use crate::auth::use_auth;
use crate::components::ScreenHeading;
use crate::components::{ErrorPanel, Loading};
use crate::i18n::{live_text, msg, t, M};

/// The catalog screen; its child route (a product) opens over it.
#[component]
pub(crate) fn CatalogScreen() -> impl IntoView {
    let auth = use_auth();
    let granted = Memo::new(move |_| auth.has_scope(SCOPE_MARKETPLACE));
    let store = CatalogStore::for_current_screen();
    provide_context(store);
    let feed = store.feed();
    let refused =
        Memo::new(move |_| feed.with(|f| matches!(f.error(), Some(ApiError::Forbidden { .. }))));

    let categories = Memo::new(move |_| feed.with(|f| f.categories().to_vec()));
    let location = use_location();
    let url = Memo::new(move |_| location.search.with(|s| filters_from_search(s)));
    // The address is the source of truth: a new filter query starts from the first page.
    // The first request goes out now, before the form renders, rather than after the first
    // render as an effect would send it.
    if granted.get_untracked() {
        store.show(url.with_untracked(|u| u.query.clone()));
    }
    Effect::new(move |_| {
        let query = url.with(|u| u.query.clone());
        if granted.get() {
            store.show(query);
        }
    });

    let body = move || {
        if !granted.get() || refused.get() {
            Either::Left(view! {
                <MissingScope granted=auth.granted_scope() refused=refused.get() />
            })
        } else {
            Either::Right(view! {
                <div class="catalog-layout">
                    <aside class="catalog-layout__filters">
                        <CatalogFilters url categories />
                    </aside>
                    <section class="catalog-layout__results" aria-labelledby="catalog-products">
                        <h2 id="catalog-products" class="visually-hidden">
                            {M::CatalogProducts}
                        </h2>
                        <ProductGrid />
                        <GridFooter />
                    </section>
                </div>
                <Outlet />
            })
        }
    };

    view! {
        <div class="catalog">
            <ScreenHeading title=M::CatalogTitle />
            {body}
        </div>
    }
}

/// Under the grid: the first load, a failure, "Load more" with the automatic loader, or the
/// end of the catalog.
#[component]
fn GridFooter() -> impl IntoView {
    let store = use_context::<CatalogStore>()?;
    let feed = store.feed();
    let count = Memo::new(move |_| feed.with(|f| f.products().len()));
    let loading = Memo::new(move |_| feed.with(|f| f.is_loading()));
    let more = Memo::new(move |_| feed.with(|f| f.can_load_more()));
    let end = Memo::new(move |_| feed.with(|f| f.at_end()));
    let error = Memo::new(move |_| feed.with(|f| f.error().cloned()));
    let load_more = move || store.load_more();

    let first_load = Memo::new(move |_| feed.with(|f| f.is_loading() && !f.has_first_page()));
    // Stable while a next page loads, so the branch (and the focused button) is not rebuilt.
    let button = Memo::new(move |_| more.get() || loading.get() && !first_load.get());
    let state = move || {
        if let Some(error) = error.get() {
            return EitherOf4::A(view! { <ErrorPanel error on_retry=move |()| load_more() /> });
        }
        if first_load.get() {
            return EitherOf4::B(view! { <Loading /> });
        }
        if button.get() {
            // The button stays while its page loads, so keyboard focus stays on it.
            return EitherOf4::C(view! {
                <Show when=move || more.get()>
                    <Sentinel on_near=move |()| load_more() />
                </Show>
                <button
                    type="button"
                    class="button catalog-more"
                    aria-disabled=move || loading.get().to_string()
                    on:click=move |_| load_more()
                >
                    {live_text(move || t(if loading.get() { M::CommonLoading } else { M::CatalogLoadMore }))}
                </button>
            });
        }
        EitherOf4::D(())
    };
    // Said once the end is known; polite, so a screen reader hears it after the new cards.
    let summary = move || {
        let n = count.get() as u64;
        if end.get() {
            msg::catalog_end(n)
        } else if n > 0 {
            msg::catalog_shown(n)
        } else {
            String::new()
        }
    };
    Some(view! {
        <div class="catalog-footer">
            {state}
            <p class="catalog-summary" data-testid="catalog-summary" role="status" aria-live="polite">
                {summary}
            </p>
        </div>
    })
}
