//! The SDK validation of [`super`], asked of the bytes: is the validator
//! silent about this event?
//!
//! The fast path (`sdk/fast.rs`) only takes records about which
//! [`super::validate_event`] would say nothing. Building the record's
//! `serde_json::Value` only to learn that was most of an OpenHands parse, so
//! this walks the same model table over the record's bytes: objects and
//! lists member by member (from the split's container ends), strings by
//! their first byte; every other value (numbers, booleans, literals,
//! constrained values, coerced `content`) is parsed alone, small, and handed
//! to the exact validator. It answers `true` only when it is sure the exact
//! validator reports nothing; anything it does not follow (an escaped or
//! repeated key, a value it cannot parse) is `false`, and the record takes
//! the exact path, which then says what is wrong. The caller guarantees the
//! record holds none of the split's hazards, so a value parsed alone is the
//! value the whole record's parse would hold there.

use serde_json::Value;

use super::{Cx, Extra, Schema, Ty, ROOT_PARENT_ID};
use crate::json::read::{self, Kind, Member};
use crate::json::ContainerEnds;

/// True when [`super::validate_event`] would report nothing about the event
/// whose `{` is at `open`.
pub fn event_is_silent(b: &[u8], ends: &ContainerEnds, open: usize) -> bool {
    let q = Quick { b, ends, schema: super::schema() };
    let Some(end) = read::value_end(b, open, ends) else { return false };
    q.poly("Event", &Member { key: 0..0, key_escaped: false, value: open..end, kind: Kind::Object, escaped: false })
}

struct Quick<'b> {
    b: &'b [u8],
    ends: &'b ContainerEnds,
    schema: &'static Schema,
}

impl<'b> Quick<'b> {
    /// The exact validator's verdict on one value, parsed alone.
    fn exact(&self, ty: &Ty, m: &Member) -> bool {
        let Some(v) = self.parse(m) else { return false };
        let mut cx = Cx { schema: self.schema, issues: Vec::new(), path: Vec::new() };
        cx.value(ty, &v);
        cx.issues.is_empty()
    }

    fn parse(&self, m: &Member) -> Option<Value> {
        crate::json::build::value(self.b.get(m.value.clone())?)
    }

    fn members(&self, m: &Member) -> Option<Vec<Member>> {
        let mut out = Vec::new();
        read::members(self.b, m.value.start, self.ends, &mut out)?;
        Some(out)
    }

