//! The two derived views the OpenHands SDK has of a conversation, computed
//! from a parsed [`Trace`] for the UI:
//!
//! - [`condensed_view`]: what `View.from_events` yields — each `Condensation`
//!   applied in order (`Condensation.apply`: forgotten events removed, the
//!   summary inserted at `summary_offset` when both are given), then the view
//!   properties enforced (one observation per tool call, whole batches of
//!   parallel actions, actions paired with observations, whole tool loops).
//! - [`llm_messages`]: what `LLMConvertibleEvent.events_to_messages` makes of
//!   that view — actions of one LLM response batched into one assistant
//!   message, adjacent plain user messages merged.
//!
//! Events take part when the SDK could load them apart from their tool
//! payload (an unknown action kind does not hide an action from the view).
//! Conversation branches (`parent_id`) are not followed: the view is of the
//! events in file order. V0 events take no part.

use std::collections::{HashMap, HashSet};

use serde::Serialize;
use serde_json::Value;

use super::validate::{schema, validate_event};
use crate::model::Trace;

/// One entry of the condensed view.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ViewEntry {
    /// The trace event; `None` for a summary a Condensation inserted.
    pub event: Option<u32>,
    /// The SDK event id (`<condensation id>-summary` for inserted summaries).
    pub id: String,
    pub kind: String,
    /// The summary text of an inserted summary.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
}

#[derive(Debug, Clone, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct CondensedView {
    pub entries: Vec<ViewEntry>,
    /// A CondensationRequest came after the last Condensation.
    pub unhandled_condensation_request: bool,
    /// Events removed by a Condensation (forgotten) or by property enforcement.
    pub dropped: Vec<u32>,
}

/// One message of the LLM message stream.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct LlmMessage {
    pub role: String,
    /// The trace events merged into this message (batched actions, merged user turns).
    pub events: Vec<u32>,
    /// Assistant messages: the ids of the tool calls, in order (several for a batch).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_call_ids: Option<Vec<String>>,
    /// Tool messages: the call answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// Number of content parts sent.
    pub content_parts: usize,
    /// Inserted condensation summaries that are part of this message.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub summaries: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct LlmMessages {
    pub messages: Vec<LlmMessage>,
    /// Why the SDK's conversion would fail (it asserts that only the first
    /// action of a batch carries a thought); the messages stop there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The condensed view of run `run` (empty for runs without SDK events).
pub fn condensed_view(trace: &Trace, run: u32) -> CondensedView {
    let events = sdk_events(trace, run);
    let (view, unhandled) = from_events(&events);
    let kept: HashSet<u32> = view.iter().filter_map(|e| e.index).collect();
    let dropped = events.iter().filter(|e| schema().is_llm_convertible(&e.kind)).filter_map(|e| e.index).filter(|i| !kept.contains(i)).collect();
    CondensedView {
        entries: view
            .iter()
            .map(|e| ViewEntry { event: e.index, id: e.id.clone(), kind: e.kind.clone(), summary: e.inserted_summary.clone() })
            .collect(),
        unhandled_condensation_request: unhandled,
        dropped,
    }
}

/// The LLM message stream of run `run`, built from its condensed view.
pub fn llm_messages(trace: &Trace, run: u32) -> LlmMessages {
    let events = sdk_events(trace, run);
    let (view, _) = from_events(&events);
    events_to_messages(&view)
}

/// What the view logic needs of one SDK event.
#[derive(Debug, Clone)]
struct Ev {
    index: Option<u32>,
    id: String,
    kind: String,
    tool_call_id: Option<String>,
    llm_response_id: Option<String>,
    has_thinking: bool,
    thought_len: usize,
    forgotten: HashSet<String>,
    summary: Option<String>,
    summary_offset: Option<usize>,
    /// Set on the summary event a Condensation inserts.
    inserted_summary: Option<String>,
    message: MessageShape,
}

/// The parts of `to_llm_message()` that decide roles and merging.
#[derive(Debug, Clone, Default)]
struct MessageShape {
    role: String,
    tool_calls: Option<Vec<String>>,
    tool_call_id: Option<String>,
    has_name: bool,
    content_parts: usize,
}

