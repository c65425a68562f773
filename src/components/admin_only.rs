//! The screens for the admin role alone (`only admin` in the table of screens): a sender or a
//! manager who opens one anyway (a bookmark, a typed address) reads that it needs the admin
//! role, before the screen asks the platform for anything it would refuse.

use leptos::either::EitherOf3;
use leptos::prelude::*;

use super::{Loading, ScreenHeading};
use crate::api::{admin_allowed, use_current_user};
use crate::i18n::{live_text, msg, M};
use crate::routes;

/// `screen` once /me says the signed-in user may use it (or cannot tell: the platform's 403
/// explains then), the note that it needs the admin role otherwise, and nothing but "Loading"
/// before /me answers.
pub(crate) fn admin_only<V: IntoView + 'static>(screen: fn() -> V) -> impl IntoView {
    let me = use_current_user();
    let allowed = Memo::new(move |_| admin_allowed(me));
    move || match allowed.get() {
        None => EitherOf3::A(view! { <Loading /> }),
        Some(true) => EitherOf3::B(screen()),
        Some(false) => EitherOf3::C(view! { <AdminRoleNeeded /> }),
    }
}

/// Read-only: what the screen needs, who the user is, and the way back.
#[component]
fn AdminRoleNeeded() -> impl IntoView {
    let me = use_current_user();
    let role = move || {
        me.with(|answer| match answer {
            Some(Ok(user)) => user.role.as_str().to_owned(),
            _ => String::new(),
        })
    };
    view! {
        <ScreenHeading title=M::AdminOnlyTitle />
        <section class="panel" data-testid="admin-only">
            <p>{live_text(move || msg::admin_only_explain(&role()))}</p>
            <p>{M::AdminOnlyAsk}</p>
            <p>
                <a href=routes::HOME>{M::AdminOnlyBack}</a>
            </p>
        </section>
    }
}
