//! What the reading takes from a record besides its content ([`Read`]),
//! found the same way in a parsed record (the exact path) and in the
//! record's bytes (the fast path), through [`Look`].
//!
//! The fast path used to build the members it read into a
//! `serde_json::Map` (a String key and a SipHash insert each, then a
//! SipHash lookup for every read): most of a record's reading. Here it
//! finds them among the members `json::read` found, and decodes only the
//! strings the model keeps.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::usage;
use crate::json::read::{self, Kind, Member};
use crate::json::string::decode_literal;
use crate::json::ContainerEnds;

pub use super::keys::K;

/// A value in the source the fast path cannot be sure to read as serde_json
/// does (an object with an escaped key, a value the builder declines): the
/// exact path reads the record.
#[derive(Debug)]
pub struct Unsure;

/// An object as the reading looks at it, by the keys the reading knows ([`K`]).
pub trait Look: Sized {
    /// The kind of member `k`'s value, when the object has it.
    fn kind(&self, k: K) -> Option<Kind>;
    /// Member `k` when it is a string (`Value::as_str`).
    fn str(&self, k: K) -> Option<Cow<'_, str>>;
    /// [`Look::str`]'s text as bytes: in the source, not checked as UTF-8
    /// again (the fast path reads only valid UTF-8) nor copied when it
    /// holds no escape.
    fn bytes(&self, k: K) -> Option<Cow<'_, [u8]>>;
    /// Member `k` when it is an object.
    fn object(&self, k: K) -> Result<Option<Self>, Unsure>;
    /// Member `k`'s value, built.
    fn value(&self, k: K) -> Result<Option<Value>, Unsure>;
    /// Member `k` when it is a boolean (`Value::as_bool`).
    fn bool(&self, k: K) -> Option<bool>;
    /// Member `k` when it is a number that is a `u64` (`Value::as_u64`).
    fn u64(&self, k: K) -> Option<u64>;

    fn has(&self, k: K) -> bool {
        self.kind(k).is_some()
    }
}

fn kind_of(v: &Value) -> Kind {
    match v {
        Value::String(_) => Kind::String,
        Value::Number(_) => Kind::Number,
        Value::Object(_) => Kind::Object,
        Value::Array(_) => Kind::Array,
        Value::Bool(_) => Kind::Bool,
        Value::Null => Kind::Null,
    }
}

impl Look for &Map<String, Value> {
    fn kind(&self, k: K) -> Option<Kind> {
        self.get(k.name()).map(kind_of)
    }

    fn str(&self, k: K) -> Option<Cow<'_, str>> {
        self.get(k.name()).and_then(Value::as_str).map(Cow::Borrowed)
    }

    fn bytes(&self, k: K) -> Option<Cow<'_, [u8]>> {
        self.get(k.name()).and_then(Value::as_str).map(|s| Cow::Borrowed(s.as_bytes()))
    }

    fn object(&self, k: K) -> Result<Option<Self>, Unsure> {
        Ok(self.get(k.name()).and_then(Value::as_object))
    }

    fn value(&self, k: K) -> Result<Option<Value>, Unsure> {
        Ok(self.get(k.name()).cloned())
    }

    fn bool(&self, k: K) -> Option<bool> {
        self.get(k.name()).and_then(Value::as_bool)
    }

    fn u64(&self, k: K) -> Option<u64> {
        self.get(k.name()).and_then(Value::as_u64)
    }
}

/// An object in the source: its members as `json::read` found them. Only
/// for an object of a plain record (`fields::plain_record`) whose keys hold
/// no escape ([`InBytes::at`] checks): its bytes are then what serde_json
/// reads, and a key's bytes are its text. The members of the keys the
/// reading knows are placed by key in the one pass that checks the keys, so
/// each look is an index, not a scan of the members (some forty a record).
pub struct InBytes<'a> {
    b: &'a [u8],
    ends: &'a ContainerEnds,
    members: Vec<Member>,
    /// Each [`K`]'s member (the last of a repeated key), [`ABSENT`] when none.
    by_key: [u32; K::ALL.len()],
    /// The [`K`]s seen more than once (a bit each).
    repeated: u64,
}

const ABSENT: u32 = u32::MAX;

