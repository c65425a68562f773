//! REST v3 resources and their pagination envelopes.

use crate::enums::{DeliveryType, Role, SendStatus, SendSubtype, SendType};
use crate::query::QueryBuilder;
use crate::serde_quirks::{decimal_number, int_or_string};
use serde::{Deserialize, Serialize};

/// `per_page` when the client sends none.
pub const DEFAULT_PER_PAGE: u32 = 25;
/// The largest `per_page` of every REST v3 list.
pub const MAX_PER_PAGE: u32 = 100;

/// REST v3 error body, for every status.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct RestError {
    pub message: String,
}

impl RestError {
    pub fn new(message: impl Into<String>) -> Self {
        RestError {
            message: message.into(),
        }
    }
}

/// `page` and `per_page` as a client sends them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PageQuery {
    pub page: Option<u32>,
    pub per_page: Option<u32>,
}

impl PageQuery {
    pub fn new(page: u32, per_page: u32) -> Self {
        PageQuery {
            page: Some(page),
            per_page: Some(per_page),
        }
    }

    fn builder(&self) -> QueryBuilder {
        QueryBuilder::new()
            .push_opt("page", self.page)
            .push_opt("per_page", self.per_page)
    }

    pub fn to_query_string(&self) -> String {
        self.builder().build()
    }
}

/// `page` < 1 (or absent) reads as 1.
pub fn effective_page(page: Option<i64>) -> u32 {
    page.filter(|&p| p >= 1)
        .map_or(1, |p| p.min(u32::MAX as i64) as u32)
}

/// `per_page` absent reads as 25, < 1 as 1, > 100 as 100.
pub fn effective_per_page(per_page: Option<i64>) -> u32 {
    match per_page {
        None => DEFAULT_PER_PAGE,
        Some(n) => n.clamp(1, MAX_PER_PAGE as i64) as u32,
    }
}

/// Number of pages for `total` items, at least 1 so "page 1 of 1" reads right when empty.
pub fn page_count(total: u64, per_page: u32) -> u64 {
    total.div_ceil(u64::from(per_page.max(1))).max(1)
}

/// A paged REST v3 answer, whatever its counter and item key are called.
pub trait Paged {
    type Item;
    fn current_page(&self) -> u32;
    fn per_page(&self) -> u32;
    fn total(&self) -> u64;
    fn items(&self) -> &[Self::Item];
    fn into_items(self) -> Vec<Self::Item>;
}

