//! Export of the normalised model as OpenAI chat messages (the `openai`
//! format, Invariant Explorer's rows): one `{id?, metadata, messages}` row
//! per run, as JSON Lines, with the file's metadata as a first
//! `{"metadata": …}` line. Reading the export again gives the same run
//! (tests/export_roundtrip.rs checks it on generated traces).
//!
//! Fields of a record the model has no place for (`name`, `refusal`, an
//! event's `metadata`, a call's `index`, …) are copied from its raw JSON, and
//! events the OpenAI shape has no place for (spans, markers, key-values of
//! other formats) and unparsed records are written as their raw JSON, so the
//! export loses no data even where it is not valid OpenAI.

use serde_json::{json, Map, Value};

use crate::model::{Content, ContentPart, Event, EventBody, ToolCall, ToolStatus, Trace};

/// The trace as JSON Lines of OpenAI rows, one per run.
pub fn to_openai_jsonl(trace: &Trace) -> String {
    let mut out = String::new();
    if !trace.metadata.is_empty() {
        // Not `json!`: its `to_value` refuses a non-finite number (`NaN`, as
        // Python's json reads it), which `to_string` writes as json.dumps does.
        let row: Map<String, Value> = [("metadata".to_string(), Value::Object(trace.metadata.clone()))].into_iter().collect();
        out.push_str(&Value::Object(row).to_string());
        out.push('\n');
    }
    for run in 0..trace.runs.len() {
        if let Some(row) = run_to_openai(trace, run) {
            out.push_str(&row.to_string());
            out.push('\n');
        }
    }
    out
}

/// One run as an OpenAI row: `{id?, metadata, messages: [...]}`. The id is
/// written when the source gave it (it is then in the run's metadata).
pub fn run_to_openai(trace: &Trace, run: usize) -> Option<Value> {
    let r = trace.runs.get(run)?;
    let mut row = Map::new();
    if r.metadata.get("id").and_then(Value::as_str) == Some(r.id.as_str()) {
        row.insert("id".to_string(), Value::String(r.id.clone()));
    }
    row.insert("metadata".to_string(), Value::Object(r.metadata.clone()));
    let messages: Vec<Value> = r
        .transcripts
        .iter()
        .flat_map(|t| t.events.start..t.events.end)
        .filter_map(|i| trace.events.get(i as usize).map(|e| event_to_openai(trace, i as usize, e)))
        .collect();
    row.insert("messages".to_string(), Value::Array(messages));
    Some(Value::Object(row))
}

fn event_to_openai(trace: &Trace, index: usize, e: &Event) -> Value {
    let source = match raw(trace, index) {
        Value::Object(o) => o,
        _ => Map::new(),
    };
    let mut o = Map::new();
    match &e.body {
        EventBody::Message(m) => {
            o.insert("role".to_string(), Value::String(m.role.clone()));
            o.insert("content".to_string(), content(&m.content));
            if !m.tool_calls.is_empty() {
                let source_calls = source.get("tool_calls").and_then(Value::as_array);
                let calls = m
                    .tool_calls
                    .iter()
                    .enumerate()
                    .map(|(i, c)| with_extras(call(c), source_calls.and_then(|s| s.get(i))))
                    .collect();
                o.insert("tool_calls".to_string(), Value::Array(calls));
            }
        }
        EventBody::ToolCall(c) => return with_extras(call(c), Some(&Value::Object(source))),
        EventBody::ToolResult(r) => {
            o.insert("role".to_string(), Value::String("tool".to_string()));
            o.insert("content".to_string(), content(&r.content));
            if let Some(id) = &r.call_id {
                o.insert("tool_call_id".to_string(), Value::String(id.clone()));
            }
            // The source's own `error` (a message, usually) when it has one.
            match (source.get("error"), r.status) {
                (Some(e), _) => o.insert("error".to_string(), e.clone()),
                (None, ToolStatus::Error) => o.insert("error".to_string(), Value::Bool(true)),
                (None, ToolStatus::Success) => o.insert("error".to_string(), Value::Bool(false)),
                (None, ToolStatus::Unknown) => None,
            };
        }
        EventBody::ToolDefinitions(tools) => {
            let source_tools = source.get("tools").and_then(Value::as_array);
            let tools = tools
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let mut d = Map::new();
                    d.insert("name".to_string(), Value::String(t.name.clone()));
                    if let Some(desc) = &t.description {
                        d.insert("description".to_string(), Value::String(desc.clone()));
                    }
                    if let Some(p) = &t.parameters {
                        d.insert("inputSchema".to_string(), p.clone());
                    }
                    with_extras(Value::Object(d), source_tools.and_then(|s| s.get(i)))
                })
                .collect();
            o.insert("tools".to_string(), Value::Array(tools));
        }
        EventBody::Span(_) | EventBody::Marker(_) | EventBody::KeyValue(_) | EventBody::Unparsed(_) => return raw(trace, index),
    }
    if let Some(ts) = &e.timestamp {
        o.insert("timestamp".to_string(), Value::String(ts.clone()));
    }
    with_extras(Value::Object(o), Some(&Value::Object(source)))
}

/// `exported` with the keys of `source` it does not have: fields the model
/// does not carry, and values it could not read (a `tool_call_id` that is
/// not a string is no call id to the model, but stays one in the export).
fn with_extras(mut exported: Value, source: Option<&Value>) -> Value {
    if let (Value::Object(o), Some(Value::Object(src))) = (&mut exported, source) {
        for (k, v) in src {
            if !o.contains_key(k) {
                o.insert(k.clone(), v.clone());
            }
        }
        // The function object's own extras.
        if let (Some(Value::Object(f)), Some(Value::Object(sf))) = (o.get_mut("function"), src.get("function")) {
            for (k, v) in sf {
                if k != "name" && k != "arguments" && !f.contains_key(k) {
                    f.insert(k.clone(), v.clone());
                }
            }
        }
    }
    exported
}

/// The event's source text as JSON, or as a string when it is not JSON.
fn raw(trace: &Trace, index: usize) -> Value {
    let bytes = trace.raw_json(index).unwrap_or(&[]);
    serde_json::from_slice(bytes).unwrap_or_else(|_| Value::String(String::from_utf8_lossy(bytes).into_owned()))
}

fn content(c: &Content) -> Value {
    match c {
        Content::None => Value::Null,
        Content::Text(t) => Value::String(t.to_string()),
        Content::Json(v) => v.get().clone(),
        Content::Parts(parts) => Value::Array(
            parts
                .iter()
                .map(|p| match p {
                    ContentPart::Text(t) => json!({ "type": "text", "text": t }),
                    ContentPart::Reasoning(t) => json!({ "type": "reasoning", "reasoning": t }),
                    ContentPart::Image { url } => json!({ "type": "image_url", "image_url": { "url": url } }),
                    ContentPart::Other(v) => v.clone(),
                })
                .collect(),
        ),
    }
}

fn call(c: &ToolCall) -> Value {
    let mut o = Map::new();
    if let Some(id) = &c.id {
        o.insert("id".to_string(), Value::String(id.clone()));
    }
    o.insert("type".to_string(), Value::String("function".to_string()));
    let mut function = Map::new();
    function.insert("name".to_string(), Value::String(c.function.clone()));
    // The original text when there was one: it may not be JSON, or not an object.
    match (&c.arguments.text, &c.arguments.value) {
        (Some(t), _) => function.insert("arguments".to_string(), Value::String(t.to_string())),
        (None, Some(v)) => function.insert("arguments".to_string(), v.get().clone()),
        (None, None) => None,
    };
    o.insert("function".to_string(), Value::Object(function));
    Value::Object(o)
}
