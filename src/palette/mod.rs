//! The keyboard's way around the console: the shortcuts (`/`, `?`) and the command palette,
//! Ctrl-K (⌘-K on a Mac) on any signed-in screen, which goes to a screen, a user, a team group,
//! a campaign, a send by its number or a product, by keyboard alone.
//!
//! Only the listener is in the first load; the shortcuts' list and the palette are a chunk of
//! their own, fetched the first time either is asked for.

mod dialog;
mod hits;
mod shortcuts;
mod sources;

pub(crate) use shortcuts::{prefetch, KeyboardShortcuts};
