//! Choosing the console's language: the navigation's menu and the same choice in Preferences.
//! Each language is named in itself (and marked so, for screen readers). Switching redraws every
//! text in place: forms keep what was typed, jobs go on. A language whose messages cannot be
//! fetched is not switched to, and the admin is told.
//!
//! Both are code of the dialogs' chunk: the navigation's menu is put in its slot when the
//! browser is idle after sign-in ([`menu_when_idle`]), so it is not on the way to home's answer.

use std::any::Any;
use std::cell::RefCell;

use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;

use crate::components::{use_notifications, Tone, IDLE_PREFETCH_DELAY};
use crate::i18n::{self, t, M};

thread_local! {
    /// The navigation's menu, kept so it stays (dropping it unmounts it).
    static MENU: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
}

/// A `<select>` of the languages on offer, the one shown selected. `failed` is called when the
/// chosen language's messages could not be fetched (the list goes back to the language shown).
#[component]
fn LanguageSelect(#[prop(optional)] id: &'static str, failed: Callback<bool>) -> impl IntoView {
    let current = i18n::language;
    let options = move || {
        i18n::offered()
            .into_iter()
            .map(|(code, name)| {
                view! {
                    <option value=code lang=code translate="no" prop:selected=move || current() == code>
                        {name}
                    </option>
                }
            })
            .collect_view()
    };
    let select = NodeRef::<leptos::html::Select>::new();
    let on_change = move |event: leptos::ev::Event| {
        let code = event_target_value(&event);
        leptos::task::spawn_local(async move {
            let chosen = i18n::choose(&code).await;
            if !chosen {
                if let Some(select) = select.get_untracked() {
                    select.set_value(untrack(current));
                }
            }
            failed.run(!chosen);
        });
    };
    view! {
        <select id=(!id.is_empty()).then_some(id) node_ref=select on:change=on_change>
            {options}
        </select>
    }
}

/// The choice in Preferences, with its label and, below, why a language could not be had.
#[component]
pub(super) fn LanguageChoice() -> impl IntoView {
    let failed = RwSignal::new(false);
    view! {
        <div class="preference" data-testid="language">
            <label for="preferences-language">{M::PaletteLanguage}</label>
            <LanguageSelect id="preferences-language" failed=Callback::new(move |f| failed.set(f)) />
            <Show when=move || failed.get()>
                <p class="field-error" role="alert">{M::PaletteLanguageFailed}</p>
            </Show>
        </div>
    }
}

/// The navigation's menu (not on a phone, where the navigation's line has no room: there the
/// choice is in Preferences). A failure is said as a notification.
#[component]
fn LanguageMenu() -> impl IntoView {
    let notifications = use_notifications();
    let failed = Callback::new(move |failed| {
        if failed {
            notifications.push(Tone::Danger, t(M::ShellLanguageFailed));
        }
    });
    view! {
        <label class="nav-tools__language">
            <span class="visually-hidden">{M::ShellLanguage}</span>
            <LanguageSelect failed />
        </label>
    }
}

/// Puts the language menu in the navigation's slot (`#language-slot`) once the browser has had
/// a quiet moment after the navigation's tools arrived, fetching the dialogs' chunk for it.
pub(crate) fn menu_when_idle() {
    let _ = set_timeout_with_handle(
        || {
            leptos::task::spawn_local(async {
                // Not fetched (offline): the choice is still in Preferences once it is.
                let _ = menu().await;
            })
        },
        IDLE_PREFETCH_DELAY,
    );
}

#[cfg(feature = "split")]
#[leptos::wasm_split::wasm_split(shortcuts, wasm_split_path = ::leptos::wasm_split, fallible)]
fn menu() -> Result<(), SplitLoaderError> {
    mount_menu();
    Ok(())
}

#[cfg(not(feature = "split"))]
async fn menu() -> Result<(), SplitLoaderError> {
    mount_menu();
    Ok(())
}

fn mount_menu() {
    let Some(slot) = crate::browser::element_by_id("language-slot") else {
        return;
    };
    if slot.child_element_count() > 0 {
        return;
    }
    // Under the app's owner, where the notifications are; a new sign-in's slot gets a new menu.
    let mounted = crate::jobs::with_app_owner(|| leptos::mount::mount_to(slot, LanguageMenu));
    MENU.with(|m| *m.borrow_mut() = Some(Box::new(mounted)));
}

/// Takes the menu away with the navigation's tools (signed out).
pub(crate) fn drop_menu() {
    let menu = MENU.with(|m| m.borrow_mut().take());
    drop(menu);
}