macro_rules! envelope {
    ($(#[$meta:meta])* $name:ident, $item:ty, $total:ident, $items:ident) => {
        $(#[$meta])*
        #[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
        pub struct $name {
            #[serde(with = "int_or_string_u32")]
            pub current_page: u32,
            #[serde(with = "int_or_string_u32")]
            pub per_page: u32,
            #[serde(with = "int_or_string")]
            pub $total: u64,
            pub $items: Vec<$item>,
        }

        impl Paged for $name {
            type Item = $item;
            fn current_page(&self) -> u32 {
                self.current_page
            }
            fn per_page(&self) -> u32 {
                self.per_page
            }
            fn total(&self) -> u64 {
                self.$total
            }
            fn items(&self) -> &[$item] {
                &self.$items
            }
            fn into_items(self) -> Vec<$item> {
                self.$items
            }
        }
    };
}

/// u32 counterpart of [`int_or_string`] for paging numbers.
mod int_or_string_u32 {
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &u32, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(*v)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        let wide: u64 = super::int_or_string::deserialize(d)?;
        u32::try_from(wide).map_err(|_| serde::de::Error::custom("page number too large"))
    }
}

envelope!(
    /// `GET /api/v3/send`
    SendPage, Send, total_count, sends
);
envelope!(
    /// `GET /api/v3/users` (active users only)
    UserPage, RestUser, total_users, users
);
envelope!(
    /// `GET /api/v3/touches`
    TouchPage, Campaign, total_posts, touches
);
envelope!(
    /// `GET /api/v3/groups`
    GroupPage, TeamGroup, total_groups, groups
);

/// The campaign a send came from.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct SendTouch {
    #[serde(with = "int_or_string")]
    pub id: u64,
    pub name: String,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Recipient {
    pub name: String,
    pub email: String,
    pub company_name: String,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Sender {
    #[serde(with = "int_or_string")]
    pub id: u64,
    pub name: String,
    pub email: String,
    #[serde(with = "int_or_string")]
    pub team_id: u64,
    pub team_name: String,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct StatusUpdate {
    pub status: SendStatus,
    pub occurred_at: String,
}

/// One gift dispatched to one recipient.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Send {
    #[serde(with = "int_or_string")]
    pub id: u64,
    pub send_gid: String,
    #[serde(rename = "type")]
    pub kind: SendType,
    pub subtype: SendSubtype,
    pub currency: String,
    /// Decimal text; may change until the send reaches a final status.
    pub current_total_cost: String,
    pub status: SendStatus,
    pub created_at: String,
    pub touch: SendTouch,
    pub recipient: Recipient,
    pub sender: Sender,
    pub sent_via: String,
    pub status_updates: Vec<StatusUpdate>,
}

/// What a send's status means to an admin tracking it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StatusGroup {
    InProgress,
    DeliveredOrUsed,
    Problem,
    MoneyReturned,
    /// A status the platform added after this console was built.
    Other,
}

impl StatusGroup {
    pub const ALL: [StatusGroup; 5] = [
        StatusGroup::InProgress,
        StatusGroup::DeliveredOrUsed,
        StatusGroup::Problem,
        StatusGroup::MoneyReturned,
        StatusGroup::Other,
    ];

    pub fn label(self) -> &'static str {
        match self {
            StatusGroup::InProgress => "In progress",
            StatusGroup::DeliveredOrUsed => "Delivered or used",
            StatusGroup::Problem => "Problem",
            StatusGroup::MoneyReturned => "Money returned",
            StatusGroup::Other => "Other",
        }
    }

    /// A stable token for URLs and CSS classes.
    pub fn slug(self) -> &'static str {
        match self {
            StatusGroup::InProgress => "in-progress",
            StatusGroup::DeliveredOrUsed => "delivered",
            StatusGroup::Problem => "problem",
            StatusGroup::MoneyReturned => "returned",
            StatusGroup::Other => "other",
        }
    }

    pub fn from_slug(slug: &str) -> Option<StatusGroup> {
        StatusGroup::ALL.into_iter().find(|g| g.slug() == slug)
    }
}

impl SendStatus {
    pub fn group(&self) -> StatusGroup {
        use SendStatus::*;
        match self {
            Pending
            | CollectingRecipientInfo
            | ConfirmingAddress
            | Processing
            | Packed
            | Shipped
            | Sent
            | Opened
            | Clicked
            | Paused => StatusGroup::InProgress,
            Delivered | Used => StatusGroup::DeliveredOrUsed,
            Failed | Undeliverable | Cancelled | AddressConfirmationCancelled => {
                StatusGroup::Problem
            }
            BouncedAndCredited | ExpiredAndCredited | Refunded => StatusGroup::MoneyReturned,
            Other(_) => StatusGroup::Other,
        }
    }

    /// A send in a final status no longer changes (its cost included).
    pub fn is_final(&self) -> bool {
        matches!(
            self.group(),
            StatusGroup::DeliveredOrUsed | StatusGroup::Problem | StatusGroup::MoneyReturned
        )
    }
}

/// A campaign (the platform calls it a touch).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Campaign {
    #[serde(with = "int_or_string")]
    pub id: u64,
    pub name: String,
    pub start_date: String,
    #[serde(default)]
    pub end_date: Option<String>,
    pub description: String,
    pub created_at: String,
    #[serde(with = "int_or_string")]
    pub user_id: u64,
    #[serde(with = "int_or_string")]
    pub gift_id: u64,
    /// Decimal text of a JSON number; only eGift campaigns with a range have it.
    #[serde(with = "decimal_number::option", default)]
    pub starting_egift_price: Option<String>,
    #[serde(with = "decimal_number::option", default)]
    pub ending_egift_price: Option<String>,
    pub status: String,
    pub is_default_price: bool,
    pub delivery_type: DeliveryType,
    pub crm_key: Option<String>,
    pub ship_to_countries: Vec<String>,
    pub currency: String,
}

/// `GET /api/v3/touches/{id}`
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct TouchResponse {
    pub success: bool,
    pub touch: Campaign,
}

