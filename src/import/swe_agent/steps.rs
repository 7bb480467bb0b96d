//! `trajectory` (one `TrajectoryStep` per action) and `info` (`AgentInfo`).

use std::ops::Range;

use serde_json::{Map, Value};

use super::super::json_type;
use super::super::pydantic_lax as lax;
use super::fast::FastStep;
use super::Reader;
use crate::json::{scan, Seg};
use crate::model::{Arguments, CallRef, Content, EventBody, KeyValue, Message, Text, ToolCall, ToolResult, ToolStatus, Usage};

/// Step keys the events hold; `query` (`messages` before SWE-agent 1.1) is
/// the whole prompt of the step, left in the step's raw JSON rather than
/// copied into its metadata.
const STEP_BODY_KEYS: &[&str] = &["action", "observation", "response", "execution_time", "query", "messages"];

pub fn read_trajectory(rd: &mut Reader, r: Range<usize>, path: &str) {
    let Some(items) = rd.list_items(r, path, "trajectory") else { return };
    for (i, item) in items.into_iter().enumerate() {
        step(rd, item, &crate::json::item_path(path, i));
    }
}

/// A step: an assistant message (`response`) whose one call is the
/// `action`, then the `observation` as that call's result (an event over
/// the observation's bytes).
fn step(rd: &mut Reader, r: Range<usize>, path: &str) {
    if let Some(step) = rd.fast_step(&r) {
        return fast_step(rd, step, r, path);
    }
    let v = match rd.out.parse_record(&r, path) {
        Ok(v) => v,
        Err(_) => return rd.out.unparsed(r, path, "invalid JSON"),
    };
    let at = rd.out.next_event();
    let Value::Object(o) = v else {
        let message = format!("expected a trajectory step (an object with `action` and `observation`); found {}", json_type(&v));
        rd.out.unparsed(r.clone(), path, "not a trajectory step");
        rd.warn("not-an-object", message, &r, path, &[], at);
        return;
    };
    let text = |k: &str| o.get(k).and_then(Value::as_str);
    let content = match text("response").or_else(|| text("thought")) {
        Some(s) => Content::Text(Text::from(s)),
        None => Content::None,
    };
    let mut calls = Vec::new();
    match o.get("action") {
        Some(Value::String(a)) => calls.push(action_call(Text::from(a.as_str()))),
        None | Some(Value::Null) => {}
        Some(other) => {
            let message = format!("expected `action` to be a string (TrajectoryStep.action: str); found {}", json_type(other));
            rd.warn("bad-action", message, &r, path, &[Seg::key("action")], at);
        }
    }
    let has_call = !calls.is_empty();
    rd.out.push_event(EventBody::Message(Message { role: "assistant".to_string(), content, tool_calls: calls }), "step", r.clone(), path.to_string(), None);
    let found = match o.get("observation") {
        Some(Value::String(s)) => Some(Content::Text(Text::from(s.as_str()))),
        Some(Value::Null) => Some(Content::None),
        Some(other) => Some(Content::Json(other.clone().into())),
        None => None,
    };
    exact_step_metadata(rd, o, &r, path, at);
    if let Some(content) = found {
        observation(rd, content, None, &r, path, at, has_call);
    }
}

/// A step read fast: the same events, its metadata left in the source.
fn fast_step(rd: &mut Reader, step: FastStep, r: Range<usize>, path: &str) {
    let at = rd.out.next_event();
    let calls: Vec<ToolCall> = step.action.into_iter().map(action_call).collect();
    let has_call = !calls.is_empty();
    rd.out.push_event(EventBody::Message(Message { role: "assistant".to_string(), content: step.content, tool_calls: calls }), "step", r.clone(), path.to_string(), None);
    let metadata = rd.out.metadata_in_source(r.clone(), step_metadata, Map::new());
    if let Some(e) = rd.out.event_mut(at) {
        e.metadata = metadata;
        if step.duration_ms.is_some() {
            e.facts_mut().duration_ms = step.duration_ms;
        }
    }
    if let Some((content, range)) = step.observation {
        observation(rd, content, Some(range), &r, path, at, has_call);
    }
}

/// The step's call: the action, named by its first word.
fn action_call(action: Text) -> ToolCall {
    let function = action.decoded().split_whitespace().next().unwrap_or_default().to_string();
    ToolCall { id: None, function, arguments: Arguments { value: None, text: Some(action) }, result: None }
}

/// The step's metadata: every member but those the events hold, a 0.x
/// `state` written as JSON text parsed (kept as text when it is not JSON).
/// The fast path leaves it to be built from the source when first read.
pub(super) fn step_metadata(o: Map<String, Value>, _: &Map<String, Value>) -> Map<String, Value> {
    o.into_iter()
        .filter(|(k, _)| !STEP_BODY_KEYS.contains(&k.as_str()))
        .map(|(k, v)| match (k.as_str(), v) {
            ("state", Value::String(s)) => {
                let parsed = crate::json::build::from_str(&s).unwrap_or(Value::String(s));
                (k, parsed)
            }
            (_, v) => (k, v),
        })
        .collect()
}

