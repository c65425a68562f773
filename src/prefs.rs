//! The admin's choices on this browser, kept across visits and sign-ins in localStorage: how
//! many rows each list shows. The one module that touches localStorage, and it keeps choices
//! only: never a token, never what the platform answered.

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
}
