//! An Agent Catalog record's `content`: the eleven kinds as event bodies,
//! and tool calls linked to their results within a session.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::record::{
    content_name, ContentMembers, DEST, EXTRA, KEY, KIND, META, OUTPUT, SOURCE, STATUS, TOOLS, TOOL_ARGS, TOOL_CALL_ID, TOOL_NAME, TOOL_RESULT,
    USER_ID, VALUE,
};
use super::{content_at, key, Ctx, Reader, KINDS};
use crate::diagnostic::Severity::{Error, Warning};
use crate::import::json_type;
use crate::json::{path, scan, Seg};
use crate::model::{
    Arguments, CallRef, Content, EventBody, Handoff, KeyValue, LazyValue, Marker, Message, SpanEvent, SpanPhase, ToolCall, ToolDefinition, ToolResult,
    ToolStatus, Text,
};

/// What the fast path left in the source: a message's text (`value`,
/// `output`) or a tool result's (`tool_result`) when it is a string, and a
/// tool call's `tool_args` when it is an object.
#[derive(Default)]
pub(super) struct Pieces {
    pub(super) text: Option<Text>,
    pub(super) args: Option<LazyValue>,
}

/// What `content` became.
pub(super) struct Read {
    pub(super) body: EventBody,
    /// `content.kind`, the event's source kind.
    pub(super) kind: String,
    /// For a tool result: the call event it answers.
    pub(super) link: Option<u32>,
    pub(super) failed: bool,
    /// For an `edge`: the span paths it hands over between.
    pub(super) handoff: Option<Handoff>,
}

impl Read {
    fn unparsed(why: String, kind: String) -> Read {
        Read { body: EventBody::Unparsed(why), kind, link: None, failed: false, handoff: None }
    }
}

/// Tool-call linking state within one session.
#[derive(Default)]
pub(super) struct Links {
    by_id: HashMap<String, u32>,
    /// Call events in order.
    calls: Vec<u32>,
    /// The calls that may still be unanswered, in order: answered ones are
    /// dropped from the top as a result paired by order looks for the
    /// nearest open call, so each is looked at once however the results
    /// come (a scan back through all calls per result was quadratic).
    open: Vec<u32>,
    answered: HashSet<u32>,
}

impl Links {
    /// The latest call before now that has no result yet.
    fn nearest_open(&mut self) -> Option<u32> {
        while let Some(&call) = self.open.last() {
            if !self.answered.contains(&call) {
                return Some(call);
            }
            self.open.pop();
        }
        None
    }
}

