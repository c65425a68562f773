//! `/users/:id`: one user, their names, role and team, and switching them off and on.
//! Every change is a SCIM PUT, and the page then shows the platform's answer, not what it
//! asked for.

use gifting_api::paths::endpoint;
use gifting_api::rest::CurrentUser;
use gifting_api::scim::{ReplaceUser, ScimUser};
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::use_params_map;

use super::access::ScimLoaded;
use super::change_job::{self, Change, Changed};
use super::directory;
use super::guard;
use super::present::{display_name, status_badge};
use super::user_form::{draft_of, UserFields, UserForm};
use crate::api::{use_api, use_current_user, ApiClient, ApiError};
use crate::components::Breadcrumb;
use crate::components::{use_job, UseJob};
use crate::components::{ConfirmDialog, Notice, Tone};
use crate::components::{FailedNotice, LeaveGuard, ScreenHeading};
use crate::i18n::{live_text, msg, t, M};
use crate::jobs::{JobKind, JobState};
use crate::routes;

#[component]
pub(crate) fn UserPage() -> impl IntoView {
    let api = use_api();
    let params = use_params_map();
    let id = Memo::new(move |_| params.with(|p| p.get("id").unwrap_or_default()));
    let user = LocalResource::new(move || {
        let id = id.get();
        async move {
            api.get_json::<ScimUser>(endpoint::READ_SCIM_USER.call(&[&id]))
                .await
        }
    });

    view! {
        <section class="user-page" aria-labelledby="user-heading">
            <Breadcrumb href=routes::USERS label=M::UsersTitle />
            <ScimLoaded resource=user let:loaded>
                <UserEditor user=loaded />
            </ScimLoaded>
        </section>
    }
}

/// What the page reports after a save or an activation change.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Outcome {
    Saved(String),
    Failed(String),
}

/// The user's page state: the platform's latest answer about them, the form, and what the
/// last write did.
#[derive(Clone, Copy)]
struct Editor {
    api: ApiClient,
    /// The platform's latest answer about this user; the summary shows only this.
    current: RwSignal<ScimUser>,
    form: UserForm,
    outcome: RwSignal<Option<Outcome>>,
    /// A change that can take the admin role away: a job, with the guard in it.
    change: UseJob<Changed>,
    /// What the page says when that change lands.
    done: StoredValue<Option<Done>>,
    /// For a few seconds after a save: what puts the user back, and what the save wrote.
    undo: RwSignal<Option<(ReplaceUser, ReplaceUser)>>,
    /// The signed-in user (`/api/v3/me`): whether this page is their own account.
    me: LocalResource<Result<CurrentUser, ApiError>>,
}

/// How long "Undo" is offered after a save.
const UNDO_FOR: std::time::Duration = std::time::Duration::from_secs(10);

type Done = fn(&ScimUser) -> String;

impl Editor {
    fn new(user: ScimUser) -> Self {
        Self {
            api: use_api(),
            form: UserForm::new(draft_of(&user)),
            current: RwSignal::new(user),
            outcome: RwSignal::new(None),
            change: use_job(JobKind::UserChange),
            done: StoredValue::new(None),
            undo: RwSignal::new(None),
            me: use_current_user(),
        }
        .watching_changes()
    }

    /// A guarded change that ends is shown as a save is; one still running when the admin
    /// leaves is cancelled (a write already sent lands).
    fn watching_changes(self) -> Self {
        // A change left by an earlier visit (to this user or another) is not this page's.
        self.change.owned_by_screen(move || self.changed());
        self
    }

    /// The guarded change ended: the platform's answer, the guard's refusal, or why it stopped.
    fn changed(self) {
        let ran = self.change.with_untracked(Clone::clone);
        let note = self.change.status().map(|s| (s.state, s.note));
        self.change.dismiss();
        self.form.pending.set(false);
        let (Some(ran), Some((state, note))) = (ran, note) else {
            return;
        };
        let done = self.done.get_value();
        match (ran.answer, done) {
            (Some(answer), Some(done)) => {
                self.answered(ran.body, answer, done);
            }
            _ if state == JobState::Failed => self.outcome.set(Some(Outcome::Failed(note))),
            // Cancelled, or the admin kept their own account: the form keeps the change.
            _ => {}
        }
    }

