//! The loaded sends, kept beyond the screen: "Load all pages" runs as a job that fills them
//! while the admin is elsewhere, and the screen shown again starts from what is loaded. In
//! memory only: the end of the session (sign-out, expiry) forgets them.

use leptos::prelude::{ArcRwSignal, Set};

use super::loaded::LoadedSends;
use crate::auth::session::on_session_end;

thread_local! {
    static LOADED: ArcRwSignal<LoadedSends> = ArcRwSignal::new(LoadedSends::default());
}

/// The loaded sends of this session.
pub(crate) fn loaded() -> ArcRwSignal<LoadedSends> {
    on_session_end(forget);
    LOADED.with(Clone::clone)
}

fn forget() {
    LOADED.with(|loaded| loaded.set(LoadedSends::default()));
}
