//! `/users`: the SCIM users, paged through the address bar, with a checkbox per row for bulk
//! changes. A search or a filter lists the matching users from the directory instead.

use gifting_api::paths::endpoint;
use gifting_api::rest::DEFAULT_PER_PAGE;
use gifting_api::scim::{ListResponse, ScimUser};
use leptos::either::Either;
use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_navigate, use_query_map};
use leptos_router::NavigateOptions;

use super::access::ScimLoaded;
use super::bulk::{AllMatching, Picked, Selection};
use super::bulk_panel::{BulkPanel, Listed};
use super::finder::{DirectoryStatus, Found, UserFilters};
use super::paging::{showing_text, ScimPaging};
use super::present::{display_name, status_badge, user_href};
use super::search::{self, UserSearch};
use crate::api::use_team_groups;
use crate::api::{use_api, ApiClient, ApiError};
use crate::components::sort::{by_text, use_table_sort, Compare};
use crate::components::table::text;
use crate::components::{remember_last_filters, SavedViews, ScreenHeading};
use crate::components::{remembered_page_size, Column, DataTable, PagerLinks, PagerNav};
use crate::components::{Choosable, ColumnChooser, Columns};
use crate::i18n::{live_text, msg, t, M};
use crate::routes;

#[component]
pub(crate) fn UsersPage() -> impl IntoView {
    remember_last_filters("users", &search::KEYS);
    let query = use_query_map();
    let path = use_location().pathname;
    let paging = Memo::new(move |_| {
        let remembered = path.with(|p| remembered_page_size(p));
        query.with(|q| ScimPaging::from_query(q, remembered))
    });
    let search = Memo::new(move |_| {
        query.with(|q| UserSearch::from_lookup(|key| q.get_str(key).map(str::to_owned)))
    });
    let by_directory = Memo::new(move |_| search.with(UserSearch::is_active));
    let users = platform_page(use_api(), paging);
    let groups = use_team_groups();
    let columns = Columns::new("users", USER_CHOOSABLE);
    let selection: Selection = RwSignal::new(Default::default());
    let matching = RwSignal::new(None::<AllMatching>);
    // "Select all N users" holds for the list it was offered on: another search clears it,
    // so the rows of the new list are not shown as chosen and no run acts on the old list.
    // The filters clear it as they change the address; this covers back, forward and links,
    // a frame later, once the list that offered it is gone (a signal set while the list is
    // swapped reaches the rows being dropped).
    Effect::new(move |_| {
        let email = paging.with(|p| p.email.clone());
        let searching = by_directory.get();
        if matching.with_untracked(|m| m.as_ref().is_some_and(|m| m.email != email || searching)) {
            request_animation_frame(move || {
                matching.try_set(None);
            });
        }
    });
    // Every user the platform's list matches can be chosen at once; the directory's search
    // chooses with the rows' own checkboxes.
    let listed = Signal::derive(move || {
        if by_directory.get() {
            return None;
        }
        let loaded = users.get()?.ok()?;
        Some(Listed {
            email: loaded.0.email.clone(),
            total: loaded.1.total_results,
            page_ids: loaded.1.resources.iter().map(|u| u.id.clone()).collect(),
        })
    });
    // Without the admin right there is nothing to search or change: only the explanation.
    let forbidden =
        Memo::new(move |_| matches!(users.get(), Some(Err(ApiError::Forbidden { .. }))));
    // Without the right, the platform's answer explains it, whatever the address asks.
    let list = move || {
        if by_directory.get() && !forbidden.get() {
            Either::Left(view! { <DirectoryList search paging selection matching columns /> })
        } else {
            Either::Right(view! { <PlatformList users paging selection matching columns /> })
        }
    };

    view! {
        <section class="users" aria-labelledby="users-heading">
            <div class="page-head">
                <ScreenHeading title=M::UsersTitle id="users-heading" />
                <Show when=move || !forbidden.get()>
                    <a class="button button--primary" href=routes::NEW_USER>{M::UsersAdd}</a>
                    <a class="button" href=routes::IMPORT_USERS>{M::UsersImport}</a>
                    <SavedViews list="users" keys=&search::KEYS />
                    <ColumnChooser columns />
                </Show>
            </div>
            <Show when=move || !forbidden.get()>
                <UserFilters search groups on_change=Callback::new(move |()| matching.set(None)) />
                <EmailNote paging />
                <BulkPanel selection matching listed groups on_done=Callback::new(move |()| users.refetch()) />
            </Show>
            {list}
        </section>
    }
}

