//! ISO country codes as a compact list: the code on screen, the country's name as a hover
//! title and as visually hidden text, so a screen reader says "United States", not "U S".

use gifting_api::countries;
use leptos::prelude::*;

use super::format::region_name;
use crate::i18n::M;

/// `<CountryCodes codes=campaign.ship_to_countries.clone() />`
#[component]
pub(crate) fn CountryCodes(
    codes: Vec<String>,
    /// Read before the list by screen readers, e.g. "Ships to".
    #[prop(into, optional)]
    label: Option<Signal<String>>,
) -> impl IntoView {
    if codes.is_empty() {
        return view! { <span class="muted">{M::CommonNone}</span> }.into_any();
    }
    let items = codes
        .into_iter()
        .map(|code| {
            // The locale's own name for the country (`Intl.DisplayNames`), else the platform
            // list's English one.
            let known = countries::country_name(&code);
            let name = known
                .map(|english| region_name(&code).unwrap_or_else(|| english.to_owned()))
                .unwrap_or_else(|| code.clone());
            let known = known.is_some();
            let spoken = known.then(|| name.clone());
            view! {
                <li class="country-codes__item" title=name translate="no">
                    <span aria-hidden=known.then_some("true")>{code}</span>
                    {spoken.map(|name| view! { <span class="visually-hidden">{name}</span> })}
                </li>
            }
        })
        .collect_view();
    view! {
        <ul class="country-codes" aria-label=label>
            {items}
        </ul>
    }
    .into_any()
}
