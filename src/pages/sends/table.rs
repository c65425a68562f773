//! The sends table: one row per send, each expandable to its status history.

use gifting_api::rest::{Send, StatusGroup, StatusUpdate};
use gifting_api::SendStatus;
use leptos::prelude::*;

use crate::browser::after_paint;
use crate::components::format::{date_time, money};
use crate::components::sort::{by_money, by_text, by_time, use_table_sort, Compare, SortHeader};
use crate::components::{Badge, SortNote, Tone};
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

/// A send's status as a badge, with its group in words beside it.
#[component]
pub(crate) fn StatusBadge(status: SendStatus) -> impl IntoView {
    let group = status.group();
    view! {
        <span class="send-status" data-group=group.slug()>
            <Badge text=status.to_string() tone=tone(group) />
            <span class="send-status__group">{group.label()}</span>
        </span>
    }
}

const COLUMNS: usize = 8;

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
    #[prop(into)]
    caption: String,
    /// The sends come in the address's order already, sorted across every loaded send (not
    /// only these): the table shows them as they are.
    #[prop(optional)]
    presorted: bool,
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
        let mut sends = sends.clone();
        if !presorted {
            sort.try_with(|s| s.apply(&mut sends, send_order));
        }
        let rest = sends.split_off(FIRST_ROWS.min(sends.len()));
        let row = |send| view! { <SendRow send /> };
        let first = sends.into_iter().map(row).collect_view();
        let rest = move || {
            rest_drawn
                .get()
                .then(|| rest.clone().into_iter().map(row).collect_view())
        };
        (first, rest)
    };
    view! {
        <SortNote note=if presorted {
            "Sorted across the loaded sends listed here; the platform lists sends newest first."
        } else {
            "Sorted within the sends shown here; the platform lists sends newest first."
        } />
        <div class="table-wrap">
            <table class="sends-table" data-testid="sends-table">
                <caption class="visually-hidden">{caption}</caption>
                <thead>
                    <tr>
                        <th scope="col">
                            <span class="visually-hidden">"Status history"</span>
                        </th>
                        <SortHeader label="Created" key="created" />
                        <SortHeader label="Recipient" key="recipient" />
                        <SortHeader label="Sender" key="sender" />
                        <SortHeader label="Campaign" key="campaign" />
                        <SortHeader label="Type" key="type" />
                        <SortHeader label="Status" key="status" />
                        <SortHeader label="Cost" key="cost" class=Some("num") />
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
fn SendRow(send: Send) -> impl IntoView {
    let expanded = RwSignal::new(false);
    let history_id = format!("send-history-{}", send.id);
    let Send {
        id,
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
    } = send;
    // The visible "History" first, so a voice command saying it finds the button.
    let history_label = format!("History of the send to {}", recipient.name);
    let to = joined(&[&recipient.name, &recipient.email, &recipient.company_name]);
    let from = joined(&[&sender.name, &sender.email, &sender.team_name]);
    let parties = format!("To {to}; from {from}.");
    let history = StoredValue::new((status_updates, send_gid, sent_via, parties));
    let controls = history_id.clone();
    let (kind, subtype) = (kind.to_string(), subtype.to_string());
    // Built before the view: it moves the cells' texts.
    let kind_title = format!("{kind}: {subtype}");
    let campaign_title = touch.name.clone();
    // Few elements per row: a page of 100 rows is styled, laid out and painted in one frame.
    view! {
        <tr data-send-id=id.to_string() data-sender-id=sender.id.to_string()>
            <td>
                <button
                    type="button"
                    class="disclosure"
                    aria-label=history_label
                    aria-expanded=move || expanded.get().to_string()
                    aria-controls=move || expanded.get().then(|| controls.clone())
                    on:click=move |_| expanded.update(|open| *open = !*open)
                >
                    "History"
                </button>
            </td>
            <td>
                <time datetime=created_at.clone()>{date_time(&created_at)}</time>
            </td>
            <td title=to>{recipient.name} <Sub text=recipient.company_name /></td>
            <td title=from>{sender.name} <Sub text=sender.team_name /></td>
            <td title=campaign_title>
                <a href=routes::campaign(touch.id)>{touch.name}</a>
            </td>
            <td title=kind_title>{kind} <Sub text=subtype /></td>
            <td>
                <StatusBadge status />
            </td>
            <td class="num">{money(&currency, &current_total_cost)}</td>
        </tr>
        // Built only while open: a page of 100 rows stays 100 rows.
        <Show when=move || expanded.get()>
            <tr id=history_id.clone() class="history-row">
                <td colspan=COLUMNS.to_string()>
                    {history
                        .with_value(|(updates, gid, via, parties)| {
                            view! {
                                <Timeline
                                    updates=updates.clone()
                                    gid=gid.clone()
                                    via=via.clone()
                                    parties=parties.clone()
                                />
                            }
                        })}
                </td>
            </tr>
        </Show>
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

/// A send's status changes, oldest first, with their times.
#[component]
fn Timeline(
    updates: Vec<StatusUpdate>,
    gid: String,
    via: String,
    /// Who sent it to whom, in full: the row cuts them short.
    parties: String,
) -> impl IntoView {
    let items = if updates.is_empty() {
        view! { <li>"No status changes recorded."</li> }.into_any()
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
            <p class="send-history__meta">
                "Send " <code>{gid}</code> ", sent via " {via} ". " {parties}
            </p>
            <ol class="timeline" aria-label="Status history">
                {items}
            </ol>
        </div>
    }
}
