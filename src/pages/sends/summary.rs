//! The overview's numbers: sends per status group and spend per currency, summed exactly.
//!
//! Amounts in different currencies are never added together or put on one scale: each
//! currency keeps its own total.

#[cfg(test)]
use std::collections::BTreeMap;

use gifting_api::money::Decimal;
#[cfg(test)]
use gifting_api::rest::Send;
use gifting_api::rest::StatusGroup;

/// What one currency's sends cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CurrencySpend {
    pub(crate) currency: String,
    /// Exact sum of the readable costs.
    pub(crate) total: Decimal,
    /// Sends in this currency.
    pub(crate) sends: u64,
    /// Sends whose cost was not decimal text (left out of `total`, and said so).
    pub(crate) unreadable: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Summary {
    pub(crate) sends: u64,
    /// Every group of [`StatusGroup::ALL`] in order, zero counts included, except `Other`
    /// which only appears when some send has a status this console does not know.
    pub(crate) by_group: Vec<(StatusGroup, u64)>,
    /// By currency code, alphabetical.
    pub(crate) by_currency: Vec<CurrencySpend>,
}

/// The numbers over whole sends: what `LoadedSends::summary` computes over compact rows (its
/// tests compare the two).
#[cfg(test)]
pub(crate) fn summarize<'a>(sends: impl IntoIterator<Item = &'a Send>) -> Summary {
    let mut groups: BTreeMap<StatusGroup, u64> = BTreeMap::new();
    let mut currencies: BTreeMap<&str, CurrencySpend> = BTreeMap::new();
    let mut count = 0;
    for send in sends {
        count += 1;
        *groups.entry(send.status.group()).or_default() += 1;
        let spend = currencies
            .entry(send.currency.as_str())
            .or_insert_with(|| CurrencySpend {
                currency: send.currency.clone(),
                total: Decimal::ZERO,
                sends: 0,
                unreadable: 0,
            });
        spend.sends += 1;
        match Decimal::parse(&send.current_total_cost).and_then(|c| spend.total.checked_add(c)) {
            Some(total) => spend.total = total,
            None => spend.unreadable += 1,
        }
    }
    let by_group = StatusGroup::ALL
        .into_iter()
        .filter(|g| *g != StatusGroup::Other || groups.contains_key(g))
        .map(|g| (g, groups.get(&g).copied().unwrap_or(0)))
        .collect();
    Summary {
        sends: count,
        by_group,
        by_currency: currencies.into_values().collect(),
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::pages::sends::loaded::tests::send;
    use gifting_api::SendStatus;

    #[wasm_bindgen_test]
    fn counts_every_group_and_sums_each_currency_exactly() {
        let mut sends = vec![send(1), send(2), send(3), send(4), send(5)];
        sends[0].current_total_cost = "0.10".into();
        sends[1].current_total_cost = "0.20".into();
        sends[1].status = SendStatus::Shipped;
        sends[2].current_total_cost = "1234.5".into();
        sends[2].currency = "EUR".into();
        sends[2].status = SendStatus::Refunded;
        sends[3].current_total_cost = "n/a".into();
        sends[3].status = SendStatus::Undeliverable;
        sends[4].current_total_cost = "0.3".into();
        let summary = summarize(&sends);
        assert_eq!(summary.sends, 5);
        assert_eq!(
            summary.by_group,
            vec![
                (StatusGroup::InProgress, 1),
                (StatusGroup::DeliveredOrUsed, 2),
                (StatusGroup::Problem, 1),
                (StatusGroup::MoneyReturned, 1),
            ]
        );
        let eur = &summary.by_currency[0];
        assert_eq!((eur.currency.as_str(), eur.sends), ("EUR", 1));
        assert_eq!(eur.total.format_grouped(2), "1,234.50");
        let usd = &summary.by_currency[1];
        assert_eq!(
            (usd.currency.as_str(), usd.sends, usd.unreadable),
            ("USD", 4, 1)
        );
        // 0.10 + 0.20 + 0.3: exact, where f64 would give 0.6000000000000001.
        assert_eq!(usd.total.format_grouped(2), "0.60");
    }

    #[wasm_bindgen_test]
    fn unknown_statuses_get_their_own_group_and_nothing_is_empty() {
        let mut odd = send(1);
        odd.status = SendStatus::Other("Teleported".into());
        let summary = summarize([&odd]);
        assert_eq!(summary.by_group.last(), Some(&(StatusGroup::Other, 1)));
        let none = summarize(std::iter::empty());
        assert_eq!(none.sends, 0);
        assert_eq!(none.by_group.len(), 4);
        assert!(none.by_currency.is_empty());
    }
}
