//! One event of an OpenAI trace: a message, a tool output, a standalone tool
//! call or a tool list, checked as Invariant's loader checks it, and the links
//! between tool calls and their outputs.

use std::ops::Range;

use serde_json::{Map, Value};

use super::{json_type, CallSite};
use crate::diagnostic::Severity::{self, Error, Warning};
use crate::json::Seg;
use crate::model::{
    Arguments, CallRef, Content, ContentPart, EventBody, Message, ToolCall, ToolResult,
    ToolStatus,
};

use super::{chunk, fast, nested_event_fields, Ctx, Links, Reader, KNOWN_ROLES};

impl<'r, 'a> Reader<'r, 'a> {
    pub(super) fn event(&mut self, r: Range<usize>, path: String, links: &mut Links) {
        if let Some(event) = self.fast_event(&r) {
            let index = self.out.next_event();
            let ctx = Ctx { range: r.clone(), path, index };
            match event {
                fast::FastEvent::Message { role, content, calls, timestamp } => {
                    self.register_calls(&calls, &ctx, &[Seg::key("tool_calls")], links);
                    let body = Message { role, content, tool_calls: calls };
                    self.out.push_event(EventBody::Message(body), "Message", r, ctx.path, timestamp);
                }
                fast::FastEvent::ToolOutput { content, status, call_id, timestamp } => {
                    let mut result = ToolResult { call_id: None, content, status, call: None, implicit_link: false };
                    self.link_output(&mut result, call_id, &ctx, links);
                    self.out.push_event(EventBody::ToolResult(result), "ToolOutput", r, ctx.path, timestamp);
                }
            }
            return;
        }
        let path = path.as_str();
        let v = match self.out.parse_record(&r, path) {
            Ok(v) => v,
            Err(msg) => {
                self.out.unparsed(r, path, format!("invalid JSON: {msg}"));
                return;
            }
        };
        let index = self.out.next_event();
        let Value::Object(mut o) = v else {
            self.out.diag(
                Error,
                "event-not-object",
                format!("expected an event object (a message, a tool call or a tool list), found {}", json_type(&v)),
                path.to_string(),
                r.start,
                Some(index),
            );
            self.out.unparsed(r, path, format!("an event must be an object, not {}", json_type(&v)));
            return;
        };
        let ctx = Ctx { range: r.clone(), path: path.to_string(), index };
        // Invariant builds tool lists field by field; every other event is validated whole.
        let is_tool_list = !o.contains_key("role") && !o.contains_key("type") && o.contains_key("tools");
        self.check_common(&o, &ctx, !is_tool_list);
        let timestamp = o.get("timestamp").and_then(Value::as_str).map(str::to_string);
        if o.contains_key("role") {
            let role = match o.get("role") {
                Some(Value::String(s)) => {
                    if !KNOWN_ROLES.contains(&s.as_str()) {
                        let known = KNOWN_ROLES.join(", ");
                        self.d(&ctx, Warning, "unknown-role", format!("role {s:?} is none of {known}; it is read as a message"), &[Seg::key("role")]);
                    }
                    s.clone()
                }
                other => {
                    let found = other.map(json_type).unwrap_or("nothing");
                    self.d(&ctx, Error, "role-not-string", format!("expected `role` to be a string such as \"user\", found {found}"), &[Seg::key("role")]);
                    String::new()
                }
            };
            if role == "tool" {
                let body = self.tool_output(&mut o, &ctx, links);
                self.out.push_event(EventBody::ToolResult(body), "ToolOutput", r, path.to_string(), timestamp);
            } else {
                let content = self.content(&mut o, &ctx, false);
                let tool_calls = self.message_calls(&o, &ctx);
                self.register_calls(&tool_calls, &ctx, &[Seg::key("tool_calls")], links);
                let body = Message { role, content, tool_calls };
                let index = self.out.push_event(EventBody::Message(body), "Message", r, path.to_string(), timestamp);
                if let Some(e) = self.out.event_mut(index) {
                    e.facts = crate::import::facts::completion(&o);
                }
            }
        } else if o.contains_key("type") {
            let call = self.call(&Value::Object(std::mem::take(&mut o)), &ctx, &[], false);
            self.register_calls(std::slice::from_ref(&call), &ctx, &[], links);
            self.out.push_event(EventBody::ToolCall(call), "ToolCall", r, path.to_string(), timestamp);
        } else if o.contains_key("tools") {
            let tools = self.tools(&o, &ctx);
            self.out.push_event(EventBody::ToolDefinitions(tools), "Tool", r, path.to_string(), timestamp);
        } else {
            let keys: Vec<&str> = o.keys().map(String::as_str).take(6).collect();
            self.d(
                &ctx,
                Error,
                "missing-role",
                format!(
                    "expected a message with a `role`, a tool call with `type` and `function`, or a `tools` list; this object has {}",
                    if keys.is_empty() { "no keys".to_string() } else { format!("keys {}", keys.join(", ")) }
                ),
                &[],
            );
            self.out.unparsed(r, path, "not a message, tool call or tool list".to_string());
        }
    }

