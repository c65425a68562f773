//! What a session without the `marketplace` scope sees instead of the catalog.

use gifting_api::oauth::SCOPE_MARKETPLACE;
use leptos::prelude::*;

use crate::i18n::{live_text, msg, M};

/// Explains which scope is missing and who can fix it. `refused` is set when the platform
/// itself answered 403 (the session claimed the scope, the token did not carry it).
#[component]
pub(crate) fn MissingScope(granted: String, refused: bool) -> impl IntoView {
    let granted = granted.trim().to_string();
    let session = move || {
        if granted.is_empty() {
            msg::catalog_scope_none(SCOPE_MARKETPLACE)
        } else {
            msg::catalog_scope_some(&granted, SCOPE_MARKETPLACE)
        }
    };
    view! {
        <section class="panel missing-scope" data-testid="missing-scope" aria-labelledby="missing-scope-title">
            <h2 id="missing-scope-title">{live_text(move || msg::catalog_scope_title(SCOPE_MARKETPLACE))}</h2>
            <p>{session}</p>
            {refused.then(|| view! { <p>{M::CatalogScopeRefused}</p> })}
            <p>{live_text(move || msg::catalog_scope_fix(SCOPE_MARKETPLACE))}</p>
        </section>
    }
}
