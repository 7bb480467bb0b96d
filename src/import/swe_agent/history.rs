//! `history`: the messages the model saw (`HistoryItem`s). Assistant
//! messages carry `tool_calls` (function calling, 1.x); the tool messages
//! after them name the calls they answer in `tool_call_ids`.

use std::collections::HashMap;
use std::ops::Range;

use serde_json::{Map, Value};

use super::super::{json_type, CallQueue, CallSite};
use super::fast::Answers;
use super::Reader;
use crate::json::Seg;
use crate::model::{Arguments, CallRef, Content, ContentPart, EventBody, LazyValue, Message, Text, ToolCall, ToolResult, ToolStatus};

/// Keys the message body holds; every other key is event metadata.
const BODY_KEYS: &[&str] = &["role", "content"];

/// Calls seen so far, to link tool messages to them.
#[derive(Default)]
struct Links {
    by_id: HashMap<String, CallRef>,
    /// The last assistant message's calls, for a tool message without ids.
    queue: CallQueue,
    sites: Vec<CallSite>,
}

pub fn read(rd: &mut Reader, r: Range<usize>, path: &str) {
    let Some(items) = rd.list_items(r, path, "history") else { return };
    let mut links = Links::default();
    for (i, item) in items.into_iter().enumerate() {
        item_event(rd, item, &crate::json::item_path(path, i), &mut links);
    }
    rd.out.warn_unanswered(&links.sites, |name| format!("{name} has no tool message naming its id in `tool_call_ids`"));
}

fn item_event(rd: &mut Reader, r: Range<usize>, path: &str, links: &mut Links) {
    if let Some(item) = rd.fast_item(&r) {
        let at = rd.out.next_event();
        let metadata = rd.out.metadata_in_source(r.clone(), item_metadata, Map::new());
        place(rd, item.role, item.kind, item.content, item.answers, r, path, at, links);
        if let Some(e) = rd.out.event_mut(at) {
            e.metadata = metadata;
        }
        return;
    }
    let v = match rd.out.parse_record(&r, path) {
        Ok(v) => v,
        Err(_) => return rd.out.unparsed(r, path, "invalid JSON"),
    };
    let Value::Object(o) = v else {
        let message = format!("expected a history item (an object with `role` and `content`); found {}", json_type(&v));
        let at = rd.out.next_event();
        rd.out.unparsed(r.clone(), path, "not a history item");
        rd.warn("not-an-object", message, &r, path, &[], at);
        return;
    };
    let at = rd.out.next_event();
    let role = match o.get("role") {
        Some(Value::String(s)) => s.clone(),
        other => {
            let found = other.map(json_type).unwrap_or("nothing");
            rd.warn("bad-role", format!("expected `role` to be a string (HistoryItem.role: str); found {found}"), &r, path, &[Seg::key("role")], at);
            String::new()
        }
    };
    let content = content(rd, &o, &r, path, at);
    let kind = o.get("message_type").and_then(Value::as_str).unwrap_or("message").to_string();
    let answers = if role == "tool" { Answers::Ids(tool_call_ids(rd, &o, &r, path, at)) } else { Answers::Calls(tool_calls(rd, &o, &r, path, at)) };
    place(rd, role, kind, content, answers, r, path, at, links);
    if let Some(e) = rd.out.event_mut(at) {
        e.metadata = item_metadata(o, &Map::new()).into();
    }
}

/// The item's event at `at`: a tool message's result, linked to the calls
/// it names, or a message whose calls later tool messages may name.
#[allow(clippy::too_many_arguments)]
fn place(rd: &mut Reader, role: String, kind: String, content: Content, answers: Answers, r: Range<usize>, path: &str, at: u32, links: &mut Links) {
    match answers {
        Answers::Ids(ids) => {
            let result = ToolResult { call_id: ids.first().map(|(_, id)| id.clone()), content, status: ToolStatus::Unknown, call: None, implicit_link: false };
            rd.out.push_event(EventBody::ToolResult(result), &kind, r.clone(), path.to_string(), None);
            link(rd, &ids, &r, path, at, links);
        }
        Answers::Calls(calls) => {
            links.queue.clear();
            for (j, c) in calls.iter().enumerate() {
                let cref = CallRef { event: at, call: crate::source::clamp_u32(j) };
                if let Some(id) = &c.id {
                    links.by_id.insert(id.clone(), cref);
                }
                links.queue.push(cref, &c.function);
                links.sites.push(CallSite { call: cref, segs: vec![Seg::key("tool_calls"), Seg::Index(j)] });
            }
            rd.out.push_event(EventBody::Message(Message { role, content, tool_calls: calls }), &kind, r, path.to_string(), None);
        }
    }
}

/// The item's metadata: the keys the body has no place for (a message's
/// calls and a tool message's ids are in the body when they are lists).
/// The fast path leaves it to be built from the source when first read.
pub(super) fn item_metadata(mut o: Map<String, Value>, _: &Map<String, Value>) -> Map<String, Value> {
    let is_tool = o.get("role").and_then(Value::as_str) == Some("tool");
    o.retain(|k, v| {
        let in_body = BODY_KEYS.contains(&k.as_str())
            || (k == "tool_calls" && !is_tool && v.is_array())
            || (k == "tool_call_ids" && is_tool && v.is_array())
            || (k == "thinking_blocks" && v.is_array());
        !in_body
    });
    o
}

