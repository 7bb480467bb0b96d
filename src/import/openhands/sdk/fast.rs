//! The OpenHands reader's fast path: the common SDK events read straight
//! from the bytes.
//!
//! Takes `MessageEvent`, `ActionEvent`, `ObservationEvent` and
//! `SystemPromptEvent` records (almost every record of a real conversation)
//! when the SDK validation has nothing to say about them, which
//! [`super::super::validate::event_is_silent`] decides on the bytes. Their
//! texts (message content, thoughts, reasoning, observation output, tool
//! arguments) stay in the source as [`Text`]; a tool call's arguments string
//! is kept and decoded when first read. It leaves to the exact path
//! ([`super::Run::event`], which builds the record's `serde_json::Value`,
//! validates it and reports every problem): any other kind, a record the
//! validator would speak about, a record holding one of the split's hazards
//! (a lone surrogate, deep nesting) or invalid UTF-8, an escaped or repeated
//! key in an object it reads, an action whose arguments are not JSON or
//! whose ids disagree, a thought repeated within a batch: everything that
//! gives a diagnostic. It is off with `exact_only`; tests/fast_paths.rs
//! holds it to giving the exact path's model.

use std::cell::RefCell;
use std::ops::Range;

use serde_json::Value;

use super::{content_of, tool_summary, Ctx, Run};
use crate::import::openhands::validate::{event_is_silent, same, MemberCache, Objects};
use crate::import::openhands::Reader;
use crate::import::Builder;
use crate::json::read::{self, Kind, Member};
use crate::json::{scan, Seg};
use crate::model::{Arguments, CallRef, Content, ContentPart, EventBody, LazyValue, Message, Text, ToolCall, ToolStatus};

/// What a record reads as, before anything of the run changes.
enum Read {
    Message { role: String, parts: Vec<ContentPart>, calls: Vec<ToolCall> },
    Action { parts: Vec<ContentPart>, call: ToolCall, response: String },
    Observation { content: Content, status: ToolStatus, call_id: Option<String>, action_id: Option<String> },
    SystemPrompt { parts: Vec<ContentPart>, tools: Vec<Value> },
}

impl Run {
    /// Reads the record at `r` fast and pushes its event; false (nothing
    /// done) when the exact path must read it.
    pub(in crate::import::openhands) fn fast_event(&mut self, rd: &mut Reader, r: &Range<usize>, path: &str) -> bool {
        if rd.out.exact_only() || !rd.fast_allowed(r) {
            return false;
        }
        let open = scan::skip_ws(rd.b, r.start);
        let mut cache = std::mem::take(&mut self.cache);
        let read = read(rd.objects(), &mut cache, &*rd.out, open, self.batch.as_deref());
        cache.clear();
        self.cache = cache;
        let Some(Event { read, kind, id, timestamp }) = read else { return false };

        // As `Run::event` does, in its order.
        let index = rd.out.next_event();
        self.records += 1;
        if let Some(id) = &id {
            if self.by_event_id.contains_key(id) {
                rd.warn_at("duplicate-event-id", format!("event id {id:?} was already used by an earlier event"), r, path, &[Seg::key("id")], index);
            }
            self.by_event_id.insert(id.clone(), None);
        }
        let ctx = Ctx { range: r.clone(), path: path.to_string(), index };
        let mut batch = None;
        let body = match read {
            Read::Message { role, parts, calls } => {
                for (j, call) in calls.iter().enumerate() {
                    self.register(call, &ctx, j, &format!("{path}.llm_message.tool_calls[{j}]"));
                }
                EventBody::Message(Message { role, content: content_of(parts), tool_calls: calls })
            }
            Read::Action { parts, call, response } => {
                self.register(&call, &ctx, 0, path);
                if let Some(id) = &id {
                    self.by_event_id.insert(id.clone(), Some(CallRef { event: index, call: 0 }));
                }
                batch = Some(response);
                EventBody::Message(Message { role: "assistant".to_string(), content: content_of(parts), tool_calls: vec![call] })
            }
            Read::Observation { content, status, call_id, action_id } => self.linked_result(rd, call_id, action_id.as_deref(), &ctx, content, status),
            Read::SystemPrompt { parts, tools } => {
                if let Some(run) = rd.out.last_run_mut() {
                    run.metadata.entry("tools".to_string()).or_insert(Value::Array(tools));
                }
                EventBody::Message(Message { role: "system".to_string(), content: content_of(parts), tool_calls: Vec::new() })
            }
        };
        self.batch = batch;
        rd.out.push_event(body, kind, r.clone(), path.to_string(), timestamp);
        true
    }
}

