//! Labelled inputs of the user forms, each with its error written next to it and tied to it
//! (`aria-describedby`), so a screen reader hears the problem on the field.

use gifting_api::Role;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::form::{error_for, Field, FieldErrors};
use crate::i18n::{msg, M};

/// Which team names a team select can offer right now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum TeamChoices {
    Loading,
    Failed(String),
    Ready(Vec<String>),
}

fn clear_error(errors: RwSignal<FieldErrors>, field: Field) {
    if errors.with_untracked(|e| e.iter().any(|(f, _)| *f == field)) {
        errors.update(|e| e.retain(|(f, _)| *f != field));
    }
}

fn error_id(field: Field) -> String {
    format!("{}-error", field.id())
}

/// The message under a field, if it has one.
fn field_error(errors: RwSignal<FieldErrors>, field: Field) -> impl IntoView {
    move || {
        error_for(&errors.get(), field).map(|message| {
            view! {
                <p class="field__error" id=error_id(field)>
                    <span aria-hidden="true">"⚠ "</span>
                    {message}
                </p>
            }
        })
    }
}

/// Moves the keyboard focus to a field, e.g. the first one with an error.
pub(crate) fn focus_field(field: Field) {
    let element = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(field.id()))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(element) = element {
        let _ = element.focus();
    }
}

#[component]
pub(crate) fn TextField(
    field: Field,
    value: RwSignal<String>,
    errors: RwSignal<FieldErrors>,
    #[prop(default = "text")] kind: &'static str,
    #[prop(default = "off")] autocomplete: &'static str,
    #[prop(optional, into)] disabled: Signal<bool>,
) -> impl IntoView {
    let invalid = move || error_for(&errors.get(), field).is_some();
    view! {
        <LabelledField field errors>
            <input
                id=field.id() name=field.id() type=kind autocomplete=autocomplete aria-required="true"
                aria-invalid=move || invalid().to_string() aria-describedby=move || invalid().then(|| error_id(field))
                disabled=move || disabled.get() bind:value=value on:input=move |_| clear_error(errors, field)
            />
        </LabelledField>
    }
}

/// The `.field` around one control of the user form: its label, the control, its error, then
/// anything `below` it.
#[component]
fn LabelledField(
    field: Field,
    errors: RwSignal<FieldErrors>,
    children: Children,
    #[prop(optional_no_strip)] below: Option<Children>,
) -> impl IntoView {
    let invalid = move || error_for(&errors.get(), field).is_some();
    view! {
        <div class="field" class:field--invalid=invalid>
            <label for=field.id()>{field.message()}</label>
            {children()}
            {field_error(errors, field)}
            {below.map(|below| below())}
        </div>
    }
}

/// The role select: sender, manager, admin (plus the user's current role if the platform
/// sent one this console does not know, so saving never changes it by accident).
#[component]
pub(crate) fn RoleSelect(
    value: RwSignal<String>,
    errors: RwSignal<FieldErrors>,
    #[prop(optional, into)] disabled: Signal<bool>,
) -> impl IntoView {
    let unknown = move || {
        let current = value.get_untracked();
        (!current.is_empty() && !Role::parse(&current).is_known()).then(|| {
            let text = current.clone();
            let mine = current.clone();
            view! {
                <option value=current prop:selected=move || value.get() == mine translate="no">
                    {text}
                </option>
            }
        })
    };
    view! {
        <ChoiceField field=Field::Role value errors disabled placeholder=M::UsersChooseRole>
            {Role::KNOWN
                .iter()
                .map(|role| {
                    let name = role.as_str();
                    view! {
                        <option value=name prop:selected=move || value.get() == name translate="no">
                            {name}
                        </option>
                    }
                })
                .collect_view()}
            {unknown}
        </ChoiceField>
    }
}

/// The team select, offering every team group by name (SCIM's `division`).
#[component]
pub(crate) fn TeamSelect(
    value: RwSignal<String>,
    errors: RwSignal<FieldErrors>,
    #[prop(into)] choices: Signal<TeamChoices>,
    /// Reloads the groups after a failure.
    #[prop(into)]
    on_retry: Callback<()>,
    #[prop(optional, into)] disabled: Signal<bool>,
) -> impl IntoView {
    let options = move || match choices.get() {
        TeamChoices::Ready(names) => {
            let current = value.get_untracked();
            let mut names = names;
            // A team the user is in but the list lacks stays choosable, marked as such.
            let stray = (!current.is_empty() && !names.contains(&current)).then(|| current.clone());
            if let Some(stray) = &stray {
                names.push(stray.clone());
            }
            names
                .into_iter()
                .map(|name| {
                    // A listed team is the platform's word alone; the stray one is explained.
                    let is_stray = stray.as_deref() == Some(name.as_str());
                    let label = if is_stray {
                        msg::users_stray_team(&name)
                    } else {
                        name.clone()
                    };
                    let value_of_option = name.clone();
                    let selected = move || value.get() == value_of_option;
                    view! {
                        <option value=name prop:selected=selected translate=(!is_stray).then_some("no")>
                            {label}
                        </option>
                    }
                })
                .collect_view()
                .into_any()
        }
        TeamChoices::Loading => {
            view! { <option value="" disabled=true>{M::UsersLoadingTeams}</option> }.into_any()
        }
        TeamChoices::Failed(_) => ().into_any(),
    };
    let failed = move || match choices.get() {
        TeamChoices::Failed(message) => Some(view! {
            <p class="field__error" role="alert">
                {M::UsersTeamsFailed}
                " "
                {message}
                " "
                <button type="button" class="button button--small" on:click=move |_| on_retry.run(())>
                    {M::CommonTryAgain}
                </button>
            </p>
        }),
        _ => None,
    };
    view! {
        <ChoiceField
            field=Field::Team
            value
            errors
            disabled
            placeholder=M::UsersChooseTeam
            below=Box::new(move || failed.into_any())
        >
            {options}
        </ChoiceField>
    }
}

/// A labelled, required `<select>` bound to `value`, with a "Choose …" first option, the
/// field's error, and optionally something `below` it (e.g. why its choices are missing).
#[component]
fn ChoiceField(
    field: Field,
    value: RwSignal<String>,
    errors: RwSignal<FieldErrors>,
    disabled: Signal<bool>,
    placeholder: M,
    /// The options after the placeholder.
    children: Children,
    #[prop(optional)] below: Option<Children>,
) -> impl IntoView {
    let invalid = move || error_for(&errors.get(), field).is_some();
    view! {
        <LabelledField field errors below>
            <select
                id=field.id() name=field.id() aria-required="true"
                aria-invalid=move || invalid().to_string() aria-describedby=move || invalid().then(|| error_id(field))
                disabled=move || disabled.get()
                on:change=move |ev| {
                    value.set(event_target_value(&ev));
                    clear_error(errors, field);
                }
            >
                <option value="" prop:selected=move || value.get().is_empty()>
                    {placeholder}
                </option>
                {children()}
            </select>
        </LabelledField>
    }
}
