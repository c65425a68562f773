//! The gifting platform's contract, written once: the wire types of every resource, envelope
//! and body of the platform's API, the endpoint paths, typed queries, and the validation rules
//! the console and the sandbox share, and the CSV writer of the console's files ([`csv`]). No
//! I/O: it compiles for the browser and for the host.
//!
//! The platform's own description leaves points open; `docs/platform.md` decides them, and
//! this crate encodes those decisions. Among them, the ones a reader of this crate meets first:
//! - REST v3 reads (sends, users, me, touches, groups, members) accept any live token, whatever
//!   its scope; only the marketplace needs `marketplace`, only SCIM needs `scim` (and an admin).
//! - A SCIM `PUT` ignores `userName`: the platform's update changes role, team, name and the
//!   active flag, never the email a user signs in with.
//! - A SCIM `count` below 0 reads as 0 (RFC 7644 §3.4.2.4); a `startIndex` or `count` that is not
//!   an integer is a 400 `invalidValue`.
//! - Send statuses fall into four groups by meaning (see [`rest::StatusGroup`]); a status the
//!   platform adds later falls into its own "other" group rather than being guessed.
//! - Timestamps stay text on the wire types, so a malformed one never breaks a whole page; the
//!   console parses them for display.
//! - Marketplace `text_search` matches a case-insensitive substring of a product's name or
//!   description.

pub mod attention;
pub mod countries;
pub mod csv;
pub mod enums;
pub mod marketplace;
pub mod money;
pub mod oauth;
pub mod paths;
pub mod query;
pub mod rest;
pub mod scim;
pub mod serde_quirks;
pub mod validate;

pub use enums::{DeliveryType, Role, SendStatus, SendSubtype, SendType};
