//! The product grid, windowed: only the rows near the viewport are mounted, the rest are
//! spacers of the same height (`window.rs` has the arithmetic). Scrolling, a resize, a new
//! page and a closed product move the window; the window moves at most once a frame.

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::card::ProductCard;
use super::memory::Mark;
use super::store::CatalogStore;
use super::url::product_href;
use super::window::{Shape, View, Window};
use crate::routes;

/// The loaded products, in platform order, as a window of cards keyed by product id: moving
/// the window or appending a page renders only the cards that come into it.
#[component]
pub(crate) fn ProductGrid() -> impl IntoView {
    let store = use_context::<CatalogStore>()?;
    let feed = store.feed();
    let grid = NodeRef::<html::Ul>::new();
    let count = Memo::new(move |_| feed.with(|f| f.products().len()));
    let place = Place::new(store, grid, count);
    let complete = Memo::new(move |_| feed.with(|f| f.at_end()));
    // (filter generation, place in the list, product): a card is made once for a product at
    // a place under some filters; new filters make new cards, with their own links.
    let shown = Memo::new(move |_| {
        let range = place.window.get().products(place.shape.get(), count.get());
        feed.with(|f| {
            let (generation, start) = (f.generation(), range.start);
            f.products()
                .get(range)
                .unwrap_or_default()
                .iter()
                .enumerate()
                .map(|(n, p)| (generation, start + n, p.clone()))
                .collect::<Vec<_>>()
        })
    });
    let filters = Memo::new(move |_| feed.with(|f| f.filters().clone()));
    let spacers = Memo::new(move |_| {
        place
            .shape
            .get()
            .map_or((0.0, 0.0), |s| s.spacers(place.window.get(), count.get()))
    });
    // Until the first page arrives the grid holds a screen's height, so the cards do not
    // push down what is under them while the admin looks.
    let first_load = Memo::new(move |_| feed.with(|f| !f.has_first_page()));
    place.follow(count);

    Some(view! {
        <ul
            class="product-grid"
            class:product-grid--loading=first_load
            data-testid="product-grid"
            node_ref=grid
            style:padding-top=move || format!("{}px", spacers.get().0)
            style:padding-bottom=move || format!("{}px", spacers.get().1)
        >
            <For
                each=move || shown.get()
                key=|(generation, n, product)| (*generation, *n, product.id.clone())
                let:entry
            >
                <ProductCard
                    href=filters.with_untracked(|f| product_href(&entry.2.id, f))
                    product=entry.2.clone()
                    position=entry.1 + 1
                    // Unknown (-1) until the end of the catalog is loaded.
                    set_size=Signal::derive(move || {
                        if complete.get() { count.get() as i64 } else { -1 }
                    })
                />
            </For>
        </ul>
    })
}

/// The grid's measured shape, where the viewport is over it, and the window they make.
#[derive(Clone, Copy)]
struct Place {
    store: CatalogStore,
    grid: NodeRef<html::Ul>,
    shape: RwSignal<Option<Shape>>,
    view: RwSignal<Option<View>>,
    /// Derived, so a new page or new filters move it at once with the last known view.
    window: Memo<Window>,
    /// A frame is already asked for.
    pending: StoredValue<bool>,
    /// Where the viewport's top was in the products at the last update on this screen.
    mark: StoredValue<Option<Mark>>,
}

impl Place {
    fn new(store: CatalogStore, grid: NodeRef<html::Ul>, count: Memo<usize>) -> Self {
        let shape = RwSignal::new(None::<Shape>);
        let view = RwSignal::new(None::<View>);
        let window = Memo::new(move |_| match (shape.get(), view.get()) {
            (Some(shape), Some(view)) => shape.window(view, count.get()),
            _ => Window::default(),
        });
        Place {
            store,
            grid,
            shape,
            view,
            window,
            pending: StoredValue::new(false),
            mark: StoredValue::new(None),
        }
    }

    /// Moves the window with scrolling and resizing, with each page appended, and brings a
    /// product back into view when its dialog closes.
    fn follow(self, count: Memo<usize>) {
        let store = self.store;
        let scroll = window_event_listener(leptos::ev::scroll, move |_| self.soon());
        let resize = window_event_listener(leptos::ev::resize, move |_| self.soon());
        on_cleanup(move || {
            scroll.remove();
            resize.remove();
            // Leaving the screen: remember the products and the place for the way back.
            store.leave(self.mark.try_get_value().flatten());
        });
        // After a page is appended (its cards are in the DOM once effects run): measure the
        // shape if it is not known yet, and place the window.
        Effect::new(move |_| {
            count.track();
            self.soon();
        });
        Effect::new(move |_| {
            if let Some(id) = store.returned_to().get() {
                self.reveal(store, &id);
            }
        });
    }

    /// Updates the window on the next frame (once, however many events come before it).
    fn soon(self) {
        if self.pending.get_value() {
            return;
        }
        self.pending.set_value(true);
        request_animation_frame(move || {
            // The screen may have gone meanwhile.
            if self.pending.try_set_value(false).is_none() {
                self.update();
            }
        });
    }

