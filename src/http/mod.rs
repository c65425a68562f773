//! What any request to any server needs, below sign-in and below the platform client:
//! one exchange with a timeout ([`transport`]), cancellation when the screen that asked goes
//! away ([`cancel`]), the one request policy: every request's kind and what follows a lost
//! answer ([`retry`]), and the one pacing policy of long work ([`pacing`]). It knows nothing
//! of tokens or of the platform's error bodies: [`crate::auth`] and [`crate::api`] build on it.

pub mod cancel;
pub mod pacing;
pub mod retry;
pub(crate) mod transport;
