//! Counts that summarise a trace: events by kind and role, tool calls per
//! tool with failures and latency, token usage, and the time each run spans.
//!
//! The one computation the CLI's `stats`, the wasm API's `trace.stats()` and
//! `trace.toolStats()`, and so the page, serialise: they cannot disagree.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use super::failures::{call_failed, event_failed};
use super::time::parse_instant;
use super::usage::UsageTotals;
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

/// Every count of the trace, in one pass over the events (a 250k-event
/// trace is read once, not once per count).
pub fn trace_stats(trace: &Trace) -> TraceStats {
    let mut s = TraceStats {
        format: trace.format,
        events: trace.events.len(),
        runs: trace.runs.len(),
        errors: trace.diagnostics.iter().filter(|d| d.severity == Severity::Error).count(),
        warnings: trace.diagnostics.iter().filter(|d| d.severity == Severity::Warning).count(),
        ..TraceStats::default()
    };
    let mut tools = ToolTally::default();
    let mut times: Vec<(Option<&str>, Option<&str>)> = vec![(None, None); trace.runs.len()];
    for (i, e) in trace.events.iter().enumerate() {
        *s.by_kind.entry(e.body.kind()).or_insert(0) += 1;
        // Looked up by `&str`: a role is allocated once, not once per event.
        match e.role().map(|r| (r, s.by_role.get_mut(r))) {
            Some((_, Some(n))) => *n += 1,
            Some((r, None)) => drop(s.by_role.insert(r.to_string(), 1)),
            None => {}
        }
        match &e.body {
            EventBody::Message(m) => {
                s.tool_calls += m.tool_calls.len();
                m.tool_calls.iter().for_each(|c| tools.record(trace, i, e, c));
            }
            EventBody::ToolCall(c) => {
                s.tool_calls += 1;
                tools.record(trace, i, e, c);
            }
            EventBody::ToolResult(r) if r.call.is_some() => s.linked_results += 1,
            EventBody::ToolResult(_) => {
                s.unlinked_results.results += 1;
                s.unlinked_results.failures += u32::from(event_failed(e));
            }
            _ => {}
        }
        s.usage.add_event(e);
        if let (Some(ts), Some(slot)) = (e.timestamp.as_deref(), times.get_mut(e.run as usize)) {
            if slot.0.is_none() {
                slot.0 = Some(ts);
            }
            slot.1 = Some(ts);
        }
    }
    s.tools = tools.finish();
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

pub(super) fn seconds_between(a: super::time::Instant, b: super::time::Instant) -> f64 {
    (b.unix_seconds() - a.unix_seconds()) as f64 + (f64::from(b.subsec_nanos()) - f64::from(a.subsec_nanos())) / 1e9
}

/// Per-tool counts, most-called first (ties by name): [`TraceStats::tools`]
/// without the rest.
pub fn tool_stats(trace: &Trace) -> Vec<ToolStat> {
    let mut tools = ToolTally::default();
    for (i, e) in trace.events.iter().enumerate() {
        match &e.body {
            EventBody::Message(m) => m.tool_calls.iter().for_each(|c| tools.record(trace, i, e, c)),
            EventBody::ToolCall(c) => tools.record(trace, i, e, c),
            _ => {}
        }
    }
    tools.finish()
}

/// The per-tool counts as calls are met.
#[derive(Default)]
struct ToolTally<'t> {
    by_tool: HashMap<&'t str, ToolStat>,
}

impl<'t> ToolTally<'t> {
    /// Counts call `c`, made by event `e` (index `i`).
    fn record(&mut self, trace: &Trace, i: usize, e: &Event, c: &'t ToolCall) {
        let s = self.by_tool.entry(c.function.as_str()).or_insert_with(|| ToolStat {
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
    }

    fn finish(self) -> Vec<ToolStat> {
        let mut out: Vec<ToolStat> = self.by_tool.into_values().collect();
        crate::sort::by(&mut out, |a, b| b.calls.cmp(&a.calls).then_with(|| a.tool.cmp(&b.tool)));
        out
    }
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
        assert_eq!((s.tool_calls, s.linked_results), (t.tool_call_count(), t.linked_result_count()));
        assert_eq!(s.usage, crate::analysis::usage::totals(&t, None));
        assert_eq!((s.by_role["tool"], s.by_role["assistant"]), (3, 2));
        assert_eq!(s.run_times[0].duration_seconds, Some(5.5));
    }
}
