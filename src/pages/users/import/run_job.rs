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
use super::fate::Wanted;
use crate::api::{ApiClient, ApiError, Written};
use crate::http::pacing::Lane;
use crate::http::retry::MAX_SENDS;
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

/// How a row (or an absent user) ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    Created(String),
    Updated(String),
    Unchanged,
    Deactivated,
    /// Not written, by choice (an error row, an update under "create only").
    Skipped(String),
    Failed(String),
    /// Cancelled before its turn.
    NotRun,
}

impl Outcome {
    pub(crate) fn word(&self) -> &'static str {
        match self {
            Outcome::Created(_) => "created",
            Outcome::Updated(_) => "updated",
            Outcome::Unchanged => "unchanged",
            Outcome::Deactivated => "deactivated",
            Outcome::Skipped(_) => "skipped",
            Outcome::Failed(_) => "failed",
            Outcome::NotRun => "not run",
        }
    }

    pub(crate) fn message(&self) -> String {
        match self {
            Outcome::Created(m) | Outcome::Updated(m) => m.clone(),
            Outcome::Unchanged => "Already as in the file.".into(),
            Outcome::Deactivated => "Absent from the file: deactivated.".into(),
            Outcome::Skipped(m) | Outcome::Failed(m) => m.clone(),
            Outcome::NotRun => "Cancelled before its turn: run the file again to finish.".into(),
        }
    }
}

/// How a write's error ends its row, and whether the run stops (the session ended, or the
/// screen was left).
fn after_error(error: ApiError, create: bool) -> (Outcome, bool) {
    match error {
        ApiError::Cancelled => (
            Outcome::Failed(
                "Stopped before the platform answered: run the file again, it checks first.".into(),
            ),
            true,
        ),
        ApiError::Unauthorized => (Outcome::Failed(e_text(&ApiError::Unauthorized)), true),
        ApiError::Scim { status: 409, .. } if create => (
            Outcome::Failed(
                "A user with this email was created on the platform since the preview: run \
                 the file again to compare."
                    .into(),
            ),
            false,
        ),
        other => (Outcome::Failed(e_text(&other)), false),
    }
}

fn e_text(error: &ApiError) -> String {
    error.user_message()
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
                Outcome::Created("Created.".into()),
            )
        }
        Write::Update { id, body, .. } => {
            let call = endpoint::REPLACE_SCIM_USER.call(&[id]);
            let written = api.put_in_lane::<_, ScimUser>(lane, call, body).await;
            (
                written.map(|user| directory::keep(&user)),
                Outcome::Updated("Updated.".into()),
            )
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
        Written::Confirmed(()) => (
            Outcome::Created(
                "Created (the first answer was lost; the platform confirmed it).".into(),
            ),
            false,
        ),
        Written::Failed { lost, .. } if lost >= MAX_SENDS => (gave_up(create), false),
        Written::Failed { error, .. } => after_error(error, create),
        Written::Unchecked(ApiError::Cancelled) => (stopped_outcome(true), false),
        Written::Unchecked(error) => (unknown(&error), false),
        Written::Stopped { pending } => (stopped_outcome(pending), false),
    }
}

/// The row's words after [`MAX_SENDS`] lost answers.
fn gave_up(create: bool) -> Outcome {
    let checked = if create {
        " (it was checked each time: nothing landed)"
    } else {
        ""
    };
    Outcome::Failed(format!(
        "The platform did not answer {MAX_SENDS} times{checked}. Run the file again to finish \
         this row."
    ))
}

fn stopped_outcome(sent_before: bool) -> Outcome {
    if sent_before {
        Outcome::Failed(
            "Cancelled while its answer was pending: run the file again, it checks first.".into(),
        )
    } else {
        Outcome::NotRun
    }
}

fn unknown(error: &ApiError) -> Outcome {
    Outcome::Failed(format!(
        "{} Whether the write landed could not be checked: run the file again, it compares \
         first and never creates anyone twice.",
        error.user_message()
    ))
}
