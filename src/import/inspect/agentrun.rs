//! A run as Docent 0.1.88's `load_inspect_log` maps it
//! (docent/loaders/load_inspect.py), given `read_eval_log`'s samples: one
//! transcript of the sample's `messages` (as `model_dump()` gives them,
//! attachments not resolved, as `read_eval_log` leaves them by default),
//! and the run metadata `task_id`, `sample_id`, `epoch_id`, `model`,
//! `additional_metadata`, `scores` (normalized as the loader does) and
//! `scoring_metadata`. A message with a content part Docent has no type for
//! (an image, audio, video, …) makes the loader raise: then `None`, and the
//! shared model's mapping stands in.

use serde_json::Value;

use crate::agentrun::py::Py;
use crate::agentrun::{args_from_value, DocContent, DocMessage, DocPart, DocRun, DocToolCall};
use crate::model::Trace;

pub fn agent_run(trace: &Trace, run: usize) -> Option<DocRun> {
    let r = trace.runs.get(run)?;
    let mut messages = Vec::new();
    if let Some(t) = r.transcripts.iter().find(|t| t.key == "messages") {
        for e in trace.events.get(t.events.start as usize..t.events.end as usize)? {
            let v: Value = serde_json::from_slice(trace.source.get(e.raw.clone())?).ok()?;
            messages.push(message(&v)?);
        }
    }
    let m = &r.metadata;
    let eval = trace.metadata.get("eval");
    let py = |v: Option<&Value>| v.map(Py::from_json).unwrap_or(Py::None);
    let sample_id = match m.get("id") {
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
        None => "None".to_string(),
    };
    let scores = match m.get("scores") {
        Some(Value::Object(s)) => Py::Dict(s.iter().map(|(k, v)| (k.clone(), normalize_score(v))).collect()),
        _ => Py::Dict(Vec::new()),
    };
    let metadata = vec![
        ("task_id".to_string(), py(eval.and_then(|e| e.get("task")))),
        ("sample_id".to_string(), Py::Str(sample_id)),
        ("epoch_id".to_string(), py(m.get("epoch"))),
        ("model".to_string(), py(eval.and_then(|e| e.get("model")))),
        ("additional_metadata".to_string(), m.get("metadata").map(Py::from_json).unwrap_or(Py::Dict(Vec::new()))),
        ("scores".to_string(), scores),
        ("scoring_metadata".to_string(), py(m.get("scores"))),
    ];
    Some(DocRun::with_one_transcript(r.id.clone(), metadata, messages))
}

fn text_of(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        _ => String::new(),
    }
}

/// One ChatMessage as `parse_chat_message(m.model_dump())` reads it; `None`
/// where that raises.
fn message(v: &Value) -> Option<DocMessage> {
    let role: &'static str = match v.get("role").and_then(Value::as_str)? {
        "system" => "system",
        "user" => "user",
        "assistant" => "assistant",
        "tool" => "tool",
        _ => return None,
    };
    let content = match v.get("content") {
        Some(Value::String(s)) => DocContent::Text(s.as_str().into()),
        Some(Value::Array(parts)) => DocContent::Parts(parts.iter().map(part).collect::<Option<Vec<_>>>()?),
        _ => return None,
    };
    let mut tool_calls = Vec::new();
    if role == "assistant" {
        for c in v.get("tool_calls").and_then(Value::as_array).into_iter().flatten() {
            tool_calls.push(DocToolCall {
                id: c.get("id").and_then(Value::as_str).map(str::to_string),
                function: text_of(c.get("function")),
                arguments: args_from_value(c.get("arguments")),
                view: c.get("view").and_then(|view| view.get("content")).and_then(Value::as_str).map(str::to_string),
            });
        }
    }
    let mut fields = Vec::new();
    let keep: &[&str] = match role {
        "assistant" => &["model"],
        "tool" => &["tool_call_id", "function", "error"],
        "user" => &["tool_call_id"],
        _ => &[],
    };
    for k in keep {
        if let Some(x) = v.get(*k).filter(|x| !x.is_null()) {
            fields.push((k.to_string(), Py::from_json(x)));
        }
    }
    let metadata = v.get("metadata").filter(|m| m.is_object()).map(Py::from_json);
    Some(DocMessage { role, content, tool_calls, metadata, fields })
}

fn part(p: &Value) -> Option<DocPart> {
    match p.get("type").and_then(Value::as_str)? {
        "text" => Some(DocPart::Text(text_of(p.get("text")))),
        "reasoning" => Some(DocPart::Reasoning {
            reasoning: text_of(p.get("reasoning")),
            summary: p.get("summary").and_then(Value::as_str).map(str::to_string),
            redacted: p.get("redacted").and_then(Value::as_bool).unwrap_or(false),
        }),
        // Docent's content union is text and reasoning only.
        _ => None,
    }
}

/// `_normalize_inspect_score`: the score's value, a leaf, list or dict of
/// leaves normalized as `value_to_float` does.
fn normalize_score(score: &Value) -> Py {
    match score.get("value") {
        Some(Value::Array(items)) => Py::List(items.iter().map(leaf).collect()),
        Some(Value::Object(m)) => Py::Dict(m.iter().map(|(k, v)| (k.clone(), leaf(v))).collect()),
        Some(v) => leaf(v),
        None => Py::None,
    }
}

fn leaf(v: &Value) -> Py {
    match v {
        Value::Null => Py::None,
        Value::Bool(b) => Py::Float(if *b { 1.0 } else { 0.0 }),
        Value::Number(n) => Py::Float(n.as_f64().unwrap_or(0.0)),
        Value::String(s) => match s.as_str() {
            "C" => Py::Float(1.0),
            "P" => Py::Float(0.5),
            "I" | "N" => Py::Int("0".to_string()),
            _ => {
                let lower = s.to_lowercase();
                match lower.as_str() {
                    "yes" | "true" => Py::Float(1.0),
                    "no" | "false" => Py::Float(0.0),
                    _ if is_numeric(&lower.replace('.', "")) => lower.parse::<f64>().map(Py::Float).unwrap_or(Py::Str(lower)),
                    _ => Py::Str(lower),
                }
            }
        },
        other => Py::from_json(other),
    }
}

/// Python's `str.isnumeric()` for the ASCII digits a score holds (other
/// numeric characters are taken as not numeric).
fn is_numeric(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_digit())
}
