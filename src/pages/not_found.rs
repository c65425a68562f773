//! Any address no route matches.

use leptos::prelude::*;

use crate::components::NotFound;
use crate::routes;

#[component]
pub(crate) fn PageNotFound() -> impl IntoView {
    view! {
        <NotFound
            title="Page not found"
            fallback="There is no screen at this address. It may have been mistyped or moved."
            back=(routes::HOME, "Go to the home screen")
        />
    }
}
