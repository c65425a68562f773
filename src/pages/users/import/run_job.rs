//! The writes of an import, the work of its job ([`super::job`]): one SCIM request per row
//! that needs one, a few in flight, their starts under the console's one pacing policy
//! ([`crate::http::pacing`]). A "busy" answer holds every request back as long as the
//! platform asked (`Retry-After`). Nothing is sent
//! again blindly: after a write whose answer was lost (no connection, timeout, 5xx, busy),
//! the platform is asked first whether it landed (a create by `userName eq`, as the user form
//! does; an update or deactivation by reading the user), and only a write that did not land
//! is sent again. Running the same file again compares afresh, so it finishes the rest.

use gifting_api::paths::endpoint;
use gifting_api::scim::{CreateUser, ReplaceUser, ScimUser};

use super::compare::lookup;
use super::fate::{changes, Wanted};
use crate::api::{ApiClient, ApiError};
use crate::http::pacing::{busy_wait_ms, Lane};

/// Sends of one write at most (each after checking the last one did not land).
pub(crate) const MAX_SENDS: u32 = 4;

/// One write of the run.
#[derive(Clone, Debug)]
pub(crate) enum Write {
    Create {
        wanted: Wanted,
        body: CreateUser,
    },
    Update {
        id: String,
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

/// What one send ended with.
enum Sent {
    Done(Outcome),
    /// No clear answer: it may or may not have landed. `busy`: the platform said so, with
    /// its wait if it gave one.
    Lost {
        busy: bool,
        retry_after: Option<u64>,
    },
    /// The session ended, or the screen was left: the run stops.
    Stop(Outcome),
}

fn after_error(error: ApiError, create: bool) -> Sent {
    match error {
        ApiError::Busy { retry_after } => Sent::Lost {
            busy: true,
            retry_after,
        },
        e if e.is_transient() => Sent::Lost {
            busy: false,
            retry_after: None,
        },
        ApiError::Cancelled => Sent::Stop(Outcome::Failed(
            "Stopped before the platform answered: run the file again, it checks first.".into(),
        )),
        ApiError::Unauthorized => Sent::Stop(Outcome::Failed(e_text(&ApiError::Unauthorized))),
        ApiError::Scim { status: 409, .. } if create => Sent::Done(Outcome::Failed(
            "A user with this email was created on the platform since the preview: run the \
             file again to compare."
                .into(),
        )),
        other => Sent::Done(Outcome::Failed(e_text(&other))),
    }
}

fn e_text(error: &ApiError) -> String {
    error.user_message()
}

async fn send(api: ApiClient, job: &Write) -> Sent {
    let answer = match job {
        Write::Create { body, .. } => api
            .write_json_in_lane::<_, ScimUser>(endpoint::CREATE_SCIM_USER.call(&[]), body)
            .await
            .map(|_| Outcome::Created("Created.".into())),
        Write::Update { id, body, .. } => api
            .write_json_in_lane::<_, ScimUser>(endpoint::REPLACE_SCIM_USER.call(&[id]), body)
            .await
            .map(|_| Outcome::Updated("Updated.".into())),
        Write::Deactivate { id } => {
            let body = ReplaceUser {
                active: Some(false),
                ..ReplaceUser::default()
            };
            api.write_json_in_lane::<_, ScimUser>(endpoint::REPLACE_SCIM_USER.call(&[id]), &body)
                .await
                .map(|_| Outcome::Deactivated)
        }
    };
    match answer {
        Ok(outcome) => Sent::Done(outcome),
        Err(error) => after_error(error, matches!(job, Write::Create { .. })),
    }
}

/// Whether the write whose answer was lost did land (asked, never assumed).
async fn landed(api: ApiClient, lane: &Lane, job: &Write) -> Result<Option<Outcome>, ApiError> {
    // Reads: each is paced, and tried again while the platform is busy or silent.
    let checked = match job {
        Write::Create { wanted, .. } => lookup(api, lane, &wanted.email).await?.map(|_| {
            Outcome::Created(
                "Created (the first answer was lost; the platform confirmed it).".into(),
            )
        }),
        Write::Update { id, wanted, .. } => {
            let user: ScimUser = api
                .get_paced(lane, endpoint::READ_SCIM_USER.call(&[id]))
                .await?;
            changes(wanted, &user).is_empty().then(|| {
                Outcome::Updated(
                    "Updated (the first answer was lost; the platform confirmed it).".into(),
                )
            })
        }
        Write::Deactivate { id } => {
            let user: ScimUser = api
                .get_paced(lane, endpoint::READ_SCIM_USER.call(&[id]))
                .await?;
            (!user.active).then_some(Outcome::Deactivated)
        }
    };
    Ok(checked)
}

/// One job to its end: sent, checked after a lost answer, sent again only if it did not land.
pub(crate) async fn write_one(api: ApiClient, lane: &Lane, job: &Write) -> (Outcome, bool) {
    let mut lost = 0;
    while lost < MAX_SENDS {
        if lane.stopped() {
            return (stopped_outcome(lost > 0), false);
        }
        if lost > 0 {
            match landed(api, lane, job).await {
                Ok(Some(outcome)) => return (outcome, false),
                Ok(None) => {}
                Err(ApiError::Cancelled) => return (stopped_outcome(true), false),
                Err(error) => return (unknown(&error), false),
            }
        }
        let Some(started) = lane.turn().await else {
            return (stopped_outcome(lost > 0), false);
        };
        match send(api, job).await {
            Sent::Done(outcome) => {
                lane.answered(started);
                return (outcome, false);
            }
            Sent::Stop(outcome) => return (outcome, true),
            Sent::Lost { busy, retry_after } => {
                lost += 1;
                let waited = busy.then(|| lane.refused(started, retry_after)).flatten();
                if waited.is_none() {
                    lane.hold(busy_wait_ms(retry_after, lost).unwrap_or(1000));
                }
            }
        }
    }
    (
        Outcome::Failed(format!(
            "The platform did not answer {MAX_SENDS} times (it was checked each time: nothing \
             landed). Run the file again to finish this row."
        )),
        false,
    )
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
