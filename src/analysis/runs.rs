//! One row per run: what a table of the runs of a log shows (an Inspect log's
//! samples, a JSONL of runs, a Docent collection, a folder of files).
//!
//! Each column is computed here once, from the same rules as the rest of the
//! analysis (failures, usage, time), so the runs table, its sort and its
//! score summaries agree with the Stats view and the CLI.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use super::failures::{call_failed, event_failed};
use super::stats::seconds_between;
use super::time::parse_instant;
use super::usage::UsageTotals;
use crate::model::{EventBody, Metadata, Trace};

/// The columns of one run.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunRow<'t> {
    pub run: u32,
    pub id: &'t str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<&'t str>,
    /// Each score by name: `metadata.scores.<name>`, or its `value` when the
    /// score is an object (Inspect's `Score`). Scalars only: a list or an
    /// object without a scalar `value` is left out (it stays in the metadata).
    pub scores: BTreeMap<&'t str, &'t Value>,
    /// The model the run's events name most often, else the run metadata's
    /// `model` when it is a string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<&'t str>,
    pub events: u32,
    pub tool_calls: u32,
    /// Records that say they failed: failed calls, failed results that answer
    /// no call, and records the format marks failed (an agent error).
    pub failures: u32,
    /// Total tokens the run's events report (0 when none does).
    pub tokens: u64,
    /// The cost the run's events report (in US dollars, the trace's own
    /// figures), when any does; calls reporting none are not in it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<f64>,
    /// Seconds from the run's first to its last timestamp, when both read as times.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_seconds: Option<f64>,
    /// What the run's metadata says went wrong: `error` (a string, or an
    /// object's `message`), or the `limit` it hit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The run's body was not read yet (an archive opened lazily): events,
    /// tool calls, failures and duration are unknown, not zero.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub pending: bool,
}

/// Every run's row, in run order, in one pass over the events.
pub fn run_rows(trace: &Trace) -> Vec<RunRow<'_>> {
    let mut rows: Vec<RunRow<'_>> = trace
        .runs
        .iter()
        .enumerate()
        .map(|(i, run)| RunRow {
            run: crate::source::clamp_u32(i),
            id: &run.id,
            name: run.name.as_deref(),
            scores: scores(&run.metadata),
            model: None,
            events: 0,
            tool_calls: 0,
            failures: 0,
            tokens: 0,
            cost: None,
            duration_seconds: None,
            error: error(&run.metadata),
            pending: run.pending_body.is_some(),
        })
        .collect();
    let mut usage: Vec<UsageTotals> = vec![UsageTotals::default(); rows.len()];
    let mut times: Vec<(Option<&str>, Option<&str>)> = vec![(None, None); rows.len()];
    for e in &trace.events {
        let (Some(row), Some(u), Some(t)) = (rows.get_mut(e.run as usize), usage.get_mut(e.run as usize), times.get_mut(e.run as usize)) else {
            continue;
        };
        row.events += 1;
        u.add_event(e);
        if let Some(ts) = e.timestamp.as_deref() {
            t.0 = t.0.or(Some(ts));
            t.1 = Some(ts);
        }
        if !trace.counts(e) {
            continue;
        }
        let calls: &[crate::model::ToolCall] = match &e.body {
            EventBody::Message(m) => &m.tool_calls,
            EventBody::ToolCall(c) => std::slice::from_ref(c),
            _ => &[],
        };
        row.tool_calls += crate::source::clamp_u32(calls.len());
        row.failures += crate::source::clamp_u32(calls.iter().filter(|c| call_failed(trace, e, c)).count());
        let answers_a_call = matches!(&e.body, EventBody::ToolResult(r) if r.call.is_some());
        if calls.is_empty() && !answers_a_call && event_failed(e) {
            row.failures += 1;
        }
    }
    for ((row, u), (first, last)) in rows.iter_mut().zip(&usage).zip(times) {
        row.tokens = u.total.total_tokens;
        row.cost = u.cost.as_ref().map(|c| c.total.total);
        row.model = u
            .by_model
            .iter()
            .filter(|(m, _)| !m.is_empty())
            .max_by_key(|(_, m)| m.total_tokens)
            .map(|(name, _)| name.as_str())
            .and_then(|name| trace_str(trace, name))
            .or_else(|| trace.runs.get(row.run as usize).and_then(|r| r.metadata.get("model")).and_then(Value::as_str));
        row.duration_seconds = match (first.and_then(parse_instant), last.and_then(parse_instant)) {
            (Some(a), Some(b)) => Some(seconds_between(a, b)),
            _ => None,
        };
    }
    rows
}