/// A record read fast, before anything of the run changes.
struct Event<'a> {
    read: Read,
    kind: &'a str,
    id: Option<String>,
    timestamp: Option<String>,
}

/// The record whose `{` is at `open`, when it is of a kind read here and
/// the validator is silent about it.
fn read<'a>(o: Objects<'a>, cache: &mut MemberCache, out: &Builder<'_>, open: usize, batch: Option<&str>) -> Option<Event<'a>> {
    let top = cache.take(&o, open)?;
    let kind = top.iter().find(|m| o.b.get(m.key.clone()) == Some(b"kind")).filter(|m| m.kind == Kind::String && !m.escaped);
    let kind = kind.and_then(|m| std::str::from_utf8(o.b.get(m.inner())?).ok());
    cache.put(open, top);
    let kind = kind.filter(|k| matches!(*k, "MessageEvent" | "ActionEvent" | "ObservationEvent" | "SystemPromptEvent"))?;
    if !event_is_silent(o, cache, open) {
        return None;
    }
    let f = Bytes { o, cache: RefCell::new(std::mem::take(cache)), out };
    let event = (|| {
        let top = f.object_at(open)?;
        let read = match kind {
            "MessageEvent" => f.message(&top),
            "ActionEvent" => f.action(&top, batch),
            "ObservationEvent" => f.observation(&top),
            _ => f.system_prompt(&top),
        }?;
        let id = top.get(b"id").and_then(|m| f.string(m));
        let timestamp = top.get(b"timestamp").and_then(|m| f.string(m));
        Some(Event { read, kind, id, timestamp })
    })();
    *cache = f.cache.into_inner();
    event
}

/// An object's members, each key plain (no escape) and given once, so that
/// looking one up finds what serde_json's map would hold. Its buffer goes
/// back to the cache when it is dropped.
struct Obj<'c, 'a> {
    b: &'a [u8],
    members: Vec<Member>,
    cache: &'c RefCell<MemberCache>,
}

impl Obj<'_, '_> {
    fn get(&self, key: &[u8]) -> Option<&Member> {
        self.members.iter().find(|m| same(self.b.get(m.key.clone()).unwrap_or(&[]), key))
    }
}

impl Drop for Obj<'_, '_> {
    fn drop(&mut self) {
        if let Ok(mut cache) = self.cache.try_borrow_mut() {
            cache.recycle(std::mem::take(&mut self.members));
        }
    }
}

/// The record's bytes, read in place.
struct Bytes<'x, 'a, 'o> {
    o: Objects<'a>,
    /// The objects the validator read.
    cache: RefCell<MemberCache>,
    out: &'x Builder<'o>,
}

impl<'a> Bytes<'_, 'a, '_> {
    /// The object whose `{` is at `open`; `None` if a key is escaped or repeated.
    fn object_at(&self, open: usize) -> Option<Obj<'_, 'a>> {
        let mut cache = self.cache.borrow_mut();
        let members = cache.take(&self.o, open)?;
        let plain = cache.plain_keys(&self.o, open, &members);
        drop(cache);
        plain.then_some(Obj { b: self.o.b, members, cache: &self.cache })
    }

    /// The member's value when it is an object (`Some(None)` when it is not).
    fn object(&self, m: Option<&Member>) -> Option<Option<Obj<'_, 'a>>> {
        match m {
            Some(m) if m.kind == Kind::Object => self.object_at(m.value.start).map(Some),
            _ => Some(None),
        }
    }

    fn items(&self, m: &Member) -> Option<Vec<Range<usize>>> {
        let mut items = Vec::new();
        read::items(self.o.b, m.value.start, self.o.ends, &mut items)?;
        Some(items)
    }

    /// A string value, left in the source.
    fn text(&self, m: &Member) -> Option<Text> {
        (m.kind == Kind::String).then(|| self.out.text(m.inner(), m.escaped))
    }

    /// `str_field`: a string value, decoded.
    fn string(&self, m: &Member) -> Option<String> {
        let raw = self.o.b.get(m.inner()).filter(|_| m.kind == Kind::String)?;
        Some(crate::json::string::decode_literal(raw, m.escaped).into_owned())
    }

    fn field(&self, o: &Obj, key: &[u8]) -> Option<String> {
        o.get(key).and_then(|m| self.string(m))
    }

