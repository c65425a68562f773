//! The columns of a list the admin chooses: which show and in which order. In the address as
//! `cols=created,recipient,status` (so a saved view and a shared link keep them), else the
//! list's last choice on this browser ([`crate::prefs`]), else all of them in the list's order.

use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_query_map};
use leptos_router::NavigateOptions;

use super::query_href::href_with;
use super::Navigator;
use crate::i18n::{msg, t, M};
use crate::prefs;

/// The address's key for the columns shown.
pub(crate) const KEY_COLUMNS: &str = "cols";

/// A column that can be hidden or moved: its key in the address and its header's label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Choosable {
    pub(crate) key: &'static str,
    pub(crate) label: M,
}

/// The columns shown, as indices into `all`, from `text` (keys apart by commas). Unknown and
/// repeated keys are skipped; nothing left means every column.
pub(crate) fn parse(text: &str, all: &[Choosable]) -> Vec<usize> {
    let mut shown: Vec<usize> = Vec::new();
    for key in text.split(',').map(str::trim) {
        if let Some(i) = all.iter().position(|c| c.key == key) {
            if !shown.contains(&i) {
                shown.push(i);
            }
        }
    }
    if shown.is_empty() {
        (0..all.len()).collect()
    } else {
        shown
    }
}

/// `shown` as the address writes it: empty when it is every column in the list's order.
pub(crate) fn written(shown: &[usize], all: &[Choosable]) -> String {
    if shown.iter().copied().eq(0..all.len()) {
        return String::new();
    }
    shown
        .iter()
        .filter_map(|i| all.get(*i))
        .map(|c| c.key)
        .collect::<Vec<_>>()
        .join(",")
}

/// One list's columns on screen, and the changes the chooser makes to them.
#[derive(Clone, Copy)]
pub(crate) struct Columns {
    list: &'static str,
    pub(crate) all: &'static [Choosable],
    /// Indices into `all`, in the order shown.
    pub(crate) shown: Memo<Vec<usize>>,
    navigator: Navigator,
    path: Memo<String>,
    query: Memo<leptos_router::params::ParamsMap>,
    /// Set when this browser did not keep a change.
    pub(crate) not_kept: RwSignal<bool>,
}

impl Columns {
    /// `list`'s columns, read from the address or as last chosen on this browser.
    pub(crate) fn new(list: &'static str, all: &'static [Choosable]) -> Self {
        let query = use_query_map();
        let shown = Memo::new(move |_| {
            let asked = query.with(|q| q.get_str(KEY_COLUMNS).map(str::to_owned));
            parse(
                &asked.or_else(|| prefs::columns(list)).unwrap_or_default(),
                all,
            )
        });
        Columns {
            list,
            all,
            shown,
            navigator: Navigator::new(),
            path: use_location().pathname,
            query,
            not_kept: RwSignal::new(false),
        }
    }

    /// Shows `next` (indices into `all`, in order), remembered and in the address. Never none.
    fn set(self, next: Vec<usize>) {
        if next.is_empty() {
            return;
        }
        let text = written(&next, self.all);
        self.not_kept
            .set(!prefs::remember_columns(self.list, &text));
        let href = self.query.with_untracked(|q| {
            href_with(
                &self.path.get_untracked(),
                q,
                &[(KEY_COLUMNS, Some(text.clone()))],
            )
        });
        let options = NavigateOptions {
            replace: true,
            scroll: false,
            ..NavigateOptions::default()
        };
        self.navigator.go(&href, options);
    }

    fn toggle(self, i: usize) {
        let mut next = self.shown.get_untracked();
        match next.iter().position(|s| *s == i) {
            Some(at) => {
                next.remove(at);
            }
            None => next.push(i),
        }
        self.set(next);
    }

    /// Moves the shown column at `at` one place towards the start (`up`) or the end.
    fn shift(self, at: usize, up: bool) {
        let mut next = self.shown.get_untracked();
        let other = if up { at.checked_sub(1) } else { Some(at + 1) };
        if let Some(other) = other.filter(|o| *o < next.len()) {
            next.swap(at, other);
            self.set(next);
        }
    }

    /// The id of a control of column `i` in the chooser (`""`: its checkbox, else a button).
    fn control_id(self, i: usize, which: &str) -> String {
        format!("{}-column-{}{which}", self.list, self.all[i].key)
    }

    /// After a change the chooser's lines are drawn again: the focus goes back to the control
    /// used (`which`: `""`, `-up` or `-down`), or, now disabled, the other button of its line.
    fn refocus(self, i: usize, which: &'static str) {
        let other = if which == "-up" { "-down" } else { "-up" };
        let ids = [
            self.control_id(i, which),
            self.control_id(i, other),
            self.control_id(i, ""),
        ];
        request_animation_frame(move || {
            use wasm_bindgen::JsCast;
            let Some(document) = web_sys::window().and_then(|w| w.document()) else {
                return;
            };
            for id in &ids {
                let found = document
                    .get_element_by_id(id)
                    .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
                    .filter(|e| !e.has_attribute("disabled"));
                if let Some(element) = found {
                    let _ = element.focus();
                    return;
                }
            }
        });
    }
}

