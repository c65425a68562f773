//! Campaigns (the platform calls them touches): `/campaigns`, the paged list of active
//! campaigns with a delivery-type filter in the address, and `/campaigns/:id`, one campaign
//! with every field the platform gives.

mod creator;
mod detail;
pub(crate) mod display;
mod list;
pub(crate) mod search;

pub(crate) use detail::CampaignPage;
pub(crate) use list::CampaignsPage;
