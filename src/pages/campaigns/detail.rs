//! `/campaigns/:id`: one campaign with every field the platform gives. An id the platform
//! does not know shows its own "Touch not found" sentence, not an empty page.

use gifting_api::countries;
use gifting_api::paths::endpoint;
use gifting_api::rest::{Campaign, TouchResponse};
use leptos::prelude::*;

use super::creator::CreatorName;
use super::display::{delivery_label, price_text};
use crate::api::ApiError;
use crate::components::format::{date_time, money};
use crate::components::Breadcrumb;
use crate::components::ScreenHeading;
use crate::components::{use_by_id, ErrorPanel, ErrorView, Loaded, NotFound};
use crate::routes;
use crate::spend::cells::{CampaignSends, CampaignSpent};

#[component]
pub(crate) fn CampaignPage() -> impl IntoView {
    // Not an id at all: the platform could only say it does not know it.
    let (_, touch) = use_by_id(
        |raw| format!("\u{201c}{raw}\u{201d} is not a campaign id."),
        |api, id| async move {
            let answer = api
                .get_json::<TouchResponse>(endpoint::READ_TOUCH.call(&[&id.to_string()]))
                .await;
            answer.map(|r| r.touch)
        },
    );
    let on_error: ErrorView =
        Callback::new(|(error, on_retry): (ApiError, Callback<()>)| match error {
            ApiError::NotFound { message } => view! {
                <NotFound
                    title="Campaign not found"
                    message
                    fallback="The platform does not know this campaign."
                    back=(routes::CAMPAIGNS, "Back to the campaigns")
                    testid="campaign-not-found"
                />
            }
            .into_any(),
            error => view! {
                <ScreenHeading title="Campaign" within="Campaigns" />
                <ErrorPanel error on_retry />
            }
            .into_any(),
        });
    view! {
        <Breadcrumb href=routes::CAMPAIGNS label="← All campaigns" />
        <Loaded resource=touch on_error let:campaign>
            <CampaignFacts campaign />
        </Loaded>
    }
}

fn or_none(value: Option<String>) -> String {
    value
        .filter(|v| !v.trim().is_empty())
        .unwrap_or_else(|| "None".to_string())
}

#[component]
fn CampaignFacts(campaign: Campaign) -> impl IntoView {
    let Campaign {
        id,
        name,
        start_date,
        end_date,
        description,
        created_at,
        user_id,
        gift_id,
        starting_egift_price,
        ending_egift_price,
        status,
        is_default_price,
        delivery_type,
        crm_key,
        ship_to_countries,
        currency,
    } = campaign.clone();
    let price = price_text(&campaign);
    let range_end = |v: Option<String>| match v {
        Some(v) => money(&currency, &v),
        None => "None".to_string(),
    };
    let countries = ship_to_countries
        .into_iter()
        .map(|code| view! { <li>{countries::country_label(&code)}</li> })
        .collect_view();
    view! {
        <ScreenHeading title=name within="Campaigns" class="campaign-title" />
        <dl class="facts campaign-facts" data-testid="campaign-facts">
            <dt>"Campaign id"</dt>
            <dd>{id.to_string()}</dd>
            <dt>"Status"</dt>
            <dd>{status}</dd>
            <dt>"Delivery type"</dt>
            <dd>{delivery_label(&delivery_type)}</dd>
            <dt>"Description"</dt>
            <dd class="campaign-facts__description">{description}</dd>
            <dt>"Price"</dt>
            <dd>{price}</dd>
            <dt>"Fixed price"</dt>
            <dd>{if is_default_price { "Yes" } else { "No: the sender picks from the range" }}</dd>
            <dt>"Lowest eGift price"</dt>
            <dd>{range_end(starting_egift_price)}</dd>
            <dt>"Highest eGift price"</dt>
            <dd>{range_end(ending_egift_price)}</dd>
            <dt>"Currency"</dt>
            <dd>{currency.clone()}</dd>
            <dt>"Starts"</dt>
            <dd>
                <time datetime=start_date.clone()>{date_time(&start_date)}</time>
            </dd>
            <dt>"Ends"</dt>
            <dd>
                {match end_date {
                    Some(end) => view! { <time datetime=end.clone()>{date_time(&end)}</time> }.into_any(),
                    None => "No end date".into_any(),
                }}
            </dd>
            <dt>"Created"</dt>
            <dd>
                <time datetime=created_at.clone()>{date_time(&created_at)}</time>
            </dd>
            <CampaignMonth id user_id />
            <dt>"Gift id"</dt>
            <dd>{gift_id.to_string()}</dd>
            <dt>"CRM key"</dt>
            <dd>{or_none(crm_key)}</dd>
            <dt>"Ships to"</dt>
            <dd>
                <ul class="campaign-facts__countries">{countries}</ul>
            </dd>
        </dl>
        <p>
            <a href=format!("{}?campaign={id}", routes::SENDS)>"Loaded sends from this campaign"</a>
        </p>
    }
}

/// Who made the campaign, and its sends this month and their cost, from the walk Home and
/// Teams share.
#[component]
fn CampaignMonth(id: u64, user_id: u64) -> impl IntoView {
    view! {
        <dt>"Created by"</dt>
        <dd data-testid="campaign-creator"><CreatorName user_id /></dd>
        <dt>"Sends this month"</dt>
        <dd data-testid="campaign-sends"><CampaignSends touch=id /></dd>
        <dt>"Spent this month"</dt>
        <dd data-testid="campaign-spent"><CampaignSpent touch=id /></dd>
    }
}