impl Ev {
    fn is_action(&self) -> bool {
        self.kind == "ActionEvent"
    }

    fn is_observation_like(&self) -> bool {
        matches!(self.kind.as_str(), "ObservationEvent" | "AgentErrorEvent" | "UserRejectObservation")
    }

    fn plain_user(&self) -> bool {
        let m = &self.message;
        m.role == "user" && m.tool_calls.is_none() && m.tool_call_id.is_none() && !m.has_name
    }
}

/// The run's SDK events that the SDK could load (payload problems aside), in order.
fn sdk_events(trace: &Trace, run: u32) -> Vec<Ev> {
    let mut out = Vec::new();
    for (i, e) in trace.events.iter().enumerate() {
        if e.run != run {
            continue;
        }
        let Some(raw) = trace.raw_json(i) else { continue };
        let Ok(v) = crate::json::build::from_slice(raw) else { continue };
        let Some(kind) = v.get("kind").and_then(Value::as_str) else { continue };
        if !schema().is_kind("Event", kind) || validate_event(&v).iter().any(|issue| !issue.in_payload(kind)) {
            continue;
        }
        out.push(read_event(&v, kind, Some(crate::source::clamp_u32(i))));
    }
    out
}

fn read_event(v: &Value, kind: &str, index: Option<u32>) -> Ev {
    let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    let len = |x: Option<&Value>| x.and_then(Value::as_array).map(Vec::len).unwrap_or(0);
    let forgotten = v.get("forgotten_event_ids").and_then(Value::as_array).map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect()).unwrap_or_default();
    Ev {
        index,
        id: s("id").unwrap_or_default(),
        kind: kind.to_string(),
        tool_call_id: s("tool_call_id"),
        llm_response_id: s("llm_response_id"),
        has_thinking: len(v.get("thinking_blocks")) > 0,
        thought_len: len(v.get("thought")),
        forgotten,
        summary: s("summary"),
        summary_offset: v.get("summary_offset").and_then(lax_offset),
        inserted_summary: None,
        message: message_shape(v, kind),
    }
}

/// `summary_offset` as pydantic reads it (3, 3.0, "3").
fn lax_offset(v: &Value) -> Option<usize> {
    match v {
        Value::Number(n) => n.as_u64().or_else(|| n.as_f64().filter(|f| f.fract() == 0.0 && *f >= 0.0).map(|f| f as u64)),
        Value::String(s) => s.trim().parse::<f64>().ok().filter(|f| f.fract() == 0.0 && *f >= 0.0).map(|f| f as u64),
        Value::Bool(b) => Some(u64::from(*b)),
        _ => None,
    }
    .and_then(|n| usize::try_from(n).ok())
}

fn message_shape(v: &Value, kind: &str) -> MessageShape {
    let len = |x: Option<&Value>| x.and_then(Value::as_array).map(Vec::len).unwrap_or(0);
    let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    match kind {
        "MessageEvent" => {
            let m = v.get("llm_message").cloned().unwrap_or(Value::Null);
            let content = match m.get("content") {
                Some(Value::String(_)) => 1,
                other => len(other),
            };
            MessageShape {
                role: m.get("role").and_then(Value::as_str).unwrap_or_default().to_string(),
                tool_calls: m.get("tool_calls").and_then(Value::as_array).map(|a| a.iter().map(|c| c.get("id").and_then(Value::as_str).unwrap_or_default().to_string()).collect()),
                tool_call_id: m.get("tool_call_id").and_then(Value::as_str).map(str::to_string),
                has_name: m.get("name").is_some_and(|n| !n.is_null()),
                content_parts: content + len(v.get("extended_content")),
            }
        }
        "SystemPromptEvent" => MessageShape {
            role: "system".to_string(),
            content_parts: if v.get("dynamic_context").is_some_and(|d| !d.is_null()) { 2 } else { 1 },
            ..MessageShape::default()
        },
        "ActionEvent" => MessageShape {
            role: "assistant".to_string(),
            tool_calls: Some(vec![v.get("tool_call").and_then(|t| t.get("id")).and_then(Value::as_str).unwrap_or_default().to_string()]),
            content_parts: len(v.get("thought")),
            ..MessageShape::default()
        },
        "ObservationEvent" => {
            let obs = v.get("observation");
            let error_header = usize::from(obs.and_then(|o| o.get("is_error")) == Some(&Value::Bool(true)));
            MessageShape {
                role: "tool".to_string(),
                tool_call_id: s("tool_call_id"),
                has_name: true,
                content_parts: error_header + len(obs.and_then(|o| o.get("content"))) + len(v.get("extended_content")),
                ..MessageShape::default()
            }
        }
        "AgentErrorEvent" | "UserRejectObservation" => {
            MessageShape { role: "tool".to_string(), tool_call_id: s("tool_call_id"), has_name: true, content_parts: 1, ..MessageShape::default() }
        }
        "CondensationSummaryEvent" => MessageShape { role: "user".to_string(), content_parts: 1, ..MessageShape::default() },
        _ => MessageShape::default(),
    }
}

