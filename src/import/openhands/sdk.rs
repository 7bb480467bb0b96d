//! SDK events (`kind`-tagged) onto the shared model, one event per record.

use std::collections::HashMap;
use std::ops::Range;

use serde_json::{json, Map, Value};

mod fast;

use super::validate::validate_event;
use super::{str_field, Reader};
use crate::diagnostic::Severity::Error;
use crate::json::Seg;
use crate::model::{
    Arguments, CallRef, Content, ContentPart, EventBody, KeyValue, LazyValue, Marker, Message, Text, ToolCall, ToolResult, ToolStatus,
};

/// Linking state of one run.
#[derive(Default)]
pub(super) struct Run {
    by_call_id: HashMap<String, CallRef>,
    /// Event id → the call it made (ActionEvent), for `action_id` links.
    by_event_id: HashMap<String, Option<CallRef>>,
    /// Every call, with where it sits, to warn about unanswered ones.
    calls: Vec<(CallRef, Range<usize>, String)>,
    /// The `llm_response_id` of the previous record when it was an ActionEvent.
    batch: Option<String>,
    records: usize,
    /// Warnings about links, held back: a run of one record (a single event
    /// file) has nothing to link to, and saying so would only be noise.
    link_warnings: Vec<LinkWarning>,
    /// The fast path's objects, read by the validator, then by the mapping.
    cache: super::validate::MemberCache,
}

struct LinkWarning {
    code: &'static str,
    message: String,
    range: Range<usize>,
    path: String,
    index: u32,
}

impl Run {
    pub(super) fn event(&mut self, rd: &mut Reader, v: &Value, r: Range<usize>, path: &str) {
        let index = rd.out.next_event();
        self.records += 1;
        let issues = validate_event(v);
        for issue in &issues {
            rd.out.diag_in(Error, issue.code, issue.message.clone(), &r, path, &issue.path, Some(index));
        }
        let Value::Object(o) = v else {
            let why = format!("an OpenHands event must be an object, not {}", super::json_type(v));
            rd.out.push_event(EventBody::Unparsed(why), "unparsed", r, path.to_string(), None);
            self.batch = None;
            return;
        };
        let kind = str_field(o, "kind").unwrap_or_default().to_string();
        if let Some(id) = str_field(o, "id") {
            if self.by_event_id.contains_key(id) {
                rd.warn_at("duplicate-event-id", format!("event id {id:?} was already used by an earlier event"), &r, path, &[Seg::key("id")], index);
            }
            self.by_event_id.insert(id.to_string(), None);
        }
        let ctx = Ctx { range: r.clone(), path: path.to_string(), index };
        let body = self.body(rd, &kind, o, &ctx);
        self.batch = if kind == "ActionEvent" { Some(str_field(o, "llm_response_id").unwrap_or_default().to_string()) } else { None };
        let timestamp = str_field(o, "timestamp").map(str::to_string);
        let source_kind = if kind.is_empty() { "(no kind)" } else { kind.as_str() };
        rd.out.push_event(body, source_kind, r, path.to_string(), timestamp);
    }

