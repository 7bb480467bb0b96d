//! The SDK validation of [`super`], asked of the bytes: is the validator
//! silent about this event?
//!
//! The fast path (`sdk/fast.rs`) only takes records about which
//! [`super::validate_event`] would say nothing. Building the record's
//! `serde_json::Value` only to learn that was most of an OpenHands parse, so
//! this walks the same model table over the record's bytes: objects and
//! lists member by member (from the split's container ends), strings by
//! their first byte, `true`/`false`, short integers and plain literal
//! strings by their bytes; every other value (long numbers, escaped
//! literals, constrained values, coerced `content`) is parsed alone, small,
//! and handed to the exact validator. It answers `true` only when it is sure the exact
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
/// whose `{` is at `open`. The objects read on the way are left in `cache`
/// for the reader that maps the event.
pub fn event_is_silent(objects: Objects, cache: &mut MemberCache, open: usize) -> bool {
    let Some(end) = read::value_end(objects.b, open, objects.ends) else { return false };
    let mut q = Quick { o: objects, schema: super::schema(), cache };
    q.poly("Event", &Member { key: 0..0, key_escaped: false, value: open..end, kind: Kind::Object, escaped: false })
}

/// Where a record's objects are read from: the bytes, the split's
/// container ends, and the split's `repeats` (sorted; `None` when the split
/// met a syntax error and they may be incomplete).
#[derive(Clone, Copy)]
pub struct Objects<'b> {
    pub b: &'b [u8],
    pub ends: &'b ContainerEnds,
    pub repeats: Option<&'b [usize]>,
}

impl Objects<'_> {
    /// True when each key of the object at `open` (members `ms`) is its
    /// bytes and is given once, so that a key found among `ms` is the one
    /// serde_json's map holds. The split lists every object that may break
    /// this; only those are checked here.
    pub fn plain_keys(&self, open: usize, ms: &[Member]) -> bool {
        if self.repeats.is_some_and(|r| r.binary_search(&open).is_err()) {
            return true;
        }
        let key = |m: &Member| self.b.get(m.key.clone()).unwrap_or(&[]);
        if ms.len() > 48 {
            return ms.iter().enumerate().all(|(i, m)| !m.key_escaped && !ms.iter().skip(i + 1).any(|x| same(key(x), key(m))));
        }
        // An open-addressing table of the keys' hashes: only keys of equal
        // hash are compared.
        let mut table = [(0u64, usize::MAX); 64];
        for (i, m) in ms.iter().enumerate() {
            if m.key_escaped {
                return false;
            }
            let h = key(m).iter().fold(0xcbf2_9ce4_8422_2325u64, |h, c| (h ^ u64::from(*c)).wrapping_mul(0x0100_0000_01b3));
            let mut slot = (h as usize) & 63;
            loop {
                let Some(entry) = table.get_mut(slot) else { return false };
                if entry.1 == usize::MAX {
                    *entry = (h, i);
                    break;
                }
                if entry.0 == h && ms.get(entry.1).is_some_and(|x| key(x) == key(m)) {
                    return false;
                }
                slot = (slot + 1) & 63;
            }
        }
        true
    }
}

/// Byte-string equality that looks at the length and the first and last
/// bytes before comparing the rest (keys of one object mostly differ there).
pub fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.first() == b.first() && a.last() == b.last() && a == b
}

/// The members of objects read once by the validator and again by the
/// mapping, kept between the two (by their `{`).
#[derive(Default)]
pub struct MemberCache {
    objects: Vec<(usize, Vec<Member>)>,
    /// The objects whose keys were found plain ([`Objects::plain_keys`]).
    plain: Vec<usize>,
    /// Emptied buffers, reused from record to record.
    spare: Vec<Vec<Member>>,
}

