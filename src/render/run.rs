//! A trace's run as a Docent AgentRun: what both renderers read.
//!
//! `docent` traces are read back from the run's own JSON (every field Docent
//! renders — message metadata, tool-call views, reasoning summaries,
//! transcript groups, `created_at` — is there). Every other format maps the
//! shared model's events onto Docent messages (docs/agentrun-text.md):
//! messages keep their role (mapped onto Docent's four), tool calls become
//! assistant tool calls, tool results tool messages, a standalone call an
//! assistant message with that call, tool definitions the transcript's
//! `tools` metadata, and events with no chat meaning (spans, markers,
//! key-values, unreadable records) short `system` messages whose metadata
//! names the event kind.

use serde_json::Value;

use super::py::{get, py_str, set, Py};
use crate::json::scan;
use crate::model::{Arguments, Content, ContentPart, Event, EventBody, SpanPhase, ToolCall, ToolStatus, Trace};

#[derive(Debug, Clone)]
pub struct DocRun {
    pub id: String,
    pub name: Option<String>,
    pub description: Option<String>,
    /// The run's `metadata` as the JSON holds it.
    pub metadata: Vec<(String, Py)>,
    pub transcripts: Vec<DocTranscript>,
    pub groups: Vec<DocGroup>,
}

#[derive(Debug, Clone)]
pub struct DocTranscript {
    /// The older generation's dict key (`<transcript KEY>`); the id otherwise.
    pub key: String,
    pub id: String,
    pub name: Option<String>,
    pub group_id: Option<String>,
    pub created_at: Option<Py>,
    pub metadata: Vec<(String, Py)>,
    pub messages: Vec<DocMessage>,
}

#[derive(Debug, Clone)]
pub struct DocGroup {
    pub id: String,
    pub name: Option<String>,
    pub parent_id: Option<String>,
    pub created_at: Option<Py>,
    pub metadata: Vec<(String, Py)>,
}

#[derive(Debug, Clone)]
pub struct DocMessage {
    /// One of `system`, `user`, `assistant`, `tool`.
    pub role: &'static str,
    pub content: DocContent,
    pub tool_calls: Vec<DocToolCall>,
    pub metadata: Option<Py>,
    /// Fields Docent keeps but never renders (`tool_call_id`, `function`, `error`), for the JSON export.
    pub fields: Vec<(String, Py)>,
}

#[derive(Debug, Clone)]
pub enum DocContent {
    Text(String),
    Parts(Vec<DocPart>),
}

#[derive(Debug, Clone)]
pub enum DocPart {
    Text(String),
    Reasoning { reasoning: String, summary: Option<String>, redacted: bool },
    /// A part Docent has no content type for (images, …): not rendered.
    Other,
}

#[derive(Debug, Clone)]
pub struct DocToolCall {
    pub id: Option<String>,
    pub function: String,
    pub arguments: DocArgs,
    /// `view.content`, rendered instead of the arguments.
    pub view: Option<String>,
}

/// Keyword arguments in order. Docent requires an object; anything else is
/// kept as the one argument `arguments` (so `f(arguments=…)`), in the text and
/// in the JSON export alike.
pub type DocArgs = Vec<(String, Py)>;

