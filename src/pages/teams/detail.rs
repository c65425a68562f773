//! `/teams/:id`: one team group's members, from the platform's bare-array endpoint.

use gifting_api::enums::Role;
use gifting_api::money::Decimal;
use gifting_api::paths::endpoint;
use gifting_api::rest::{Member, DEFAULT_PER_PAGE};
use gifting_api::scim::full_name;
use leptos::prelude::*;

use crate::api::{use_current_user, use_team_groups};
use crate::components::format;
use crate::components::sort::{by_amount, by_text, Compare};
use crate::components::table::{number, text};
use crate::components::ScreenHeading;
use crate::components::{
    on_not_found, use_by_id, use_page_query, Badge, Column, DataTable, Loaded, NotFound, Pager,
    ShownPage, Tone,
};
use crate::routes;
use crate::spend::cells::{org_figures, MemberShare};
use crate::spend::report::{Band, BudgetRow};

#[component]
pub(crate) fn TeamPage() -> impl IntoView {
    let (raw_id, members) = use_by_id(
        |raw| format!("There is no team group with the id \u{201c}{raw}\u{201d}."),
        |api, id| async move {
            api.get_json::<Vec<Member>>(endpoint::LIST_GROUP_MEMBERS.call(&[&id.to_string()]))
                .await
        },
    );
    // Only for the heading: the members endpoint does not carry the group's name.
    let groups = use_team_groups();
    let team_name = move || groups.name_of(raw_id.get().parse::<u64>().ok()?);
    let heading = move || match team_name() {
        Some(name) => format!("Team: {name}"),
        None => format!("Team group {}", raw_id.get()),
    };

    view! {
        <section class="team" aria-labelledby="team-heading">
            <ScreenHeading back=(routes::TEAMS, "Teams") title=heading id="team-heading" />
            <BudgetSummary raw_id />
            <Loaded resource=members on_error=on_not_found(team_not_found) let:list>
                <MembersTable members=list />
            </Loaded>
        </section>
    }
}

/// The group's budget line this month, from the shared walk ("so far" while it reads): what
/// Teams lists, with the rollover and the one-time budget spelled out.
#[component]
fn BudgetSummary(raw_id: Memo<String>) -> impl IntoView {
    let groups = use_team_groups();
    let figures = org_figures();
    let reading = {
        let figures = figures.clone();
        move || figures.running()
    };
    let line = Memo::new(move |_| {
        let id = raw_id.with(|r| r.parse::<u64>().ok())?;
        let group = groups.get()?.ok()?.into_iter().find(|g| g.id == id)?;
        figures
            .result
            .with(|f| f.report.as_ref().map(|r| r.rows(&[group])))?
            .into_iter()
            .next()
    });
    move || {
        let line = line.get()?;
        let so_far = if reading() { " so far" } else { "" };
        Some(view! { <BudgetFacts line so_far /> })
    }
}

fn usd(amount: Decimal) -> String {
    format::money("USD", &amount.to_string())
}

#[component]
fn BudgetFacts(line: BudgetRow, so_far: &'static str) -> impl IntoView {
    let budgeted = line.percent.is_some();
    let budget = if budgeted || line.budget != Decimal::ZERO {
        usd(line.budget)
    } else {
        "No monthly budget".to_owned()
    };
    let used = line.percent.map_or("—".to_owned(), format::percent);
    let remaining = if budgeted {
        usd(line.remaining)
    } else {
        "—".to_owned()
    };
    let rollover = if line.rollover {
        format!("Yes: {} carried over from last month", usd(line.carried))
    } else {
        "No".to_owned()
    };
    let one_time = Decimal::parse(&line.one_time.to_string()).unwrap_or(Decimal::ZERO);
    let tone = match line.band {
        Band::Under => Tone::Success,
        Band::Near => Tone::Warning,
        Band::Over => Tone::Danger,
        Band::NoBudget => Tone::Neutral,
    };
    view! {
        <dl class="facts budget-facts" data-testid="team-budget" data-band=line.band.key()>
            <dt>"Budget this month"</dt>
            <dd>{budget}</dd>
            <dt>"Spent this month"</dt>
            <dd>{format!("{}{so_far}", usd(line.spend.months[0].usd))}</dd>
            <dt>"Used"</dt>
            <dd>{used}" "<Badge text=line.band.words() tone /></dd>
            <dt>"Remaining"</dt>
            <dd>{remaining}</dd>
            <dt>"Rollover"</dt>
            <dd>{rollover}</dd>
            <dt>"One-time budget"</dt>
            <dd>{format!("{} (not included in this month's budget)", usd(one_time))}</dd>
        </dl>
    }
}

