//! Screens whose code the release build downloads on first visit (route-level code
//! splitting). The split build (cargo feature `split`, turned on by `scripts/build-console.mjs`)
//! puts each screen declared with [`lazy_screen!`] into its own wasm chunk; every other build
//! (debug, the wasm tests) links it in as usual, because a wasm with split
//! points that was never split does not load.

use std::future::Future;
use std::pin::Pin;

use crate::i18n::M;
use leptos::either::{Either, EitherOf3};
use leptos::prelude::*;
use leptos::task::{spawn_local, spawn_local_scoped};

/// A screen's chunk could not be downloaded (network down, server error).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DownloadFailed;

impl From<leptos::wasm_split::SplitLoaderError> for DownloadFailed {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        DownloadFailed
    }
}

/// What the screen's view resolves to once its chunk is there.
pub type ScreenView = Pin<Box<dyn Future<Output = Result<AnyView, DownloadFailed>>>>;

/// A screen that may arrive later: how to show it and how to fetch it ahead.
#[derive(Clone, Copy)]
pub struct LazyScreen {
    pub load: fn() -> ScreenView,
    /// Starts downloading the chunk without showing anything (idle, hover, focus).
    pub prefetch: fn(),
}

/// Declares `mod $name` with a `SCREEN: LazyScreen` that shows `$component` (a component
/// without props). In the split build its code goes into the chunk `$chunk`: the screens of one
/// area share a chunk, so opening a list brings its detail pages along (fewer, better
/// compressed downloads than one chunk per screen). With `, only admin` the screen is for the
/// admin role alone ([`super::admin_only::admin_only`]), a gate that comes in the chunk too.
// rustfmt re-indents the split attribute on every run inside a macro: left as written.
#[rustfmt::skip]
macro_rules! lazy_screen {
    ($name:ident in $chunk:ident => $component:path, only admin) => {
        $crate::components::lazy_screen::lazy_screen!(
            @view $name in $chunk => $crate::components::admin_only::admin_only($component)
        );
    };
    ($name:ident in $chunk:ident => $component:path) => {
        $crate::components::lazy_screen::lazy_screen!(@view $name in $chunk => $component());
    };
    (@view $name:ident in $chunk:ident => $view:expr) => {
        pub(crate) mod $name {
            use leptos::prelude::{AnyView, IntoAny};
            use $crate::components::lazy_screen::{DownloadFailed, LazyScreen};

            #[cfg(feature = "split")]
            #[::leptos::wasm_split::wasm_split($chunk, wasm_split_path = ::leptos::wasm_split, fallible, preload(prefetch_chunk))]
            fn $name() -> Result<AnyView, DownloadFailed> {
                Ok($view.into_any())
            }

            // Named after the screen: the split's link names come from the function's name.
            #[cfg(not(feature = "split"))]
            async fn $name() -> Result<AnyView, DownloadFailed> {
                Ok($view.into_any())
            }

            #[cfg(not(feature = "split"))]
            async fn prefetch_chunk() -> Result<(), ::leptos::wasm_split::SplitLoaderError> {
                Ok(())
            }

            pub(crate) const SCREEN: LazyScreen = LazyScreen {
                load: || Box::pin($name()),
                prefetch: || {
                    // A failed prefetch is retried when the screen is opened.
                    leptos::task::spawn_local(async {
                        let _ = prefetch_chunk().await;
                    })
                },
            };
        }
    };
}
pub(crate) use lazy_screen;

impl leptos_router::ChooseView for LazyScreen {
    async fn choose(self) -> AnyView {
        match (self.load)().await {
            Ok(view) => view,
            Err(DownloadFailed) => view! { <DownloadFailedPanel screen=self /> }.into_any(),
        }
    }

    async fn preload(&self) {
        (self.prefetch)();
    }
}

/// A part of a screen in a chunk of its own (a [`lazy_screen!`] too): nothing until its chunk
/// is there, fetched when the part is first shown, so the screen around it paints without
/// waiting for it; then the part, or the failed-download panel with **Try again**.
#[component]
pub fn LazyPart(part: LazyScreen) -> impl IntoView {
    let arrived = RwSignal::new_local(None::<Result<AnyView, DownloadFailed>>);
    // Built in the part's place: with its contexts (auth, API, navigation).
    spawn_local_scoped(async move {
        let result = (part.load)().await;
        arrived.try_set(Some(result));
    });
    move || {
        arrived.track();
        match arrived.try_update_untracked(Option::take).flatten() {
            Some(Ok(view)) => EitherOf3::A(view),
            Some(Err(DownloadFailed)) => {
                EitherOf3::B(view! { <DownloadFailedPanel screen=part /> })
            }
            None => EitherOf3::C(()),
        }
    }
}

/// The same panel as a failed request, with "Try again" downloading the screen again.
#[component]
fn DownloadFailedPanel(screen: LazyScreen) -> impl IntoView {
    // Not `Clone`, so taken out once when it arrives.
    let arrived = RwSignal::new_local(None::<AnyView>);
    let trying = RwSignal::new(false);
    // The screen is built in the panel's place: with its contexts (auth, API, navigation).
    let owner = Owner::current();
    let retry = Callback::new(move |()| {
        trying.set(true);
        let attempt = async move {
            let result = (screen.load)().await;
            trying.try_set(false);
            if let Ok(view) = result {
                arrived.try_set(Some(view));
            }
        };
        match &owner {
            Some(owner) => owner.with(|| spawn_local_scoped(attempt)),
            None => spawn_local(attempt),
        }
    });
    move || {
        arrived.track();
        match arrived.try_update_untracked(Option::take).flatten() {
            Some(view) => Either::Left(view),
            None => Either::Right(view! {
                <div class="error-panel" role="alert" data-testid="screen-download-failed">
                    <p class="error-panel__message">{M::LazyFailed}</p>
                    <button type="button" class="button" disabled=move || trying.get() on:click=move |_| retry.run(())>
                        {M::CommonTryAgain}
                    </button>
                </div>
            }),
        }
    }
}

/// The screens the navigation can fetch ahead, by route path.
#[derive(Clone, Copy)]
pub struct Prefetch(pub &'static [(&'static str, LazyScreen)]);

impl Prefetch {
    /// Starts fetching the chunk of the screen at `path`, if it has one.
    pub fn path(&self, path: &str) {
        if let Some((_, screen)) = self.0.iter().find(|(p, _)| *p == path) {
            (screen.prefetch)();
        }
    }

    /// Starts fetching every screen's chunk (once the first screen is up and the browser idle).
    pub fn all(&self) {
        for (_, screen) in self.0 {
            (screen.prefetch)();
        }
    }
}

/// The console's [`Prefetch`], if the app provides one (the wasm tests mount screens alone).
pub fn use_prefetch() -> Option<Prefetch> {
    use_context::<Prefetch>()
}

/// How long after the first signed-in screen appears the console fetches what it will want
/// later (every screen's chunk, the dialogs' chunk with the language menu): long enough for the
/// first screen's own requests to go first.
pub(crate) const IDLE_PREFETCH_DELAY: std::time::Duration = std::time::Duration::from_millis(1500);
