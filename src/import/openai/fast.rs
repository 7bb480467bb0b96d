//! The openai reader's fast path: events of the common shapes, read straight
//! from the bytes.
//!
//! Almost every event of a real trace is a well-formed message or tool
//! output. Decoding each into a `serde_json::Value` only to take it apart was
//! most of a parse, and copied every content string. This path reads the
//! members of such an event in place, leaves its content in the source (as
//! [`crate::model::Text`]) and returns `None` for anything it is not sure
//! about: an unknown role, a wrong type, a missing id, a duplicate or escaped
//! key, a `metadata` or `server` to check, a `usage` or `model` to read, a
//! record serde_json would refuse.
//! The exact path, which mirrors Invariant's loader and reports every
//! problem, reads those. So the fast path only ever handles events about
//! which the exact path has nothing to say, and gives the same model: the
//! differential tests (tests/openai_fast.rs) hold it to that.

use std::ops::Range;

use serde_json::Value;

use super::{Reader, KNOWN_ROLES};
use crate::json::fields::{self, Fields};
use crate::json::read::{self, Kind, Member};
use crate::json::scan;
use crate::model::{Arguments, Content, ContentPart, LazyValue, ToolCall, ToolStatus};

/// An event read by the fast path.
pub(super) enum FastEvent {
    Message { role: String, content: Content, calls: Vec<ToolCall>, timestamp: Option<String> },
    ToolOutput { content: Content, status: ToolStatus, call_id: Option<String>, timestamp: Option<String> },
}

/// Buffers reused from event to event, one per level of nesting, so that
/// reading an event allocates only what the model keeps.
#[derive(Default)]
pub(super) struct Scratch {
    event: Vec<Member>,
    call: Vec<Member>,
    function: Vec<Member>,
    part: Vec<Member>,
    image: Vec<Member>,
    items: Vec<Range<usize>>,
    parts: Vec<Range<usize>>,
    /// A JSON-string argument, decoded to be checked.
    decoded: String,
}

const ROLE: usize = 0;
const CONTENT: usize = 1;
const TOOL_CALLS: usize = 2;
const TOOL_CALL_ID: usize = 3;
const TIMESTAMP: usize = 4;
const ERROR: usize = 5;
const METADATA: usize = 6;
const SERVER: usize = 7;
/// `usage` and `model`: facts the exact path reads ([`super::super::facts::completion`]).
const USAGE: usize = 8;
const MODEL: usize = 9;
const EVENT_FIELDS: [&[u8]; 10] =
    [b"role", b"content", b"tool_calls", b"tool_call_id", b"timestamp", b"error", b"metadata", b"server", b"usage", b"model"];