/// The platform's page of the list. The answer travels with the paging it answers, so while
/// the next page loads the table, the range and the links all still describe the page on
/// screen. What the directory's search keeps in the address is not part of it: typing a
/// search asks the platform for nothing.
fn platform_page(
    api: ApiClient,
    paging: Memo<ScimPaging>,
) -> LocalResource<Result<(ScimPaging, ListResponse), ApiError>> {
    let asked = Memo::new(move |_| ScimPaging {
        kept: Vec::new(),
        ..paging.get()
    });
    LocalResource::new(move || {
        let asked = asked.get();
        async move {
            let call = endpoint::LIST_SCIM_USERS
                .call(&[])
                .query(&asked.request_query());
            let list = api.get_json::<ListResponse>(call).await?;
            Ok((asked, list))
        }
    })
}

/// The users answered by the platform: its page of the list, or the one user an `?email=`
/// address names.
#[component]
fn PlatformList(
    users: LocalResource<Result<(ScimPaging, ListResponse), ApiError>>,
    paging: Memo<ScimPaging>,
    selection: Selection,
    matching: RwSignal<Option<AllMatching>>,
    columns: Columns,
) -> impl IntoView {
    view! {
        <ScimLoaded resource=users let:loaded>
            <UsersTable
                users=loaded.1.resources.clone()
                empty=empty_text(&loaded.0, loaded.1.total_results)
                sorted_within=M::UsersSortedPage
                selection
                matching
                columns
            />
        </ScimLoaded>
        // Outside the rows' loading boundary: mounted once, it keeps its focus across pages.
        <ScimPager shown=shown_window(users) paging />
    }
}

/// The directory's users that match the search, sorted across all of them, paged by the
/// address like the platform's list.
#[component]
fn DirectoryList(
    search: Memo<UserSearch>,
    paging: Memo<ScimPaging>,
    selection: Selection,
    matching: RwSignal<Option<AllMatching>>,
    columns: Columns,
) -> impl IntoView {
    let found = Found::new(search);
    let sort = use_table_sort();
    let shown = Memo::new(move |_| {
        found.read.get().then(|| {
            let total = found.users.with(Vec::len) as u64;
            paging.with(|p| ShownWindow {
                paging: p.clone(),
                total,
                shown: total.saturating_sub(p.start_index - 1).min(p.count),
            })
        })
    });
    let rows = move || {
        found.read.get().then(|| {
            let mut users = found.users.get();
            sort.with(|s| s.apply(&mut users, user_order));
            let start = paging.with(|p| p.start_index - 1) as usize;
            let count = paging.with(|p| p.count) as usize;
            let page: Vec<ScimUser> = users.into_iter().skip(start).take(count).collect();
            view! {
                <UsersTable
                    users=page
                    empty=M::UsersNoMatch
                    sorted_within=M::UsersSortedSearch
                    selection
                    matching
                    columns
                />
            }
        })
    };
    view! {
        <DirectoryStatus found />
        {rows}
        <ScimPager shown paging />
    }
}

/// "Only the user with the email …", with the way back to everyone, for an `?email=` address
/// (Teams links to a member that way).
#[component]
fn EmailNote(paging: Memo<ScimPaging>) -> impl IntoView {
    move || {
        paging.with(|p| {
            p.email.clone().map(|email| {
                let href = p.search_href("");
                view! {
                    <p class="muted">
                        {live_text(move || msg::users_email_only(&email))}
                        " "
                        <a class="search__clear" href=href>{M::UsersShowAll}</a>
                    </p>
                }
            })
        })
    }
}

/// What the platform's list says when it shows no one (in the language shown).
fn empty_text(paging: &ScimPaging, total: u64) -> Signal<String> {
    let email = paging.email.clone();
    Signal::derive(move || match &email {
        Some(email) => msg::users_no_email_match(email),
        None if total > 0 => t(M::UsersPageEmpty).to_owned(),
        None => t(M::UsersNoneYet).to_owned(),
    })
}

