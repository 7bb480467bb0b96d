//! A sample's `events`, its timeline: one event each, in order.
//!
//! - `model`: the assistant message of `output.choices[0]` (its tool calls
//!   answered by the `tool` events naming them), with the model, and the
//!   call's `working_time` as its duration; its `output.usage` stays in
//!   the raw JSON and metadata only (the run's usage is `model_usage`).
//! - `tool`: the tool's result, failed when the event has an `error`.
//! - `span_begin` / `span_end`: spans, nested by `id` and `parent_id`;
//!   every event with a `span_id` sits in its span's path.
//! - `step` (older logs' `begin`/`end` steps): spans nested by order.
//! - `score`, `state`, `store`, `info`: key-value events; `error` and
//!   `sample_limit`: failed markers; every other type (`sample_init`,
//!   `logger`, `input`, `approval`, `sandbox`, `subtask`, unknown ones): a
//!   marker naming it. Nested `events` of `tool`/`subtask` events stay in
//!   their event's raw JSON.

use std::collections::HashMap;
use std::ops::Range;

use serde_json::Value;

use super::super::Builder;
use super::event_record::{self, EventRead, Output, Record};
use super::fast::{self, Ctx};
use super::messages::{link, resolve, Calls};
use super::pool;
use super::retold::Said;
use crate::model::{EventBody, KeyValue, Marker, Message, Metadata, SpanEvent, SpanPhase, ToolResult, ToolStatus};

/// The event types of inspect_ai 0.3.285 (its `Event` union); any other
/// makes `read_eval_log` refuse the log.
const KNOWN: &[&str] = &[
    "sample_init", "sample_limit", "sandbox", "state", "store", "model", "tool", "anchor", "approval", "review", "sentinel", "branch",
    "checkpoint", "compaction", "input", "interrupt", "score", "score_edit", "error", "logger", "info", "span_begin", "span_end", "step", "subtask",
];

/// How deep spans nest in the paths events carry.
const MAX_DEPTH: usize = 64;

struct Spans {
    /// Span id → its path of names from the root.
    paths: HashMap<String, Vec<String>>,
    /// Open `step`s, innermost last.
    steps: Vec<String>,
}

impl Spans {
    fn path_of(&self, span_id: Option<&str>) -> Option<Vec<String>> {
        let mut path = span_id.and_then(|id| self.paths.get(id)).cloned().unwrap_or_default();
        path.extend(self.steps.iter().cloned());
        (!path.is_empty()).then_some(path)
    }
}

/// Reads the events at `items`; a model event's output message that
/// retells one of the assistant messages in `said` is taken from it.
pub(super) fn read(out: &mut Builder, items: &[Range<usize>], path: &str, ctx: &Ctx, said: &mut Said) {
    let mut calls = Calls::default();
    let mut spans = Spans { paths: HashMap::new(), steps: Vec::new() };
    for (i, r) in items.iter().enumerate() {
        let item_path = fast::item_path(path, i);
        let fast = if ctx.allowed(out, r) { event_record::in_bytes(out, r, ctx, said) } else { None };
        let read = match fast {
            Some(read) => read,
            None => {
                let Ok(mut v) = out.parse_record(r, &item_path) else { continue };
                resolve(&mut v, ctx.attachments);
                event_record::exact(v)
            }
        };
        place(out, r, item_path, read, ctx, (&mut calls, &mut spans));
    }
}

