//! Users as the platform sends them, for the user screens' tests (the list's bulk changes, the
//! import's fates): one fixture, so each test states only what it varies.

use gifting_api::scim::ScimUser;

/// Ada Lovelace (id 7, ada@example.com), a `role` in team `team` ("" for none), active or not.
pub(crate) fn ada(role: &str, team: &str, active: bool) -> ScimUser {
    serde_json::from_value(serde_json::json!({
        "id": "7", "userName": "ada@example.com", "active": active,
        "name": {"givenName": "Ada", "familyName": "Lovelace"},
        "userType": role, "division": team
    }))
    .unwrap()
}

/// Job work's tests: how a job of the user screens ended, and the questions it asks.
pub(crate) mod jobs {
    use crate::api::testing::until;
    use crate::jobs::{JobHandle, JobStatus, Question};

    /// The job's status once it has ended.
    pub(crate) async fn ended<R>(job: &JobHandle<R>) -> JobStatus {
        until("the job ends", || {
            job.status().is_some_and(|s| !s.running())
        })
        .await;
        job.status().expect("an ended job is kept until dismissed")
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
}
