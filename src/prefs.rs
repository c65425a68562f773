//! The admin's choices on this browser, kept across visits and sign-ins in localStorage: how
//! many rows each list shows, and the views saved on a list (a name and the filters and sort
//! it stands for). The one module that touches localStorage, and it keeps choices only: never
//! a token, never what the platform answered beyond the filter values typed.

/// Every key this module writes starts so.
const PREFIX: &str = "gifting-console.pref.";

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn page_size_key(list: &str) -> String {
    format!("{PREFIX}page-size.{list}")
}

/// The rows per page last chosen for `list`, if it is one of `offered` (a value someone edited
/// into the storage by hand, or one a later version no longer offers, is ignored).
pub(crate) fn page_size(list: &str, offered: &[u32]) -> Option<u32> {
    let text = local_storage()?.get_item(&page_size_key(list)).ok()??;
    let size = text.trim().parse::<u32>().ok()?;
    offered.contains(&size).then_some(size)
}

/// Remembers `size` rows per page for `list`. Storage refused (private mode, full): the
/// choice holds for this visit only, through the address.
pub(crate) fn remember_page_size(list: &str, size: u32) {
    if let Some(store) = local_storage() {
        let _ = store.set_item(&page_size_key(list), &size.to_string());
    }
}

/// A view saved on a list: its name and the address query it stands for (`status=problem&
/// sort=created`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SavedView {
    pub(crate) name: String,
    pub(crate) query: String,
}

fn views_key(list: &str) -> String {
    format!("{PREFIX}views.{list}")
}

/// One view a line, its name and query apart by a tab (a name keeps neither).
fn views_text(views: &[SavedView]) -> String {
    views
        .iter()
        .map(|v| format!("{}\t{}", clean_name(&v.name), v.query))
        .collect::<Vec<_>>()
        .join("\n")
}

fn views_from(text: &str) -> Vec<SavedView> {
    text.lines()
        .filter_map(|line| {
            let (name, query) = line.split_once('\t')?;
            (!name.trim().is_empty()).then(|| SavedView {
                name: name.to_owned(),
                query: query.to_owned(),
            })
        })
        .collect()
}

/// A view's name as kept: one line, trimmed.
pub(crate) fn clean_name(name: &str) -> String {
    name.split(['\t', '\n', '\r'])
        .collect::<Vec<_>>()
        .join(" ")
        .trim()
        .to_owned()
}

/// The views saved on `list`, in the order they were saved.
pub(crate) fn views(list: &str) -> Vec<SavedView> {
    local_storage()
        .and_then(|s| s.get_item(&views_key(list)).ok().flatten())
        .map(|text| views_from(&text))
        .unwrap_or_default()
}

/// Keeps `views` as `list`'s (none: the key goes). `false` when the storage refused.
pub(crate) fn keep_views(list: &str, views: &[SavedView]) -> bool {
    let Some(store) = local_storage() else {
        return false;
    };
    if views.is_empty() {
        store.remove_item(&views_key(list)).is_ok()
    } else {
        store.set_item(&views_key(list), &views_text(views)).is_ok()
    }
}

/// Which list a path shows, for its remembered page size: every team's members are one list.
pub(crate) fn list_of(path: &str) -> String {
    let mut segments = path.split('/').filter(|s| !s.is_empty());
    let first = segments.next().unwrap_or("home");
    if segments.next().is_some() {
        format!("{first}.item")
    } else {
        first.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn a_list_is_named_by_its_screen_and_every_item_shares_one_name() {
        let lists = [
            ("/sends", "sends"),
            ("/teams/12", "teams.item"),
            ("/teams/7/", "teams.item"),
            ("/", "home"),
        ];
        for (path, list) in lists {
            assert_eq!(list_of(path), list, "{path}");
        }
        let key = page_size_key("sends");
        assert_eq!(key, "gifting-console.pref.page-size.sends");
    }

    #[wasm_bindgen_test]
    fn saved_views_read_back_as_written_and_a_name_stays_one_line() {
        let views = vec![
            SavedView {
                name: "Problems\tthis\nmonth ".into(),
                query: "status=problem&since=2026-11-01".into(),
            },
            SavedView {
                name: "Admins".into(),
                query: "role=admin".into(),
            },
        ];
        let read = views_from(&views_text(&views));
        assert_eq!(read.len(), 2);
        assert_eq!(read[0].name, "Problems this month");
        assert_eq!(read[0].query, "status=problem&since=2026-11-01");
        assert_eq!(read[1], views[1]);
        assert!(views_from("no tab here\n\t=x").is_empty());
    }
}
