//! Spans as bars on a time axis: what the span chart draws.
//!
//! One bar per opening of a span ([`super::spans`]' occurrences): it starts
//! at its begin record's time and ends at its end record's, or lasts the
//! duration the begin record gives when no end has a time. A run with no
//! spans (a Claude Code, Codex or Gemini CLI session, a chat log) is drawn
//! from its tool calls instead: a bar from the call's time to its result's,
//! or the duration either record gives, packed into as few lanes as overlap
//! needs. Columns, not objects, so that 100,000 spans cross to JavaScript as
//! a few arrays. Spans and calls with no time at all are counted, not drawn.

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};

use serde::Serialize;

use super::failures::{call_failed, event_failed};
use super::spans::span_tree;
use super::time::parse_instant;
use crate::model::{Event, EventBody, ToolCall, Trace};

/// Milliseconds, ordered (bar times are finite: they come from parsed instants).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Ms(f64);

impl Eq for Ms {}

impl PartialOrd for Ms {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ms {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// What a bar stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BarKind {
    /// An opening of a span.
    Span,
    /// A tool call, in a run without spans: from the call to its result.
    Call,
}

/// The bars of a trace, in order of their start.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SpanBars {
    /// Milliseconds since the Unix epoch of the earliest start (0 when there is no bar).
    pub origin_ms: f64,
    /// Start of each bar, in milliseconds after `origin_ms`.
    pub start: Vec<f64>,
    /// Length of each bar in milliseconds (0: an instant, or an end with no time).
    pub duration: Vec<f64>,
    /// Nesting depth (0: a root span).
    pub depth: Vec<u32>,
    pub run: Vec<u32>,
    pub kind: Vec<BarKind>,
    /// A span's node in `trace.spanTree()` (its name, path and events); null for a call.
    pub node: Vec<Option<u32>>,
    /// The event that opened the span, or that made the call.
    pub event: Vec<u32>,
    /// The begin or end record says the span failed (an error status); the call failed.
    pub failed: Vec<bool>,
    /// The span's name (the last step of its path), or the tool's.
    pub name: Vec<String>,
    /// Each node's path (`agent/task`, as the `span:` query takes it), by node index.
    pub node_paths: Vec<String>,
    /// Span occurrences and calls with no time on either record: left out.
    pub untimed: u32,
}

/// One bar before the columns are filled.
struct Bar<'t> {
    start: f64,
    duration: f64,
    depth: u32,
    run: u32,
    kind: BarKind,
    node: Option<u32>,
    event: u32,
    failed: bool,
    name: &'t str,
}

fn millis(e: &Event) -> Option<f64> {
    e.timestamp.as_deref().and_then(parse_instant).map(|i| i.millis())
}

/// The bars of every span of the trace.
pub fn span_bars(trace: &Trace) -> SpanBars {
    let tree = span_tree(trace);
    let event = |i: Option<u32>| i.and_then(|i| trace.events.get(i as usize));
    let mut bars: Vec<Bar> = Vec::new();
    let mut untimed = 0;
    for (n, node) in tree.nodes.iter().enumerate() {
        for occ in &node.occurrences {
            let (begin, end) = (event(occ.begin), event(occ.end));
            let start = begin.and_then(millis).or_else(|| end.and_then(millis));
            let Some(start) = start else {
                untimed += 1;
                continue;
            };
            let stop = end.and_then(millis).or_else(|| {
                let facts = begin.or(end).and_then(|e| e.facts.as_deref());
                facts.and_then(|f| f.duration_ms).map(|d| start + d)
            });
            let duration = stop.map_or(0.0, |s| (s - start).max(0.0));
            let failed = begin.is_some_and(event_failed) || end.is_some_and(event_failed);
            let opened = occ.begin.or(occ.end).unwrap_or(0);
            bars.push(Bar { start, duration, depth: node.depth, run: node.run, kind: BarKind::Span, node: Some(crate::source::clamp_u32(n)), event: opened, failed, name: &node.name });
        }
    }
    untimed += call_bars(trace, &mut bars);
    bars.sort_by(|a, b| a.start.total_cmp(&b.start).then(a.depth.cmp(&b.depth)));
    let origin = bars.first().map_or(0.0, |b| b.start);
    let node_paths = (0..tree.nodes.len()).map(|n| tree.path(n).join("/")).collect();
    let mut out = SpanBars { origin_ms: origin, untimed, node_paths, ..SpanBars::default() };
    for b in bars {
        out.start.push(b.start - origin);
        out.duration.push(b.duration);
        out.depth.push(b.depth);
        out.run.push(b.run);
        out.kind.push(b.kind);
        out.node.push(b.node);
        out.event.push(b.event);
        out.failed.push(b.failed);
        out.name.push(b.name.to_string());
    }
    out
}

