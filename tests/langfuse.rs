//! The `langfuse` format (Langfuse UI exports, API traces, observations).
//!
//! Goldens: tests/golden/langfuse/oracle.json, written by
//! scripts/oracle/langfuse/generate.py — the verdict of langfuse 4.18.0's
//! API models (`Trace`, `TraceWithFullDetails`, `ObservationsView`,
//! `ScoreV1`) per object, and counts computed in Python for every fixture
//! and corpus file.

mod common;

use agent_trace_viewer::analysis::usage::totals;
use agent_trace_viewer::diagnostic::{Diagnostic, Severity};
use agent_trace_viewer::integrity::LEFTOVER_RUN_ID;
use agent_trace_viewer::model::{EventBody, SpanPhase, ToolStatus, Trace};
use common::{fixture, golden_input, parse, path_inside};
use serde_json::Value;

/// The Error diagnostics of one object: inside its path (on its line, for
/// JSON Lines), not inside another object of the golden nested in it (a
/// trace holds its observations and scores).
fn object_errors<'t>(t: &'t Trace, o: &Value, all: &[Value]) -> Vec<&'t Diagnostic> {
    let path = o["path"].as_str().unwrap();
    let line = o.get("line").and_then(Value::as_u64);
    let nested: Vec<&str> = all.iter().map(|x| x["path"].as_str().unwrap()).filter(|p| *p != path && path_inside(p, path)).collect();
    t.diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .filter(|d| line.is_none_or(|l| u64::from(d.line) == l))
        .filter(|d| path_inside(&d.path, path) && !nested.iter().any(|n| path_inside(&d.path, n)))
        .collect()
}

#[test]
fn verdicts_agree_with_the_langfuse_models_object_by_object() {
    let g = common::golden_json("langfuse/oracle.json");
    let (mut compared, mut rejected) = (0, 0);
    for (key, file) in g["files"].as_object().unwrap() {
        let t = parse(&golden_input("langfuse", "langfuse", key));
        assert_eq!(t.format, "langfuse", "{key}");
        let objects = file["objects"].as_array().unwrap();
        for o in objects {
            let errs = object_errors(&t, o, objects);
            let accepted = o["accepted"].as_bool().unwrap();
            assert_eq!(errs.is_empty(), accepted, "{key} {} ({}): langfuse accepted={accepted} ({}); ours {errs:?}", o["path"], o["model"], o["error"]);
            compared += 1;
            rejected += usize::from(!accepted);
        }
    }
    assert!(compared >= 60 && rejected >= 9, "{compared} objects compared, {rejected} rejected");
}

#[derive(Debug, PartialEq)]
struct Counts {
    runs: usize,
    observations: usize,
    by_type: std::collections::BTreeMap<String, usize>,
    parent_links: usize,
    errors: usize,
    scores: usize,
    usage: (u64, u64, u64),
    /// Observations reporting a cost, and its total (1e-12 USD).
    cost: (u64, i64),
}

/// An observation's first event: a span's begin, or an `EVENT`'s marker.
fn is_observation(e: &agent_trace_viewer::model::Event) -> bool {
    match &e.body {
        EventBody::Span(s) => s.phase == SpanPhase::Begin,
        EventBody::Marker(_) => e.source_kind == "event",
        _ => false,
    }
}

fn counts(t: &Trace) -> Counts {
    let obs: Vec<_> = t.events.iter().filter(|e| is_observation(e)).collect();
    let mut by_type = std::collections::BTreeMap::new();
    for e in &obs {
        *by_type.entry(e.metadata.get("type").and_then(Value::as_str).unwrap_or("?").to_string()).or_insert(0) += 1;
    }
    let u = totals(t, None).total;
    Counts {
        runs: t.runs.iter().filter(|r| r.id != LEFTOVER_RUN_ID).count(),
        observations: obs.len(),
        by_type,
        parent_links: obs.iter().filter(|e| e.span.as_ref().is_some_and(|p| p.len() > 1)).count(),
        errors: obs.iter().filter(|e| e.failed).count(),
        scores: t.events.iter().filter(|e| e.source_kind == "score").count(),
        usage: (u.input_tokens, u.output_tokens, u.total_tokens),
        cost: common::cost_counts(t, None),
    }
}

#[test]
fn counts_agree_with_the_oracle_for_fixtures_and_corpus() {
    let g = common::golden_json("langfuse/oracle.json");
    let mut corpus = 0;
    for (key, file) in g["files"].as_object().unwrap() {
        let t = parse(&golden_input("langfuse", "langfuse", key));
        let c = &file["counts"];
        let n = |k: &str| c[k].as_u64().unwrap() as usize;
        let want = Counts {
            runs: n("runs"),
            observations: n("observations"),
            by_type: c["by_type"].as_object().unwrap().iter().map(|(k, v)| (k.clone(), v.as_u64().unwrap() as usize)).collect(),
            parent_links: n("parent_links"),
            errors: n("errors"),
            scores: n("scores"),
            usage: (c["usage"]["input"].as_u64().unwrap(), c["usage"]["output"].as_u64().unwrap(), c["usage"]["total"].as_u64().unwrap()),
            cost: (c["cost"]["events"].as_u64().unwrap(), common::picodollars(c["cost"]["total"].as_f64().unwrap())),
        };
        assert_eq!(counts(&t), want, "{key}");
        corpus += usize::from(key.starts_with("corpus/"));
    }
    assert_eq!(corpus, common::corpus_files("langfuse").len(), "every corpus file has a golden");
}