#[rustfmt::skip]
const USER_COLUMNS: &[Column] = &[text(M::UsersName).sorts("name"), text(M::UsersEmail).sorts("email"), text(M::UsersRole).sorts("role"), text(M::UsersTeam).sorts("team"), text(M::UsersStatus).sorts("status")];

/// The columns after the name (which names each row, and stays first) the admin can show,
/// hide and move: [`USER_COLUMNS`] from the second on, under their sort keys.
const USER_CHOOSABLE: &[Choosable] = &[
    Choosable {
        key: "email",
        label: M::UsersEmail,
    },
    Choosable {
        key: "role",
        label: M::UsersRole,
    },
    Choosable {
        key: "team",
        label: M::UsersTeam,
    },
    Choosable {
        key: "status",
        label: M::UsersStatus,
    },
];

fn user_order(key: &str) -> Option<Compare<ScimUser>> {
    Some(match key {
        "name" => |a, b| by_text(&display_name(a), &display_name(b)),
        "email" => |a, b| by_text(&a.user_name, &b.user_name),
        "role" => |a, b| by_text(&a.user_type.to_string(), &b.user_type.to_string()),
        "team" => |a, b| by_text(&a.division, &b.division),
        // Active first, as the status reads "Active" before "Deactivated".
        "status" => |a, b| b.active.cmp(&a.active),
        _ => return None,
    })
}

#[component]
fn UsersTable(
    users: Vec<ScimUser>,
    /// What the table says when there is no one to show.
    #[prop(into)]
    empty: Signal<String>,
    /// What a column's sort covers.
    sorted_within: M,
    selection: Selection,
    matching: RwSignal<Option<AllMatching>>,
    columns: Columns,
) -> impl IntoView {
    let on_page: Vec<(String, Picked)> = users
        .iter()
        .map(|u| (u.id.clone(), Picked::of(u)))
        .collect();
    move || {
        let shown = columns.shown.get();
        let header: Vec<Column> = std::iter::once(USER_COLUMNS[0])
            .chain(
                shown
                    .iter()
                    .filter_map(|i| USER_COLUMNS.get(i + 1).copied()),
            )
            .collect();
        let on_page = on_page.clone();
        let lead = view! { <SelectAll on_page selection matching /> }.into_any();
        let row = move |user| {
            view! { <UserRow user selection matching shown=shown.clone() /> }.into_any()
        };
        view! {
            <DataTable
                caption=M::UsersTableCaption hidden_caption=true columns=header items=users.clone() row order=user_order
                empty sorted_within class="data-table users-table" lead
            />
        }
    }
}

/// The header's checkbox: every user on this page in or out of the selection.
#[component]
fn SelectAll(
    on_page: Vec<(String, Picked)>,
    selection: Selection,
    matching: RwSignal<Option<AllMatching>>,
) -> impl IntoView {
    let page_ids: Vec<String> = on_page.iter().map(|(id, _)| id.clone()).collect();
    let all_checked = move || {
        matching.with(Option::is_some)
            || selection.with(|s| page_ids.iter().all(|id| s.contains_key(id)))
    };
    let toggle_all = move |ev: leptos::ev::Event| {
        let checked = event_target_checked(&ev);
        // A change by hand ends "every matching user".
        matching.set(None);
        selection.update(|s| {
            for (id, picked) in &on_page {
                if checked {
                    s.insert(id.clone(), picked.clone());
                } else {
                    s.remove(id);
                }
            }
        });
    };
    view! {
        <th scope="col" class="select-cell">
            <input
                type="checkbox"
                aria-label=M::UsersSelectPage
                prop:checked=all_checked
                on:change=toggle_all
            />
        </th>
    }
}

