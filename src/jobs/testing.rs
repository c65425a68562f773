//! What unit tests of job work share: waiting for a job's end or its question, and checking
//! how it failed.

use std::cell::RefCell;
use std::rc::Rc;

use gifting_api::scim::ScimUser;
use leptos::prelude::Owner;

use super::{JobHandle, JobState, JobStatus, Question};
use crate::api::testing::{scim_platform, signed_in_app, until, Scim, Twist};
use crate::http::pacing::token_pacer;

/// A fresh SCIM platform of `users` (`me` signed in) and an app to run jobs in; the token's
/// pacer starts from nothing learned.
pub(crate) fn scim_app(me: &str, users: Vec<ScimUser>, twist: Twist) -> (Rc<RefCell<Scim>>, Owner) {
    token_pacer().forget();
    let platform = scim_platform(me, users, twist);
    let app = signed_in_app();
    app.with(super::init);
    (platform, app)
}

/// The job's status once it has ended.
pub(crate) async fn ended<R>(job: &JobHandle<R>) -> JobStatus {
    until("the job ends", || {
        job.status().is_some_and(|s| !s.running())
    })
    .await;
    job.status().expect("an ended job is kept until dismissed")
}

/// The job's status once it has ended, checked: it failed, saying first `saying`.
pub(crate) async fn failed<R>(job: &JobHandle<R>, saying: &str) -> JobStatus {
    let status = ended(job).await;
    assert_eq!(status.state, JobState::Failed, "{}", status.note);
    assert!(status.note.starts_with(saying), "{}", status.note);
    status
}

/// The question the job asks, once it asks one; `None` if it ends first.
pub(crate) async fn asked<R>(job: &JobHandle<R>) -> Option<Question> {
    let settled = || {
        job.status()
            .is_some_and(|s| !s.running() || s.question.is_some())
    };
    until("the job asks or ends", settled).await;
    job.status().and_then(|s| s.question)
}
