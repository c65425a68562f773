//! Any address no route matches.

use leptos::prelude::*;

use crate::components::NotFound;
use crate::i18n::M;
use crate::routes;

#[component]
pub(crate) fn PageNotFound() -> impl IntoView {
    view! {
        <NotFound
            title=M::AppPageNotFound
            fallback=M::AppNoScreen
            back=(routes::HOME, M::AppGoHome)
        />
    }
}
