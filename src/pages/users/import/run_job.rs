//! The writes of an import, the work of its job ([`super::job`]): one SCIM request per row
//! that needs one, a few in flight, their starts under the console's one pacing policy
//! ([`crate::http::pacing`]). A "busy" answer holds every request back as long as the
//! platform asked (`Retry-After`). After a write whose answer was lost (no connection,
//! timeout, 5xx, busy), the request policy ([`crate::http::retry`]) says what follows, the
//! same for the bulk change and undo: a create is never sent again blindly (the platform is
//! asked first whether it landed, by `userName eq` as the user form does, and only a create
//! that did not land is sent again); an update or a deactivation, a SCIM PUT of the attributes
//! changed, is sent again. Running the same file again compares afresh, so it finishes the rest.

use gifting_api::paths::endpoint;
use gifting_api::scim::{CreateUser, ReplaceUser, ScimUser};

use super::compare::lookup;
use super::fate::{Problem, Wanted};
use crate::api::{ApiClient, ApiError, Written};
use crate::components::format::count;
use crate::http::pacing::Lane;
use crate::http::retry::MAX_SENDS;
use crate::i18n::{msg, t, M};
use crate::pages::users::directory;

/// One write of the run.
#[derive(Clone, Debug)]
pub(crate) enum Write {
    Create {
        wanted: Wanted,
        body: CreateUser,
    },
    Update {
        id: String,
        /// The row as the file has it. A lost update is sent again, not compared with it
        /// (see [`crate::http::retry::RequestKind::IdempotentWrite`]); kept for the comparison
        /// that built the write.
        #[expect(dead_code, reason = "a lost PUT is sent again, not compared")]
        wanted: Wanted,
        body: ReplaceUser,
    },
    Deactivate {
        id: String,
    },
}

/// How a row (or an absent user) ended. Its words are chosen when shown, in the language of
/// the moment ([`Outcome::message`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// `confirmed`: the first answer was lost, and the platform confirmed the user exists.
    Created {
        confirmed: bool,
    },
    Updated,
    Unchanged,
    Deactivated,
    /// Not written, by choice (an error row, an update under "create only").
    Skipped(Skip),
    Failed(Failure),
    /// Cancelled before its turn.
    NotRun,
}

/// Why a row was not written, by choice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Skip {
    /// An update, under "create only".
    CreateOnly,
    /// The preview's reason.
    Refused(Problem),
    /// The signed-in admin's own admin role or active status: another admin must change it.
    Yours,
}

/// Why a write failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Failure {
    /// Words from elsewhere, as they were said: the platform's error in the console's words,
    /// or the guard's refusal.
    Said(String),
    /// Stopped before the platform answered.
    Stopped,
    /// A create answered 409: the user was created since the preview.
    Conflict,
    /// [`MAX_SENDS`] answers lost; `create`: it was checked each time.
    GaveUp { create: bool },
    /// Cancelled while its answer was pending.
    Pending,
    /// The error (in words), and whether the write landed could not be checked.
    Unchecked(String),
}

impl Outcome {
    /// Its word in the results file's `outcome` column and in `data-outcome`: stable English,
    /// for machines (see [`Outcome::label`] for the screen).
    pub(crate) fn word(&self) -> &'static str {
        match self {
            Outcome::Created { .. } => "created",
            Outcome::Updated => "updated",
            Outcome::Unchanged => "unchanged",
            Outcome::Deactivated => "deactivated",
            Outcome::Skipped(_) => "skipped",
            Outcome::Failed(_) => "failed",
            Outcome::NotRun => "not run",
        }
    }

    /// Whether the platform was written for this row.
    pub(crate) fn wrote(&self) -> bool {
        matches!(
            self,
            Outcome::Created { .. } | Outcome::Updated | Outcome::Deactivated
        )
    }

    /// Its name on screen (the preview's badge).
    pub(crate) fn label(&self) -> M {
        match self {
            Outcome::Created { .. } => M::ImportOutcomeCreated,
            Outcome::Updated => M::ImportOutcomeUpdated,
            Outcome::Unchanged => M::ImportOutcomeUnchanged,
            Outcome::Deactivated => M::ImportOutcomeDeactivated,
            Outcome::Skipped(_) => M::ImportOutcomeSkipped,
            Outcome::Failed(_) => M::ImportOutcomeFailed,
            Outcome::NotRun => M::ImportOutcomeNotRun,
        }
    }

    /// What happened, in the chosen language.
    pub(crate) fn message(&self) -> String {
        match self {
            Outcome::Created { confirmed: false } => t(M::ImportCreated).into(),
            Outcome::Created { confirmed: true } => t(M::ImportCreatedConfirmed).into(),
            Outcome::Updated => t(M::ImportUpdated).into(),
            Outcome::Unchanged => t(M::ImportUnchanged).into(),
            Outcome::Deactivated => t(M::ImportDeactivated).into(),
            Outcome::Skipped(Skip::CreateOnly) => t(M::ImportSkippedCreateOnly).into(),
            Outcome::Skipped(Skip::Refused(problem)) => msg::import_not_written(&problem.text()),
            Outcome::Skipped(Skip::Yours) => t(M::GuardYoursRefused).into(),
            Outcome::Failed(failure) => failure.message(),
            Outcome::NotRun => t(M::ImportNotRun).into(),
        }
    }
}