    /// What the guard is doing while a change waits for it ("Waiting: another run …").
    fn progress(self) -> Option<String> {
        self.change
            .status()
            .filter(|s| s.running() && s.question.is_none())
            .map(|s| s.note)
    }

    /// Puts back what the last save changed, if the user is still as it left them (read
    /// again first; a user changed since by someone else is left alone), with the same guards.
    fn undo(self) {
        let Some((restore, wrote)) = self.undo.get_untracked() else {
            return;
        };
        self.undo.set(None);
        let id = self.current.with_untracked(|u| u.id.clone());
        spawn_local(async move {
            let now = self
                .api
                .get_json::<ScimUser>(endpoint::READ_SCIM_USER.call(&[&id]))
                .await;
            match now {
                Ok(now) if guard::holds(&now, &wrote) => {
                    self.current.try_set(now);
                    self.guarded(restore, |u| msg::users_undone(&display_name(u)));
                }
                Ok(now) => {
                    self.outcome
                        .try_set(Some(Outcome::Failed(msg::users_not_undone(&display_name(
                            &now,
                        )))));
                }
                Err(ApiError::Cancelled) => {}
                Err(error) => {
                    self.outcome
                        .try_set(Some(Outcome::Failed(error.user_message())));
                }
            }
        });
    }

    /// Sends `body`. A change that can take the admin role away goes through the guard
    /// ([`guard::run`]), which reads the users afresh: a change that leaves no admin, or that
    /// takes the role or the active status from the signed-in admin, is refused in words.
    fn guarded(self, body: ReplaceUser, done: Done) {
        if self.form.pending.get_untracked() {
            return;
        }
        // Refused at once, as the guard would after its reads: nothing to wait for or ask.
        if self.takes_yours(&body) {
            self.undo.set(None);
            self.outcome
                .set(Some(Outcome::Failed(guard::yours_refused())));
            return;
        }
        self.form.pending.set(true);
        self.outcome.set(None);
        self.undo.set(None);
        // Only a change that can take the admin role away needs the guard's count.
        if !guard::can_remove(&body) {
            spawn_local(async move {
                self.put(body, done).await;
                self.form.pending.try_set(false);
            });
            return;
        }
        let (id, name) = self
            .current
            .with_untracked(|u| (u.id.clone(), display_name(u)));
        let what = if body.active == Some(false) {
            guard::Loss::Deactivated
        } else {
            guard::Loss::Role
        };
        self.done.set_value(Some(done));
        let change = Change {
            id,
            name,
            body,
            what,
        };
        if let Err(reason) = self.change.start(|| change_job::start(change)) {
            self.outcome.set(Some(Outcome::Failed(reason)));
            self.form.pending.set(false);
        }
    }

    /// PUTs `body`; on success the page and the form show the platform's answer, and `done`
    /// says what changed. Whether it landed.
    async fn put(self, body: ReplaceUser, done: Done) -> bool {
        let id = self.current.with_untracked(|u| u.id.clone());
        let answer = self
            .api
            .write_json::<_, ScimUser>(endpoint::REPLACE_SCIM_USER.call(&[&id]), &body)
            .await
            .map(|a| a.body);
        if let Ok(user) = &answer {
            directory::keep(user);
        }
        self.answered(body, answer, done)
    }

    /// The platform answered `body`: the page and the form show what it now has, or the
    /// error. Whether it landed.
    fn answered(self, body: ReplaceUser, answer: Result<ScimUser, ApiError>, done: Done) -> bool {
        let Some(before) = self.current.try_get_untracked() else {
            return answer.is_ok();
        };
        match answer {
            Ok(now) => {
                let text = done(&now);
                // After an answer, the form starts again from what the platform now has.
                self.form.fill(&now);
                self.current.set(now);
                self.outcome.try_set(Some(Outcome::Saved(text)));
                self.offer_undo(guard::restore(&before, &body), body);
                true
            }
            Err(ApiError::Cancelled) => false,
            Err(error) => {
                if !self.form.show_refusal(&error) {
                    self.outcome
                        .try_set(Some(Outcome::Failed(error.user_message())));
                }
                false
            }
        }
    }

