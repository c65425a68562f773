//! The catalog's filter form. It edits the address bar, never the grid: applying filters
//! navigates to `/catalog?…`, and the grid follows the address (so back, reload and shared
//! links all show the same thing).
//!
//! Text and prices apply on submit (Enter or "Apply filters"), since they are typed; checkboxes
//! and countries apply at once, together with whatever is typed. Every apply validates the
//! prices first: while they are wrong nothing is applied and nothing typed or ticked is lost.

use gifting_api::countries::{countries_by_name, country_label, country_name};
use gifting_api::marketplace::{CategoryGroup, ProductsQuery};
use leptos::prelude::*;

use leptos_router::NavigateOptions;

use super::price::{validate_prices, PriceError, PriceErrors};
use super::url::{catalog_href, UrlFilters};
use crate::browser;
use crate::components::{Navigator, TextField};
use crate::i18n::{live_text, msg, M};
use crate::routes;

/// The form's view-model: what is typed and ticked, not yet in the address.
#[derive(Clone, Copy)]
struct FilterDraft {
    url: Memo<UrlFilters>,
    text: RwSignal<String>,
    min: RwSignal<String>,
    max: RwSignal<String>,
    countries: RwSignal<Vec<String>>,
    picked: RwSignal<Vec<String>>,
    chosen_country: RwSignal<String>,
    errors: RwSignal<PriceErrors>,
    /// Stored so the handlers stay `Copy`.
    navigate: Navigator,
}

impl FilterDraft {
    /// Starts from the address, and follows it when it changes without this form (back
    /// button, a link).
    fn following(url: Memo<UrlFilters>) -> Self {
        let start = url.get_untracked();
        let draft = FilterDraft {
            url,
            text: RwSignal::new(start.query.text_search.clone().unwrap_or_default()),
            min: RwSignal::new(start.prices.min.clone()),
            max: RwSignal::new(start.prices.max.clone()),
            countries: RwSignal::new(start.query.ship_to_country_codes.clone()),
            picked: RwSignal::new(start.query.category_ids.clone()),
            chosen_country: RwSignal::new(String::new()),
            errors: RwSignal::new(start.problems.clone()),
            navigate: Navigator::new(),
        };
        Effect::new(move |_| url.with(|u| draft.show(u)));
        draft
    }

    fn show(&self, u: &UrlFilters) {
        self.text
            .set(u.query.text_search.clone().unwrap_or_default());
        self.min.set(u.prices.min.clone());
        self.max.set(u.prices.max.clone());
        self.countries.set(u.query.ship_to_country_codes.clone());
        self.picked.set(u.query.category_ids.clone());
        self.errors.set(u.problems.clone());
    }

    /// Puts the draft in the address, unless a price is wrong (then says why, keeping it all).
    fn apply(&self) {
        let bounds = match validate_prices(&self.min.get_untracked(), &self.max.get_untracked()) {
            Err(problems) => return self.errors.set(problems),
            Ok(bounds) => bounds,
        };
        self.errors.set(PriceErrors::default());
        let text = self.text.get_untracked().trim().to_string();
        let filters = ProductsQuery {
            after: None,
            price_gte_usd: bounds.min,
            price_lte_usd: bounds.max,
            ship_to_country_codes: self.countries.get_untracked(),
            category_ids: self.picked.get_untracked(),
            text_search: (!text.is_empty()).then_some(text),
        };
        let href = catalog_href(&filters);
        if href != catalog_href(&self.url.get_untracked().query) {
            self.navigate.go(&href, NavigateOptions::default());
        }
    }

    /// One price field's error, from `pick`, in the language shown.
    fn price_error(&self, pick: fn(&PriceErrors) -> Option<PriceError>) -> Signal<Option<String>> {
        let errors = self.errors;
        Signal::derive(move || errors.with(pick).map(PriceError::text))
    }

    fn add_country(&self) {
        let code = self.chosen_country.get_untracked();
        if country_name(&code).is_some() && !self.countries.with_untracked(|c| c.contains(&code)) {
            self.countries.update(|c| c.push(code));
            self.chosen_country.set(String::new());
            self.apply();
        }
    }

    fn remove_country(&self, code: &str) {
        self.countries.update(|c| c.retain(|x| x != code));
        self.apply();
    }

    fn toggle_category(&self, id: String, on: bool) {
        self.picked.update(|p| {
            p.retain(|x| *x != id);
            if on {
                p.push(id);
            }
        });
        self.apply();
    }
}