/// `content`: a string, or a list of parts (`text`, `image_url`); the
/// model's `thinking_blocks` come first as reasoning.
fn content(rd: &mut Reader, o: &Map<String, Value>, r: &Range<usize>, path: &str, at: u32) -> Content {
    let mut parts: Vec<ContentPart> = Vec::new();
    for b in o.get("thinking_blocks").and_then(Value::as_array).into_iter().flatten() {
        match b.get("thinking").and_then(Value::as_str) {
            Some(t) => parts.push(ContentPart::Reasoning(Text::from(t))),
            None => parts.push(ContentPart::Other(b.clone())),
        }
    }
    let main = match o.get("content") {
        Some(Value::String(s)) => Content::Text(Text::from(s.as_str())),
        Some(Value::Array(items)) => Content::Parts(items.iter().map(part).collect()),
        None | Some(Value::Null) => Content::None,
        Some(other) => {
            let message = format!("expected `content` to be a string or a list of parts (HistoryItem.content); found {}", json_type(other));
            rd.warn("bad-content", message, r, path, &[Seg::key("content")], at);
            Content::Json(other.clone().into())
        }
    };
    if parts.is_empty() {
        return main;
    }
    match main {
        Content::None => {}
        Content::Text(t) => parts.push(ContentPart::Text(t)),
        Content::Parts(p) => parts.extend(p),
        Content::Json(v) => parts.push(ContentPart::Other(v.into_value())),
    }
    Content::Parts(parts)
}

/// One part of a list `content` (OpenAI's `{type: text}` / `{type: image_url}`).
pub fn part(v: &Value) -> ContentPart {
    let kind = v.get("type").and_then(Value::as_str);
    match (kind, v.get("text").and_then(Value::as_str)) {
        (Some("text"), Some(t)) => ContentPart::Text(Text::from(t)),
        _ => match v.get("image_url").and_then(|u| u.get("url").or(Some(u))).and_then(Value::as_str) {
            Some(url) if kind == Some("image_url") => ContentPart::Image { url: Text::from(url) },
            _ => ContentPart::Other(v.clone()),
        },
    }
}

/// `tool_calls`: OpenAI-style `{id, type, function: {name, arguments}}`,
/// `arguments` a JSON string (or an object).
fn tool_calls(rd: &mut Reader, o: &Map<String, Value>, r: &Range<usize>, path: &str, at: u32) -> Vec<ToolCall> {
    let items = match o.get("tool_calls") {
        None | Some(Value::Null) => return Vec::new(),
        Some(Value::Array(items)) => items,
        Some(other) => {
            let message = format!("expected `tool_calls` to be a list of calls; found {} (kept in metadata)", json_type(other));
            rd.warn("bad-tool-calls", message, r, path, &[Seg::key("tool_calls")], at);
            return Vec::new();
        }
    };
    let mut calls = Vec::with_capacity(items.len());
    for (j, c) in items.iter().enumerate() {
        let f = c.get("function");
        let name = f.and_then(|f| f.get("name")).and_then(Value::as_str);
        if name.is_none() {
            let message = "expected the call to name its function in `function.name`".to_string();
            rd.warn("bad-tool-call", message, r, path, &[Seg::key("tool_calls"), Seg::Index(j)], at);
        }
        let arguments = match f.and_then(|f| f.get("arguments")) {
            Some(Value::String(s)) => {
                let value: Option<Value> = crate::json::build::from_str(s).ok();
                Arguments { value: value.map(LazyValue::from), text: Some(Text::from(s.as_str())) }
            }
            Some(v) => Arguments { value: Some(LazyValue::from(v.clone())), text: None },
            None => Arguments::default(),
        };
        let id = c.get("id").and_then(Value::as_str).map(str::to_string);
        calls.push(ToolCall { id, function: name.unwrap_or_default().to_string(), arguments, result: None });
    }
    calls
}

/// `tool_call_ids`: the calls a tool message answers, with their places in the list.
fn tool_call_ids(rd: &mut Reader, o: &Map<String, Value>, r: &Range<usize>, path: &str, at: u32) -> Vec<(usize, String)> {
    match o.get("tool_call_ids") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(ids)) => {
            let mut out = Vec::with_capacity(ids.len());
            for (j, id) in ids.iter().enumerate() {
                match id.as_str() {
                    Some(s) => out.push((j, s.to_string())),
                    None => {
                        let message = format!("expected a call id (a string); found {}", json_type(id));
                        rd.warn("bad-tool-call-id", message, r, path, &[Seg::key("tool_call_ids"), Seg::Index(j)], at);
                    }
                }
            }
            out
        }
        Some(other) => {
            let message = format!("expected `tool_call_ids` to be a list of call ids; found {} (kept in metadata)", json_type(other));
            rd.warn("bad-tool-call-ids", message, r, path, &[Seg::key("tool_call_ids")], at);
            Vec::new()
        }
    }
}

/// Links the tool message at `at` to the calls it names, or, naming none,
/// to the last assistant message's first unanswered call.
fn link(rd: &mut Reader, ids: &[(usize, String)], r: &Range<usize>, path: &str, at: u32, links: &mut Links) {
    let mut first: Option<(CallRef, bool)> = None;
    if ids.is_empty() {
        if let Some(c) = links.queue.first_unanswered(rd.out, None) {
            rd.out.link_result(c, at);
            first = Some((c, true));
        }
    }
    for (j, id) in ids {
        match links.by_id.get(id).copied() {
            Some(c) => {
                if rd.out.link_result(c, at) && first.is_none() {
                    first = Some((c, false));
                }
            }
            None => {
                let message = format!("`{id}` names no earlier call in `tool_calls`");
                rd.warn("unknown-tool-call-id", message, r, path, &[Seg::key("tool_call_ids"), Seg::Index(*j)], at);
            }
        }
    }
    if let (Some((c, implicit)), Some(e)) = (first, rd.out.event_mut(at)) {
        if let EventBody::ToolResult(t) = &mut e.body {
            t.call = Some(c);
            t.implicit_link = implicit;
        }
    }
}
