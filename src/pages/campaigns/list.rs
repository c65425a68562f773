//! `/campaigns?page=&per_page=&delivery_type=`: the active campaigns, newest first.

use gifting_api::paths::endpoint;
use gifting_api::rest::{Campaign, TouchPage, TouchesQuery};
use gifting_api::DeliveryType;
use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_navigate, use_query_map};
use leptos_router::NavigateOptions;

use super::display::{delivery_label, price_text, DeliveryFilter, KEY_DELIVERY};
use super::search::search_all;
use crate::api::use_api;
use crate::components::country_codes::CountryCodes;
use crate::components::format::date;
use crate::components::query_href::href_with_first_page;
use crate::components::sort::{by_money, by_text, by_time, Compare};
use crate::components::table::{number, text};
use crate::components::ScreenHeading;
use crate::components::{remember_last_filters, NameSearch, KEY_SEARCH};
use crate::components::{
    use_page_query, use_shown_page, Column, DataTable, Loaded, Pager, ShownPage,
};
use crate::i18n::{live_text, msg, t, M};
use crate::routes;
use crate::spend::cells::{CampaignSends, CampaignSpent};

#[component]
pub(crate) fn CampaignsPage() -> impl IntoView {
    remember_last_filters("campaigns", &[KEY_SEARCH, KEY_DELIVERY]);
    let api = use_api();
    let query = use_query_map();
    let paging = use_page_query();
    let delivery =
        Memo::new(move |_| query.with(|q| DeliveryFilter::parse(q.get_str(KEY_DELIVERY))));

    let touches = LocalResource::new(move || {
        let query = TouchesQuery {
            page: paging.get(),
            delivery_type: delivery.with(DeliveryFilter::query_value),
        };
        async move {
            let call = endpoint::LIST_TOUCHES
                .call(&[])
                .query(&query.to_query_string());
            api.get_json::<TouchPage>(call).await
        }
    });

    // Where the rows on screen sit, for the pager mounted once beside them.
    let shown = use_shown_page(touches, |p| {
        Some(ShownPage::new(p.total_posts, p.current_page, p.per_page))
    });

    let unknown_note = move || {
        delivery.with(|d| match d {
            DeliveryFilter::Unknown(text) => Some(view! {
                <p class="notice" role="status">
                    {msg::campaigns_unknown_delivery(text)}
                </p>
            }),
            _ => None,
        })
    };

    let search = Memo::new(move |_| {
        query.with(|q| {
            q.get_str(KEY_SEARCH)
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
        })
    });
    let body = move || match search.get() {
        Some(text) => {
            // A new delivery choice searches again.
            let kind = delivery.with(DeliveryFilter::query_value);
            view! { <SearchResults text kind /> }.into_any()
        }
        None => view! {
            <Loaded resource=touches let:page>
                <CampaignsTable campaigns=page.touches.clone() />
            </Loaded>
            <Pager shown />
        }
        .into_any(),
    };
    view! {
        <ScreenHeading title=M::CampaignsTitle intro=M::CampaignsIntro />
        <NameSearch id="campaigns-search" label=M::CampaignsSearch />
        <DeliveryChoice delivery />
        {unknown_note}
        {body}
    }
}

/// Every campaign whose name matches, read from all pages (paced), newest first.
#[component]
fn SearchResults(text: String, kind: Option<DeliveryType>) -> impl IntoView {
    let api = use_api();
    let found = LocalResource::new(move || search_all(api, kind.clone(), text.clone()));
    view! {
        <Loaded resource=found let:campaigns>
            <p class="muted" role="status" data-testid="campaigns-found">
                {let n = campaigns.len() as u64; move || msg::campaigns_found(n)}
            </p>
            <CampaignsTable campaigns />
        </Loaded>
    }
}