#[component]
pub(crate) fn CatalogFilters(
    url: Memo<UrlFilters>,
    categories: Memo<Vec<CategoryGroup>>,
) -> impl IntoView {
    let draft = FilterDraft::following(url);
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        draft.apply();
    };
    let any_filter = move || url.with(|u| catalog_href(&u.query) != routes::CATALOG);
    view! {
        {move || url.with(|u| u.beyond.clone()).map(|problem| view! {
            // The problem is the contract's own words on the address, shown as it wrote them.
            <p class="notice" role="status" data-testid="catalog-address-beyond">
                {live_text(move || msg::catalog_address_beyond(&problem))}
            </p>
        })}
        <form class="catalog-filters" role="search" aria-label=M::CatalogFilters on:submit=on_submit novalidate>
            <TextField id="catalog-text" kind="search" label=M::CatalogSearch value=draft.text on_input=move |v| draft.text.set(v) />
            <fieldset class="filter-group">
                <legend>{M::CatalogPrice}</legend>
                <TextField id="catalog-min-price" label=M::CatalogMinimum value=draft.min on_input=move |v| draft.min.set(v) numeric=true error=draft.price_error(|e| e.min) />
                <TextField id="catalog-max-price" label=M::CatalogMaximum value=draft.max on_input=move |v| draft.max.set(v) numeric=true error=draft.price_error(|e| e.max) />
            </fieldset>
            <div class="catalog-filters__actions">
                <button type="submit" class="button">
                    {M::CatalogApply}
                </button>
                <Show when=any_filter>
                    <a class="button button--secondary" href=routes::CATALOG>
                        {M::CatalogClear}
                    </a>
                </Show>
            </div>
            // On a phone these would push the gifts below the first screen: there they start
            // folded, one tap away.
            <details class="catalog-filters__more" open=browser::wide_screen()>
                <summary>{M::CatalogMoreFilters}</summary>
                <ShipsTo draft />
                <fieldset class="filter-group">
                    <legend>{M::CatalogCategories}</legend>
                    {move || {
                        categories
                            .get()
                            .into_iter()
                            .map(|group| view! { <CategoryGroupChecks group draft /> })
                            .collect_view()
                    }}
                </fieldset>
            </details>
        </form>
    }
}

/// "Ships to": a country to add, and the chosen ones as removable chips.
#[component]
fn ShipsTo(draft: FilterDraft) -> impl IntoView {
    let chosen = draft.chosen_country;
    view! {
        <fieldset class="filter-group">
            <legend>{M::CatalogShipsTo}</legend>
            <div class="field field--inline">
                <label for="catalog-country">{M::CatalogCountry}</label>
                <select
                    id="catalog-country"
                    prop:value=move || chosen.get()
                    on:change=move |ev| chosen.set(event_target_value(&ev))
                >
                    <option value="">{M::CatalogChooseCountry}</option>
                    // The contract's country names (English), as the platform's data.
                    {countries_by_name()
                        .into_iter()
                        .map(|(code, name)| {
                            view! { <option value=code translate="no">{format!("{name} ({code})")}</option> }
                        })
                        .collect_view()}
                </select>
                <button type="button" class="button button--small" on:click=move |_| draft.add_country()>
                    {M::CatalogAddCountry}
                </button>
            </div>
            <ul class="chips" aria-label=M::CatalogChosenCountries>
                <For each=move || draft.countries.get() key=|code| code.clone() let:code>
                    <li class="chip">
                        <span translate="no">{country_label(&code)}</span>
                        <button
                            type="button"
                            class="chip__remove"
                            aria-label={
                                let label = country_label(&code);
                                move || msg::catalog_remove_country(&label)
                            }
                            on:click=move |_| draft.remove_country(&code)
                        >
                            "×"
                        </button>
                    </li>
                </For>
            </ul>
        </fieldset>
    }
}

/// One group of categories as checkboxes; ticking one applies at once.
#[component]
fn CategoryGroupChecks(group: CategoryGroup, draft: FilterDraft) -> impl IntoView {
    let checks = group
        .children
        .into_iter()
        .map(|category| {
            let id = category.id.clone();
            let checked = {
                let id = id.clone();
                move || draft.picked.with(|p| p.contains(&id))
            };
            view! {
                <label class="check">
                    <input
                        type="checkbox"
                        value=id.clone()
                        prop:checked=checked
                        on:change=move |ev| draft.toggle_category(id.clone(), event_target_checked(&ev))
                    />
                    <span translate="no">{category.name}</span>
                </label>
            }
        })
        .collect_view();
    view! {
        <fieldset class="filter-subgroup">
            <legend translate="no">{group.group_name.clone()}</legend>
            {checks}
        </fieldset>
    }
}
