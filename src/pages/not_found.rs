//! Any address no route matches.

use leptos::prelude::*;

#[component]
pub fn NotFound() -> impl IntoView {
    view! {
        <section class="panel">
            <h1>"Page not found"</h1>
            <p>"There is no screen at this address. It may have been mistyped or moved."</p>
            <p>
                <a href="/">"Go to the home screen"</a>
            </p>
        </section>
    }
}
