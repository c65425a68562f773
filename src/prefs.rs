//! The admin's choices on this browser, kept across visits and sign-ins in localStorage: how
//! many rows each list shows, its columns, the views saved on a list (a name and the filters
//! and sort it stands for: a deliberate act), the theme and the density. The one module that
//! touches localStorage, and it keeps choices only: never a token, never what the platform
//! answered. [`forget_all`] clears every one of them.
//!
//! A list's last filters are remembered on their own, without the admin asking, and often hold
//! what was typed into a search (an email, a recipient): they live in the tab's
//! `sessionStorage` and go when the session ends ([`forget_last_filters`]), so nothing typed
//! outlives a sign-out on a shared machine.
//!
//! The theme and the density are put on `<html>` by `boot.js`, before the wasm runs, from the
//! two keys [`Look`] writes: the first load carries no binding for it, and nothing is drawn in
//! the other theme first.

use crate::browser::session_storage;

/// Every key this module writes starts so.
const PREFIX: &str = "gifting-console.pref.";

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn read(key: &str) -> Option<String> {
    local_storage()?.get_item(key).ok()?
}

/// Keeps `value` under `key` (empty: the key goes). `false` when the storage refused.
fn write(key: &str, value: &str) -> bool {
    write_in(local_storage(), key, value)
}

fn write_in(store: Option<web_sys::Storage>, key: &str, value: &str) -> bool {
    let Some(store) = store else {
        return false;
    };
    if value.is_empty() {
        store.remove_item(key).is_ok()
    } else {
        store.set_item(key, value).is_ok()
    }
}

/// A look the admin can choose: the theme (`system`, `light`, `dark`) or the density
/// (`comfortable`, `compact`). The first choice of each is the default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Look {
    /// The attribute of `<html>` the style sheet reads (`data-theme`).
    pub(crate) attribute: &'static str,
    pub(crate) choices: &'static [&'static str],
}

pub(crate) const THEME: Look = Look {
    attribute: "data-theme",
    choices: &["system", "light", "dark"],
};

pub(crate) const DENSITY: Look = Look {
    attribute: "data-density",
    choices: &["comfortable", "compact"],
};

impl Look {
    /// `gifting-console.pref.theme` for `data-theme`.
    fn key(self) -> String {
        [PREFIX, self.attribute.trim_start_matches("data-")].concat()
    }

    /// The choice kept on this browser, or the default.
    pub(crate) fn chosen(self) -> &'static str {
        let kept = read(&self.key());
        self.choices
            .iter()
            .find(|c| kept.as_deref() == Some(**c))
            .unwrap_or(&self.choices[0])
    }

    /// Keeps `choice` (the default: nothing kept) and shows it.
    pub(crate) fn choose(self, choice: &str) -> bool {
        let kept = if choice == self.choices[0] {
            ""
        } else {
            choice
        };
        let done = write(&self.key(), kept);
        self.show(choice);
        done
    }

    /// Puts `choice` on `<html>` for the style sheet.
    fn show(self, choice: &str) {
        if let Some(root) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
        {
            let _ = root.set_attribute(self.attribute, choice);
        }
    }
}

/// Keeps the language chosen in the navigation's menu (`boot.js` reads this key to pick the
/// first screen's language; English, the default, is kept too, so the browser's own
/// preference no longer overrides it).
pub(crate) fn remember_language(code: &str) -> bool {
    write(&[PREFIX, "language"].concat(), code)
}

/// Forgets every choice this module keeps on this browser: page sizes, columns, last
/// filters, saved views, theme, density. `false` when the storage could not be read.
pub(crate) fn forget_all() -> bool {
    let Some(store) = local_storage() else {
        return false;
    };
    remove_starting(&store, PREFIX);
    forget_last_filters();
    for look in [THEME, DENSITY] {
        look.show(look.choices[0]);
    }
    true
}

/// Removes every key of `store` that starts with `prefix`.
fn remove_starting(store: &web_sys::Storage, prefix: &str) {
    let count = store.length().unwrap_or(0);
    let ours: Vec<String> = (0..count)
        .filter_map(|i| store.key(i).ok().flatten())
        .filter(|key| key.starts_with(prefix))
        .collect();
    for key in ours {
        let _ = store.remove_item(&key);
    }
}

/// Forgets every list's last filters: the session's end (sign-out, expiry, another tab's
/// sign-out) calls it. It also clears the copies an older console kept in localStorage.
pub(crate) fn forget_last_filters() {
    let prefix = filters_key("");
    for store in [local_storage(), session_storage()].into_iter().flatten() {
        remove_starting(&store, &prefix);
    }
}

fn columns_key(list: &str) -> String {
    format!("{PREFIX}columns.{list}")
}

/// The columns last chosen for `list`, as the address writes them (`created,recipient`).
pub(crate) fn columns(list: &str) -> Option<String> {
    read(&columns_key(list))
}

/// Keeps `columns` for `list` (empty: the list's own columns again).
pub(crate) fn remember_columns(list: &str, columns: &str) -> bool {
    write(&columns_key(list), columns)
}

fn filters_key(list: &str) -> String {
    format!("{PREFIX}filters.{list}")
}

/// The filters and sort `list` last showed in this tab's session, as an address query
/// (`role=admin&sort=name`).
pub(crate) fn last_filters(list: &str) -> Option<String> {
    session_storage()?.get_item(&filters_key(list)).ok()?
}

/// Keeps `query` as `list`'s last filters for this tab's session (empty: none).
pub(crate) fn remember_filters(list: &str, query: &str) {
    let _ = write_in(session_storage(), &filters_key(list), query);
}

fn page_size_key(list: &str) -> String {
    format!("{PREFIX}page-size.{list}")
}

/// The rows per page last chosen for `list`, if it is one of `offered` (a value someone edited
/// into the storage by hand, or one a later version no longer offers, is ignored).
pub(crate) fn page_size(list: &str, offered: &[u32]) -> Option<u32> {
    let text = read(&page_size_key(list))?;
    let size = text.trim().parse::<u32>().ok()?;
    offered.contains(&size).then_some(size)
}

/// Remembers `size` rows per page for `list`. Storage refused (private mode, full): the
/// choice holds for this visit only, through the address.
pub(crate) fn remember_page_size(list: &str, size: u32) {
    let _ = write(&page_size_key(list), &size.to_string());
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
    read(&views_key(list))
        .map(|text| views_from(&text))
        .unwrap_or_default()
}

/// Keeps `views` as `list`'s (none: the key goes). `false` when the storage refused.
pub(crate) fn keep_views(list: &str, views: &[SavedView]) -> bool {
    write(&views_key(list), &views_text(views))
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
