//! The import screen's state and actions, apart from its view: the file read in slices, the
//! mapping, the comparison with the platform, the preview, and the run with its progress.

use std::sync::Arc;
use std::time::Duration;

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen_futures::JsFuture;

use super::columns::{recall, remember, slot, Mapping};
use super::compare::Known;
use super::compare_job::{self, Asked, Compared};
use super::fate::{create_body, update_body, Fate, FateKind};
use super::job::{self, ImportRun, Plan, Source};
use super::parse::{check_size, decode, FileError, Reader, Table, SLICE_ROWS};
use super::preview::{build, keys, Shared};
use super::run_job::{Outcome, Skip, Write};
use crate::api::{use_current_user, use_team_groups, TeamGroups};
use crate::browser::sleep;
use crate::components::{use_job, UseJob};
use crate::jobs::{JobKind, JobStatus};
use crate::pages::users::form::Field;

#[derive(Clone, Copy)]
pub(crate) struct Import {
    groups: TeamGroups,
    pub(crate) file_name: RwSignal<String>,
    /// While the file is read, the rows read so far ("Reading the file… 4,000 rows").
    pub(crate) reading: RwSignal<Option<u64>>,
    pub(crate) file_error: RwSignal<Option<FileError>>,
    pub(crate) table: RwSignal<Option<Arc<Table>>>,
    pub(crate) mapping: RwSignal<Mapping>,
    pub(crate) known: RwSignal<Option<Arc<Known>>>,
    pub(crate) comparing: RwSignal<bool>,
    /// The comparison's read, a job of its own.
    comparison: UseJob<Compared>,
    /// Asked to compare while a comparison ran (a new file, another email column, the
    /// deactivate option): it compares again, with what is current, when that one ends.
    compare_again: RwSignal<bool>,
    pub(crate) compare_error: RwSignal<Option<String>>,
    pub(crate) preview: Memo<Option<Shared>>,
    pub(crate) filter: RwSignal<Option<FateKind>>,
    pub(crate) page: RwSignal<usize>,
    pub(crate) update_too: RwSignal<bool>,
    pub(crate) deactivate: RwSignal<bool>,
    pub(crate) confirm_open: RwSignal<bool>,
    /// The latest run: a job the screen reads (running, or ended and not dismissed).
    job: UseJob<ImportRun>,
}

impl Import {
    pub(crate) fn new() -> Self {
        let table: RwSignal<Option<Arc<Table>>> = RwSignal::new(None);
        let mapping = RwSignal::new([None; 5]);
        let known: RwSignal<Option<Arc<Known>>> = RwSignal::new(None);
        let groups = use_team_groups();
        let me = use_current_user();
        let preview = Memo::new(move |_| {
            let (table, known) = (table.get()?, known.get()?);
            // Until the platform answered for every email (after a new email column is
            // chosen), a fate would be a guess: no preview.
            let mapping_now = mapping.get();
            if !keys(&table, &mapping_now).iter().all(|k| known.settled(k)) {
                return None;
            }
            let teams = groups.names()?;
            let me = me.get().and_then(Result::ok).map(|u| u.email);
            let built = build(&table, &mapping_now, &known, &teams, me.as_deref());
            Some(Shared(Arc::new(built)))
        });
        Import {
            groups,
            file_name: RwSignal::new(String::new()),
            reading: RwSignal::new(None),
            file_error: RwSignal::new(None),
            table,
            mapping,
            known,
            comparing: RwSignal::new(false),
            comparison: use_job(JobKind::Comparison),
            compare_again: RwSignal::new(false),
            compare_error: RwSignal::new(None),
            preview,
            filter: RwSignal::new(None),
            page: RwSignal::new(0),
            update_too: RwSignal::new(true),
            deactivate: RwSignal::new(false),
            confirm_open: RwSignal::new(false),
            job: use_job(JobKind::Import),
        }
        .shown_again()
        .comparing_watched()
    }

    /// A comparison that ends is taken in (or its error shown), then the one asked for
    /// meanwhile starts; one still running when the admin leaves is cancelled, since the
    /// file it compares goes with the screen.
    fn comparing_watched(self) -> Self {
        // A comparison left by an earlier visit is not this file's.
        self.comparison.owned_by_screen(move || self.compared());
        self
    }

