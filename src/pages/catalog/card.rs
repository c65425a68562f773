//! One product in the grid: thumbnail, name (the link to its details) and price range.

use std::sync::Arc;

use gifting_api::marketplace::Product;
use leptos::prelude::*;

use super::image::FallbackImage;
use super::price::price_range_text;
use crate::i18n::live_text;

/// Thumbnails are drawn at the grid's column width; these only fix the aspect ratio.
pub(crate) const THUMB_SIZE: u32 = 240;

/// `position` is the product's place in the loaded list (from 1) and `set_size` the list's
/// length once known (-1 before): the grid mounts only a window of cards, so a screen reader
/// hears "item 1,201 of …" from these rather than from the cards it happens to hold.
#[component]
pub(crate) fn ProductCard(
    product: Arc<Product>,
    href: String,
    position: usize,
    #[prop(into)] set_size: Signal<i64>,
) -> impl IntoView {
    // The first variant's first picture, as the platform orders them.
    let candidates: Vec<String> = product
        .variants
        .first()
        .and_then(|v| v.images.first())
        .map(|image| image.thumbnail_candidates().map(str::to_string).collect())
        .unwrap_or_default();
    let name = product.name.clone();
    let id = product.id.clone();
    view! {
        <li
            class="product-card"
            data-product-id=id
            aria-posinset=position
            aria-setsize=move || set_size.get()
        >
            <FallbackImage
                candidates
                alt=name.clone()
                alt_is_data=true
                width=THUMB_SIZE
                height=THUMB_SIZE
                class="product-card__image"
            />
            <h3 class="product-card__name" translate="no">
                // The link covers the whole card (CSS), but its accessible name is the name only.
                // A plain anchor (the router still handles the click) rather than `<A>`, which
                // would watch the location for `aria-current` in each of hundreds of cards;
                // `data-noscroll` keeps the grid where it is under the dialog.
                <a href=href data-noscroll="">
                    {name}
                </a>
            </h3>
            // Written again when the language changes (amounts follow the locale).
            <p class="product-card__price">{live_text(move || price_range_text(&product))}</p>
        </li>
    }
}
