//! A sample's `messages`: Inspect's ChatMessages (`system`, `user`,
//! `assistant`, `tool`). Content is a string or a list of parts (`text`,
//! `reasoning`, `image`, `audio`, `video`, `data`, …); an assistant's
//! `tool_calls` are `{id, function, arguments, view, parse_error}`; a tool
//! message answers `tool_call_id` and may carry an `error` `{type, message}`
//! (a failed result, not a diagnostic). `attachment://<hash>` strings are
//! read as the sample's `attachments` hold them.

use std::ops::Range;

use serde_json::{Map, Value};

use super::super::Builder;
use super::fast::{self, Ctx, InPlace};
use super::retold::Said;
use crate::diagnostic::Severity::Error;
use crate::model::{Arguments, CallRef, Content, ContentPart, EventBody, Message, Metadata, Text, ToolCall, ToolResult, ToolStatus};

/// The calls of a transcript by id, for the results that name them.
pub(super) type Calls = crate::import::lookup::Lookup<String, CallRef>;

/// Fields the event body shows; the others stay in the event's metadata.
pub(super) const BODY_KEYS: &[&str] = &["role", "content", "tool_calls", "tool_call_id"];

/// Reads the messages at `items`; notes in `said` the assistant messages
/// read in place (their model events' output messages retell them).
pub(super) fn read(out: &mut Builder, items: &[Range<usize>], path: &str, ctx: &Ctx, said: &mut Said) {
    let attachments = ctx.attachments;
    let mut calls = Calls::default();
    for (i, r) in items.iter().enumerate() {
        let item_path = fast::item_path(path, i);
        if ctx.allowed(out, r) {
            if let Some(m) = fast::message(out, r, ctx) {
                let assistant = m.role == "assistant";
                let index = push(out, r, item_path, m, &mut calls);
                if assistant {
                    said.note(r.clone(), index);
                }
                continue;
            }
        }
        let Ok(mut v) = out.parse_record(r, &item_path) else { continue };
        resolve(&mut v, attachments);
        let role = v.get("role").and_then(Value::as_str).unwrap_or_default().to_string();
        check_role(out, r, &item_path, &role);
        let failed;
        let body = if role == "tool" {
            let error = v.get("error").filter(|e| !e.is_null());
            failed = error.is_some();
            let call_id = v.get("tool_call_id").and_then(Value::as_str).map(str::to_string);
            EventBody::ToolResult(ToolResult {
                call_id,
                content: content(v.get("content")),
                status: if failed { ToolStatus::Error } else { ToolStatus::Success },
                call: None,
                implicit_link: false,
            })
        } else {
            failed = false;
            EventBody::Message(Message { role: role.clone(), content: content(v.get("content")), tool_calls: tool_calls(v.get("tool_calls")) })
        };
        let index = out.push_event(body, &role, r.clone(), item_path, None);
        link(out, index, &mut calls);
        if let Some(e) = out.event_mut(index) {
            e.failed = failed;
            if let Value::Object(o) = v {
                e.metadata = message_metadata(o, &Metadata::new()).into();
            }
        }
    }
}

/// A message's metadata: its members but those the body shows and the
/// `null` ones (the fast path's [`crate::event_metadata::Shape`]).
pub(super) fn message_metadata(record: Metadata, _extra: &Metadata) -> Metadata {
    record.into_iter().filter(|(k, val)| !BODY_KEYS.contains(&k.as_str()) && !val.is_null()).collect()
}

/// Pushes a message read in place.
fn push(out: &mut Builder, r: &Range<usize>, item_path: String, m: InPlace, calls: &mut Calls) -> u32 {
    check_role(out, r, &item_path, &m.role);
    let body = if m.role == "tool" {
        EventBody::ToolResult(ToolResult {
            call_id: m.tool_call_id,
            content: m.content,
            status: if m.error { ToolStatus::Error } else { ToolStatus::Success },
            call: None,
            implicit_link: false,
        })
    } else {
        EventBody::Message(Message { role: m.role.clone(), content: m.content, tool_calls: m.tool_calls })
    };
    let index = out.push_event(body, &m.role, r.clone(), item_path, None);
    link(out, index, calls);
    if let Some(e) = out.event_mut(index) {
        e.failed = m.error && m.role == "tool";
        e.metadata = m.metadata;
    }
    index
}

