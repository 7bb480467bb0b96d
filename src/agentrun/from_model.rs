//! Any format's run as a Docent AgentRun, from the shared model: messages
//! keep their role (mapped onto Docent's four), tool calls become assistant
//! tool calls, tool results tool messages, a standalone call an assistant
//! message with that call, tool definitions the transcript's `tools`
//! metadata, and events with no chat meaning (spans, markers, key-values,
//! unreadable records) short `system` messages whose metadata names the
//! event kind.

use serde_json::Value;

use super::py::{get, set, Py};
use super::{docent_role, DocArgs, DocContent, DocMessage, DocPart, DocRun, DocToolCall, DocTranscript};
use crate::model::{Arguments, Content, ContentPart, Event, EventBody, SpanPhase, ToolCall, ToolStatus, Trace};
use crate::lazy_value::{LazyValue, Unparsed};
use crate::text::Text;

/// Tool-call arguments as Docent keeps them: an object's items; a JSON string
/// decoded when it holds an object; anything else as the one argument `arguments`.
pub fn args_from_value(v: Option<&Value>) -> DocArgs {
    args_from_py(v.map(Py::from_json))
}

fn args_from_py(v: Option<Py>) -> DocArgs {
    match v {
        Some(Py::Dict(items)) => items,
        Some(Py::Str(s)) => args_from_text(&s),
        None | Some(Py::None) => Vec::new(),
        Some(other) => vec![("arguments".to_string(), other)],
    }
}

/// JSON-encoded arguments (OpenAI's wire form): decoded when they hold an object.
pub fn args_from_text(text: &str) -> DocArgs {
    // Strict JSON straight into Python values; the rest as `json.loads` reads it.
    match super::py_json::parse(text.as_bytes()).map(Ok).unwrap_or_else(|| crate::json::python::loads(text).map(|v| Py::from_json(&v))) {
        Ok(Py::Dict(items)) => items,
        _ => vec![("arguments".to_string(), Py::Str(text.to_string()))],
    }
}

/// A call's arguments not read yet: read straight into Python values
/// ([`super::py_json`]) and not kept, so the AgentRun text neither parses
/// them into `serde_json` values nor leaves those in the trace; arguments
/// read before (or that only the old path reads) go through the value.
fn args_from_lazy(v: &LazyValue) -> DocArgs {
    if v.parsed().is_none() {
        let direct = match v.origin() {
            Some(Unparsed::Json(bytes)) => super::py_json::parse(bytes),
            Some(Unparsed::EncodedIn(text)) => super::py_json::parse(text.decoded().as_bytes()),
            None => None,
        };
        if direct.is_some() {
            return args_from_py(direct);
        }
    }
    args_from_value(Some(v.get()))
}

/// Any format: the model's events as Docent messages.
pub fn from_model(trace: &Trace, index: usize) -> DocRun {
    from_model_keeping(trace, index, &|_| true)
}

/// [`from_model`] with only the events `keep` accepts: a format whose
/// records repeat each other or carry telemetry leaves those out.
pub fn from_model_keeping(trace: &Trace, index: usize, keep: &dyn Fn(&crate::model::Event) -> bool) -> DocRun {
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
            for e in events.iter().filter(|e| keep(e)) {
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
        content: DocContent::Text(text.into()),
        tool_calls: Vec::new(),
        metadata: event_metadata(e, vec![("event_kind".to_string(), Py::Str(kind.to_string())), ("source_kind".to_string(), Py::Str(e.source_kind.to_string()))]),
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
            content: DocContent::Text(Text::default()),
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
            let value = kv.value.read(|v| match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            });
            info(format!("[{}] {value}", kv.key), "key-value")
        }
        EventBody::Unparsed(why) => info(format!("[unreadable record] {why}"), "unparsed"),
    };
    out.push(message);
}

fn model_call(c: &ToolCall) -> DocToolCall {
    let arguments = match &c.arguments {
        Arguments { value: Some(v), .. } => args_from_lazy(v),
        Arguments { value: None, text: Some(t) } => args_from_text(&t.decoded()),
        Arguments { value: None, text: None } => Vec::new(),
    };
    DocToolCall { id: c.id.clone(), function: c.function.clone(), arguments, view: None }
}

fn model_content(c: &Content) -> DocContent {
    match c {
        Content::None => DocContent::Text(Text::default()),
        Content::Text(t) => DocContent::Text(t.clone()),
        Content::Json(v) => DocContent::Text(Text::from(match v.get() {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })),
        Content::Parts(parts) => DocContent::Parts(
            parts
                .iter()
                .map(|p| match p {
                    ContentPart::Text(t) => DocPart::Text(t.decoded().into_owned()),
                    ContentPart::Reasoning(r) => DocPart::Reasoning { reasoning: r.decoded().into_owned(), summary: None, redacted: false },
                    ContentPart::Image { .. } | ContentPart::Other(_) => DocPart::Other,
                })
                .collect(),
        ),
    }
}