/// `GET /api/v3/touches` query.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TouchesQuery {
    pub page: PageQuery,
    pub delivery_type: Option<DeliveryType>,
}

impl TouchesQuery {
    pub fn to_query_string(&self) -> String {
        self.page
            .builder()
            .push_opt("delivery_type", self.delivery_type.as_ref())
            .build()
    }
}

/// A user in `GET /api/v3/users`.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct RestUser {
    #[serde(with = "int_or_string")]
    pub id: u64,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    #[serde(with = "int_or_string")]
    pub team_group_id: u64,
}

/// A team group with its budgets.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct TeamGroup {
    #[serde(with = "int_or_string")]
    pub id: u64,
    pub budget: i64,
    pub created_at: String,
    /// Decimal text.
    pub monthly_budget: String,
    pub name: String,
    pub one_time_budget: i64,
    pub rollover: bool,
    #[serde(with = "int_or_string")]
    pub team_id: u64,
    pub updated_at: String,
}

/// An entry of `GET /api/v3/groups/{id}/members` (a bare array).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Member {
    #[serde(with = "int_or_string")]
    pub id: u64,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    /// Decimal text.
    pub balance: String,
    pub sandbox: bool,
    #[serde(with = "int_or_string")]
    pub team_group_id: u64,
    #[serde(with = "int_or_string")]
    pub team_id: u64,
    /// Invitation key; shown only on request. The gateway gives it to admins only: for
    /// anyone else the answer has no `key`, read as empty.
    #[serde(default)]
    pub key: String,
}

