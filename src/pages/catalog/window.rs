//! Which of the loaded products the grid mounts: the rows near the viewport, with spacers for
//! the rows above and below, so 10,000 loaded products cost a few screens of cards.
//!
//! Every card has the same height (the name keeps two lines, see the stylesheet), so a row's
//! place is arithmetic: row `r` starts `r × pitch` below the grid's top, where the pitch is a
//! card's height plus the gap. Nothing here touches the DOM; `grid.rs` measures and applies.

/// The grid's shape, as measured in the page.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Shape {
    /// Cards a row (the grid's column count), at least 1.
    pub(crate) columns: usize,
    /// From one row's top to the next's, in CSS pixels: a card's height plus the row gap.
    pub(crate) pitch: f64,
    /// The row gap, in CSS pixels (the last row has none under it).
    pub(crate) gap: f64,
}

/// Where the viewport is over the grid: `top` is the grid's top edge relative to the
/// viewport's (negative once scrolled past), `height` the viewport's height.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct View {
    pub(crate) top: f64,
    pub(crate) height: f64,
}

/// Mounted rows `[first, end)` of the loaded products, and how many products that is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Window {
    pub(crate) first: usize,
    pub(crate) end: usize,
}

/// Rows mounted beyond the viewport on each side, in viewport heights: a fast flick or a
/// Tab to the next card finds it mounted, and the window moves a row at a time.
const OVERSCAN_SCREENS: f64 = 1.0;

/// Before the grid is measured (the first render): as many cards as a first page and more,
/// so the first screen is full on any width.
pub(crate) const UNMEASURED: usize = 48;

impl Shape {
    /// Rows holding `count` products.
    pub(crate) fn rows(&self, count: usize) -> usize {
        count.div_ceil(self.columns.max(1))
    }

    /// The row a product is on.
    pub(crate) fn row_of(&self, index: usize) -> usize {
        index / self.columns.max(1)
    }

    /// The rows to mount for `view` over `count` loaded products: those in the viewport and
    /// a screen's worth each side, never past the loaded rows.
    pub(crate) fn window(&self, view: View, count: usize) -> Window {
        let rows = self.rows(count);
        if rows == 0 || self.pitch <= 0.0 {
            return Window::default();
        }
        let overscan = view.height.max(0.0) * OVERSCAN_SCREENS;
        // Pixels of the grid from its top to the viewport's top, and to the viewport's bottom.
        let from = (-view.top - overscan).max(0.0);
        let to = (-view.top + view.height + overscan).max(0.0);
        let first = ((from / self.pitch).floor() as usize).min(rows - 1);
        let end = ((to / self.pitch).ceil() as usize).clamp(first + 1, rows);
        Window { first, end }
    }

    /// The spacers' heights in pixels: above the first mounted row, and below the last.
    pub(crate) fn spacers(&self, window: Window, count: usize) -> (f64, f64) {
        let rows = self.rows(count);
        let end = window.end.min(rows);
        let above = window.first.min(end) as f64 * self.pitch;
        let below = (rows - end) as f64 * self.pitch;
        (above, below)
    }

    /// Offset of a product's row from the grid's top, in pixels.
    pub(crate) fn offset_of(&self, index: usize) -> f64 {
        self.row_of(index) as f64 * self.pitch
    }

    /// The first product on the row at `offset` pixels below the grid's top.
    pub(crate) fn index_at(&self, offset: f64) -> usize {
        let row = (offset.max(0.0) / self.pitch.max(1.0)).floor() as usize;
        row * self.columns.max(1)
    }

    /// How far to scroll so that the product at the viewport's top under `self` stays there
    /// under `next` (a resize changed the columns, a font the card height): positive is down.
    pub(crate) fn keep_place(&self, next: Shape, view: View) -> f64 {
        let scrolled = -view.top;
        if scrolled <= 0.0 {
            return 0.0;
        }
        let index = self.index_at(scrolled);
        // Where in its row the viewport's top was, kept as a share of the row.
        let within = (scrolled - self.offset_of(index)) / self.pitch.max(1.0);
        next.offset_of(index) + within * next.pitch - scrolled
    }

    /// Whether a product's whole card is inside `view`.
    pub(crate) fn shows(&self, view: View, index: usize) -> bool {
        let top = view.top + self.offset_of(index);
        let bottom = top + self.pitch - self.gap;
        top >= 0.0 && bottom <= view.height
    }
}

