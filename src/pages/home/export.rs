//! The home report as a file, through the console's CSV rules (formula guard included): a line
//! per team group as the table shows it, the organisation's total, then the sends needing
//! attention by reason. The file is for machines as much as people: its headers, standings,
//! reasons and other-currency notes stay in English whatever the screen's language.

use gifting_api::attention::Attention;
use gifting_api::csv::{push_row, BOM};

use crate::components::download::download_parts;
use crate::spend::report::{BudgetRow, Report};

/// The report's text.
pub(crate) fn report_csv(report: &Report, rows: &[BudgetRow]) -> String {
    let mut out = String::from(BOM);
    let (this, last) = (report.months[0].key(), report.months[1].key());
    push_row(
        &mut out,
        [
            "team group".to_owned(),
            format!("budget {this} (USD)"),
            "carried over (USD)".to_owned(),
            "one-time budget (USD)".to_owned(),
            format!("spent {this} (USD)"),
            "used %".to_owned(),
            "standing".to_owned(),
            "remaining (USD)".to_owned(),
            format!("spent {last} (USD)"),
            format!("other currencies {this} (not counted)"),
        ],
    );
    for row in rows {
        let used = row.percent.map(|p| p.to_string()).unwrap_or_default();
        push_row(
            &mut out,
            [
                row.name.clone(),
                row.budget.to_string(),
                row.carried.to_string(),
                row.one_time.to_string(),
                row.spend.months[0].usd.to_string(),
                used,
                row.band.file_word().to_owned(),
                if row.percent.is_some() {
                    row.remaining.to_string()
                } else {
                    String::new()
                },
                row.spend.months[1].usd.to_string(),
                row.spend.months[0].other_text(),
            ],
        );
    }
    let (now, before) = (report.total(0), report.total(1));
    let blank = String::new;
    push_row(
        &mut out,
        [
            "Organisation".to_owned(),
            blank(),
            blank(),
            blank(),
            now.usd.to_string(),
            blank(),
            blank(),
            blank(),
            before.usd.to_string(),
            now.other_text(),
        ],
    );
    push_row(&mut out, ["", ""]);
    push_row(
        &mut out,
        [
            "needs attention".to_owned(),
            format!("sends {}", report.months[0].key()),
            format!("sends {}", report.months[1].key()),
        ],
    );
    for reason in Attention::ALL {
        let n = |m: usize| report.attention[m].get(&reason).copied().unwrap_or(0);
        push_row(
            &mut out,
            [
                reason.label().to_owned(),
                n(0).to_string(),
                n(1).to_string(),
            ],
        );
    }
    out
}

/// Offers the report as `home-report-2026-11.csv`.
pub(crate) fn download_report(report: &Report, rows: &[BudgetRow]) {
    let text = report_csv(report, rows);
    let parts = js_sys::Array::of1(&text.into());
    let name = format!("home-report-{}.csv", report.months[0].key());
    let _ = download_parts(&name, "text/csv;charset=utf-8", &parts);
}

#[cfg(test)]
mod tests {
    use gifting_api::attention::unix_seconds;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn the_file_has_a_line_per_group_the_total_and_the_reasons() {
        let now = unix_seconds("2026-11-26T12:00:00-05:00").unwrap_or(0);
        let report = Report::new(now, None, None);
        let text = report_csv(&report, &[]);
        let lines: Vec<&str> = text.trim_start_matches(BOM).split("\r\n").collect();
        assert!(
            lines[0].starts_with("team group,budget 2026-11 (USD)"),
            "{}",
            lines[0]
        );
        assert!(lines[1].starts_with("Organisation,,,,0,"), "{}", lines[1]);
        assert_eq!(lines[3], "needs attention,sends 2026-11,sends 2026-10");
        assert_eq!(lines[4], "Undeliverable,0,0");
    }
}