    fn body(&mut self, rd: &mut Reader, kind: &str, o: &Map<String, Value>, ctx: &Ctx) -> EventBody {
        match kind {
            "MessageEvent" => self.message(o, ctx),
            "ActionEvent" => self.action(rd, o, ctx),
            "ObservationEvent" => {
                let obs = o.get("observation");
                let content = match obs.and_then(|x| x.get("content")) {
                    Some(Value::Array(items)) => Content::Parts(items.iter().map(part).collect()),
                    _ => obs.cloned().map(|v| Content::Json(v.into())).unwrap_or(Content::None),
                };
                let failed = obs.and_then(|x| x.get("is_error")).is_some_and(|e| e == &Value::Bool(true));
                let status = if failed { ToolStatus::Error } else { ToolStatus::Success };
                self.result(rd, o, ctx, content, status)
            }
            "AgentErrorEvent" => {
                let text = str_field(o, "error").unwrap_or_default().to_string();
                self.result(rd, o, ctx, Content::Text(text.into()), ToolStatus::Error)
            }
            "UserRejectObservation" => {
                let reason = str_field(o, "rejection_reason").unwrap_or("User rejected the action");
                self.result(rd, o, ctx, Content::Text(format!("Action rejected: {reason}").into()), ToolStatus::Error)
            }
            "SystemPromptEvent" => system_prompt(rd, o),
            "Condensation" => {
                let forgotten = o.get("forgotten_event_ids").and_then(Value::as_array).map(Vec::len).unwrap_or(0);
                let value = json!({
                    "forgotten_events": forgotten,
                    "summary": o.get("summary").cloned().unwrap_or(Value::Null),
                    "summary_offset": o.get("summary_offset").cloned().unwrap_or(Value::Null),
                });
                EventBody::KeyValue(KeyValue { key: "condensation".to_string(), value: value.into() })
            }
            "CondensationRequest" => marker("condensation requested"),
            "CondensationSummaryEvent" => EventBody::KeyValue(KeyValue {
                key: "condensation summary".to_string(),
                value: o.get("summary").cloned().unwrap_or(Value::Null).into(),
            }),
            "ConversationStateUpdateEvent" => EventBody::KeyValue(KeyValue {
                key: format!("state: {}", str_field(o, "key").unwrap_or("?")),
                value: o.get("value").cloned().unwrap_or(Value::Null).into(),
            }),
            "LLMCompletionLogEvent" => EventBody::KeyValue(KeyValue {
                key: "llm completion log".to_string(),
                value: pick(o, &["filename", "model_name", "usage_id"]).into(),
            }),
            "TokenEvent" => {
                let n = |k: &str| o.get(k).and_then(Value::as_array).map(Vec::len).unwrap_or(0);
                EventBody::KeyValue(KeyValue {
                    key: "token ids".to_string(),
                    value: json!({"prompt_tokens": n("prompt_token_ids"), "response_tokens": n("response_token_ids")}).into(),
                })
            }
            "PauseEvent" => marker("paused"),
            "InterruptEvent" => marker("interrupted"),
            "ConversationErrorEvent" => marker(&format!(
                "conversation error {}: {}",
                str_field(o, "code").unwrap_or("?"),
                str_field(o, "detail").unwrap_or_default()
            )),
            "HookExecutionEvent" => {
                let status = if o.get("blocked") == Some(&Value::Bool(true)) {
                    "blocked"
                } else if o.get("success") == Some(&Value::Bool(true)) {
                    "success"
                } else {
                    "failed"
                };
                let tool = str_field(o, "tool_name").map(|t| format!(" ({t})")).unwrap_or_default();
                marker(&format!("hook {}{tool}: {status}", str_field(o, "hook_event_type").unwrap_or("?")))
            }
            "SecurityAnalysisEvent" => EventBody::KeyValue(KeyValue {
                key: "security analysis".to_string(),
                value: pick(o, &["analyzer", "policy", "risks"]).into(),
            }),
            "StreamingDeltaEvent" => EventBody::KeyValue(KeyValue {
                key: "streaming delta".to_string(),
                value: pick(o, &["content", "reasoning_content"]).into(),
            }),
            "ACPToolCallEvent" => {
                let call = ToolCall {
                    id: str_field(o, "tool_call_id").map(str::to_string),
                    function: str_field(o, "title").unwrap_or_default().to_string(),
                    arguments: Arguments { value: o.get("raw_input").cloned().map(LazyValue::from), text: None },
                    result: None,
                };
                EventBody::ToolCall(call)
            }
            "" => marker("event without a kind"),
            other => marker(other),
        }
    }

