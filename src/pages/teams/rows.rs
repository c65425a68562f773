//! The Teams list's rows: each team group with its budget line this month, filtered by band
//! and name and sorted by any column, as the address says (`/teams?band=over&q=sales&sort=used`).

use std::cmp::Ordering;

use gifting_api::money::Decimal;
use gifting_api::rest::TeamGroup;
use leptos_router::params::ParamsMap;

use crate::components::sort::{by_text, Compare};
use crate::components::KEY_SEARCH;
use crate::spend::report::{Band, BudgetRow, Report};

/// The address's band filter (`over` | `near` | `within` | `none`); Home links to it.
pub(crate) const KEY_BAND: &str = "band";

/// One team group and, once the walk has read a page, its budget line this month.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TeamRow {
    pub(crate) id: u64,
    pub(crate) name: String,
    pub(crate) line: Option<BudgetRow>,
}

impl TeamRow {
    pub(crate) fn band(&self) -> Option<Band> {
        self.line.as_ref().map(|l| l.band)
    }

    fn spent(&self) -> Option<Decimal> {
        self.line.as_ref().map(|l| l.spend.months[0].usd)
    }

    fn budget(&self) -> Option<Decimal> {
        self.line.as_ref().map(|l| l.budget)
    }

    /// Remaining only where there is a budget to remain of.
    fn remaining(&self) -> Option<Decimal> {
        self.line
            .as_ref()
            .filter(|l| l.percent.is_some())
            .map(|l| l.remaining)
    }

    fn percent(&self) -> Option<i128> {
        self.line.as_ref().and_then(|l| l.percent)
    }
}

/// Every group, in the platform's order, with its line from `report` (none before the walk's
/// first page). Sends of no known group are not a team group, so they are not listed here.
pub(crate) fn team_rows(groups: &[TeamGroup], report: Option<&Report>) -> Vec<TeamRow> {
    let lines = report.map(|r| r.rows(groups)).unwrap_or_default();
    let mut lines = lines.into_iter();
    groups
        .iter()
        .map(|g| TeamRow {
            id: g.id,
            name: g.name.clone(),
            line: lines.next(),
        })
        .collect()
}

/// What the address filters by: a band (an unknown value filters nothing) and a name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct TeamFilter {
    pub(crate) band: Option<Band>,
    /// As typed (trimmed); matched without case.
    pub(crate) search: String,
}

impl TeamFilter {
    pub(crate) fn from_query(query: &ParamsMap) -> TeamFilter {
        TeamFilter {
            band: query.get_str(KEY_BAND).and_then(Band::from_key),
            search: query.get_str(KEY_SEARCH).unwrap_or("").trim().to_owned(),
        }
    }

    /// Whether `row` shows. A band filter shows no row whose line is not read yet.
    pub(crate) fn keeps(&self, row: &TeamRow) -> bool {
        let band = self.band.is_none_or(|b| row.band() == Some(b));
        let search = self.search.to_lowercase();
        band && (search.is_empty() || row.name.to_lowercase().contains(&search))
    }

    pub(crate) fn apply(&self, rows: Vec<TeamRow>) -> Vec<TeamRow> {
        rows.into_iter().filter(|r| self.keeps(r)).collect()
    }
}

/// A missing figure (no budget, not read yet) is below every figure: a descending sort, the
/// one that asks "who is most over", puts those rows last.
fn figures<T: Ord>(a: Option<T>, b: Option<T>) -> Ordering {
    a.cmp(&b)
}

fn money(a: Option<Decimal>, b: Option<Decimal>) -> Ordering {
    match (a, b) {
        (Some(x), Some(y)) => x.cmp_value(y),
        _ => figures(a.map(|_| ()), b.map(|_| ())),
    }
}

