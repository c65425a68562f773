//! Sorting a table by one of its columns. The sort lives in the address (`?sort=created&dir=desc`),
//! so a sorted table can be shared and survives a reload. The platform sorts nothing, so the
//! rows sorted are the rows loaded; a screen whose rows span pages says so.

use std::cmp::Ordering;

use gifting_api::money::Decimal;
use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_query_map};
use leptos_router::params::ParamsMap;

use super::format::parse_timestamp;
use super::query_href::href_with;
use crate::i18n::M;

const KEY_SORT: &str = "sort";
const KEY_DIR: &str = "dir";
/// The address keys of a table's sort (a saved view keeps them with the filters).
pub(crate) const SORT_KEYS: [&str; 2] = [KEY_SORT, KEY_DIR];

/// How two rows compare by one column.
pub(crate) type Compare<T> = fn(&T, &T) -> Ordering;
/// A table's comparison for the column with this sort key, if it has one.
pub(crate) type OrderBy<T> = fn(&str) -> Option<Compare<T>>;

/// The column a table is sorted by, as the address says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct TableSort {
    pub(crate) column: Option<String>,
    pub(crate) descending: bool,
}

impl TableSort {
    pub(crate) fn from_query(query: &ParamsMap) -> Self {
        Self {
            column: query
                .get_str(KEY_SORT)
                .filter(|c| !c.is_empty())
                .map(str::to_owned),
            descending: query.get_str(KEY_DIR) == Some("desc"),
        }
    }

    /// `aria-sort` of the column with `key`.
    pub(crate) fn aria(&self, key: &str) -> &'static str {
        match (self.column.as_deref() == Some(key), self.descending) {
            (false, _) => "none",
            (true, false) => "ascending",
            (true, true) => "descending",
        }
    }

    /// The address's changes for a click on `key`: ascending first, then the other way, then
    /// the platform's own order again (a list remembers its sort, so there is a way back).
    pub(crate) fn toggled(&self, key: &str) -> [(&'static str, Option<String>); 2] {
        let this = self.column.as_deref() == Some(key);
        if this && self.descending {
            return [(KEY_SORT, None), (KEY_DIR, None)];
        }
        [
            (KEY_SORT, Some(key.to_owned())),
            (KEY_DIR, this.then(|| "desc".to_owned())),
        ]
    }

    /// Sorts `rows` by the chosen column; stable, so equal rows keep the platform's order.
    /// A key the table does not know leaves the order as it is.
    pub(crate) fn apply<T>(&self, rows: &mut [T], order: OrderBy<T>) {
        let Some(compare) = self.column.as_deref().and_then(order) else {
            return;
        };
        if self.descending {
            rows.sort_by(|a, b| compare(b, a));
        } else {
            rows.sort_by(compare);
        }
    }
}

/// The address's sort, followed as it changes.
pub(crate) fn use_table_sort() -> Memo<TableSort> {
    let query = use_query_map();
    Memo::new(move |_| query.with(TableSort::from_query))
}

/// A header cell that sorts its table: a link to the same address sorted by this column, with
/// `aria-sort` saying the current order and an arrow beside the label.
#[component]
pub(crate) fn SortHeader(
    label: M,
    key: &'static str,
    #[prop(optional_no_strip)] class: Option<&'static str>,
) -> impl IntoView {
    let query = use_query_map();
    let location = use_location();
    let sort = use_table_sort();
    // `try_`: signing out replaces every screen at once, and these may run once more while the
    // table's reactive values are being dropped.
    let href = move || {
        let changes = sort.try_with(|s| s.toggled(key))?;
        let path = location.pathname.try_get()?;
        query.try_with(|q| href_with(&path, q, &changes))
    };
    let aria = move || sort.try_with(|s| s.aria(key)).unwrap_or("none");
    let mark = move || match aria() {
        "ascending" => "\u{25b2}",
        "descending" => "\u{25bc}",
        _ => "\u{2195}",
    };
    view! {
        <th scope="col" class=class aria-sort=aria>
            <a class="sort-link" href=href>
                {label}
                <span class="sort-link__mark" aria-hidden="true">{mark}</span>
            </a>
        </th>
    }
}

pub(crate) use crate::i18n::intl::by_text;