    pub(super) fn d(&mut self, ctx: &Ctx, severity: Severity, code: &'static str, message: String, segs: &[Seg]) {
        self.out.diag_in(severity, code, message, &ctx.range, &ctx.path, segs, Some(ctx.index));
    }

    /// `metadata` and `server`, which every Invariant event has. Invariant
    /// first copies `metadata.server` over `server` (testing `"server" in
    /// metadata`, which fails for null and numbers), then validates both,
    /// except on tool lists, which it builds from their `tools` alone.
    pub(super) fn check_common(&mut self, o: &Map<String, Value>, ctx: &Ctx, validated: bool) {
        let metadata = o.get("metadata");
        if let Some(m) = metadata {
            let holds_server = match m {
                Value::String(s) => s.contains("server"),
                Value::Array(items) => items.iter().any(|v| v.as_str() == Some("server")),
                _ => false,
            };
            let at = [Seg::key("metadata")];
            match m {
                Value::Object(_) => {}
                Value::Null | Value::Bool(_) | Value::Number(_) => {
                    self.d(ctx, Error, "metadata-type", format!("expected `metadata` to be an object, found {}", json_type(m)), &at)
                }
                _ if validated || holds_server => {
                    self.d(ctx, Error, "metadata-type", format!("expected `metadata` to be an object, found {}", json_type(m)), &at)
                }
                _ => self.d(
                    ctx,
                    Warning,
                    "metadata-ignored",
                    format!("expected `metadata` to be an object, found {}; Invariant ignores it on a tool list", json_type(m)),
                    &at,
                ),
            }
        }
        if !validated {
            return;
        }
        let (server, at) = match metadata.and_then(Value::as_object).and_then(|m| m.get("server")) {
            Some(s) => (Some(s), vec![Seg::key("metadata"), Seg::key("server")]),
            None => (o.get("server"), vec![Seg::key("server")]),
        };
        if let Some(s) = server.filter(|s| !s.is_string() && !s.is_null()) {
            self.d(ctx, Error, "server-type", format!("expected `server` to be a string, found {}", json_type(s)), &at);
        }
    }

    /// Message content: null, a string, or a list of text/image chunks. Tool
    /// outputs may also hold an object.
    /// Moves `content` out of the event's object (it is read last): the bulk
    /// of a trace's bytes is content, and cloning it was a copy of the file.
    pub(super) fn content(&mut self, o: &mut Map<String, Value>, ctx: &Ctx, allow_object: bool) -> Content {
        match o.get_mut("content").map(Value::take) {
            None | Some(Value::Null) => Content::None,
            Some(Value::String(s)) => Content::Text(s.into()),
            Some(Value::Array(items)) => {
                let mut parts = Vec::with_capacity(items.len());
                for (i, item) in items.into_iter().enumerate() {
                    match chunk(&item) {
                        Ok(p) => parts.push(p),
                        Err(why) => {
                            self.d(ctx, Error, "content-part-invalid", why.to_string(), &[Seg::key("content"), Seg::Index(i)]);
                            parts.push(ContentPart::Other(item));
                        }
                    }
                }
                Content::Parts(parts)
            }
            Some(Value::Object(m)) if allow_object => Content::Json(Value::Object(m).into()),
            Some(other) => {
                let allowed = if allow_object { "a string, a list of content parts, an object or null" } else { "a string, a list of content parts or null" };
                self.d(ctx, Error, "content-type", format!("expected `content` to be {allowed}, found {}", json_type(&other)), &[Seg::key("content")]);
                Content::Json(other.into())
            }
        }
    }

