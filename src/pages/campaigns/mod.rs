//! Campaigns (the platform calls them touches): `/campaigns`, the paged list of active
//! campaigns with a delivery-type filter in the address, and `/campaigns/:id`, one campaign
//! with every field the platform gives.

mod detail;
pub mod display;
mod list;

pub use detail::CampaignPage;
pub use list::CampaignsPage;