    /// Measures the grid (a resize or a new font may have changed it; reading the laid-out
    /// page costs little in a frame) and where the viewport is over it.
    fn update(self) {
        // The router has already left for another screen (and scrolled it to the top) while
        // this one is still mounted: that scroll is not the admin's place in the catalog.
        let Some(grid) = self.grid.get_untracked().filter(|_| on_catalog()) else {
            return;
        };
        let known = self.shape.get_untracked();
        let Some(shape) = measure(&grid, known) else {
            return;
        };
        if known != Some(shape) {
            // A resize or a late font moved every row: keep the product at the viewport's
            // top where it was, rather than the pixel offset.
            if let Some(known) = known {
                let delta = known.keep_place(shape, view_of(&grid));
                if delta.abs() >= 1.0 {
                    let window = window();
                    let y = window.scroll_y().unwrap_or(0.0) + delta;
                    self.shape.set(Some(shape));
                    // On the next frame: by then the spacers have the new shape's heights,
                    // so the page is tall enough to scroll to.
                    request_animation_frame(move || window.scroll_to_with_x_and_y(0.0, y));
                    return;
                }
            }
            self.shape.set(Some(shape));
        }
        let view = view_of(&grid);
        if self.view.get_untracked() != Some(view) {
            self.view.set(Some(view));
        }
        if let Some(mark) = self.store.take_mark() {
            // Back from another screen: where the catalog was left, once its rows are drawn
            // to their full height (next frame).
            let y = window().scroll_y().unwrap_or(0.0)
                + view.top
                + shape.offset_of(mark.index)
                + mark.within.clamp(0.0, shape.pitch);
            settle_at(y, SETTLE_FRAMES);
            return;
        }
        let scrolled = -view.top;
        let index = shape.index_at(scrolled);
        self.mark.set_value((scrolled > 0.0).then(|| Mark {
            index,
            within: scrolled - shape.offset_of(index),
        }));
    }

    /// After a product's dialog closes: if its card is not in view (the dialog was opened
    /// from an address, or the page moved under it), scroll its row into the middle of the
    /// viewport and put the keyboard focus on its link, where the admin left the list.
    fn reveal(self, store: CatalogStore, id: &str) {
        let index = store
            .feed()
            .with_untracked(|f| f.products().iter().position(|p| p.id == id));
        let (Some(index), Some(grid), Some(shape)) =
            (index, self.grid.get_untracked(), self.shape.get_untracked())
        else {
            return;
        };
        let view = view_of(&grid);
        if shape.shows(view, index) {
            return;
        }
        let window = window();
        let y = window.scroll_y().unwrap_or(0.0) + view.top + shape.offset_of(index)
            - (view.height - shape.pitch).max(0.0) / 2.0;
        window.scroll_to_with_x_and_y(0.0, y.max(0.0));
        self.update();
        let id = id.to_string();
        // The card is mounted once the window's effects have run: focus it on the next frame.
        request_animation_frame(move || focus_card(&grid, &id));
    }
}

/// Frames during which a jump back to the top undoes the restored place: on Back and Forward
/// the browser restores the scroll it remembers for the entry, and the router scrolls a screen
/// reached by a link to the top; neither must win over the catalog's own place.
const SETTLE_FRAMES: u32 = 10;

/// Scrolls to `y` on the next frame, and again in the `frames` after it if the page went back
/// to the top meanwhile (an admin's own scroll elsewhere is left alone).
fn settle_at(y: f64, frames: u32) {
    request_animation_frame(move || {
        if !on_catalog() {
            return;
        }
        let window = window();
        let now = window.scroll_y().unwrap_or(0.0);
        if (now - y).abs() > 1.0 && (frames == SETTLE_FRAMES || now == 0.0) {
            window.scroll_to_with_x_and_y(0.0, y);
        }
        if frames > 0 {
            settle_at(y, frames - 1);
        }
    });
}

/// Whether the address is still the catalog's (or a product's over it).
fn on_catalog() -> bool {
    window()
        .location()
        .pathname()
        .is_ok_and(|path| path.starts_with(routes::CATALOG))
}

/// The grid's columns and row pitch, from its first cards; None while it has none.
///
/// Fractional pixels (`getBoundingClientRect`, not `offsetTop`): a pitch rounded by half a
/// pixel would put row 2,000 a thousand pixels off.
fn measure(grid: &web_sys::HtmlElement, known: Option<Shape>) -> Option<Shape> {
    let cards = grid.children();
    let Some(first) = cards.item(0).map(|card| card.get_bounding_client_rect()) else {
        return known;
    };
    let (top, height) = (first.top(), first.height());
    // The mounted cards fill the grid from its first column, so the first card on a lower
    // row is the column count, and its distance from the first card is the pitch.
    let next_row = (1..cards.length()).find_map(|n| {
        let card_top = cards.item(n)?.get_bounding_client_rect().top();
        (card_top > top + height / 2.0).then_some((n as usize, card_top - top))
    });
    // One row only: what was measured before, else at least as many columns as cards (the
    // pitch matters only from a second row).
    let (columns, pitch) = match (next_row, known) {
        (Some(found), _) => found,
        (None, Some(known)) => return Some(known),
        (None, None) => (cards.length().max(1) as usize, height),
    };
    (height > 0.0).then_some(Shape {
        columns,
        pitch,
        gap: (pitch - height).max(0.0),
    })
}

/// Where the grid is in the viewport now.
fn view_of(grid: &web_sys::HtmlElement) -> View {
    View {
        top: grid.get_bounding_client_rect().top(),
        height: window()
            .inner_height()
            .ok()
            .and_then(|h| h.as_f64())
            .unwrap_or(0.0),
    }
}

fn focus_card(grid: &web_sys::HtmlElement, id: &str) {
    let cards = grid.children();
    let card = (0..cards.length())
        .filter_map(|n| cards.item(n))
        .find(|card| card.get_attribute("data-product-id").as_deref() == Some(id));
    if let Some(link) = card.and_then(|c| c.query_selector("a").ok().flatten()) {
        if let Ok(link) = link.dyn_into::<web_sys::HtmlElement>() {
            let _ = link.focus();
        }
    }
}
