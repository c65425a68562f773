//! `/users/:id`: one user, their names, role and team, and switching them off and on.
//! Every change is a SCIM PUT, and the page then shows the platform's answer, not what it
//! asked for.

use futures::channel::oneshot;
use gifting_api::paths::endpoint;
use gifting_api::scim::{ReplaceUser, ScimUser};
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::use_params_map;

use super::access::ScimLoaded;
use super::guard::{self, GuardHost, Guarded, NotSent, Target, Writer};
use super::present::{display_name, status_badge};
use super::user_form::{draft_of, UserFields, UserForm};
use crate::api::{use_api, ApiClient, ApiError};
use crate::components::Breadcrumb;
use crate::components::{ConfirmDialog, Notice, Tone};
use crate::components::{FailedNotice, LeaveGuard, ScreenHeading};
use crate::http::pacing::Lane;
use crate::jobs::{JobState, Question};
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
            <Breadcrumb href=routes::USERS label="Users" />
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
    /// The guard's question about the signed-in admin's own account, while it waits on it.
    yours: RwSignal<Option<String>>,
    /// What the guard is doing while a change waits for it ("Waiting: another run …").
    progress: RwSignal<Option<String>>,
    /// Where the answer to that question goes.
    answer: StoredValue<Option<oneshot::Sender<bool>>>,
    /// For a few seconds after a save: what puts the user back, and what the save wrote.
    undo: RwSignal<Option<(ReplaceUser, ReplaceUser)>>,
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
            yours: RwSignal::new(None),
            progress: RwSignal::new(None),
            answer: StoredValue::new(None),
            undo: RwSignal::new(None),
        }
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
                    self.guarded(restore, |u| {
                        format!("Undone: {} is back as before.", display_name(u))
                    });
                }
                Ok(now) => {
                    self.outcome.try_set(Some(Outcome::Failed(format!(
                        "Not undone: {} was changed since by someone else, and is left as it is.",
                        display_name(&now)
                    ))));
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
    /// ([`guard::run`]), which reads the users afresh: a change that leaves no admin is
    /// refused, and a change to the signed-in admin's own account waits for its own
    /// confirmation.
    fn guarded(self, body: ReplaceUser, done: Done) {
        if self.form.pending.get_untracked() {
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
        let id = self.current.with_untracked(|u| u.id.clone());
        let what = if body.active == Some(false) {
            "are deactivated"
        } else {
            "lose the admin role"
        };
        spawn_local(async move {
            let host = PageHost {
                editor: self,
                lane: Lane::default(),
            };
            let target = Target::User {
                id,
                body: Box::new(body.clone()),
            };
            let plan = move |_: &guard::World| {
                vec![Guarded {
                    target,
                    write: (body, done),
                }]
            };
            let ran = guard::run(&host, true, what, plan, &self).await;
            self.progress.try_set(None);
            if let Err(end) = &ran {
                if end.state != JobState::Cancelled {
                    self.outcome
                        .try_set(Some(Outcome::Failed(end.note.clone())));
                }
            }
            self.form.pending.try_set(false);
        });
    }

    /// PUTs `body`; on success the page and the form show the platform's answer, and `done`
    /// says what changed. Whether it landed.
    async fn put(self, body: ReplaceUser, done: Done) -> bool {
        let before = self.current.get_untracked();
        let answer = self
            .api
            .write_json::<_, ScimUser>(endpoint::REPLACE_SCIM_USER.call(&[&before.id]), &body)
            .await;
        match answer {
            Ok(answer) => {
                let text = done(&answer.body);
                // After an answer, the form starts again from what the platform now has.
                if self.current.try_get_untracked().is_some() {
                    self.form.fill(&answer.body);
                    self.current.set(answer.body);
                }
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
            self.outcome.set(Some(Outcome::Saved(
                "Nothing to save: the form is as the platform has this user.".into(),
            )));
            return;
        }
        self.guarded(body, |u| {
            let team = if u.division.is_empty() {
                "no team"
            } else {
                &u.division
            };
            format!(
                "Saved. The platform now has {}: {}, in {team}.",
                display_name(u),
                u.user_type,
            )
        });
    }

    fn set_active(self, active: bool) {
        let body = ReplaceUser {
            active: Some(active),
            ..Default::default()
        };
        let done: fn(&ScimUser) -> String = if active {
            |u| format!("{} is active again.", display_name(u))
        } else {
            |u| format!("{} is deactivated.", display_name(u))
        };
        self.guarded(body, done);
    }

    fn name(self) -> String {
        self.current.with(display_name)
    }
}

/// The page as the guard's host: its own client, a lane of its own, and the own-account
/// question asked in a dialog.
struct PageHost {
    editor: Editor,
    lane: Lane,
}

impl GuardHost for PageHost {
    fn api(&self) -> ApiClient {
        self.editor.api
    }
    fn lane(&self) -> &Lane {
        &self.lane
    }
    fn say(&self, note: String) {
        self.editor.progress.try_set(Some(note));
    }
    async fn ask(&self, question: Question) -> Option<bool> {
        let (tx, rx) = oneshot::channel();
        self.editor.answer.try_set_value(Some(tx));
        self.editor.yours.try_set(Some(question.text));
        let answer = rx.await.ok();
        self.editor.yours.try_set(None);
        answer
    }
    fn asks_about_others(&self) -> bool {
        false
    }
    fn yours_question(&self, what: &str, remaining: usize) -> Question {
        Question {
            text: format!(
                "This is your own account: {}",
                guard::losing_yours(what, remaining)
            ),
            yes: "Change my own account".into(),
            no: "Cancel".into(),
        }
    }
}

/// The page's one write, as the guard hands it over.
impl Writer<(ReplaceUser, Done)> for Editor {
    async fn send(&self, (body, done): (ReplaceUser, Done)) -> bool {
        self.put(body, done).await
    }

    fn not_sent(&self, _: (ReplaceUser, Done), why: NotSent) {
        // Kept or stopped: the form keeps the change, nothing to say.
        if let NotSent::Refused(refusal) = why {
            self.outcome.try_set(Some(Outcome::Failed(refusal)));
        }
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
        <ScreenHeading title=move || editor.name() within="Users" id="user-heading" />
        <UserSummary current />
        <OutcomeNotice outcome=editor.outcome />
        <UndoOffer editor />
        <DetailsForm editor />
        <AccessSection editor />
        <YourOwnAccount editor />
    }
}

/// "Undo", for a few seconds after a save.
#[component]
fn UndoOffer(editor: Editor) -> impl IntoView {
    view! {
        <Show when=move || editor.undo.with(Option::is_some)>
            <p class="user-undo">
                <button type="button" class="button button--small" data-testid="user-undo" on:click=move |_| editor.undo()>
                    "Undo this change"
                </button>
            </p>
        </Show>
    }
}

/// The confirmation a change to the signed-in admin's own admin role needs, on its own: the
/// guard's question, with the admins counted as they are when it is asked.
#[component]
fn YourOwnAccount(editor: Editor) -> impl IntoView {
    let open = RwSignal::new(false);
    let answer = move |yes: bool| {
        if let Some(tx) = editor.answer.try_update_value(Option::take).flatten() {
            let _ = tx.send(yes);
        }
    };
    // Each side is set only when it changes: a set notifies even when equal, and the two
    // effects would otherwise wake each other forever.
    Effect::new(move |_| {
        let asked = editor.yours.with(Option::is_some);
        if asked != open.get_untracked() {
            open.set(asked);
        }
    });
    // Closed without confirming: the change is not made, the form keeps it.
    Effect::new(move |_| {
        if !open.get() && editor.yours.with_untracked(Option::is_some) {
            answer(false);
        }
    });
    view! {
        <ConfirmDialog
            open
            title="Change your own account?"
            confirm_label="Change my own account"
            on_confirm=Callback::new(move |()| answer(true))
        >
            <p>{move || editor.yours.get().unwrap_or_default()}</p>
        </ConfirmDialog>
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
                <dt>"Email"</dt>
                <dd>{move || current.with(|u| u.user_name.clone())}</dd>
            </div>
            <div>
                <dt>"Role"</dt>
                <dd data-testid="user-role">{move || current.with(|u| u.user_type.to_string())}</dd>
            </div>
            <div>
                <dt>"Team"</dt>
                <dd data-testid="user-team">{team}</dd>
            </div>
            <div>
                <dt>"Status"</dt>
                <dd data-testid="user-status">{move || status_badge(current.with(|u| u.active))}</dd>
            </div>
            <div>
                <dt>"User id"</dt>
                <dd>{move || current.with(|u| u.id.clone())}</dd>
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
                <FailedNotice message=text kept="Nothing was lost: your changes are still in the form." testid="user-outcome" />
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
            <h2 id="user-details-heading">"Details"</h2>
            <UserFields form lock_while_pending=true />
            <div class="form__actions">
                <button type="submit" class="button button--primary" disabled=form.disabled()>
                    {move || if pending.get() { "Saving…" } else { "Save changes" }}
                </button>
                <span role="status" data-testid="user-progress">{move || editor.progress.get()}</span>
            </div>
        </form>
    }
}

/// Switching the user off (after a confirmation) and on again.
#[component]
fn AccessSection(editor: Editor) -> impl IntoView {
    let pending = editor.form.pending;
    let confirm_open = RwSignal::new(false);
    // Deactivating asks first; activating is harmless and happens at once.
    let state = move || {
        let active = editor.current.with(|u| u.active);
        let (text, class, label) = if active {
            (
                "This user can sign in and send gifts.",
                "button button--danger",
                "Deactivate user",
            )
        } else {
            (
                "This user is deactivated: they cannot sign in or send gifts.",
                "button button--primary",
                "Activate user",
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
    };
    view! {
        <section class="user-access" aria-labelledby="user-access-heading">
            <h2 id="user-access-heading">"Access"</h2>
            {state}
        </section>
        <ConfirmDialog
            open=confirm_open
            title=Signal::derive(move || format!("Deactivate {}?", editor.name()))
            confirm_label="Deactivate"
            on_confirm=Callback::new(move |()| editor.set_active(false))
        >
            <p>
                "A deactivated user can no longer sign in to the platform or send gifts, and "
                "leaves the active users directory. Their account and history are kept, and you "
                "can activate them again at any time."
            </p>
        </ConfirmDialog>
    }
}
