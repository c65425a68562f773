//! How a user is shown wherever the user screens name one: name, link, status.

use gifting_api::scim::ScimUser;
use leptos::prelude::*;

use crate::components::{Badge, Tone};
use crate::i18n::{t, M};
use crate::routes;

/// A user's name for lists, or their email when the platform has no name.
pub(crate) fn display_name(user: &ScimUser) -> String {
    let name = user.name.full();
    if name.is_empty() {
        user.user_name.clone()
    } else {
        name
    }
}

/// The user's page in the console.
pub(crate) fn user_href(id: &str) -> String {
    routes::user(id)
}

/// "Active" or "Inactive", in the language shown (redrawn when it changes).
pub(crate) fn status_badge(active: bool) -> impl IntoView {
    move || {
        if active {
            view! { <Badge text=t(M::UsersStatusActive) tone=Tone::Success /> }
        } else {
            view! { <Badge text=t(M::UsersStatusInactive) tone=Tone::Neutral /> }
        }
    }
}