/// How two rows compare by the column with this sort key.
pub(crate) fn team_order(key: &str) -> Option<Compare<TeamRow>> {
    Some(match key {
        "name" => |a, b| by_text(&a.name, &b.name),
        "budget" => |a, b| money(a.budget(), b.budget()),
        "spent" => |a, b| money(a.spent(), b.spent()),
        "used" => |a, b| figures(a.percent(), b.percent()),
        "remaining" => |a, b| money(a.remaining(), b.remaining()),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use gifting_api::attention::unix_seconds;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::components::sort::TableSort;

    fn group(id: u64, name: &str, monthly: &str) -> TeamGroup {
        serde_json::from_value(serde_json::json!({
            "id": id, "name": name, "budget": 0, "monthly_budget": monthly, "one_time_budget": 0,
            "rollover": false, "team_id": 9, "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z",
        }))
        .expect("a group")
    }

    fn send(id: u64, team: u64, cost: &str) -> gifting_api::rest::Send {
        serde_json::from_value(serde_json::json!({
            "id": id, "send_gid": format!("g{id}"), "type": "eGifts USA", "subtype": "eGift Cards USA",
            "currency": "USD", "current_total_cost": cost, "status": "Delivered",
            "created_at": "2026-11-20T00:00:00Z", "touch": {"id": 1, "name": "T"},
            "recipient": {"name": "R", "email": "r@example.com", "company_name": "C"},
            "sender": {"id": team, "name": "S", "email": format!("s{team}@example.com"), "team_id": team, "team_name": "x"},
            "sent_via": "web", "status_updates": [],
        }))
        .expect("a send")
    }

    fn rows() -> Vec<TeamRow> {
        let groups = [
            group(1, "Sales East", "100.00"),
            group(2, "sales west", "1000.00"),
            group(3, "Support", "0"),
            group(4, "Marketing", "100.00"),
        ];
        let now = unix_seconds("2026-11-26T00:00:00Z").expect("a time");
        let sends = [
            send(3, 1, "120.00"),
            send(2, 2, "850.00"),
            send(1, 4, "10.00"),
        ];
        let mut report = Report::new(now, sends.first(), None);
        report.add(&sends);
        team_rows(&groups, Some(&report))
    }

    fn names(rows: &[TeamRow]) -> Vec<&str> {
        rows.iter().map(|r| r.name.as_str()).collect()
    }

    #[wasm_bindgen_test]
    fn rows_filter_by_band_and_name() {
        let rows = rows();
        let bands: Vec<_> = rows.iter().map(|r| r.band().map(Band::key)).collect();
        assert_eq!(
            bands,
            [Some("over"), Some("near"), Some("none"), Some("within")]
        );
        let only = |band: &str, search: &str| TeamFilter {
            band: Band::from_key(band),
            search: search.into(),
        };
        assert_eq!(names(&only("over", "").apply(rows.clone())), ["Sales East"]);
        assert_eq!(names(&only("near", "").apply(rows.clone())), ["sales west"]);
        assert_eq!(names(&only("none", "").apply(rows.clone())), ["Support"]);
        assert_eq!(
            names(&only("", "SALES").apply(rows.clone())),
            ["Sales East", "sales west"],
            "an unknown band filters nothing; the name matches without case"
        );
        assert!(only("within", "sales").apply(rows.clone()).is_empty());
        let unread = team_rows(&[group(1, "Sales East", "100.00")], None);
        assert!(
            only("over", "").apply(unread).is_empty(),
            "not read yet: no band"
        );
    }

    #[wasm_bindgen_test]
    fn rows_sort_by_use_spend_and_remaining_with_no_budget_lowest() {
        let sorted = |column: &str, descending| {
            let mut rows = rows();
            TableSort {
                column: Some(column.into()),
                descending,
            }
            .apply(&mut rows, team_order);
            rows
        };
        assert_eq!(
            names(&sorted("used", true)),
            ["Sales East", "sales west", "Marketing", "Support"]
        );
        assert_eq!(
            names(&sorted("used", false)),
            ["Support", "Marketing", "sales west", "Sales East"]
        );
        assert_eq!(
            names(&sorted("spent", true)),
            ["sales west", "Sales East", "Marketing", "Support"]
        );
        assert_eq!(
            names(&sorted("remaining", false)),
            ["Support", "Sales East", "Marketing", "sales west"],
            "no budget, then -20, 90, 150"
        );
        assert_eq!(
            names(&sorted("name", false)),
            ["Marketing", "Sales East", "sales west", "Support"]
        );
    }
}
