//! Keeps the keyboard in the pager across a page change. A pager is drawn anew with the rows
//! it pages, so the link just followed leaves the page and the focus falls back to `<body>`:
//! a keyboard user paging with "Next" would Tab back from the top for every page. The control
//! used is remembered, and the pager drawn for the new page gives the focus back to it, or to
//! its nearest neighbour when it is now disabled ("Previous" once "Next" has reached the end).

use std::cell::RefCell;

use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

use crate::browser;

pub(crate) const FIRST: &str = "First";
pub(crate) const PREVIOUS: &str = "Previous";
pub(crate) const NEXT: &str = "Next";
pub(crate) const LAST: &str = "Last";
/// The pager's links, in the order it shows them.
const LINKS: [&str; 4] = [FIRST, PREVIOUS, NEXT, LAST];

/// A control of the pager, as the admin used it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PagerControl {
    /// One of [`LINKS`].
    Link(&'static str),
    /// The rows-per-page select.
    Size,
}

thread_local! {
    /// The control last used, and the screen (path) it was used on.
    static USED: RefCell<Option<(String, PagerControl)>> = const { RefCell::new(None) };
}

/// Notes that `control` was used on the current screen, when it had the focus (a keyboard or
/// a pointer put it there). Used without it (a script's `click()`), nothing is to give back,
/// and taking the focus then would scroll the page to the pager for nothing.
pub(crate) fn remember(control: PagerControl) {
    let used = focus_in_pager().then(|| (browser::current_pathname(), control));
    USED.with(|slot| *slot.borrow_mut() = used);
}

/// Called when a pager has been drawn or changed: if the focus fell out of the page and the
/// last control used was on this screen, that control (in `nav`, the new pager) takes it.
/// The focus is left alone anywhere else, so it is never taken from where the admin moved on.
pub(crate) fn restore(nav: HtmlElement) {
    // Every page drawn comes here: with nothing to give back, nothing is scheduled.
    if USED.with(|used| used.borrow().is_none()) {
        return;
    }
    // A pager inside a <Transition> is built before it is in the page, where focus() does
    // nothing; and focus() lays the page out first, which for a new page of rows would hold
    // up their paint. So once the next frame has been painted.
    browser::after_paint(move || give_back(&nav));
}

/// The focus back to the control last used on this screen, in `nav`, if it fell out.
fn give_back(nav: &HtmlElement) {
    if !focus_fell_out() {
        return;
    }
    let path = browser::current_pathname();
    let used = USED.with(|used| used.borrow_mut().take_if(|(on, _)| *on == path));
    if let Some(target) = used.and_then(|(_, control)| target(nav, control)) {
        let _ = target.focus();
    }
}

/// Called as a pager leaves the page: the control in it that has the focus lets go of it
/// first. Chrome lays the whole page out there and then when the focused element is removed
/// (a trace: 28 ms with a new page of 100 sends in the DOM, more than the page change
/// itself); let go, the focus is on `<body>` and [`restore`] gives it to the new pager.
pub(crate) fn let_go(nav: &HtmlElement) {
    let Some(active) = active_element() else {
        return;
    };
    if nav.contains(Some(&active)) {
        if let Ok(control) = active.dyn_into::<HtmlElement>() {
            let _ = control.blur();
        }
    }
}

fn document() -> Option<web_sys::Document> {
    web_sys::window().and_then(|w| w.document())
}

/// The element with the focus (`<body>` when none has it).
fn active_element() -> Option<web_sys::Element> {
    document().and_then(|d| d.active_element())
}

/// Whether the focus is on a control of a pager.
fn focus_in_pager() -> bool {
    active_element()
        .and_then(|active| active.closest("nav.pager").ok().flatten())
        .is_some()
}

/// Whether nothing has the focus (it is on `<body>`, where a removed element leaves it).
fn focus_fell_out() -> bool {
    let Some(document) = document() else {
        return false;
    };
    match document.active_element() {
        None => true,
        Some(active) => document
            .body()
            .is_some_and(|body| body.is_same_node(Some(&active))),
    }
}

/// The element of `nav` that stands for `control` now.
fn target(nav: &HtmlElement, control: PagerControl) -> Option<HtmlElement> {
    let find = |selector: &str| {
        nav.query_selector(selector)
            .ok()
            .flatten()
            .and_then(|e| e.dyn_into::<HtmlElement>().ok())
    };
    match control {
        PagerControl::Size => find("select"),
        PagerControl::Link(label) => nearest_links(label)
            .into_iter()
            .find_map(|label| find(&format!("a[data-pager=\"{label}\"]"))),
    }
}

/// `label` and then the other links, nearest first (the earlier one of two as near): where
/// the focus goes when `label` is disabled on the new page.
pub(crate) fn nearest_links(label: &str) -> Vec<&'static str> {
    let Some(at) = LINKS.iter().position(|l| *l == label) else {
        return Vec::new();
    };
    let mut links: Vec<(usize, &'static str)> =
        LINKS.iter().enumerate().map(|(i, l)| (i, *l)).collect();
    links.sort_by_key(|(i, _)| (i.abs_diff(at), *i));
    links.into_iter().map(|(_, l)| l).collect()
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::nearest_links;

    #[wasm_bindgen_test]
    fn a_disabled_link_hands_the_focus_to_its_nearest_neighbour() {
        assert_eq!(nearest_links("Next"), ["Next", "Previous", "Last", "First"]);
        assert_eq!(nearest_links("Last"), ["Last", "Next", "Previous", "First"]);
        assert_eq!(
            nearest_links("First"),
            ["First", "Previous", "Next", "Last"]
        );
        assert_eq!(
            nearest_links("Previous"),
            ["Previous", "First", "Next", "Last"]
        );
        assert!(nearest_links("Elsewhere").is_empty());
    }
}