    /// Offers "Undo" for [`UNDO_FOR`]: only this save's offer ends then, a later save's offer
    /// runs its own time.
    fn offer_undo(self, restore: ReplaceUser, wrote: ReplaceUser) {
        let offer = Some((restore, wrote));
        self.undo.try_set(offer.clone());
        let undo = self.undo;
        set_timeout(
            move || {
                undo.try_update(|now| {
                    if *now == offer {
                        *now = None;
                    }
                });
            },
            UNDO_FOR,
        );
    }

    /// Sends only what the admin changed against the user as the page loaded it: a name
    /// change sends no role, so a role changed elsewhere since is not written back.
    fn save(self) {
        if self.form.pending.get_untracked() {
            return;
        }
        let loaded = self.current.with_untracked(draft_of);
        // Keeping the team the user already has is always allowed.
        let Some(draft) = self.form.checked(false, Some(loaded.team.clone())) else {
            return;
        };
        let renamed =
            draft.given_name != loaded.given_name || draft.family_name != loaded.family_name;
        let body = ReplaceUser {
            name: renamed.then(|| draft.name()),
            user_type: (draft.role != loaded.role).then(|| gifting_api::Role::parse(&draft.role)),
            division: (draft.team != loaded.team).then(|| draft.team.clone()),
            ..Default::default()
        };
        if body == ReplaceUser::default() {
            self.outcome
                .set(Some(Outcome::Saved(t(M::UsersNothingToSave).to_owned())));
            return;
        }
        self.guarded(body, |u| {
            let (name, role) = (display_name(u), u.user_type.to_string());
            if u.division.is_empty() {
                msg::users_saved_now_no_team(&name, &role)
            } else {
                msg::users_saved_now(&name, &role, &u.division)
            }
        });
    }

    fn set_active(self, active: bool) {
        let body = ReplaceUser {
            active: Some(active),
            ..Default::default()
        };
        let done: fn(&ScimUser) -> String = if active {
            |u| msg::users_active_again(&display_name(u))
        } else {
            |u| msg::users_now_deactivated(&display_name(u))
        };
        self.guarded(body, done);
    }

    fn name(self) -> String {
        self.current.with(display_name)
    }

    /// Whether writing `body` to the user on screen would take the admin role or the active
    /// status from the signed-in admin ([`guard::takes_yours`]): another admin's to do.
    fn takes_yours(self, body: &ReplaceUser) -> bool {
        self.me.with(|me| match me {
            Some(Ok(me)) => self.current.with(|u| guard::takes_yours(u, me, body)),
            _ => false,
        })
    }

    /// Whether the user on screen is the signed-in admin: no way to deactivate it is offered.
    fn is_yours(self) -> bool {
        self.takes_yours(&ReplaceUser {
            active: Some(false),
            ..ReplaceUser::default()
        })
    }
}

#[component]
fn UserEditor(user: ScimUser) -> impl IntoView {
    let editor = Editor::new(user);
    let current = editor.current;
    let form = editor.form;
    let unsaved = Signal::derive(move || form.draft() != current.with(draft_of));
    view! {
        <LeaveGuard dirty=unsaved />
        <ScreenHeading title=move || editor.name() within=M::UsersTitle id="user-heading" platform_data=true />
        <UserSummary current />
        <OutcomeNotice outcome=editor.outcome />
        <UndoOffer editor />
        <DetailsForm editor />
        <AccessSection editor />
    }
}

/// "Undo", for a few seconds after a save.
#[component]
fn UndoOffer(editor: Editor) -> impl IntoView {
    view! {
        <Show when=move || editor.undo.with(Option::is_some)>
            <p class="user-undo">
                <button type="button" class="button button--small" data-testid="user-undo" on:click=move |_| editor.undo()>
                    {M::UsersUndoChange}
                </button>
            </p>
        </Show>
    }
}

