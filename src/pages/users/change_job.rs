//! A change to one user that can take the admin role away or deactivate (from the user's
//! page) as a job ([`crate::jobs`]): the guard ([`super::guard`]) counts the admins right
//! before the PUT, refuses one that would leave none or that takes the role or the active
//! status from the signed-in admin; the job owns those reads and the write, so the session's end stops them and
//! another run that writes is not raced. Not listed under Jobs: the user's page shows it, and
//! cancels it when the admin leaves (a write already sent ends and lands).
//!
//! Job work: plain data in, the job's own client and result out; nothing of a screen.

use futures::future::LocalBoxFuture;
use gifting_api::paths::endpoint;
use gifting_api::scim::{ReplaceUser, ScimUser};
use leptos::prelude::{Update, WithUntracked};

use super::directory;
use super::guard::{self, GuardHost, Guarded, Loss, NotSent, Target, Writer};
use crate::api::{ApiClient, ApiError};
use crate::http::pacing::Lane;
use crate::i18n::{msg, t, M};
use crate::jobs::{self, JobCtx, JobEnd, JobHandle, JobKind, JobState, Question};
use crate::routes;

/// The change: to whom (SCIM id and name), what is written (only what the admin changed),
/// and what it does to the admins (it takes the admin role away, or deactivates).
pub(crate) struct Change {
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) body: ReplaceUser,
    pub(crate) what: Loss,
}

/// What the change came to: the platform's answer to the PUT, or why it was not sent.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Changed {
    pub(crate) body: ReplaceUser,
    pub(crate) answer: Option<Result<ScimUser, ApiError>>,
    pub(crate) refused: Option<String>,
}

pub(crate) fn start(change: Change) -> JobHandle<Changed> {
    jobs::start(
        JobKind::UserChange,
        msg::users_change_job_title(&change.name),
        format!("{}/{}", routes::USERS, change.id),
        change,
        run,
    )
}

fn run(change: Change, ctx: JobCtx<Changed>) -> LocalBoxFuture<'static, JobEnd> {
    Box::pin(async move {
        let Change { id, body, what, .. } = change;
        ctx.result.update(|c| c.body = body.clone());
        let target = Target::User {
            id: id.clone(),
            body: Box::new(body.clone()),
        };
        let plan = move |_: &guard::World| {
            vec![Guarded {
                target,
                write: body,
            }]
        };
        let writer = Put { ctx: &ctx, id };
        match guard::run(&OnePage(&ctx), true, what, plan, &writer).await {
            Err(end) => end,
            Ok(_) => ended(&ctx),
        }
    })
}

/// How the run ended, from what it recorded.
fn ended(ctx: &JobCtx<Changed>) -> JobEnd {
    let (answer, refused) = ctx
        .result
        .with_untracked(|c| (c.answer.clone(), c.refused.clone()));
    match (answer, refused) {
        (Some(Ok(_)), _) => JobEnd {
            state: JobState::Done,
            note: t(M::UsersSaved).to_owned(),
        },
        (Some(Err(error)), _) => JobEnd {
            state: JobState::Failed,
            note: error.user_message(),
        },
        (None, Some(refusal)) => JobEnd {
            state: JobState::Failed,
            note: refusal,
        },
        (None, None) => JobEnd {
            state: JobState::Cancelled,
            note: t(M::UsersChangeCancelled).to_owned(),
        },
    }
}

/// The user's page as the guard's host: the admin chose this one user and this change, so
/// taking the role from others is not asked.
struct OnePage<'a>(&'a JobCtx<Changed>);

impl GuardHost for OnePage<'_> {
    fn api(&self) -> ApiClient {
        self.0.api
    }
    fn lane(&self) -> &Lane {
        &self.0.lane
    }
    fn say(&self, note: String) {
        self.0.say(note);
    }
    async fn ask(&self, question: Question) -> Option<bool> {
        self.0.ask(question).await
    }
    fn asks_about_others(&self) -> bool {
        false
    }
}

/// The one PUT, as the guard hands it over: its answer recorded for the page.
struct Put<'a> {
    ctx: &'a JobCtx<Changed>,
    id: String,
}

impl Writer<ReplaceUser> for Put<'_> {
    async fn send(&self, body: ReplaceUser) -> bool {
        let answer = self
            .ctx
            .api
            .put_in_lane::<_, ScimUser>(
                &self.ctx.lane,
                endpoint::REPLACE_SCIM_USER.call(&[&self.id]),
                &body,
            )
            .await
            .into_result();
        if let Ok(user) = &answer {
            directory::keep(user);
        }
        let landed = answer.is_ok();
        self.ctx.result.update(|c| c.answer = Some(answer));
        landed
    }

    fn not_sent(&self, _: ReplaceUser, why: NotSent) {
        let refusal = match why {
            NotSent::Refused(refusal) => refusal,
            NotSent::Yours => guard::yours_refused(),
            NotSent::Cancelled => return,
        };
        self.ctx.result.update(|c| c.refused = Some(refusal));
    }
}
