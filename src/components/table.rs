//! The one data table of the console: a caption, header cells with `scope="col"`, the rows,
//! and a sentence instead of an empty table.

use leptos::prelude::*;

use super::page_state::Empty;

/// A header cell; numbers are right-aligned so their digits line up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Column {
    pub(crate) label: &'static str,
    pub(crate) numeric: bool,
}

impl Column {
    pub(crate) const fn text(label: &'static str) -> Self {
        Self {
            label,
            numeric: false,
        }
    }

    pub(crate) const fn number(label: &'static str) -> Self {
        Self {
            label,
            numeric: true,
        }
    }
}

/// A table of `rows` under `columns`, or `empty` in words when there are no rows. Each row is a
/// `<tr>` whose first cell is a `<th scope="row">`, so a screen reader names every cell's row.
#[component]
pub(crate) fn DataTable(
    /// What the table lists, read first by a screen reader.
    caption: &'static str,
    columns: &'static [Column],
    rows: Vec<AnyView>,
    /// Said instead of the table when `rows` is empty.
    #[prop(into)]
    empty: String,
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
) -> impl IntoView {
    if rows.is_empty() {
        return view! { <Empty message=empty /> }.into_any();
    }
    let header = columns
        .iter()
        .map(|c| view! { <th scope="col" class=c.numeric.then_some("num")>{c.label}</th> })
        .collect_view();
    view! {
        <div class="table-wrap">
            <table class=class data-testid=testid>
                <caption class=hidden_caption.then_some("visually-hidden")>{caption}</caption>
                <thead>
                    <tr>{lead}{header}</tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
    .into_any()
}

/// A text column, for column lists that read best on one line.
pub(crate) const fn text(label: &'static str) -> Column {
    Column::text(label)
}

/// A number column (right-aligned).
pub(crate) const fn number(label: &'static str) -> Column {
    Column::number(label)
}
