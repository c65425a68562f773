//! The palette's dialog: a text box that is a combobox (WAI-ARIA's pattern) over a listbox of
//! results. Typing filters, the arrow keys move through the results while the focus stays in
//! the box, Enter goes, Escape closes (the native dialog's own).

use leptos::ev::KeyboardEvent;
use leptos::prelude::*;

use super::hits::Hit;
use super::sources::Sources;
use crate::components::Modal;
use crate::i18n::{msg, M};

const LIST_ID: &str = "palette-list";

fn option_id(i: usize) -> String {
    format!("palette-hit-{i}")
}

/// The palette, shown while `open`.
#[component]
pub(crate) fn Palette(open: RwSignal<bool>) -> impl IntoView {
    let typed = RwSignal::new(String::new());
    let active = RwSignal::new(0_usize);
    let sources = Sources::new(typed);
    let hits = Memo::new(move |_| typed.with(|t| sources.hits(t)));
    let link = NodeRef::<leptos::html::A>::new();
    let go = move |i: usize| {
        let Some(hit) = hits.with_untracked(|h| h.get(i).cloned()) else {
            return;
        };
        open.set(false);
        // Mounted outside the router's view, the palette goes the way a link does: the router
        // takes any click on a link of the console's.
        if let Some(link) = link.get_untracked() {
            link.set_href(&hit.href);
            link.click();
        }
    };
    let on_keydown = move |ev: KeyboardEvent| {
        let n = hits.with_untracked(Vec::len);
        let step = |by: usize| {
            if n > 0 {
                active.update(|a| *a = (*a + by) % n);
                scroll_to(active.get_untracked());
            }
        };
        match ev.key().as_str() {
            "ArrowDown" => step(1),
            "ArrowUp" => step(n.saturating_sub(1)),
            "Enter" => go(active.get_untracked()),
            _ => return,
        }
        ev.prevent_default();
    };
    let on_input = move |ev| {
        typed.set(event_target_value(&ev));
        active.set(0);
        sources.want_users();
    };
    let reset = Callback::new(move |()| {
        typed.set(String::new());
        active.set(0);
    });
    view! {
        <Modal open class="confirm-dialog palette" labelled_by="palette-title" on_close=reset testid="palette">
            <h2 id="palette-title" class="confirm-dialog__title">{M::PaletteTitle}</h2>
            <label for="palette-input" class="muted">
                {M::PaletteInputLabel}
            </label>
            <input
                id="palette-input"
                                type="text"
                role="combobox"
                autocomplete="off"
                spellcheck="false"
                autofocus
                aria-autocomplete="list"
                aria-controls=LIST_ID
                aria-expanded=move || hits.with(|h| !h.is_empty()).to_string()
                aria-activedescendant=move || hits.with(|h| !h.is_empty()).then(|| option_id(active.get()))
                prop:value=move || typed.get()
                on:input=on_input
                on:keydown=on_keydown
            />
            <Results hits active go=Callback::new(go) />
            <PaletteStatus hits typed sources />
            <a node_ref=link hidden></a>
        </Modal>
    }
}

/// The results, one option each: what it is, its name, and small print.
#[component]
fn Results(hits: Memo<Vec<Hit>>, active: RwSignal<usize>, go: Callback<usize>) -> impl IntoView {
    let options = move || {
        hits.get()
            .into_iter()
            .enumerate()
            .map(|(i, hit)| {
                view! {
                    <li
                        id=option_id(i)
                        role="option"
                                                aria-selected=move || (active.get() == i).to_string()
                        on:click=move |_| go.run(i)
                        on:mousemove=move |_| active.set(i)
                    >
                        <span class="muted">{hit.kind.label()}</span>
                        <span translate=hit.kind.names_data().then_some("no")>{hit.label}</span>
                        <span class="muted">{hit.detail}</span>
                    </li>
                }
            })
            .collect_view()
    };
    view! {
        <ul id=LIST_ID role="listbox" aria-label=M::PaletteResults>
            {options}
        </ul>
    }
}

/// How many results, what is still being read, and the keys.
#[component]
fn PaletteStatus(hits: Memo<Vec<Hit>>, typed: RwSignal<String>, sources: Sources) -> impl IntoView {
    let text = move || {
        let n = hits.with(Vec::len) as u64;
        let mut pieces = vec![typed.with(|typed| msg::palette_found(n, typed.trim()))];
        // What is still read, after a space: "Reading users (3 of 10), reading campaigns…",
        // each part a text of its own.
        let reading = sources.reading();
        let last = reading.len().saturating_sub(1);
        for (i, part) in reading.into_iter().enumerate() {
            pieces.push(if i == 0 { " ".into() } else { ", ".into() });
            pieces.push(part);
            if i == last {
                pieces.push("…".into());
            }
        }
        pieces
    };
    view! {
        <p role="status" data-testid="palette-status">{text}</p>
        // Each key, then what it does: "↑ ↓ to choose, Enter to go, Esc to close".
        <p class="muted">
            <kbd>"↑"</kbd> " " <kbd>"↓"</kbd> " " {M::PaletteToChoose} ", "
            <kbd>{M::PaletteKeyEnter}</kbd> " " {M::PaletteToGo} ", "
            <kbd>{M::PaletteKeyEsc}</kbd> " " {M::PaletteToClose}
        </p>
    }
}

/// Keeps the active result in the list's view.
fn scroll_to(i: usize) {
    let found = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(&option_id(i)));
    if let Some(element) = found {
        element.scroll_into_view_with_bool(false);
    }
}
