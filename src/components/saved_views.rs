//! Saved views of a list: the admin names the filters and sort on screen and picks them again
//! later; rename and delete. Kept on this browser ([`crate::prefs`]). A view is the address's
//! query, so the address on screen shares it as well.

use gifting_api::query::QueryBuilder;
use leptos::ev::SubmitEvent;
use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_query_map};
use leptos_router::params::ParamsMap;
use leptos_router::NavigateOptions;

use super::columns::KEY_COLUMNS;
use super::sort::SORT_KEYS;
use super::{Navigator, TextField};
use crate::i18n::{live_text, msg, t, M};
use crate::prefs::{self, SavedView};

/// The query of `keys`, in that order, then the sort and the columns, from the address: what
/// a view keeps (never the page).
fn query_of(query: &ParamsMap, keys: &[&str]) -> String {
    let mut builder = QueryBuilder::new();
    for key in keys.iter().chain(&SORT_KEYS).chain(&[KEY_COLUMNS]) {
        if let Some(value) = query.get_str(key).filter(|v| !v.is_empty()) {
            builder = builder.push(key, value);
        }
    }
    builder.build().trim_start_matches('?').to_owned()
}

thread_local! {
    /// Whether the console has gone from one screen to another since the page loaded.
    static MOVED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The address's keys that choose no rows: a list with only these opens with its last filters.
const NOT_FILTERS: [&str; 5] = ["page", "per_page", "startIndex", "count", KEY_COLUMNS];

/// Said by the app when the admin goes from one screen to another within the console.
pub(crate) fn note_screen_change() {
    MOVED.with(|m| m.set(true));
}

/// Keeps `list`'s filters and sort (`keys` and the sort, as [`query_of`]) as the address
/// shows them, and opens the list with the last ones again when the console goes to it with
/// none (from the navigation, the palette, a breadcrumb). An address loaded as a page (typed,
/// a bookmark, a shared link, a reload) shows exactly what it says, and a link that carries
/// any filter (home's, a saved view's) wins. Called first thing in the list's screen, so what
/// it reads is asked for with them.
pub(crate) fn remember_last_filters(list: &'static str, keys: &'static [&'static str]) {
    let query = use_query_map();
    let moved = MOVED.with(std::cell::Cell::get);
    // Only paging and columns: any other key (a filter, or a one-off such as Sends' `send` or
    // Users' `email`) is the link's own choice.
    let bare = query.with_untracked(|q| {
        q.into_iter()
            .all(|(key, _)| NOT_FILTERS.contains(&key.as_ref()))
    });
    let restoring = moved
        && bare
        && match prefs::last_filters(list).filter(|last| !last.is_empty()) {
            Some(last) => {
                let path = use_location().pathname.get_untracked();
                let others = query.with_untracked(|q| q.to_query_string());
                let joiner = if others.is_empty() { "?" } else { "&" };
                let replace = NavigateOptions {
                    replace: true,
                    ..NavigateOptions::default()
                };
                Navigator::new().go(&format!("{path}{others}{joiner}{last}"), replace);
                true
            }
            None => false,
        };
    // The bare address read before the restored one arrives is not the admin's choice.
    Effect::new(move |waiting: Option<bool>| {
        let (current, one_off) = query.with(|q| {
            let listed = |key: &str| {
                keys.contains(&key) || SORT_KEYS.contains(&key) || NOT_FILTERS.contains(&key)
            };
            (
                query_of(q, keys),
                q.into_iter().any(|(key, _)| !listed(key.as_ref())),
            )
        });
        if waiting.unwrap_or(restoring) && current.is_empty() {
            return true;
        }
        // A one-off address (one send, one user's email) leaves the last filters as they were.
        if !one_off {
            prefs::remember_filters(list, &current);
        }
        false
    });
}

/// What the name box is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Naming {
    Off,
    /// Saving the filters on screen under a name.
    New,
    /// Renaming the view on screen.
    Rename(usize),
}

/// The views of one list and what the admin does with them.
#[derive(Clone, Copy)]
struct Views {
    list: &'static str,
    all: RwSignal<Vec<SavedView>>,
    /// The address's query of the list's keys.
    current: Memo<String>,
    naming: RwSignal<Naming>,
    error: RwSignal<Option<String>>,
}

impl Views {
    /// The saved view the address shows, if any.
    fn shown(self) -> Option<usize> {
        self.current
            .with(|c| self.all.with(|all| all.iter().position(|v| &v.query == c)))
    }

    fn keep(self, next: Vec<SavedView>) -> bool {
        if prefs::keep_views(self.list, &next) {
            self.all.set(next);
            self.error.set(None);
            true
        } else {
            self.error.set(Some(t(M::ViewsNotKept).to_owned()));
            false
        }
    }

    /// Saves or renames under `typed`; the error says why not.
    fn name(self, typed: &str) -> bool {
        let name = prefs::clean_name(typed);
        if name.is_empty() {
            self.error.set(Some(t(M::ViewsNameNeeded).to_owned()));
            return false;
        }
        let mut next = self.all.get_untracked();
        let taken = |except: Option<usize>| {
            next.iter()
                .enumerate()
                .any(|(i, v)| Some(i) != except && v.name == name)
        };
        match self.naming.get_untracked() {
            Naming::Rename(i) if taken(Some(i)) => {
                self.error.set(Some(msg::views_name_taken(&name)));
                return false;
            }
            Naming::Rename(i) => {
                if let Some(view) = next.get_mut(i) {
                    view.name = name;
                }
            }
            Naming::New | Naming::Off => {
                let query = self.current.get_untracked();
                // The same name again: that view now stands for what is on screen.
                next.retain(|v| v.name != name);
                next.push(SavedView { name, query });
            }
        }
        self.keep(next)
    }

    fn delete(self, i: usize) {
        let mut next = self.all.get_untracked();
        if i < next.len() {
            next.remove(i);
            self.keep(next);
        }
    }
}

/// "Saved views": a select of the list's views (choosing one opens it), "Save view", and for
/// the view on screen "Rename" and "Delete". `keys` are the list's filter keys in the address:
/// a view keeps them and the sort.
#[component]
pub(crate) fn SavedViews(list: &'static str, keys: &'static [&'static str]) -> impl IntoView {
    let query = use_query_map();
    let views = Views {
        list,
        all: RwSignal::new(prefs::views(list)),
        current: Memo::new(move |_| query.with(|q| query_of(q, keys))),
        naming: RwSignal::new(Naming::Off),
        error: RwSignal::new(None),
    };
    let path = use_location().pathname;
    let navigator = Navigator::new();
    let on_pick = move |ev| {
        let picked = event_target_value(&ev).parse::<usize>().ok();
        let Some(view) = picked.and_then(|i| views.all.with_untracked(|v| v.get(i).cloned()))
        else {
            return;
        };
        let path = path.get_untracked();
        let href = if view.query.is_empty() {
            path
        } else {
            format!("{path}?{}", view.query)
        };
        navigator.go(&href, NavigateOptions::default());
    };
    let options = move || {
        views.all.with(|all| {
            all.iter()
                .enumerate()
                .map(|(i, v)| view! { <option value=i.to_string()>{v.name.clone()}</option> })
                .collect_view()
        })
    };
    view! {
        <div class="saved-views" role="group" aria-label=M::ViewsTitle>
            <label for="saved-views" class="visually-hidden">{M::ViewsTitle}</label>
            <select
                id="saved-views"
                on:change=on_pick
                prop:value=move || views.shown().map(|i| i.to_string()).unwrap_or_default()
            >
                <option value="">
                    {live_text(move || t(if views.all.with(Vec::is_empty) { M::ViewsNone } else { M::ViewsSome }))}
                </option>
                {options}
            </select>
            <ViewActions views />
            {move || views.error.get().map(|e| view! { <p class="field__error" role="alert">{e}</p> })}
        </div>
    }
}

/// "Save view", "Rename" and "Delete", or the name box while naming.
#[component]
fn ViewActions(views: Views) -> impl IntoView {
    let typed = RwSignal::new(String::new());
    let start = move |naming: Naming| {
        let name = match naming {
            Naming::Rename(i) => views
                .all
                .with_untracked(|all| all.get(i).map(|v| v.name.clone())),
            _ => None,
        };
        typed.set(name.unwrap_or_default());
        views.error.set(None);
        views.naming.set(naming);
    };
    let on_submit = move |ev: SubmitEvent| {
        ev.prevent_default();
        if views.name(&typed.get_untracked()) {
            views.naming.set(Naming::Off);
        }
    };
    let naming = move || views.naming.get() != Naming::Off;
    view! {
        <Show
            when=naming
            fallback=move || {
                view! {
                    <button type="button" class="button button--small" on:click=move |_| start(Naming::New)>
                        {M::ViewsSave}
                    </button>
                    {move || views.shown().map(|i| view! {
                        <button type="button" class="button button--small" on:click=move |_| start(Naming::Rename(i))>
                            {M::ViewsRename}
                        </button>
                        <button type="button" class="button button--small" on:click=move |_| views.delete(i)>
                            {M::ViewsDelete}
                        </button>
                    })}
                }
            }
        >
            <form class="saved-views__name" on:submit=on_submit>
                <TextField id="saved-view-name" label=M::ViewsName value=typed on_input=move |t| typed.set(t) />
                <button type="submit" class="button button--small">{M::ViewsSaveName}</button>
                <button type="button" class="button button--small" on:click=move |_| views.naming.set(Naming::Off)>
                    {M::CommonCancel}
                </button>
            </form>
        </Show>
    }
}
