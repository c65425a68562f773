//! An import's writes as a job ([`crate::jobs`]): they go on when the admin leaves the screen,
//! show in the header's jobs indicator, and keep their results (and what the file and its
//! comparison were, so the screen shown again lists them and writes the results file) until
//! dismissed.
//!
//! Job work: plain data in, the job's own client and result out; nothing of a screen.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use futures::future::LocalBoxFuture;
use gifting_api::scim::{ReplaceUser, ScimUser};
use gifting_api::Role;
use leptos::prelude::{Update, WithUntracked};

use super::columns::Mapping;
use super::compare::Known;
use super::parse::Table;
use super::run_job::{write_one, Failure, Outcome, Skip, Write};
use crate::components::format::count;
use crate::components::jobs_indicator;
use crate::i18n::{msg, t, M};
use crate::jobs::{self, JobCtx, JobEnd, JobHandle, JobKind, JobState};
use crate::pages::users::bulk::{answer_summary, Picked};
use crate::pages::users::guard::{self, Guarded, Loss, NotSent, Reversal, Target, Writer};
use crate::routes;

/// What the import screen showed when the run started: it shows it again from here.
#[derive(Clone, Debug, Default)]
pub(crate) struct Source {
    pub(crate) file_name: String,
    pub(crate) table: Option<Arc<Table>>,
    pub(crate) mapping: Mapping,
    pub(crate) known: Option<Arc<Known>>,
    pub(crate) update_too: bool,
    pub(crate) deactivate: bool,
}

/// An import run as its screen shows it.
#[derive(Clone, Debug, Default)]
pub(crate) struct ImportRun {
    pub(crate) source: Source,
    /// Per row of the file, once decided.
    pub(crate) outcomes: Vec<Option<Outcome>>,
    /// Absent users the run deactivated or tried to: (email, outcome).
    pub(crate) absent_outcomes: Vec<(String, Outcome)>,
    /// What "Undo this import" puts back: one per write that landed.
    pub(crate) reversals: Vec<Reversal>,
    /// The user before and after each write that landed, by row (then absent user, in the
    /// order of `absent_outcomes`), for the results file.
    pub(crate) before_after: HashMap<usize, (String, String)>,
}

/// The run's plan: the writes, and the outcome of every row that needs none.
pub(crate) struct Plan {
    pub(crate) writes: Vec<(usize, Write)>,
    pub(crate) outcomes: Vec<Option<Outcome>>,
    pub(crate) absent: Vec<(String, String)>,
}

/// Starts the writes of `plan` as a job.
pub(crate) fn start(source: Source, plan: Plan) -> JobHandle<ImportRun> {
    let title = msg::import_job_title(&source.file_name, plan.writes.len() as u64);
    jobs_indicator::show();
    jobs::start(
        JobKind::Import,
        title,
        routes::IMPORT_USERS.to_owned(),
        (source, plan),
        run,
    )
}

fn run((source, plan): (Source, Plan), ctx: JobCtx<ImportRun>) -> LocalBoxFuture<'static, JobEnd> {
    Box::pin(work(source, plan, ctx))
}