    fn compared(self) {
        match self.comparison.with_untracked(Clone::clone).flatten() {
            Some(Ok(known)) => self.known.set(Some(known)),
            Some(Err(message)) => self.compare_error.set(Some(message)),
            None => {}
        }
        self.comparison.dismiss();
        self.comparing.set(false);
        if self.compare_again.get_untracked() {
            self.compare_again.set(false);
            self.compare();
        }
    }

    /// The screen shown while (or after) a run goes on: the run's file, mapping and
    /// comparison are shown again, with its results as they stand.
    fn shown_again(self) -> Self {
        let Some(source) = self.job.with_untracked(|r| r.source.clone()) else {
            return self;
        };
        self.file_name.set(source.file_name);
        self.table.set(source.table);
        self.mapping.set(source.mapping);
        self.known.set(source.known);
        self.update_too.set(source.update_too);
        self.deactivate.set(source.deactivate);
        self
    }

    /// Reads the run shown, tracked.
    pub(crate) fn with_run<T>(self, f: impl FnOnce(&ImportRun) -> T) -> Option<T> {
        self.job.with(f)
    }

    /// The run shown's status in the jobs list, tracked.
    pub(crate) fn status(self) -> Option<JobStatus> {
        self.job.status()
    }

    pub(crate) fn running(self) -> bool {
        self.job.running()
    }

    /// Writes ended, and to write once the run has planned them, in the run shown.
    pub(crate) fn progress(self) -> (u64, Option<u64>) {
        self.status().map_or((0, None), |s| (s.done, s.of))
    }

    /// Row `index`'s outcome in the run shown.
    pub(crate) fn outcome(self, index: usize) -> Option<Outcome> {
        self.with_run(|r| r.outcomes.get(index).cloned().flatten())
            .flatten()
    }

    /// Forgets the ended run's results (a new file, another mapping, a new comparison).
    fn dismiss(self) {
        self.job.dismiss();
    }

    pub(crate) fn groups_failed(self) -> bool {
        self.groups.failed()
    }

    /// A file picked or dropped: checked, read in slices, mapped, compared.
    pub(crate) fn open(self, file: web_sys::File) {
        if self.running() {
            return;
        }
        self.clear();
        self.file_name.set(file.name());
        if let Err(message) = check_size(file.size() as u64) {
            self.file_error.set(Some(message));
            return;
        }
        self.reading.set(Some(0));
        spawn_local(async move {
            let table = read_table(file, self.reading).await;
            self.reading.try_set(None);
            match table {
                Err(message) => {
                    self.file_error.try_set(Some(message));
                }
                Ok(table) => {
                    let mapping = recall(&table.header);
                    self.mapping.try_set(mapping);
                    self.table.try_set(Some(Arc::new(table)));
                    self.compare();
                }
            }
        });
    }

    fn clear(self) {
        self.file_error.set(None);
        self.compare_error.set(None);
        self.table.set(None);
        self.known.set(None);
        self.filter.set(None);
        self.page.set(0);
        self.dismiss();
    }

    pub(crate) fn email_mapped(self) -> bool {
        self.mapping.with(|m| m[slot(Field::Email)].is_some())
    }

    /// The admin chose another column for `field`. Refused while a run writes the rows as
    /// they were mapped when it started (the screen disables the selects then).
    pub(crate) fn map(self, field: Field, column: Option<usize>) {
        if self.running() {
            return;
        }
        self.mapping.update(|m| {
            if column.is_some() {
                m.iter_mut()
                    .filter(|c| **c == column)
                    .for_each(|c| *c = None);
            }
            m[slot(field)] = column;
        });
        if let Some(table) = self.table.get_untracked() {
            remember(&table.header, &self.mapping.get_untracked());
        }
        self.dismiss();
        self.compare();
    }

    /// Asks the platform about the file's emails it does not know yet.
    pub(crate) fn compare(self) {
        let Some(table) = self.table.get_untracked() else {
            return;
        };
        if !self.email_mapped() {
            return;
        }
        if self.comparing.get_untracked() {
            self.compare_again.set(true);
            return;
        }
        let wanted = keys(&table, &self.mapping.get_untracked());
        let known = self
            .known
            .get_untracked()
            .map(|k| (*k).clone())
            .unwrap_or_default();
        let need_all = self.deactivate.get_untracked();
        self.comparing.set(true);
        self.compare_error.set(None);
        let asked = Asked {
            known,
            emails: wanted,
            need_all,
        };
        if let Err(reason) = self.comparison.start(|| compare_job::start(asked)) {
            self.comparing.set(false);
            self.compare_error.set(Some(reason));
        }
    }

