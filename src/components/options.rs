//! The `<option>`s of a select bound to a string signal, for any list of choices.

use leptos::prelude::*;

/// One `<option>` per `(value, label)`, the one whose value `selected` holds chosen.
pub(crate) fn options(choices: Vec<(String, String)>, selected: RwSignal<String>) -> impl IntoView {
    choices
        .into_iter()
        .map(|(value, label)| {
            let mine = value.clone();
            view! {
                <option value=value prop:selected=move || selected.with(|s| *s == mine)>
                    {label}
                </option>
            }
        })
        .collect_view()
}

/// `(name, name)` pairs, for choices whose value is their label.
pub(crate) fn same_label<S: Into<String>>(
    names: impl IntoIterator<Item = S>,
) -> Vec<(String, String)> {
    names
        .into_iter()
        .map(|name| {
            let name = name.into();
            (name.clone(), name)
        })
        .collect()
}
