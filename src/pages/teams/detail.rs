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
    on_not_found, use_by_id, use_page_query, Column, DataTable, Loaded, NotFound, Pager, ShownPage,
    Tone,
};
use crate::i18n::{live_text, msg, t, M};
use crate::routes;
use crate::spend::cells::{org_figures, MemberShare};
use crate::spend::report::{Band, BudgetRow};

#[component]
pub(crate) fn TeamPage() -> impl IntoView {
    let (raw_id, members) = use_by_id(msg::teams_not_an_id, |api, id| async move {
        api.get_json::<Vec<Member>>(endpoint::LIST_GROUP_MEMBERS.call(&[&id.to_string()]))
            .await
    });
    // Only for the heading: the members endpoint does not carry the group's name.
    let groups = use_team_groups();
    let team_name = move || groups.name_of(raw_id.get().parse::<u64>().ok()?);
    let heading = move || match team_name() {
        Some(name) => msg::teams_team_heading(&name),
        None => msg::teams_group_heading(&raw_id.get()),
    };

    view! {
        <section class="team" aria-labelledby="team-heading">
            <ScreenHeading back=(routes::TEAMS, M::TeamsTitle) title=heading id="team-heading" />
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
        let reading = reading();
        Some(view! { <BudgetFacts line reading /> })
    }
}

fn usd(amount: Decimal) -> String {
    format::money("USD", &amount.to_string())
}

/// The budget line's facts; `reading`: the walk is still reading, the spend is "so far".
#[component]
fn BudgetFacts(line: BudgetRow, reading: bool) -> impl IntoView {
    let budgeted = line.percent.is_some();
    let (amount, remaining, carried) = (line.budget, line.remaining, line.carried);
    let budget = move || {
        if budgeted || amount != Decimal::ZERO {
            usd(amount)
        } else {
            t(M::SpendBandNone).to_owned()
        }
    };
    let percent = line.percent;
    let used = move || percent.map_or("—".to_owned(), format::percent);
    let remaining = move || {
        if budgeted {
            usd(remaining)
        } else {
            "—".to_owned()
        }
    };
    let rollover = line.rollover;
    let rollover = move || {
        if rollover {
            msg::teams_rollover_yes(&usd(carried))
        } else {
            t(M::TeamsNo).to_owned()
        }
    };
    let one_time = Decimal::parse(&line.one_time.to_string()).unwrap_or(Decimal::ZERO);
    let spent = line.spend.months[0].usd;
    let spent = move || {
        if reading {
            msg::spend_so_far(&usd(spent))
        } else {
            usd(spent)
        }
    };
    let tone = match line.band {
        Band::Under => Tone::Success,
        Band::Near => Tone::Warning,
        Band::Over => Tone::Danger,
        Band::NoBudget => Tone::Neutral,
    };
    view! {
        <dl class="facts budget-facts" data-testid="team-budget" data-band=line.band.key()>
            <dt>{M::TeamsBudgetThisMonth}</dt>
            <dd>{budget}</dd>
            <dt>{M::TeamsSpentThisMonth}</dt>
            <dd>{spent}</dd>
            <dt>{M::TeamsUsed}</dt>
            <dd>{used}" "<span class=tone.class()>{line.band.label()}</span></dd>
            <dt>{M::TeamsRemaining}</dt>
            <dd>{remaining}</dd>
            <dt>{M::TeamsRollover}</dt>
            <dd>{rollover}</dd>
            <dt>{M::TeamsOneTimeBudget}</dt>
            <dd>{live_text(move || msg::teams_one_time_not_included(&usd(one_time)))}</dd>
        </dl>
    }
}

fn team_not_found(message: String) -> AnyView {
    view! {
        <NotFound
            title=M::TeamsNotFound
            message
            fallback=M::TeamsNotFoundExplain
            back=(routes::TEAMS, M::TeamsBack)
            testid="team-not-found"
            subheading=true
        />
    }
    .into_any()
}

#[rustfmt::skip]
const MEMBER_COLUMNS: &[Column] = &[text(M::TeamsColumnName).sorts("name"), text(M::TeamsColumnEmail).sorts("email"), number(M::TeamsColumnBalance).sorts("balance"), number(M::TeamsColumnShare), text(M::TeamsColumnSandbox).sorts("sandbox"), text(M::TeamsColumnKey)];

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
    let count = (total > 0).then_some(move || msg::teams_members_count(total as u64));
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
            caption=M::TeamsMembersCaption columns=MEMBER_COLUMNS items=members row=member_row order=member_order
            empty=M::TeamsNoMembers rows
        />
        {(total > 0).then(|| view! { <Pager shown /> })}
    }
}

fn member_row(m: Member) -> AnyView {
    let name = member_name(&m);
    let sandbox = if m.sandbox {
        view! { <span class=Tone::Warning.class()>{M::TeamsSandbox}</span> }.into_any()
    } else {
        view! { <span>{M::TeamsNo}</span> }.into_any()
    };
    view! {
        <tr>
            <th scope="row" translate="no">
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
/// shown only once /me says admin (a failed /me or an unknown role is not enough). Behind the
/// gateway a non-admin's answer carries no key at all: "admins only" says why, not "no key".
#[component]
fn KeyToggle(key: String, owner: String) -> impl IntoView {
    let me = use_current_user();
    let admin = move || me.with(|me| matches!(me, Some(Ok(me)) if me.role == Role::Admin));
    move || {
        if !admin() {
            view! { <span class="muted">{M::TeamsAdminsOnly}</span> }.into_any()
        } else if key.is_empty() {
            view! { <span class="muted">{M::TeamsNoKey}</span> }.into_any()
        } else {
            view! { <KeyReveal key=key.clone() owner=owner.clone() /> }.into_any()
        }
    }
}

/// The invitation key stays out of the page (and out of screenshots) until asked for.
#[component]
fn KeyReveal(key: String, owner: String) -> impl IntoView {
    let shown = RwSignal::new(false);
    let label = move || {
        if shown.get() {
            msg::teams_hide_key_of(&owner)
        } else {
            msg::teams_show_key_of(&owner)
        }
    };
    view! {
        <span class="key-toggle">
            <button
                type="button"
                class="button button--small"
                aria-label=label
                on:click=move |_| shown.update(|s| *s = !*s)
            >
                {live_text(move || t(if shown.get() { M::TeamsHideKey } else { M::TeamsShowKey }))}
            </button>
            {move || shown.get().then(|| view! { <code class="key-toggle__key" translate="no">{key.clone()}</code> })}
        </span>
    }
}
