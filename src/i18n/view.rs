//! A message as a view and as an attribute value: `{M::SignIn}`, `aria-label=M::Main`. Each is a
//! text that follows the language, drawn by one renderer the whole console shares (a closure in
//! `view!` compiles a renderer of its own for each place it is written, and a signal per text
//! costs a reactive node more).

use leptos::prelude::*;
use leptos::tachys::html::attribute::{any_attribute::AnyAttribute, Attribute, AttributeValue};
use leptos::tachys::hydration::Cursor;
use leptos::tachys::reactive_graph::RenderEffectState;
use leptos::tachys::renderer::types::Element;
use leptos::tachys::ssr::StreamBuilder;
use leptos::tachys::view::{add_attr::AddAnyAttr, Position, PositionState, Render, RenderHtml};

use super::{t, M};

/// What a message's text node keeps between redraws.
type TextState = RenderEffectState<<&'static str as Render>::State>;

impl Render for M {
    type State = TextState;

    #[inline(never)]
    fn build(self) -> Self::State {
        Render::build(move || t(self))
    }

    #[inline(never)]
    fn rebuild(self, state: &mut Self::State) {
        Render::rebuild(move || t(self), state)
    }
}

impl AddAnyAttr for M {
    type Output<SomeNewAttr: Attribute> = Self;

    fn add_any_attr<NewAttr: Attribute>(self, _attr: NewAttr) -> Self::Output<NewAttr> {
        self
    }
}

impl RenderHtml for M {
    type AsyncOutput = Self;
    type Owned = Self;

    const MIN_LENGTH: usize = 0;

    fn dry_resolve(&mut self) {}

    async fn resolve(self) -> Self::AsyncOutput {
        self
    }

    fn html_len(&self) -> usize {
        self.1.len()
    }

    fn to_html_with_buf(
        self,
        buf: &mut String,
        position: &mut Position,
        escape: bool,
        mark_branches: bool,
        extra_attrs: Vec<AnyAttribute>,
    ) {
        RenderHtml::to_html_with_buf(t(self), buf, position, escape, mark_branches, extra_attrs)
    }

    fn to_html_async_with_buf<const OUT_OF_ORDER: bool>(
        self,
        buf: &mut StreamBuilder,
        position: &mut Position,
        escape: bool,
        mark_branches: bool,
        extra_attrs: Vec<AnyAttribute>,
    ) where
        Self: Sized,
    {
        RenderHtml::to_html_async_with_buf::<OUT_OF_ORDER>(
            t(self),
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
        RenderHtml::hydrate::<FROM_SERVER>(move || t(self), cursor, position)
    }

    fn into_owned(self) -> Self::Owned {
        self
    }
}

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
