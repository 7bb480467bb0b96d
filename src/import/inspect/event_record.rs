//! One event of a sample's `events`, as its placing reads it: parsed whole
//! (the exact path) or its members found in the bytes (the fast path), so
//! that [`super::events`] places both the same way and only the reading
//! differs.
//!
//! The fast path builds only what the event's body needs: its small string
//! members, a model call's first choice's message (texts left in the
//! source), a tool's result; the rest (a model call's `input`, `call`,
//! `tools`, `config`, `output.usage`; a tool call's `arguments`) stays in the
//! source, its metadata built when first read.

use std::ops::Range;

use serde_json::{Map, Value};

use super::super::Builder;
use super::fast::{self, Ctx, Obj};
use super::messages::{content, tool_calls};
use super::retold::Said;
use crate::event_metadata::EventMetadata;
use crate::json::read::{self, Kind};
use crate::json::scan;
use crate::model::{Content, Metadata, ToolCall};

/// Fields the body of each kind shows; the others are metadata.
pub(super) const SHOWN: &[&str] = &["event", "timestamp", "span_id", "output", "input", "result", "changes", "events", "call", "tools"];

/// An event's members, parsed or in the bytes.
pub(super) enum Record<'b> {
    Parsed(Map<String, Value>),
    InBytes(Obj<'b>),
}

/// What a model event answered: the message of its first choice, or
/// nothing (it failed, or the log left it out).
pub(super) enum Output {
    Message(Content, Vec<ToolCall>),
    Marker,
}

/// An event read: its members, a model call's output and the time its
/// output took, a tool call's result.
pub(super) struct EventRead<'b> {
    pub record: Record<'b>,
    pub kind: String,
    pub output: Output,
    /// `output.time` (the fast path reads it only when the event has no
    /// `working_time`, where it is used).
    pub output_time: Option<f64>,
    pub result: Content,
}

impl Record<'_> {
    /// The member `key` when it is a string.
    pub fn str(&self, key: &str) -> Option<String> {
        match self {
            Record::Parsed(o) => o.get(key).and_then(Value::as_str).map(str::to_string),
            Record::InBytes(o) => o.str(key),
        }
    }

    /// The member `key`'s value.
    pub fn value(&self, key: &str) -> Option<Value> {
        match self {
            Record::Parsed(o) => o.get(key).cloned(),
            Record::InBytes(o) => o.value(key),
        }
    }

    pub fn has(&self, key: &str) -> bool {
        match self {
            Record::Parsed(o) => o.contains_key(key),
            Record::InBytes(o) => o.get(key).is_some(),
        }
    }

    /// True when the event has `key` and it is not `null`.
    pub fn non_null(&self, key: &str) -> bool {
        match self {
            Record::Parsed(o) => o.get(key).is_some_and(|v| !v.is_null()),
            Record::InBytes(o) => o.non_null(key),
        }
    }

    /// The member `key` as serde_json's `as_f64` reads it.
    pub fn number(&self, key: &str) -> Option<f64> {
        match self {
            Record::Parsed(o) => o.get(key).and_then(Value::as_f64),
            Record::InBytes(o) => o.number(key),
        }
    }

    /// The event's metadata (its members but those the body shows and the
    /// `null` ones, then `extra`): built from the parsed record, or left in
    /// the source (see [`Obj::metadata`]).
    pub fn metadata(self, out: &Builder, r: &Range<usize>, ctx: &Ctx, extra: Metadata) -> EventMetadata {
        match self {
            Record::Parsed(o) => event_metadata(o, &extra).into(),
            Record::InBytes(o) => o.metadata(out, r, ctx, SHOWN, event_metadata, extra),
        }
    }
}

/// An event's metadata from its parsed record (the
/// [`crate::event_metadata::Shape`] of both paths): its members but those
/// the body shows and the `null` ones, then what the reading added (a
/// condensed model event's expanded `input` and `call`).
pub(super) fn event_metadata(record: Metadata, extra: &Metadata) -> Metadata {
    let mut m: Metadata = record.into_iter().filter(|(k, val)| !SHOWN.contains(&k.as_str()) && !val.is_null()).collect();
    for (k, v) in extra {
        m.insert(k.clone(), v.clone());
    }
    m
}

/// The event parsed `v` (attachments resolved), read the exact way.
pub(super) fn exact(v: Value) -> EventRead<'static> {
    let kind = v.get("event").and_then(Value::as_str).unwrap_or("event").to_string();
    let message = v.get("output").and_then(|o| o.get("choices")).and_then(|c| c.get(0)).and_then(|c| c.get("message"));
    let output = match message {
        Some(m) => Output::Message(content(m.get("content")), tool_calls(m.get("tool_calls"))),
        None => Output::Marker,
    };
    let output_time = v.get("output").and_then(|o| o.get("time")).and_then(Value::as_f64);
    let result = match v.get("result") {
        Some(r @ (Value::String(_) | Value::Array(_))) => content(Some(r)),
        Some(Value::Null) | None => Content::None,
        Some(other) => Content::Json(other.clone().into()),
    };
    let record = Record::Parsed(match v {
        Value::Object(o) => o,
        _ => Map::new(),
    });
    EventRead { record, kind, output, output_time, result }
}