    /// The comparison again from nothing (after a run: the platform changed).
    pub(crate) fn compare_afresh(self) {
        self.known.set(None);
        self.dismiss();
        self.compare();
    }

    pub(crate) fn absent_count(self) -> usize {
        self.preview.with(|p| {
            p.as_ref()
                .and_then(|p| p.0.absent.as_ref().map(Vec::len))
                .unwrap_or(0)
        })
    }

    /// Whether the users absent from the file are known (every user was read).
    pub(crate) fn absent_count_known(self) -> bool {
        self.preview
            .with(|p| p.as_ref().is_some_and(|p| p.0.absent.is_some()))
    }

    /// "Run": a deactivation asks first.
    pub(crate) fn submit(self) {
        if self.deactivate.get_untracked() && self.absent_count() > 0 {
            self.confirm_open.set(true);
        } else {
            self.start();
        }
    }

    /// The writes the preview calls for, and the outcome of every row that needs none.
    fn plan(
        self,
        preview: &super::preview::Preview,
    ) -> (Vec<(usize, Write)>, Vec<Option<Outcome>>) {
        let update_too = self.update_too.get_untracked();
        let mut jobs = Vec::new();
        let mut outcomes = vec![None; preview.fates.len()];
        for (i, (fate, wanted)) in preview.fates.iter().zip(&preview.wanted).enumerate() {
            match fate {
                Fate::Create => jobs.push((
                    i,
                    Write::Create {
                        body: create_body(wanted),
                        wanted: wanted.clone(),
                    },
                )),
                Fate::Update(id, _) if update_too => {
                    let user = self.known.with_untracked(|k| {
                        k.as_ref().and_then(|k| k.users.get(&wanted.key()).cloned())
                    });
                    if let Some(user) = user {
                        let body = update_body(wanted, &user);
                        jobs.push((
                            i,
                            Write::Update {
                                id: id.clone(),
                                wanted: wanted.clone(),
                                body,
                            },
                        ));
                    }
                }
                Fate::Update(..) => outcomes[i] = Some(Outcome::Skipped(Skip::CreateOnly)),
                Fate::Unchanged => outcomes[i] = Some(Outcome::Unchanged),
                Fate::Error(problem) => {
                    outcomes[i] = Some(Outcome::Skipped(Skip::Refused(problem.clone())))
                }
            }
        }
        (jobs, outcomes)
    }

    pub(crate) fn start(self) {
        let Some(Shared(preview)) = self.preview.get_untracked() else {
            return;
        };
        if self.running() || self.comparing.get_untracked() {
            return;
        }
        // Deactivating the absent needs every user read; never run without them silently.
        if self.deactivate.get_untracked() && preview.absent.is_none() {
            self.compare();
            return;
        }
        let (mut writes, outcomes) = self.plan(&preview);
        let rows = preview.fates.len();
        let absent = match (self.deactivate.get_untracked(), &preview.absent) {
            (true, Some(absent)) => absent.clone(),
            _ => Vec::new(),
        };
        for (k, (id, _)) in absent.iter().enumerate() {
            writes.push((rows + k, Write::Deactivate { id: id.clone() }));
        }
        let source = Source {
            file_name: self.file_name.get_untracked(),
            table: self.table.get_untracked(),
            mapping: self.mapping.get_untracked(),
            known: self.known.get_untracked(),
            update_too: self.update_too.get_untracked(),
            deactivate: self.deactivate.get_untracked(),
        };
        let plan = Plan {
            writes,
            outcomes,
            absent,
        };
        if let Err(reason) = self.job.start(|| job::start(source, plan)) {
            self.compare_error.set(Some(reason));
        }
    }

    /// Stops starting writes; those in flight end and report.
    pub(crate) fn cancel(self) {
        self.job.cancel();
    }
}

/// The file's bytes, decoded and read a slice of rows at a time, yielding to the browser
/// between slices so the page keeps answering.
async fn read_table(
    file: web_sys::File,
    reading: RwSignal<Option<u64>>,
) -> Result<Table, FileError> {
    let buffer = JsFuture::from(file.array_buffer())
        .await
        .map_err(|_| FileError::Unreadable)?;
    let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
    let text = decode(&bytes)?;
    let mut reader = Reader::new(text);
    let mut read = 0;
    while reader.read_slice(SLICE_ROWS)? {
        read += SLICE_ROWS;
        reading.try_set(Some(read as u64));
        sleep(Duration::from_millis(0)).await;
    }
    Ok(reader.into_table())
}