async fn work(source: Source, plan: Plan, ctx: JobCtx<ImportRun>) -> JobEnd {
    let Plan {
        writes,
        outcomes,
        absent,
    } = plan;
    let rows = outcomes.len();
    let to_write = writes.len();
    ctx.result.update(|r| {
        *r = ImportRun {
            source,
            outcomes,
            ..ImportRun::default()
        }
    });
    let writer = ImportWriter {
        ctx: &ctx,
        rows,
        absent: &absent,
        kept: RefCell::new(HashMap::new()),
    };
    let lock = writes.iter().any(|(_, w)| can_remove(w));
    let plan = |world: &guard::World| {
        let by_id: HashMap<&str, &ScimUser> =
            world.directory.iter().map(|u| (u.id.as_str(), u)).collect();
        *writer.kept.borrow_mut() = writes
            .iter()
            .map(|(i, w)| {
                let undo = reversal(w, &by_id, &absent, rows, *i);
                (*i, (undo, before_after(w, &by_id)))
            })
            .collect();
        ctx.progress(
            0,
            Some(to_write as u64),
            msg::import_progress(&count(0), to_write as u64),
        );
        writes
            .into_iter()
            .map(|(i, w)| Guarded {
                target: target(&w),
                write: (i, w),
            })
            .collect()
    };
    let refused = match guard::run(&ctx, lock, LOSS, plan, &writer).await {
        Ok(refused) => refused,
        Err(end) => return end,
    };
    let note = ctx.result.with_untracked(summary);
    match (refused, ctx.cancelled()) {
        (Some(refusal), _) => JobEnd {
            state: JobState::Failed,
            note: msg::import_refused_note(&refusal, &note),
        },
        (None, true) => JobEnd {
            state: JobState::Cancelled,
            note,
        },
        (None, false) => JobEnd {
            state: JobState::Done,
            note,
        },
    }
}

/// What an admin losing admin rights does in an import, for the guard's words.
const LOSS: Loss = Loss::Either;

/// What the guard counts of `write`.
fn target(write: &Write) -> Target {
    match write {
        Write::Create { .. } => Target::Create {
            admin: creates_admin(write),
        },
        Write::Update { id, body, .. } => Target::User {
            id: id.clone(),
            body: Box::new(body.clone()),
        },
        Write::Deactivate { id } => Target::User {
            id: id.clone(),
            body: Box::new(ReplaceUser {
                active: Some(false),
                ..ReplaceUser::default()
            }),
        },
    }
}

fn can_remove(write: &Write) -> bool {
    match target(write) {
        Target::User { body, .. } => guard::can_remove(&body),
        _ => false,
    }
}

/// By write index: what undoes it, and the user before and after, in words.
type Kept = HashMap<usize, (Option<Reversal>, (String, String))>;

/// The import's writes, as the guard hands them over.
struct ImportWriter<'a> {
    ctx: &'a JobCtx<ImportRun>,
    rows: usize,
    absent: &'a [(String, String)],
    /// By write: what undoes it and the user before and after, kept once it lands.
    kept: RefCell<Kept>,
}

impl ImportWriter<'_> {
    fn report(&self, index: usize, outcome: Outcome) {
        let kept = self.kept.borrow();
        record(self.ctx, self.rows, self.absent, &kept, index, outcome);
    }
}

impl Writer<(usize, Write)> for ImportWriter<'_> {
    async fn send(&self, (index, write): (usize, Write)) -> bool {
        let (outcome, stop_all) = write_one(self.ctx.api, &self.ctx.lane, &write).await;
        if stop_all {
            self.ctx.lane.stop();
        }
        let landed = matches!(
            outcome,
            Outcome::Created { .. } | Outcome::Updated | Outcome::Deactivated
        );
        self.report(index, outcome);
        landed
    }

    fn not_sent(&self, (index, _): (usize, Write), why: NotSent) {
        let outcome = match why {
            NotSent::Cancelled => Outcome::NotRun,
            NotSent::Yours => Outcome::Skipped(Skip::Yours),
            NotSent::Refused(refusal) => Outcome::Failed(Failure::Said(refusal)),
        };
        self.report(index, outcome);
    }
}