fn team_not_found(message: String) -> AnyView {
    view! {
        <NotFound
            title="No such team group"
            message
            fallback="Team group not found"
            back=(routes::TEAMS, "Back to the teams")
            testid="team-not-found"
            subheading=true
        />
    }
    .into_any()
}

#[rustfmt::skip]
const MEMBER_COLUMNS: &[Column] = &[text("Name").sorts("name"), text("Email").sorts("email"), number("Balance").sorts("balance"), number("Spent this month (share)"), text("Sandbox").sorts("sandbox"), text("Invitation key")];

fn member_order(key: &str) -> Option<Compare<Member>> {
    Some(match key {
        "name" => |a, b| by_text(&member_name(a), &member_name(b)),
        "email" => |a, b| by_text(&a.email, &b.email),
        "balance" => |a, b| by_amount(&a.balance, &b.balance),
        "sandbox" => |a, b| a.sandbox.cmp(&b.sandbox),
        _ => return None,
    })
}

fn member_name(m: &Member) -> String {
    full_name(&m.first_name, &m.last_name)
}

/// The platform sends every member at once (a sales team can be thousands): they are sorted
/// together and shown a page at a time, the page and the sort in the address.
#[component]
fn MembersTable(members: Vec<Member>) -> impl IntoView {
    let total = members.len();
    let count = match total {
        0 => None,
        1 => Some("1 member".to_owned()),
        n => Some(format!("{} members", format::count(n as u64))),
    };
    let paging = use_page_query();
    // The page asked for in the address: the whole list is here, so it is the page shown.
    let shown = Signal::derive(move || {
        let query = paging.get();
        let per_page = query.per_page.unwrap_or(DEFAULT_PER_PAGE);
        Some(ShownPage::new(
            total as u64,
            query.page.unwrap_or(1),
            per_page,
        ))
    });
    let rows = Signal::derive(move || {
        let Some(page) = shown.get() else {
            return 0..0;
        };
        let start = (page.page as usize - 1).saturating_mul(page.per_page as usize);
        start..start.saturating_add(page.per_page as usize)
    });
    view! {
        {count.map(|count| view! { <p class="muted">{count}</p> })}
        <DataTable
            caption="Members of this team group" columns=MEMBER_COLUMNS items=members row=member_row order=member_order
            empty="This team group has no members." rows
        />
        {(total > 0).then(|| view! { <Pager shown /> })}
    }
}

fn member_row(m: Member) -> AnyView {
    let name = member_name(&m);
    let sandbox = if m.sandbox {
        view! { <Badge text="Sandbox" tone=Tone::Warning /> }.into_any()
    } else {
        view! { <span>"No"</span> }.into_any()
    };
    view! {
        <tr>
            <th scope="row">
                <a href=routes::user_with_email(&m.email)>{name.clone()}</a>
            </th>
            <td>{m.email}</td>
            <td class="num">{format::amount(&m.balance)}</td>
            <td class="num" data-testid="member-share">
                <MemberShare member=m.id />
            </td>
            <td>{sandbox}</td>
            <td>
                <KeyToggle key=m.key owner=name />
            </td>
        </tr>
    }
    .into_any()
}

/// The invitation key is for admins alone, whatever the platform answers to other roles: a
/// sender or a manager could otherwise reveal another team's keys and sign up with them. It is
/// shown only once /me says admin (a failed /me or an unknown role is not enough).
#[component]
fn KeyToggle(key: String, owner: String) -> impl IntoView {
    let me = use_current_user();
    let admin = move || me.with(|me| matches!(me, Some(Ok(me)) if me.role == Role::Admin));
    move || {
        if key.is_empty() {
            view! { <span class="muted">"None"</span> }.into_any()
        } else if admin() {
            view! { <KeyReveal key=key.clone() owner=owner.clone() /> }.into_any()
        } else {
            view! { <span class="muted">"Admins only"</span> }.into_any()
        }
    }
}

/// The invitation key stays out of the page (and out of screenshots) until asked for.
#[component]
fn KeyReveal(key: String, owner: String) -> impl IntoView {
    let shown = RwSignal::new(false);
    let label = move || {
        let verb = if shown.get() { "Hide" } else { "Show" };
        format!("{verb} invitation key of {owner}")
    };
    view! {
        <span class="key-toggle">
            <button
                type="button"
                class="button button--small"
                aria-label=label
                on:click=move |_| shown.update(|s| *s = !*s)
            >
                {move || if shown.get() { "Hide" } else { "Show" }}
            </button>
            {move || shown.get().then(|| view! { <code class="key-toggle__key">{key.clone()}</code> })}
        </span>
    }
}
