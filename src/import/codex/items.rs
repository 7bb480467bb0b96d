//! `response_item` lines: the `ResponseItem` enum of codex-rs/protocol
//! `models.rs` — `message`, `reasoning`, `function_call`,
//! `function_call_output`, `custom_tool_call`, `custom_tool_call_output`,
//! `local_shell_call`, `web_search_call`, `ghost_snapshot`,
//! `compaction` / `compaction_summary`, and any other type (`Other`).

use serde_json::{Map, Value};

use super::reader::{Line, MirrorKey, Reader};
use crate::diagnostic::Severity::{Error, Warning};
use crate::import::{json_type, CallSite};
use crate::json::Seg;
use crate::model::{Arguments, CallRef, Content, ContentPart, EventBody, KeyValue, Message, Text, ToolCall, ToolResult, ToolStatus};

/// Item types read as something else than a key-value event.
const READ: &[&str] = &[
    "message",
    "reasoning",
    "function_call",
    "function_call_output",
    "custom_tool_call",
    "custom_tool_call_output",
    "local_shell_call",
    "web_search_call",
];
/// Item types Codex writes that are kept as key-value events as they are.
const KEPT: &[&str] = &["ghost_snapshot", "compaction", "compaction_summary", "other"];

fn key(k: &str) -> Seg {
    Seg::key(k)
}

fn text_of(v: &Value) -> Option<&str> {
    v.get("text").and_then(Value::as_str)
}

/// The texts an `event_msg` may repeat of this item: a user message's
/// `input_text`s, an assistant message's `output_text`s (each, and joined),
/// a reasoning item's summary and content texts.
pub fn mirror_keys(payload: &Map<String, Value>) -> Vec<MirrorKey> {
    let list = |k: &str| payload.get(k).and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
    let mut keys = Vec::new();
    match payload.get("type").and_then(Value::as_str) {
        Some("message") => {
            let who = match payload.get("role").and_then(Value::as_str) {
                Some("user") => "user",
                Some("assistant") => "assistant",
                _ => return keys,
            };
            let texts: Vec<&str> = list("content").iter().filter_map(text_of).collect();
            if texts.len() > 1 {
                keys.push((who, texts.join("\n")));
            }
            keys.extend(texts.into_iter().map(|t| (who, t.to_string())));
        }
        Some("reasoning") => {
            for part in list("summary").iter().chain(list("content")) {
                if let Some(t) = text_of(part) {
                    keys.push(("reasoning", t.to_string()));
                }
            }
        }
        _ => {}
    }
    keys
}

/// Message content items (`input_text`, `output_text`, `input_image`; the
/// older `text`) as parts; any other item is kept whole.
pub fn parts(items: &[Value]) -> Vec<ContentPart> {
    items
        .iter()
        .map(|item| match (item.get("type").and_then(Value::as_str), text_of(item), item.get("image_url").and_then(Value::as_str)) {
            (Some("input_text" | "output_text" | "text"), Some(t), _) => ContentPart::Text(t.into()),
            (Some("input_image"), _, Some(url)) => ContentPart::Image { url: url.into() },
            _ => ContentPart::Other(item.clone()),
        })
        .collect()
}

impl<'r, 'a> Reader<'r, 'a> {
    pub fn response_item(&mut self, line: &Line, payload: Map<String, Value>) {
        let kind = match payload.get("type") {
            Some(Value::String(t)) => t.clone(),
            other => {
                let why = match other {
                    None => "response item has no `type`".to_string(),
                    Some(v) => format!("response item `type` must be a string, found {}", json_type(v)),
                };
                self.d(line, Error, "item-type-missing", why, &[key("payload")]);
                self.push(line, EventBody::KeyValue(KeyValue { key: "response_item".to_string(), value: Value::Object(payload).into() }), "response_item");
                return;
            }
        };
        match kind.as_str() {
            "message" => self.message(line, &payload),
            "reasoning" => self.reasoning(line, &payload),
            "function_call" | "custom_tool_call" | "local_shell_call" | "web_search_call" => self.call(line, &kind, &payload),
            "function_call_output" | "custom_tool_call_output" => self.output(line, &kind, &payload),
            _ => {
                if !KEPT.contains(&kind.as_str()) {
                    let why = format!("unknown response item type `{kind}` (read: {}); kept as a key-value event", READ.join(", "));
                    self.d(line, Warning, "unknown-item-type", why, &[key("payload"), key("type")]);
                }
                self.push(line, EventBody::KeyValue(KeyValue { key: kind.clone(), value: Value::Object(payload).into() }), &kind);
            }
        }
    }

