//! What a session without the `marketplace` scope sees instead of the catalog.

use gifting_api::oauth::SCOPE_MARKETPLACE;
use leptos::prelude::*;

/// Explains which scope is missing and who can fix it. `refused` is set when the platform
/// itself answered 403 (the session claimed the scope, the token did not carry it).
#[component]
pub(crate) fn MissingScope(granted: String, refused: bool) -> impl IntoView {
    let granted = if granted.trim().is_empty() {
        "no scopes".to_string()
    } else {
        format!("\u{201c}{}\u{201d}", granted.trim())
    };
    view! {
        <section class="panel missing-scope" data-testid="missing-scope" aria-labelledby="missing-scope-title">
            <h2 id="missing-scope-title">
                "The catalog needs the \u{201c}" {SCOPE_MARKETPLACE} "\u{201d} scope"
            </h2>
            <p>
                "This session was granted " {granted}
                ", which does not include \u{201c}" {SCOPE_MARKETPLACE}
                "\u{201d}. Browsing the marketplace catalog needs that scope."
            </p>
            {refused
                .then(|| {
                    view! {
                        <p>
                            "The platform refused the catalog request for this session (insufficient scope)."
                        </p>
                    }
                })}
            <p>
                "An administrator must sign in with the \u{201c}" {SCOPE_MARKETPLACE}
                "\u{201d} scope: sign out, then sign in again with a console whose configuration requests it, and allow it on the consent page."
            </p>
        </section>
    }
}
