//! The one data table of the console: a caption, header cells with `scope="col"` (sortable
//! ones as links, see [`super::sort`]), the rows, and a sentence instead of an empty table.

use leptos::prelude::*;

use super::page_state::Empty;
use super::sort::{use_table_sort, OrderBy, SortHeader};
use crate::i18n::M;

/// A header cell; numbers are right-aligned so their digits line up. With a sort key, the
/// header sorts the table by this column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Column {
    pub(crate) label: M,
    pub(crate) numeric: bool,
    pub(crate) sort: Option<&'static str>,
}

impl Column {
    pub(crate) const fn text(label: M) -> Self {
        Self {
            label,
            numeric: false,
            sort: None,
        }
    }

    pub(crate) const fn number(label: M) -> Self {
        Self {
            label,
            numeric: true,
            sort: None,
        }
    }

    /// Sortable, under `key` in the address (`?sort=key`).
    pub(crate) const fn sorts(self, key: &'static str) -> Self {
        Self {
            sort: Some(key),
            ..self
        }
    }
}

/// A table of `items` under `columns`, each shown by `row`, or `empty` in words when there are
/// none. Each row is a `<tr>` whose first cell is a `<th scope="row">`, so a screen reader
/// names every cell's row. With `order`, the columns that have a sort key sort the rows.
#[component]
pub(crate) fn DataTable<T, R>(
    /// What the table lists, read first by a screen reader.
    #[prop(into)]
    caption: Signal<String>,
    #[prop(into)] columns: Vec<Column>,
    /// The rows' data, in the platform's order.
    items: Vec<T>,
    row: R,
    /// How rows compare by each sortable column.
    #[prop(optional)]
    order: Option<OrderBy<T>>,
    /// Said instead of the table when there are no rows.
    #[prop(into)]
    empty: Signal<String>,
    /// The table's classes (the default look is `data-table`).
    #[prop(default = "data-table")]
    class: &'static str,
    /// Shows the caption to screen readers only, where the heading above already says it.
    #[prop(optional)]
    hidden_caption: bool,
    #[prop(optional)] testid: Option<&'static str>,
    /// A header cell before the columns, e.g. "select all".
    #[prop(optional)]
    lead: Option<AnyView>,
    /// Said above the table while a column sorts it, where the rows are a page of a longer
    /// list: what the sort covers, e.g. "Sorted within the campaigns on this page; …".
    #[prop(optional)]
    sorted_within: Option<M>,
    /// Only these rows of the sorted `items` are drawn (`start..end`, clamped): a list the
    /// platform sends whole, paged on screen, sorts over all of its rows.
    #[prop(optional, into)]
    rows: Option<Signal<std::ops::Range<usize>>>,
) -> impl IntoView
where
    T: Clone + Send + Sync + 'static,
    R: Fn(T) -> AnyView + Clone + Send + Sync + 'static,
{
    if items.is_empty() {
        return view! { <Empty message=empty /> }.into_any();
    }
    let header = columns
        .iter()
        .map(|c| header_cell(*c, order.is_some()))
        .collect_view();
    let sort = order.map(|_| use_table_sort());
    // Only the body follows the sort: the header (and the focused link in it) stays.
    let body = move || {
        let mut items = items.clone();
        if let (Some(sort), Some(order)) = (sort, order) {
            sort.try_with(|s| s.apply(&mut items, order));
        }
        let shown = rows.map_or(0..items.len(), |r| clamp(r.get(), items.len()));
        items.drain(shown).map(row.clone()).collect_view()
    };
    view! {
        {sorted_within.map(|note| view! { <SortNote note /> })}
        <div class="table-wrap">
            <table class=class data-testid=testid>
                <caption class=hidden_caption.then_some("visually-hidden")>{caption}</caption>
                <thead>
                    <tr>{lead}{header}</tr>
                </thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
    .into_any()
}

/// `range` within `0..len`.
fn clamp(range: std::ops::Range<usize>, len: usize) -> std::ops::Range<usize> {
    let start = range.start.min(len);
    start..range.end.clamp(start, len)
}

/// What a table's sort covers, said while a column sorts it (the sort is in the address).
#[component]
pub(crate) fn SortNote(note: M) -> impl IntoView {
    let sort = use_table_sort();
    move || {
        sort.try_with(|s| s.column.is_some())
            .unwrap_or(false)
            .then(|| view! { <p class="muted sort-note" data-testid="sort-note">{note}</p> })
    }
}

fn header_cell(column: Column, sortable: bool) -> AnyView {
    let class = column.numeric.then_some("num");
    match column.sort.filter(|_| sortable) {
        Some(key) => view! { <SortHeader label=column.label key class /> }.into_any(),
        None => view! { <th scope="col" class=class>{column.label}</th> }.into_any(),
    }
}

/// A text column, for column lists that read best on one line.
pub(crate) const fn text(label: M) -> Column {
    Column::text(label)
}

/// A number column (right-aligned).
pub(crate) const fn number(label: M) -> Column {
    Column::number(label)
}
