//! The one "not found" panel: for an address no route matches and for an id the platform
//! does not know (a user, a team group, a campaign, a product).

use leptos::prelude::*;

/// A heading, the platform's own sentence (or `fallback` when it gave none), and the way back.
#[component]
pub fn NotFound(
    title: &'static str,
    /// What the platform said; empty means it said nothing.
    #[prop(optional, into)]
    message: String,
    fallback: &'static str,
    /// Where to go instead, and the link's words.
    back: (&'static str, &'static str),
    #[prop(optional)] testid: Option<&'static str>,
    /// `true` when the screen has its own `<h1>` above the panel.
    #[prop(optional)]
    subheading: bool,
) -> impl IntoView {
    let message = if message.trim().is_empty() {
        fallback.to_owned()
    } else {
        message
    };
    let (href, label) = back;
    let heading = if subheading {
        view! { <h2 class="not-found__title">{title}</h2> }.into_any()
    } else {
        view! { <h1 class="not-found__title">{title}</h1> }.into_any()
    };
    view! {
        <section class="panel not-found" role="alert" data-testid=testid>
            {heading}
            <p class="not-found__message">{message}</p>
            <p>
                <a href=href>{label}</a>
            </p>
        </section>
    }
}
