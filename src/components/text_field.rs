//! A labelled one-line input in a `.field`: the filter forms' search boxes and price bounds.

use leptos::prelude::*;

use crate::i18n::{live_text, M};

/// Shows `value` and hands each edit to `on_input`; what an edit does (keep it in a signal,
/// put it in the address) is the form's business.
#[component]
pub(crate) fn TextField(
    id: &'static str,
    label: M,
    /// The input's `type`, e.g. "search".
    #[prop(default = "text")]
    kind: &'static str,
    #[prop(into)] value: Signal<String>,
    on_input: impl Fn(String) + 'static,
    /// Whole numbers: a numeric keyboard and a short box.
    #[prop(optional)]
    numeric: bool,
    /// The field's error, shown under it and read out when it changes; the input then says
    /// it is invalid and points to it.
    #[prop(optional, into)]
    error: Option<Signal<Option<String>>>,
) -> impl IntoView {
    let error_id = format!("{id}-error");
    view! {
        <div class="field">
            <label for=id>{label}</label>
            <input
                id=id
                type=kind
                inputmode=numeric.then_some("numeric")
                autocomplete="off"
                size=numeric.then_some("8")
                prop:value=move || value.get()
                on:input=move |ev| on_input(event_target_value(&ev))
                aria-invalid=error.map(|e| move || e.with(Option::is_some).to_string())
                aria-describedby=error.map(|_| error_id.clone())
            />
            {error
                .map(|e| {
                    view! {
                        <p class="field__error" id=error_id aria-live="polite">
                            {live_text(move || e.get())}
                        </p>
                    }
                })}
        </div>
    }
}
