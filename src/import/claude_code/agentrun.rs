//! A run as Docent 0.1.88's `load_claude_code_session` maps it
//! (docent/loaders/load_claude_code.py), from the records' raw JSON.
//!
//! The main run is the loader applied to every record of its file, as Docent
//! would be given the session file: sidechain records are left out and
//! counted (`sidechain_turns_omitted`). The loader does not materialise
//! sub-agents; a sub-agent run is the same mapping applied to its own
//! records, read as a main conversation.

use serde_json::Value;

use crate::agentrun::py::Py;
use crate::agentrun::{args_from_value, DocContent, DocMessage, DocPart, DocRun, DocToolCall};
use crate::model::{EventBody, Trace};

/// The run's records as parsed JSON, in source order.
fn run_records(trace: &Trace, run: usize, main: bool) -> Vec<Value> {
    let first = trace.events.iter().find(|e| e.run as usize == run);
    let file = first.and_then(|e| trace.file_at(e.raw.start)).map(|f| f.range.clone());
    let mut events: Vec<&crate::model::Event> = trace
        .events
        .iter()
        .filter(|e| !matches!(e.body, EventBody::Unparsed(_)))
        // A sub-agent's metadata file is none of Docent's records: its loader reads session lines.
        .filter(|e| e.source_kind != super::meta::KIND)
        .filter(|e| match (&file, main) {
            // The main run: every record of its file, sidechains included (the loader counts them).
            (Some(f), true) => f.contains(&e.raw.start),
            (None, true) => true,
            _ => e.run as usize == run,
        })
        .collect();
    crate::sort::by_key(&mut events, |e| e.raw.start);
    events.iter().filter_map(|e| serde_json::from_slice(trace.source.get(e.raw.clone())?).ok()).collect()
}

pub fn agent_run(trace: &Trace, run: usize) -> Option<DocRun> {
    let r = trace.runs.get(run)?;
    let main = !r.id.starts_with("agent-") && !r.id.starts_with("sidechain-");
    let mut records = run_records(trace, run, main);
    if !main {
        // A sub-agent read as a conversation of its own.
        for rec in &mut records {
            if let Some(o) = rec.as_object_mut() {
                o.remove("isSidechain");
            }
        }
    }
    let (messages, metadata) = load(&records);
    Some(DocRun::with_one_transcript(r.id.clone(), metadata, messages))
}

const RUN_METADATA_KEYS: &[&str] = &["sessionId", "cwd", "gitBranch", "version", "slug", "entrypoint"];

fn truthy(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|x| x != 0.0),
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(o)) => !o.is_empty(),
    }
}

