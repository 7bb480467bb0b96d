//! The docent reader's fast path: chat messages of the common shapes, read
//! straight from the bytes.
//!
//! Parsing each message into a `serde_json::Value`, validating it and
//! copying its texts out was most of a Docent parse. This path reads a
//! message's members in place, leaves its texts in the source (as
//! [`crate::model::Text`]) and its tool-call arguments as a
//! [`crate::model::LazyValue`], and takes only messages about which
//! validation ([`super::rules::check_message`]) has nothing to say, for both
//! generations: a known role written plainly; `content` a string or a list
//! of clean text and reasoning parts; `id`, `model` (assistant) and
//! `function` (tool) absent, null or strings; `metadata` absent, null or an
//! object; a user's `tool_call_id` absent or null, a tool message's a string
//! or null, its `error` null or an object; each tool call with a string `id`
//! and `function`, object `arguments`, a `type` that is "function" or null
//! (present in an older run, which requires it), string or null
//! `parse_error` and `google_thought_signature`, and no `view`. Anything
//! else (an escaped or repeated key, a hazard, another type) returns `None`
//! and the exact path reads, validates and reports it. The differential
//! tests (tests/fast_paths.rs) hold the two paths to the same model.

use std::ops::Range;

use super::rules::{self, Gen};
use super::{Answer, AnswerId, ReadMessage, Reader};
use crate::json::fields::{self, Fields};
use crate::json::read::{self, Kind, Member};
use crate::json::scan;
use crate::model::{Arguments, Content, ContentPart, ToolCall};

/// Buffers reused from message to message, one per level of nesting.
#[derive(Default)]
pub(super) struct Scratch {
    message: Vec<Member>,
    items: Vec<Range<usize>>,
    item: Vec<Member>,
}

const ROLE: usize = 0;
const CONTENT: usize = 1;
const TOOL_CALLS: usize = 2;
const TOOL_CALL_ID: usize = 3;
const FUNCTION: usize = 4;
const ERROR: usize = 5;
const METADATA: usize = 6;
const ID: usize = 7;
const MODEL: usize = 8;
const MESSAGE_FIELDS: [&[u8]; 9] = [b"role", b"content", b"tool_calls", b"tool_call_id", b"function", b"error", b"metadata", b"id", b"model"];

/// True when the member is absent, null, or of `kind`.
fn absent_null_or(m: Option<&Member>, kind: Kind) -> bool {
    m.is_none_or(|m| m.kind == Kind::Null || m.kind == kind)
}

