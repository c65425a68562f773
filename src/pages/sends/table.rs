//! The sends table: one row per send, each expandable to its status history.

use gifting_api::rest::{Send, StatusGroup, StatusUpdate};
use gifting_api::SendStatus;
use leptos::prelude::*;

use crate::browser::after_paint;
use crate::components::format::{date_time, money};
use crate::components::sort::{by_money, by_text, by_time, use_table_sort, Compare, SortHeader};
use crate::components::{Badge, Choosable, SortNote, Tone};
use crate::i18n::{msg, M};
use crate::routes;

/// The colour family of a status group (the badge's text always says the status itself).
pub(crate) fn tone(group: StatusGroup) -> Tone {
    match group {
        StatusGroup::InProgress => Tone::Info,
        StatusGroup::DeliveredOrUsed => Tone::Success,
        StatusGroup::Problem => Tone::Danger,
        StatusGroup::MoneyReturned => Tone::Warning,
        StatusGroup::Other => Tone::Neutral,
    }
}

/// A status group in the console's words (the CSV export keeps `StatusGroup::label`).
pub(crate) fn group_label(group: StatusGroup) -> M {
    match group {
        StatusGroup::InProgress => M::SendsGroupInProgress,
        StatusGroup::DeliveredOrUsed => M::SendsGroupDelivered,
        StatusGroup::Problem => M::SendsGroupProblem,
        StatusGroup::MoneyReturned => M::SendsGroupReturned,
        StatusGroup::Other => M::SendsGroupOther,
    }
}

/// A send's status as a badge, as the platform wrote it, with its group in words beside it.
#[component]
pub(crate) fn StatusBadge(status: SendStatus) -> impl IntoView {
    let group = status.group();
    view! {
        <span class="send-status" data-group=group.slug()>
            <Badge attr:translate="no" text=status.to_string() tone=tone(group) />
            <span class="send-status__group">{group_label(group)}</span>
        </span>
    }
}

/// The columns the admin can show, hide and move (the history's button stays first); their
/// keys are their sort keys too.
pub(crate) const SEND_COLUMNS: &[Choosable] = &[
    Choosable {
        key: "created",
        label: M::SendsColCreated,
    },
    Choosable {
        key: "recipient",
        label: M::SendsColRecipient,
    },
    Choosable {
        key: "sender",
        label: M::SendsColSender,
    },
    Choosable {
        key: "campaign",
        label: M::SendsColCampaign,
    },
    Choosable {
        key: "type",
        label: M::SendsColType,
    },
    Choosable {
        key: "status",
        label: M::SendsColStatus,
    },
    Choosable {
        key: "cost",
        label: M::SendsColCost,
    },
];

/// A header's classes: its width (the table's layout is fixed), and numbers to the right.
fn header_class(key: &str) -> Option<&'static str> {
    match key {
        "created" => Some("col-created"),
        "status" => Some("col-status"),
        "cost" => Some("num col-cost"),
        _ => None,
    }
}

pub(crate) fn send_order(key: &str) -> Option<Compare<Send>> {
    Some(match key {
        "created" => |a, b| by_time(&a.created_at, &b.created_at),
        "recipient" => |a, b| by_text(&a.recipient.name, &b.recipient.name),
        "sender" => |a, b| by_text(&a.sender.name, &b.sender.name),
        "campaign" => |a, b| by_text(&a.touch.name, &b.touch.name),
        "type" => |a, b| by_text(&a.kind.to_string(), &b.kind.to_string()),
        "status" => |a, b| by_text(&a.status.to_string(), &b.status.to_string()),
        "cost" => |a, b| {
            by_money(
                (&a.currency, &a.current_total_cost),
                (&b.currency, &b.current_total_cost),
            )
        },
        _ => return None,
    })
}

/// Rows drawn in the first frame of a page: about a screenful, and every row of a page of the
/// default size (25).
const FIRST_ROWS: usize = 25;