    /// The string item at `r`, left in the source.
    fn item_text(&self, r: &Range<usize>) -> Option<Text> {
        let (end, escaped) = read::string_end(self.o.b, r.start)?;
        Some(self.out.text(r.start + 1..end.saturating_sub(1).max(r.start + 1), escaped))
    }

    fn parse(&self, r: &Range<usize>) -> Option<Value> {
        crate::json::build::value(self.o.b.get(r.clone())?)
    }

    /// `part`: a TextContent / ImageContent item.
    fn part(&self, r: &Range<usize>) -> Option<ContentPart> {
        if self.o.b.get(r.start) != Some(&b'{') {
            return self.parse(r).map(ContentPart::Other);
        }
        let o = self.object_at(r.start)?;
        let kind = o.get(b"type").and_then(|m| self.string(m));
        if let (Some("text") | None, Some(t)) = (kind.as_deref(), o.get(b"text").and_then(|m| self.text(m))) {
            return Some(ContentPart::Text(t));
        }
        match o.get(b"image_urls").filter(|m| m.kind == Kind::Array) {
            Some(m) => match self.items(m)?.as_slice() {
                [url] if self.o.b.get(url.start) == Some(&b'"') => Some(ContentPart::Image { url: self.item_text(url)? }),
                [_] => Some(ContentPart::Image { url: Text::from("") }),
                _ => self.parse(r).map(ContentPart::Other),
            },
            None => self.parse(r).map(ContentPart::Other),
        }
    }

    fn parts(&self, m: Option<&Member>, parts: &mut Vec<ContentPart>) -> Option<()> {
        if let Some(m) = m.filter(|m| m.kind == Kind::Array) {
            for r in self.items(m)? {
                parts.push(self.part(&r)?);
            }
        }
        Some(())
    }

    /// `reasoning_parts`: `reasoning_content`, `thinking_blocks`, a Responses reasoning item.
    fn reasoning_parts(&self, o: &Obj, parts: &mut Vec<ContentPart>) -> Option<()> {
        if let Some(t) = o.get(b"reasoning_content").and_then(|m| self.text(m)).filter(|t| !t.is_empty()) {
            parts.push(ContentPart::Reasoning(t));
        }
        if let Some(m) = o.get(b"thinking_blocks").filter(|m| m.kind == Kind::Array) {
            for r in self.items(m)? {
                let block = match self.o.b.get(r.start) {
                    Some(b'{') => self.object_at(r.start)?,
                    _ => {
                        parts.push(ContentPart::Other(self.parse(&r)?));
                        continue;
                    }
                };
                match block.get(b"thinking").and_then(|m| self.text(m)) {
                    Some(t) => parts.push(ContentPart::Reasoning(t)),
                    None => parts.push(ContentPart::Other(self.parse(&r)?)),
                }
            }
        }
        if let Some(item) = self.object(o.get(b"responses_reasoning_item"))? {
            for key in [&b"summary"[..], b"content"] {
                if let Some(m) = item.get(key).filter(|m| m.kind == Kind::Array) {
                    for r in self.items(m)?.iter().filter(|r| self.o.b.get(r.start) == Some(&b'"')) {
                        parts.push(ContentPart::Reasoning(self.item_text(r)?));
                    }
                }
            }
        }
        Some(())
    }

    /// A JSON text's value, kept encoded until read when it is an object
    /// both serde_json and `python::loads` read as the scanner does; `None`
    /// when it is not JSON.
    fn encoded_value(&self, text: &Text) -> Option<LazyValue> {
        let decoded = text.decoded();
        if crate::json::fields::encodes_an_object(&decoded) {
            return Some(LazyValue::encoded_in(text.clone()));
        }
        crate::json::build::from_str(&decoded).ok().map(LazyValue::from)
    }