impl Reader<'_, '_> {
    /// Reads `content` (the value; `c`: its members when an object) into an
    /// event body, with its source kind and, for a tool result, the call
    /// event it answers. `pieces`: what the fast path left in the source.
    pub(super) fn content(&mut self, content: Option<&Value>, c: &ContentMembers<'_>, ctx: &Ctx, span: Option<&[String]>, links: &mut Links, pieces: Pieces) -> Read {
        match content {
            None => {
                self.missing(ctx, &[key("content")], &format!(" (an object with a `kind` of {})", KINDS.join(", ")));
                return Read::unparsed("the record has no `content`".to_string(), "unknown".to_string());
            }
            Some(Value::Object(_)) => {}
            Some(other) => {
                self.type_error(ctx, &[key("content")], "an object with a `kind`", other);
                return Read::unparsed(format!("`content` is {}", json_type(other)), "unknown".to_string());
            }
        }
        let kind = match c.get(KIND) {
            Some(Value::String(k)) if KINDS.contains(&k.as_str()) => k.clone(),
            None => {
                self.d(
                    ctx,
                    Error,
                    "content-kind-missing",
                    format!("`content` has no `kind`; expected one of {}", KINDS.join(", ")),
                    &[key("content")],
                );
                return Read::unparsed("`content` has no `kind`".to_string(), "unknown".to_string());
            }
            Some(other) => {
                let shown = other.as_str().map(str::to_string).unwrap_or_else(|| other.to_string());
                self.d(
                    ctx,
                    Error,
                    "content-kind-unknown",
                    format!("`content.kind` {other} is not one of {}", KINDS.join(", ")),
                    &[key("content")],
                );
                return Read::unparsed(format!("content of unknown kind {other}"), shown);
            }
        };
        match c.get(EXTRA) {
            None | Some(Value::Null) | Some(Value::Object(_)) => {}
            Some(other) => self.type_error(ctx, &content_at("extra"), "an object (or null)", other),
        }
        // What the body does not hold stays reachable as metadata (`record::metadata_shape`).
        let Pieces { text, args } = pieces;
        let mut link = None;
        let mut failed = false;
        let mut handoff = None;
        let body = match kind.as_str() {
            "system" | "user" | "assistant" => {
                if kind == "user" {
                    self.optional_string(c, USER_ID, ctx);
                }
                let content = match text {
                    Some(t) => Content::Text(t),
                    None => self.required_text(c, VALUE, &kind, ctx),
                };
                EventBody::Message(Message { role: kind.clone(), content, tool_calls: Vec::new() })
            }
            "chat-completion" => {
                self.optional_object(c, META, ctx);
                let content = match text {
                    Some(t) => Content::Text(t),
                    None => self.required_text(c, OUTPUT, &kind, ctx),
                };
                EventBody::Message(Message { role: "assistant".to_string(), content, tool_calls: Vec::new() })
            }
            "tool-call" => {
                let (call, call_failed) = self.tool_call(c, ctx, links, args);
                failed = call_failed;
                EventBody::ToolCall(call)
            }
            "tool-result" => {
                let (result, target) = self.tool_result(c, ctx, links, text);
                link = target;
                EventBody::ToolResult(result)
            }
            "request-header" => {
                self.optional_object(c, OUTPUT, ctx);
                self.optional_object(c, META, ctx);
                EventBody::ToolDefinitions(self.tools(c, ctx))
            }
            "begin" | "end" => EventBody::Span(SpanEvent {
                name: span.map(<[String]>::to_vec).unwrap_or_default(),
                phase: if kind == "begin" { SpanPhase::Begin } else { SpanPhase::End },
            }),
            "edge" => {
                let source = self.required_names(c, SOURCE, ctx);
                let dest = self.required_names(c, DEST, ctx);
                if c.get(SOURCE).is_some_and(Value::is_array) && c.get(DEST).is_some_and(Value::is_array) {
                    handoff = Some(Handoff { source: source.clone(), dest: dest.clone() });
                }
                EventBody::Marker(Marker { label: format!("hand-off {} → {}", source.join("/"), dest.join("/")) })
            }
            _ => EventBody::KeyValue(self.key_value(c, ctx)),
        };
        Read { body, kind, link, failed, handoff }
    }

    fn key_value(&mut self, c: &ContentMembers<'_>, ctx: &Ctx) -> KeyValue {
        let k = match c.get(KEY) {
            Some(Value::String(s)) => s.clone(),
            None => {
                self.missing(ctx, &content_at("key"), " for a `key-value` record");
                String::new()
            }
            Some(other) => {
                self.type_error(ctx, &content_at("key"), "a string", other);
                other.to_string()
            }
        };
        if c.get(VALUE).is_none() {
            self.missing(ctx, &content_at("value"), " for a `key-value` record (null is allowed)");
        }
        KeyValue { key: k, value: c.get(VALUE).cloned().unwrap_or(Value::Null).into() }
    }

    /// A required `str` shown as the message text.
    fn required_text(&mut self, c: &ContentMembers<'_>, field: usize, kind: &str, ctx: &Ctx) -> Content {
        let (value, field) = (c.get(field), content_name(field));
        match value {
            Some(Value::String(s)) => Content::Text(s.as_str().into()),
            None => {
                self.missing(ctx, &content_at(field), &format!(" for a `{kind}` record"));
                Content::None
            }
            Some(other) => {
                self.type_error(ctx, &content_at(field), "a string", other);
                Content::Json(other.clone().into())
            }
        }
    }

    fn optional_string(&mut self, c: &ContentMembers<'_>, field: usize, ctx: &Ctx) {
        let (value, field) = (c.get(field), content_name(field));
        match value {
            None | Some(Value::Null) | Some(Value::String(_)) => {}
            Some(other) => self.type_error(ctx, &content_at(field), "a string (or null)", other),
        }
    }

    fn optional_object(&mut self, c: &ContentMembers<'_>, field: usize, ctx: &Ctx) {
        let (value, field) = (c.get(field), content_name(field));
        match value {
            None | Some(Value::Null) | Some(Value::Object(_)) => {}
            Some(other) => self.type_error(ctx, &content_at(field), "an object (or null)", other),
        }
    }

