//! The directory: every user of the organisation, read once per session by a background job
//! (a page of 100 at a time, paced like every read), so the users list can search any part of
//! a name or an email, filter by role, team and status, and sort across all of them at once.
//! The platform's SCIM list filters by exact email only.
//!
//! The console's own writes keep it fresh ([`keep`]); Refresh reads it again, for what others
//! changed. In memory only: the end of the session forgets it.

use futures::future::LocalBoxFuture;
use gifting_api::scim::ScimUser;
use leptos::prelude::{ArcRwSignal, Set, Update};

use super::guard::read_directory;
use crate::api::ApiError;
use crate::auth::session::on_session_end;
use crate::browser::now_ms;
use crate::components::format::count;
use crate::i18n::{msg, t, M};
use crate::jobs::{self, JobCtx, JobEnd, JobHandle, JobKind, JobState};
use crate::routes;

/// Every user, in the platform's order, once read whole.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Directory {
    pub(crate) users: Vec<ScimUser>,
    /// When the read that filled it began (ms since the epoch); `None` until one has ended.
    pub(crate) as_of_ms: Option<i64>,
}

thread_local! {
    static DIRECTORY: ArcRwSignal<Directory> = ArcRwSignal::new(Directory::default());
}

/// This session's directory.
pub(crate) fn directory() -> ArcRwSignal<Directory> {
    on_session_end(forget);
    DIRECTORY.with(Clone::clone)
}

fn forget() {
    DIRECTORY.with(|d| d.set(Directory::default()));
}

/// A user as the platform answered a write of the console's: replaces the directory's copy,
/// or joins it when new. Nothing before the directory is read (the read will have it).
pub(crate) fn keep(user: &ScimUser) {
    DIRECTORY.with(|d| {
        d.update(|d| {
            if d.as_of_ms.is_none() {
                return;
            }
            match d.users.iter_mut().find(|u| u.id == user.id) {
                Some(known) => *known = user.clone(),
                None => d.users.push(user.clone()),
            }
        })
    });
}

/// Reads every user into the directory.
pub(crate) fn start() -> JobHandle<()> {
    jobs::start(
        JobKind::Directory,
        t(M::UsersDirectoryJob).to_owned(),
        routes::USERS.to_owned(),
        (),
        run,
    )
}

fn run((): (), ctx: JobCtx<()>) -> LocalBoxFuture<'static, JobEnd> {
    Box::pin(work(ctx))
}

async fn work(ctx: JobCtx<()>) -> JobEnd {
    let began = now_ms();
    let progress = |read: usize, total: u64| {
        let read = read as u64;
        ctx.progress(
            read,
            Some(total),
            msg::users_directory_progress(&count(read), total),
        );
    };
    match read_directory(ctx.api, &ctx.lane, progress).await {
        Ok(users) => {
            let read = users.len() as u64;
            DIRECTORY.with(|d| {
                d.set(Directory {
                    users,
                    as_of_ms: Some(began),
                })
            });
            JobEnd {
                state: JobState::Done,
                note: msg::users_directory_done(&count(read)),
            }
        }
        Err(ApiError::Cancelled) => JobEnd {
            state: JobState::Cancelled,
            note: t(M::UsersDirectoryCancelled).to_owned(),
        },
        Err(error) => JobEnd {
            state: JobState::Failed,
            note: msg::users_directory_failed(&error.to_string()),
        },
    }
}

#[cfg(test)]
mod tests {
    use leptos::prelude::{Get, Set};
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::pages::users::test_users::ada as user;

    fn ada() -> ScimUser {
        user("admin", "Sales", true)
    }

    #[wasm_bindgen_test]
    fn the_consoles_writes_keep_a_read_directory_fresh_and_leave_an_unread_one_alone() {
        let directory = directory();
        directory.set(Directory::default());
        keep(&ada());
        assert_eq!(
            directory.get(),
            Directory::default(),
            "nothing is kept before a read"
        );

        directory.set(Directory {
            users: vec![ada()],
            as_of_ms: Some(1),
        });
        let renamed = ScimUser {
            division: "Finance".into(),
            ..ada()
        };
        keep(&renamed);
        let newcomer = ScimUser {
            id: "new".into(),
            ..ada()
        };
        keep(&newcomer);
        let ids_and_teams: Vec<(String, String)> = directory
            .get()
            .users
            .into_iter()
            .map(|u| (u.id, u.division))
            .collect();
        assert_eq!(
            ids_and_teams,
            [
                (ada().id, "Finance".to_owned()),
                ("new".to_owned(), ada().division)
            ]
        );
        directory.set(Directory::default());
    }
}