/// Platform timestamps by the instant they name, whatever their offsets; unreadable ones last.
pub(crate) fn by_time(a: &str, b: &str) -> Ordering {
    last_if_none(parse_timestamp(a), parse_timestamp(b)).then_with(|| a.cmp(b))
}

/// Decimal text by value ("9.50" before "10"); unreadable amounts last.
pub(crate) fn by_amount(a: &str, b: &str) -> Ordering {
    match (Decimal::parse(a), Decimal::parse(b)) {
        (Some(x), Some(y)) => x.cmp_value(y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => a.cmp(b),
    }
}

/// Money by currency, then by value within it (amounts in two currencies are never compared).
pub(crate) fn by_money(a: (&str, &str), b: (&str, &str)) -> Ordering {
    a.0.cmp(b.0).then_with(|| by_amount(a.1, b.1))
}

fn last_if_none<T: Ord>(a: Option<T>, b: Option<T>) -> Ordering {
    match (a, b) {
        (Some(x), Some(y)) => x.cmp(&y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use std::cmp::Ordering::{Equal, Greater, Less};

    use super::*;

    #[wasm_bindgen_test]
    fn money_compares_by_value_within_a_currency_not_as_text() {
        assert_eq!(
            by_money(("USD", "9.50"), ("USD", "10.00")),
            Less,
            "as text, 9.50 > 10.00"
        );
        assert_eq!(by_money(("USD", "100"), ("USD", "25.5")), Greater);
        assert_eq!(by_money(("USD", "1.10"), ("USD", "1.1")), Equal);
        assert_eq!(by_money(("USD", "-5"), ("USD", "0")), Less);
        assert_eq!(
            by_money(("EUR", "900"), ("USD", "1")),
            Less,
            "currency first"
        );
        assert_eq!(by_amount("n/a", "3"), Greater, "unreadable last");
        assert_eq!(by_amount("3", "n/a"), Less);
    }

    #[wasm_bindgen_test]
    fn times_compare_by_instant_and_text_by_letters_first() {
        assert_eq!(
            by_time("2026-03-01T10:00:00+02:00", "2026-03-01T09:30:00+00:00"),
            Less
        );
        assert_eq!(by_time("garbled", "2026-03-01T09:30:00Z"), Greater);
        assert_eq!(by_text("ada", "Bob"), Less, "not by byte, where 'B' < 'a'");
        assert_eq!(by_text("Ada", "ada"), Less);
        assert_eq!(
            by_text("Ärger", "Zeta"),
            Less,
            "accented letters beside their own"
        );
        assert_eq!(by_text("Team 9", "Team 10"), Less, "numbers by value");
    }

    #[wasm_bindgen_test]
    fn the_address_sort_toggles_and_sorts_stably() {
        let sort = |column: &str, descending| TableSort {
            column: Some(column.into()),
            descending,
        };
        assert_eq!(
            TableSort::default().toggled("name")[1].1,
            None,
            "ascending first"
        );
        assert_eq!(
            sort("name", false).toggled("name")[1].1.as_deref(),
            Some("desc")
        );
        assert_eq!(
            sort("name", true).toggled("name"),
            [(KEY_SORT, None), (KEY_DIR, None)],
            "after descending, the platform's order again"
        );
        assert_eq!(
            sort("email", true).toggled("name")[0].1.as_deref(),
            Some("name")
        );
        assert_eq!(
            sort("email", true).toggled("name")[1].1,
            None,
            "a new column starts ascending"
        );
        assert_eq!(sort("name", true).aria("name"), "descending");
        assert_eq!(sort("name", true).aria("email"), "none");

        let order: OrderBy<(u32, &str)> = |key| match key {
            "n" => Some(|a, b| a.0.cmp(&b.0)),
            _ => None,
        };
        let mut rows = vec![(2, "b"), (1, "a"), (2, "a"), (1, "b")];
        sort("n", false).apply(&mut rows, order);
        assert_eq!(rows, [(1, "a"), (1, "b"), (2, "b"), (2, "a")]);
        sort("n", true).apply(&mut rows, order);
        assert_eq!(rows, [(2, "b"), (2, "a"), (1, "a"), (1, "b")]);
        sort("unknown", false).apply(&mut rows, order);
        assert_eq!(rows, [(2, "b"), (2, "a"), (1, "a"), (1, "b")]);
    }
}
