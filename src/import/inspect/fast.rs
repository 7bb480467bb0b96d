//! Reading messages and events where they are: an object's members found
//! in the bytes ([`Obj`], on the split's recorded ends: no key decoded, no
//! container scanned again), texts left in the source ([`Text`]), tool-call
//! arguments parsed on first use ([`crate::model::LazyValue`]), and the
//! members the model has no place for left in the source as the event's
//! metadata, built when first read ([`crate::event_metadata`]). A record
//! holding one of the split's hazards (a lone surrogate escape, nesting past
//! serde_json's limit), not valid UTF-8, or with an escaped or repeated key
//! anywhere the reading looks, is read the exact way instead
//! ([`super::messages`], [`super::events`]), so both give what serde_json
//! would; tests/fast_paths/inspect.rs holds them to that.

use std::ops::Range;

use serde_json::{Map, Value};

use super::super::Builder;
use crate::event_metadata::{EventMetadata, Shape};
use crate::json::read::{self, Kind, Member};
use crate::json::{scan, ContainerEnds};
use crate::model::{Arguments, Content, ContentPart, Metadata, Text, ToolCall};

/// What a record is read with.
pub(super) struct Ctx<'c> {
    pub ends: &'c ContainerEnds,
    pub hazards: &'c [usize],
    pub attachments: &'c Map<String, Value>,
    /// The sample's `events_data` pools, for condensed model events.
    pub pool: Option<&'c super::pool::Pool>,
}

impl Ctx<'_> {
    /// True when the record at `r` can be read in place (see the module doc).
    pub fn allowed(&self, out: &Builder, r: &Range<usize>) -> bool {
        let Some(bytes) = out.bytes().get(r.clone()) else { return false };
        let first = self.hazards.partition_point(|h| *h < r.start);
        let inside = self.hazards.get(first).is_some_and(|h| *h < r.end);
        !inside && !out.exact_only() && (out.utf8_valid() || std::str::from_utf8(bytes).is_ok())
    }
}

/// Objects with more members than this look for repeated keys in a set.
const SMALL_OBJECT: usize = 32;

/// An object of a record the caller checked ([`Ctx::allowed`]), its members
/// as the bytes hold them: looked up by key without decoding one, each
/// value built only when asked for.
pub(super) struct Obj<'b> {
    b: &'b [u8],
    pub members: Vec<Member>,
    /// The sample's attachments, which the exact path resolves in every
    /// string before it reads one.
    attachments: &'b Map<String, Value>,
}