    fn key(&self, m: &Member) -> &'b [u8] {
        self.b.get(m.key.clone()).unwrap_or(&[])
    }

    fn value(&self, ty: &Ty, m: &Member) -> bool {
        match ty {
            Ty::Any => true,
            Ty::Null => m.kind == Kind::Null,
            Ty::Str => m.kind == Kind::String,
            Ty::List(item) => {
                if m.kind != Kind::Array {
                    return false;
                }
                let mut items = Vec::new();
                if read::items(self.b, m.value.start, self.ends, &mut items).is_none() {
                    return false;
                }
                items.into_iter().all(|r| self.value(item, &self.item(r)))
            }
            Ty::Dict(item) => m.kind == Kind::Object && self.members(m).is_some_and(|ms| ms.iter().all(|x| self.value(item, x))),
            // Smart mode: valid as soon as one member is.
            Ty::Union(members) => members.iter().any(|t| self.value(t, m)),
            Ty::Model(name) => m.kind == Kind::Object && self.members(m).is_some_and(|ms| self.model(name, &ms, false)),
            Ty::Poly(union) => self.poly(union, m),
            Ty::Int | Ty::Float | Ty::Bool | Ty::Literal(_) | Ty::KindOf(_) | Ty::Constrained(..) => self.exact(ty, m),
        }
    }

    /// An array item as a member (no key; `escaped`, which only keys and
    /// `kind`/`id` values are asked, is not looked for).
    fn item(&self, r: std::ops::Range<usize>) -> Member {
        let kind = self.b.get(r.start).map(|c| Kind::of(*c)).unwrap_or(Kind::Null);
        Member { key: 0..0, key_escaped: false, value: r, kind, escaped: true }
    }

    /// `Cx::poly`: the class `kind` names, validated without its `kind`.
    fn poly(&self, union: &str, m: &Member) -> bool {
        if m.kind != Kind::Object {
            return false;
        }
        let Some(ms) = self.members(m) else { return false };
        let kinds = self.schema.kinds(union);
        let given = ms.iter().find(|x| self.key(x) == b"kind");
        let kind = match given {
            Some(k) if k.kind == Kind::String && !k.escaped => match std::str::from_utf8(self.b.get(k.inner()).unwrap_or(&[])) {
                Ok(s) => s.to_string(),
                Err(_) => return false,
            },
            None if kinds.len() == 1 => kinds.first().cloned().unwrap_or_default(),
            Some(k) if k.kind == Kind::Null && kinds.len() == 1 => kinds.first().cloned().unwrap_or_default(),
            _ => return false,
        };
        if !self.schema.is_kind(union, &kind) || !self.model(&kind, &ms, true) {
            return false;
        }
        // `check_event_id`: the reserved root id.
        union != "Event" || !ms.iter().any(|x| self.key(x) == b"id" && x.kind == Kind::String && (x.escaped || self.b.get(x.inner()) == Some(ROOT_PARENT_ID.as_bytes())))
    }

    /// `Cx::model_object` on the members `ms`; `kind_taken` when `poly`
    /// removed `kind` before.
    fn model(&self, name: &str, ms: &[Member], kind_taken: bool) -> bool {
        let Some(model) = self.schema.models.get(name) else { return true };
        // Keys must be their bytes and each given once, as serde_json's map holds them.
        for (i, m) in ms.iter().enumerate() {
            if m.key_escaped || ms.iter().skip(i + 1).any(|x| self.key(x) == self.key(m)) {
                return false;
            }
        }
        let is = |m: &Member, k: &str| self.key(m) == k.as_bytes();
        let deprecated = |m: &Member| model.deprecated.iter().any(|d| is(m, d));
        let kind_dropped = kind_taken || model.discriminated;
        if model.discriminated && !kind_taken {
            if let Some(k) = ms.iter().find(|m| is(m, "kind") && !deprecated(m)) {
                let named = k.kind == Kind::String && !k.escaped && self.b.get(k.inner()) == Some(name.as_bytes());
                if !(k.kind == Kind::Null || named) {
                    return false;
                }
            }
        }
        for f in &model.fields {
            let key = f.alias.as_deref().unwrap_or(&f.name);
            let found = ms.iter().find(|m| is(m, key) && !deprecated(m) && !(kind_dropped && key == "kind"));
            let Some(m) = found else {
                if f.required {
                    return false;
                }
                continue;
            };
            let ok = if model.coerce_content && key == "content" && matches!(m.kind, Kind::Null | Kind::String) {
                // A coerced value is no longer null: constraints would apply to it.
                f.constraints.is_empty() && self.coerced_content(&f.ty, m)
            } else {
                self.value(&f.ty, m)
            };
            if !ok {
                return false;
            }
            if m.kind != Kind::Null && !f.constraints.is_empty() {
                let Some(v) = self.parse(m) else { return false };
                let mut cx = Cx { schema: self.schema, issues: Vec::new(), path: Vec::new() };
                cx.constrain(&f.constraints, &v);
                if !cx.issues.is_empty() {
                    return false;
                }
            }
        }
        if model.extra == Extra::Forbid {
            let known = |m: &Member| model.fields.iter().any(|f| is(m, f.alias.as_deref().unwrap_or(&f.name)));
            return ms.iter().all(|m| known(m) || deprecated(m) || (kind_dropped && is(m, "kind")));
        }
        true
    }

    /// `Message.content`: null reads as `[]`, a string as one text part.
    fn coerced_content(&self, ty: &Ty, m: &Member) -> bool {
        let v = match m.kind {
            Kind::Null => Value::Array(Vec::new()),
            _ => match self.parse(m) {
                Some(Value::String(s)) => serde_json::json!([{"type": "text", "text": s}]),
                _ => return false,
            },
        };
        let mut cx = Cx { schema: self.schema, issues: Vec::new(), path: Vec::new() };
        cx.value(ty, &v);
        cx.issues.is_empty()
    }
}
