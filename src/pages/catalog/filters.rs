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
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;

use super::price::{validate_prices, PriceErrors};
use super::url::{catalog_href, UrlFilters};
use crate::routes;

#[component]
pub fn CatalogFilters(
    url: Memo<UrlFilters>,
    categories: Memo<Vec<CategoryGroup>>,
) -> impl IntoView {
    // Stored so the closures below stay `Copy`.
    let navigate = StoredValue::new_local(use_navigate());
    let start = url.get_untracked();
    let text = RwSignal::new(start.query.text_search.clone().unwrap_or_default());
    let min = RwSignal::new(start.min_text.clone());
    let max = RwSignal::new(start.max_text.clone());
    let countries = RwSignal::new(start.query.ship_to_country_codes.clone());
    let picked = RwSignal::new(start.query.category_ids.clone());
    let chosen_country = RwSignal::new(String::new());
    let errors = RwSignal::new(start.problems.clone());

    // The address changed without this form (back button, a link): show what it says.
    Effect::new(move |_| {
        url.with(|u| {
            text.set(u.query.text_search.clone().unwrap_or_default());
            min.set(u.min_text.clone());
            max.set(u.max_text.clone());
            countries.set(u.query.ship_to_country_codes.clone());
            picked.set(u.query.category_ids.clone());
            errors.set(u.problems.clone());
        })
    });

    let apply = move || match validate_prices(&min.get_untracked(), &max.get_untracked()) {
        Err(problems) => errors.set(problems),
        Ok(bounds) => {
            errors.set(PriceErrors::default());
            let text = text.get_untracked().trim().to_string();
            let filters = ProductsQuery {
                after: None,
                price_gte_usd: bounds.min,
                price_lte_usd: bounds.max,
                ship_to_country_codes: countries.get_untracked(),
                category_ids: picked.get_untracked(),
                text_search: (!text.is_empty()).then_some(text),
            };
            let href = catalog_href(&filters);
            if href != catalog_href(&url.get_untracked().query) {
                let navigate = navigate.get_value();
                navigate(&href, NavigateOptions::default());
            }
        }
    };

    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        apply();
    };
    let add_country = move |_| {
        let code = chosen_country.get_untracked();
        if country_name(&code).is_some() && !countries.with_untracked(|c| c.contains(&code)) {
            countries.update(|c| c.push(code));
            chosen_country.set(String::new());
            apply();
        }
    };
    let remove_country = move |code: String| {
        countries.update(|c| c.retain(|x| *x != code));
        apply();
    };
    let toggle_category = move |id: String, on: bool| {
        picked.update(|p| {
            p.retain(|x| *x != id);
            if on {
                p.push(id);
            }
        });
        apply();
    };
    let any_filter = move || url.with(|u| catalog_href(&u.query) != routes::CATALOG);

    let price_field = move |id: &'static str,
                            label: &'static str,
                            value: RwSignal<String>,
                            error: fn(&PriceErrors) -> Option<String>| {
        let error_id = format!("{id}-error");
        let message = move || errors.with(error);
        view! {
            <div class="field">
                <label for=id>{label}</label>
                <input
                    id=id
                    type="text"
                    inputmode="numeric"
                    autocomplete="off"
                    size="8"
                    prop:value=move || value.get()
                    on:input=move |ev| value.set(event_target_value(&ev))
                    aria-invalid=move || message().is_some().to_string()
                    aria-describedby=error_id.clone()
                />
                <p class="field__error" id=error_id aria-live="polite">
                    {message}
                </p>
            </div>
        }
    };

    view! {
        <form class="catalog-filters" role="search" aria-label="Catalog filters" on:submit=on_submit novalidate>
            <div class="field">
                <label for="catalog-text">"Search"</label>
                <input
                    id="catalog-text"
                    type="search"
                    autocomplete="off"
                    prop:value=move || text.get()
                    on:input=move |ev| text.set(event_target_value(&ev))
                />
            </div>
            <fieldset class="filter-group">
                <legend>"Price in US dollars"</legend>
                {price_field("catalog-min-price", "Minimum", min, |e| e.min.clone())}
                {price_field("catalog-max-price", "Maximum", max, |e| e.max.clone())}
            </fieldset>
            <div class="catalog-filters__actions">
                <button type="submit" class="button">
                    "Apply filters"
                </button>
                <Show when=any_filter>
                    <a class="button button--secondary" href=routes::CATALOG>
                        "Clear all filters"
                    </a>
                </Show>
            </div>
            <fieldset class="filter-group">
                <legend>"Ships to"</legend>
                <div class="field field--inline">
                    <label for="catalog-country">"Country"</label>
                    <select
                        id="catalog-country"
                        prop:value=move || chosen_country.get()
                        on:change=move |ev| chosen_country.set(event_target_value(&ev))
                    >
                        <option value="">"Choose a country…"</option>
                        {countries_by_name()
                            .into_iter()
                            .map(|(code, name)| {
                                view! { <option value=code>{format!("{name} ({code})")}</option> }
                            })
                            .collect_view()}
                    </select>
                    <button type="button" class="button button--small" on:click=add_country>
                        "Add country"
                    </button>
                </div>
                <ul class="chips" aria-label="Selected ship-to countries">
                    <For each=move || countries.get() key=|code| code.clone() let:code>
                        <li class="chip">
                            <span>{country_label(&code)}</span>
                            <button
                                type="button"
                                class="chip__remove"
                                aria-label=format!("Remove {}", country_label(&code))
                                on:click={
                                    let code = code.clone();
                                    move |_| remove_country(code.clone())
                                }
                            >
                                "×"
                            </button>
                        </li>
                    </For>
                </ul>
            </fieldset>
            <fieldset class="filter-group">
                <legend>"Categories"</legend>
                {move || {
                    categories
                        .get()
                        .into_iter()
                        .map(|group| {
                            view! {
                                <fieldset class="filter-subgroup">
                                    <legend>{group.group_name.clone()}</legend>
                                    {group
                                        .children
                                        .into_iter()
                                        .map(|category| {
                                            let id = category.id.clone();
                                            let checked = {
                                                let id = id.clone();
                                                move || picked.with(|p| p.contains(&id))
                                            };
                                            view! {
                                                <label class="check">
                                                    <input
                                                        type="checkbox"
                                                        value=id.clone()
                                                        prop:checked=checked
                                                        on:change=move |ev| {
                                                            toggle_category(id.clone(), event_target_checked(&ev))
                                                        }
                                                    />
                                                    <span>{category.name}</span>
                                                </label>
                                            }
                                        })
                                        .collect_view()}
                                </fieldset>
                            }
                        })
                        .collect_view()
                }}
            </fieldset>
        </form>
    }
}
