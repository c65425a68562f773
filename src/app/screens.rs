//! Every screen, home included, in a chunk of the split release build: the first load carries
//! the shell and sign-in; a screen's code arrives when it is first opened, or
//! earlier when the browser is idle or a link to it is pointed at. All of it, the chunks, the
//! routes and what the navigation fetches ahead, comes from the table of screens,
//! [`crate::routes::screen_table!`].

use crate::components::lazy_screen::{lazy_screen, Prefetch};
use crate::routes::{self, screen_table};

/// A `lazy_screen!` per line of the table, and [`PREFETCH`].
macro_rules! chunks {
    ($($name:ident $pattern:tt in $chunk:ident => $($component:ident)::+ $(, only $only:ident)?
        $(, link $link:ident)? $(, nav $nav:ident $label:tt)? $(, over $parent:ident)?;)*) => {
        $(lazy_screen!($name in $chunk => crate::pages::$($component)::+ $(, only $only)?);)*

        /// The navigation's screens, fetched ahead on hover or focus, and all of them once
        /// idle. A detail screen shares its list's chunk, so it arrives with it.
        pub(crate) const PREFETCH: Prefetch = Prefetch(&[
            $($((routes::$nav, $name::SCREEN),)?)*
        ]);
    };
}
screen_table!(chunks);

/// The `<Routes>` of the table: a `<Route>` per screen, and a screen with a screen `over` it (the
/// next line of the table) a `<ParentRoute>` that shows it alone or with the other over it.
/// Munches the table line by line into `[...]`, then writes the view.
macro_rules! screen_routes {
    (@routes [$($done:tt)*]) => {
        ::leptos::view! {
            <Routes fallback=|| view! { <PageNotFound /> }>
                $($done)*
            </Routes>
        }
    };
    (@routes [$($done:tt)*]
        $name:ident $pattern:tt in $chunk:ident => $($component:ident)::+ $(, only $only:ident)?
            $(, link $link:ident)? $(, nav $nav:ident $label:tt)?;
        $child:ident $child_pattern:tt in $child_chunk:ident => $($child_component:ident)::+
            $(, only $child_only:ident)?, over $parent:ident;
        $($rest:tt)*) => {
        screen_routes!(@routes [$($done)*
            <ParentRoute path=routes::pattern::$name() view=screens::$name::SCREEN>
                <Route path=::leptos_router::path!("") view=|| () />
                <Route path=routes::pattern::$child() view=screens::$child::SCREEN />
            </ParentRoute>
        ] $($rest)*)
    };
    (@routes [$($done:tt)*]
        $name:ident $pattern:tt in $chunk:ident => $($component:ident)::+ $(, only $only:ident)?
            $(, link $link:ident)? $(, nav $nav:ident $label:tt)?;
        $($rest:tt)*) => {
        screen_routes!(@routes [$($done)*
            <Route path=routes::pattern::$name() view=screens::$name::SCREEN />
        ] $($rest)*)
    };
    ($($table:tt)*) => {
        screen_routes!(@routes [] $($table)*)
    };
}
pub(crate) use screen_routes;