impl MemberCache {
    /// The members of the object at `open`, from the cache or read now.
    pub fn take(&mut self, o: &Objects, open: usize) -> Option<Vec<Member>> {
        if let Some(i) = self.objects.iter().position(|(at, _)| *at == open) {
            return Some(self.objects.swap_remove(i).1);
        }
        let mut out = self.spare.pop().unwrap_or_else(|| Vec::with_capacity(16));
        read::members(o.b, open, o.ends, &mut out)?;
        Some(out)
    }

    pub fn put(&mut self, open: usize, members: Vec<Member>) {
        self.objects.push((open, members));
    }

    /// [`Objects::plain_keys`], asked once per object.
    pub fn plain_keys(&mut self, o: &Objects, open: usize, ms: &[Member]) -> bool {
        if self.plain.contains(&open) {
            return true;
        }
        let plain = o.plain_keys(open, ms);
        if plain {
            self.plain.push(open);
        }
        plain
    }

    /// Forgets the record's objects, keeping their buffers.
    pub fn clear(&mut self) {
        self.plain.clear();
        self.spare.extend(self.objects.drain(..).map(|(_, v)| v));
    }

    /// Takes back a buffer a reader is done with.
    pub fn recycle(&mut self, members: Vec<Member>) {
        self.spare.push(members);
    }
}

struct Quick<'b, 'c> {
    o: Objects<'b>,
    schema: &'static Schema,
    cache: &'c mut MemberCache,
}