impl Failure {
    fn message(&self) -> String {
        match self {
            Failure::Said(words) => words.clone(),
            Failure::Stopped => t(M::ImportFailedStopped).into(),
            Failure::Conflict => t(M::ImportFailedConflict).into(),
            Failure::GaveUp { create } => {
                let sends = count(MAX_SENDS as u64);
                if *create {
                    msg::import_failed_gave_up_checked(&sends)
                } else {
                    msg::import_failed_gave_up(&sends)
                }
            }
            Failure::Pending => t(M::ImportFailedPending).into(),
            Failure::Unchecked(error) => msg::import_failed_unchecked(error),
        }
    }
}

/// How a write's error ends its row, and whether the run stops (the session ended, or the
/// screen was left).
fn after_error(error: ApiError, create: bool) -> (Outcome, bool) {
    match error {
        ApiError::Cancelled => (Outcome::Failed(Failure::Stopped), true),
        ApiError::Unauthorized => (said(&ApiError::Unauthorized), true),
        ApiError::Scim { status: 409, .. } if create => (Outcome::Failed(Failure::Conflict), false),
        other => (said(&other), false),
    }
}

/// The error in the console's words (in the language of the moment).
fn said(error: &ApiError) -> Outcome {
    Outcome::Failed(Failure::Said(error.user_message()))
}

/// One write to its end, under the request policy ([`crate::http::retry`]): a create is
/// checked after a lost answer and sent again only if it did not land; an update or a
/// deactivation, a SCIM PUT, is sent again as the bulk change's are. The `bool`: the run stops.
pub(crate) async fn write_one(api: ApiClient, lane: &Lane, job: &Write) -> (Outcome, bool) {
    let deactivate = ReplaceUser {
        active: Some(false),
        ..ReplaceUser::default()
    };
    let (written, done) = match job {
        Write::Create { wanted, body } => {
            let call = endpoint::CREATE_SCIM_USER.call(&[]);
            // Whether it landed is asked, never assumed: by `userName eq`, as the user form does.
            let landed = || lookup(api, lane, &wanted.email);
            let written = api.create_in_lane::<ScimUser>(lane, call, body, landed);
            (
                written.await.map(|user| directory::keep(&user)),
                Outcome::Created { confirmed: false },
            )
        }
        Write::Update { id, body, .. } => {
            let call = endpoint::REPLACE_SCIM_USER.call(&[id]);
            let written = api.put_in_lane::<_, ScimUser>(lane, call, body).await;
            (written.map(|user| directory::keep(&user)), Outcome::Updated)
        }
        Write::Deactivate { id } => {
            let call = endpoint::REPLACE_SCIM_USER.call(&[id]);
            let written = api
                .put_in_lane::<_, ScimUser>(lane, call, &deactivate)
                .await;
            (
                written.map(|user| directory::keep(&user)),
                Outcome::Deactivated,
            )
        }
    };
    let create = matches!(job, Write::Create { .. });
    match written {
        Written::Answered(()) => (done, false),
        Written::Confirmed(()) => (Outcome::Created { confirmed: true }, false),
        Written::Failed { lost, .. } if lost >= MAX_SENDS => (gave_up(create), false),
        Written::Failed { error, .. } => after_error(error, create),
        Written::Unchecked(ApiError::Cancelled) => (stopped_outcome(true), false),
        Written::Unchecked(error) => (unknown(&error), false),
        Written::Stopped { pending } => (stopped_outcome(pending), false),
    }
}

/// The row after [`MAX_SENDS`] lost answers.
fn gave_up(create: bool) -> Outcome {
    Outcome::Failed(Failure::GaveUp { create })
}

fn stopped_outcome(sent_before: bool) -> Outcome {
    if sent_before {
        Outcome::Failed(Failure::Pending)
    } else {
        Outcome::NotRun
    }
}

fn unknown(error: &ApiError) -> Outcome {
    Outcome::Failed(Failure::Unchecked(error.user_message()))
}