    /// An edge's required `source` / `dest` span path.
    fn required_names(&mut self, c: &ContentMembers<'_>, field: usize, ctx: &Ctx) -> Vec<String> {
        let (value, field) = (c.get(field), content_name(field));
        match value {
            Some(Value::Array(items)) => self.string_list(items, ctx, &content_at(field)),
            None => {
                self.missing(ctx, &content_at(field), " for an `edge` record (the span path, root first)");
                Vec::new()
            }
            Some(other) => {
                self.type_error(ctx, &content_at(field), "a list of span names", other);
                vec![other.as_str().map(str::to_string).unwrap_or_else(|| other.to_string())]
            }
        }
    }

    /// `status` of a tool call or result: "success" (the default), "error" or null.
    fn status(&mut self, c: &ContentMembers<'_>, ctx: &Ctx) -> ToolStatus {
        match c.get(STATUS) {
            None => ToolStatus::Success,
            Some(Value::Null) => ToolStatus::Unknown,
            Some(Value::String(s)) if s == "success" => ToolStatus::Success,
            Some(Value::String(s)) if s == "error" => ToolStatus::Error,
            Some(other) => {
                self.d(
                    ctx,
                    Error,
                    "invalid-value",
                    format!("`content.status` must be \"success\" or \"error\" (or null), found {other}"),
                    &content_at("status"),
                );
                ToolStatus::Unknown
            }
        }
    }

    /// A tool call, and whether its own `status` says generating it failed.
    /// `args`: its `tool_args` object, when the fast path left it in the source.
    fn tool_call(&mut self, c: &ContentMembers<'_>, ctx: &Ctx, links: &mut Links, args: Option<LazyValue>) -> (ToolCall, bool) {
        let mut call = ToolCall { id: None, function: String::new(), arguments: Arguments::default(), result: None };
        match c.get(TOOL_NAME) {
            Some(Value::String(s)) => call.function = s.clone(),
            None => self.missing(ctx, &content_at("tool_name"), " for a `tool-call` record"),
            Some(other) => {
                self.type_error(ctx, &content_at("tool_name"), "a string", other);
                call.function = other.to_string();
            }
        }
        match c.get(TOOL_ARGS) {
            Some(v @ Value::Object(_)) => call.arguments.value = Some(args.unwrap_or_else(|| v.clone().into())),
            None => self.missing(ctx, &content_at("tool_args"), " for a `tool-call` record (an object of named arguments)"),
            Some(other) => {
                self.type_error(ctx, &content_at("tool_args"), "an object of named arguments", other);
                match other {
                    Value::String(s) => call.arguments.text = Some(s.as_str().into()),
                    v => call.arguments.value = Some(v.clone().into()),
                }
            }
        }
        match c.get(TOOL_CALL_ID) {
            Some(Value::String(s)) => call.id = Some(s.clone()),
            None => self.missing(ctx, &content_at("tool_call_id"), " for a `tool-call` record"),
            Some(other) => self.type_error(ctx, &content_at("tool_call_id"), "a string", other),
        }
        self.optional_object(c, META, ctx);
        // "error": the call could not be generated properly (e.g. arguments off-signature).
        let failed = self.status(c, ctx) == ToolStatus::Error;
        if let Some(id) = &call.id {
            if let Some(prev) = links.by_id.insert(id.clone(), ctx.index) {
                self.d(
                    ctx,
                    Warning,
                    "duplicate-tool-call-id",
                    format!("tool call id {id:?} was already used by event {prev}; results with this id link to this later call"),
                    &content_at("tool_call_id"),
                );
            }
        }
        links.calls.push(ctx.index);
        links.open.push(ctx.index);
        (call, failed)
    }

