//! A [`DocRun`] as Docent AgentRun JSON of the current generation.

use serde_json::Value;

use super::py::{float_repr, Py};
use super::{DocContent, DocGroup, DocMessage, DocPart, DocRun, DocTranscript};

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
        DocContent::Text(t) => Value::String(t.decoded().into_owned()),
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
            let text = if f.is_infinite() { if *f > 0.0 { "1e999".to_string() } else { "-1e999".to_string() } } else { float_repr(*f) };
            serde_json::from_str::<serde_json::Number>(&text).map(Value::Number).unwrap_or(Value::Null)
        }
        Py::Str(s) => Value::String(s.clone()),
        Py::List(items) => Value::Array(items.iter().map(json_of).collect()),
        Py::Dict(items) => Value::Object(items.iter().map(|(k, v)| (k.clone(), json_of(v))).collect()),
    }
}
