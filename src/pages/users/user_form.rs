//! The user form's state, shared by the create and the edit page: the fields as typed, their
//! errors, whether a write is under way, and the team groups to choose from.

use gifting_api::scim::ScimUser;
use leptos::prelude::*;

use super::fields::{focus_field, RoleSelect, TeamChoices, TeamSelect, TextField};
use super::form::{field_of_error, Field, FieldErrors, UserDraft};
use crate::api::{use_team_groups, ApiError, TeamGroups};

#[derive(Clone, Copy)]
pub(crate) struct UserForm {
    pub(crate) email: RwSignal<String>,
    pub(crate) given: RwSignal<String>,
    pub(crate) family: RwSignal<String>,
    pub(crate) role: RwSignal<String>,
    pub(crate) team: RwSignal<String>,
    pub(crate) errors: RwSignal<FieldErrors>,
    /// A write is under way: the submit button waits.
    pub(crate) pending: RwSignal<bool>,
    pub(crate) groups: TeamGroups,
}

impl UserForm {
    /// A form holding `draft`.
    pub(crate) fn new(draft: UserDraft) -> Self {
        Self {
            email: RwSignal::new(draft.email),
            given: RwSignal::new(draft.given_name),
            family: RwSignal::new(draft.family_name),
            role: RwSignal::new(draft.role),
            team: RwSignal::new(draft.team),
            errors: RwSignal::new(FieldErrors::new()),
            pending: RwSignal::new(false),
            groups: use_team_groups(),
        }
    }

    /// Starts the form again from what the platform now has for `user`.
    pub(crate) fn fill(&self, user: &ScimUser) {
        let draft = draft_of(user);
        self.given.set(draft.given_name);
        self.family.set(draft.family_name);
        self.role.set(draft.role);
        self.team.set(draft.team);
    }

    /// What the admin typed.
    pub(crate) fn draft(&self) -> UserDraft {
        UserDraft {
            email: self.email.get_untracked(),
            given_name: self.given.get_untracked(),
            family_name: self.family.get_untracked(),
            role: self.role.get_untracked(),
            team: self.team.get_untracked(),
        }
    }

    /// The draft when every field is right; otherwise shows each problem on its field, moves
    /// the focus to the first and returns `None`. `keep_team` is a team always allowed (the
    /// one the user is already in).
    pub(crate) fn checked(&self, with_email: bool, keep_team: Option<String>) -> Option<UserDraft> {
        let draft = self.draft();
        let mut teams = self.groups.names().unwrap_or_default();
        teams.extend(keep_team);
        let found = draft.validate(&teams, with_email);
        if let Some(&(first, _)) = found.first() {
            self.errors.set(found);
            focus_field(first);
            return None;
        }
        self.errors.set(FieldErrors::new());
        Some(draft)
    }

    /// Shows a refused write on the field it names; `false` when it names none.
    pub(crate) fn show_refusal(&self, error: &ApiError) -> bool {
        match field_of_error(error) {
            Some((field, message)) => {
                self.errors.try_set(vec![(field, message)]);
                focus_field(field);
                true
            }
            None => false,
        }
    }

    pub(crate) fn disabled(&self) -> Signal<bool> {
        let pending = self.pending;
        Signal::derive(move || pending.get())
    }

    /// What the team select can offer now.
    pub(crate) fn team_choices(&self) -> Signal<TeamChoices> {
        let groups = self.groups;
        Signal::derive(move || match groups.get() {
            None => TeamChoices::Loading,
            Some(Ok(_)) => TeamChoices::Ready(groups.names().unwrap_or_default()),
            Some(Err(error)) => TeamChoices::Failed(error.user_message()),
        })
    }
}

/// The form's starting point for an existing user (the email cannot change).
pub(crate) fn draft_of(user: &ScimUser) -> UserDraft {
    UserDraft {
        email: String::new(),
        given_name: user.name.given_name.clone(),
        family_name: user.name.family_name.clone(),
        role: user.user_type.to_string(),
        team: user.division.clone(),
    }
}

/// Names, role and team: the fields both pages have.
#[component]
pub(crate) fn UserFields(
    form: UserForm,
    /// Locks the fields while a write is under way (the edit page, whose fields the answer
    /// overwrites).
    #[prop(optional)]
    lock_while_pending: bool,
) -> impl IntoView {
    let disabled = if lock_while_pending {
        form.disabled()
    } else {
        Signal::stored(false)
    };
    let errors = form.errors;
    let groups = form.groups;
    view! {
        <TextField field=Field::GivenName value=form.given errors disabled />
        <TextField field=Field::FamilyName value=form.family errors disabled />
        <RoleSelect value=form.role errors disabled />
        <TeamSelect
            value=form.team
            errors
            choices=form.team_choices()
            on_retry=Callback::new(move |()| groups.refetch())
            disabled
        />
    }
}