impl Window {
    /// The loaded products' indices this window mounts.
    pub(crate) fn products(&self, shape: Option<Shape>, count: usize) -> std::ops::Range<usize> {
        match shape {
            Some(shape) => {
                let columns = shape.columns.max(1);
                (self.first * columns).min(count)..(self.end * columns).min(count)
            }
            None => 0..count.min(UNMEASURED),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    /// Five cards a row, 300 px cards with a 12 px gap.
    const SHAPE: Shape = Shape {
        columns: 5,
        pitch: 312.0,
        gap: 12.0,
    };

    fn view(scrolled: f64) -> View {
        View {
            top: 100.0 - scrolled,
            height: 800.0,
        }
    }

    #[wasm_bindgen_test]
    fn at_the_top_it_mounts_the_first_screens_only() {
        let w = SHAPE.window(view(0.0), 10_000);
        // The viewport shows grid pixels 0..700; with a screen below, 0..1500: rows 0..5.
        assert_eq!(w, Window { first: 0, end: 5 });
        assert_eq!(w.products(Some(SHAPE), 10_000), 0..25);
        let (above, below) = SHAPE.spacers(w, 10_000);
        assert_eq!(above, 0.0);
        assert_eq!(below, (2_000 - 5) as f64 * 312.0);
    }

    #[wasm_bindgen_test]
    fn far_down_it_mounts_a_bounded_window_around_the_viewport() {
        // Scrolled so the viewport's top is 200,000 px into the grid.
        let w = SHAPE.window(view(200_100.0), 10_000);
        assert_eq!(w.first, ((200_000.0 - 800.0) / 312.0) as usize);
        assert_eq!(w.end, ((200_000.0 + 1_600.0) / 312.0_f64).ceil() as usize);
        let mounted = w.products(Some(SHAPE), 10_000).len();
        assert!(mounted <= 5 * 10, "{mounted} cards mounted");
        // The spacers and the mounted rows add up to the whole grid: nothing jumps.
        let (above, below) = SHAPE.spacers(w, 10_000);
        let rows = (w.end - w.first) as f64;
        assert_eq!(above + rows * SHAPE.pitch + below, 2_000.0 * SHAPE.pitch);
        assert_eq!(above, w.first as f64 * SHAPE.pitch);
    }

    #[wasm_bindgen_test]
    fn the_window_never_passes_the_loaded_rows() {
        // 23 products: 5 rows, the last holding 3.
        let w = SHAPE.window(view(50_000.0), 23);
        assert_eq!(w, Window { first: 4, end: 5 });
        assert_eq!(w.products(Some(SHAPE), 23), 20..23);
        assert_eq!(SHAPE.spacers(w, 23), (4.0 * 312.0, 0.0));
        assert_eq!(SHAPE.window(view(0.0), 0), Window::default());
        assert_eq!(Window::default().products(Some(SHAPE), 0), 0..0);
    }

    #[wasm_bindgen_test]
    fn before_it_is_measured_the_first_cards_show() {
        assert_eq!(Window::default().products(None, 10_000), 0..UNMEASURED);
        assert_eq!(Window::default().products(None, 24), 0..24);
    }

    #[wasm_bindgen_test]
    fn one_column_and_odd_pitches_still_cover_the_viewport() {
        let narrow = Shape {
            columns: 1,
            pitch: 333.3,
            gap: 12.0,
        };
        let v = View {
            top: -10_000.0,
            height: 640.0,
        };
        let w = narrow.window(v, 1_000);
        // Every row the viewport touches is mounted.
        let first_visible = (10_000.0 / 333.3_f64).floor() as usize;
        let last_visible = (10_640.0 / 333.3_f64).floor() as usize;
        assert!(w.first <= first_visible && w.end > last_visible, "{w:?}");
        // A shape with no columns measured counts as one column rather than dividing by zero.
        let broken = Shape {
            columns: 0,
            ..narrow
        };
        assert_eq!(broken.rows(3), 3);
    }

    #[wasm_bindgen_test]
    fn a_new_shape_keeps_the_product_at_the_top_in_place() {
        // Scrolled to 100 px into row 640 (products 3,200..3,205).
        let view = View {
            top: -(640.0 * 312.0 + 100.0),
            height: 800.0,
        };
        assert_eq!(SHAPE.index_at(-view.top), 3_200);
        // Narrower: 4 a row, a smaller card. Product 3,200 is on row 800 now.
        let narrow = Shape {
            columns: 4,
            pitch: 260.0,
            gap: 12.0,
        };
        let delta = SHAPE.keep_place(narrow, view);
        let now = -view.top + delta;
        assert_eq!(narrow.index_at(now), 3_200);
        assert!((now - (800.0 * 260.0 + 100.0 / 312.0 * 260.0)).abs() < 1e-6);
        // Nothing to keep at the top of the page, or when nothing changed.
        assert_eq!(
            SHAPE.keep_place(
                narrow,
                View {
                    top: 50.0,
                    height: 800.0
                }
            ),
            0.0
        );
        assert_eq!(SHAPE.keep_place(SHAPE, view), 0.0);
    }

    #[wasm_bindgen_test]
    fn a_products_place_is_known_without_its_card() {
        assert_eq!(SHAPE.row_of(0), 0);
        assert_eq!(SHAPE.row_of(4), 0);
        assert_eq!(SHAPE.row_of(5), 1);
        assert_eq!(SHAPE.offset_of(9_999), 1_999.0 * 312.0);
        // Grid top at 100 px: product 0's card spans 100..400, inside an 800 px viewport.
        assert!(SHAPE.shows(view(0.0), 0));
        // Row 2 spans 724..1024: not wholly inside.
        assert!(!SHAPE.shows(view(0.0), 10));
        assert!(SHAPE.shows(view(624.0), 10));
    }
}
