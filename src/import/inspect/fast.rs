//! Reading a ChatMessage where it is: its members found by the scan, its
//! text left in the source ([`Text`]), tool-call arguments parsed on first
//! use ([`crate::model::LazyValue`]); only the small members (role, ids,
//! metadata) are parsed. A record holding one of the split's hazards (a
//! lone surrogate escape, nesting past serde_json's limit), or that is not
//! valid UTF-8, is read the exact way instead ([`super::messages`]), so both
//! give what serde_json would.

use std::ops::Range;

use serde_json::{Map, Value};

use super::super::Builder;
use crate::json::{read, scan, ContainerEnds};
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

/// The members of the object at `r` (keys decoded), or `None` when it is no object.
pub(super) fn members(b: &[u8], r: &Range<usize>, ends: &ContainerEnds) -> Option<Vec<(String, Range<usize>)>> {
    let at = scan::skip_ws(b, r.start);
    if b.get(at) != Some(&b'{') {
        return None;
    }
    scan::object_members_in(b, at, ends).ok()
}

/// A small value, parsed.
pub(super) fn parse(b: &[u8], r: &Range<usize>) -> Value {
    b.get(r.clone()).and_then(|s| crate::json::build::from_slice(s).ok()).unwrap_or(Value::Null)
}

/// The string at `r` as text: in place, or the attachment it names.
pub(super) fn string(out: &Builder, r: &Range<usize>, attachments: &Map<String, Value>) -> Option<Text> {
    let b = out.bytes();
    let start = scan::skip_ws(b, r.start);
    if b.get(start) != Some(&b'"') {
        return None;
    }
    let (end, escaped) = read::string_end(b, start)?;
    let inner = start + 1..end.saturating_sub(1).max(start + 1);
    if !attachments.is_empty() && b.get(inner.clone()).is_some_and(|s| s.starts_with(b"attachment://")) {
        let s = crate::json::string::decode_literal(b.get(inner.clone()).unwrap_or(&[]), escaped);
        if let Some(Value::String(text)) = s.strip_prefix("attachment://").and_then(|h| attachments.get(h)) {
            return Some(Text::from(text.as_str()));
        }
    }
    Some(out.text(inner, escaped))
}

/// A message read in place: its content, its tool calls, the id of the
/// call it answers, whether it carries an `error`, and its other members.
pub(super) struct InPlace {
    pub role: String,
    pub content: Content,
    pub tool_calls: Vec<ToolCall>,
    pub tool_call_id: Option<String>,
    pub error: bool,
    pub metadata: Metadata,
}

/// Reads the message object at `r`; `None` when it is no object.
pub(super) fn message(out: &Builder, r: &Range<usize>, ctx: &Ctx) -> Option<InPlace> {
    let b = out.bytes();
    let members = members(b, r, ctx.ends)?;
    let mut m = InPlace { role: String::new(), content: Content::None, tool_calls: Vec::new(), tool_call_id: None, error: false, metadata: Metadata::new() };
    for (key, vr) in members {
        match key.as_str() {
            "role" => m.role = parse(b, &vr).as_str().unwrap_or_default().to_string(),
            "content" => m.content = content(out, &vr, ctx),
            "tool_calls" => m.tool_calls = tool_calls(out, &vr, ctx),
            "tool_call_id" => m.tool_call_id = parse(b, &vr).as_str().map(str::to_string),
            _ => {
                let v = parse(b, &vr);
                if key == "error" {
                    m.error = !v.is_null();
                }
                if !v.is_null() {
                    let mut v = v;
                    super::messages::resolve(&mut v, ctx.attachments);
                    m.metadata.insert(key, v);
                }
            }
        }
    }
    Some(m)
}

pub(super) fn content(out: &Builder, r: &Range<usize>, ctx: &Ctx) -> Content {
    let b = out.bytes();
    let at = scan::skip_ws(b, r.start);
    match b.get(at) {
        Some(b'"') => string(out, r, ctx.attachments).map(Content::Text).unwrap_or(Content::None),
        Some(b'[') => Content::Parts(scan::array_items_in(b, at, ctx.ends).0.iter().map(|p| part(out, p, ctx)).collect()),
        Some(b'n') | None => Content::None,
        Some(_) => Content::Json(parse(b, r).into()),
    }
}

fn part(out: &Builder, r: &Range<usize>, ctx: &Ctx) -> ContentPart {
    let b = out.bytes();
    let whole = || {
        let mut v = parse(b, r);
        super::messages::resolve(&mut v, ctx.attachments);
        ContentPart::Other(v)
    };
    let Some(members) = members(b, r, ctx.ends) else { return whole() };
    let get = |k: &str| members.iter().rev().find(|(key, _)| key == k).map(|(_, vr)| vr.clone());
    let kind = get("type").map(|t| parse(b, &t));
    let text = |k: &str| get(k).and_then(|vr| string(out, &vr, ctx.attachments));
    match kind.as_ref().and_then(Value::as_str) {
        Some("text") => text("text").map(ContentPart::Text).unwrap_or_else(whole),
        Some("reasoning") => {
            let redacted = get("redacted").is_some_and(|vr| parse(b, &vr) == Value::Bool(true));
            let shown = if redacted { text("summary").or_else(|| text("reasoning")) } else { text("reasoning") };
            shown.map(ContentPart::Reasoning).unwrap_or_else(whole)
        }
        Some("image") => text("image").map(|url| ContentPart::Image { url }).unwrap_or_else(whole),
        _ => whole(),
    }
}

fn tool_calls(out: &Builder, r: &Range<usize>, ctx: &Ctx) -> Vec<ToolCall> {
    let b = out.bytes();
    let at = scan::skip_ws(b, r.start);
    if b.get(at) != Some(&b'[') {
        return Vec::new();
    }
    let mut calls = Vec::new();
    for item in scan::array_items_in(b, at, ctx.ends).0 {
        let Some(members) = members(b, &item, ctx.ends) else { continue };
        let get = |k: &str| members.iter().rev().find(|(key, _)| key == k).map(|(_, vr)| vr.clone());
        let small = |k: &str| get(k).map(|vr| parse(b, &vr));
        let arguments = match get("arguments") {
            Some(vr) => match b.get(scan::skip_ws(b, vr.start)) {
                Some(b'"') => Arguments { value: None, text: string(out, &vr, ctx.attachments) },
                Some(b'{' | b'[') if ctx.attachments.is_empty() => Arguments { value: Some(out.json(vr)), text: None },
                _ => {
                    let mut v = parse(b, &vr);
                    super::messages::resolve(&mut v, ctx.attachments);
                    Arguments { value: Some(v.into()), text: None }
                }
            },
            None => Arguments::default(),
        };
        calls.push(ToolCall {
            id: small("id").and_then(|v| v.as_str().map(str::to_string)),
            function: small("function").and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default(),
            arguments,
            result: None,
        });
    }
    calls
}