/// `GET /api/v3/me`
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct CurrentUser {
    #[serde(with = "int_or_string")]
    pub id: u64,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    /// Decimal text.
    pub balance: String,
    /// Documented as an integer; read as a number or text and kept as decimal text.
    #[serde(with = "decimal_number")]
    pub team_balance: String,
    pub role: Role,
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) const SAMPLE_SEND: &str = r#"{
        "id": 101, "send_gid": "snd_9f2c", "type": "eGifts USA", "subtype": "eGift Cards USA",
        "currency": "USD", "current_total_cost": "25.00", "status": "Delivered",
        "created_at": "2026-03-01T14:05:00+00:00",
        "touch": {"id": 7, "name": "Spring thank-you"},
        "recipient": {"name": "Ana Ruiz", "email": "ana@example.org", "company_name": "Acme"},
        "sender": {"id": 3, "name": "Sam Lee", "email": "sam@example.com", "team_id": 1, "team_name": "Sales"},
        "sent_via": "web",
        "status_updates": [
            {"status": "pending", "occurred_at": "2026-03-01T14:05:00+00:00"},
            {"status": "Delivered", "occurred_at": "2026-03-02T09:00:00+00:00"}
        ]
    }"#;

    const SAMPLE_TOUCH: &str = r#"{
        "id": 7, "name": "Spring thank-you", "start_date": "2026-03-01T00:00:00+00:00",
        "end_date": null, "description": "A coffee card", "created_at": "2026-02-20T10:00:00+00:00",
        "user_id": "3", "gift_id": 55, "starting_egift_price": 10, "ending_egift_price": 50.5,
        "status": "Active", "is_default_price": false, "delivery_type": "email",
        "crm_key": null, "ship_to_countries": ["US", "CA"], "currency": "USD"
    }"#;

    #[test]
    fn send_page_round_trips() {
        let body = format!(
            r#"{{"current_page": 1, "per_page": 25, "total_count": 300, "sends": [{SAMPLE_SEND}]}}"#
        );
        let page: SendPage = serde_json::from_str(&body).unwrap();
        assert_eq!(page.total(), 300);
        let send = &page.sends[0];
        assert_eq!(send.kind, SendType::EGiftsUsa);
        assert_eq!(send.status.group(), StatusGroup::DeliveredOrUsed);
        assert_eq!(send.status_updates[0].status, SendStatus::Pending);
        let again: SendPage = serde_json::from_value(serde_json::to_value(&page).unwrap()).unwrap();
        assert_eq!(again, page);
    }

    #[test]
    fn campaign_reads_string_ids_and_number_prices() {
        let touch: Campaign = serde_json::from_str(SAMPLE_TOUCH).unwrap();
        assert_eq!(touch.user_id, 3);
        assert_eq!(touch.starting_egift_price.as_deref(), Some("10"));
        assert_eq!(touch.ending_egift_price.as_deref(), Some("50.5"));
        assert_eq!(touch.delivery_type, DeliveryType::Email);
        let json = serde_json::to_value(&touch).unwrap();
        assert!(json["ending_egift_price"].is_number());
        assert!(json["end_date"].is_null());
        let wrapped: TouchResponse =
            serde_json::from_str(&format!(r#"{{"success": true, "touch": {SAMPLE_TOUCH}}}"#))
                .unwrap();
        assert!(wrapped.success);
    }

    #[test]
    fn other_envelopes_and_resources_read() {
        let users: UserPage = serde_json::from_str(
            r#"{"current_page":"2","per_page":10,"total_users":"57","users":[
                {"id":"12","first_name":"A","last_name":"B","email":"a@example.com","team_group_id":3}]}"#,
        )
        .unwrap();
        assert_eq!((users.current_page, users.total_users), (2, 57));
        let groups: GroupPage = serde_json::from_str(
            r#"{"current_page":1,"per_page":25,"total_groups":1,"groups":[{"id":"3","budget":5000,
              "created_at":"2025-01-01T00:00:00+00:00","monthly_budget":"1500.00","name":"Sales",
              "one_time_budget":0,"rollover":true,"team_id":1,"updated_at":"2025-06-01T00:00:00+00:00"}]}"#,
        )
        .unwrap();
        assert_eq!(groups.groups[0].monthly_budget, "1500.00");
        let members: Vec<Member> = serde_json::from_str(
            r#"[{"id":"12","first_name":"A","last_name":"B","email":"a@example.com","balance":"12.50",
               "sandbox":false,"team_group_id":3,"team_id":1,"key":"inv_1"}]"#,
        )
        .unwrap();
        assert_eq!(members[0].balance, "12.50");
        assert_eq!(members[0].key, "inv_1");
        // Through the gateway, a non-admin's answer carries no key at all.
        let keyless: Vec<Member> = serde_json::from_str(
            r#"[{"id":12,"first_name":"A","last_name":"B","email":"a@example.com","balance":"1.00",
               "sandbox":false,"team_group_id":3,"team_id":1}]"#,
        )
        .unwrap();
        assert_eq!(keyless[0].key, "");
        let me: CurrentUser = serde_json::from_str(
            r#"{"id":1,"first_name":"Ada","last_name":"Admin","email":"admin@example.com",
               "balance":"100.00","team_balance":4210,"role":"admin"}"#,
        )
        .unwrap();
        assert_eq!((me.team_balance.as_str(), me.role), ("4210", Role::Admin));
        let err: RestError = serde_json::from_str(r#"{"message":"Touch not found"}"#).unwrap();
        assert_eq!(err.message, "Touch not found");
    }

    #[test]
    fn paging_rules_follow_the_contract() {
        assert_eq!(effective_page(None), 1);
        assert_eq!(effective_page(Some(0)), 1);
        assert_eq!(effective_page(Some(3)), 3);
        assert_eq!(effective_per_page(None), 25);
        assert_eq!(effective_per_page(Some(0)), 1);
        assert_eq!(effective_per_page(Some(500)), 100);
        assert_eq!(page_count(63, 25), 3);
        assert_eq!(page_count(0, 25), 1);
        assert_eq!(
            PageQuery::new(2, 50).to_query_string(),
            "?page=2&per_page=50"
        );
        let q = TouchesQuery {
            page: PageQuery::default(),
            delivery_type: Some(DeliveryType::Mail),
        };
        assert_eq!(q.to_query_string(), "?delivery_type=mail");
    }

    #[test]
    fn every_status_has_a_group_and_finality() {
        for s in SendStatus::KNOWN {
            assert_ne!(s.group(), StatusGroup::Other, "{s}");
        }
        assert!(SendStatus::Refunded.is_final());
        assert!(!SendStatus::Shipped.is_final());
        assert_eq!(SendStatus::Other("New".into()).group(), StatusGroup::Other);
        for g in StatusGroup::ALL {
            assert_eq!(StatusGroup::from_slug(g.slug()), Some(g));
        }
    }
}
