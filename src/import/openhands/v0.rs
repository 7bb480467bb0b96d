//! OpenHands V0 trajectories (before the SDK): records with an integer `id`,
//! an `action` or `observation` name, `args`/`extras`, `cause` (the id of the
//! action an observation answers) and `tool_call_metadata` for function
//! calling. The oldest outputs (2024 resolver runs) have no ids: `history`
//! holds `[action, observation]` pairs with the arguments at the top level.
//!
//! No reference library is pinned for V0 (it lives in the full `openhands-ai`
//! app), so checks here are warnings about what would break linking.

use std::collections::HashMap;
use std::ops::Range;

use serde_json::{Map, Value};

use super::{str_field, Reader};
use crate::json::Seg;
use crate::model::{Arguments, CallRef, Content, ContentPart, EventBody, Marker, Message, ToolCall, ToolResult, ToolStatus};

/// Keys of a V0 record that are not tool arguments in the oldest, `args`-less layout.
const ENVELOPE: &[&str] = &["id", "timestamp", "source", "message", "action", "observation", "cause", "tool_call_metadata", "llm_metrics", "thought", "timeout", "content", "extras", "success"];

/// Actions that are not tool calls: they become messages or markers.
const NOT_CALLS: &[&str] = &["message", "system", "change_agent_state", "recall", "condensation", "condensation_request", "null"];

#[derive(Default)]
pub(super) struct Run {
    seen: bool,
    by_id: HashMap<i64, CallRef>,
    by_call_id: HashMap<String, CallRef>,
    /// Calls not answered yet, in order: an id-less observation answers the oldest.
    open: Vec<CallRef>,
    /// Ids of the model responses whose usage an event already carries: the
    /// calls of one response share its `model_response`.
    responses: std::collections::HashSet<String>,
}

impl Run {
    /// True once the run has met a V0 record (id-less records then stay V0).
    pub(super) fn active(&self) -> bool {
        self.seen
    }

    pub(super) fn event(&mut self, rd: &mut Reader, o: &Map<String, Value>, r: Range<usize>, path: &str) {
        self.seen = true;
        let index = rd.out.next_event();
        let timestamp = str_field(o, "timestamp").map(str::to_string);
        let (body, source_kind) = if let Some(action) = str_field(o, "action") {
            (self.action(o, action, index), format!("action:{action}"))
        } else if let Some(obs) = str_field(o, "observation") {
            (self.observation(rd, o, obs, index, &r, path), format!("observation:{obs}"))
        } else {
            let keys: Vec<&str> = o.keys().map(String::as_str).take(6).collect();
            rd.warn_at(
                "v0-unknown-record",
                format!("expected a V0 action or observation (an `action` or `observation` name); this object has keys {}", keys.join(", ")),
                &r,
                path,
                &[],
                index,
            );
            (EventBody::Marker(Marker { label: "unknown V0 record".to_string() }), "v0:unknown".to_string())
        };
        if let Some(id) = o.get("id") {
            if !id.is_i64() && !id.is_null() {
                rd.warn_at("v0-id-type", format!("expected the V0 `id` to be an integer, found {}", super::json_type(id)), &r, path, &[Seg::key("id")], index);
            }
        }
        let index = rd.out.push_event(body, &source_kind, r, path.to_string(), timestamp);
        if let Some(e) = rd.out.event_mut(index) {
            e.facts = self.facts(o);
        }
    }

    /// The usage and model of the model response an action came from
    /// (`tool_call_metadata.model_response`), on the first action of that
    /// response only, so that parallel calls count it once.
    fn facts(&mut self, o: &Map<String, Value>) -> Option<Box<crate::model::EventFacts>> {
        let response = o.get("tool_call_metadata")?.get("model_response")?.as_object()?;
        if let Some(id) = str_field(response, "id") {
            if !self.responses.insert(id.to_string()) {
                return None;
            }
        }
        crate::import::facts::completion(response)
    }

