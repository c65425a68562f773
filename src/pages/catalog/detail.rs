//! `/catalog/:id`: a product's details in a modal dialog over the grid, so closing it returns
//! to the same place in the same loaded set.
//!
//! The product comes from the loaded set. Opened cold (a shared link, a reload), it is looked
//! for by walking the pages of the address's filters, as the grid behind loads them, until it
//! appears or the catalog ends; then the dialog says it was not found with these filters.
//! The platform has no single-product endpoint, so this is the only way to find it.

use std::sync::Arc;

use gifting_api::marketplace::{Product, ProductsQuery, Variant};
use leptos::either::{Either, EitherOf4};
use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_params_map};
use leptos_router::NavigateOptions;

use super::image::FallbackImage;
use super::price::price_range_text;
use super::store::CatalogStore;
use super::url::{catalog_href, filters_from_search, product_href};
use crate::components::format;
use crate::components::format::money;
use crate::components::{ErrorPanel, Loading, Modal, Navigator};
use crate::i18n::{live_text, msg, M};

/// Main images are 600 px squares on the platform's CDN; CSS scales them down.
const MAIN_SIZE: u32 = 600;

#[component]
pub(crate) fn ProductDetail() -> impl IntoView {
    let store = use_context::<CatalogStore>()?;
    let params = use_params_map();
    let location = use_location();
    let navigate = Navigator::new();
    let id = Memo::new(move |_| params.with(|p| p.get("id").unwrap_or_default()));
    let filters = Memo::new(move |_| location.search.with(|s| filters_from_search(s).query));
    let back_href = Memo::new(move |_| filters.with(catalog_href));
    keep_looking(store, id);
    // However the dialog goes (Close, Escape, Back, another product's address), the grid
    // behind brings the product's card into view.
    on_cleanup(move || {
        if let Some(id) = id.try_get_untracked() {
            store.close_product(id);
        }
    });

    // Open while the route shows it. Every way of closing (button, Escape) goes back to the
    // grid; the browser then returns focus to the card that opened it.
    let open = RwSignal::new(true);
    let on_close = move || {
        navigate.go(
            &back_href.get_untracked(),
            NavigateOptions {
                scroll: false,
                ..Default::default()
            },
        );
    };

    Some(view! {
        <Modal
            open class="product-dialog" labelled_by="product-dialog-title" testid="product-dialog"
            on_close=on_close
        >
            <div class="product-dialog__bar">
                <button type="button" class="button" on:click=move |_| open.set(false)>
                    {M::CatalogClose}
                </button>
            </div>
            <div class="product-dialog__body">
                <DetailBody store id filters />
            </div>
        </Modal>
    })
}

/// While the product is not in the loaded set yet: loads the next page, until it is found or
/// the catalog ends.
fn keep_looking(store: CatalogStore, id: Memo<String>) {
    let feed = store.feed();
    Effect::new(move |_| {
        let wanted = id.get();
        let missing =
            feed.with(|f| f.has_first_page() && f.find(&wanted).is_none() && f.can_load_more());
        if missing {
            store.load_more();
        }
    });
}

/// The dialog's content: the product, a failure, the search under way, or "not found".
#[component]
fn DetailBody(
    store: CatalogStore,
    id: Memo<String>,
    filters: Memo<ProductsQuery>,
) -> impl IntoView {
    let feed = store.feed();
    // Memos, so the dialog re-renders when its product or the search state changes, not on
    // every page the grid behind appends.
    let found = Memo::new(move |_| {
        let wanted = id.get();
        feed.with(|f| f.find(&wanted))
    });
    let search = Memo::new(move |_| {
        feed.with(|f| {
            (
                f.is_loading() || !f.has_first_page() || f.can_load_more(),
                f.error().cloned(),
                f.at_end(),
            )
        })
    });
    move || {
        let wanted = id.get();
        let found = found.get();
        let (busy, error, end) = if found.is_some() {
            (false, None, true)
        } else {
            search.get()
        };
        match (found, error) {
            (Some(product), _) => EitherOf4::A(view! { <ProductView product /> }),
            (None, Some(error)) => EitherOf4::B(view! {
                <h2 id="product-dialog-title">{M::CatalogProduct}</h2>
                <ErrorPanel error on_retry=move |()| store.load_more() />
            }),
            (None, None) if busy || !end => EitherOf4::C(view! {
                <h2 id="product-dialog-title">{M::CatalogLooking}</h2>
                <Loading />
            }),
            (None, None) => EitherOf4::D(view! {
                <NotFound wanted filtered=filters.with(|f| *f != ProductsQuery::default()) />
            }),
        }
    }
}

#[component]
fn ProductView(product: Arc<Product>) -> impl IntoView {
    let variants = product.variants.len() as u64;
    let description = (!product.description.trim().is_empty()).then(|| product.description.clone());
    let priced = product.clone();
    view! {
        <h2 id="product-dialog-title" translate="no">{product.name.clone()}</h2>
        <p class="product-detail__price">{live_text(move || price_range_text(&priced))}</p>
        <h3>{M::CatalogDescription}</h3>
        {match description {
            Some(text) => Either::Left(view! {
                <p class="product-detail__description" translate="no">{text}</p>
            }),
            None => Either::Right(view! {
                <p class="product-detail__description">{M::CatalogNoDescription}</p>
            }),
        }}
        <h3>{live_text(move || msg::catalog_variants(&format::count(variants)))}</h3>
        <ul class="variant-list">
            {product
                .variants
                .iter()
                .enumerate()
                .map(|(n, variant)| variant_view(&product.name, n, variant))
                .collect_view()}
        </ul>
    }
}

/// The catalog ended without the product; with filters on, a link to look in the whole one.
#[component]
fn NotFound(wanted: String, filtered: bool) -> impl IntoView {
    view! {
        <h2 id="product-dialog-title">{M::CatalogNotFound}</h2>
        <p>
            {
                let wanted = wanted.clone();
                move || {
                    if filtered {
                        msg::catalog_not_found_filtered(&wanted)
                    } else {
                        msg::catalog_not_found_anywhere(&wanted)
                    }
                }
            }
        </p>
        {filtered
            .then(|| {
                view! {
                    <p>
                        <a href=product_href(&wanted, &ProductsQuery::default())>
                            {M::CatalogLookEverywhere}
                        </a>
                    </p>
                }
            })}
    }
}

fn variant_view(name: &str, n: usize, variant: &Variant) -> impl IntoView {
    let candidates: Vec<String> = variant
        .images
        .first()
        .map(|image| image.main_candidates().map(str::to_string).collect())
        .unwrap_or_default();
    let price = variant.estimated_total_price.clone();
    let name = name.to_owned();
    let number = (n + 1).to_string();
    let alt = {
        let number = number.clone();
        Signal::derive(move || msg::catalog_variant_alt(&name, &number))
    };
    view! {
        <li class="variant" data-variant-id=variant.id.clone()>
            <FallbackImage
                candidates
                alt
                width=MAIN_SIZE
                height=MAIN_SIZE
                class="variant__image"
            />
            <p class="variant__name">{live_text(move || msg::catalog_variant(&number))}</p>
            <p class="variant__price">{live_text(move || money(&price.currency, &price.price_per_unit))}</p>
        </li>
    }
}
