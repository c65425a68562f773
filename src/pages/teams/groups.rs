//! Every team group, across all pages: the user forms offer only real groups (SCIM's
//! `division` must name one exactly) and the directory resolves team names from them.

use gifting_api::paths;
use gifting_api::rest::{GroupPage, PageQuery, TeamGroup, MAX_PER_PAGE};

use crate::api::{ApiClient, ApiError};

/// Stops a platform that keeps answering full pages from looping forever.
const MAX_PAGES: u32 = 1_000;

/// Reads `/api/v3/groups` page by page (100 a page) until the platform's `total_groups`
/// is reached or a page comes back empty.
pub async fn fetch_all_groups(api: ApiClient) -> Result<Vec<TeamGroup>, ApiError> {
    let mut all: Vec<TeamGroup> = Vec::new();
    for page in 1..=MAX_PAGES {
        let query = PageQuery::new(page, MAX_PER_PAGE).to_query_string();
        let answer: GroupPage = api
            .get_json(&format!("{}{query}", paths::V3_GROUPS))
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

/// Group names for a select, sorted for reading (case-insensitively).
pub fn sorted_names(groups: &[TeamGroup]) -> Vec<String> {
    let mut names: Vec<String> = groups.iter().map(|g| g.name.clone()).collect();
    names.sort_by_key(|n| n.to_lowercase());
    names.dedup();
    names
}

/// The name of group `id`, if the list has it.
pub fn name_of(groups: &[TeamGroup], id: u64) -> Option<&str> {
    groups.iter().find(|g| g.id == id).map(|g| g.name.as_str())
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

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

    #[test]
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