#[component]
fn UserRow(
    user: ScimUser,
    selection: Selection,
    matching: RwSignal<Option<AllMatching>>,
    /// The columns after the name, as indices into [`USER_CHOOSABLE`], in order.
    shown: Vec<usize>,
) -> impl IntoView {
    let navigate = use_navigate();
    let href = user_href(&user.id);
    let name = display_name(&user);
    let label_name = name.clone();
    let picked = Picked::of(&user);
    let id = user.id.clone();
    let id_for_check = id.clone();
    let checked = Signal::derive(move || {
        matching.with(Option::is_some) || selection.with(|s| s.contains_key(&id_for_check))
    });
    let on_check = move |ev: leptos::ev::Event| {
        let on = event_target_checked(&ev);
        matching.set(None);
        selection.update(|s| {
            if on {
                s.insert(id.clone(), picked.clone());
            } else {
                s.remove(&id);
            }
        });
    };
    // A click anywhere on the row opens the user, except on its own controls.
    let row_href = href.clone();
    let on_row_click = move |ev: leptos::ev::MouseEvent| {
        let on_control = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .and_then(|el| el.closest("a, input, button, label, select").ok().flatten())
            .is_some();
        if !on_control {
            navigate(&row_href, NavigateOptions::default());
        }
    };
    view! {
        <tr class="clickable-row" class:is-selected=checked on:click=on_row_click>
            <td class="select-cell">
                <input
                    type="checkbox"
                    aria-label=move || msg::users_select_user(&label_name)
                    prop:checked=checked
                    on:change=on_check
                />
            </td>
            <th scope="row">
                <a href=href translate="no">{name}</a>
            </th>
            {shown.into_iter().map(|i| user_cell(&user, USER_CHOOSABLE[i].key)).collect_view()}
        </tr>
    }
}

/// The cell of the column under `key` in `user`'s row.
fn user_cell(user: &ScimUser, key: &str) -> AnyView {
    match key {
        "email" => view! { <td translate="no">{user.user_name.clone()}</td> }.into_any(),
        "role" => view! { <td translate="no">{user.user_type.to_string()}</td> }.into_any(),
        "team" => {
            let team = if user.division.is_empty() {
                "—".to_owned()
            } else {
                user.division.clone()
            };
            view! { <td translate="no">{team}</td> }.into_any()
        }
        _ => view! { <td>{status_badge(user.active)}</td> }.into_any(),
    }
}

/// The window of the SCIM list on screen: the paging it answers, the total and the rows shown.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ShownWindow {
    paging: ScimPaging,
    total: u64,
    shown: u64,
}

/// The [`ShownWindow`] of the latest answer, kept while the next one loads (the resource keeps
/// it) so the pager describes the rows on screen; `None` before the first and after a failure.
fn shown_window(
    users: LocalResource<Result<(ScimPaging, ListResponse), ApiError>>,
) -> Memo<Option<ShownWindow>> {
    Memo::new(move |_| {
        users
            .map(|r| {
                r.as_ref().ok().map(|(paging, list)| ShownWindow {
                    paging: paging.clone(),
                    total: list.total_results,
                    shown: list.resources.len() as u64,
                })
            })
            .flatten()
    })
}

fn scim_links(window: &ShownWindow) -> PagerLinks {
    let ShownWindow {
        paging: p,
        total,
        shown,
    } = window;
    let link = |start: Option<u64>| {
        start
            .filter(|&s| s != p.start_index)
            .map(|s| p.href(s, p.count))
    };
    PagerLinks {
        summary: showing_text(p.start_index, *shown, *total),
        position: p.position_text(*total),
        first: link(Some(1)),
        previous: link(p.previous_start()),
        next: link(p.next_start(*total)),
        last: link(Some(p.last_start(*total))),
        size: u32::try_from(p.count).unwrap_or(DEFAULT_PER_PAGE),
    }
}

/// The SCIM list's pager: windows by `startIndex`, sizes by `count`. Mount it once, beside the
/// rows' loading boundary.
#[component]
fn ScimPager(
    shown: Memo<Option<ShownWindow>>,
    /// What the address asks for, used for a size change before any answer.
    paging: Memo<ScimPaging>,
) -> impl IntoView {
    let links = Memo::new(move |_| shown.with(|w| w.as_ref().map(scim_links)));
    let size_href = Callback::new(move |count: u32| {
        let p = shown
            .with_untracked(|w| w.as_ref().map(|w| w.paging.clone()))
            .unwrap_or_else(|| paging.get_untracked());
        let count = u64::from(count);
        p.href(p.start_for_count(count), count)
    });
    view! {
        <PagerNav
            links
            size_href
            label=M::UsersPages
            summary_testid="users-showing"
        />
    }
}