/// `View.from_events`: apply condensations in order, then enforce the properties.
fn from_events(events: &[Ev]) -> (Vec<Ev>, bool) {
    let mut view: Vec<Ev> = Vec::new();
    let mut unhandled = false;
    for e in events {
        match e.kind.as_str() {
            "Condensation" => {
                view = apply_condensation(e, view);
                unhandled = false;
            }
            "CondensationRequest" => unhandled = true,
            k if schema().is_llm_convertible(k) => view.push(e.clone()),
            _ => {}
        }
    }
    enforce_properties(&mut view, events);
    (view, unhandled)
}

/// `Condensation.apply`.
fn apply_condensation(c: &Ev, view: Vec<Ev>) -> Vec<Ev> {
    let mut out: Vec<Ev> = view.into_iter().filter(|e| !c.forgotten.contains(&e.id)).collect();
    if let (Some(summary), Some(offset)) = (&c.summary, c.summary_offset) {
        let inserted = Ev {
            index: None,
            id: format!("{}-summary", c.id),
            kind: "CondensationSummaryEvent".to_string(),
            tool_call_id: None,
            llm_response_id: None,
            has_thinking: false,
            thought_len: 0,
            forgotten: HashSet::new(),
            summary: Some(summary.clone()),
            summary_offset: None,
            inserted_summary: Some(summary.clone()),
            message: MessageShape { role: "user".to_string(), content_parts: 1, ..MessageShape::default() },
        };
        // Python's list.insert appends when the offset is past the end.
        let at = offset.min(out.len());
        out.insert(at, inserted);
    }
    out
}

/// A view property: the ids to remove from the view (given all events) to restore it.
type Property = fn(&[Ev], &[Ev]) -> HashSet<String>;

/// `View.enforce_properties`: apply the first property that removes
/// anything, then start over, until none does.
fn enforce_properties(view: &mut Vec<Ev>, all: &[Ev]) {
    let properties: [Property; 4] = [observation_uniqueness, batch_atomicity, tool_call_matching, tool_loop_atomicity];
    // Each round removes at least one event, so the view's length bounds the rounds.
    for _ in 0..=view.len() {
        let Some(remove) = properties.iter().map(|p| p(view, all)).find(|r| !r.is_empty()) else { return };
        view.retain(|e| !remove.contains(&e.id));
    }
}

fn observation_uniqueness(view: &[Ev], _all: &[Ev]) -> HashSet<String> {
    let mut seen = HashSet::new();
    let mut remove = HashSet::new();
    for e in view.iter().filter(|e| e.is_observation_like()) {
        let call = e.tool_call_id.clone().unwrap_or_default();
        if !seen.insert(call) {
            remove.insert(e.id.clone());
        }
    }
    remove
}

fn batches(events: &[Ev]) -> HashMap<String, HashSet<String>> {
    let mut out: HashMap<String, HashSet<String>> = HashMap::new();
    for e in events.iter().filter(|e| e.is_action()) {
        out.entry(e.llm_response_id.clone().unwrap_or_default()).or_default().insert(e.id.clone());
    }
    out
}

fn batch_atomicity(view: &[Ev], all: &[Ev]) -> HashSet<String> {
    let all_batches = batches(all);
    let mut remove = HashSet::new();
    for (response, ids) in batches(view) {
        if all_batches.get(&response) != Some(&ids) {
            remove.extend(ids);
        }
    }
    remove
}

