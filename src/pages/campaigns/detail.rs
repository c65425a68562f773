//! `/campaigns/:id`: one campaign with every field the platform gives. An id the platform
//! does not know shows its own "Touch not found" sentence, not an empty page.

use gifting_api::countries;
use gifting_api::paths::endpoint;
use gifting_api::rest::{Campaign, TouchResponse};
use leptos::prelude::*;

use super::creator::CreatorName;
use super::display::{delivery_label, price_text};
use crate::api::ApiError;
use crate::components::format::{date_time, money, region_name};
use crate::components::Breadcrumb;
use crate::components::ScreenHeading;
use crate::components::{use_by_id, ErrorPanel, ErrorView, Loaded, NotFound};
use crate::i18n::{language, live_text, msg, t, M};
use crate::routes;
use crate::spend::cells::{CampaignSends, CampaignSpent};

#[component]
pub(crate) fn CampaignPage() -> impl IntoView {
    // Not an id at all: the platform could only say it does not know it.
    let (_, touch) = use_by_id(msg::campaigns_not_an_id, |api, id| async move {
        let answer = api
            .get_json::<TouchResponse>(endpoint::READ_TOUCH.call(&[&id.to_string()]))
            .await;
        answer.map(|r| r.touch)
    });
    let on_error: ErrorView =
        Callback::new(|(error, on_retry): (ApiError, Callback<()>)| match error {
            ApiError::NotFound { message } => view! {
                <NotFound
                    title=M::CampaignsNotFound
                    message
                    fallback=M::CampaignsNotFoundExplain
                    back=(routes::CAMPAIGNS, M::CampaignsBack)
                    testid="campaign-not-found"
                />
            }
            .into_any(),
            error => view! {
                <ScreenHeading title=M::CampaignsCampaign within=M::CampaignsTitle />
                <ErrorPanel error on_retry />
            }
            .into_any(),
        });
    view! {
        <Breadcrumb href=routes::CAMPAIGNS label=M::CampaignsAllCampaigns />
        <Loaded resource=touch on_error let:campaign>
            <CampaignFacts campaign />
        </Loaded>
    }
}

/// A value the platform may leave out: itself (the platform's, not translated), or "None".
fn or_none(value: Option<String>) -> AnyView {
    match value.filter(|v| !v.trim().is_empty()) {
        Some(value) => view! { <span translate="no">{value}</span> }.into_any(),
        None => M::CampaignsNone.into_any(),
    }
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
        status,
        delivery_type,
        crm_key,
        ship_to_countries,
        ..
    } = campaign.clone();
    let countries = ship_to_countries
        .into_iter()
        .map(|code| view! { <li translate="no">{live_text(move || country_label(&code))}</li> })
        .collect_view();
    let platform_delivery = (!delivery_type.is_known()).then_some("no");
    view! {
        <ScreenHeading title=name within=M::CampaignsTitle class="campaign-title" platform_data=true />
        <dl class="facts campaign-facts" data-testid="campaign-facts">
            <dt>{M::CampaignsId}</dt>
            <dd>{id.to_string()}</dd>
            <dt>{M::CampaignsStatus}</dt>
            <dd translate="no">{status}</dd>
            <dt>{M::CampaignsDeliveryType}</dt>
            <dd translate=platform_delivery>{live_text(move || delivery_label(&delivery_type))}</dd>
            <dt>{M::CampaignsDescription}</dt>
            <dd class="campaign-facts__description" translate="no">{description}</dd>
            <CampaignPrice campaign />
            <dt>{M::CampaignsStarts}</dt>
            <dd>
                <Instant at=start_date />
            </dd>
            <dt>{M::CampaignsEnds}</dt>
            <dd>
                {match end_date {
                    Some(end) => view! { <Instant at=end /> }.into_any(),
                    None => M::CampaignsNoEndDate.into_any(),
                }}
            </dd>
            <dt>{M::CampaignsCreated}</dt>
            <dd>
                <Instant at=created_at />
            </dd>
            <CampaignMonth id user_id />
            <dt>{M::CampaignsGiftId}</dt>
            <dd>{gift_id.to_string()}</dd>
            <dt>{M::CampaignsCrmKey}</dt>
            <dd>{or_none(crm_key)}</dd>
            <dt>{M::CampaignsShipsTo}</dt>
            <dd>
                <ul class="campaign-facts__countries">{countries}</ul>
            </dd>
        </dl>
        <p>
            <a href=format!("{}?campaign={id}", routes::SENDS)>{M::CampaignsLoadedSends}</a>
        </p>
    }
}

/// The campaign's price, the range a sender picks from, and its currency.
#[component]
fn CampaignPrice(campaign: Campaign) -> impl IntoView {
    let currency = campaign.currency.clone();
    let range_end = |v: Option<String>| {
        let currency = currency.clone();
        move || match &v {
            Some(v) => money(&currency, v),
            None => t(M::CampaignsNone).to_string(),
        }
    };
    let fixed = if campaign.is_default_price {
        M::CampaignsFixedYes
    } else {
        M::CampaignsFixedNo
    };
    let (low, high) = (
        campaign.starting_egift_price.clone(),
        campaign.ending_egift_price.clone(),
    );
    view! {
        <dt>{M::CampaignsPrice}</dt>
        <dd>{live_text(move || price_text(&campaign))}</dd>
        <dt>{M::CampaignsFixedPrice}</dt>
        <dd>{fixed}</dd>
        <dt>{M::CampaignsLowestPrice}</dt>
        <dd>{range_end(low)}</dd>
        <dt>{M::CampaignsHighestPrice}</dt>
        <dd>{range_end(high)}</dd>
        <dt>{M::CampaignsCurrency}</dt>
        <dd translate="no">{currency.clone()}</dd>
    }
}

/// Who made the campaign, and its sends this month and their cost, from the walk Home and
/// Teams share.
#[component]
fn CampaignMonth(id: u64, user_id: u64) -> impl IntoView {
    view! {
        <dt>{M::CampaignsCreatedBy}</dt>
        <dd data-testid="campaign-creator"><CreatorName user_id /></dd>
        <dt>{M::CampaignsSendsThisMonth}</dt>
        <dd data-testid="campaign-sends"><CampaignSends touch=id /></dd>
        <dt>{M::CampaignsSpentThisMonth}</dt>
        <dd data-testid="campaign-spent"><CampaignSpent touch=id /></dd>
    }
}

/// An instant the platform gave, in the admin's locale.
#[component]
fn Instant(at: String) -> impl IntoView {
    let shown = at.clone();
    view! { <time datetime=at>{live_text(move || date_time(&shown))}</time> }
}

/// A country as the list names it: "Germany (DE)", and in another language the browser's
/// name for it where it has one ("Deutschland (DE)"); an unknown code as the platform wrote it.
fn country_label(code: &str) -> String {
    let upper = code.trim().to_ascii_uppercase();
    match countries::country_name(code) {
        Some(english) => {
            let local = (language() != "en").then(|| region_name(&upper)).flatten();
            format!("{} ({upper})", local.as_deref().unwrap_or(english))
        }
        None => code.trim().to_string(),
    }
}