    fn message(&mut self, line: &Line, p: &Map<String, Value>) {
        let role = match p.get("role") {
            Some(Value::String(r)) => r.clone(),
            other => {
                let why = match other {
                    None => "message has no `role`".to_string(),
                    Some(v) => format!("message `role` must be a string, found {}", json_type(v)),
                };
                self.d(line, Error, "field-type", why, &[key("payload"), key("role")]);
                String::new()
            }
        };
        let content = match p.get("content") {
            Some(Value::Array(items)) => Content::Parts(parts(items)),
            None => Content::None,
            Some(other) => {
                let why = format!("message `content` must be a list of content items, found {}", json_type(other));
                self.d(line, Error, "field-type", why, &[key("payload"), key("content")]);
                match other {
                    Value::String(s) => Content::Text(s.as_str().into()),
                    v => Content::Json(v.clone().into()),
                }
            }
        };
        self.push(line, EventBody::Message(Message { role, content, tool_calls: Vec::new() }), "message");
    }

    /// Reasoning: summary and raw content as reasoning parts (shown
    /// collapsed); encrypted content is only counted.
    fn reasoning(&mut self, line: &Line, p: &Map<String, Value>) {
        let list = |k: &str| p.get(k).and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
        let mut out: Vec<ContentPart> = Vec::new();
        for part in list("summary").iter().chain(list("content")) {
            match text_of(part) {
                Some(t) => out.push(ContentPart::Reasoning(t.into())),
                None => out.push(ContentPart::Other(part.clone())),
            }
        }
        let encrypted = p.get("encrypted_content").and_then(Value::as_str).map(str::len);
        if out.is_empty() {
            if let Some(n) = encrypted {
                out.push(ContentPart::Reasoning(format!("(encrypted reasoning, {n} bytes)").into()));
            }
        }
        let i = self.push(line, EventBody::Message(Message { role: "assistant".to_string(), content: Content::Parts(out), tool_calls: Vec::new() }), "reasoning");
        if let (Some(n), Some(e)) = (encrypted, self.out.event_mut(i)) {
            e.metadata.insert("encrypted_content_bytes".to_string(), Value::from(n));
        }
    }

    /// A call: `function_call` (arguments a JSON string), `custom_tool_call`
    /// (free-form `input`), `local_shell_call` (an `action`), and
    /// `web_search_call` (answered inline: no output follows).
    fn call(&mut self, line: &Line, kind: &str, p: &Map<String, Value>) {
        let str_field = |k: &str| p.get(k).and_then(Value::as_str).map(str::to_string);
        let mut arguments = Arguments::default();
        let (function, id) = match kind {
            "function_call" => {
                match p.get("arguments") {
                    Some(Value::String(s)) => {
                        arguments.text = Some(s.as_str().into());
                        match crate::json::build::from_str(s) {
                            Ok(v) => arguments.value = Some(v.into()),
                            Err(e) => {
                                let why = format!("`arguments` is a string that is not valid JSON ({e})");
                                self.d(line, Warning, "arguments-not-json", why, &[key("payload"), key("arguments")]);
                            }
                        }
                    }
                    None => {}
                    Some(other) => {
                        let why = format!("`arguments` must be a JSON string, found {}", json_type(other));
                        self.d(line, Error, "field-type", why, &[key("payload"), key("arguments")]);
                        arguments.value = Some(other.clone().into());
                    }
                }
                (str_field("name").unwrap_or_default(), str_field("call_id"))
            }
            "custom_tool_call" => {
                arguments.text = p.get("input").and_then(Value::as_str).map(Into::into);
                (str_field("name").unwrap_or_default(), str_field("call_id"))
            }
            "local_shell_call" => {
                arguments.value = p.get("action").cloned().map(Into::into);
                ("local_shell".to_string(), str_field("call_id").or_else(|| str_field("id")))
            }
            _ => {
                arguments.value = p.get("action").cloned().map(Into::into);
                ("web_search".to_string(), str_field("id"))
            }
        };
        self.place_call(line, kind, function, id, arguments);
    }

    /// Places a call (read by either path) and waits for its output.
    pub fn place_call(&mut self, line: &Line, kind: &str, function: String, id: Option<String>, arguments: Arguments) {
        if function.is_empty() && kind != "local_shell_call" {
            self.d(line, Error, "field-missing", format!("`{kind}` has no `name`"), &[key("payload"), key("name")]);
        }
        let answered_later = kind != "web_search_call";
        if answered_later && id.is_none() {
            self.d(line, Warning, "call-id-missing", format!("`{kind}` has no `call_id`: no output can be linked to it"), &[key("payload")]);
        }
        let call = ToolCall { id: id.clone(), function, arguments, result: None };
        let i = self.push(line, EventBody::ToolCall(call), kind);
        let at = CallRef { event: i, call: 0 };
        if let (true, Some(id)) = (answered_later, id) {
            self.session.calls.insert(id, at);
            self.session.sites.push(CallSite { call: at, segs: Vec::new() });
        }
    }

    /// A call's output, linked to the call with its `call_id`.
    fn output(&mut self, line: &Line, kind: &str, p: &Map<String, Value>) {
        let call_id = p.get("call_id").and_then(Value::as_str).map(str::to_string);
        self.place_output(line, kind, call_id, output_content(p.get("output")));
    }

