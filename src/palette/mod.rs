//! The keyboard's way around the console: the shortcuts (`/`, `?`) and the command palette,
//! Ctrl-K (⌘-K on a Mac) on any signed-in screen, which goes to a screen, a user, a team group,
//! a campaign, a send by its number or a product, by keyboard alone; and the preferences'
//! dialog, opened from the navigation like the palette.
//!
//! Only the listener is in the first load; the shortcuts' list, the palette and the
//! preferences are a chunk of their own, fetched the first time one is asked for.

mod dialog;
mod hits;
mod language;
mod preferences;
mod shortcuts;
mod sources;

pub(crate) use language::{
    drop_menu as drop_language_menu, menu_when_idle as language_menu_when_idle,
};
pub(crate) use shortcuts::{open_palette, open_preferences, prefetch, KeyboardShortcuts};
