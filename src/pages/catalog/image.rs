//! A product picture that falls back, address by address, and ends on a neutral placeholder.

use leptos::either::Either;
use leptos::prelude::*;

use crate::i18n::M;

/// Shows `candidates[0]`; when the browser fails to load it (`error` event), the next one;
/// after the last, a grey placeholder saying there is no picture. `candidates` come from the
/// contract's `Image::thumbnail_candidates` / `main_candidates`, which only yield `http(s)`
/// addresses.
///
/// `width`/`height` reserve the space before the picture arrives (no layout shift); CSS sizes
/// it. Lazy and async decoding: pictures far below the fold are not fetched until needed.
#[component]
pub(crate) fn FallbackImage(
    candidates: Vec<String>,
    /// The text alternative, e.g. the product name.
    #[prop(into)]
    alt: Signal<String>,
    /// The text alternative is the platform's data alone (a product's name): marked so.
    #[prop(optional)]
    alt_is_data: bool,
    width: u32,
    height: u32,
    #[prop(default = "")] class: &'static str,
) -> impl IntoView {
    let tried = RwSignal::new(0usize);
    let candidates = StoredValue::new(candidates);
    let translate = alt_is_data.then_some("no");
    move || match candidates.with_value(|c| c.get(tried.get()).cloned()) {
        Some(src) => Either::Left(view! {
            <img
                class=class
                src=src
                alt=alt
                translate=translate
                width=width
                height=height
                loading="lazy"
                decoding="async"
                on:error=move |_| tried.update(|n| *n += 1)
            />
        }),
        None => Either::Right(view! {
            <span class=format!("{class} image-placeholder") role="img" aria-label=alt translate=translate>
                <span class="image-placeholder__text" aria-hidden="true">
                    {M::CatalogNoPicture}
                </span>
            </span>
        }),
    }
}