    fn message(&mut self, o: &Map<String, Value>, ctx: &Ctx) -> EventBody {
        let lm = o.get("llm_message").and_then(Value::as_object);
        let role = lm.and_then(|m| str_field(m, "role")).unwrap_or_default().to_string();
        let mut parts = Vec::new();
        if let Some(m) = lm {
            reasoning_parts(m, &mut parts);
            match m.get("content") {
                Some(Value::String(s)) => parts.push(ContentPart::Text(s.as_str().into())),
                Some(Value::Array(items)) => parts.extend(items.iter().map(part)),
                _ => {}
            }
        }
        if let Some(Value::Array(items)) = o.get("extended_content") {
            parts.extend(items.iter().map(part));
        }
        let mut tool_calls = Vec::new();
        if let Some(Value::Array(calls)) = lm.and_then(|m| m.get("tool_calls")) {
            for (j, c) in calls.iter().enumerate() {
                let call = message_tool_call(c);
                self.register(&call, ctx, j, &format!("{}.llm_message.tool_calls[{j}]", ctx.path));
                tool_calls.push(call);
            }
        }
        EventBody::Message(Message { role, content: content_of(parts), tool_calls })
    }

    fn action(&mut self, rd: &mut Reader, o: &Map<String, Value>, ctx: &Ctx) -> EventBody {
        let mut parts = Vec::new();
        reasoning_parts(o, &mut parts);
        let thought = o.get("thought").and_then(Value::as_array);
        if let Some(items) = thought {
            parts.extend(items.iter().map(part).filter(|p| !matches!(p, ContentPart::Text(t) if t.is_empty())));
        }
        let tc = o.get("tool_call").and_then(Value::as_object);
        let call_id = str_field(o, "tool_call_id").or_else(|| tc.and_then(|t| str_field(t, "id"))).map(str::to_string);
        let function = str_field(o, "tool_name").or_else(|| tc.and_then(|t| str_field(t, "name"))).unwrap_or_default().to_string();
        let action_args = o.get("action").and_then(Value::as_object).map(|a| {
            let mut a = a.clone();
            a.remove("kind");
            Value::Object(a)
        });
        let mut arguments = Arguments { value: action_args.clone().map(LazyValue::from), text: None };
        if let Some(text) = tc.and_then(|t| str_field(t, "arguments")) {
            arguments.text = Some(text.into());
            match crate::json::build::from_str(text) {
                Ok(v) => arguments.value = Some(v.into()),
                Err(e) => rd.warn_at(
                    "arguments-not-json",
                    format!("`tool_call.arguments` is not valid JSON ({}); showing the parsed `action` instead", super::super::describe_serde_error(&e)),
                    &ctx.range,
                    &ctx.path,
                    &[Seg::key("tool_call"), Seg::key("arguments")],
                    ctx.index,
                ),
            }
        }
        if let (Some(a), Some(b)) = (str_field(o, "tool_call_id"), tc.and_then(|t| str_field(t, "id"))) {
            if a != b {
                rd.warn_at(
                    "tool-call-id-mismatch",
                    format!("`tool_call_id` is {a:?} but `tool_call.id` is {b:?}; observations link by `tool_call_id`"),
                    &ctx.range,
                    &ctx.path,
                    &[Seg::key("tool_call"), Seg::key("id")],
                    ctx.index,
                );
            }
        }
        let response = str_field(o, "llm_response_id").unwrap_or_default();
        if self.batch.as_deref() == Some(response) && thought.is_some_and(|t| !t.is_empty()) {
            rd.warn_at(
                "batch-thought",
                "this action shares its `llm_response_id` with the action before it but has its own `thought`; the SDK expects the thought only on the batch's first action and its events_to_messages() fails here".to_string(),
                &ctx.range,
                &ctx.path,
                &[Seg::key("thought")],
                ctx.index,
            );
        }
        let call = ToolCall { id: call_id, function, arguments, result: None };
        self.register(&call, ctx, 0, &ctx.path);
        if let Some(id) = str_field(o, "id") {
            self.by_event_id.insert(id.to_string(), Some(CallRef { event: ctx.index, call: 0 }));
        }
        EventBody::Message(Message { role: "assistant".to_string(), content: content_of(parts), tool_calls: vec![call] })
    }