impl Reader<'_, '_> {
    /// The message at `r`, read fast, or `None` for the exact path to read.
    pub(super) fn fast_message(&mut self, r: &Range<usize>, gen: Gen) -> Option<ReadMessage> {
        if self.out.exact_only() || !fields::plain_record(self.b, r, self.hazards, self.out.utf8_valid()) {
            return None;
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        let message = self.fast_message_in(r, gen, &mut scratch);
        self.scratch = scratch;
        message
    }

    fn fast_message_in(&mut self, r: &Range<usize>, gen: Gen, s: &mut Scratch) -> Option<ReadMessage> {
        let b = self.b;
        read::members(b, scan::skip_ws(b, r.start), self.ends, &mut s.message)?;
        let members = std::mem::take(&mut s.message);
        let result = (|| {
            let f = Fields::find(b, &members, MESSAGE_FIELDS)?;
            let get = |k: usize| f.get(&members, k);
            let role = get(ROLE).filter(|m| m.kind == Kind::String && !m.escaped)?;
            let role = std::str::from_utf8(b.get(role.inner())?).ok()?;
            rules::class_of(role)?;
            if !absent_null_or(get(ID), Kind::String) || !absent_null_or(get(METADATA), Kind::Object) {
                return None;
            }
            let content = get(CONTENT)?;
            let content = match content.kind {
                Kind::String => Content::Text(self.out.text(content.inner(), content.escaped)),
                Kind::Array => Content::Parts(self.fast_parts(content.value.start, s)?),
                _ => return None,
            };
            let mut m = ReadMessage { role: role.to_string(), content, tool_calls: Vec::new(), answer: None };
            match role {
                "user" if !absent_null_or(get(TOOL_CALL_ID), Kind::Null) => return None,
                "assistant" => {
                    if !absent_null_or(get(MODEL), Kind::String) {
                        return None;
                    }
                    m.tool_calls = match get(TOOL_CALLS) {
                        None => Vec::new(),
                        Some(c) if c.kind == Kind::Null => Vec::new(),
                        Some(c) if c.kind == Kind::Array => self.fast_calls(c.value.start, gen, s)?,
                        Some(_) => return None,
                    };
                }
                "tool" => {
                    let function = get(FUNCTION);
                    if !absent_null_or(function, Kind::String) || !absent_null_or(get(ERROR), Kind::Object) {
                        return None;
                    }
                    let call_id = match get(TOOL_CALL_ID) {
                        None => AnswerId::Missing,
                        Some(id) if id.kind == Kind::Null => AnswerId::Missing,
                        Some(id) if id.kind == Kind::String => AnswerId::Id(self.decoded(id)),
                        Some(_) => return None,
                    };
                    m.answer = Some(Answer {
                        errored: get(ERROR).is_some_and(|e| e.kind == Kind::Object),
                        call_id,
                        function: function.filter(|f| f.kind == Kind::String).map(|f| self.decoded(f)),
                    });
                }
                _ => {}
            }
            Some(m)
        })();
        s.message = members;
        result
    }

    /// A string member's text, decoded.
    fn decoded(&self, m: &Member) -> String {
        self.out.text(m.inner(), m.escaped).decoded().into_owned()
    }

    /// True when the string member's bytes are `want`, written plainly.
    fn is(&self, m: Option<&Member>, want: &[u8]) -> bool {
        m.is_some_and(|m| m.kind == Kind::String && !m.escaped && self.b.get(m.inner()) == Some(want))
    }

    /// `content` as a list of parts: each a clean text or reasoning part.
    fn fast_parts(&mut self, open: usize, s: &mut Scratch) -> Option<Vec<ContentPart>> {
        let b = self.b;
        read::items(b, open, self.ends, &mut s.items)?;
        let mut parts = Vec::with_capacity(s.items.len());
        for item in std::mem::take(&mut s.items) {
            read::members(b, item.start, self.ends, &mut s.item)?;
            let p = &s.item;
            let f = Fields::find(b, p, [b"type", b"text", b"reasoning", b"refusal", b"signature", b"redacted", b"summary"])?;
            let string = |k: usize| f.get(p, k).filter(|m| m.kind == Kind::String);
            if self.is(f.get(p, 0), b"text") {
                let text = string(1)?;
                if !absent_null_or(f.get(p, 3), Kind::Bool) {
                    return None;
                }
                parts.push(ContentPart::Text(self.out.text(text.inner(), text.escaped)));
            } else if self.is(f.get(p, 0), b"reasoning") {
                let reasoning = string(2)?;
                let clean = absent_null_or(f.get(p, 4), Kind::String)
                    && f.get(p, 5).is_none_or(|m| m.kind == Kind::Bool)
                    && absent_null_or(f.get(p, 6), Kind::String);
                if !clean {
                    return None;
                }
                parts.push(ContentPart::Reasoning(self.out.text(reasoning.inner(), reasoning.escaped)));
            } else {
                return None;
            }
        }
        Some(parts)
    }

    /// An assistant's `tool_calls`, each a clean Docent `ToolCall`.
    fn fast_calls(&mut self, open: usize, gen: Gen, s: &mut Scratch) -> Option<Vec<ToolCall>> {
        let b = self.b;
        read::items(b, open, self.ends, &mut s.items)?;
        let mut calls = Vec::with_capacity(s.items.len());
        for item in std::mem::take(&mut s.items) {
            read::members(b, item.start, self.ends, &mut s.item)?;
            let c = &s.item;
            let f = Fields::find(b, c, [b"id", b"function", b"arguments", b"type", b"parse_error", b"google_thought_signature", b"view"])?;
            let id = f.get(c, 0).filter(|m| m.kind == Kind::String)?;
            let function = f.get(c, 1).filter(|m| m.kind == Kind::String)?;
            let arguments = f.get(c, 2).filter(|m| m.kind == Kind::Object)?;
            let kind = f.get(c, 3);
            // An older run requires `type`; both generations allow "function" or null.
            let type_ok = match kind {
                None => gen == Gen::Current,
                Some(t) => t.kind == Kind::Null || self.is(Some(t), b"function"),
            };
            if !type_ok || !absent_null_or(f.get(c, 4), Kind::String) || !absent_null_or(f.get(c, 5), Kind::String) || f.get(c, 6).is_some() {
                return None;
            }
            calls.push(ToolCall {
                id: Some(self.decoded(id)),
                function: self.decoded(function),
                arguments: Arguments { value: Some(self.out.json(arguments.value.clone())), text: None },
                result: None,
            });
        }
        Some(calls)
    }
}