    fn tool_result(&mut self, c: &ContentMembers<'_>, ctx: &Ctx, links: &mut Links, text: Option<Text>) -> (ToolResult, Option<u32>) {
        let content = match (text, c.get(TOOL_RESULT)) {
            (Some(t), _) => Content::Text(t),
            (None, found) => match found {
                None => {
                    self.missing(ctx, &content_at("tool_result"), " for a `tool-result` record (null is allowed)");
                    Content::None
                }
                Some(Value::Null) => Content::None,
                Some(Value::String(s)) => Content::Text(s.as_str().into()),
                Some(v) => Content::Json(v.clone().into()),
            },
        };
        let status = self.status(c, ctx);
        let mut result = ToolResult { call_id: None, content, status, call: None, implicit_link: false };
        let by_id = match c.get(TOOL_CALL_ID) {
            None | Some(Value::Null) => None,
            Some(Value::String(id)) => {
                result.call_id = Some(id.clone());
                let found = links.by_id.get(id).copied();
                if found.is_none() {
                    self.d(
                        ctx,
                        Warning,
                        "unknown-tool-call-id",
                        format!("no tool call before this result in its session has id {id:?}; linked by order instead"),
                        &content_at("tool_call_id"),
                    );
                }
                found
            }
            Some(other) => {
                self.type_error(ctx, &content_at("tool_call_id"), "a string (or null)", other);
                None
            }
        };
        let target = match by_id {
            Some(call) => Some(call),
            None => {
                // As the `ToolInvocations` view: the nearest call before it that has no result yet.
                result.implicit_link = true;
                let found = links.nearest_open();
                if found.is_none() {
                    self.d(
                        ctx,
                        Warning,
                        "tool-result-without-call",
                        "no unanswered tool call comes before this result in its session".to_string(),
                        &[key("content")],
                    );
                }
                found
            }
        };
        if let Some(call) = target {
            links.answered.insert(call);
            result.call = Some(CallRef { event: call, call: 0 });
        }
        (result, target)
    }

    pub(super) fn finish_links(&mut self, links: &Links) {
        for &call in &links.calls {
            if links.answered.contains(&call) {
                continue;
            }
            let Some(e) = self.out.events().get(call as usize) else { continue };
            let name = match &e.body {
                EventBody::ToolCall(c) if !c.function.is_empty() => format!("call to `{}`", c.function),
                _ => "tool call".to_string(),
            };
            let (path, offset) = (e.path.clone(), e.raw.start);
            self.out.diag(Warning, "unanswered-tool-call", format!("{name} never gets a tool-result in its session"), path, offset, Some(call));
        }
    }

    /// `request-header` tools: each `{name, description, args_schema}`.
    fn tools(&mut self, c: &ContentMembers<'_>, ctx: &Ctx) -> Vec<ToolDefinition> {
        let items = match c.get(TOOLS) {
            None | Some(Value::Null) => return Vec::new(),
            Some(Value::Array(items)) => items,
            Some(other) => {
                self.type_error(ctx, &content_at("tools"), "a list of tools (or null)", other);
                return Vec::new();
            }
        };
        let mut tools = Vec::with_capacity(items.len());
        // Where the tools are, found once when a first one needs a
        // diagnostic (a path looked up per tool would scan the record once
        // per tool); a field is then looked up in its tool only.
        let (b, ends) = (self.b, self.ends);
        let mut starts: Option<Vec<usize>> = None;
        let mut tool_at = |i: usize| {
            let starts = starts.get_or_insert_with(|| path::item_starts(b, ctx.range.start, &content_at("tools"), ends));
            starts.get(i).copied().unwrap_or(ctx.range.start)
        };
        let at = |i: usize, field: &str| vec![key("content"), key("tools"), Seg::Index(i), key(field)];
        for (i, t) in items.iter().enumerate() {
            let Some(t) = t.as_object() else {
                let segs = [key("content"), key("tools"), Seg::Index(i)];
                self.type_error_at(ctx, &segs, "a tool object with `name`, `description` and `args_schema`", t, tool_at(i));
                continue;
            };
            let mut text = |this: &mut Self, field: &str| match t.get(field) {
                Some(Value::String(s)) => Some(s.clone()),
                None => {
                    let offset = tool_at(i);
                    this.missing_at(ctx, &at(i, field), " for a tool of a `request-header` record", offset);
                    None
                }
                Some(other) => {
                    let offset = scan::find_path(b, tool_at(i), &[key(field)]);
                    this.type_error_at(ctx, &at(i, field), "a string", other, offset);
                    None
                }
            };
            let name = text(self, "name").unwrap_or_default();
            let description = text(self, "description");
            match t.get("args_schema") {
                Some(Value::Object(_)) => {}
                None => self.missing_at(ctx, &at(i, "args_schema"), " for a tool of a `request-header` record (its JSON schema)", tool_at(i)),
                Some(other) => {
                    let offset = scan::find_path(b, tool_at(i), &[key("args_schema")]);
                    self.type_error_at(ctx, &at(i, "args_schema"), "an object (a JSON schema)", other, offset);
                }
            }
            tools.push(ToolDefinition { name, description, parameters: t.get("args_schema").cloned() });
        }
        tools
    }
}
