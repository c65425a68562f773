//! A message as a view and as an attribute value: `{M::SignIn}`, `aria-label=M::Main`, and a
//! computed text, `{live_text(move || msg::x(n.get()))}`. Each is a text that follows the language
//! (and whatever else it reads), drawn by one renderer the whole console shares: a closure in
//! `view!` compiles a renderer of its own for each place it is written (about 1 KB of wasm
//! each), and a signal per text costs a reactive node more.

use leptos::prelude::*;
use leptos::tachys::html::attribute::{any_attribute::AnyAttribute, Attribute, AttributeValue};
use leptos::tachys::hydration::Cursor;
use leptos::tachys::reactive_graph::RenderEffectState;
use leptos::tachys::renderer::types::Element;
use leptos::tachys::view::{add_attr::AddAnyAttr, Position, PositionState, Render, RenderHtml};

use super::{t, M};

/// A text computed when drawn, and again when a signal it reads changes (the language, a
/// count, a locale's number format); none shows nothing.
pub(crate) struct Text(Box<dyn Fn() -> Option<String> + Send>);

/// `{live_text(move || …)}` in a view: see [`Text`].
pub(crate) fn live_text<S: IntoText>(compute: impl Fn() -> S + Send + 'static) -> Text {
    Text(Box::new(move || compute().into_text()))
}

/// What [`live_text`] shows: a text, or perhaps none.
pub(crate) trait IntoText {
    fn into_text(self) -> Option<String>;
}

impl IntoText for String {
    fn into_text(self) -> Option<String> {
        Some(self)
    }
}

impl IntoText for &'static str {
    fn into_text(self) -> Option<String> {
        Some(self.to_owned())
    }
}

impl IntoText for Option<String> {
    fn into_text(self) -> Option<String> {
        self
    }
}

impl IntoText for Option<&'static str> {
    fn into_text(self) -> Option<String> {
        self.map(str::to_owned)
    }
}

/// `Render`, `AddAnyAttr` and `RenderHtml` for `$type`, drawn as the text `$text` makes of it
/// (`$this`), and drawn again when a signal that reads changes. The console renders no HTML on
/// a server: there the text is written once, as it stands.
macro_rules! text_view {
    ($type:ty, $shown:ty, |$this:ident| $text:expr) => {
        impl Render for $type {
            type State = RenderEffectState<<$shown as Render>::State>;

            #[inline(never)]
            fn build(self) -> Self::State {
                let $this = self;
                Render::build(move || $text)
            }

            #[inline(never)]
            fn rebuild(self, state: &mut Self::State) {
                let $this = self;
                Render::rebuild(move || $text, state)
            }
        }

        impl AddAnyAttr for $type {
            type Output<SomeNewAttr: Attribute> = Self;

            fn add_any_attr<NewAttr: Attribute>(self, _attr: NewAttr) -> Self::Output<NewAttr> {
                self
            }
        }

        impl RenderHtml for $type {
            type AsyncOutput = Self;
            type Owned = Self;

            const MIN_LENGTH: usize = 0;

            fn dry_resolve(&mut self) {}

            async fn resolve(self) -> Self::AsyncOutput {
                self
            }

            fn to_html_with_buf(
                self,
                buf: &mut String,
                position: &mut Position,
                escape: bool,
                mark_branches: bool,
                extra_attrs: Vec<AnyAttribute>,
            ) {
                let $this = self;
                RenderHtml::to_html_with_buf(
                    $text,
                    buf,
                    position,
                    escape,
                    mark_branches,
                    extra_attrs,
                )
            }

            fn hydrate<const FROM_SERVER: bool>(
                self,
                cursor: &Cursor,
                position: &PositionState,
            ) -> Self::State {
                let $this = self;
                RenderHtml::hydrate::<FROM_SERVER>(move || $text, cursor, position)
            }

            fn into_owned(self) -> Self::Owned {
                self
            }
        }
    };
}

text_view!(M, &'static str, |message| t(message));
text_view!(Text, Option<String>, |text| (text.0)());

impl AttributeValue for M {
    type AsyncOutput = Self;
    type State = RenderEffect<<&'static str as AttributeValue>::State>;
    type Cloneable = Self;
    type CloneableOwned = Self;

    fn html_len(&self) -> usize {
        self.1.len()
    }

    fn to_html(self, key: &str, buf: &mut String) {
        AttributeValue::to_html(t(self), key, buf)
    }

    fn to_template(_key: &str, _buf: &mut String) {}

    fn hydrate<const FROM_SERVER: bool>(self, key: &str, el: &Element) -> Self::State {
        AttributeValue::hydrate::<FROM_SERVER>(move || t(self), key, el)
    }

    #[inline(never)]
    fn build(self, el: &Element, key: &str) -> Self::State {
        AttributeValue::build(move || t(self), el, key)
    }

    #[inline(never)]
    fn rebuild(self, key: &str, state: &mut Self::State) {
        AttributeValue::rebuild(move || t(self), key, state)
    }

    fn into_cloneable(self) -> Self::Cloneable {
        self
    }

    fn into_cloneable_owned(self) -> Self::CloneableOwned {
        self
    }

    fn dry_resolve(&mut self) {}

    async fn resolve(self) -> Self::AsyncOutput {
        self
    }
}