/// "Columns": a disclosure listing every column, shown ones first in their order, each with a
/// checkbox and buttons that move it; "Show every column" puts the list's own back.
#[component]
pub(crate) fn ColumnChooser(columns: Columns) -> impl IntoView {
    // Drawn only while open: closed, the page holds no second "Status" checkbox or label.
    let open = RwSignal::new(false);
    let details = NodeRef::<leptos::html::Details>::new();
    let on_toggle = move |_| {
        if let Some(details) = details.get_untracked() {
            open.set(details.open());
        }
    };
    let rows = move || {
        let shown = columns.shown.get();
        let hidden = (0..columns.all.len()).filter(|i| !shown.contains(i));
        let last_one = shown.len() == 1;
        let count = shown.len();
        shown
            .iter()
            .copied()
            .enumerate()
            .map(|(at, i)| (Some(at), i))
            .chain(hidden.map(|i| (None, i)))
            .map(|(at, i)| {
                view! { <ColumnLine columns i at count last_one /> }
            })
            .collect_view()
    };
    view! {
        <details class="column-chooser" node_ref=details on:toggle=on_toggle>
            <summary class="button button--small">{M::ColumnsTitle}</summary>
            <Show when=move || open.get()>
            <div class="column-chooser__panel">
                <ul class="column-chooser__list">{rows}</ul>
                <button
                    type="button"
                    class="button button--small"
                    on:click=move |_| columns.set((0..columns.all.len()).collect())
                >
                    {M::ColumnsShowAll}
                </button>
                <p class="muted column-chooser__note">{M::ColumnsExportNote}</p>
                <Show when=move || columns.not_kept.get()>
                    <p class="field__error" role="alert">
                        {M::ColumnsNotKept}
                    </p>
                </Show>
            </div>
            </Show>
        </details>
    }
}

/// One column in the chooser: shown or not, and moved up or down while shown.
#[component]
fn ColumnLine(
    columns: Columns,
    i: usize,
    /// Its place among the shown columns; `None` while hidden.
    at: Option<usize>,
    count: usize,
    /// The only column shown, which cannot be hidden.
    last_one: bool,
) -> impl IntoView {
    let label = columns.all[i].label;
    let first = at == Some(0);
    let last = at.is_none_or(|a| a + 1 == count);
    let act = move |which: &'static str| {
        match which {
            "" => columns.toggle(i),
            "-up" => columns.shift(at.unwrap_or_default(), true),
            _ => columns.shift(at.unwrap_or_default(), false),
        }
        columns.refocus(i, which);
    };
    view! {
        <li class="column-chooser__line">
            <label>
                <input
                    type="checkbox"
                    id=columns.control_id(i, "")
                    prop:checked=at.is_some()
                    disabled={at.is_some() && last_one}
                    on:change=move |_| act("")
                />
                {label}
            </label>
            <button
                type="button"
                class="button button--small"
                id=columns.control_id(i, "-up")
                aria-label=move || msg::columns_move_up(t(label))
                disabled={at.is_none() || first}
                on:click=move |_| act("-up")
            >
                "↑"
            </button>
            <button
                type="button"
                class="button button--small"
                id=columns.control_id(i, "-down")
                aria-label=move || msg::columns_move_down(t(label))
                disabled=last
                on:click=move |_| act("-down")
            >
                "↓"
            </button>
        </li>
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    const ALL: &[Choosable] = &[
        Choosable {
            key: "a",
            label: M::ColumnsTitle,
        },
        Choosable {
            key: "b",
            label: M::ColumnsShowAll,
        },
        Choosable {
            key: "c",
            label: M::ColumnsExportNote,
        },
    ];

    #[wasm_bindgen_test]
    fn columns_read_from_the_address_skip_unknown_and_repeated_keys() {
        assert_eq!(parse("c,a", ALL), vec![2, 0]);
        assert_eq!(parse("c, x ,c,b", ALL), vec![2, 1]);
        assert_eq!(parse("", ALL), vec![0, 1, 2]);
        assert_eq!(parse("x,y", ALL), vec![0, 1, 2]);
    }

    #[wasm_bindgen_test]
    fn every_column_in_order_is_written_as_nothing() {
        assert_eq!(written(&[0, 1, 2], ALL), "");
        assert_eq!(written(&[1, 0, 2], ALL), "b,a,c");
        assert_eq!(written(&[2], ALL), "c");
        assert_eq!(parse(&written(&[2, 0], ALL), ALL), vec![2, 0]);
    }
}