/// One write ended: its outcome in the run, and what undoes it and the user before and after
/// when it landed.
fn record(
    ctx: &JobCtx<ImportRun>,
    rows: usize,
    absent: &[(String, String)],
    kept: &Kept,
    index: usize,
    outcome: Outcome,
) {
    let landed = matches!(
        outcome,
        Outcome::Created { .. } | Outcome::Updated | Outcome::Deactivated
    );
    ctx.result.update(|r| {
        // Rows by index; absent users in the order they ended, after the rows.
        let at = if index < rows {
            index
        } else {
            rows + r.absent_outcomes.len()
        };
        if let (true, Some((undo, states))) = (landed, kept.get(&index)) {
            r.reversals.extend(undo.clone());
            r.before_after.insert(at, states.clone());
        }
        if index < rows {
            if let Some(slot) = r.outcomes.get_mut(index) {
                *slot = Some(outcome);
            }
        } else if let Some((_, email)) = absent.get(index - rows) {
            r.absent_outcomes.push((email.clone(), outcome));
        }
    });
    let (done, to_write) = ctx.steps();
    let done = done + 1;
    ctx.progress(
        done,
        to_write,
        msg::import_progress(&count(done), to_write.unwrap_or(done)),
    );
}

/// The user before and after `write`, in a few words ("sender · Sales · active").
fn before_after(write: &Write, by_id: &HashMap<&str, &ScimUser>) -> (String, String) {
    let user = |id: &String| by_id.get(id.as_str()).copied();
    match write {
        Write::Create { body, .. } => {
            let role = body.user_type.to_string();
            let after = if body.division.is_empty() {
                msg::import_state_created_no_team(&role)
            } else {
                msg::import_state_created(&role, &body.division)
            };
            (String::new(), after)
        }
        Write::Update { id, body, .. } => user(id).map_or_else(Default::default, |u| {
            (answer_summary(u), answer_summary(&guard::applied(u, body)))
        }),
        Write::Deactivate { id } => user(id).map_or_else(Default::default, |u| {
            let off = ReplaceUser {
                active: Some(false),
                ..ReplaceUser::default()
            };
            (answer_summary(u), answer_summary(&guard::applied(u, &off)))
        }),
    }
}

fn creates_admin(write: &Write) -> bool {
    matches!(write, Write::Create { body, .. } if body.user_type == Role::Admin && body.active != Some(false))
}

/// How to put back write `index` if it lands: a created user is deactivated, an update
/// restores what it changed, a deactivation activates again.
fn reversal(
    write: &Write,
    by_id: &HashMap<&str, &ScimUser>,
    absent: &[(String, String)],
    rows: usize,
    index: usize,
) -> Option<Reversal> {
    match write {
        Write::Create { wanted, body } => Some(Reversal {
            id: String::new(),
            who: Picked {
                name: format!("{} {}", wanted.given_name, wanted.family_name)
                    .trim()
                    .to_owned(),
                email: wanted.email.clone(),
            },
            wrote: ReplaceUser {
                active: Some(true),
                user_type: Some(body.user_type.clone()),
                division: Some(body.division.clone()),
                ..ReplaceUser::default()
            },
            restore: ReplaceUser {
                active: Some(false),
                ..ReplaceUser::default()
            },
        }),
        Write::Update { id, body, .. } => {
            let before = by_id.get(id.as_str())?;
            Some(Reversal {
                id: id.clone(),
                who: Picked::of(before),
                wrote: body.clone(),
                restore: guard::restore(before, body),
            })
        }
        Write::Deactivate { id } => {
            let before = by_id.get(id.as_str())?;
            let wrote = ReplaceUser {
                active: Some(false),
                ..ReplaceUser::default()
            };
            let _ = absent.get(index.checked_sub(rows)?)?;
            Some(Reversal {
                id: id.clone(),
                who: Picked::of(before),
                restore: guard::restore(before, &wrote),
                wrote,
            })
        }
    }
}