/// `None` → `""`, a string as itself, anything else as Python's `str` would not
/// be reached (pydantic refuses it); shown as JSON.
fn text_of(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

struct Pending {
    content: Vec<DocPart>,
    tool_calls: Vec<DocToolCall>,
    model: Option<Value>,
}

/// The loader's messages and run metadata.
fn load(records: &[Value]) -> (Vec<DocMessage>, Vec<(String, Py)>) {
    let main: Vec<&Value> = records.iter().filter(|r| !truthy(r.get("isSidechain"))).collect();
    let sidechain_turns = records.len() - main.len();
    let mut messages: Vec<DocMessage> = Vec::new();
    let mut fn_by_id: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    let mut pending: Option<Pending> = None;
    for rec in &main {
        let message = rec.get("message").filter(|m| m.is_object());
        let content = message.and_then(|m| m.get("content"));
        match rec.get("type").and_then(Value::as_str) {
            Some("assistant") => {
                let p = pending.get_or_insert_with(|| Pending { content: Vec::new(), tool_calls: Vec::new(), model: message.and_then(|m| m.get("model")).cloned() });
                assistant_blocks(content, &mut fn_by_id, p);
            }
            Some("user") => {
                flush(&mut messages, &mut pending);
                if let Some(Value::String(s)) = content {
                    append_user_text(&mut messages, s);
                    continue;
                }
                let mut texts = Vec::new();
                for block in content.and_then(Value::as_array).into_iter().flatten().filter(|b| b.is_object()) {
                    match block.get("type").and_then(Value::as_str) {
                        Some("tool_result") => {
                            let id = text_of(block.get("tool_use_id"));
                            let mut fields = vec![("tool_call_id".to_string(), Py::Str(id.clone()))];
                            fields.push(("function".to_string(), Py::Str(fn_by_id.get(&id).cloned().unwrap_or_default())));
                            if truthy(block.get("is_error")) {
                                fields.push(("error".to_string(), Py::Dict(vec![("message".to_string(), Py::Str("tool reported an error".to_string()))])));
                            }
                            messages.push(DocMessage { role: "tool", content: DocContent::Text(tool_result_text(block).into()), tool_calls: Vec::new(), metadata: None, fields });
                        }
                        Some("text") => texts.push(text_of(block.get("text"))),
                        _ => {}
                    }
                }
                append_user_text(&mut messages, &texts.join("\n"));
            }
            // Not turns, and they do not split an assistant turn.
            _ => {}
        }
    }
    flush(&mut messages, &mut pending);
    let mut metadata = Vec::new();
    if let Some(first) = main.first() {
        for k in RUN_METADATA_KEYS {
            if let Some(v) = first.get(*k).filter(|v| !v.is_null()) {
                metadata.push((k.to_string(), Py::from_json(v)));
            }
        }
    }
    let title = records.iter().rfind(|r| r.get("type").and_then(Value::as_str) == Some("custom-title"));
    if let Some(t) = title {
        metadata.push(("title".to_string(), t.get("customTitle").map(Py::from_json).unwrap_or(Py::None)));
    }
    if sidechain_turns > 0 {
        metadata.push(("sidechain_turns_omitted".to_string(), Py::Int(sidechain_turns.to_string())));
    }
    (messages, metadata)
}

fn flush(messages: &mut Vec<DocMessage>, pending: &mut Option<Pending>) {
    let Some(p) = pending.take() else { return };
    let mut fields = Vec::new();
    if let Some(model) = p.model {
        fields.push(("model".to_string(), Py::from_json(&model)));
    }
    messages.push(DocMessage { role: "assistant", content: DocContent::Parts(p.content), tool_calls: p.tool_calls, metadata: None, fields });
}

fn assistant_blocks(raw: Option<&Value>, fn_by_id: &mut std::collections::HashMap<String, String>, p: &mut Pending) {
    if let Some(Value::String(s)) = raw {
        if !s.is_empty() {
            p.content.push(DocPart::Text(s.clone()));
        }
        return;
    }
    for block in raw.and_then(Value::as_array).into_iter().flatten().filter(|b| b.is_object()) {
        match block.get("type").and_then(Value::as_str) {
            Some("text") => p.content.push(DocPart::Text(text_of(block.get("text")))),
            Some("thinking") => p.content.push(DocPart::Reasoning { reasoning: text_of(block.get("thinking")), summary: None, redacted: false }),
            Some("redacted_thinking") => p.content.push(DocPart::Reasoning { reasoning: String::new(), summary: None, redacted: true }),
            Some("tool_use") => {
                let id = text_of(block.get("id"));
                let function = text_of(block.get("name"));
                fn_by_id.insert(id.clone(), function.clone());
                let input = block.get("input").filter(|v| truthy(Some(v)));
                let arguments = args_from_value(Some(input.unwrap_or(&Value::Object(serde_json::Map::new()))));
                p.tool_calls.push(DocToolCall { id: Some(id), function, arguments, view: None });
            }
            _ => {}
        }
    }
}

/// Folds user text into an adjacent user turn, as the loader does.
fn append_user_text(messages: &mut Vec<DocMessage>, text: &str) {
    if text.is_empty() {
        return;
    }
    if let Some(DocMessage { role: "user", content: DocContent::Text(prev), .. }) = messages.last_mut() {
        let mut joined = prev.decoded().into_owned();
        joined.push('\n');
        joined.push_str(text);
        *prev = joined.into();
        return;
    }
    messages.push(DocMessage { role: "user", content: DocContent::Text(text.into()), tool_calls: Vec::new(), metadata: None, fields: Vec::new() });
}

fn tool_result_text(block: &Value) -> String {
    match block.get("content") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(items)) => items
            .iter()
            .filter(|b| b.is_object())
            .filter_map(|b| match b.get("type").and_then(Value::as_str) {
                Some("text") => Some(text_of(b.get("text"))),
                Some("image") => Some("[image]".to_string()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}