impl<'a> InBytes<'a> {
    /// The object whose `{` is at `open`; `None` when a key is escaped.
    pub fn at(b: &'a [u8], ends: &'a ContainerEnds, open: usize) -> Option<InBytes<'a>> {
        let mut members = Vec::new();
        read::members(b, open, ends, &mut members)?;
        InBytes::of(b, ends, members)
    }

    /// The object whose members are `members`; `None` when a key is escaped
    /// (or the object has more members than an index holds).
    pub fn of(b: &'a [u8], ends: &'a ContainerEnds, members: Vec<Member>) -> Option<InBytes<'a>> {
        let mut by_key = [ABSENT; K::ALL.len()];
        let mut repeated = 0u64;
        for (i, m) in members.iter().enumerate() {
            if m.key_escaped {
                return None;
            }
            if let Some(k) = K::of(b.get(m.key.clone())?) {
                let slot = by_key.get_mut(k as usize)?;
                if *slot != ABSENT {
                    repeated |= 1 << (k as u32);
                }
                *slot = u32::try_from(i).ok().filter(|i| *i != ABSENT)?;
            }
        }
        Some(InBytes { b, ends, members, by_key, repeated })
    }

    /// An object with no member placed yet, to be filled by [`InBytes::place`]
    /// (a walk that places members as it finds them: `super::walk`).
    pub(super) fn placing(b: &'a [u8], ends: &'a ContainerEnds, members: Vec<Member>) -> InBytes<'a> {
        InBytes { b, ends, members, by_key: [ABSENT; K::ALL.len()], repeated: 0 }
    }

    /// Places member `m`, whose key is `k`, after those placed before (the
    /// last of a repeated key is the one [`InBytes::get`] gives).
    #[inline(always)]
    pub(super) fn place(&mut self, k: K, m: Member) -> Option<()> {
        let slot = self.by_key.get_mut(k as usize)?;
        if *slot != ABSENT {
            self.repeated |= 1 << (k as u32);
        }
        *slot = u32::try_from(self.members.len()).ok().filter(|i| *i != ABSENT)?;
        self.members.push(m);
        Some(())
    }

    pub fn into_members(self) -> Vec<Member> {
        self.members
    }

    /// Member `k` (the last one of a repeated key: serde_json keeps its value).
    pub fn get(&self, k: K) -> Option<&Member> {
        self.members.get(usize::try_from(*self.by_key.get(k as usize)?).ok()?)
    }

    /// Member `k`'s text when it is a string, as bytes: borrowed from the
    /// source when it holds no escape (its bytes are then its text), else
    /// decoded.
    pub fn id(&self, k: K) -> Option<Cow<'a, [u8]>> {
        let m = self.get(k).filter(|m| m.kind == Kind::String)?;
        let raw = self.b.get(m.inner())?;
        Some(if m.escaped { Cow::Owned(decode_literal(raw, true).into_owned().into_bytes()) } else { Cow::Borrowed(raw) })
    }

    /// Key `k` appears more than once.
    pub fn repeated(&self, k: K) -> bool {
        self.repeated & (1 << (k as u32)) != 0
    }
}

impl Look for InBytes<'_> {
    fn kind(&self, k: K) -> Option<Kind> {
        self.get(k).map(|m| m.kind)
    }

    fn str(&self, k: K) -> Option<Cow<'_, str>> {
        let m = self.get(k).filter(|m| m.kind == Kind::String)?;
        Some(decode_literal(self.b.get(m.inner())?, m.escaped))
    }

    fn bytes(&self, k: K) -> Option<Cow<'_, [u8]>> {
        self.id(k)
    }

    /// An object with an escaped key (one might decode to a key read) is `Unsure`.
    fn object(&self, k: K) -> Result<Option<Self>, Unsure> {
        match self.get(k).filter(|m| m.kind == Kind::Object) {
            None => Ok(None),
            Some(m) => InBytes::at(self.b, self.ends, m.value.start).map(Some).ok_or(Unsure),
        }
    }

    fn value(&self, k: K) -> Result<Option<Value>, Unsure> {
        match self.get(k) {
            None => Ok(None),
            Some(m) => self.b.get(m.value.clone()).and_then(crate::json::build::value).map(Some).ok_or(Unsure),
        }
    }

    fn bool(&self, k: K) -> Option<bool> {
        let m = self.get(k).filter(|m| m.kind == Kind::Bool)?;
        Some(self.b.get(m.value.clone()) == Some(b"true"))
    }

    /// As serde_json's `as_u64` with `arbitrary_precision` (which keeps the
    /// number's text): the text parsed as a `u64`, that is, digits alone
    /// (a JSON number has no `+`) that do not overflow.
    fn u64(&self, k: K) -> Option<u64> {
        let m = self.get(k).filter(|m| m.kind == Kind::Number)?;
        let digits = self.b.get(m.value.clone()).filter(|d| !d.is_empty())?;
        digits.iter().try_fold(0u64, |n, d| if d.is_ascii_digit() { n.checked_mul(10)?.checked_add(u64::from(d - b'0')) } else { None })
    }
}