fn messages(t: &Trace) -> Vec<(String, String)> {
    common::messages_of(&t.events)
}

#[test]
fn generations_show_each_message_once_and_tools_answer_their_calls() {
    let t = parse(&fixture("langfuse/api-trace.json"));
    let roles: Vec<String> = messages(&t).into_iter().map(|(r, _)| r).collect();
    // system, user, the assistant's two calls; then (the tool results come
    // from the tool observations) the final answer.
    assert_eq!(roles, ["system", "user", "assistant", "assistant"]);
    assert_eq!((t.tool_call_count(), t.linked_result_count()), (2, 2));
    let results: Vec<(ToolStatus, bool)> = t.events.iter().filter_map(|e| match &e.body {
        EventBody::ToolResult(r) => Some((r.status, e.failed)),
        _ => None,
    }).collect();
    assert_eq!(results, [(ToolStatus::Success, false), (ToolStatus::Error, true)]);
    // Usage and model are typed on the generation's span.
    let gen = t.events.iter().find(|e| e.metadata.get("id").and_then(Value::as_str) == Some("o-gen1") && is_observation(e)).unwrap();
    let f = gen.facts.as_ref().unwrap();
    assert_eq!((f.model.as_deref(), f.usage.as_ref().map(|u| (u.input_tokens, u.cache_read_input_tokens)), f.duration_ms), (Some("gpt-4o"), Some((50, 10)), Some(1000.0)));
    // Spans nest: the embedding is inside the retriever inside the agent.
    let emb = t.events.iter().find(|e| e.metadata.get("id").and_then(Value::as_str) == Some("o-emb")).unwrap();
    assert_eq!(emb.span.as_deref().unwrap(), ["travel-agent", "reviews", "embed query"]);
}

#[test]
fn gemini_and_genai_parts_and_langchain_outputs_are_messages() {
    let t = parse(&fixture("langfuse/observations.jsonl"));
    assert_eq!(t.runs.len(), 2);
    let m = messages(&t);
    let texts: Vec<&str> = m.iter().map(|(_, s)| s.as_str()).collect();
    assert_eq!(texts, ["Say hello", "", "Hello!", "Be brief.", "2+2?", "4"]);
    // The Gemini function call is answered by the tool observation (by name),
    // and the function_response re-sent in the next input is not shown again.
    assert_eq!((t.tool_call_count(), t.linked_result_count()), (1, 1));
    let page = parse(&fixture("langfuse/observations-page.json"));
    assert_eq!(messages(&page), [("user".to_string(), "hi".to_string()), ("assistant".to_string(), "hello".to_string())]);
}

#[test]
fn ui_export_errors_are_failed_and_metadata_is_read() {
    let t = parse(&fixture("langfuse/ui-export-errors.json"));
    assert!(t.diagnostics.iter().all(|d| d.severity != Severity::Error), "{:?}", t.diagnostics);
    assert_eq!(t.runs[0].metadata["metadata"]["source"], "ui");
    let failed: Vec<&str> = t.events.iter().filter(|e| e.failed).map(|e| e.source_kind.as_str()).collect();
    assert_eq!(failed, ["observation", "tool result", "observation", "observation", "observation"]);
}

#[test]
fn corpus_files_are_langfuse() {
    for p in common::corpus_files("langfuse") {
        let t = parse(&std::fs::read(&p).unwrap());
        assert_eq!(t.format, "langfuse", "{}", p.display());
        assert!(t.diagnostics.iter().all(|d| d.severity != Severity::Error), "{}: {:?}", p.display(), t.diagnostics);
    }
}

#[test]
fn detection_names_its_evidence_and_leaves_other_span_formats_alone() {
    let t = parse(&fixture("langfuse/api-trace.json"));
    assert!(t.detection.evidence.iter().any(|e| e.contains("`observations`")), "{:?}", t.detection.evidence);
    let t = parse(&fixture("langfuse/observations.jsonl"));
    assert!(t.detection.evidence.iter().any(|e| e.contains("6 of 6 sampled records are Langfuse observations")), "{:?}", t.detection.evidence);
    // LangSmith runs and OTLP spans have trace ids and start times too.
    assert_eq!(parse(&fixture("langsmith/runs.jsonl")).format, "langsmith");
    assert_eq!(parse(&fixture("otel/spans.json")).format, "otel");
}