/// A role other than the four is what `read_eval_log` refuses.
fn check_role(out: &mut Builder, r: &Range<usize>, item_path: &str, role: &str) {
    if matches!(role, "system" | "user" | "assistant" | "tool") {
        return;
    }
    let b = out.bytes();
    // Only on this error path: the record's members found again.
    let found = crate::json::scan::object_members(b, crate::json::scan::skip_ws(b, r.start))
        .ok()
        .and_then(|m| m.into_iter().rev().find(|(k, _)| k == "role").map(|(_, vr)| fast::parse(b, &vr).to_string()))
        .unwrap_or_else(|| "none".to_string());
    let at = out.locate(r.start, &[crate::json::Seg::key("role")]);
    out.diag(Error, "invalid-message", format!("a message's `role` must be system, user, assistant or tool; found {found}: `read_eval_log` refuses the log"), format!("{item_path}.role"), at, Some(out.next_event()));
}

/// Registers the calls of event `index` by id, or links the result it is
/// to the call its `tool_call_id` names.
pub(super) fn link(out: &mut Builder, index: u32, calls: &mut Calls) {
    let (ids, result_of) = match out.events().get(index as usize).map(|e| &e.body) {
        Some(EventBody::Message(m)) => (m.tool_calls.iter().map(|c| c.id.clone()).collect::<Vec<_>>(), None),
        Some(EventBody::ToolResult(r)) => (Vec::new(), r.call_id.clone()),
        _ => return,
    };
    for (k, id) in ids.into_iter().enumerate() {
        if let Some(id) = id {
            calls.insert(id, CallRef { event: index, call: crate::source::clamp_u32(k) });
        }
    }
    let Some(call) = result_of.and_then(|id| calls.get(&id).copied()) else { return };
    if out.link_result(call, index) {
        if let Some(EventBody::ToolResult(r)) = out.event_mut(index).map(|e| &mut e.body) {
            r.call = Some(call);
        }
    }
}

/// A message's `content`: a string, or a list of content parts.
pub(super) fn content(v: Option<&Value>) -> Content {
    match v {
        None | Some(Value::Null) => Content::None,
        Some(Value::String(s)) => Content::Text(Text::from(s.as_str())),
        Some(Value::Array(parts)) => Content::Parts(parts.iter().map(part).collect()),
        Some(other) => Content::Json(other.clone().into()),
    }
}

fn part(p: &Value) -> ContentPart {
    let text = |k: &str| p.get(k).and_then(Value::as_str).map(Text::from);
    match p.get("type").and_then(Value::as_str) {
        Some("text") => text("text").map(ContentPart::Text).unwrap_or_else(|| ContentPart::Other(p.clone())),
        Some("reasoning") => {
            // A redacted block's text is encrypted: its summary is what a person reads.
            let redacted = p.get("redacted").and_then(Value::as_bool).unwrap_or(false);
            let shown = if redacted { text("summary").or_else(|| text("reasoning")) } else { text("reasoning") };
            shown.map(ContentPart::Reasoning).unwrap_or_else(|| ContentPart::Other(p.clone()))
        }
        Some("image") => text("image").map(|url| ContentPart::Image { url }).unwrap_or_else(|| ContentPart::Other(p.clone())),
        _ => ContentPart::Other(p.clone()),
    }
}

/// An assistant's `tool_calls`.
pub(super) fn tool_calls(v: Option<&Value>) -> Vec<ToolCall> {
    let Some(Value::Array(calls)) = v else { return Vec::new() };
    calls
        .iter()
        .map(|c| ToolCall {
            id: c.get("id").and_then(Value::as_str).map(str::to_string),
            function: c.get("function").and_then(Value::as_str).unwrap_or_default().to_string(),
            arguments: match c.get("arguments") {
                Some(Value::String(s)) => Arguments { value: None, text: Some(Text::from(s.as_str())) },
                Some(a) => Arguments { value: Some(a.clone().into()), text: None },
                None => Arguments::default(),
            },
            result: None,
        })
        .collect()
}

/// Replaces each `attachment://<hash>` string whose hash the sample's
/// `attachments` hold by the attachment's text.
pub(super) fn resolve(v: &mut Value, attachments: &Map<String, Value>) {
    if attachments.is_empty() {
        return;
    }
    match v {
        Value::String(s) => {
            if let Some(Value::String(text)) = s.strip_prefix("attachment://").and_then(|h| attachments.get(h)) {
                *s = text.clone();
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|i| resolve(i, attachments)),
        Value::Object(m) => m.values_mut().for_each(|i| resolve(i, attachments)),
        _ => {}
    }
}
