//! Counts that summarise a trace: events by kind and role, tool calls per
//! tool with failures and latency, token usage, and the time each run spans.
//!
//! The one computation the CLI's `stats`, the wasm API's `trace.stats()` and
//! `trace.toolStats()`, and so the page, serialise: they cannot disagree.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use super::failures::{call_failed, event_failed};
use super::time::parse_instant;
use super::usage::{totals, UsageTotals};
use crate::diagnostic::Severity;
use crate::model::{Event, EventBody, ToolCall, Trace};

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TraceStats {
    pub format: &'static str,
    pub events: usize,
    pub runs: usize,
    pub tool_calls: usize,
    pub linked_results: usize,
    pub errors: usize,
    pub warnings: usize,
    pub by_kind: BTreeMap<&'static str, u32>,
    pub by_role: BTreeMap<String, u32>,
    /// Per tool, most-called first ([`tool_stats`]).
    pub tools: Vec<ToolStat>,
    /// Tool results that answer no call of the trace.
    pub unlinked_results: UnlinkedResults,
    pub usage: UsageTotals,
    /// First and last timestamp of each run that has one, as written, with
    /// the time between them when both are times ([`parse_instant`]).
    pub run_times: Vec<RunTime>,
}

/// Calls, results, failures and latency of one tool.
#[derive(Debug, Default, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolStat {
    pub tool: String,
    pub calls: u32,
    /// Calls with a linked result.
    pub answered: u32,
    /// Calls without one.
    pub unanswered: u32,
    /// Calls that failed, by the trace's own word ([`super::failures`]).
    pub failures: u32,
    /// Index of the first event calling the tool.
    pub first_event: u32,
    /// Sum of the durations recorded on the calls (or their results), and
    /// how many calls had one.
    pub duration_ms_total: f64,
    pub durations: u32,
}

/// Tool results linked to no call (no id, or an id no call has).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UnlinkedResults {
    pub results: u32,
    pub failures: u32,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunTime {
    pub run: usize,
    pub first: Option<String>,
    pub last: Option<String>,
    pub duration_seconds: Option<f64>,
}

/// Every count of the trace.
pub fn trace_stats(trace: &Trace) -> TraceStats {
    let mut s = TraceStats {
        format: trace.format,
        events: trace.events.len(),
        runs: trace.runs.len(),
        tool_calls: trace.tool_call_count(),
        linked_results: trace.linked_result_count(),
        errors: trace.diagnostics.iter().filter(|d| d.severity == Severity::Error).count(),
        warnings: trace.diagnostics.iter().filter(|d| d.severity == Severity::Warning).count(),
        tools: tool_stats(trace),
        unlinked_results: unlinked_results(trace),
        usage: totals(trace, None),
        ..TraceStats::default()
    };
    let mut times: Vec<(Option<&str>, Option<&str>)> = vec![(None, None); trace.runs.len()];
    for e in &trace.events {
        *s.by_kind.entry(e.body.kind()).or_insert(0) += 1;
        if let Some(role) = e.role() {
            *s.by_role.entry(role.to_string()).or_insert(0) += 1;
        }
        if let (Some(ts), Some(slot)) = (e.timestamp.as_deref(), times.get_mut(e.run as usize)) {
            if slot.0.is_none() {
                slot.0 = Some(ts);
            }
            slot.1 = Some(ts);
        }
    }
    s.run_times = times
        .into_iter()
        .enumerate()
        .filter(|(_, (first, _))| first.is_some())
        .map(|(run, (first, last))| RunTime {
            run,
            first: first.map(str::to_string),
            last: last.map(str::to_string),
            duration_seconds: match (first.and_then(parse_instant), last.and_then(parse_instant)) {
                (Some(a), Some(b)) => Some(seconds_between(a, b)),
                _ => None,
            },
        })
        .collect();
    s
}

