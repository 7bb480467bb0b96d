//! The span chart's bars (`analysis::span_bars`) on every sample and corpus
//! file: runs with spans are drawn from their spans, runs without from their
//! tool calls, each call's bar from its own time to its result's (or the
//! duration a record gives), and calls sharing a lane never overlap.

mod common;

use std::path::PathBuf;

use agent_trace_viewer::analysis::span_bars::{span_bars, BarKind};
use agent_trace_viewer::analysis::time::parse_instant;
use agent_trace_viewer::model::{EventBody, Trace};
use agent_trace_viewer::{parse_trace, ParseOptions};

fn millis(t: &Trace, event: usize) -> Option<f64> {
    t.events[event].timestamp.as_deref().and_then(parse_instant).map(|i| i.millis())
}

/// Checks the bars of one trace; returns how many call bars it has.
fn check(name: &str, t: &Trace) -> usize {
    let bars = span_bars(t);
    let mut has_spans = vec![false; t.runs.len()];
    for e in &t.events {
        if matches!(e.body, EventBody::Span(_)) {
            has_spans[e.run as usize] = true;
        }
    }
    // The calls of span-less runs, counted here independently of the bars.
    let mut calls = 0;
    for e in t.events.iter().filter(|e| !has_spans[e.run as usize] && t.counts(e)) {
        calls += match &e.body {
            EventBody::Message(m) => m.tool_calls.len(),
            EventBody::ToolCall(_) => 1,
            _ => 0,
        };
    }
    let n = bars.start.len();
    let call_bars: Vec<usize> = (0..n).filter(|&i| bars.kind[i] == BarKind::Call).collect();
    let mut lanes: std::collections::BTreeMap<(u32, u32), Vec<(f64, f64)>> = Default::default();
    for &i in &call_bars {
        let run = bars.run[i] as usize;
        assert!(!has_spans[run], "{name}: a call bar in run {run}, which has spans");
        assert_eq!(bars.node[i], None, "{name}");
        let e = bars.event[i] as usize;
        let start = millis(t, e).expect("a drawn call has a time");
        assert_eq!(bars.start[i] + bars.origin_ms, start, "{name}: bar {i} starts at its call");
        assert!(bars.duration[i] >= 0.0);
        lanes.entry((bars.run[i], bars.depth[i])).or_default().push((bars.start[i], bars.start[i] + bars.duration[i]));
    }
    for (lane, mut spans) in lanes {
        spans.sort_by(|a, b| a.0.total_cmp(&b.0));
        for w in spans.windows(2) {
            assert!(w[0].1 <= w[1].0, "{name}: calls overlap in lane {lane:?}: {w:?}");
        }
    }
    for i in (0..n).filter(|&i| bars.kind[i] == BarKind::Span) {
        assert!(has_spans[bars.run[i] as usize], "{name}: a span bar in a run without span events");
        assert!(bars.node[i].is_some(), "{name}");
    }
    let untimed_calls = calls - call_bars.len();
    assert!(bars.untimed as usize >= untimed_calls, "{name}: {calls} calls, {} drawn, {} untimed", call_bars.len(), bars.untimed);
    call_bars.len()
}

#[test]
fn bars_follow_the_rules_on_every_sample_and_corpus_file() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = common::files_under(&root.join("www/samples"));
    files.extend(common::files_under(&common::corpus_dir()));
    files.retain(|p| p.file_name().is_some_and(|n| n != "index.json") && p.extension().is_some_and(|x| x != "md"));
    let (mut parsed, mut with_calls) = (0, 0);
    for f in &files {
        let Ok(t) = parse_trace(std::fs::read(f).unwrap(), &ParseOptions::default()) else { continue };
        parsed += 1;
        with_calls += usize::from(check(&f.display().to_string(), &t) > 0);
    }
    assert!(parsed > 40, "only {parsed} files parsed");
    assert!(with_calls >= 5, "only {with_calls} files have call bars");
}

#[test]
fn a_claude_code_session_is_drawn_from_its_calls_with_their_result_times() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let t = parse_trace(std::fs::read(root.join("www/samples/claude-code-session.jsonl")).unwrap(), &ParseOptions::default()).unwrap();
    let bars = span_bars(&t);
    assert!(!bars.start.is_empty() && bars.kind.iter().all(|k| *k == BarKind::Call));
    for i in 0..bars.start.len() {
        let e = bars.event[i] as usize;
        let EventBody::Message(m) = &t.events[e].body else { panic!("a call bar's event makes the call") };
        let call = m.tool_calls.iter().find(|c| c.function == bars.name[i]).expect("the bar names its tool");
        if let Some(r) = call.result {
            let want = millis(&t, r as usize).unwrap() - millis(&t, e).unwrap();
            let given = t.events[r as usize].facts().duration_ms;
            assert_eq!(bars.duration[i], given.unwrap_or(want).max(0.0), "bar {i} ({})", bars.name[i]);
        }
    }
    // The Task call that ran a sub-agent is drawn, and failed calls are marked.
    assert!(bars.name.iter().any(|n| n == "Task"));
    assert!(bars.failed.iter().any(|f| *f));
}