/// The event at `r` read from the bytes; `None` when the exact path must
/// read it (see [`fast`]'s module doc).
pub(super) fn in_bytes<'b>(out: &Builder<'b>, r: &Range<usize>, ctx: &Ctx<'b>, said: &mut Said) -> Option<EventRead<'b>> {
    let b = out.bytes();
    let o = Obj::read(b, r, ctx)?;
    let kind = o.str("event").unwrap_or_else(|| "event".to_string());
    let (mut output, mut output_time, mut result) = (Output::Marker, None, Content::None);
    if kind == "model" {
        (output, output_time) = model_output(out, &o, ctx, said)?;
    } else if kind == "tool" {
        if let Some(m) = o.get("result") {
            result = fast::content(out, m, ctx)?;
        }
    }
    Some(EventRead { record: Record::InBytes(o), kind, output, output_time, result })
}

/// A model event's `output.choices[0].message` and `output.time`, as
/// [`exact`] reads them; `None` for a shape only the exact path reads (a
/// message that is no object, an escaped or repeated key on the way).
fn model_output<'b>(out: &Builder<'b>, event: &Obj, ctx: &Ctx<'b>, said: &mut Said) -> Option<(Output, Option<f64>)> {
    let b = out.bytes();
    let Some(output) = event.get("output").filter(|m| m.kind == Kind::Object) else { return Some((Output::Marker, None)) };
    let output = Obj::read(b, &output.value, ctx)?;
    // Read only where it is used: an event without `working_time`.
    let time = if event.get("working_time").is_none() { output.number("time") } else { None };
    let Some(choices) = output.get("choices").filter(|m| m.kind == Kind::Array) else { return Some((Output::Marker, time)) };
    let mut items = Vec::new();
    read::items(b, choices.value.start, ctx.ends, &mut items)?;
    let Some(first) = items.first().filter(|c| b.get(c.start) == Some(&b'{')) else { return Some((Output::Marker, time)) };
    if let Some(told) = retold_choice(out, first.start, ctx, said) {
        return Some((told, time));
    }
    let choice = Obj::read(b, first, ctx)?;
    let Some(message) = choice.get("message") else { return Some((Output::Marker, time)) };
    if let Some((content, calls)) = said.retell(out, &message.value) {
        return Some((Output::Message(content, calls), time));
    }
    let (m, _) = fast::message_body(out, &message.value, ctx)?;
    Some((Output::Message(m.content, m.tool_calls), time))
}

/// The message of the choice whose `{` is at `open`, when it is the
/// choice's first member (as inspect_ai writes it) and retells a message
/// of `said`, found without walking the message to its end; `None` when
/// the choice is to be read member by member. No later member may repeat
/// the key (serde_json keeps the last) or escape one.
fn retold_choice(out: &Builder, open: usize, ctx: &Ctx, said: &mut Said) -> Option<Output> {
    const KEY: &[u8] = b"\"message\"";
    let b = out.bytes();
    let key = scan::skip_ws(b, open + 1);
    let colon = scan::skip_ws(b, key + KEY.len());
    if b.get(key..key + KEY.len()) != Some(KEY) || b.get(colon) != Some(&b':') {
        return None;
    }
    let start = scan::skip_ws(b, colon + 1);
    let mark = said.mark();
    let (content, calls, end) = said.retell_at(out, start, None)?;
    if no_later_key(b, end, KEY, ctx).is_none() {
        said.rewind(mark);
        return None;
    }
    Some(Output::Message(content, calls))
}

/// `Some` when the members of an object from `i` (just past a member's
/// value) to its `}` hold no `key` and no escaped key.
fn no_later_key(b: &[u8], mut i: usize, key: &[u8], ctx: &Ctx) -> Option<()> {
    loop {
        i = scan::skip_ws(b, i);
        match b.get(i)? {
            b'}' => return Some(()),
            b',' => i = scan::skip_ws(b, i + 1),
            _ => return None,
        }
        let (key_end, escaped) = read::string_end(b, i)?;
        let colon = scan::skip_ws(b, key_end);
        if escaped || b.get(i..key_end) == Some(key) || b.get(colon) != Some(&b':') {
            return None;
        }
        i = read::value_end(b, scan::skip_ws(b, colon + 1), ctx.ends)?;
    }
}