/// "All / Physical (mail) / eGift (email)" as radio buttons; a choice rewrites the address.
#[component]
fn DeliveryChoice(delivery: Memo<DeliveryFilter>) -> impl IntoView {
    let query = use_query_map();
    let location = use_location();
    let navigate = use_navigate();
    let choose = move |value: Option<DeliveryType>| {
        let href = query.with_untracked(|q| {
            href_with_first_page(
                &location.pathname.get_untracked(),
                q,
                &[(KEY_DELIVERY, value.map(|d| d.as_str().to_string()))],
            )
        });
        navigate(
            &href,
            NavigateOptions {
                scroll: false,
                ..NavigateOptions::default()
            },
        );
    };
    let options: [(Option<DeliveryType>, M); 3] = [
        (None, M::CampaignsDeliveryAll),
        (Some(DeliveryType::Mail), M::CampaignsDeliveryMail),
        (Some(DeliveryType::Email), M::CampaignsDeliveryEmail),
    ];
    let radios = options
        .into_iter()
        .map(|(value, label)| {
            let id = format!("delivery-{}", value.as_ref().map_or("all", |d| d.as_str()));
            let checked = {
                let value = value.clone();
                move || delivery.with(|d| d.query_value() == value)
            };
            let choose = choose.clone();
            view! {
                <span class="choice">
                    <input
                        type="radio"
                        name="delivery_type"
                        id=id.clone()
                        value=value.as_ref().map_or("", |d| d.as_str()).to_string()
                        prop:checked=checked
                        on:change=move |_| choose(value.clone())
                    />
                    <label for=id>{label}</label>
                </span>
            }
        })
        .collect_view();
    view! {
        <fieldset class="delivery-choice">
            <legend>{M::CampaignsDeliveryType}</legend>
            {radios}
        </fieldset>
    }
}

#[rustfmt::skip]
const CAMPAIGN_COLUMNS: &[Column] = &[text(M::CampaignsColumnName).sorts("name"), text(M::CampaignsColumnDelivery).sorts("delivery"), text(M::CampaignsPrice).sorts("price"), text(M::CampaignsStarts).sorts("starts"), text(M::CampaignsEnds).sorts("ends"), text(M::CampaignsShipsTo), number(M::CampaignsSendsThisMonth), number(M::CampaignsSpentThisMonth)];

fn campaign_order(key: &str) -> Option<Compare<Campaign>> {
    Some(match key {
        "name" => |a, b| by_text(&a.name, &b.name),
        "delivery" => |a, b| a.delivery_type.as_str().cmp(b.delivery_type.as_str()),
        "price" => |a, b| by_money(lowest_price(a), lowest_price(b)),
        "starts" => |a, b| by_time(&a.start_date, &b.start_date),
        // No end date sorts last: it runs longest.
        "ends" => |a, b| {
            by_time(
                a.end_date.as_deref().unwrap_or(""),
                b.end_date.as_deref().unwrap_or(""),
            )
        },
        _ => return None,
    })
}

/// What a campaign's price starts at, in its currency ("" when the sender chooses).
fn lowest_price(c: &Campaign) -> (&str, &str) {
    (
        &c.currency,
        c.starting_egift_price
            .as_deref()
            .or(c.ending_egift_price.as_deref())
            .unwrap_or(""),
    )
}

#[component]
fn CampaignsTable(campaigns: Vec<Campaign>) -> impl IntoView {
    view! {
        <DataTable
            caption=M::CampaignsTableCaption hidden_caption=true columns=CAMPAIGN_COLUMNS items=campaigns row=campaign_row
            order=campaign_order empty=M::CampaignsNoneMatch class="campaigns-table" testid="campaigns-table"
            sorted_within=M::CampaignsSortedWithin
        />
    }
}

fn campaign_row(c: Campaign) -> AnyView {
    let price = {
        let c = c.clone();
        move || price_text(&c)
    };
    let end_date = c.end_date.clone();
    let end = move || {
        end_date
            .as_deref()
            .map_or_else(|| t(M::CampaignsNoEndDate).to_string(), date)
    };
    let delivery = c.delivery_type.clone();
    // A delivery type added later is the platform's word.
    let platform_word = (!delivery.is_known()).then_some("no");
    view! {
        <tr data-campaign-id=c.id.to_string() data-delivery=c.delivery_type.as_str().to_string()>
            <th scope="row" translate="no">
                <a href=routes::campaign(c.id)>{c.name}</a>
            </th>
            <td translate=platform_word>{live_text(move || delivery_label(&delivery))}</td>
            <td>{price}</td>
            <td>
                <time datetime=c.start_date.clone()>{let start = c.start_date.clone(); move || date(&start)}</time>
            </td>
            <td>{end}</td>
            <td>
                <CountryCodes codes=c.ship_to_countries label=M::CampaignsShipsTo />
            </td>
            <td class="num" data-testid="campaign-sends">
                <CampaignSends touch=c.id />
            </td>
            <td class="num" data-testid="campaign-spent">
                <CampaignSpent touch=c.id />
            </td>
        </tr>
    }
    .into_any()
}
