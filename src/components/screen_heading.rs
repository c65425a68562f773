//! The main heading every screen starts with. It names the browser tab after the screen
//! ("Ada Admin · Users · Gifting Console", so tabs and history entries can be told apart) and,
//! after a navigation inside the console, takes the keyboard focus: a screen reader then reads
//! where the admin arrived, where it would otherwise stay silent on the link that was clicked.

use std::cell::Cell;

use leptos::{html, prelude::*};

use super::Breadcrumb;
use crate::browser;
use crate::i18n::{t, M};

const CONSOLE: &str = "Gifting Console";

thread_local! {
    /// Whether this page load already showed a screen. The first screen leaves the focus where
    /// the browser puts it on load (the top of the page, before the skip link).
    static SHOWN: Cell<bool> = const { Cell::new(false) };
}

/// The tab's title: the screen's own title, the area it belongs to (when that is another
/// word), then the console's name (unless the title already says it).
pub(crate) fn document_title(title: &str, within: Option<&str>) -> String {
    let title = title.trim();
    if title.contains(CONSOLE) {
        return title.to_owned();
    }
    let mut parts = Vec::with_capacity(3);
    if !title.is_empty() {
        parts.push(title);
    }
    if let Some(area) = within.filter(|area| *area != title) {
        parts.push(area);
    }
    parts.push(CONSOLE);
    parts.join(" · ")
}

/// A screen's `<h1>`; `title` may change (a user's name once it has loaded) and the tab's
/// title follows it.
#[component]
pub(crate) fn ScreenHeading(
    #[prop(into)] title: Signal<String>,
    /// The area the screen belongs to, e.g. "Users" on a user's page; by default the label
    /// of `back`.
    #[prop(optional)]
    within: Option<M>,
    /// A link above the heading to the screen one level up, and its label.
    #[prop(optional)]
    back: Option<(&'static str, M)>,
    #[prop(optional)] id: Option<&'static str>,
    /// The title is the platform's data (a user's or a campaign's name): not translated.
    #[prop(optional)]
    platform_data: bool,
    #[prop(optional)] class: Option<&'static str>,
    /// One sentence under the heading on what the screen is for.
    #[prop(optional)]
    intro: Option<M>,
) -> impl IntoView {
    let within = within.or(back.map(|(_, label)| label));
    let heading = NodeRef::<html::H1>::new();
    Effect::new(move |_| {
        browser::set_document_title(&document_title(&title.get(), within.map(t)));
    });
    heading.on_load(move |h1| {
        if SHOWN.with(|shown| shown.replace(true)) {
            // A heading inside a <Suspense> is built before it is in the page, where focus()
            // does nothing: wait for the next frame, when it is shown.
            request_animation_frame(move || {
                let _ = h1.focus();
            });
        }
    });
    view! {
        {back.map(|(href, label)| view! { <Breadcrumb href label /> })}
        <h1
            id=id
            class=class
            tabindex="-1"
            node_ref=heading
            translate=platform_data.then_some("no")
        >
            {title}
        </h1>
        {intro.map(|intro| view! { <p class="muted">{intro}</p> })}
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::document_title;

    #[wasm_bindgen_test]
    fn titles_name_the_screen_then_its_area_then_the_console() {
        let cases = [
            ("Sends", None, "Sends · Gifting Console"),
            (
                "Ada Admin",
                Some("Users"),
                "Ada Admin · Users · Gifting Console",
            ),
            ("Users", Some("Users"), "Users · Gifting Console"),
            ("  ", Some("Users"), "Users · Gifting Console"),
            ("", None, "Gifting Console"),
            (
                "Sign in to the Gifting Console",
                None,
                "Sign in to the Gifting Console",
            ),
        ];
        for (title, within, expected) in cases {
            assert_eq!(
                document_title(title, within),
                expected,
                "{title:?} in {within:?}"
            );
        }
    }
}