#[component]
fn UserSummary(current: RwSignal<ScimUser>) -> impl IntoView {
    let team = move || {
        current.with(|u| {
            if u.division.is_empty() {
                "—".to_owned()
            } else {
                u.division.clone()
            }
        })
    };
    view! {
        <dl class="user-summary" data-testid="user-summary">
            <div>
                <dt>{M::UsersEmail}</dt>
                <dd translate="no">{live_text(move || current.with(|u| u.user_name.clone()))}</dd>
            </div>
            <div>
                <dt>{M::UsersRole}</dt>
                <dd data-testid="user-role" translate="no">{live_text(move || current.with(|u| u.user_type.to_string()))}</dd>
            </div>
            <div>
                <dt>{M::UsersTeam}</dt>
                <dd data-testid="user-team" translate="no">{team}</dd>
            </div>
            <div>
                <dt>{M::UsersStatus}</dt>
                <dd data-testid="user-status">{move || status_badge(current.with(|u| u.active))}</dd>
            </div>
            <div>
                <dt>{M::UsersUserId}</dt>
                <dd translate="no">{live_text(move || current.with(|u| u.id.clone()))}</dd>
            </div>
        </dl>
    }
}

#[component]
fn OutcomeNotice(outcome: RwSignal<Option<Outcome>>) -> impl IntoView {
    let shown = move || {
        outcome.get().map(|o| match o {
            Outcome::Saved(text) => view! {
                <Notice tone=Tone::Success testid="user-outcome"><p>{text}</p></Notice>
            }
            .into_any(),
            Outcome::Failed(text) => view! {
                <FailedNotice message=text kept=M::UsersKeptInForm testid="user-outcome" />
            }
            .into_any(),
        })
    };
    view! { <div aria-live="polite">{shown}</div> }
}

#[component]
fn DetailsForm(editor: Editor) -> impl IntoView {
    let form = editor.form;
    let pending = form.pending;
    let on_save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        editor.save();
    };
    view! {
        <form class="form user-form" novalidate on:submit=on_save aria-labelledby="user-details-heading">
            <h2 id="user-details-heading">{M::UsersDetails}</h2>
            <UserFields form lock_while_pending=true />
            <div class="form__actions">
                <button type="submit" class="button button--primary" disabled=form.disabled()>
                    {live_text(move || t(if pending.get() { M::UsersSaving } else { M::UsersSaveChanges }))}
                </button>
                <span role="status" data-testid="user-progress">{live_text(move || editor.progress())}</span>
            </div>
        </form>
    }
}

/// Switching the user off (after a confirmation) and on again.
#[component]
fn AccessSection(editor: Editor) -> impl IntoView {
    let pending = editor.form.pending;
    let confirm_open = RwSignal::new(false);
    // Deactivating asks first; activating is harmless and happens at once. The signed-in
    // admin's own account offers no way to deactivate it: another admin does that.
    let state = move || {
        if editor.is_yours() {
            return view! { <p data-testid="user-yours-note">{M::UsersYoursNote}</p> }.into_any();
        }
        let active = editor.current.with(|u| u.active);
        let (text, class, label) = if active {
            (
                M::UsersCanSignIn,
                "button button--danger",
                M::UsersDeactivateUser,
            )
        } else {
            (
                M::UsersCannotSignIn,
                "button button--primary",
                M::UsersActivateUser,
            )
        };
        let on_click = move |_| {
            if active {
                confirm_open.set(true);
            } else {
                editor.set_active(true);
            }
        };
        view! {
            <p>{text}</p>
            <button type="button" class=class disabled=move || pending.get() on:click=on_click>
                {label}
            </button>
        }
        .into_any()
    };
    view! {
        <section class="user-access" aria-labelledby="user-access-heading">
            <h2 id="user-access-heading">{M::UsersAccess}</h2>
            {state}
        </section>
        <ConfirmDialog
            open=confirm_open
            title=Signal::derive(move || msg::users_deactivate_name_question(&editor.name()))
            confirm_label=M::UsersKindDeactivate
            on_confirm=Callback::new(move |()| editor.set_active(false))
        >
            <p>{M::UsersDeactivateExplain}</p>
        </ConfirmDialog>
    }
}