    fn register(&mut self, call: &ToolCall, ctx: &Ctx, j: usize, path: &str) {
        let cref = CallRef { event: ctx.index, call: crate::source::clamp_u32(j) };
        if let Some(id) = &call.id {
            self.by_call_id.insert(id.clone(), cref);
        }
        self.calls.push((cref, ctx.range.clone(), path.to_string()));
    }

    /// An observation-like event, linked to its action by `tool_call_id`, else `action_id`.
    fn result(&mut self, rd: &mut Reader, o: &Map<String, Value>, ctx: &Ctx, content: Content, status: ToolStatus) -> EventBody {
        let call_id = str_field(o, "tool_call_id").map(str::to_string);
        self.linked_result(rd, call_id, str_field(o, "action_id"), ctx, content, status)
    }

    /// [`Run::result`] given the event's `tool_call_id` and `action_id`.
    fn linked_result(&mut self, rd: &mut Reader, call_id: Option<String>, action_id: Option<&str>, ctx: &Ctx, content: Content, status: ToolStatus) -> EventBody {
        let by_call = call_id.as_ref().and_then(|id| self.by_call_id.get(id).copied());
        let by_action = action_id.and_then(|id| self.by_event_id.get(id).copied().flatten());
        let target = by_call.or(by_action);
        match target {
            Some(cref) => {
                if !rd.out.link_result(cref, ctx.index) {
                    self.link_warning(
                        "duplicate-observation",
                        format!("the call {:?} already has an observation; the SDK's view keeps only the first", call_id.as_deref().unwrap_or("?")),
                        ctx,
                    );
                }
            }
            None => self.link_warning(
                "unknown-tool-call-id",
                format!(
                    "no earlier ActionEvent has tool_call_id {:?} (or id {:?}); the SDK's view drops observations without their action",
                    call_id.as_deref().unwrap_or("?"),
                    action_id.unwrap_or("?")
                ),
                ctx,
            ),
        }
        EventBody::ToolResult(ToolResult { call_id, content, status, call: target, implicit_link: by_call.is_none() && by_action.is_some() })
    }

    fn link_warning(&mut self, code: &'static str, message: String, ctx: &Ctx) {
        self.link_warnings.push(LinkWarning { code, message, range: ctx.range.clone(), path: ctx.path.clone(), index: ctx.index });
    }

    pub(super) fn finish(self, rd: &mut Reader) {
        if self.records <= 1 {
            return;
        }
        for w in self.link_warnings {
            rd.warn_at(w.code, w.message, &w.range, &w.path, &[Seg::key("tool_call_id")], w.index);
        }
        for (cref, range, path) in self.calls {
            let answered = rd.out.call(cref).is_none_or(|c| c.result.is_some());
            if answered {
                continue;
            }
            let name = rd.out.call(cref).map(|c| c.function.clone()).unwrap_or_default();
            rd.out.diag(
                crate::diagnostic::Severity::Warning,
                "unanswered-tool-call",
                format!("the call to `{name}` gets no observation; the SDK's view drops unanswered actions before calling the LLM"),
                path,
                scan_start(rd, &range),
                Some(cref.event),
            );
        }
    }
}

fn scan_start(rd: &Reader, r: &Range<usize>) -> usize {
    crate::json::scan::skip_ws(rd.b, r.start)
}

struct Ctx {
    range: Range<usize>,
    path: String,
    index: u32,
}

fn marker(label: &str) -> EventBody {
    EventBody::Marker(Marker { label: label.to_string() })
}

fn pick(o: &Map<String, Value>, keys: &[&str]) -> Value {
    let mut m = Map::new();
    for k in keys {
        if let Some(v) = o.get(*k) {
            m.insert((*k).to_string(), v.clone());
        }
    }
    Value::Object(m)
}

fn content_of(parts: Vec<ContentPart>) -> Content {
    if parts.is_empty() {
        Content::None
    } else {
        Content::Parts(parts)
    }
}