    fn action(&mut self, o: &Map<String, Value>, action: &str, index: u32) -> EventBody {
        let args = arguments(o);
        let source = str_field(o, "source").unwrap_or("agent");
        match action {
            "message" | "system" => {
                let role = match (action, source) {
                    ("system", _) => "system",
                    (_, "user") => "user",
                    (_, "agent") => "assistant",
                    (_, other) => other,
                };
                let text = args.get("content").and_then(Value::as_str).or_else(|| str_field(o, "message")).unwrap_or_default();
                let mut parts = vec![ContentPart::Text(text.into())];
                for url in args.get("image_urls").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
                    parts.push(ContentPart::Image { url: url.into() });
                }
                return EventBody::Message(Message { role: role.to_string(), content: Content::Parts(parts), tool_calls: Vec::new() });
            }
            _ => {}
        }
        let meta = o.get("tool_call_metadata").and_then(Value::as_object);
        if meta.is_none() && NOT_CALLS.contains(&action) {
            return EventBody::Marker(Marker { label: format!("{action}{}", state_suffix(&args)) });
        }
        let thought = args
            .get("thought")
            .or_else(|| o.get("thought"))
            .and_then(Value::as_str)
            .filter(|t| !t.is_empty())
            .map(str::to_string);
        let mut call_args = args.clone();
        call_args.remove("thought");
        let call = ToolCall {
            id: meta.and_then(|m| str_field(m, "tool_call_id")).map(str::to_string),
            function: meta.and_then(|m| str_field(m, "function_name")).unwrap_or(action).to_string(),
            arguments: Arguments { value: Some(Value::Object(call_args).into()), text: None },
            result: None,
        };
        let cref = CallRef { event: index, call: 0 };
        if let Some(id) = o.get("id").and_then(Value::as_i64) {
            self.by_id.insert(id, cref);
        }
        if let Some(id) = &call.id {
            self.by_call_id.insert(id.clone(), cref);
        }
        self.open.push(cref);
        if meta.is_some() || thought.is_some() {
            let content = thought.map(|t| Content::Parts(vec![ContentPart::Text(t.into())])).unwrap_or(Content::None);
            EventBody::Message(Message { role: "assistant".to_string(), content, tool_calls: vec![call] })
        } else {
            EventBody::ToolCall(call)
        }
    }

    fn observation(&mut self, rd: &mut Reader, o: &Map<String, Value>, obs: &str, index: u32, r: &Range<usize>, path: &str) -> EventBody {
        let call_id = o.get("tool_call_metadata").and_then(|m| m.get("tool_call_id")).and_then(Value::as_str).map(str::to_string);
        let cause = o.get("cause").and_then(Value::as_i64);
        let explicit = call_id.as_ref().and_then(|id| self.by_call_id.get(id).copied()).or_else(|| cause.and_then(|c| self.by_id.get(&c).copied()));
        let has_link_fields = call_id.is_some() || cause.is_some();
        let implicit = if has_link_fields || o.contains_key("id") { None } else { self.open.first().copied() };
        let target = explicit.or(implicit);
        if target.is_none() && matches!(obs, "agent_state_changed" | "null" | "recall" | "condensation") {
            let extras = o.get("extras").and_then(Value::as_object).cloned().unwrap_or_default();
            return EventBody::Marker(Marker { label: format!("{obs}{}", state_suffix(&extras)) });
        }
        if target.is_none() {
            let why = match (cause, &call_id) {
                (Some(c), _) => format!("`cause` {c} names no earlier action of this trajectory"),
                (None, Some(id)) => format!("no earlier action has tool_call_id {id:?}"),
                (None, None) => "this observation has no `cause` and no tool_call_metadata, and no action is waiting for a result".to_string(),
            };
            rd.warn_at("v0-unlinked-observation", why, r, path, &[], index);
        }
        if let Some(cref) = target {
            rd.out.link_result(cref, index);
            self.open.retain(|c| *c != cref);
        }
        let text = o.get("content").and_then(Value::as_str).or_else(|| str_field(o, "message")).unwrap_or_default();
        let exit_code = o.get("extras").and_then(|e| e.get("metadata")).and_then(|m| m.get("exit_code")).and_then(Value::as_i64);
        let status = if obs == "error" || o.get("success") == Some(&Value::Bool(false)) || exit_code.is_some_and(|c| c != 0) {
            ToolStatus::Error
        } else {
            ToolStatus::Success
        };
        EventBody::ToolResult(ToolResult { call_id, content: Content::Text(text.into()), status, call: target, implicit_link: explicit.is_none() && target.is_some() })
    }

    pub(super) fn finish(self, _rd: &mut Reader) {}
}

/// `args`, or for the oldest layout the record's own non-envelope keys.
fn arguments(o: &Map<String, Value>) -> Map<String, Value> {
    match o.get("args") {
        Some(Value::Object(a)) => a.clone(),
        _ => o.iter().filter(|(k, _)| !ENVELOPE.contains(&k.as_str())).map(|(k, v)| (k.clone(), v.clone())).collect(),
    }
}

/// ` → running` for agent state changes.
fn state_suffix(m: &Map<String, Value>) -> String {
    m.get("agent_state").and_then(Value::as_str).map(|s| format!(" → {s}")).unwrap_or_default()
}