/// A string member's text as bytes, borrowed from the source where it can
/// be: ids are compared and hashed, never shown, so the fast path neither
/// copies them nor checks them as UTF-8 again.
pub type Id<'b> = Cow<'b, [u8]>;

/// An object's string members as [`Id`]s that outlive the object: borrowed
/// from the source for an object in it ([`InBytes`]), copied from a parsed one.
pub trait Ids<'b> {
    fn id_of(&self, k: K) -> Option<Id<'b>>;
}

impl<'b> Ids<'b> for InBytes<'b> {
    fn id_of(&self, k: K) -> Option<Id<'b>> {
        self.id(k)
    }
}

impl<'b> Ids<'b> for &Map<String, Value> {
    fn id_of(&self, k: K) -> Option<Id<'b>> {
        self.get(k.name()).and_then(Value::as_str).map(|s| Cow::Owned(s.as_bytes().to_vec()))
    }
}

/// `toolUseResult.agentId` of record `o` (a sub-agent's result), as
/// [`Read::result_agent`] takes it ([`agent_of`] its `toolUseResult`).
pub fn result_agent<L: Look>(o: &L) -> Result<Option<String>, Unsure> {
    Ok(agent_of(o.object(K::ToolUseResult)?.as_ref()))
}

/// A `toolUseResult` object's `agentId` when it is a string.
pub fn agent_of<L: Look>(result: Option<&L>) -> Option<String> {
    result.and_then(|t| t.str(K::AgentId).map(Cow::into_owned))
}

/// What the reading takes from a record besides its content.
#[derive(Default)]
pub struct Read<'b> {
    /// `type` (empty when it is no string); one of [`super::RECORD_TYPES`] not copied.
    pub kind: Cow<'static, str>,
    pub timestamp: Option<String>,
    pub uuid: Option<Id<'b>>,
    pub parent: Option<Id<'b>>,
    pub logical_parent: Option<Id<'b>>,
    /// The record has a `toolUseResult` (of any kind).
    pub tool_use_result: bool,
    /// `toolUseResult.agentId`: a sub-agent's result.
    pub result_agent: Option<String>,
    /// `message.id`, `requestId` (the usage is counted once per pair) and `message.model`.
    pub message_id: Option<Id<'b>>,
    pub request_id: Option<Id<'b>>,
    pub model: Option<String>,
    /// `isApiErrorMessage: true`.
    pub failed: bool,
    /// The usage ccusage would count, before the repeat check.
    pub usage: Option<usage::Claim>,
}

impl<'b> Read<'b> {
    /// Reads `o` (its `message` object: `message`, whose last `usage` is
    /// `walked_usage` when the caller found it already); `listed` as
    /// [`usage::claim`] takes it. The usage of a `message.id` + `requestId`
    /// pair `counted` already is not read: it would not count (each later
    /// record of a response repeats it). Never `Unsure` for a parsed record.
    pub fn of<L: Look + Ids<'b>>(o: &L, message: Option<&L>, walked_usage: Option<&L>, result_agent: Option<String>, listed: bool, counted: &usage::Counted<'b>) -> Result<Read<'b>, Unsure> {
        let s = |k: K| o.str(k).map(Cow::into_owned);
        let message_id = message.and_then(|m| m.id_of(K::Id));
        let request_id = o.id_of(K::RequestId);
        let usage = if counted.has(message_id.as_ref(), request_id.as_ref()) { None } else { usage::claim(o, message, walked_usage, listed)? };
        Ok(Read {
            kind: match o.bytes(K::Type) {
                Some(t) => super::RECORD_TYPES.iter().find(|k| k.as_bytes() == &*t).map_or_else(|| Cow::Owned(String::from_utf8_lossy(&t).into_owned()), |k| Cow::Borrowed(*k)),
                None => Cow::Borrowed(""),
            },
            timestamp: s(K::Timestamp),
            uuid: o.id_of(K::Uuid),
            parent: o.id_of(K::ParentUuid),
            logical_parent: o.id_of(K::LogicalParentUuid),
            tool_use_result: o.has(K::ToolUseResult),
            result_agent,
            message_id,
            request_id,
            model: message.and_then(|m| m.str(K::Model)).map(Cow::into_owned),
            failed: o.bool(K::IsApiErrorMessage).unwrap_or(false),
            usage,
        })
    }
}
