//! The preferences' dialog: the console's language, how it looks on this browser (theme,
//! density), and forgetting everything it remembers here. Every choice is kept by [`crate::prefs`], for this
//! browser only: nothing of it goes to the platform. Opened from the navigation's tools.

use leptos::prelude::*;

use super::language::LanguageChoice;
use crate::components::Modal;
use crate::i18n::{live_text, t, M};
use crate::prefs::{self, Look, DENSITY, THEME};

/// The dialog, shown while `open`.
#[component]
pub(super) fn Preferences(open: RwSignal<bool>) -> impl IntoView {
    // Counts "Forget all of it": the choices shown read the defaults again.
    let forgotten = RwSignal::new(0_u32);
    view! {
        <Modal open class="confirm-dialog preferences" labelled_by="preferences-title" testid="preferences">
            <h2 id="preferences-title" class="confirm-dialog__title">{M::PalettePreferences}</h2>
            <p class="muted">{M::PalettePreferencesIntro}</p>
            <LanguageChoice />
            <LookChoice
                look=THEME
                legend=M::PaletteTheme
                labels=&[M::PaletteThemeSystem, M::PaletteThemeLight, M::PaletteThemeDark]
                forgotten
            />
            <LookChoice
                look=DENSITY
                legend=M::PaletteDensity
                labels=&[M::PaletteDensityComfortable, M::PaletteDensityCompact]
                forgotten
            />
            <ForgetChoices forgotten />
            <div class="confirm-dialog__actions">
                <button type="button" class="button" on:click=move |_| open.set(false)>
                    {M::PaletteClose}
                </button>
            </div>
        </Modal>
    }
}

/// One radio button per choice of `look`, shown at once and kept.
#[component]
fn LookChoice(
    look: Look,
    legend: M,
    /// A label per choice, in `look.choices`' order.
    labels: &'static [M],
    forgotten: RwSignal<u32>,
) -> impl IntoView {
    let chosen = RwSignal::new(look.chosen());
    let failed = RwSignal::new(false);
    Effect::new(move |first: Option<()>| {
        forgotten.track();
        if first.is_some() {
            chosen.set(look.chosen());
            failed.set(false);
        }
    });
    let options = look
        .choices
        .iter()
        .zip(labels)
        .map(|(choice, label)| {
            let on_change = move |_| {
                failed.set(!look.choose(choice));
                chosen.set(choice);
            };
            view! {
                <label class="choice">
                    <input
                        type="radio"
                        name=look.attribute
                        value=*choice
                        prop:checked={move || chosen.get() == *choice}
                        on:change=on_change
                    />
                    {*label}
                </label>
            }
        })
        .collect_view();
    view! {
        <fieldset class="preference" data-testid=look.attribute>
            <legend>{legend}</legend>
            {options}
            <Show when=move || failed.get()>
                <p class="field-error" role="alert">{M::PaletteNotKept}</p>
            </Show>
        </fieldset>
    }
}

/// What this browser remembers, and a button that forgets all of it.
#[component]
fn ForgetChoices(forgotten: RwSignal<u32>) -> impl IntoView {
    let said = RwSignal::new(None::<M>);
    let on_click = move |_| {
        let done = prefs::forget_all();
        forgotten.update(|n| *n += 1);
        said.set(Some(if done {
            M::PaletteForgotten
        } else {
            M::PaletteNotForgotten
        }));
    };
    view! {
        <section class="preference" aria-labelledby="remembered-heading">
            <h3 id="remembered-heading">{M::PaletteRemembered}</h3>
            <p>{M::PaletteRememberedExplain}</p>
            <button type="button" class="button" on:click=on_click>
                {M::PaletteForget}
            </button>
            <p role="status" data-testid="forget-status">{live_text(move || said.get().map(t))}</p>
        </section>
    }
}
