//! The platform pages next to the one on screen, fetched ahead so "Next" and "Previous" open
//! without a round trip. An entry is used only while it is [`FRESH_MS`] old: as fresh as if
//! the admin had opened that page half a minute earlier. Anything older is fetched again.

use gifting_api::rest::{page_count, PageQuery, SendPage};

pub(crate) const FRESH_MS: i64 = 30_000;
/// Enough for the pages around the current one, small enough to never matter in memory.
const CAPACITY: usize = 6;

#[derive(Default)]
pub(crate) struct PageCache {
    /// Oldest first.
    entries: Vec<(PageQuery, i64, SendPage)>,
}

impl PageCache {
    /// The page for `query` if it was fetched less than [`FRESH_MS`] before `now_ms`.
    pub(crate) fn fresh(&self, query: &PageQuery, now_ms: i64) -> Option<&SendPage> {
        self.entries
            .iter()
            .rev()
            .find(|(q, at, _)| q == query && now_ms - at < FRESH_MS && now_ms >= *at)
            .map(|(_, _, page)| page)
    }

    pub(crate) fn put(&mut self, query: PageQuery, now_ms: i64, page: SendPage) {
        self.entries.retain(|(q, _, _)| *q != query);
        self.entries.push((query, now_ms, page));
        if self.entries.len() > CAPACITY {
            self.entries.remove(0);
        }
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }
}

/// The pages just before and after `query`'s (same size) that exist in a list of `total`.
pub(crate) fn neighbours(query: &PageQuery, total: u64) -> Vec<PageQuery> {
    let per_page = query
        .per_page
        .unwrap_or(gifting_api::rest::DEFAULT_PER_PAGE);
    let page = u64::from(query.page.unwrap_or(1));
    let last = page_count(total, per_page);
    [page + 1, page.saturating_sub(1)]
        .into_iter()
        .filter(|p| (1..=last).contains(p) && *p != page)
        .map(|p| PageQuery::new(p.min(u64::from(u32::MAX)) as u32, per_page))
        .collect()
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::pages::sends::loaded::tests::send;

    fn page(n: u32) -> SendPage {
        SendPage {
            current_page: n,
            per_page: 100,
            total_count: 300,
            sends: vec![send(u64::from(n))],
        }
    }

    #[wasm_bindgen_test]
    fn serves_fresh_pages_only() {
        let mut cache = PageCache::default();
        let q = PageQuery::new(2, 100);
        cache.put(q, 1_000, page(2));
        assert_eq!(
            cache
                .fresh(&q, 1_000 + FRESH_MS - 1)
                .map(|p| p.current_page),
            Some(2)
        );
        assert!(cache.fresh(&q, 1_000 + FRESH_MS).is_none());
        assert!(cache.fresh(&PageQuery::new(2, 50), 1_500).is_none());
        // A clock that went backwards does not make an entry fresh forever.
        assert!(cache.fresh(&q, 500).is_none());
    }

    #[wasm_bindgen_test]
    fn keeps_the_newest_few() {
        let mut cache = PageCache::default();
        for n in 1..=8 {
            cache.put(PageQuery::new(n, 100), i64::from(n), page(n));
        }
        assert_eq!(cache.len(), 6);
        assert!(cache.fresh(&PageQuery::new(1, 100), 10).is_none());
        assert!(cache.fresh(&PageQuery::new(8, 100), 10).is_some());
        cache.put(PageQuery::new(8, 100), 20, page(8));
        assert_eq!(cache.len(), 6);
    }

    #[wasm_bindgen_test]
    fn neighbours_stay_inside_the_list() {
        let pages = |q: PageQuery, total| -> Vec<u32> {
            neighbours(&q, total)
                .iter()
                .filter_map(|q| q.page)
                .collect()
        };
        assert_eq!(pages(PageQuery::new(1, 100), 300), vec![2]);
        assert_eq!(pages(PageQuery::new(2, 100), 300), vec![3, 1]);
        assert_eq!(pages(PageQuery::new(3, 100), 300), vec![2]);
        assert_eq!(pages(PageQuery::new(1, 25), 10), Vec::<u32>::new());
        assert_eq!(pages(PageQuery::new(4, 25), 60), vec![3]);
        assert_eq!(pages(PageQuery::new(9, 25), 60), Vec::<u32>::new());
    }
}