/// The tool calls of the runs that have no span, as bars (returns how many
/// had no time). Lanes: each call takes the first lane free at its start.
fn call_bars<'t>(trace: &'t Trace, bars: &mut Vec<Bar<'t>>) -> u32 {
    let mut spans = vec![false; trace.runs.len()];
    for e in &trace.events {
        if matches!(e.body, EventBody::Span(_)) {
            if let Some(s) = spans.get_mut(e.run as usize) {
                *s = true;
            }
        }
    }
    let mut untimed = 0;
    let mut calls: Vec<Bar<'t>> = Vec::new();
    for (index, e) in trace.events.iter().enumerate() {
        if spans.get(e.run as usize).copied().unwrap_or(true) || !trace.counts(e) {
            continue;
        }
        let made: &[ToolCall] = match &e.body {
            EventBody::Message(m) => &m.tool_calls,
            EventBody::ToolCall(c) => std::slice::from_ref(c),
            _ => continue,
        };
        for c in made {
            let Some(start) = millis(e) else {
                untimed += 1;
                continue;
            };
            let result = c.result.and_then(|r| trace.events.get(r as usize));
            let own = matches!(e.body, EventBody::ToolCall(_)).then(|| e.facts().duration_ms).flatten();
            let given = own.or_else(|| result.and_then(|r| r.facts().duration_ms)).filter(|d| d.is_finite());
            let duration = given.or_else(|| result.and_then(millis).map(|end| end - start)).map_or(0.0, |d| d.max(0.0));
            let failed = call_failed(trace, e, c);
            calls.push(Bar { start, duration, depth: 0, run: e.run, kind: BarKind::Call, node: None, event: crate::source::clamp_u32(index), failed, name: &c.function });
        }
    }
    // Lanes per run: a call takes the lowest lane whose bars have ended
    // (a heap of lane ends and a set of free lanes: n log n, however many overlap).
    calls.sort_by(|a, b| a.run.cmp(&b.run).then(a.start.total_cmp(&b.start)));
    let mut busy: BinaryHeap<Reverse<(Ms, u32)>> = BinaryHeap::new();
    let mut free: BTreeSet<u32> = BTreeSet::new();
    let mut lanes = 0u32;
    let mut run = None;
    for mut bar in calls {
        if run != Some(bar.run) {
            (busy, free, lanes, run) = (BinaryHeap::new(), BTreeSet::new(), 0, Some(bar.run));
        }
        while let Some(Reverse((end, lane))) = busy.peek().copied() {
            if end.0 > bar.start {
                break;
            }
            busy.pop();
            free.insert(lane);
        }
        let lane = free.pop_first().unwrap_or_else(|| {
            lanes += 1;
            lanes - 1
        });
        busy.push(Reverse((Ms(bar.start + bar.duration), lane)));
        bar.depth = lane;
        bars.push(bar);
    }
    untimed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_from_begin_and_end_times_nested_and_failed() {
        // Agent Catalog records: a root span with a child that fails, and a span with no time.
        let rec = |span: &[&str], kind: &str, ts: Option<&str>, extra: &str| {
            let ts = ts.map(|t| format!(r#""timestamp": "{t}", "#)).unwrap_or_default();
            format!(r#"{{{ts}"span": {{"name": {}, "session": "s"}}, "content": {{"kind": "{kind}"{extra}}}, "identifier": "i", "catalog_version": {{"identifier": "c", "timestamp": "2025-01-01T00:00:00Z"}}}}"#, serde_json::to_string(span).unwrap())
        };
        let lines = [
            rec(&["a"], "begin", Some("2025-01-01T00:00:00Z"), ""),
            rec(&["a", "b"], "begin", Some("2025-01-01T00:00:01Z"), ""),
            rec(&["a", "b"], "end", Some("2025-01-01T00:00:03.5Z"), ""),
            rec(&["a"], "end", Some("2025-01-01T00:00:04Z"), ""),
        ];
        let text = lines.join("\n");
        let t = crate::parse_trace(text.into_bytes(), &crate::ParseOptions::default()).unwrap();
        assert_eq!(t.events.len(), 4, "{:?}", t.diagnostics);
        let bars = span_bars(&t);
        assert_eq!(bars.name, ["a", "b"]);
        assert_eq!(bars.start, [0.0, 1000.0]);
        assert_eq!(bars.duration, [4000.0, 2500.0]);
        assert_eq!(bars.depth, [0, 1]);
        assert_eq!(bars.untimed, 0);
        assert_eq!(bars.node_paths, ["a", "a/b"]);
        assert!(bars.origin_ms > 1.7e12);
    }
}