    pub(super) fn message_calls(&mut self, o: &Map<String, Value>, ctx: &Ctx) -> Vec<ToolCall> {
        match o.get("tool_calls") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(calls)) => calls
                .iter()
                .enumerate()
                .map(|(i, c)| self.call(c, ctx, &[Seg::key("tool_calls"), Seg::Index(i)], true))
                .collect(),
            Some(other) => {
                self.d(ctx, Error, "tool-calls-type", format!("expected `tool_calls` to be a list, found {}", json_type(other)), &[Seg::key("tool_calls")]);
                Vec::new()
            }
        }
    }

    /// One tool call. `decode_string_args` is true inside a message's
    /// `tool_calls`, where Invariant decodes JSON-string arguments.
    pub(super) fn call(&mut self, v: &Value, ctx: &Ctx, at: &[Seg], decode_string_args: bool) -> ToolCall {
        let seg = |extra: &[&str]| -> Vec<Seg> {
            let mut s = at.to_vec();
            s.extend(extra.iter().map(|k| Seg::key(k)));
            s
        };
        let mut call = ToolCall { id: None, function: String::new(), arguments: Arguments::default(), result: None };
        let Some(o) = v.as_object() else {
            self.d(ctx, Error, "tool-call-not-object", format!("expected a tool call object, found {}", json_type(v)), at);
            return call;
        };
        if decode_string_args {
            // A standalone call's own `metadata`/`server` were checked as the event's.
            // Invariant stamps each call's `metadata` after validation, so null fails there.
            if let Some((field, why)) = nested_event_fields(o, false) {
                self.d(ctx, Error, "tool-call-field-type", format!("tool call: {why}"), &seg(&[field]));
            }
        }
        match o.get("id") {
            None | Some(Value::Null) => {
                self.d(ctx, Warning, "tool-call-missing-id", "tool call has no `id`; its output is linked by position".to_string(), at)
            }
            Some(Value::String(s)) => call.id = Some(s.clone()),
            Some(other) => {
                self.d(ctx, Error, "tool-call-id-type", format!("expected the tool call `id` to be a string, found {}", json_type(other)), &seg(&["id"]));
                call.id = Some(other.to_string());
            }
        }
        match o.get("type") {
            Some(Value::String(_)) => {}
            None => self.d(ctx, Error, "tool-call-missing-type", "tool call has no `type` (Invariant requires it, e.g. \"function\")".to_string(), at),
            Some(other) => self.d(ctx, Error, "tool-call-type-type", format!("expected the tool call `type` to be a string, found {}", json_type(other)), &seg(&["type"])),
        }
        let Some(function) = o.get("function").and_then(Value::as_object) else {
            let found = o.get("function").map(json_type).unwrap_or("nothing");
            self.d(ctx, Error, "tool-call-missing-function", format!("expected a `function` object with `name` and `arguments`, found {found}"), at);
            return call;
        };
        match function.get("name") {
            Some(Value::String(s)) => call.function = s.clone(),
            None => self.d(ctx, Error, "tool-call-missing-name", "tool call has no `function.name`".to_string(), &seg(&["function"])),
            Some(other) => {
                self.d(ctx, Error, "tool-call-name-type", format!("expected `function.name` to be a string, found {}", json_type(other)), &seg(&["function", "name"]));
                call.function = other.to_string();
            }
        }
        let args_at = seg(&["function", "arguments"]);
        match function.get("arguments") {
            None => self.d(ctx, Error, "tool-call-missing-arguments", "tool call has no `function.arguments`".to_string(), &seg(&["function"])),
            Some(Value::Object(m)) => call.arguments.value = Some(Value::Object(m.clone()).into()),
            Some(Value::String(s)) if decode_string_args => {
                call.arguments.text = Some(s.as_str().into());
                match crate::json::python::loads(s) {
                    Ok(Value::Object(m)) => call.arguments.value = Some(Value::Object(m).into()),
                    Ok(other) => {
                        self.d(ctx, Error, "arguments-not-object", format!("`function.arguments` decodes to {}, but must be an object of named arguments", json_type(&other)), &args_at);
                        call.arguments.value = Some(other.into());
                    }
                    Err(e) => self.d(
                        ctx,
                        Error,
                        "arguments-not-json",
                        format!("`function.arguments` is a string that is not valid JSON ({e}); Invariant rejects it"),
                        &args_at,
                    ),
                }
            }
            Some(other) => {
                let why = if other.is_string() {
                    "a standalone tool call's `function.arguments` must be an object (JSON strings are decoded only inside a message's `tool_calls`)".to_string()
                } else {
                    format!("expected `function.arguments` to be an object or a JSON string, found {}", json_type(other))
                };
                self.d(ctx, Error, "arguments-not-object", why, &args_at);
                match other {
                    Value::String(s) => call.arguments.text = Some(s.as_str().into()),
                    _ => call.arguments.value = Some(other.clone().into()),
                }
            }
        }
        call
    }

    pub(super) fn register_calls(&mut self, calls: &[ToolCall], ctx: &Ctx, at: &[Seg], links: &mut Links) {
        if calls.is_empty() {
            return;
        }
        links.group.clear();
        for (j, call) in calls.iter().enumerate() {
            let cref = CallRef { event: ctx.index, call: crate::source::clamp_u32(j) };
            if let Some(id) = &call.id {
                if let Some(prev) = links.by_id.insert(id.clone(), cref) {
                    let mut segs = at.to_vec();
                    if !at.is_empty() {
                        segs.push(Seg::Index(j));
                    }
                    self.d(
                        ctx,
                        Warning,
                        "duplicate-tool-call-id",
                        format!("tool call id {id:?} was already used by event {}; outputs with this id link to this later call", prev.event),
                        &segs,
                    );
                }
            }
            links.last = Some(cref);
            links.group.push(cref, &call.function);
            let segs = if at.is_empty() { Vec::new() } else { vec![Seg::key("tool_calls"), Seg::Index(j)] };
            links.calls.push(CallSite { call: cref, segs });
        }
    }

    pub(super) fn tool_output(&mut self, o: &mut Map<String, Value>, ctx: &Ctx, links: &mut Links) -> ToolResult {
        let content = self.content(o, ctx, true);
        let status = match o.get("error") {
            Some(Value::Null) | None => ToolStatus::Unknown,
            Some(Value::Bool(false)) => ToolStatus::Success,
            Some(_) => ToolStatus::Error,
        };
        let mut result = ToolResult { call_id: None, content, status, call: None, implicit_link: false };
        match o.get("tool_call_id") {
            Some(Value::String(id)) => self.link_output(&mut result, Some(id.clone()), ctx, links),
            None | Some(Value::Null) => self.link_output(&mut result, None, ctx, links),
            Some(other) => {
                self.d(ctx, Error, "tool-call-id-type", format!("expected `tool_call_id` to be a string, found {}", json_type(other)), &[Seg::key("tool_call_id")]);
            }
        }
        result
    }

    /// Links a tool output to its call: by `call_id`, or without one to the
    /// first unanswered call of the last message with calls (else the last call).
    pub(super) fn link_output(&mut self, result: &mut ToolResult, call_id: Option<String>, ctx: &Ctx, links: &mut Links) {
        let target = match &call_id {
            Some(id) => {
                let found = links.by_id.get(id).copied();
                if found.is_none() {
                    self.d(ctx, Warning, "unknown-tool-call-id", format!("no tool call before this output has id {id:?}"), &[Seg::key("tool_call_id")]);
                }
                found
            }
            None => {
                result.implicit_link = true;
                let target = links.group.first_unanswered(self.out, None).or(links.last);
                if target.is_none() {
                    self.d(ctx, Warning, "tool-output-without-call", "tool output has no `tool_call_id` and no tool call comes before it".to_string(), &[]);
                }
                target
            }
        };
        result.call_id = call_id;
        if let Some(cref) = target {
            result.call = Some(cref);
            self.out.link_result(cref, ctx.index);
        }
    }

    pub(super) fn finish_links(&mut self, links: Links) {
        self.out.warn_unanswered(&links.calls, |name| format!("{name} never gets a tool output"));
    }

}
