//! A bulk change as a job ([`crate::jobs`]): it goes on when the admin leaves Users, shows in
//! the header's jobs indicator, and keeps its results until dismissed. One SCIM PUT per user,
//! a few in flight, their starts under the console's one pacing policy
//! ([`crate::http::pacing`]): when the platform says "busy" (429, 503) every request of the
//! run waits as long as it asked, and the change is sent again (a PUT of one attribute is
//! idempotent, so sending it twice changes nothing more). After a Cancel nothing more is sent.
//!
//! Job work: plain data in, the job's own client and result out; nothing of a screen.

use futures::future::LocalBoxFuture;
use futures::StreamExt;
use gifting_api::paths::endpoint;
use gifting_api::scim::{
    ListResponse, ListUsersQuery, ReplaceUser, ScimUser, UserFilter, MAX_COUNT,
};
use leptos::prelude::{Update, WithUntracked};

use super::bulk::{answer_summary, insert_result, results_summary, BulkAction, BulkResult, Picked};
use crate::api::ApiError;
use crate::components::jobs_indicator;
use crate::jobs::{self, JobCtx, JobEnd, JobHandle, JobKind, JobState};
use crate::routes;

/// PUTs in flight at once: quick for a page of users, gentle on the platform's rate limit.
pub(crate) const MAX_IN_FLIGHT: usize = 4;

/// Who the change is for.
pub(crate) enum Targets {
    /// The users selected.
    Picked(Vec<(String, Picked)>),
    /// Every user the list matches (`email`: its search), read from the platform first.
    Matching { email: Option<String>, total: u64 },
}

/// A bulk change as its screen shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct BulkRun {
    pub(crate) action: Option<BulkAction>,
    /// While the users matching the list are read: (read, matching).
    pub(crate) finding: Option<(usize, u64)>,
    /// The users the change is for, once known.
    pub(crate) asked: Vec<(String, Picked)>,
    /// One per user answered, in run order.
    pub(crate) results: Vec<BulkResult>,
}

impl BulkRun {
    /// "Changed 11 of 12 users. …", once there are results.
    pub(crate) fn summary(&self) -> Option<String> {
        (!self.results.is_empty()).then(|| results_summary(&self.results, self.asked.len()))
    }
}

/// Starts `action` on `targets` as a job.
pub(crate) fn start(action: BulkAction, targets: Targets, count: usize) -> JobHandle<BulkRun> {
    let title = format!("Bulk change: {}", action.describe(count));
    jobs_indicator::show();
    jobs::start(
        JobKind::BulkChange,
        title,
        routes::USERS.to_owned(),
        (action, targets),
        run,
    )
}

fn run(
    (action, targets): (BulkAction, Targets),
    ctx: JobCtx<BulkRun>,
) -> LocalBoxFuture<'static, JobEnd> {
    Box::pin(work(action, targets, ctx))
}

async fn work(action: BulkAction, targets: Targets, ctx: JobCtx<BulkRun>) -> JobEnd {
    ctx.result.update(|r| r.action = Some(action.clone()));
    let targets = match targets {
        Targets::Picked(picked) => picked,
        Targets::Matching { email, total } => match matching_users(&ctx, email, total).await {
            Ok(found) => found,
            Err(ApiError::Cancelled) => return ended(&ctx, JobState::Cancelled),
            Err(error) => {
                return JobEnd {
                    state: JobState::Failed,
                    note: format!("The users could not be read: {}", error.user_message()),
                }
            }
        },
    };
    let asked = targets.len();
    ctx.result.update(|r| {
        r.finding = None;
        r.asked = targets.clone();
    });
    ctx.progress(0, Some(asked as u64), format!("0 of {asked} users changed"));
    let body = action.body();
    let (ctx_ref, body) = (&ctx, &body);
    futures::stream::iter(targets.into_iter().enumerate())
        .for_each_concurrent(MAX_IN_FLIGHT, |(order, (id, who))| async move {
            let Some(answer) = change_one(ctx_ref, &id, body).await else {
                return;
            };
            let outcome = match answer {
                Ok(user) => Ok(answer_summary(&user)),
                Err(error) => Err(failure_text(&error)),
            };
            let result = BulkResult {
                order,
                id,
                who,
                outcome,
            };
            ctx_ref
                .result
                .update(|r| insert_result(&mut r.results, result));
            let done = ctx_ref.result.with_untracked(|r| r.results.len());
            ctx_ref.progress(
                done as u64,
                Some(asked as u64),
                format!("{done} of {asked} users answered"),
            );
        })
        .await;
    let state = if ctx.cancelled() {
        JobState::Cancelled
    } else {
        JobState::Done
    };
    ended(&ctx, state)
}

fn ended(ctx: &JobCtx<BulkRun>, state: JobState) -> JobEnd {
    let note = ctx
        .result
        .with_untracked(BulkRun::summary)
        .unwrap_or_else(|| "Cancelled before any user was changed.".into());
    JobEnd { state, note }
}

/// Why one user's change failed, in words that fit a result line.
fn failure_text(error: &ApiError) -> String {
    match error {
        ApiError::NotFound { .. } => {
            "This user no longer exists on the platform (it may have been removed).".into()
        }
        other => other.user_message(),
    }
}

/// One user's PUT, sent again while the platform says "busy"; `None` when cancelled first.
async fn change_one(
    ctx: &JobCtx<BulkRun>,
    id: &str,
    body: &ReplaceUser,
) -> Option<Result<ScimUser, ApiError>> {
    loop {
        let started = ctx.pacer.turn().await?;
        let call = endpoint::REPLACE_SCIM_USER.call(&[id]);
        match ctx.api.put_json::<_, ScimUser>(call, body).await {
            Err(ApiError::Busy { retry_after }) => {
                if ctx.pacer.refused(started, retry_after).is_none() {
                    return Some(Err(ApiError::Busy { retry_after }));
                }
            }
            answer => {
                ctx.pacer.answered(started);
                return Some(answer.map(|r| r.body));
            }
        }
    }
}

/// Every user the list matches (`email`: the search, or everyone), read a page of
/// [`MAX_COUNT`] at a time under the job's pacing.
async fn matching_users(
    ctx: &JobCtx<BulkRun>,
    email: Option<String>,
    total: u64,
) -> Result<Vec<(String, Picked)>, ApiError> {
    let mut found = Vec::new();
    let mut start = 1;
    ctx.result.update(|r| r.finding = Some((0, total)));
    loop {
        let query = ListUsersQuery {
            start_index: Some(start),
            count: Some(MAX_COUNT),
            filter: email.as_deref().map(UserFilter::user_name_eq),
        };
        let call = endpoint::LIST_SCIM_USERS
            .call(&[])
            .query(&query.to_query_string());
        let page: ListResponse = ctx.api.get_paced(&ctx.pacer, call).await?;
        let got = page.resources.len() as u64;
        found.extend(page.resources.iter().map(|u| (u.id.clone(), Picked::of(u))));
        let read = found.len();
        ctx.result
            .update(|r| r.finding = Some((read, page.total_results)));
        ctx.progress(
            0,
            None,
            format!("Finding the users: {read} of {}", page.total_results),
        );
        start += got;
        if got == 0 || start > page.total_results {
            return Ok(found);
        }
        if ctx.cancelled() {
            return Err(ApiError::Cancelled);
        }
    }
}
