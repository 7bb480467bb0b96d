//! The `langsmith` format (LangSmith ingest payloads, run trees, run lists).
//!
//! Goldens: tests/golden/langsmith/oracle.json, written by
//! scripts/oracle/langsmith/generate.py — the verdict of langsmith 0.15.1's
//! `schemas.Run` per run (a patch laid over its post), and counts computed
//! in Python for every fixture and corpus file.

mod common;

use agent_trace_viewer::analysis::usage::totals;
use agent_trace_viewer::diagnostic::{Diagnostic, Severity};
use agent_trace_viewer::integrity::LEFTOVER_RUN_ID;
use agent_trace_viewer::model::{Event, EventBody, SpanPhase, ToolStatus, Trace};
use common::{fixture, golden_input, parse, path_inside};
use serde_json::Value;

/// The Error diagnostics of one run: inside its post (or its patch), on its
/// line for JSON Lines, not inside one of its child runs.
fn run_errors<'t>(t: &'t Trace, o: &Value, all: &[Value]) -> Vec<&'t Diagnostic> {
    let paths: Vec<&str> = [o.get("path"), o.get("patch_path")].into_iter().flatten().filter_map(Value::as_str).collect();
    let line = o.get("line").and_then(Value::as_u64);
    let nested: Vec<&str> = all.iter().filter_map(|x| x["path"].as_str()).filter(|p| !paths.contains(p) && paths.iter().any(|mine| path_inside(p, mine))).collect();
    t.diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .filter(|d| line.is_none_or(|l| u64::from(d.line) == l))
        .filter(|d| paths.iter().any(|p| path_inside(&d.path, p)) && !nested.iter().any(|n| path_inside(&d.path, n)))
        .collect()
}

#[test]
fn verdicts_agree_with_the_langsmith_run_schema_run_by_run() {
    let g = common::golden_json("langsmith/oracle.json");
    let (mut compared, mut rejected) = (0, 0);
    for (key, file) in g["files"].as_object().unwrap() {
        let t = parse(&golden_input("langsmith", "langsmith", key));
        assert_eq!(t.format, "langsmith", "{key}");
        let objects = file["objects"].as_array().unwrap();
        for o in objects {
            let errs = run_errors(&t, o, objects);
            let accepted = o["accepted"].as_bool().unwrap();
            assert_eq!(errs.is_empty(), accepted, "{key} {}: langsmith accepted={accepted} ({}); ours {errs:?}", o["path"], o["error"]);
            compared += 1;
            rejected += usize::from(!accepted);
        }
    }
    assert!(compared >= 25 && rejected >= 10, "{compared} runs compared, {rejected} rejected");
}

#[derive(Debug, PartialEq)]
struct Counts {
    traces: usize,
    runs: usize,
    by_type: std::collections::BTreeMap<String, usize>,
    parent_links: usize,
    errors: usize,
    usage: (u64, u64, u64),
    /// `llm` runs reporting a cost, and its total (1e-12 USD).
    cost: (u64, i64),
}

fn is_run(e: &Event) -> bool {
    matches!(&e.body, EventBody::Span(s) if s.phase == SpanPhase::Begin)
}

fn counts(t: &Trace) -> Counts {
    let runs: Vec<&Event> = t.events.iter().filter(|e| is_run(e)).collect();
    let mut by_type = std::collections::BTreeMap::new();
    for e in &runs {
        *by_type.entry(e.metadata.get("run_type").and_then(Value::as_str).unwrap_or("None").to_string()).or_insert(0) += 1;
    }
    let u = totals(t, None).total;
    Counts {
        traces: t.runs.iter().filter(|r| r.id != LEFTOVER_RUN_ID).count(),
        runs: runs.len(),
        by_type,
        parent_links: runs.iter().filter(|e| e.span.as_ref().is_some_and(|p| p.len() > 1)).count(),
        errors: runs.iter().filter(|e| e.failed).count(),
        usage: (u.input_tokens, u.output_tokens, u.total_tokens),
        cost: common::cost_counts(t, None),
    }
}

#[test]
fn counts_agree_with_the_oracle_for_fixtures_and_corpus() {
    let g = common::golden_json("langsmith/oracle.json");
    let mut corpus = 0;
    for (key, file) in g["files"].as_object().unwrap() {
        let t = parse(&golden_input("langsmith", "langsmith", key));
        let c = &file["counts"];
        let n = |k: &str| c[k].as_u64().unwrap() as usize;
        let want = Counts {
            traces: n("traces"),
            runs: n("runs"),
            by_type: c["by_type"].as_object().unwrap().iter().map(|(k, v)| (k.clone(), v.as_u64().unwrap() as usize)).collect(),
            parent_links: n("parent_links"),
            errors: n("errors"),
            usage: (c["usage"]["input"].as_u64().unwrap(), c["usage"]["output"].as_u64().unwrap(), c["usage"]["total"].as_u64().unwrap()),
            cost: (c["cost"]["events"].as_u64().unwrap(), common::picodollars(c["cost"]["total"].as_f64().unwrap())),
        };
        assert_eq!(counts(&t), want, "{key}");
        corpus += usize::from(key.starts_with("corpus/"));
    }
    assert_eq!(corpus, common::corpus_files("langsmith").len(), "every corpus file has a golden");
}

