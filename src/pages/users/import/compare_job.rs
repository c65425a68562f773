//! The comparison with the platform ([`super::compare`]) as a job ([`crate::jobs`]): a paced
//! read of many pages that the session's end stops like any other work. Not listed under
//! Jobs: the import screen shows it ("Comparing with the platform…"), and cancels it when the
//! admin leaves, since the file it compares goes with the screen.
//!
//! Job work: plain data in, the job's own client and result out; nothing of a screen.

use std::sync::Arc;

use futures::future::LocalBoxFuture;
use leptos::prelude::Set;

use super::compare::{compare, how_text, Known};
use crate::api::ApiError;
use crate::i18n::{t, M};
use crate::jobs::{self, JobCtx, JobEnd, JobHandle, JobKind, JobState};
use crate::routes;

/// What a comparison found: the platform's users for the file's emails, or why not.
pub(crate) type Compared = Option<Result<Arc<Known>, String>>;

/// What to compare: what is known already, the file's emails, and whether every user is
/// needed (to deactivate those absent from the file).
pub(crate) struct Asked {
    pub(crate) known: Known,
    pub(crate) emails: Vec<String>,
    pub(crate) need_all: bool,
}

pub(crate) fn start(asked: Asked) -> JobHandle<Compared> {
    jobs::start(
        JobKind::Comparison,
        t(M::ImportComparisonTitle).into(),
        routes::IMPORT_USERS.to_owned(),
        asked,
        run,
    )
}

fn run(asked: Asked, ctx: JobCtx<Compared>) -> LocalBoxFuture<'static, JobEnd> {
    Box::pin(async move {
        let found = compare(
            ctx.api,
            &ctx.lane,
            asked.known,
            &asked.emails,
            asked.need_all,
        )
        .await;
        let end = match &found {
            Ok(known) => JobEnd {
                state: JobState::Done,
                note: how_text(known),
            },
            Err(ApiError::Cancelled) => JobEnd {
                state: JobState::Cancelled,
                note: t(M::ImportComparisonCancelled).into(),
            },
            Err(error) => JobEnd {
                state: JobState::Failed,
                note: error.user_message(),
            },
        };
        let found = match found {
            Ok(known) => Some(Ok(Arc::new(known))),
            Err(ApiError::Cancelled) => None,
            Err(error) => Some(Err(error.user_message())),
        };
        ctx.result.set(found);
        end
    })
}
