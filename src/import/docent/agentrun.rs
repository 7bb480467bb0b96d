//! A `docent` run as Docent reads it: straight from the run's own JSON, since
//! every field Docent renders (message metadata, tool-call views, reasoning
//! summaries, transcript groups, `created_at`) is there.

use serde_json::Value;

use crate::agentrun::py::{py_str, Py};
use crate::agentrun::{args_from_value, docent_role, DocContent, DocGroup, DocMessage, DocPart, DocRun, DocToolCall, DocTranscript};
use crate::json::scan;
use crate::model::Trace;

/// A Docent run read back from its JSON in the source.
pub fn docent_source(trace: &Trace, start: usize, index: usize) -> Option<DocRun> {
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
        Some(Value::String(s)) => DocContent::Text(s.as_str().into()),
        Some(Value::Array(parts)) => DocContent::Parts(parts.iter().map(docent_part).collect()),
        _ => DocContent::Text(Default::default()),
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

