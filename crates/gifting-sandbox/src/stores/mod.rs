//! What the state keeps besides the organization's data: the OAuth grants (codes, tokens,
//! refresh tokens, as digests) and the scopes they carry. Below the state; no handler here.

pub mod oauth;
pub mod scope;