fn messages(t: &Trace) -> Vec<(String, String)> {
    common::messages_of(&t.events)
}

fn results(t: &Trace) -> Vec<(ToolStatus, bool)> {
    t.events
        .iter()
        .filter_map(|e| match &e.body {
            EventBody::ToolResult(r) => Some((r.status, e.failed)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_run_tree_nests_and_shows_each_message_once() {
    let t = parse(&fixture("langsmith/run-tree.json"));
    let roles: Vec<String> = messages(&t).into_iter().map(|(r, _)| r).collect();
    assert_eq!(roles, ["system", "user", "assistant", "assistant"]);
    assert_eq!((t.tool_call_count(), t.linked_result_count()), (2, 2));
    assert_eq!(results(&t), [(ToolStatus::Success, false), (ToolStatus::Error, true)]);
    let emb = t.events.iter().find(|e| is_run(e) && e.metadata.get("name").and_then(Value::as_str) == Some("OpenAIEmbeddings")).unwrap();
    assert_eq!(emb.span.as_deref().unwrap(), ["AgentExecutor", "search_docs", "VectorStoreRetriever", "OpenAIEmbeddings"]);
    // Run events other than streamed tokens are markers.
    let markers = t.events.iter().filter(|e| matches!(e.body, EventBody::Marker(_))).count();
    assert_eq!(markers, 4);
}

#[test]
fn a_run_list_sorts_by_dotted_order_and_links_tools_by_name() {
    let t = parse(&fixture("langsmith/runs.jsonl"));
    let names: Vec<&str> = t.events.iter().filter(|e| is_run(e)).map(|e| e.metadata["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["weather-agent", "openai.chat.completions.create", "get_weather", "openai.chat.completions.create", "completion"]);
    assert_eq!((t.tool_call_count(), t.linked_result_count()), (1, 1));
    let texts: Vec<String> = messages(&t).into_iter().map(|(_, s)| s).collect();
    assert_eq!(texts, ["Be brief.", "Weather in Oslo?", "", "Rain, 8°C.", "Complete: the sky is", " blue."]);
    // Epoch milliseconds are shown as RFC 3339.
    assert_eq!(t.events[0].timestamp.as_deref(), Some("2026-01-02T10:00:00.000Z"));
}

#[test]
fn a_payload_merges_patches_into_their_posts() {
    let t = parse(&fixture("langsmith/payload.json"));
    let root = t.events.iter().find(|e| is_run(e)).unwrap();
    assert!(root.failed);
    let llm = t.events.iter().find(|e| is_run(e) && e.metadata.get("name").and_then(Value::as_str) == Some("ChatAnthropic")).unwrap();
    let f = llm.facts.as_ref().unwrap();
    assert_eq!((f.model.as_deref(), f.usage.as_ref().map(|u| (u.input_tokens, u.cache_read_input_tokens)), f.duration_ms), (Some("claude-sonnet-4"), Some((10, 3)), Some(1000.0)));
    // The Anthropic tool_use is answered by the lookup tool run (by name).
    assert_eq!((t.tool_call_count(), t.linked_result_count()), (1, 1));
    // The end event of a patched run points at its patch.
    let ends: Vec<&str> = t.events.iter().filter(|e| matches!(&e.body, EventBody::Span(s) if s.phase == SpanPhase::End)).map(|e| e.path.as_str()).collect();
    assert!(ends.contains(&"$.patch[0]") && ends.contains(&"$.patch[1]") && ends.contains(&"$.patch[2]"), "{ends:?}");
}

#[test]
fn corpus_files_are_langsmith() {
    for p in common::corpus_files("langsmith") {
        let t = parse(&std::fs::read(&p).unwrap());
        assert_eq!(t.format, "langsmith", "{}", p.display());
        assert!(t.diagnostics.is_empty(), "{}: {:?}", p.display(), t.diagnostics);
        assert_eq!(messages(&t).len(), 2, "{}", p.display());
    }
}

#[test]
fn detection_names_its_evidence() {
    let t = parse(&fixture("langsmith/payload.json"));
    assert!(t.detection.evidence.iter().any(|e| e.contains("ingest payloads")), "{:?}", t.detection.evidence);
    let t = parse(&fixture("langsmith/runs.jsonl"));
    assert!(t.detection.evidence.iter().any(|e| e.contains("5 of 5 sampled records are LangSmith runs")), "{:?}", t.detection.evidence);
    assert_eq!(parse(&fixture("langfuse/observations.jsonl")).format, "langfuse");
}