impl<'b> Obj<'b> {
    /// The object at `r`; `None` when it is no object or a key is escaped
    /// or repeated (serde_json decodes the one and keeps the last of the
    /// other, which a lookup by bytes would get wrong).
    pub fn read(b: &'b [u8], r: &Range<usize>, ctx: &Ctx<'b>) -> Option<Obj<'b>> {
        let ends = ctx.ends;
        let mut members = Vec::new();
        read::members(b, scan::skip_ws(b, r.start), ends, &mut members)?;
        if members.len() > SMALL_OBJECT {
            // Keys as a set: comparing each with the earlier ones is quadratic.
            let mut keys = crate::import::lookup::LookupSet::with_capacity_and_hasher(members.len(), Default::default());
            let unique = members.iter().all(|m| !m.key_escaped && keys.insert(b.get(m.key.clone()).unwrap_or_default()));
            return unique.then_some(Obj { b, members, attachments: ctx.attachments });
        }
        // A key is compared with the earlier ones only when one of them has
        // its length and last byte (bit `sig` of `seen`): most never are.
        let mut seen = 0u64;
        for (i, m) in members.iter().enumerate() {
            let key = b.get(m.key.clone())?;
            let sig = 1u64 << ((key.len() ^ usize::from(key.last().copied().unwrap_or(0)).wrapping_mul(5)) % 64);
            if m.key_escaped || (seen & sig != 0 && members.get(..i)?.iter().any(|p| b.get(p.key.clone()) == Some(key))) {
                return None;
            }
            seen |= sig;
        }
        Some(Obj { b, members, attachments: ctx.attachments })
    }

    /// The member named `key`.
    pub fn get(&self, key: &str) -> Option<&Member> {
        self.members.iter().find(|m| self.b.get(m.key.clone()) == Some(key.as_bytes()))
    }

    /// The member named `key` when it is a string, decoded (the
    /// attachment's text when it names one).
    pub fn str(&self, key: &str) -> Option<String> {
        let s = self.get(key).filter(|m| m.kind == Kind::String).map(|m| decoded(self.b, m))?;
        match s.strip_prefix("attachment://").and_then(|h| self.attachments.get(h)) {
            Some(Value::String(text)) => Some(text.clone()),
            _ => Some(s),
        }
    }

    /// The value of the member named `key`, built, attachments resolved.
    pub fn value(&self, key: &str) -> Option<Value> {
        let mut v = parse(self.b, &self.get(key)?.value);
        super::messages::resolve(&mut v, self.attachments);
        Some(v)
    }

    /// True when the object has `key` and it is not `null`.
    pub fn non_null(&self, key: &str) -> bool {
        self.get(key).is_some_and(|m| m.kind != Kind::Null)
    }

    /// The number member `key`, as serde_json's `as_f64` reads it: with
    /// `arbitrary_precision` a `Number` keeps its text and `as_f64` parses
    /// it with `str::parse` (finite only), so the text is parsed here the
    /// same way rather than built into a `Value` first (a third of placing
    /// an event went to that).
    pub fn number(&self, key: &str) -> Option<f64> {
        let m = self.get(key).filter(|m| m.kind == Kind::Number)?;
        let text = std::str::from_utf8(self.b.get(m.value.clone())?).ok()?;
        text.parse::<f64>().ok().filter(|f| f.is_finite())
    }

    /// The record's members the model has no place for (all but `shown`,
    /// and not `null`), as its event's metadata: left in the source when the
    /// sample has no attachments to resolve (`shape` makes the map when
    /// first read, as the exact path makes it), else built now, each value
    /// with its attachments resolved.
    pub fn metadata(&self, out: &Builder, r: &Range<usize>, ctx: &Ctx, shown: &[&str], shape: Shape, extra: Metadata) -> EventMetadata {
        if ctx.attachments.is_empty() {
            return out.metadata_in_source(r.clone(), shape, extra);
        }
        let mut map = Metadata::new();
        for m in &self.members {
            let key = std::str::from_utf8(self.b.get(m.key.clone()).unwrap_or_default()).unwrap_or_default();
            if m.kind == Kind::Null || shown.contains(&key) {
                continue;
            }
            let mut v = parse(self.b, &m.value);
            super::messages::resolve(&mut v, ctx.attachments);
            map.insert(key.to_string(), v);
        }
        shape(map, &extra).into()
    }
}

/// A string member's text, decoded (the record is valid UTF-8 without
/// lone surrogates, so this is serde_json's text).
fn decoded(b: &[u8], m: &Member) -> String {
    let raw = b.get(m.inner()).unwrap_or_default();
    match (m.escaped, std::str::from_utf8(raw)) {
        // Most are short (ids, roles, times): core's check is quicker on them.
        (false, Ok(s)) => s.to_string(),
        _ => crate::json::string::decode_literal(raw, m.escaped).into_owned(),
    }
}

pub(super) use crate::json::item_path;

/// A small value, parsed.
pub(super) fn parse(b: &[u8], r: &Range<usize>) -> Value {
    b.get(r.clone()).and_then(|s| crate::json::build::from_slice(s).ok()).unwrap_or(Value::Null)
}

/// The string member `m` as text: in place, or the attachment it names.
fn string(out: &Builder, m: &Member, attachments: &Map<String, Value>) -> Option<Text> {
    if m.kind != Kind::String {
        return None;
    }
    let b = out.bytes();
    if !attachments.is_empty() && b.get(m.inner()).is_some_and(|s| s.starts_with(b"attachment://")) {
        let s = decoded(b, m);
        if let Some(Value::String(text)) = s.strip_prefix("attachment://").and_then(|h| attachments.get(h)) {
            return Some(Text::from(text.as_str()));
        }
    }
    Some(out.text(m.inner(), m.escaped))
}

/// A message read in place: its content, its tool calls, the id of the
/// call it answers, whether it carries an `error`, and its other members.
pub(super) struct InPlace {
    pub role: String,
    pub content: Content,
    pub tool_calls: Vec<ToolCall>,
    pub tool_call_id: Option<String>,
    pub error: bool,
    pub metadata: EventMetadata,
}

