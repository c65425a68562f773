//! A labelled search box (`<input type="search">` in a `.field`), for the filter forms.

use leptos::prelude::*;

/// Shows `value` and hands each edit to `on_input`; what an edit does (keep it in a signal,
/// put it in the address) is the form's business.
#[component]
pub fn SearchField(
    id: &'static str,
    label: &'static str,
    #[prop(into)] value: Signal<String>,
    on_input: impl Fn(String) + 'static,
) -> impl IntoView {
    view! {
        <div class="field">
            <label for=id>{label}</label>
            <input
                id=id
                type="search"
                autocomplete="off"
                prop:value=move || value.get()
                on:input=move |ev| on_input(event_target_value(&ev))
            />
        </div>
    }
}