    /// Places a call's output (read by either path) and links it.
    pub fn place_output(&mut self, line: &Line, kind: &str, call_id: Option<String>, read: (Content, ToolStatus, Option<ShellOutcome>)) {
        let (content, status, shell) = read;
        // The call looked up before the id moves into the result (a copy
        // of every output's id, else); the rare warnings read it back.
        let found = call_id.as_ref().map(|id| self.session.calls.get(id).copied());
        let result = ToolResult { call_id, content, status, call: None, implicit_link: false };
        let i = self.push(line, EventBody::ToolResult(result), kind);
        if let (Some(shell), Some(e)) = (shell, self.out.event_mut(i)) {
            e.metadata.insert("exit_code".to_string(), Value::from(shell.exit_code));
            if let Some(secs) = shell.seconds {
                e.facts_mut().duration_ms = Some(secs * 1000.0);
            }
        }
        let Some(found) = found else {
            self.d(line, Warning, "call-id-missing", format!("`{kind}` has no `call_id`: it answers no call"), &[key("payload")]);
            return;
        };
        match found {
            Some(call) if self.out.link_result(call, i) => {
                if let Some(EventBody::ToolResult(r)) = self.out.event_mut(i).map(|e| &mut e.body) {
                    r.call = Some(call);
                }
            }
            Some(_) => {
                let id = self.output_call_id(i);
                let why = format!("a second output for call `{id}` (the call keeps its first)");
                self.d(line, Warning, "duplicate-tool-result", why, &[key("payload"), key("call_id")]);
            }
            None => {
                let id = self.output_call_id(i);
                let why = format!("no call in this session has `call_id` `{id}`");
                self.d(line, Warning, "unknown-tool-call-id", why, &[key("payload"), key("call_id")]);
            }
        }
    }
}

impl Reader<'_, '_> {
    /// The `call_id` of the output event `i` placed.
    fn output_call_id(&mut self, i: u32) -> String {
        match self.out.event_mut(i).map(|e| &e.body) {
            Some(EventBody::ToolResult(r)) => r.call_id.clone().unwrap_or_default(),
            _ => String::new(),
        }
    }
}

/// What a shell tool's output says of the command besides its text.
pub struct ShellOutcome {
    pub(super) exit_code: i64,
    pub(super) seconds: Option<f64>,
}

/// A string output: a shell tool's JSON `{output, metadata: {exit_code,
/// duration_seconds}}` gives its `output` and outcome; any other string is
/// the text itself (`text`: the string as the caller keeps it).
pub fn string_output(s: &str, text: impl FnOnce() -> Text) -> (Content, ToolStatus, Option<ShellOutcome>) {
    let shell = crate::json::build::from_str(s).ok().and_then(|mut j| {
        let meta = j.get("metadata");
        let code = meta.and_then(|m| m.get("exit_code")).and_then(Value::as_i64);
        let seconds = meta.and_then(|m| m.get("duration_seconds")).and_then(Value::as_f64).filter(|s| s.is_finite());
        // Taken out of the parsed value rather than copied.
        let output = match j.as_object_mut()?.remove("output")? {
            Value::String(o) => o,
            _ => return None,
        };
        Some((output, code, seconds))
    });
    match shell {
        Some((output, Some(exit_code), seconds)) => {
            let status = if exit_code == 0 { ToolStatus::Success } else { ToolStatus::Error };
            (Content::Text(output.into()), status, Some(ShellOutcome { exit_code, seconds }))
        }
        _ => (Content::Text(text()), ToolStatus::Unknown, None),
    }
}

/// An output (`FunctionCallOutputPayload`): a string — itself often JSON
/// `{output, metadata: {exit_code, duration_seconds}}` from the shell tools
/// —, a list of content items, or `{content, success}`. Returns the
/// content, the status and the shell's outcome when it gives one.
fn output_content(v: Option<&Value>) -> (Content, ToolStatus, Option<ShellOutcome>) {
    match v {
        None | Some(Value::Null) => (Content::None, ToolStatus::Unknown, None),
        Some(Value::String(s)) => string_output(s, || s.as_str().into()),
        Some(Value::Array(items)) => (Content::Parts(parts(items)), ToolStatus::Unknown, None),
        Some(Value::Object(o)) => {
            let status = match o.get("success").and_then(Value::as_bool) {
                Some(true) => ToolStatus::Success,
                Some(false) => ToolStatus::Error,
                None => ToolStatus::Unknown,
            };
            match o.get("content") {
                Some(Value::String(s)) => (Content::Text(s.as_str().into()), status, None),
                Some(Value::Array(items)) => (Content::Parts(parts(items)), status, None),
                _ => (Content::Json(Value::Object(o.clone()).into()), status, None),
            }
        }
        Some(other) => (Content::Json(other.clone().into()), ToolStatus::Unknown, None),
    }
}