/// A TextContent / ImageContent item.
fn part(v: &Value) -> ContentPart {
    match (v.get("type").and_then(Value::as_str), v.get("text").and_then(Value::as_str)) {
        (Some("text") | None, Some(t)) => ContentPart::Text(t.into()),
        _ => match v.get("image_urls").and_then(Value::as_array) {
            Some(urls) if urls.len() == 1 => ContentPart::Image { url: urls.first().and_then(Value::as_str).unwrap_or_default().into() },
            _ => ContentPart::Other(v.clone()),
        },
    }
}

/// `reasoning_content`, `thinking_blocks` and a Responses reasoning item, as reasoning parts.
fn reasoning_parts(o: &Map<String, Value>, parts: &mut Vec<ContentPart>) {
    if let Some(r) = str_field(o, "reasoning_content").filter(|r| !r.is_empty()) {
        parts.push(ContentPart::Reasoning(r.into()));
    }
    if let Some(Value::Array(blocks)) = o.get("thinking_blocks") {
        for b in blocks {
            match b.get("thinking").and_then(Value::as_str) {
                Some(t) => parts.push(ContentPart::Reasoning(t.into())),
                None => parts.push(ContentPart::Other(b.clone())),
            }
        }
    }
    if let Some(item) = o.get("responses_reasoning_item").and_then(Value::as_object) {
        for key in ["summary", "content"] {
            for s in item.get(key).and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
                parts.push(ContentPart::Reasoning(s.into()));
            }
        }
    }
}

fn message_tool_call(c: &Value) -> ToolCall {
    let text = c.get("arguments").and_then(Value::as_str).map(str::to_string);
    let value: Option<Value> = text.as_deref().and_then(|t| crate::json::build::from_str(t).ok());
    ToolCall {
        id: c.get("id").and_then(Value::as_str).map(str::to_string),
        function: c.get("name").and_then(Value::as_str).unwrap_or_default().to_string(),
        arguments: Arguments { value: value.map(LazyValue::from), text: text.map(Text::from) },
        result: None,
    }
}

/// The system prompt as a system message; its tools go to run metadata
/// (`tools`), the first prompt's only, where the UI lists them.
fn system_prompt(rd: &mut Reader, o: &Map<String, Value>) -> EventBody {
    let mut parts = Vec::new();
    for key in ["system_prompt", "dynamic_context"] {
        if let Some(t) = o.get(key).and_then(|p| p.get("text")).and_then(Value::as_str) {
            parts.push(ContentPart::Text(t.into()));
        }
    }
    let tools: Vec<Value> = o
        .get("tools")
        .and_then(Value::as_array)
        .map(|list| list.iter().map(tool_summary).collect())
        .unwrap_or_default();
    if let Some(run) = rd.out.last_run_mut() {
        run.metadata.entry("tools".to_string()).or_insert(Value::Array(tools));
    }
    EventBody::Message(Message { role: "system".to_string(), content: content_of(parts), tool_calls: Vec::new() })
}

/// A dumped ToolDefinition: `{name, description, kind, action_type, observation_type}`.
/// The dump has no `name` (it is a class attribute); `title` or the kind stands in.
fn tool_summary(t: &Value) -> Value {
    let kind = t.get("kind").and_then(Value::as_str).unwrap_or_default();
    let name = t
        .get("title")
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| tool_name_from_kind(kind));
    let mut m = Map::new();
    m.insert("name".to_string(), Value::String(name));
    for key in ["description", "kind", "action_type", "observation_type"] {
        if let Some(v) = t.get(key) {
            m.insert(key.to_string(), v.clone());
        }
    }
    Value::Object(m)
}

/// `TerminalTool` → `terminal`, as the SDK names tools from their class.
pub(super) fn tool_name_from_kind(kind: &str) -> String {
    let mut out = String::new();
    for (i, c) in kind.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out.strip_suffix("_tool").map(str::to_string).unwrap_or(out)
}
