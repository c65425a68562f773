//! What a list of sends must cover, one check for the generator's unit tests (the sends it
//! makes) and the integration tests (the sends the sandbox serves). The unit tests take this
//! file by path: a crate's unit tests cannot see its `tests/` helpers otherwise.

use gifting_api::rest::Send;
use gifting_api::{SendStatus, SendSubtype, SendType};

/// Every status, subtype and type the contract knows stands in `sends` at least once: the
/// console's filters and summaries have each of them to show.
pub fn assert_every_status_subtype_and_type(sends: &[Send]) {
    for s in SendStatus::KNOWN {
        assert!(sends.iter().any(|x| &x.status == s), "status {s}");
    }
    for s in SendSubtype::KNOWN {
        assert!(sends.iter().any(|x| &x.subtype == s), "subtype {s}");
    }
    for t in SendType::KNOWN {
        assert!(sends.iter().any(|x| &x.kind == t), "type {t}");
    }
}