    fn message(&self, top: &Obj) -> Option<Read> {
        let lm = self.object(top.get(b"llm_message"))?;
        let role = lm.as_ref().and_then(|m| self.field(m, b"role")).unwrap_or_default();
        let mut parts = Vec::new();
        let mut calls = Vec::new();
        if let Some(lm) = &lm {
            self.reasoning_parts(lm, &mut parts)?;
            match lm.get(b"content") {
                Some(m) if m.kind == Kind::String => parts.push(ContentPart::Text(self.text(m)?)),
                m => self.parts(m, &mut parts)?,
            }
        }
        self.parts(top.get(b"extended_content"), &mut parts)?;
        if let Some(m) = lm.as_ref().and_then(|lm| lm.get(b"tool_calls")).filter(|m| m.kind == Kind::Array) {
            for r in self.items(m)? {
                // `message_tool_call`.
                if self.o.b.get(r.start) != Some(&b'{') {
                    return None;
                }
                let c = self.object_at(r.start)?;
                let text = c.get(b"arguments").and_then(|m| self.text(m));
                let value = match &text {
                    Some(t) => self.encoded_value(t),
                    None => None,
                };
                let function = self.field(&c, b"name").unwrap_or_default();
                calls.push(ToolCall { id: self.field(&c, b"id"), function, arguments: Arguments { value, text }, result: None });
            }
        }
        Some(Read::Message { role, parts, calls })
    }

    fn action(&self, top: &Obj, batch: Option<&str>) -> Option<Read> {
        let mut parts = Vec::new();
        self.reasoning_parts(top, &mut parts)?;
        let thought = match top.get(b"thought").filter(|m| m.kind == Kind::Array) {
            Some(m) => Some(self.items(m)?),
            None => None,
        };
        for r in thought.iter().flatten() {
            match self.part(r)? {
                ContentPart::Text(t) if t.is_empty() => {}
                p => parts.push(p),
            }
        }
        let tc = self.object(top.get(b"tool_call"))?;
        let tc_id = tc.as_ref().and_then(|t| self.field(t, b"id"));
        let own_id = self.field(top, b"tool_call_id");
        if own_id.is_some() && tc_id.is_some() && own_id != tc_id {
            return None; // tool-call-id-mismatch
        }
        let function = self.field(top, b"tool_name").or_else(|| tc.as_ref().and_then(|t| self.field(t, b"name"))).unwrap_or_default();
        let response = self.field(top, b"llm_response_id").unwrap_or_default();
        if batch == Some(response.as_str()) && thought.as_ref().is_some_and(|t| !t.is_empty()) {
            return None; // batch-thought
        }
        let arguments = match tc.as_ref().and_then(|t| t.get(b"arguments")).and_then(|m| self.text(m)) {
            // Not JSON: arguments-not-json.
            Some(text) => Arguments { value: Some(self.encoded_value(&text)?), text: Some(text) },
            None => {
                let value = match top.get(b"action").filter(|m| m.kind == Kind::Object) {
                    Some(m) => match self.parse(&m.value)? {
                        Value::Object(mut a) => {
                            a.remove("kind");
                            Some(LazyValue::from(Value::Object(a)))
                        }
                        _ => None,
                    },
                    None => None,
                };
                Arguments { value, text: None }
            }
        };
        let call = ToolCall { id: own_id.or(tc_id), function, arguments, result: None };
        Some(Read::Action { parts, call, response })
    }

    fn observation(&self, top: &Obj) -> Option<Read> {
        let (content, failed) = match top.get(b"observation") {
            Some(m) if m.kind == Kind::Object => {
                let obs = self.object_at(m.value.start)?;
                let content = match obs.get(b"content").filter(|c| c.kind == Kind::Array) {
                    Some(c) => {
                        let mut parts = Vec::new();
                        self.parts(Some(c), &mut parts)?;
                        Content::Parts(parts)
                    }
                    None => Content::Json(self.parse(&m.value)?.into()),
                };
                let failed = obs.get(b"is_error").is_some_and(|e| self.o.b.get(e.value.clone()) == Some(b"true"));
                (content, failed)
            }
            Some(m) => (Content::Json(self.parse(&m.value)?.into()), false),
            None => (Content::None, false),
        };
        let status = if failed { ToolStatus::Error } else { ToolStatus::Success };
        Some(Read::Observation { content, status, call_id: self.field(top, b"tool_call_id"), action_id: self.field(top, b"action_id") })
    }

    fn system_prompt(&self, top: &Obj) -> Option<Read> {
        let mut parts = Vec::new();
        for key in [&b"system_prompt"[..], b"dynamic_context"] {
            if let Some(p) = self.object(top.get(key))? {
                if let Some(t) = p.get(b"text").and_then(|m| self.text(m)) {
                    parts.push(ContentPart::Text(t));
                }
            }
        }
        let mut tools = Vec::new();
        if let Some(m) = top.get(b"tools").filter(|m| m.kind == Kind::Array) {
            for r in self.items(m)? {
                tools.push(tool_summary(&self.parse(&r)?));
            }
        }
        Some(Read::SystemPrompt { parts, tools })
    }
}

