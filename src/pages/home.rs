//! The signed-in landing screen: what needs the admin (the figures, first), and who is signed
//! in, on one line. The navigation lists the screens.

use gifting_api::oauth::{SCOPE_MARKETPLACE, SCOPE_SCIM};
use leptos::either::EitherOf3;
use leptos::prelude::*;

use crate::api::{display_name, use_current_user, ApiError};
use crate::auth::use_auth;
use crate::components::format::account_money;
use crate::components::lazy_screen::{lazy_screen, LazyPart};
use crate::components::Loading;
use crate::components::ScreenHeading;
use crate::i18n::{live_text, msg, M};

mod budget;
mod charts;
mod details;
mod export;
mod figures;
mod summary;

// The figures (the walk of the sends, the report, its charts and export) are most of the
// screen's code: a chunk of their own, fetched once the rest of home is up, so the first paint
// after sign-in waits only for the small part above.
lazy_screen!(home_figures in home_figures => super::figures::HomeFigures);
// Below the answer (the groups that need attention, attention by reason, the trend): fetched
// once the answer is complete, so none of it is on the way to the answer.
lazy_screen!(home_details in home_details => super::details::HomeDetails);

#[component]
pub(crate) fn Home() -> impl IntoView {
    let auth = use_auth();
    let me = use_current_user();
    let scope_notes = move || {
        let mut notes = Vec::new();
        if !auth.has_scope(SCOPE_SCIM) {
            notes.push(M::HomeNoScimScope);
        }
        if !auth.has_scope(SCOPE_MARKETPLACE) {
            notes.push(M::HomeNoMarketplaceScope);
        }
        notes
            .into_iter()
            .map(|note| view! { <p class="notice">{note}</p> })
            .collect_view()
    };
    // Not a `Loaded`: its Transition would be code of home's own (and shared with the other
    // screens), fetched before home shows; /me is the header's too, and already loading.
    let you = move || match me.get() {
        // The answer from before sign-in, still held while /me loads (as the header reads it).
        None | Some(Err(ApiError::Unauthorized)) => EitherOf3::A(view! { <Loading /> }),
        Some(Ok(user)) => {
            let (name, email) = (display_name(&user), user.email.clone());
            let (balance, team) = (user.balance.clone(), user.team_balance.clone());
            EitherOf3::B(view! {
                <p class="you-line" data-testid="you">
                    {live_text(move || msg::home_signed_in_as(&name, &email))} " · "
                    <span data-testid="you-role" translate="no">{user.role.as_str().to_string()}</span>
                    " · " {live_text(move || msg::home_balance(&account_money(&balance)))}
                    " · " {live_text(move || msg::home_team_balance(&account_money(&team)))}
                </p>
            })
        }
        // As an `ErrorPanel` reads, without its code (a shared chunk of its own): the header
        // says the same, and after a real 401 the sign-in screen takes over.
        Some(Err(error)) => EitherOf3::C(view! {
            <div class="error-panel" role="alert">
                <p class="error-panel__message">{error.user_message()}</p>
                <button type="button" class="button" on:click=move |_| me.refetch()>
                    {M::CommonTryAgain}
                </button>
            </div>
        }),
    };
    view! {
        <ScreenHeading title=M::HomeTitle />
        {you}
        {scope_notes}
        <LazyPart part=home_figures::SCREEN />
    }
}
