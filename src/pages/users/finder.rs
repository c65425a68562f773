//! Finding users: the search box and filters above the list, and the list they give, from the
//! [directory](super::directory) read once per session.

use gifting_api::scim::ScimUser;
use leptos::prelude::*;

use leptos_router::hooks::use_query_map;

use super::directory::{self, Directory};
use super::search::{self, UserSearch, KEYS, KEY_ROLE, KEY_STATUS, KEY_TEAM, KEY_TEXT, ROLES};
use crate::api::TeamGroups;
use crate::components::format::{count, date_time_ms};
use crate::components::query_href::{FilterAddress, FilterSelect};
use crate::components::{use_job, TextField, UseJob};
use crate::i18n::{msg, t, M};
use crate::jobs::{JobKind, JobState};

/// The search box and the role, team and status filters; each change rewrites the address.
#[component]
pub(crate) fn UserFilters(
    search: Memo<UserSearch>,
    groups: TeamGroups,
    /// Called before each change reaches the address.
    on_change: Callback<()>,
) -> impl IntoView {
    let address = FilterAddress::new("startIndex").before(on_change);
    // What was typed, as the address holds it (the search itself is lowercased).
    let query = use_query_map();
    let typed =
        Signal::derive(move || query.with(|q| q.get_str(KEY_TEXT).unwrap_or("").to_owned()));
    let roles = move || {
        let chosen = search.with(|s| s.role.clone());
        ROLES
            .into_iter()
            .map(|role| {
                let selected = chosen.as_ref() == Some(&role);
                view! { <option value=role.as_str().to_owned() prop:selected=selected translate="no">{role.to_string()}</option> }
            })
            .collect_view()
    };
    let teams = move || {
        let chosen = search.with(|s| s.team.clone());
        let mut names = groups.names().unwrap_or_default();
        if let Some(team) = chosen.clone().filter(|t| !names.contains(t)) {
            names.insert(0, team);
        }
        names
            .into_iter()
            .map(|name| {
                let selected = chosen.as_ref() == Some(&name);
                let label = name.clone();
                view! { <option value=name prop:selected=selected translate="no">{label}</option> }
            })
            .collect_view()
    };
    let status = move |value: &'static str, label: M| {
        let on = search.with(|s| s.active) == Some(value == "active");
        view! { <option value=value prop:selected=on>{t(label)}</option> }
    };
    view! {
        <form class="user-filters" role="search" aria-label=M::UsersFind on:submit=|ev| ev.prevent_default()>
            <TextField
                id="users-search"
                kind="search"
                label=M::UsersSearchLabel
                value=typed
                on_input=move |value| address.set(KEY_TEXT, value, true)
            />
            <FilterSelect id="users-role" label=M::UsersRole key=KEY_ROLE address>
                <option value="">{M::UsersAllRoles}</option>
                {roles}
            </FilterSelect>
            <FilterSelect id="users-team" label=M::UsersTeam key=KEY_TEAM address>
                <option value="">{M::UsersAllTeams}</option>
                {teams}
            </FilterSelect>
            <FilterSelect id="users-status" label=M::UsersStatus key=KEY_STATUS address>
                <option value="">{M::UsersAnyStatus}</option>
                {move || {
                    (
                        status("active", M::UsersStatusActive),
                        status("inactive", M::UsersStatusInactive),
                    )
                }}
            </FilterSelect>
            <Show when=move || search.with(UserSearch::is_active)>
                <a class="button" href=move || address.cleared(&KEYS)>{M::UsersClear}</a>
            </Show>
        </form>
    }
}

/// The directory's users that match the search, and whether the directory is read. Made on
/// the first search of the session, it starts the read.
#[derive(Clone, Copy)]
pub(crate) struct Found {
    pub(crate) users: Memo<Vec<ScimUser>>,
    pub(crate) read: Memo<bool>,
    job: UseJob<()>,
    total: Memo<usize>,
    as_of_ms: Memo<Option<i64>>,
}

impl Found {
    pub(crate) fn new(search: Memo<UserSearch>) -> Self {
        let known = directory::directory();
        let job = use_job::<()>(JobKind::Directory);
        if known.with_untracked(|d| d.as_of_ms.is_none()) && !untrack(|| job.running()) {
            let _ = job.start(directory::start);
        }
        let users = {
            let known = known.clone();
            Memo::new(move |_| known.with(|d| search.with(|s| search::matching(&d.users, s))))
        };
        let as_of_ms = {
            let known = known.clone();
            Memo::new(move |_| known.with(|d| d.as_of_ms))
        };
        Found {
            users,
            read: Memo::new(move |_| as_of_ms.get().is_some()),
            job,
            total: Memo::new(move |_| known.with(|d: &Directory| d.users.len())),
            as_of_ms,
        }
    }
}

/// "12 of 5,000 users match, as of Nov 28, 2026, 3:04 PM", with Refresh; or how far the read
/// is, or why it stopped.
#[component]
pub(crate) fn DirectoryStatus(found: Found) -> impl IntoView {
    let job = found.job;
    let line = move || {
        let status = job.status();
        match status.as_ref().map(|s| s.state) {
            Some(JobState::Running) => {
                let (done, of) = status.map_or((0, None), |s| (s.done, s.of));
                match of {
                    Some(of) => msg::users_directory_reading_of(&count(done), &count(of)),
                    None => msg::users_directory_reading(&count(done)),
                }
            }
            Some(JobState::Failed | JobState::Cancelled) if !found.read.get() => {
                status.map(|s| s.note).unwrap_or_default()
            }
            _ => msg::users_directory_matches(
                &count(found.users.with(Vec::len) as u64),
                found.total.get() as u64,
                &found.as_of_ms.get().map(date_time_ms).unwrap_or_default(),
            ),
        }
    };
    view! {
        <p class="directory-status" role="status" data-testid="directory-status">
            {line}
            " "
            <button
                type="button"
                class="button button--small"
                on:click=move |_| job.restart(directory::start)
                disabled=move || job.running()
            >
                {M::UsersRefresh}
            </button>
        </p>
    }
}