impl<'b> Quick<'b, '_> {
    /// The exact validator's verdict on one value, parsed alone.
    fn exact(&self, ty: &Ty, m: &Member) -> bool {
        let Some(v) = self.parse(m) else { return false };
        let mut cx = Cx { schema: self.schema, issues: Vec::new(), path: Vec::new() };
        cx.value(ty, &v);
        cx.issues.is_empty()
    }

    fn parse(&self, m: &Member) -> Option<Value> {
        crate::json::build::value(self.o.b.get(m.value.clone())?)
    }

    fn key(&self, m: &Member) -> &'b [u8] {
        self.o.b.get(m.key.clone()).unwrap_or(&[])
    }

    fn bytes(&self, m: &Member) -> &'b [u8] {
        self.o.b.get(m.value.clone()).unwrap_or(&[])
    }

    /// Validates the members of the object `m` with `f`, then leaves them in the cache.
    fn object(&mut self, m: &Member, f: impl FnOnce(&mut Self, &[Member]) -> bool) -> bool {
        if m.kind != Kind::Object {
            return false;
        }
        let open = m.value.start;
        let Some(ms) = self.cache.take(&self.o, open) else { return false };
        let ok = f(self, &ms);
        self.cache.put(open, ms);
        ok
    }

    fn value(&mut self, ty: &Ty, m: &Member) -> bool {
        match ty {
            Ty::Any => true,
            Ty::Null => m.kind == Kind::Null,
            Ty::Str => m.kind == Kind::String,
            Ty::List(item) => {
                if m.kind != Kind::Array {
                    return false;
                }
                let mut items = Vec::new();
                if read::items(self.o.b, m.value.start, self.o.ends, &mut items).is_none() {
                    return false;
                }
                items.into_iter().all(|r| {
                    let m = self.item(r);
                    self.value(item, &m)
                })
            }
            Ty::Dict(item) => self.object(m, |q, ms| ms.iter().all(|x| q.value(item, x))),
            // Smart mode: valid as soon as one member is.
            Ty::Union(members) => members.iter().any(|t| self.value(t, m)),
            Ty::Model(name) => self.object(m, |q, ms| q.model(name, m.value.start, ms, false)),
            Ty::Poly(union) => self.poly(union, m),
            // `true`/`false` are booleans; short integer literals are integers and numbers.
            Ty::Bool if m.kind == Kind::Bool => true,
            Ty::Int | Ty::Float if m.kind == Kind::Number && self.short_integer(m) => true,
            Ty::Literal(values) if self.literal_given(values, m) => true,
            Ty::Int | Ty::Float | Ty::Bool | Ty::Literal(_) | Ty::KindOf(_) | Ty::Constrained(..) => self.exact(ty, m),
        }
    }

    fn short_integer(&self, m: &Member) -> bool {
        let digits = self.bytes(m).strip_prefix(b"-").unwrap_or(self.bytes(m));
        !digits.is_empty() && digits.len() <= 15 && digits.iter().all(u8::is_ascii_digit)
    }

    /// A plain string or null among the literal's values.
    fn literal_given(&self, values: &[Value], m: &Member) -> bool {
        match m.kind {
            Kind::Null => values.iter().any(Value::is_null),
            Kind::String if !m.escaped => {
                let inner = self.o.b.get(m.inner()).unwrap_or(&[]);
                values.iter().any(|v| v.as_str().is_some_and(|s| s.as_bytes() == inner))
            }
            _ => false,
        }
    }

    /// An array item as a member (no key; `escaped`, which only keys and
    /// `kind`/`id`/literal values are asked, is not looked for).
    fn item(&self, r: std::ops::Range<usize>) -> Member {
        let kind = self.o.b.get(r.start).map(|c| Kind::of(*c)).unwrap_or(Kind::Null);
        Member { key: 0..0, key_escaped: false, value: r, kind, escaped: true }
    }

    /// `Cx::poly`: the class `kind` names, validated without its `kind`.
    fn poly(&mut self, union: &str, m: &Member) -> bool {
        self.object(m, |q, ms| {
            let kinds = q.schema.kinds(union);
            let given = ms.iter().find(|x| q.key(x) == b"kind");
            let kind = match given {
                Some(k) if k.kind == Kind::String && !k.escaped => match std::str::from_utf8(q.o.b.get(k.inner()).unwrap_or(&[])) {
                    Ok(s) => s,
                    Err(_) => return false,
                },
                None if kinds.len() == 1 => kinds.first().map(String::as_str).unwrap_or_default(),
                Some(k) if k.kind == Kind::Null && kinds.len() == 1 => kinds.first().map(String::as_str).unwrap_or_default(),
                _ => return false,
            };
            if !q.schema.is_kind(union, kind) || !q.model(kind, m.value.start, ms, true) {
                return false;
            }
            // `check_event_id`: the reserved root id.
            union != "Event"
                || !ms.iter().any(|x| q.key(x) == b"id" && x.kind == Kind::String && (x.escaped || q.o.b.get(x.inner()) == Some(ROOT_PARENT_ID.as_bytes())))
        })
    }

    /// `Cx::model_object` on the members `ms` of the object at `open`;
    /// `kind_taken` when `poly` removed `kind` before.
    fn model(&mut self, name: &str, open: usize, ms: &[Member], kind_taken: bool) -> bool {
        let Some(model) = self.schema.models.get(name) else { return true };
        if !self.cache.plain_keys(&self.o, open, ms) {
            return false;
        }
        let kind_dropped = kind_taken || model.discriminated;
        // Each member once: removed (deprecated, or the popped `kind`), a field (validated), or extra.
        let mut found = [false; 64];
        for m in ms {
            let key = self.key(m);
            if model.deprecated.iter().any(|d| same(d.as_bytes(), key)) {
                continue;
            }
            if key == b"kind" && kind_dropped {
                // A discriminated model's own `kind`: null or its name.
                let named = m.kind == Kind::String && !m.escaped && self.o.b.get(m.inner()) == Some(name.as_bytes());
                if !(kind_taken || m.kind == Kind::Null || named) {
                    return false;
                }
                continue;
            }
            let Some(i) = model.fields.iter().position(|f| same(f.alias.as_deref().unwrap_or(&f.name).as_bytes(), key)) else {
                if model.extra == Extra::Forbid {
                    return false;
                }
                continue;
            };
            let (Some(seen), Some(f)) = (found.get_mut(i), model.fields.get(i)) else { return false };
            *seen = true;
            let ok = if model.coerce_content && key == b"content" && matches!(m.kind, Kind::Null | Kind::String) {
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
        model.fields.len() <= found.len() && model.fields.iter().zip(found).all(|(f, seen)| seen || !f.required)
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
