//! Every team group, read once per sign-in and shared by every screen that needs them: the
//! user forms offer only real groups (SCIM's `division` must name one exactly), the users
//! list, the directory and a team's page resolve names from them.

use gifting_api::paths::endpoint;
use gifting_api::rest::{GroupPage, PageQuery, TeamGroup, MAX_PER_PAGE};
use leptos::prelude::*;

use super::{ApiClient, ApiError};
use crate::auth::use_auth;
use crate::browser::now_ms;

/// Stops a platform that keeps answering full pages from looping forever.
const MAX_PAGES: u32 = 1_000;

/// A screen that opens after this long reads the groups again (showing the old list until
/// the new one arrives), so a group added on the platform meanwhile appears.
const FRESH_FOR_MS: i64 = 60_000;

/// The shared list of team groups. Get it with [`use_team_groups`].
#[derive(Clone, Copy)]
pub(crate) struct TeamGroups {
    groups: LocalResource<Result<Vec<TeamGroup>, ApiError>>,
    /// No screen has asked yet: nothing is read before one does.
    wanted: RwSignal<bool>,
    /// When the list on hand was read (ms since the epoch).
    read_at: StoredValue<Option<i64>>,
}

/// Makes the shared list available to every screen; `api` should live as long as the app.
/// Nothing is read until a screen asks, and it is read again after each sign-in.
pub(crate) fn provide_team_groups(api: ApiClient) {
    let auth = use_auth();
    let signed_in = Memo::new(move |_| auth.is_signed_in());
    let wanted = RwSignal::new(false);
    let read_at = StoredValue::new(None);
    let groups = LocalResource::new(move || {
        let go = wanted.get() && signed_in.get();
        async move {
            // Not asked yet (or signed out): an answer that reads as "not loaded", never a
            // future that stays pending (a screen's <Transition> would wait on it forever).
            if !go {
                return Err(ApiError::Cancelled);
            }
            let answer = super::app_reads::groups(api).await;
            read_at.try_set_value(answer.is_ok().then(now_ms));
            answer
        }
    });
    provide_context(TeamGroups {
        groups,
        wanted,
        read_at,
    });
}

/// The team groups for the calling screen: starts the first read, or a fresh one when the
/// list on hand is older than a minute.
pub(crate) fn use_team_groups() -> TeamGroups {
    let shared =
        use_context::<TeamGroups>().expect("use_team_groups() called outside the console's <App/>");
    if !shared.wanted.get_untracked() {
        shared.wanted.set(true);
    } else if shared
        .read_at
        .get_value()
        .is_some_and(|at| now_ms() - at > FRESH_FOR_MS)
    {
        shared.groups.refetch();
    }
    shared
}

impl TeamGroups {
    /// The groups, `None` until the first answer (tracked).
    pub(crate) fn get(&self) -> Option<Result<Vec<TeamGroup>, ApiError>> {
        self.groups
            .get()
            .filter(|answer| answer != &Err(ApiError::Cancelled))
    }

    /// Reads the groups again, e.g. "Try again" after a failure.
    pub(crate) fn refetch(&self) {
        self.groups.refetch();
    }

    /// Group names sorted for reading; `None` while loading or after a failure (tracked).
    pub(crate) fn names(&self) -> Option<Vec<String>> {
        self.groups.with(|g| match g {
            Some(Ok(list)) => Some(sorted_names(list)),
            _ => None,
        })
    }

    /// The name of group `id`, once the list has loaded (tracked).
    pub(crate) fn name_of(&self, id: u64) -> Option<String> {
        self.groups.with(|g| match g {
            Some(Ok(list)) => name_of(list, id).map(str::to_owned),
            _ => None,
        })
    }

    /// The list has loaded (tracked).
    pub(crate) fn ready(&self) -> bool {
        self.groups.with(|g| matches!(g, Some(Ok(_))))
    }

    /// The last read failed (tracked).
    pub(crate) fn failed(&self) -> bool {
        self.groups
            .with(|g| matches!(g, Some(Err(e)) if *e != ApiError::Cancelled))
    }
}

/// Reads `/api/v3/groups` page by page (100 a page) until the platform's `total_groups`
/// is reached or a page comes back empty.
pub(crate) async fn fetch_all_groups(api: ApiClient) -> Result<Vec<TeamGroup>, ApiError> {
    let mut all: Vec<TeamGroup> = Vec::new();
    for page in 1..=MAX_PAGES {
        let query = PageQuery::new(page, MAX_PER_PAGE).to_query_string();
        let answer: GroupPage = api
            .get_json(endpoint::LIST_GROUPS.call(&[]).query(&query))
            .await?;
        let total = answer.total_groups;
        let got = answer.groups.len();
        all.extend(answer.groups);
        if got == 0 || all.len() as u64 >= total {
            break;
        }
    }
    // A group may appear twice if one was added while paging; keep the first.
    let mut seen = std::collections::BTreeSet::new();
    all.retain(|g| seen.insert(g.id));
    Ok(all)
}

/// Group names for a select, sorted for reading (in the chosen language's order).
pub(crate) fn sorted_names(groups: &[TeamGroup]) -> Vec<String> {
    let mut names: Vec<String> = groups.iter().map(|g| g.name.clone()).collect();
    names.sort_by(|a, b| crate::i18n::intl::by_text(a, b));
    names.dedup();
    names
}

/// The name of group `id`, if the list has it.
pub(crate) fn name_of(groups: &[TeamGroup], id: u64) -> Option<&str> {
    groups.iter().find(|g| g.id == id).map(|g| g.name.as_str())
}
#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn group(id: u64, name: &str) -> TeamGroup {
        TeamGroup {
            id,
            budget: 0,
            created_at: String::new(),
            monthly_budget: "0.00".into(),
            name: name.into(),
            one_time_budget: 0,
            rollover: false,
            team_id: 1,
            updated_at: String::new(),
        }
    }

    #[wasm_bindgen_test]
    fn names_sort_and_resolve() {
        let groups = vec![
            group(2, "sales"),
            group(1, "Marketing"),
            group(3, "<b>Ops</b>"),
        ];
        assert_eq!(
            sorted_names(&groups),
            vec!["<b>Ops</b>", "Marketing", "sales"]
        );
        assert_eq!(name_of(&groups, 1), Some("Marketing"));
        assert_eq!(name_of(&groups, 9), None);
    }
}