impl Reader<'_, '_> {
    /// The event at `r`, read fast, or `None` for the exact path to read.
    pub(super) fn fast_event(&mut self, r: &Range<usize>) -> Option<FastEvent> {
        if self.out.exact_only() || !self.fast_allowed(r) {
            return None;
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        let event = self.fast_event_in(r, &mut scratch);
        self.scratch = scratch;
        event
    }

    /// True when serde_json would read the record as the scanner did.
    fn fast_allowed(&self, r: &Range<usize>) -> bool {
        fields::plain_record(self.b, r, self.hazards, self.out.utf8_valid())
    }

    fn fast_event_in(&mut self, r: &Range<usize>, s: &mut Scratch) -> Option<FastEvent> {
        let b = self.b;
        let start = scan::skip_ws(b, r.start);
        read::members(b, start, self.ends, &mut s.event)?;
        let members = std::mem::take(&mut s.event);
        let result = (|| {
            let f = Fields::find(b, &members, EVENT_FIELDS)?;
            if [METADATA, SERVER, USAGE, MODEL].iter().any(|k| f.get(&members, *k).is_some()) {
                return None;
            }
            let role = f.get(&members, ROLE).filter(|m| m.kind == Kind::String && !m.escaped)?;
            let role = std::str::from_utf8(b.get(role.inner())?).ok().filter(|r| KNOWN_ROLES.contains(r))?;
            let timestamp = match f.get(&members, TIMESTAMP) {
                Some(m) if m.kind == Kind::String => Some(self.out.text(m.inner(), m.escaped).decoded().into_owned()),
                _ => None,
            };
            if role == "tool" {
                let content = self.fast_content(f.get(&members, CONTENT), true, s)?;
                let status = match f.get(&members, ERROR).map(|m| (m.kind, b.get(m.value.clone()))) {
                    None | Some((Kind::Null, _)) => ToolStatus::Unknown,
                    Some((Kind::Bool, Some(v))) if v == b"false" => ToolStatus::Success,
                    Some(_) => ToolStatus::Error,
                };
                let call_id = match f.get(&members, TOOL_CALL_ID) {
                    None => None,
                    Some(m) if m.kind == Kind::Null => None,
                    Some(m) if m.kind == Kind::String => Some(self.out.text(m.inner(), m.escaped).decoded().into_owned()),
                    Some(_) => return None,
                };
                return Some(FastEvent::ToolOutput { content, status, call_id, timestamp });
            }
            let content = self.fast_content(f.get(&members, CONTENT), false, s)?;
            let calls = match f.get(&members, TOOL_CALLS) {
                None => Vec::new(),
                Some(m) if m.kind == Kind::Null => Vec::new(),
                Some(m) if m.kind == Kind::Array => self.fast_calls(m.value.start, s)?,
                Some(_) => return None,
            };
            Some(FastEvent::Message { role: role.to_string(), content, calls, timestamp })
        })();
        s.event = members;
        result
    }

    /// `content`: absent, null, a string, a list of text/image parts, or
    /// (for a tool output) an object.
    fn fast_content(&mut self, m: Option<&Member>, allow_object: bool, s: &mut Scratch) -> Option<Content> {
        let Some(m) = m else { return Some(Content::None) };
        match m.kind {
            Kind::Null => Some(Content::None),
            Kind::String => Some(Content::Text(self.out.text(m.inner(), m.escaped))),
            Kind::Object if allow_object => {
                let v: Value = serde_json::from_slice(self.b.get(m.value.clone())?).ok()?;
                Some(Content::Json(v.into()))
            }
            Kind::Array => self.fast_parts(m.value.start, s).map(Content::Parts),
            _ => None,
        }
    }

    /// A list of content parts, each `{"type": …, "text": …}` or an image.
    fn fast_parts(&mut self, open: usize, s: &mut Scratch) -> Option<Vec<ContentPart>> {
        let b = self.b;
        read::items(b, open, self.ends, &mut s.parts)?;
        let mut parts = Vec::with_capacity(s.parts.len());
        for item in std::mem::take(&mut s.parts) {
            if b.get(item.start) != Some(&b'{') {
                return None;
            }
            read::members(b, item.start, self.ends, &mut s.part)?;
            let f = Fields::find(b, &s.part, [b"type", b"text", b"image_url", b"metadata", b"server"])?;
            match f.get(&s.part, 3).map(|m| m.kind) {
                None | Some(Kind::Object | Kind::Null) => {}
                Some(_) => return None,
            }
            match f.get(&s.part, 4).map(|m| m.kind) {
                None | Some(Kind::String | Kind::Null) => {}
                Some(_) => return None,
            }
            let kind = f.get(&s.part, 0).filter(|m| m.kind == Kind::String)?;
            let kind = self.out.text(kind.inner(), kind.escaped).decoded().into_owned();
            if let Some(text) = f.get(&s.part, 1).filter(|m| m.kind == Kind::String) {
                let text = self.out.text(text.inner(), text.escaped);
                parts.push(match kind.as_str() {
                    "reasoning" | "thinking" => ContentPart::Reasoning(text),
                    _ => ContentPart::Text(text),
                });
                continue;
            }
            let image = f.get(&s.part, 2).filter(|m| m.kind == Kind::Object)?;
            read::members(b, image.value.start, self.ends, &mut s.image)?;
            if s.image.iter().any(|m| m.kind != Kind::String || m.key_escaped) {
                return None;
            }
            let url = Fields::find(b, &s.image, [b"url"])?;
            let url = match url.get(&s.image, 0) {
                Some(m) => self.out.text(m.inner(), m.escaped),
                None => Default::default(),
            };
            parts.push(ContentPart::Image { url });
        }
        Some(parts)
    }

    /// A message's `tool_calls`: every call with a string `id` and `type`, a
    /// string `function.name`, and arguments that are an object or a string
    /// holding one (decoded as Invariant does, with Python's `json.loads`).
    fn fast_calls(&mut self, open: usize, s: &mut Scratch) -> Option<Vec<ToolCall>> {
        let b = self.b;
        read::items(b, open, self.ends, &mut s.items)?;
        let mut calls = Vec::with_capacity(s.items.len());
        for item in std::mem::take(&mut s.items) {
            if b.get(item.start) != Some(&b'{') {
                return None;
            }
            read::members(b, item.start, self.ends, &mut s.call)?;
            let f = Fields::find(b, &s.call, [b"id", b"type", b"function", b"metadata", b"server"])?;
            // A call's `metadata` must be an object (null fails: Invariant stamps it after validation).
            match f.get(&s.call, 3).map(|m| m.kind) {
                None | Some(Kind::Object) => {}
                Some(_) => return None,
            }
            match f.get(&s.call, 4).map(|m| m.kind) {
                None | Some(Kind::String | Kind::Null) => {}
                Some(_) => return None,
            }
            let id = f.get(&s.call, 0).filter(|m| m.kind == Kind::String)?;
            let id = self.out.text(id.inner(), id.escaped).decoded().into_owned();
            f.get(&s.call, 1).filter(|m| m.kind == Kind::String)?;
            let function = f.get(&s.call, 2).filter(|m| m.kind == Kind::Object)?;
            read::members(b, function.value.start, self.ends, &mut s.function)?;
            let g = Fields::find(b, &s.function, [b"name", b"arguments"])?;
            let name = g.get(&s.function, 0).filter(|m| m.kind == Kind::String)?;
            let name = self.out.text(name.inner(), name.escaped).decoded().into_owned();
            let args = g.get(&s.function, 1)?;
            let arguments = match args.kind {
                Kind::Object => Arguments { value: Some(self.out.json(args.value.clone())), text: None },
                Kind::String => {
                    let text = self.out.text(args.inner(), args.escaped);
                    s.decoded.clear();
                    text.push_to(&mut s.decoded);
                    if !fields::encodes_an_object(&s.decoded) {
                        return None;
                    }
                    Arguments { value: Some(LazyValue::encoded_in(text.clone())), text: Some(text) }
                }
                _ => return None,
            };
            calls.push(ToolCall { id: Some(id), function: name, arguments, result: None });
        }
        Some(calls)
    }
}
