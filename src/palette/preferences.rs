//! The preferences' dialog: how the console looks on this browser (theme, density), and
//! forgetting everything it remembers here. Every choice is kept by [`crate::prefs`], for this
//! browser only: nothing of it goes to the platform. Opened from the navigation's tools.

use leptos::prelude::*;

use crate::components::Modal;
use crate::prefs::{self, Look, DENSITY, THEME};

/// Said when the storage refused a choice: it holds on screen until a reload.
const NOT_KEPT: &str =
    "This browser did not keep the choice (its storage is full or turned off): it holds until \
     the page reloads.";

/// The dialog, shown while `open`.
#[component]
pub(super) fn Preferences(open: RwSignal<bool>) -> impl IntoView {
    // Counts "Forget all of it": the choices shown read the defaults again.
    let forgotten = RwSignal::new(0_u32);
    view! {
        <Modal open class="confirm-dialog preferences" labelled_by="preferences-title" testid="preferences">
            <h2 id="preferences-title" class="confirm-dialog__title">"Preferences"</h2>
            <p class="muted">
                "Kept on this browser for whoever signs in on it; never sent to the platform."
            </p>
            <LookChoice
                look=THEME
                legend="Theme"
                labels=&["Match the system", "Light", "Dark"]
                forgotten
            />
            <LookChoice
                look=DENSITY
                legend="Density of lists"
                labels=&["Comfortable", "Compact: more rows on a screen"]
                forgotten
            />
            <ForgetChoices forgotten />
            <div class="confirm-dialog__actions">
                <button type="button" class="button" on:click=move |_| open.set(false)>
                    "Close"
                </button>
            </div>
        </Modal>
    }
}

/// One radio button per choice of `look`, shown at once and kept.
#[component]
fn LookChoice(
    look: Look,
    legend: &'static str,
    /// A label per choice, in `look.choices`' order.
    labels: &'static [&'static str],
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
                <p class="field-error" role="alert">{NOT_KEPT}</p>
            </Show>
        </fieldset>
    }
}

/// What this browser remembers, and a button that forgets all of it.
#[component]
fn ForgetChoices(forgotten: RwSignal<u32>) -> impl IntoView {
    let said = RwSignal::new(None::<&'static str>);
    let on_click = move |_| {
        let done = prefs::forget_all();
        forgotten.update(|n| *n += 1);
        said.set(Some(if done {
            "Forgotten: lists show their first page size, columns and filters again, with no \
             saved views; the theme and density are the defaults."
        } else {
            "This browser's storage could not be read: nothing was forgotten."
        }));
    };
    view! {
        <section class="preference" aria-labelledby="remembered-heading">
            <h3 id="remembered-heading">"Remembered on this browser"</h3>
            <p>
                "Each list's rows per page, columns and last filters, the views saved on Users and "
                "Sends, the theme and the density. Never a password, a token or what the "
                "platform answered."
            </p>
            <button type="button" class="button" on:click=on_click>
                "Forget all of it"
            </button>
            <p role="status" data-testid="forget-status">{move || said.get()}</p>
        </section>
    }
}