/// "38 created, 2 failed, 1 not run.", counting every row and absent user, each kind in the
/// order it first ended.
fn summary(run: &ImportRun) -> String {
    let mut counts: Vec<(&'static str, u64)> = Vec::new();
    let all = run
        .outcomes
        .iter()
        .flatten()
        .chain(run.absent_outcomes.iter().map(|(_, o)| o));
    for outcome in all {
        let word = outcome.word();
        match counts.iter_mut().find(|(w, _)| *w == word) {
            Some((_, n)) => *n += 1,
            None => counts.push((word, 1)),
        }
    }
    let parts: Vec<String> = counts.iter().map(|(w, n)| tally(w, *n)).collect();
    if parts.is_empty() {
        t(M::ImportNothingToWrite).into()
    } else {
        msg::import_tallies(&parts.join(", "))
    }
}

/// "38 created": `n` rows whose outcome's word is `word`, in the chosen language.
fn tally(word: &str, n: u64) -> String {
    match word {
        "created" => msg::import_tally_created(n),
        "updated" => msg::import_tally_updated(n),
        "unchanged" => msg::import_tally_unchanged(n),
        "deactivated" => msg::import_tally_deactivated(n),
        "skipped" => msg::import_tally_skipped(n),
        "failed" => msg::import_tally_failed(n),
        _ => msg::import_tally_not_run(n),
    }
}

#[cfg(test)]
mod tests {
    use std::cell::{Cell, RefCell};
    use std::rc::Rc;

    use leptos::prelude::{Owner, WithUntracked};
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::api::testing::{as_is, scim_user, Scim, Twist};
    use crate::http::transport::take_fake_platform;
    use crate::jobs::testing::{ended, scim_app};
    use crate::pages::users::bulk_job::{self, Change};
    use crate::pages::users::import::fate::{create_body, update_body, Wanted};

    const ME: &str = "me@example.com";

    /// The signed-in admin, Ada (u7) and Bob (u8), senders in Sales.
    fn org() -> Vec<ScimUser> {
        vec![
            scim_user("me", ME, "admin", "Sales", true),
            scim_user("u7", "ada@example.com", "sender", "Sales", true),
            scim_user("u8", "bob@example.com", "sender", "Sales", true),
        ]
    }

    /// A row of the file (names as [`scim_user`] gives them: the email's name, "Test").
    fn wanted(email: &str, role: &str) -> Wanted {
        Wanted {
            email: email.into(),
            given_name: email.split('@').next().unwrap_or_default().into(),
            family_name: "Test".into(),
            role: role.into(),
            team: "Sales".into(),
        }
    }

    fn create(email: &str) -> Write {
        let wanted = wanted(email, "sender");
        let body = create_body(&wanted);
        Write::Create { wanted, body }
    }

    fn update(platform: &Rc<RefCell<Scim>>, id: &str, role: &str) -> Write {
        let user = platform.borrow().user(id).cloned().expect("a user");
        let wanted = wanted(&user.user_name, role);
        let body = update_body(&wanted, &user);
        Write::Update {
            id: id.into(),
            wanted,
            body,
        }
    }

    /// A fresh platform of `users` and an app to run jobs in.
    fn fresh(users: Vec<ScimUser>, twist: Twist) -> (Rc<RefCell<Scim>>, Owner) {
        scim_app(ME, users, twist)
    }

    /// Starts an import of `rows` rows: `writes` by row (absent users after the rows).
    fn import(
        app: &Owner,
        writes: Vec<(usize, Write)>,
        outcomes: Vec<Option<Outcome>>,
        absent: Vec<(String, String)>,
    ) -> JobHandle<ImportRun> {
        let source = Source {
            file_name: "staff.csv".into(),
            ..Source::default()
        };
        let plan = Plan {
            writes,
            outcomes,
            absent,
        };
        app.with(|| start(source, plan))
    }

    /// How many times `method` reached `path` with a body naming `email` (or any body).
    fn sent(platform: &Rc<RefCell<Scim>>, method: &str, path: &str, email: Option<&str>) -> usize {
        let platform = platform.borrow();
        let names = |a: &crate::api::testing::Asked| {
            email.is_none_or(|e| {
                a.body
                    .as_ref()
                    .and_then(|b| b.get("userName"))
                    .and_then(|n| n.as_str())
                    == Some(e)
            })
        };
        platform
            .asked
            .iter()
            .filter(|a| a.is(method, path) && names(a))
            .count()
    }

    #[wasm_bindgen_test]
    async fn an_import_creates_updates_deactivates_and_its_undo_puts_it_all_back() {
        let _turn = take_fake_platform().await;
        let (platform, app) = fresh(org(), as_is());
        let writes = vec![
            (0, create("carl@example.com")),
            (1, update(&platform, "u7", "manager")),
            // Bob is absent from the file: deactivated.
            (3, Write::Deactivate { id: "u8".into() }),
        ];
        let outcomes = vec![None, None, Some(Outcome::Unchanged)];
        let absent = vec![("u8".to_owned(), "bob@example.com".to_owned())];
        let job = import(&app, writes.clone(), outcomes, absent);
        let status = ended(&job).await;
        assert_eq!(
            (status.state, status.note.as_str()),
            (
                JobState::Done,
                "1 created, 1 updated, 1 unchanged, 1 deactivated."
            )
        );
        // Each write sent once, with only what the file sets.
        let Write::Create { body: created, .. } = &writes[0].1 else {
            unreachable!()
        };
        let Write::Update { body: updated, .. } = &writes[1].1 else {
            unreachable!()
        };
        let mut bodies: Vec<(String, serde_json::Value)> = platform
            .borrow()
            .writes()
            .into_iter()
            .map(|a| {
                (
                    format!("{} {}", a.method, a.path),
                    a.body.unwrap_or_default(),
                )
            })
            .collect();
        bodies.sort_by(|a, b| a.0.cmp(&b.0));
        let (created, updated) = (
            serde_json::to_value(created).expect("JSON"),
            serde_json::to_value(updated).expect("JSON"),
        );
        assert_eq!(
            bodies,
            vec![
                ("POST /api/scim/v2/Users".to_owned(), created),
                ("PUT /api/scim/v2/Users/u7".to_owned(), updated),
                (
                    "PUT /api/scim/v2/Users/u8".to_owned(),
                    serde_json::json!({"active": false})
                ),
            ]
        );
        let state = |email: &str| {
            let platform = platform.borrow();
            let user = platform.by_email(email).expect("a user");
            (user.user_type.to_string(), user.active)
        };
        assert_eq!(state("carl@example.com"), ("sender".to_owned(), true));
        assert_eq!(state("ada@example.com"), ("manager".to_owned(), true));
        assert_eq!(state("bob@example.com"), ("sender".to_owned(), false));

        // Undo: the created user deactivated (found by email), the update and the
        // deactivation put back.
        let reversals = job.result.with_untracked(|r| r.reversals.clone());
        assert_eq!(reversals.len(), 3);
        let undo = app.with(|| bulk_job::start(Change::Undo(reversals), 3));
        let status = ended(&undo).await;
        assert_eq!(
            (status.state, status.note.as_str()),
            (JobState::Done, "Changed 3 of 3 users.")
        );
        assert_eq!(state("carl@example.com"), ("sender".to_owned(), false));
        assert_eq!(state("ada@example.com"), ("sender".to_owned(), true));
        assert_eq!(state("bob@example.com"), ("sender".to_owned(), true));
        assert_eq!(sent(&platform, "POST", "/api/scim/v2/Users", None), 1);
    }

    #[wasm_bindgen_test]
    async fn a_lost_create_is_checked_and_sent_again_only_if_it_did_not_land_a_lost_put_sent_again()
    {
        let _turn = take_fake_platform().await;
        // The first answer to each of these writes is lost (502): Carl's create and Ada's
        // update had landed, Dora's create had not.
        let mut seen: Vec<String> = Vec::new();
        let twist: Twist = Box::new(move |asked, platform| {
            if !asked.writes() {
                return None;
            }
            let named = asked.body.as_ref().and_then(|b| b.get("userName"));
            let who = named
                .and_then(|n| n.as_str())
                .map_or_else(|| asked.path.clone(), str::to_owned);
            if seen.contains(&who) {
                return None;
            }
            seen.push(who.clone());
            match who.as_str() {
                "carl@example.com" | "/api/scim/v2/Users/u7" => {
                    let _ = platform.answer(asked);
                    Some((502, String::new()))
                }
                "dora@example.com" => Some((502, String::new())),
                _ => None,
            }
        });
        let (platform, app) = fresh(org(), twist);
        let writes = vec![
            (0, create("carl@example.com")),
            (1, create("dora@example.com")),
            (2, update(&platform, "u7", "manager")),
        ];
        let job = import(&app, writes, vec![None; 3], Vec::new());
        let status = ended(&job).await;
        assert_eq!(
            (status.state, status.note.as_str()),
            (JobState::Done, "2 created, 1 updated.")
        );
        assert_eq!(
            job.result.with_untracked(|r| r.outcomes.clone()),
            vec![
                // The first answer was lost; the platform confirmed it.
                Some(Outcome::Created { confirmed: true }),
                Some(Outcome::Created { confirmed: false }),
                // A lost PUT is sent again as it was: it sets only what the row changes.
                Some(Outcome::Updated),
            ]
        );
        let users = "/api/scim/v2/Users";
        assert_eq!(sent(&platform, "POST", users, Some("carl@example.com")), 1);
        assert_eq!(sent(&platform, "POST", users, Some("dora@example.com")), 2);
        assert_eq!(sent(&platform, "PUT", "/api/scim/v2/Users/u7", None), 2);
        let platform = platform.borrow();
        let dora = platform
            .users
            .iter()
            .filter(|u| u.user_name == "dora@example.com");
        assert_eq!(dora.count(), 1);
        assert_eq!(
            platform
                .by_email("ada@example.com")
                .map(|u| u.user_type.to_string()),
            Some("manager".to_owned())
        );
    }

    #[wasm_bindgen_test]
    async fn a_cancelled_import_leaves_the_rest_not_run() {
        let _turn = take_fake_platform().await;
        // The admin cancels while the first create is on its way.
        let job_id = Rc::new(Cell::new(0));
        let cancel_at = job_id.clone();
        let twist: Twist = Box::new(move |asked, _| {
            if asked.method == "POST" {
                jobs::cancel(cancel_at.get());
            }
            None
        });
        let (platform, app) = fresh(org(), twist);
        let writes = (0..6)
            .map(|i| (i, create(&format!("new{i}@example.com"))))
            .collect();
        let job = import(&app, writes, vec![None; 6], Vec::new());
        job_id.set(job.id);
        let status = ended(&job).await;
        assert_eq!(status.state, JobState::Cancelled);
        let posts = sent(&platform, "POST", "/api/scim/v2/Users", None);
        assert!((1..6).contains(&posts), "{posts} of 6 sent");
        assert_eq!(
            platform.borrow().users.len(),
            3 + posts,
            "each one sent landed"
        );
        assert_eq!(
            status.note,
            format!("{posts} created, {} not run.", 6 - posts)
        );
    }

    #[wasm_bindgen_test]
    async fn an_import_that_would_deactivate_the_signed_in_admin_skips_that_row_in_words() {
        let _turn = take_fake_platform().await;
        let (platform, app) = fresh(org(), as_is());
        // The signed-in admin, the only one, is absent from the file: deactivating them is
        // another admin's to do, and the rest of the import goes on.
        let writes = vec![
            (0, create("carl@example.com")),
            (1, Write::Deactivate { id: "me".into() }),
        ];
        let absent = vec![("me".to_owned(), ME.to_owned())];
        let job = import(&app, writes, vec![None], absent);
        let status = ended(&job).await;
        assert_eq!(
            (status.state, status.note.as_str()),
            (JobState::Done, "1 created, 1 skipped.")
        );
        assert_eq!(platform.borrow().writes().len(), 1, "only the create");
        assert!(platform.borrow().user("me").expect("me").active);
        let skipped = job.result.with_untracked(|r| r.absent_outcomes.clone());
        assert_eq!(
            skipped,
            vec![(ME.to_owned(), Outcome::Skipped(Skip::Yours))]
        );
    }
}