fn tool_call_matching(view: &[Ev], _all: &[Ev]) -> HashSet<String> {
    let calls = |pred: fn(&Ev) -> bool| -> HashSet<String> { view.iter().filter(|e| pred(e)).map(|e| e.tool_call_id.clone().unwrap_or_default()).collect() };
    let actions = calls(Ev::is_action);
    let observations = calls(Ev::is_observation_like);
    view.iter()
        .filter(|e| {
            let call = e.tool_call_id.clone().unwrap_or_default();
            (e.is_action() && !observations.contains(&call)) || (e.is_observation_like() && !actions.contains(&call))
        })
        .map(|e| e.id.clone())
        .collect()
}

/// Runs of actions/observations that start at an action with thinking blocks.
fn tool_loops(events: &[Ev]) -> Vec<HashSet<String>> {
    let mut loops = Vec::new();
    let mut current: Option<HashSet<String>> = None;
    for e in events {
        if e.is_action() && e.has_thinking {
            if let Some(l) = current.take() {
                loops.push(l);
            }
            current = Some(HashSet::from([e.id.clone()]));
        } else if e.is_action() || e.is_observation_like() {
            if let Some(l) = current.as_mut() {
                l.insert(e.id.clone());
            }
        } else if let Some(l) = current.take() {
            loops.push(l);
        }
    }
    loops.extend(current);
    loops
}

fn tool_loop_atomicity(view: &[Ev], all: &[Ev]) -> HashSet<String> {
    let loops = tool_loops(all);
    let in_view: HashSet<String> = view.iter().map(|e| e.id.clone()).collect();
    let mut remove = HashSet::new();
    for e in view {
        if remove.contains(&e.id) {
            continue;
        }
        if let Some(l) = loops.iter().find(|l| l.contains(&e.id)) {
            if !l.is_subset(&in_view) {
                remove.extend(l.intersection(&in_view).cloned());
            }
        }
    }
    remove
}

/// `LLMConvertibleEvent.events_to_messages`.
fn events_to_messages(view: &[Ev]) -> LlmMessages {
    let mut out = LlmMessages::default();
    let mut plain: Vec<bool> = Vec::new();
    let mut i = 0;
    while let Some(e) = view.get(i) {
        let mut j = i + 1;
        let msg = if e.is_action() {
            while view.get(j).is_some_and(|n| n.is_action() && n.llm_response_id == e.llm_response_id) {
                j += 1;
            }
            let batch = view.get(i..j).unwrap_or_default();
            if let Some(bad) = batch.iter().skip(1).find(|a| a.thought_len > 0) {
                out.error = Some(format!(
                    "events_to_messages() fails: action {} shares llm_response_id {:?} with the action before it but has a thought (the SDK asserts only the first action of a batch has one)",
                    bad.id,
                    e.llm_response_id.as_deref().unwrap_or_default()
                ));
                return out;
            }
            LlmMessage {
                role: "assistant".to_string(),
                events: batch.iter().filter_map(|a| a.index).collect(),
                tool_call_ids: Some(batch.iter().flat_map(|a| a.message.tool_calls.clone().unwrap_or_default()).collect()),
                tool_call_id: None,
                content_parts: e.thought_len,
                summaries: Vec::new(),
            }
        } else {
            LlmMessage {
                role: e.message.role.clone(),
                events: e.index.into_iter().collect(),
                tool_call_ids: e.message.tool_calls.clone(),
                tool_call_id: e.message.tool_call_id.clone(),
                content_parts: e.message.content_parts,
                summaries: e.inserted_summary.clone().into_iter().collect(),
            }
        };
        // Two plain user turns (no tool call fields, no name) are sent as one.
        let is_plain = !e.is_action() && e.plain_user();
        match out.messages.last_mut() {
            Some(last) if is_plain && plain.last() == Some(&true) => {
                last.content_parts += msg.content_parts;
                last.events.extend(msg.events);
                last.summaries.extend(msg.summaries);
            }
            _ => {
                out.messages.push(msg);
                plain.push(is_plain);
            }
        }
        i = j;
    }
    out
}