fn seconds_between(a: super::time::Instant, b: super::time::Instant) -> f64 {
    (b.unix_seconds() - a.unix_seconds()) as f64 + (f64::from(b.subsec_nanos()) - f64::from(a.subsec_nanos())) / 1e9
}

/// Per-tool counts, most-called first (ties by name).
pub fn tool_stats<'t>(trace: &'t Trace) -> Vec<ToolStat> {
    let mut by_tool: HashMap<&str, ToolStat> = HashMap::new();
    let mut record = |i: usize, e: &Event, c: &'t ToolCall| {
        let s = by_tool.entry(c.function.as_str()).or_insert_with(|| ToolStat {
            tool: c.function.clone(),
            first_event: crate::source::clamp_u32(i),
            ..ToolStat::default()
        });
        s.calls += 1;
        let result = c.result.and_then(|r| trace.events.get(r as usize));
        if result.is_some() {
            s.answered += 1;
        } else {
            s.unanswered += 1;
        }
        if call_failed(trace, e, c) {
            s.failures += 1;
        }
        // The call record's own duration (a standalone call), else its result's.
        let own = matches!(e.body, EventBody::ToolCall(_)).then(|| e.facts().duration_ms).flatten();
        if let Some(d) = own.or_else(|| result.and_then(|r| r.facts().duration_ms)).filter(|d| d.is_finite()) {
            s.duration_ms_total += d;
            s.durations += 1;
        }
    };
    for (i, e) in trace.events.iter().enumerate() {
        match &e.body {
            EventBody::Message(m) => m.tool_calls.iter().for_each(|c| record(i, e, c)),
            EventBody::ToolCall(c) => record(i, e, c),
            _ => {}
        }
    }
    let mut out: Vec<ToolStat> = by_tool.into_values().collect();
    crate::sort::by(&mut out, |a, b| b.calls.cmp(&a.calls).then_with(|| a.tool.cmp(&b.tool)));
    out
}

fn unlinked_results(trace: &Trace) -> UnlinkedResults {
    let mut out = UnlinkedResults::default();
    for e in &trace.events {
        if matches!(&e.body, EventBody::ToolResult(r) if r.call.is_none()) {
            out.results += 1;
            out.failures += u32::from(event_failed(e));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRACE: &str = r#"[
{"role": "user", "content": "go", "timestamp": "2024-10-11T20:58:24.5-01:00"},
{"role": "assistant", "content": "", "tool_calls": [{"id": "a", "type": "function", "function": {"name": "ls", "arguments": "{}"}}, {"id": "b", "type": "function", "function": {"name": "cat", "arguments": "{\"f\": 1}"}}]},
{"role": "tool", "tool_call_id": "a", "content": "x y"},
{"role": "tool", "tool_call_id": "b", "content": "no such file", "error": "ENOENT"},
{"role": "tool", "tool_call_id": "zz", "content": "lost", "error": "E"},
{"role": "assistant", "content": "", "tool_calls": [{"id": "c", "type": "function", "function": {"name": "ls", "arguments": "{}"}}], "timestamp": "2024-10-11T21:58:30Z"}
]"#;

    #[test]
    fn tools_failures_unlinked_results_and_run_time() {
        let t = crate::parse_trace(TRACE.as_bytes().to_vec(), &crate::ParseOptions::default()).unwrap();
        let s = trace_stats(&t);
        let shape: Vec<(&str, u32, u32, u32, u32, u32)> =
            s.tools.iter().map(|t| (t.tool.as_str(), t.calls, t.answered, t.unanswered, t.failures, t.first_event)).collect();
        assert_eq!(shape, vec![("ls", 2, 1, 1, 0, 1), ("cat", 1, 1, 0, 1, 1)]);
        assert_eq!(s.unlinked_results, UnlinkedResults { results: 1, failures: 1 });
        assert_eq!(s.tools, tool_stats(&t));
        assert_eq!((s.by_role["tool"], s.by_role["assistant"]), (3, 2));
        assert_eq!(s.run_times[0].duration_seconds, Some(5.5));
    }
}
