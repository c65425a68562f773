//! Campaign fields in words: delivery type, price, and the list's delivery filter.

use gifting_api::rest::Campaign;
use gifting_api::DeliveryType;

use crate::components::format::money;
use crate::i18n::{msg, t, M};

/// The address parameter of the delivery filter (the platform's own query name).
pub(crate) const KEY_DELIVERY: &str = "delivery_type";

/// "Physical (mail)", "eGift (email)", or the platform's word for a type added later.
pub(crate) fn delivery_label(delivery: &DeliveryType) -> String {
    match delivery {
        DeliveryType::Mail => t(M::CampaignsDeliveryMail).into(),
        DeliveryType::Email => t(M::CampaignsDeliveryEmail).into(),
        DeliveryType::Other(text) => text.clone(),
    }
}

/// The delivery filter as the address has it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum DeliveryFilter {
    All,
    Only(DeliveryType),
    /// A value the platform would refuse (400): shown as "All" with a note.
    Unknown(String),
}

impl DeliveryFilter {
    pub(crate) fn parse(value: Option<&str>) -> DeliveryFilter {
        match value.map(str::trim) {
            None | Some("") => DeliveryFilter::All,
            Some(text) => match DeliveryType::parse(text) {
                known if known.is_known() => DeliveryFilter::Only(known),
                _ => DeliveryFilter::Unknown(text.to_string()),
            },
        }
    }

    /// What the platform is asked for.
    pub(crate) fn query_value(&self) -> Option<DeliveryType> {
        match self {
            DeliveryFilter::Only(d) => Some(d.clone()),
            _ => None,
        }
    }
}

/// "$10.00 – $50.00" for an eGift range (in the viewer's locale), otherwise the fixed price's
/// currency.
pub(crate) fn price_text(campaign: &Campaign) -> String {
    let currency = &campaign.currency;
    match (&campaign.starting_egift_price, &campaign.ending_egift_price) {
        (Some(low), Some(high)) => format!(
            "{} \u{2013} {}",
            money(currency, low),
            money(currency, high)
        ),
        (Some(low), None) => msg::campaigns_price_from(&money(currency, low)),
        (None, Some(high)) => msg::campaigns_price_up_to(&money(currency, high)),
        (None, None) if campaign.is_default_price => msg::campaigns_price_fixed(currency),
        (None, None) => msg::campaigns_price_chosen(currency),
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn campaign(low: Option<&str>, high: Option<&str>, fixed: bool) -> Campaign {
        Campaign {
            id: 2001,
            name: "Birthday eGift".into(),
            start_date: "2025-03-01T00:00:00+00:00".into(),
            end_date: None,
            description: "A card".into(),
            created_at: "2025-02-01T00:00:00+00:00".into(),
            user_id: 3,
            gift_id: 40_001,
            starting_egift_price: low.map(str::to_owned),
            ending_egift_price: high.map(str::to_owned),
            status: "Active".into(),
            is_default_price: fixed,
            delivery_type: DeliveryType::Email,
            crm_key: None,
            ship_to_countries: vec!["US".into()],
            currency: "EUR".into(),
        }
    }

    #[wasm_bindgen_test]
    fn prices_read_as_fixed_or_a_range_with_currency() {
        assert_eq!(
            price_text(&campaign(Some("10"), Some("50.5"), false)),
            "€10.00 – €50.50"
        );
        assert_eq!(price_text(&campaign(None, None, true)), "Fixed price (EUR)");
        assert_eq!(price_text(&campaign(Some("5"), None, false)), "From €5.00");
        assert_eq!(
            price_text(&campaign(None, Some("1250"), false)),
            "Up to €1,250.00"
        );
        assert_eq!(
            price_text(&campaign(None, None, false)),
            "Chosen by the sender (EUR)"
        );
    }

    #[wasm_bindgen_test]
    fn delivery_filter_reads_the_address() {
        assert_eq!(DeliveryFilter::parse(None), DeliveryFilter::All);
        assert_eq!(DeliveryFilter::parse(Some("")), DeliveryFilter::All);
        assert_eq!(
            DeliveryFilter::parse(Some("mail")),
            DeliveryFilter::Only(DeliveryType::Mail)
        );
        assert_eq!(
            DeliveryFilter::parse(Some("email")).query_value(),
            Some(DeliveryType::Email)
        );
        assert_eq!(
            DeliveryFilter::parse(Some("fax")),
            DeliveryFilter::Unknown("fax".into())
        );
        assert_eq!(DeliveryFilter::parse(Some("fax")).query_value(), None);
        assert_eq!(delivery_label(&DeliveryType::Mail), "Physical (mail)");
        assert_eq!(
            delivery_label(&DeliveryType::Other("drone".into())),
            "drone"
        );
    }
}