/// Places one event, read either way.
fn place(out: &mut Builder, r: &Range<usize>, item_path: String, read: EventRead, ctx: &Ctx, (calls, spans): (&mut Calls, &mut Spans)) {
    let EventRead { record: v, kind, output, output_time, result } = read;
    let s = |k: &str| v.str(k);
    let span_id = s("span_id");
    let mut failed = v.non_null("error");
    let mut span_path = spans.path_of(span_id.as_deref());
    let body = match kind.as_str() {
        "model" => match output {
            Output::Message(content, tool_calls) => EventBody::Message(Message { role: "assistant".to_string(), content, tool_calls }),
            Output::Marker => model_marker(&v),
        },
        "tool" => EventBody::ToolResult(ToolResult {
            call_id: s("id"),
            content: result,
            status: if failed { ToolStatus::Error } else { ToolStatus::Success },
            call: None,
            implicit_link: false,
        }),
        "span_begin" => {
            let name = s("name").unwrap_or_else(|| s("type").unwrap_or_else(|| "span".to_string()));
            let mut p = spans.path_of(s("parent_id").as_deref()).unwrap_or_default();
            // Each event carries its span's path: a deeper tree would cost
            // the square of its depth, so deeper spans sit at this level.
            p.truncate(MAX_DEPTH - 1);
            p.push(name);
            if let Some(id) = s("id") {
                spans.paths.insert(id, p.clone());
            }
            span_path = Some(p.clone());
            EventBody::Span(SpanEvent { name: p, phase: SpanPhase::Begin })
        }
        "span_end" => {
            let p = s("id").and_then(|id| spans.paths.get(&id).cloned()).unwrap_or_else(|| vec![s("id").unwrap_or_else(|| "span".to_string())]);
            span_path = Some(p.clone());
            EventBody::Span(SpanEvent { name: p, phase: SpanPhase::End })
        }
        "step" => {
            let name = s("name").unwrap_or_else(|| "step".to_string());
            let begin = s("action").as_deref() != Some("end");
            if begin && spans.steps.len() < MAX_DEPTH {
                spans.steps.push(name);
            }
            let p = spans.path_of(span_id.as_deref()).unwrap_or_default();
            if !begin {
                // The innermost open step of that name ends (and those opened inside it).
                if let Some(k) = spans.steps.iter().rposition(|n| Some(n.as_str()) == s("name").as_deref()) {
                    spans.steps.truncate(k);
                }
            }
            span_path = Some(p.clone());
            EventBody::Span(SpanEvent { name: p, phase: if begin { SpanPhase::Begin } else { SpanPhase::End } })
        }
        "score" => key_value("score", v.value("score")),
        "state" | "store" => key_value(&kind, v.value("changes")),
        "info" => key_value(&s("source").map(|src| format!("info: {src}")).unwrap_or_else(|| "info".to_string()), v.value("data")),
        "error" => {
            failed = true;
            let e = v.value("error");
            marker(format!("error: {}", e.as_ref().and_then(|e| e.get("message")).and_then(Value::as_str).unwrap_or("")))
        }
        "sample_limit" => {
            failed = true;
            marker(format!("{} limit: {}", s("type").unwrap_or_default(), s("message").unwrap_or_default()))
        }
        "logger" => {
            let m = v.value("message");
            let level = m.as_ref().and_then(|m| m.get("level")).and_then(Value::as_str).unwrap_or("log");
            marker(format!("{level}: {}", m.as_ref().and_then(|m| m.get("message")).and_then(Value::as_str).unwrap_or("")))
        }
        "input" => marker(format!("input: {}", s("input").unwrap_or_default())),
        "approval" => marker(format!("approval: {} ({})", s("decision").unwrap_or_default(), s("approver").unwrap_or_default())),
        "sandbox" => marker(format!("sandbox {}: {}", s("action").unwrap_or_default(), s("cmd").or_else(|| s("file")).unwrap_or_default())),
        "subtask" => marker(format!("subtask: {}", s("name").unwrap_or_default())),
        other => {
            if !KNOWN.contains(&other) {
                let at = out.locate(r.start, &[crate::json::Seg::key("event")]);
                let message = format!("unknown event type `{other}`: `read_eval_log` refuses the log (the event is kept as a marker)");
                out.diag(crate::diagnostic::Severity::Error, "unknown-event", message, format!("{item_path}.event"), at, Some(out.next_event()));
            }
            marker(other.to_string())
        }
    };
    let timestamp = s("timestamp");
    let index = out.push_event(body, &kind, r.clone(), item_path.clone(), timestamp);
    link(out, index, calls);
    // A condensed model event: its input and call as `read_eval_log` expands them.
    let mut extra = Metadata::new();
    if let (Some(pool), "model") = (ctx.pool, kind.as_str()) {
        let x = pool::expand(out, pool, (r, &item_path, index), v.value("input_refs").as_ref(), v.value("call"), ctx.attachments);
        for (k, val) in [("input", x.input), ("call", x.call)] {
            if let Some(val) = val {
                extra.insert(k.to_string(), val);
            }
        }
    }
    let model = (kind == "model").then(|| s("model")).flatten();
    let working_time = if matches!(kind.as_str(), "model" | "tool") { v.number("working_time") } else { None };
    // A model call's `working_time`, else (only when it has none) its output's time.
    let seconds = if v.has("working_time") { working_time } else { output_time };
    let metadata = v.metadata(out, r, ctx, extra);
    if let Some(e) = out.event_mut(index) {
        e.failed = failed;
        e.span = span_path;
        if kind == "model" {
            let facts = e.facts_mut();
            facts.model = model;
            facts.duration_ms = seconds.map(|t| t * 1000.0);
        } else if kind == "tool" {
            if let Some(t) = working_time {
                e.facts_mut().duration_ms = Some(t * 1000.0);
            }
        }
        e.metadata = metadata;
    }
}

fn marker(label: String) -> EventBody {
    EventBody::Marker(Marker { label })
}

fn key_value(key: &str, v: Option<Value>) -> EventBody {
    EventBody::KeyValue(KeyValue { key: key.to_string(), value: v.unwrap_or(Value::Null).into() })
}

fn model_marker(v: &Record) -> EventBody {
    marker(format!("model call: {}", v.str("model").unwrap_or_default()))
}