#[component]
pub(crate) fn SendsTable(
    sends: Vec<Send>,
    /// Read by screen readers before the table, e.g. "Sends, newest first".
    caption: M,
    /// The sends come in the address's order already, sorted across every loaded send (not
    /// only these): the table shows them as they are.
    #[prop(optional)]
    presorted: bool,
    /// The columns shown, as indices into [`SEND_COLUMNS`], in order.
    columns: Memo<Vec<usize>>,
) -> impl IntoView {
    let sort = use_table_sort();
    // A page longer than a screen draws its first screen of rows in the frame that shows the
    // page, and the rest in the next: the new page's first rows are painted without first
    // laying out rows nobody sees yet.
    let rest_drawn = RwSignal::new(sends.len() <= FIRST_ROWS);
    if !rest_drawn.get_untracked() {
        after_paint(move || {
            rest_drawn.try_set(true);
        });
    }
    // Only the body follows the sort: the header (and the focused link in it) stays.
    let rows = move || {
        let shown = columns.get();
        let mut sends = sends.clone();
        if !presorted {
            sort.try_with(|s| s.apply(&mut sends, send_order));
        }
        let rest = sends.split_off(FIRST_ROWS.min(sends.len()));
        let row = move |send| view! { <SendRow send shown=shown.clone() /> };
        let row_rest = row.clone();
        let first = sends.into_iter().map(row).collect_view();
        let rest = move || {
            rest_drawn.get().then(|| {
                rest.clone()
                    .into_iter()
                    .map(row_rest.clone())
                    .collect_view()
            })
        };
        (first, rest)
    };
    view! {
        <SortNote note=if presorted { M::SendsSortedLoaded } else { M::SendsSortedShown } />
        <div class="table-wrap">
            <table class="sends-table" data-testid="sends-table">
                <caption class="visually-hidden">{caption}</caption>
                <thead>
                    <tr>
                        <th scope="col">
                            <span class="visually-hidden">{M::SendsStatusHistory}</span>
                        </th>
                        {move || {
                            columns
                                .get()
                                .into_iter()
                                .map(|i| {
                                    let Choosable { key, label } = SEND_COLUMNS[i];
                                    view! { <SortHeader label key class=header_class(key) /> }
                                })
                                .collect_view()
                        }}
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

/// One line per send: each cell's second fact (company, team, subtype, status group) follows
/// in small print and is cut at the cell's edge; the cell's title and the row's history say
/// it whole.
#[component]
fn SendRow(
    send: Send,
    /// The columns shown, as indices into [`SEND_COLUMNS`], in order.
    shown: Vec<usize>,
) -> impl IntoView {
    let expanded = RwSignal::new(false);
    let history_id = format!("send-history-{}", send.id);
    let (id, sender_id) = (send.id, send.sender.id);
    let (mut cells, history) = Cells::of(send);
    // The visible "History" first, so a voice command saying it finds the button.
    let recipient = cells.recipient.0.clone();
    let history_label = move || msg::sends_history_of(&recipient);
    let history = StoredValue::new(history);
    let controls = history_id.clone();
    let colspan = (shown.len() + 1).to_string();
    let cells = shown
        .into_iter()
        .map(|i| cells.cell(SEND_COLUMNS[i].key))
        .collect_view();
    // Few elements per row: a page of 100 rows is styled, laid out and painted in one frame.
    view! {
        <tr data-send-id=id.to_string() data-sender-id=sender_id.to_string()>
            <td>
                <button
                    type="button"
                    class="disclosure"
                    aria-label=history_label
                    aria-expanded=move || expanded.get().to_string()
                    aria-controls=move || expanded.get().then(|| controls.clone())
                    on:click=move |_| expanded.update(|open| *open = !*open)
                >
                    {M::SendsHistory}
                </button>
            </td>
            {cells}
        </tr>
        // Built only while open: a page of 100 rows stays 100 rows.
        <Show when=move || expanded.get()>
            <tr id=history_id.clone() class="history-row">
                <td colspan=colspan.clone()>
                    {history.with_value(|h| view! { <Timeline history=h.clone() /> })}
                </td>
            </tr>
        </Show>
    }
}

/// What a send's row shows, cell by cell; each cell takes its texts (a column shows once).
struct Cells {
    created_at: String,
    /// The recipient and the sender in full, for their cells' titles.
    to: String,
    from: String,
    /// Name and company; name and team (the platform's data).
    recipient: (String, String),
    sender: (String, String),
    touch: (u64, String),
    /// The type and its subtype.
    kind: (String, String),
    status: SendStatus,
    cost: String,
}

impl Cells {
    /// A send's cells, and what its history shows.
    fn of(send: Send) -> (Cells, History) {
        let Send {
            send_gid,
            kind,
            subtype,
            currency,
            current_total_cost,
            status,
            created_at,
            touch,
            recipient,
            sender,
            sent_via,
            status_updates,
            ..
        } = send;
        let to = joined(&[&recipient.name, &recipient.email, &recipient.company_name]);
        let from = joined(&[&sender.name, &sender.email, &sender.team_name]);
        let history = History {
            updates: status_updates,
            gid: send_gid,
            via: sent_via,
            to: to.clone(),
            from: from.clone(),
        };
        let cells = Cells {
            created_at,
            to,
            from,
            recipient: (recipient.name, recipient.company_name),
            sender: (sender.name, sender.team_name),
            touch: (touch.id, touch.name),
            kind: (kind.to_string(), subtype.to_string()),
            status,
            cost: money(&currency, &current_total_cost),
        };
        (cells, history)
    }

    /// The cell of the column under `key`.
    fn cell(&mut self, key: &str) -> AnyView {
        use std::mem::take;
        match key {
            "created" => {
                let at = take(&mut self.created_at);
                view! { <td><time datetime=at.clone()>{date_time(&at)}</time></td> }.into_any()
            }
            "recipient" => {
                let (name, company) = take(&mut self.recipient);
                view! { <td title=take(&mut self.to) translate="no">{name} <Sub text=company /></td> }
                    .into_any()
            }
            "sender" => {
                let (name, team) = take(&mut self.sender);
                view! { <td title=take(&mut self.from) translate="no">{name} <Sub text=team /></td> }
                    .into_any()
            }
            "campaign" => {
                let (id, name) = take(&mut self.touch);
                let title = name.clone();
                view! {
                    <td title=title translate="no">
                        <a href=routes::campaign(id)>{name}</a>
                    </td>
                }
                .into_any()
            }
            "type" => {
                let (kind, subtype) = take(&mut self.kind);
                let title = format!("{kind}: {subtype}");
                view! { <td title=title translate="no">{kind} <Sub text=subtype /></td> }.into_any()
            }
            "status" => view! { <td><StatusBadge status=self.status.clone() /></td> }.into_any(),
            _ => view! { <td class="num">{take(&mut self.cost)}</td> }.into_any(),
        }
    }
}

/// A cell's second fact in small print; nothing when the platform left it empty.
#[component]
fn Sub(text: String) -> impl IntoView {
    (!text.is_empty()).then(|| view! { <span class="cell-sub">{text}</span> })
}

/// The parts that are not empty, joined with commas.
fn joined(parts: &[&str]) -> String {
    parts
        .iter()
        .filter(|p| !p.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a send's history shows: its status changes, its gid, how it was sent, and who sent
/// it to whom in full (the row cuts them short).
#[derive(Clone)]
struct History {
    updates: Vec<StatusUpdate>,
    gid: String,
    via: String,
    to: String,
    from: String,
}

/// Stands for the gid in the history's sentence, which is then cut there to show it as code.
const GID_MARK: &str = "\u{1}";

/// "Send <code>snd_1</code>, sent via web. To …; from …." in the chosen language.
fn history_meta(history: &History) -> impl IntoView {
    let History {
        gid, via, to, from, ..
    } = history.clone();
    move || {
        let text = msg::sends_history_meta(GID_MARK, &via, &to, &from);
        let (before, after) = text.split_once(GID_MARK).unwrap_or((&text, ""));
        let (before, after) = (before.to_owned(), after.to_owned());
        view! { {before} <code translate="no">{gid.clone()}</code> {after} }
    }
}

/// A send's status changes, oldest first, with their times.
#[component]
fn Timeline(history: History) -> impl IntoView {
    let meta = history_meta(&history);
    let updates = history.updates;
    let items = if updates.is_empty() {
        view! { <li>{M::SendsNoStatusChanges}</li> }.into_any()
    } else {
        updates
            .into_iter()
            .map(|update| {
                view! {
                    <li class="timeline__item">
                        <time datetime=update.occurred_at.clone()>
                            {date_time(&update.occurred_at)}
                        </time>
                        <StatusBadge status=update.status />
                    </li>
                }
            })
            .collect_view()
            .into_any()
    };
    view! {
        <div class="send-history">
            <p class="send-history__meta">{meta}</p>
            <ol class="timeline" aria-label=M::SendsStatusHistory>
                {items}
            </ol>
        </div>
    }
}