impl DocMessage {
    /// `message.text`: the string content, or the text parts joined by newlines.
    pub fn text(&self) -> String {
        match &self.content {
            DocContent::Text(t) => t.clone(),
            DocContent::Parts(parts) => parts
                .iter()
                .filter_map(|p| match p {
                    DocPart::Text(t) => Some(t.as_str()),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }
}

/// Docent's roles; other roles of other formats map onto them.
pub fn docent_role(role: &str) -> &'static str {
    match role {
        "system" | "developer" => "system",
        "assistant" | "ai" | "model" | "bot" => "assistant",
        "tool" | "function" | "ipython" | "tool_result" => "tool",
        _ => "user",
    }
}

/// The run at `index` of the trace as a Docent AgentRun.
pub fn doc_run(trace: &Trace, index: usize) -> Option<DocRun> {
    let run = trace.runs.get(index)?;
    if trace.format == "docent" {
        if let Some(doc) = run.offset.and_then(|start| docent_source(trace, start, index)) {
            return Some(doc);
        }
    }
    Some(from_model(trace, index))
}

/// A Docent run read back from its JSON in the source.
fn docent_source(trace: &Trace, start: usize, index: usize) -> Option<DocRun> {
    let end = scan::scan_value(&trace.source, start).ok()?;
    let value: Value = serde_json::from_slice(trace.source.get(start..end)?).ok()?;
    let o = value.as_object()?;
    let transcripts: Vec<(Option<String>, &Value)> = match o.get("transcripts")? {
        Value::Object(m) => m.iter().map(|(k, v)| (Some(k.clone()), v)).collect(),
        Value::Array(items) => items.iter().map(|v| (None, v)).collect(),
        _ => return None,
    };
    let transcripts = transcripts
        .into_iter()
        .enumerate()
        .map(|(i, (key, t))| docent_transcript(t, key, index, i))
        .collect();
    let groups = match o.get("transcript_groups") {
        Some(Value::Array(items)) => items.iter().enumerate().map(|(i, g)| docent_group(g, index, i)).collect(),
        Some(Value::Object(m)) => m.values().enumerate().map(|(i, g)| docent_group(g, index, i)).collect(),
        _ => Vec::new(),
    };
    Some(DocRun {
        id: str_field(&value, "id").unwrap_or_else(|| placeholder_id(index, 0, 0)),
        name: str_field(&value, "name"),
        description: str_field(&value, "description"),
        metadata: dict_field(&value, "metadata"),
        transcripts,
        groups,
    })
}

fn str_field(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_string)
}

fn dict_field(v: &Value, key: &str) -> Vec<(String, Py)> {
    match v.get(key).map(Py::from_json) {
        Some(Py::Dict(items)) => items,
        _ => Vec::new(),
    }
}

/// Docent gives an object without `id` a random uuid4; ids are never printed,
/// but a transcript without a name is matched by its id, so it needs one.
fn placeholder_id(run: usize, kind: usize, i: usize) -> String {
    format!("{:08x}-0000-4000-8{:03x}-{:012x}", run, kind, i)
}

fn docent_transcript(t: &Value, key: Option<String>, run: usize, i: usize) -> DocTranscript {
    let id = str_field(t, "id").unwrap_or_else(|| placeholder_id(run, 1, i));
    let messages = match t.get("messages") {
        Some(Value::Array(items)) => items.iter().filter_map(docent_message).collect(),
        _ => Vec::new(),
    };
    DocTranscript {
        key: key.unwrap_or_else(|| id.clone()),
        name: str_field(t, "name"),
        group_id: str_field(t, "transcript_group_id"),
        created_at: t.get("created_at").filter(|v| !v.is_null()).map(Py::from_json),
        metadata: dict_field(t, "metadata"),
        messages,
        id,
    }
}

fn docent_group(g: &Value, run: usize, i: usize) -> DocGroup {
    DocGroup {
        id: str_field(g, "id").unwrap_or_else(|| placeholder_id(run, 2, i)),
        name: str_field(g, "name"),
        parent_id: str_field(g, "parent_transcript_group_id"),
        created_at: g.get("created_at").filter(|v| !v.is_null()).map(Py::from_json),
        metadata: dict_field(g, "metadata"),
    }
}

fn docent_message(m: &Value) -> Option<DocMessage> {
    let role = docent_role(m.get("role").and_then(Value::as_str)?);
    let content = match m.get("content") {
        Some(Value::String(s)) => DocContent::Text(s.clone()),
        Some(Value::Array(parts)) => DocContent::Parts(parts.iter().map(docent_part).collect()),
        _ => DocContent::Text(String::new()),
    };
    let tool_calls = match (role, m.get("tool_calls")) {
        ("assistant", Some(Value::Array(calls))) => calls.iter().map(docent_call).collect(),
        _ => Vec::new(),
    };
    let metadata = match m.get("metadata").map(Py::from_json) {
        Some(d @ Py::Dict(_)) => Some(d),
        _ => None,
    };
    Some(DocMessage { role, content, tool_calls, metadata, fields: Vec::new() })
}

fn docent_part(p: &Value) -> DocPart {
    let text = |k: &str| p.get(k).and_then(Value::as_str).map(str::to_string);
    match p.get("type").and_then(Value::as_str) {
        Some("text") => DocPart::Text(text("text").unwrap_or_default()),
        Some("reasoning") => DocPart::Reasoning {
            reasoning: text("reasoning").unwrap_or_default(),
            summary: text("summary"),
            redacted: p.get("redacted").is_some_and(|r| crate::import::pydantic_lax::boolean(r) == Ok(true)),
        },
        _ => DocPart::Other,
    }
}

fn docent_call(c: &Value) -> DocToolCall {
    let function = match c.get("function") {
        Some(Value::String(f)) => f.clone(),
        Some(other) => other.get("name").and_then(Value::as_str).map(str::to_string).unwrap_or_else(|| py_str(&Py::from_json(other))),
        None => String::new(),
    };
    DocToolCall {
        id: str_field(c, "id"),
        function,
        arguments: args_from_value(c.get("arguments")),
        view: c.get("view").and_then(|v| v.get("content")).and_then(Value::as_str).map(str::to_string),
    }
}

fn args_from_value(v: Option<&Value>) -> DocArgs {
    match v.map(Py::from_json) {
        Some(Py::Dict(items)) => items,
        Some(Py::Str(s)) => args_from_text(&s),
        None | Some(Py::None) => Vec::new(),
        Some(other) => vec![("arguments".to_string(), other)],
    }
}

/// JSON-encoded arguments (OpenAI's wire form): decoded when they hold an object.
fn args_from_text(text: &str) -> DocArgs {
    match crate::json::python::loads(text).map(|v| Py::from_json(&v)) {
        Ok(Py::Dict(items)) => items,
        _ => vec![("arguments".to_string(), Py::Str(text.to_string()))],
    }
}

/// Any format: the model's events as Docent messages.
pub fn from_model(trace: &Trace, index: usize) -> DocRun {
    let Some(run) = trace.runs.get(index) else {
        return DocRun { id: String::new(), name: None, description: None, metadata: Vec::new(), transcripts: Vec::new(), groups: Vec::new() };
    };
    let transcripts = run
        .transcripts
        .iter()
        .map(|t| {
            let mut metadata = dict_of(&t.metadata);
            let events = trace.events.get(t.events.start as usize..t.events.end as usize).unwrap_or_default();
            let mut messages = Vec::new();
            for e in events {
                map_event(trace, e, &mut messages, &mut metadata);
            }
            DocTranscript {
                key: t.key.clone(),
                id: t.key.clone(),
                name: Some(t.key.clone()),
                group_id: None,
                created_at: None,
                metadata,
                messages,
            }
        })
        .collect();
    DocRun {
        id: run.id.clone(),
        name: run.name.clone(),
        description: run.description.clone(),
        metadata: dict_of(&run.metadata),
        transcripts,
        groups: Vec::new(),
    }
}

fn dict_of(m: &serde_json::Map<String, Value>) -> Vec<(String, Py)> {
    m.iter().map(|(k, v)| (k.clone(), Py::from_json(v))).collect()
}

/// Message metadata for a mapped event: what Docent has no field for.
fn event_metadata(e: &Event, extra: Vec<(String, Py)>) -> Option<Py> {
    let mut md = extra;
    if let Some(ts) = &e.timestamp {
        md.push(("timestamp".to_string(), Py::Str(ts.clone())));
    }
    (!md.is_empty()).then_some(Py::Dict(md))
}

fn map_event(trace: &Trace, e: &Event, out: &mut Vec<DocMessage>, transcript_md: &mut Vec<(String, Py)>) {
    let info = |text: String, kind: &str| DocMessage {
        role: "system",
        content: DocContent::Text(text),
        tool_calls: Vec::new(),
        metadata: event_metadata(e, vec![("event_kind".to_string(), Py::Str(kind.to_string())), ("source_kind".to_string(), Py::Str(e.source_kind.clone()))]),
        fields: Vec::new(),
    };
    let message = match &e.body {
        EventBody::Message(m) => {
            let role = docent_role(&m.role);
            let tool_calls = if role == "assistant" { m.tool_calls.iter().map(model_call).collect() } else { Vec::new() };
            DocMessage { role, content: model_content(&m.content), tool_calls, metadata: event_metadata(e, Vec::new()), fields: Vec::new() }
        }
        EventBody::ToolCall(c) => DocMessage {
            role: "assistant",
            content: DocContent::Text(String::new()),
            tool_calls: vec![model_call(c)],
            metadata: event_metadata(e, Vec::new()),
            fields: Vec::new(),
        },
        EventBody::ToolResult(r) => {
            // As Docent's ToolMessage fields: kept, never rendered.
            let call = r.call.and_then(|c| trace.call(c));
            let mut fields = Vec::new();
            if let Some(id) = r.call_id.clone().or_else(|| call.and_then(|c| c.id.clone())) {
                fields.push(("tool_call_id".to_string(), Py::Str(id)));
            }
            if let Some(function) = call.map(|c| c.function.clone()) {
                fields.push(("function".to_string(), Py::Str(function)));
            }
            if r.status == ToolStatus::Error {
                fields.push(("error".to_string(), Py::Dict(vec![("message".to_string(), Py::Str(r.content.text()))])));
            }
            DocMessage { role: "tool", content: model_content(&r.content), tool_calls: Vec::new(), metadata: event_metadata(e, Vec::new()), fields }
        }
        EventBody::ToolDefinitions(defs) => {
            let mut tools = match get(transcript_md, "tools") {
                Some(Py::List(items)) => items.clone(),
                _ => Vec::new(),
            };
            for d in defs {
                let mut t = vec![("name".to_string(), Py::Str(d.name.clone()))];
                if let Some(desc) = &d.description {
                    t.push(("description".to_string(), Py::Str(desc.clone())));
                }
                if let Some(p) = &d.parameters {
                    t.push(("parameters".to_string(), Py::from_json(p)));
                }
                tools.push(Py::Dict(t));
            }
            set(transcript_md, "tools", Py::List(tools));
            return;
        }
        EventBody::Span(s) => {
            let phase = match s.phase {
                SpanPhase::Begin => "span start",
                SpanPhase::End => "span end",
            };
            info(format!("[{phase}] {}", s.name.join(" > ")), "span")
        }
        EventBody::Marker(m) => info(format!("[marker] {}", m.label), "marker"),
        EventBody::KeyValue(kv) => {
            let value = match &kv.value {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            info(format!("[{}] {value}", kv.key), "key-value")
        }
        EventBody::Unparsed(why) => info(format!("[unreadable record] {why}"), "unparsed"),
    };
    out.push(message);
}

fn model_call(c: &ToolCall) -> DocToolCall {
    let arguments = match &c.arguments {
        Arguments { value: Some(v), .. } => args_from_value(Some(v.get())),
        Arguments { value: None, text: Some(t) } => args_from_text(&t.decoded()),
        Arguments { value: None, text: None } => Vec::new(),
    };
    DocToolCall { id: c.id.clone(), function: c.function.clone(), arguments, view: None }
}

fn model_content(c: &Content) -> DocContent {
    match c {
        Content::None => DocContent::Text(String::new()),
        Content::Text(t) => DocContent::Text(t.to_string()),
        Content::Json(v) => DocContent::Text(match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        }),
        Content::Parts(parts) => DocContent::Parts(
            parts
                .iter()
                .map(|p| match p {
                    ContentPart::Text(t) => DocPart::Text(t.to_string()),
                    ContentPart::Reasoning(r) => DocPart::Reasoning { reasoning: r.to_string(), summary: None, redacted: false },
                    ContentPart::Image { .. } | ContentPart::Other(_) => DocPart::Other,
                })
                .collect(),
        ),
    }
}

/// The run as Docent AgentRun JSON of the current generation (docent 0.1.88's
/// `AgentRun.model_validate` reads it; so does the `docent` format).
pub fn to_docent_json(run: &DocRun) -> Value {
    let mut o = serde_json::Map::new();
    o.insert("id".to_string(), Value::String(run.id.clone()));
    o.insert("name".to_string(), opt_str(&run.name));
    o.insert("description".to_string(), opt_str(&run.description));
    let transcripts = run.transcripts.iter().map(transcript_json).collect();
    o.insert("transcripts".to_string(), Value::Array(transcripts));
    let groups = run.groups.iter().map(group_json).collect();
    o.insert("transcript_groups".to_string(), Value::Array(groups));
    o.insert("metadata".to_string(), json_of(&Py::Dict(run.metadata.clone())));
    Value::Object(o)
}

fn opt_str(s: &Option<String>) -> Value {
    s.as_ref().map(|s| Value::String(s.clone())).unwrap_or(Value::Null)
}

fn transcript_json(t: &DocTranscript) -> Value {
    let mut o = serde_json::Map::new();
    o.insert("id".to_string(), Value::String(t.id.clone()));
    o.insert("name".to_string(), opt_str(&t.name));
    o.insert("transcript_group_id".to_string(), opt_str(&t.group_id));
    o.insert("created_at".to_string(), t.created_at.as_ref().map(json_of).unwrap_or(Value::Null));
    o.insert("messages".to_string(), Value::Array(t.messages.iter().map(message_json).collect()));
    o.insert("metadata".to_string(), json_of(&Py::Dict(t.metadata.clone())));
    Value::Object(o)
}

fn group_json(g: &DocGroup) -> Value {
    let mut o = serde_json::Map::new();
    o.insert("id".to_string(), Value::String(g.id.clone()));
    o.insert("name".to_string(), opt_str(&g.name));
    o.insert("parent_transcript_group_id".to_string(), opt_str(&g.parent_id));
    o.insert("created_at".to_string(), g.created_at.as_ref().map(json_of).unwrap_or(Value::Null));
    o.insert("metadata".to_string(), json_of(&Py::Dict(g.metadata.clone())));
    Value::Object(o)
}

fn message_json(m: &DocMessage) -> Value {
    let mut o = serde_json::Map::new();
    o.insert("role".to_string(), Value::String(m.role.to_string()));
    let content = match &m.content {
        DocContent::Text(t) => Value::String(t.clone()),
        DocContent::Parts(parts) => Value::Array(
            parts
                .iter()
                .filter_map(|p| match p {
                    DocPart::Text(t) => Some(serde_json::json!({"type": "text", "text": t})),
                    DocPart::Reasoning { reasoning, summary, redacted } => {
                        let mut r = serde_json::json!({"type": "reasoning", "reasoning": reasoning, "redacted": redacted});
                        if let (Some(s), Some(obj)) = (summary, r.as_object_mut()) {
                            obj.insert("summary".to_string(), Value::String(s.clone()));
                        }
                        Some(r)
                    }
                    DocPart::Other => None,
                })
                .collect(),
        ),
    };
    o.insert("content".to_string(), content);
    if m.role == "assistant" && !m.tool_calls.is_empty() {
        let calls = m
            .tool_calls
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let mut call = serde_json::Map::new();
                call.insert("id".to_string(), Value::String(c.id.clone().unwrap_or_else(|| format!("call-{i}"))));
                call.insert("function".to_string(), Value::String(c.function.clone()));
                call.insert("arguments".to_string(), json_of(&Py::Dict(c.arguments.clone())));
                call.insert("type".to_string(), Value::String("function".to_string()));
                if let Some(view) = &c.view {
                    call.insert("view".to_string(), serde_json::json!({"format": "text", "content": view}));
                }
                Value::Object(call)
            })
            .collect();
        o.insert("tool_calls".to_string(), Value::Array(calls));
    }
    for (k, v) in &m.fields {
        o.insert(k.clone(), json_of(v));
    }
    if let Some(md) = &m.metadata {
        o.insert("metadata".to_string(), json_of(md));
    }
    Value::Object(o)
}

/// A Python value as JSON; `inf` as `1e999` (Python's json reads it back as inf), NaN as null.
fn json_of(v: &Py) -> Value {
    match v {
        Py::None => Value::Null,
        Py::Bool(b) => Value::Bool(*b),
        Py::Int(i) => serde_json::from_str::<serde_json::Number>(i).map(Value::Number).unwrap_or(Value::Null),
        Py::Float(f) if f.is_nan() => Value::Null,
        Py::Float(f) => {
            let text = if f.is_infinite() { if *f > 0.0 { "1e999".to_string() } else { "-1e999".to_string() } } else { super::py::float_repr(*f) };
            serde_json::from_str::<serde_json::Number>(&text).map(Value::Number).unwrap_or(Value::Null)
        }
        Py::Str(s) => Value::String(s.clone()),
        Py::List(items) => Value::Array(items.iter().map(json_of).collect()),
        Py::Dict(items) => Value::Object(items.iter().map(|(k, v)| (k.clone(), json_of(v))).collect()),
    }
}