/// Reads the message object at `r` (a record of its own: its metadata is
/// the record's); `None` when the exact path must read it.
pub(super) fn message(out: &Builder, r: &Range<usize>, ctx: &Ctx) -> Option<InPlace> {
    let (m, o) = message_body(out, r, ctx)?;
    let metadata = o.metadata(out, r, ctx, super::messages::BODY_KEYS, super::messages::message_metadata, Metadata::new());
    Some(InPlace { metadata, ..m })
}

/// Reads the message object at `r` but its metadata, and gives its members.
pub(super) fn message_body<'b>(out: &Builder<'b>, r: &Range<usize>, ctx: &Ctx<'b>) -> Option<(InPlace, Obj<'b>)> {
    let b = out.bytes();
    let o = Obj::read(b, r, ctx)?;
    let content = match o.get("content") {
        Some(m) => content(out, m, ctx)?,
        None => Content::None,
    };
    let tool_calls = match o.get("tool_calls") {
        Some(m) => tool_calls(out, m, ctx)?,
        None => Vec::new(),
    };
    let m = InPlace {
        role: o.str("role").unwrap_or_default(),
        content,
        tool_calls,
        tool_call_id: o.str("tool_call_id"),
        error: o.non_null("error"),
        metadata: EventMetadata::default(),
    };
    Some((m, o))
}

/// A `content` (or a tool event's `result`): a string, parts, or other JSON.
pub(super) fn content(out: &Builder, m: &Member, ctx: &Ctx) -> Option<Content> {
    let b = out.bytes();
    Some(match m.kind {
        Kind::String => Content::Text(string(out, m, ctx.attachments)?),
        Kind::Array => {
            let mut items = Vec::new();
            read::items(b, m.value.start, ctx.ends, &mut items)?;
            Content::Parts(items.iter().map(|p| part(out, p, ctx)).collect::<Option<_>>()?)
        }
        Kind::Null => Content::None,
        _ => {
            let mut v = parse(b, &m.value);
            super::messages::resolve(&mut v, ctx.attachments);
            Content::Json(v.into())
        }
    })
}

fn part(out: &Builder, r: &Range<usize>, ctx: &Ctx) -> Option<ContentPart> {
    let b = out.bytes();
    let whole = || {
        let mut v = parse(b, r);
        super::messages::resolve(&mut v, ctx.attachments);
        ContentPart::Other(v)
    };
    if b.get(r.start) != Some(&b'{') {
        return Some(whole());
    }
    let o = Obj::read(b, r, ctx)?;
    let text = |k: &str| o.get(k).and_then(|m| string(out, m, ctx.attachments));
    Some(match o.str("type").as_deref() {
        Some("text") => text("text").map(ContentPart::Text).unwrap_or_else(whole),
        Some("reasoning") => {
            let redacted = o.get("redacted").is_some_and(|m| b.get(m.value.clone()) == Some(b"true"));
            let shown = if redacted { text("summary").or_else(|| text("reasoning")) } else { text("reasoning") };
            shown.map(ContentPart::Reasoning).unwrap_or_else(whole)
        }
        Some("image") => text("image").map(|url| ContentPart::Image { url }).unwrap_or_else(whole),
        _ => whole(),
    })
}

/// An assistant's `tool_calls`; `None` for a call that is no object (the
/// exact path keeps it as an empty call).
fn tool_calls(out: &Builder, m: &Member, ctx: &Ctx) -> Option<Vec<ToolCall>> {
    let b = out.bytes();
    if m.kind != Kind::Array {
        return Some(Vec::new());
    }
    let mut items = Vec::new();
    read::items(b, m.value.start, ctx.ends, &mut items)?;
    let mut calls = Vec::with_capacity(items.len());
    for item in items {
        let o = Obj::read(b, &item, ctx)?;
        let arguments = match o.get("arguments") {
            Some(a) => match a.kind {
                Kind::String => Arguments { value: None, text: string(out, a, ctx.attachments) },
                Kind::Object | Kind::Array if ctx.attachments.is_empty() => Arguments { value: Some(out.json(a.value.clone())), text: None },
                _ => {
                    let mut v = parse(b, &a.value);
                    super::messages::resolve(&mut v, ctx.attachments);
                    Arguments { value: Some(v.into()), text: None }
                }
            },
            None => Arguments::default(),
        };
        calls.push(ToolCall { id: o.str("id"), function: o.str("function").unwrap_or_default(), arguments, result: None });
    }
    Some(calls)
}
