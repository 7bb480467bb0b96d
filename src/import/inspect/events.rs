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

use serde_json::{Map, Value};

use super::super::Builder;
use super::fast::{self, Ctx};
use super::pool;
use super::messages::{content, link, resolve, tool_calls};
use crate::json::scan;
use crate::model::{CallRef, Content, EventBody, KeyValue, Metadata, Marker, Message, SpanEvent, SpanPhase, ToolResult, ToolStatus};

/// Fields the body of each kind shows; the others are metadata.
const SHOWN: &[&str] = &["event", "timestamp", "span_id", "output", "input", "result", "changes", "events", "call", "tools"];

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

pub(super) fn read(out: &mut Builder, items: &[Range<usize>], path: &str, ctx: &Ctx) {
    let mut calls: HashMap<String, CallRef> = HashMap::new();
    let mut spans = Spans { paths: HashMap::new(), steps: Vec::new() };
    for (i, r) in items.iter().enumerate() {
        let item_path = format!("{path}[{i}]");
        let in_place = if ctx.allowed(out, r) { in_place(out, r, ctx) } else { None };
        let (v, output_message, result) = match in_place {
            Some(read) => read,
            None => {
                let Ok(mut v) = out.parse_record(r, &item_path) else { continue };
                resolve(&mut v, ctx.attachments);
                (v, None, None)
            }
        };
        let kind = v.get("event").and_then(Value::as_str).unwrap_or("event").to_string();
        let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        let span_id = s("span_id");
        let mut failed = v.get("error").is_some_and(|e| !e.is_null());
        let mut span_path = spans.path_of(span_id.as_deref());
        let body = match kind.as_str() {
            "model" => match output_message {
                Some(InPlaceOutput::Message(m)) => {
                    let m = *m;
                    EventBody::Message(Message { role: "assistant".to_string(), content: m.content, tool_calls: m.tool_calls })
                }
                Some(InPlaceOutput::None) => model_marker(&v),
                None => model_body(&v),
            },
            "tool" => EventBody::ToolResult(ToolResult {
                call_id: s("id"),
                content: match (&result, v.get("result")) {
                    (Some(vr), _) => fast::content(out, vr, ctx),
                    (None, Some(r @ (Value::String(_) | Value::Array(_)))) => content(Some(r)),
                    (None, Some(Value::Null) | None) => Content::None,
                    (None, Some(other)) => Content::Json(other.clone().into()),
                },
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
            "score" => key_value("score", v.get("score")),
            "state" | "store" => key_value(&kind, v.get("changes")),
            "info" => key_value(&s("source").map(|src| format!("info: {src}")).unwrap_or_else(|| "info".to_string()), v.get("data")),
            "error" => {
                failed = true;
                marker(format!("error: {}", v.get("error").and_then(|e| e.get("message")).and_then(Value::as_str).unwrap_or("")))
            }
            "sample_limit" => {
                failed = true;
                marker(format!("{} limit: {}", s("type").unwrap_or_default(), s("message").unwrap_or_default()))
            }
            "logger" => {
                let m = v.get("message");
                let level = m.and_then(|m| m.get("level")).and_then(Value::as_str).unwrap_or("log");
                marker(format!("{level}: {}", m.and_then(|m| m.get("message")).and_then(Value::as_str).unwrap_or("")))
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
        link(out, index, &mut calls);
        // A condensed model event: its input and call as `read_eval_log` expands them.
        let expanded = match (ctx.pool, kind.as_str()) {
            (Some(pool), "model") => {
                let call = v.get("call").cloned().or_else(|| member(out, r, ctx, "call"));
                Some(pool::expand(out, pool, (r, &item_path, index), v.get("input_refs"), call, ctx.attachments))
            }
            _ => None,
        };
        if let Some(e) = out.event_mut(index) {
            e.failed = failed;
            e.span = span_path;
            if kind == "model" {
                let facts = e.facts_mut();
                facts.model = v.get("model").and_then(Value::as_str).map(str::to_string);
                let seconds = v.get("working_time").or_else(|| v.get("output").and_then(|o| o.get("time"))).and_then(Value::as_f64);
                facts.duration_ms = seconds.map(|t| t * 1000.0);
            } else if kind == "tool" {
                if let Some(t) = v.get("working_time").and_then(Value::as_f64) {
                    e.facts_mut().duration_ms = Some(t * 1000.0);
                }
            }
            if let Value::Object(o) = v {
                e.metadata = o.into_iter().filter(|(k, val)| !SHOWN.contains(&k.as_str()) && !val.is_null()).collect::<Metadata>().into();
            }
            if let Some(x) = expanded {
                for (k, val) in [("input", x.input), ("call", x.call)] {
                    if let Some(val) = val {
                        e.metadata.insert(k.to_string(), val);
                    }
                }
            }
        }
    }
}

/// One member of the event at `r`, parsed (the in-place reading leaves `call` unparsed).
fn member(out: &Builder, r: &Range<usize>, ctx: &Ctx, key: &str) -> Option<Value> {
    let b = out.bytes();
    let (_, vr) = fast::members(b, r, ctx.ends)?.into_iter().rev().find(|(k, _)| k == key)?;
    Some(fast::parse(b, &vr))
}

fn marker(label: String) -> EventBody {
    EventBody::Marker(Marker { label })
}

fn key_value(key: &str, v: Option<&Value>) -> EventBody {
    EventBody::KeyValue(KeyValue { key: key.to_string(), value: v.cloned().unwrap_or(Value::Null) })
}

/// A model call: the message of its first choice, or a marker when the
/// call has no output (it failed, or the log left it out).
fn model_body(v: &Value) -> EventBody {
    let message = v.get("output").and_then(|o| o.get("choices")).and_then(|c| c.get(0)).and_then(|c| c.get("message"));
    match message {
        Some(m) => EventBody::Message(Message { role: "assistant".to_string(), content: content(m.get("content")), tool_calls: tool_calls(m.get("tool_calls")) }),
        None => model_marker(v),
    }
}

fn model_marker(v: &Value) -> EventBody {
    marker(format!("model call: {}", v.get("model").and_then(Value::as_str).unwrap_or("")))
}

/// The output message of a model event read in place, or that it has none.
enum InPlaceOutput {
    Message(Box<fast::InPlace>),
    None,
}

/// Members not parsed (they stay in the raw JSON): the model's input (the
/// whole conversation so far, at every call), the provider call, the tool
/// definitions, nested events.
const LEFT_IN_PLACE: &[&str] = &["input", "call", "tools", "events"];

/// An event read in place: its small members parsed (as the exact way
/// would, less those of [`LEFT_IN_PLACE`] and the output's `choices`),
/// the first choice's message and a tool's `result` left in the source.
fn in_place(out: &Builder, r: &Range<usize>, ctx: &Ctx) -> Option<(Value, Option<InPlaceOutput>, Option<Range<usize>>)> {
    let b = out.bytes();
    let members = fast::members(b, r, ctx.ends)?;
    let mut o = Map::new();
    let mut message = None;
    let mut result = None;
    let kind = members.iter().rev().find(|(k, _)| k == "event").and_then(|(_, vr)| fast::parse(b, vr).as_str().map(str::to_string));
    for (key, vr) in members {
        // An `input` event's own `input` is its text, read as the exact way does.
        if LEFT_IN_PLACE.contains(&key.as_str()) && !(key == "input" && kind.as_deref() == Some("input")) {
            continue;
        }
        match key.as_str() {
            "output" => {
                let mut output = Map::new();
                message = Some(InPlaceOutput::None);
                for (k, or) in fast::members(b, &vr, ctx.ends).unwrap_or_default() {
                    if k == "choices" {
                        let first = scan::array_items_in(b, scan::skip_ws(b, or.start), ctx.ends).0.into_iter().next();
                        let m = first.and_then(|c| fast::members(b, &c, ctx.ends)).and_then(|c| c.into_iter().rev().find(|(k, _)| k == "message"));
                        message = match m.and_then(|(_, mr)| fast::message(out, &mr, ctx)) {
                            Some(msg) => Some(InPlaceOutput::Message(Box::new(msg))),
                            None => Some(InPlaceOutput::None),
                        };
                    } else {
                        output.insert(k, fast::parse(b, &or));
                    }
                }
                o.insert(key, Value::Object(output));
            }
            "result" => result = Some(vr),
            _ => {
                let mut v = fast::parse(b, &vr);
                resolve(&mut v, ctx.attachments);
                o.insert(key, v);
            }
        }
    }
    // Only model events read their output's message; only tools their result.
    if kind.as_deref() != Some("model") {
        message = None;
    }
    if kind.as_deref() != Some("tool") {
        result = None;
    }
    Some((Value::Object(o), message, result))
}