fn exact_step_metadata(rd: &mut Reader, o: Map<String, Value>, r: &Range<usize>, path: &str, at: u32) {
    let mut duration = None;
    match o.get("execution_time") {
        None | Some(Value::Null) => {}
        Some(v) => match lax::float(v) {
            Ok(secs) => duration = Some(secs * 1000.0),
            Err(why) => rd.warn("bad-execution-time", format!("`execution_time` (seconds, a float): {why}"), r, path, &[Seg::key("execution_time")], at),
        },
    }
    if let Some(Value::String(s)) = o.get("state") {
        if let Err(e) = crate::json::build::from_str(s) {
            let why = super::super::describe_serde_error(&e);
            rd.warn("bad-state", format!("`state` is a string that is not JSON ({why}); kept as text"), r, path, &[Seg::key("state")], at);
        }
    }
    let metadata = step_metadata(o, &Map::new());
    if let Some(e) = rd.out.event_mut(at) {
        e.metadata = metadata.into();
        if duration.is_some() {
            e.facts_mut().duration_ms = duration;
        }
    }
}

/// The observation as the result of the step's call, over the
/// observation's own bytes.
/// `range` is the observation's when the fast path found it.
fn observation(rd: &mut Reader, content: Content, range: Option<Range<usize>>, r: &Range<usize>, path: &str, step: u32, has_call: bool) {
    let range = range.or_else(|| {
        let start = scan::skip_ws(rd.b, r.start);
        let members = scan::object_members_in(rd.b, start, rd.ends).ok()?;
        members.into_iter().find(|(k, _)| k == "observation").map(|(_, r)| r)
    });
    let Some(range) = range else { return };
    let call = has_call.then_some(CallRef { event: step, call: 0 });
    let result = ToolResult { call_id: None, content, status: ToolStatus::Unknown, call, implicit_link: false };
    let at = rd.out.push_event(EventBody::ToolResult(result), "observation", range, [path, ".observation"].concat(), None);
    if let Some(c) = call {
        rd.out.link_result(c, at);
    }
}

/// `info`: one event holding it, whose usage is `model_stats` (so that the
/// run's usage totals are SWE-agent's own), and the `submission` patch as
/// an event of its own.
pub fn read_info(rd: &mut Reader, r: Range<usize>, path: &str, model: Option<String>) {
    let v = match rd.out.parse_record(&r, path) {
        Ok(v) => v,
        Err(_) => return rd.out.unparsed(r, path, "invalid JSON"),
    };
    let at = rd.out.next_event();
    let Value::Object(o) = &v else {
        let message = format!("expected `info` to be an object (AgentInfo); found {}", json_type(&v));
        rd.out.unparsed(r.clone(), path, "not an info object");
        rd.warn("not-an-object", message, &r, path, &[], at);
        return;
    };
    let usage = o.get("model_stats").and_then(|s| model_stats(rd, s, &r, path, at));
    if let Some(status) = o.get("exit_status") {
        if let Some(run) = rd.out.last_run_mut() {
            run.metadata.insert("exit_status".to_string(), status.clone());
        }
    }
    let submission = o.get("submission").filter(|s| !s.is_null()).cloned();
    rd.out.push_event(EventBody::KeyValue(KeyValue { key: "info".to_string(), value: v.clone().into() }), "info", r.clone(), path.to_string(), None);
    if let Some(e) = rd.out.event_mut(at) {
        if usage.is_some() || model.is_some() {
            let facts = e.facts_mut();
            facts.usage = usage;
            facts.model = model;
        }
    }
    let Some(patch) = submission else { return };
    let start = scan::skip_ws(rd.b, r.start);
    let member = scan::object_members_in(rd.b, start, rd.ends).ok().and_then(|m| m.into_iter().find(|(k, _)| k == "submission"));
    if let Some((_, range)) = member {
        let body = EventBody::KeyValue(KeyValue { key: "submission".to_string(), value: patch.into() });
        rd.out.push_event(body, "submission", range, format!("{path}.submission"), None);
    }
}

/// `model_stats` (`InstanceStats`): `tokens_sent` as input, `tokens_received`
/// as output; counts that are zero stay zero.
fn model_stats(rd: &mut Reader, s: &Value, r: &Range<usize>, path: &str, at: u32) -> Option<Usage> {
    let Some(o) = s.as_object() else {
        let message = format!("expected `model_stats` to be an object (InstanceStats); found {}", json_type(s));
        rd.warn("bad-model-stats", message, r, path, &[Seg::key("model_stats")], at);
        return None;
    };
    let mut count = |k: &str| -> Option<u64> {
        let v = o.get(k)?;
        match lax::integer(v) {
            Ok(Some(n)) if n >= 0 => u64::try_from(n).ok(),
            Ok(_) => None,
            Err(why) => {
                let message = format!("`model_stats.{k}` (InstanceStats: int): {why}");
                rd.warn("bad-model-stats", message, r, path, &[Seg::key("model_stats"), Seg::key(k)], at);
                None
            }
        }
    };
    let input = count("tokens_sent");
    let output = count("tokens_received");
    if input.is_none() && output.is_none() {
        return None;
    }
    let (i, out) = (input.unwrap_or(0), output.unwrap_or(0));
    Some(Usage { input_tokens: i, output_tokens: out, total_tokens: i.saturating_add(out), ..Usage::default() })
}