/// `name` borrowed from the trace rather than from the temporary totals: the
/// model name of the first event that names it.
fn trace_str<'t>(trace: &'t Trace, name: &str) -> Option<&'t str> {
    trace.events.iter().filter_map(|e| e.facts.as_deref()?.model.as_deref()).find(|m| *m == name)
}

fn scores(metadata: &Metadata) -> BTreeMap<&str, &Value> {
    let Some(Value::Object(scores)) = metadata.get("scores") else { return BTreeMap::new() };
    scores
        .iter()
        .filter_map(|(name, v)| {
            let v = match v {
                Value::Object(o) => o.get("value")?,
                v => v,
            };
            matches!(v, Value::Number(_) | Value::Bool(_) | Value::String(_)).then_some((name.as_str(), v))
        })
        .collect()
}

fn error(metadata: &Metadata) -> Option<String> {
    match metadata.get("error") {
        Some(Value::String(s)) if !s.is_empty() => return Some(s.clone()),
        Some(Value::Object(o)) => {
            if let Some(m) = o.get("message").and_then(Value::as_str) {
                return Some(m.to_string());
            }
        }
        _ => {}
    }
    match metadata.get("limit") {
        Some(Value::Object(o)) => {
            let kind = o.get("type").and_then(Value::as_str).unwrap_or("a");
            Some(format!("{kind} limit reached"))
        }
        Some(Value::String(s)) if !s.is_empty() => Some(format!("{s} limit reached")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Trace {
        crate::parse_trace(text.as_bytes().to_vec(), &crate::ParseOptions::default()).unwrap()
    }

    #[test]
    fn docent_runs_give_scores_counts_and_errors() {
        // A Docent collection: two runs with scores in their metadata.
        let text = r#"[
{"id": "a", "metadata": {"scores": {"accuracy": 1, "judge": {"value": "C", "explanation": "ok"}, "tags": ["x"]}, "model": "m-meta"},
 "transcripts": {"main": {"messages": [
  {"role": "user", "content": "hi"},
  {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "function": "ls", "arguments": {}}]},
  {"role": "tool", "content": "boom", "tool_call_id": "c1", "error": {"message": "failed"}}]}}},
{"id": "b", "metadata": {"scores": {"accuracy": 0}, "error": {"message": "sandbox died"}},
 "transcripts": {"main": {"messages": [{"role": "user", "content": "yo"}]}}}
]"#;
        let t = parse(text);
        assert_eq!(t.runs.len(), 2, "read as a collection of two runs: {:?}", t.diagnostics);
        let rows = run_rows(&t);
        assert_eq!(rows.len(), 2);
        let a = &rows[0];
        assert_eq!((a.id, a.events, a.tool_calls, a.failures), ("a", 3, 1, 1));
        assert_eq!(a.scores.len(), 2, "the list-valued score is left out: {:?}", a.scores);
        assert_eq!(a.scores["accuracy"], &Value::from(1));
        assert_eq!(a.scores["judge"], &Value::from("C"));
        assert_eq!(a.model, Some("m-meta"));
        assert_eq!(a.error, None);
        let b = &rows[1];
        assert_eq!((b.id, b.events, b.tool_calls, b.failures), ("b", 1, 0, 0));
        assert_eq!(b.error.as_deref(), Some("sandbox died"));
    }

    #[test]
    fn tokens_model_and_duration_come_from_the_events() {
        let text = r#"{"session_id": "s", "agent_name": "x", "events": [
{"event_type": "llm_call", "model": "small", "tokens_in": 1, "tokens_out": 1, "timestamp": "2025-01-01T00:00:00Z"},
{"event_type": "llm_call", "model": "big", "tokens_in": 10, "tokens_out": 5, "timestamp": "2025-01-01T00:00:02.5Z"}
]}"#;
        let t = parse(text);
        let rows = run_rows(&t);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].tokens, 17);
        assert_eq!(rows[0].model, Some("big"));
        assert_eq!(rows[0].duration_seconds, Some(2.5));
    }

    #[test]
    fn limits_read_as_errors() {
        let mut m = Metadata::new();
        m.insert("limit".to_string(), serde_json::json!({"type": "token", "limit": 100}));
        assert_eq!(error(&m).as_deref(), Some("token limit reached"));
    }
}
