//! The platform's enumerations. Each keeps an `Other(String)` case so a value the platform adds
//! later reads fine and shows as its own text instead of breaking a page.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

macro_rules! platform_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident => $wire:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $($variant,)+
            /// A value this console does not know yet, kept as the platform sent it.
            Other(String),
        }

        impl $name {
            /// Every value the platform documents, in its documented order.
            pub const KNOWN: &'static [$name] = &[$($name::$variant),+];

            /// The value exactly as it travels on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    $($name::$variant => $wire,)+
                    $name::Other(text) => text,
                }
            }

            /// Reads a wire value; anything unknown becomes `Other`.
            pub fn parse(text: &str) -> Self {
                match text {
                    $($wire => $name::$variant,)+
                    other => $name::Other(other.to_owned()),
                }
            }

            /// True for the values the platform documents.
            pub fn is_known(&self) -> bool {
                !matches!(self, $name::Other(_))
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = String::deserialize(d)?;
                Ok($name::parse(&text))
            }
        }
    };
}

platform_enum!(
    /// A user's role on the platform (SCIM `userType`, REST `role`).
    Role {
        Sender => "sender",
        Manager => "manager",
        Admin => "admin",
    }
);

platform_enum!(
    /// A campaign's delivery: `mail` is a physical item, `email` an eGift.
    DeliveryType {
        Mail => "mail",
        Email => "email",
    }
);

platform_enum!(
    /// Where a send is in its life.
    SendStatus {
        AddressConfirmationCancelled => "Address Confirmation - Cancelled",
        BouncedAndCredited => "Bounced and Credited",
        Cancelled => "Cancelled",
        Clicked => "Clicked",
        CollectingRecipientInfo => "Collecting recipient info",
        ConfirmingAddress => "Confirming Address",
        Delivered => "Delivered",
        ExpiredAndCredited => "Expired and Credited",
        Failed => "Failed",
        Opened => "Opened",
        Packed => "Packed",
        Paused => "Paused",
        Processing => "Processing",
        Refunded => "Refunded",
        Sent => "Sent",
        Shipped => "Shipped",
        Undeliverable => "Undeliverable",
        Used => "Used",
        Pending => "pending",
    }
);

platform_enum!(
    /// The kind of gift a send is.
    SendType {
        Retailer => "Retailer",
        HandwrittenNotes => "Handwritten Notes",
        InventoriedSends => "Inventoried Sends",
        ServiceChoice => "Service Choice",
        ServiceDirect => "Service Direct",
        EGiftsInternational => "eGifts International",
        EGiftsUsa => "eGifts USA",
    }
);

platform_enum!(
    /// The finer kind of gift a send is.
    SendSubtype {
        Bundles => "Bundles",
        BuySendViaRetailer => "Buy/Send via Retailer",
        BuySendViaRetailerUk => "Buy/Send via Retailer UK",
        Coffee => "Coffee",
        Custom => "Custom",
        CustomBundles => "Custom Bundles",
        DdoGift => "DDO_GIFT",
        DonateToCharity => "Donate to Charity",
        Experiences => "Experiences",
        HandwrittenNotes => "Handwritten Notes",
        Lunch => "Lunch",
        OnDemand => "On-Demand",
        NetworkEGiftCreditCardUs => "Network eGift Credit Card (US)",
        Wine => "Wine",
        EGiftCardsAustralia => "eGift Cards Australia",
        EGiftCardsBrazil => "eGift Cards Brazil",
        EGiftCardsCanada => "eGift Cards Canada",
        EGiftCardsFrance => "eGift Cards France",
        EGiftCardsGermany => "eGift Cards Germany",
        EGiftCardsIndia => "eGift Cards India",
        EGiftCardsIreland => "eGift Cards Ireland",
        EGiftCardsItaly => "eGift Cards Italy",
        EGiftCardsMexico => "eGift Cards Mexico",
        EGiftCardsNetherlands => "eGift Cards Netherlands",
        EGiftCardsNewZealand => "eGift Cards New Zealand",
        EGiftCardsPoland => "eGift Cards Poland",
        EGiftCardsSingapore => "eGift Cards Singapore",
        EGiftCardsSlovakia => "eGift Cards Slovakia",
        EGiftCardsUk => "eGift Cards UK",
        EGiftCardsUsa => "eGift Cards USA",
    }
);

impl Role {
    /// Parses a role a client asked for; unknown values are refused rather than kept.
    pub fn parse_known(text: &str) -> Option<Role> {
        Some(Role::parse(text)).filter(Role::is_known)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_documented_value_round_trips() {
        for status in SendStatus::KNOWN {
            let json = serde_json::to_string(status).unwrap();
            assert_eq!(&serde_json::from_str::<SendStatus>(&json).unwrap(), status);
        }
        assert_eq!(SendStatus::KNOWN.len(), 19);
        assert_eq!(SendType::KNOWN.len(), 7);
        assert_eq!(SendSubtype::KNOWN.len(), 30);
        assert_eq!(SendStatus::parse("pending"), SendStatus::Pending);
    }

    #[test]
    fn unknown_values_are_kept_not_refused() {
        let s: SendStatus = serde_json::from_str(r#""Teleported""#).unwrap();
        assert_eq!(s, SendStatus::Other("Teleported".into()));
        assert_eq!(serde_json::to_string(&s).unwrap(), r#""Teleported""#);
        let r: Role = serde_json::from_str(r#""auditor""#).unwrap();
        assert!(!r.is_known());
        assert_eq!(Role::parse_known("auditor"), None);
        assert_eq!(Role::parse_known("admin"), Some(Role::Admin));
    }
}
