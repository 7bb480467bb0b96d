//! The `codex` format (Codex CLI rollouts).
//!
//! Token totals are compared with ccusage's Codex report
//! (`@ccusage/codex` 18.0.11 `session --json --offline`) for every fixture
//! and corpus file (tests/golden/codex/ccusage.json, written by
//! scripts/oracle/codex/goldens.mjs); the other tests check the mapping of
//! each record type of codex-rs/protocol onto the shared model.

mod common;

use std::path::PathBuf;

use agent_trace_viewer::analysis::usage::totals;
use agent_trace_viewer::model::{Content, ContentPart, EventBody, ToolStatus, Trace, Usage};
use agent_trace_viewer::{parse_files, ParseOptions};
use common::{codes, corpus_files, fixture, parse};
use serde_json::Value;

const FULL: &str = "codex/rollout-2025-10-01T10-00-00-0199a213-81c0-7800-8aa1-bbab2a035a53.jsonl";
const CHILD: &str = "codex/rollout-2025-10-01T10-20-00-0199a214-0a11-7c30-9d3e-5f0c2b7e8a10.jsonl";
const LEGACY: &str = "codex/rollout-2025-09-02T08-00-00-0198f001-0000-7000-8000-000000000001.jsonl";

fn golden() -> Value {
    common::golden_json("codex/ccusage.json")
}

fn fixture_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/codex")
}

/// ccusage's counts as our Usage (its `inputTokens` include the cached ones, as ours do).
fn theirs(v: &Value) -> (f64, f64, f64, f64, f64) {
    let n = |k: &str| v[k].as_f64().unwrap();
    (n("inputTokens"), n("cachedInputTokens"), n("outputTokens"), n("reasoningOutputTokens"), n("totalTokens"))
}

fn ours(u: &Usage) -> (f64, f64, f64, f64, f64) {
    let f = |n: u64| n as f64;
    (f(u.input_tokens), f(u.cache_read_input_tokens), f(u.output_tokens), f(u.reasoning_output_tokens), f(u.total_tokens))
}

fn lines(bytes: &[u8]) -> usize {
    bytes.split(|b| *b == b'\n').filter(|l| !l.iter().all(u8::is_ascii_whitespace)).count()
}

#[test]
fn token_totals_equal_ccusage_for_every_file() {
    let g = golden();
    assert_eq!(g["tool"], "@ccusage/codex@18.0.11");
    let files = g["files"].as_object().unwrap();
    let mut inputs: Vec<(String, PathBuf)> = std::fs::read_dir(fixture_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .map(|p| (format!("fixtures/{}", p.file_name().unwrap().to_string_lossy()), p))
        .collect();
    inputs.extend(corpus_files("codex").into_iter().map(|p| (format!("corpus/{}", p.file_name().unwrap().to_string_lossy()), p)));
    assert_eq!(inputs.len(), files.len(), "every fixture and corpus file has a golden");
    let mut compared = 0;
    for (key, path) in inputs {
        let report = &files[&key];
        let t = parse(&std::fs::read(&path).unwrap());
        assert_eq!(t.format, "codex", "{key}");
        let got = totals(&t, None);
        if key.ends_with("invalid-token-counts.jsonl") {
            // The documented deviation: ccusage adds a float (7.5) and a
            // negative (-3) count; we count whole non-negative numbers only
            // and report the rest. Without that line, both count the same.
            assert_eq!(theirs(&report["totals"]), (300.0, 97.0, 27.5, 0.0, 327.5));
            assert_eq!(ours(&got.total), (300.0, 100.0, 20.0, 0.0, 320.0));
            assert_eq!(codes(&t), ["token-count-invalid"; 3]);
            continue;
        }
        let want = if report["totals"].is_null() { (0.0, 0.0, 0.0, 0.0, 0.0) } else { theirs(&report["totals"]) };
        assert_eq!(ours(&got.total), want, "{key}: our usage totals differ from ccusage's");
        // Per model, where the session names one (ccusage's fallback
        // `gpt-5` for sessions that name none is ours "").
        for s in report["sessions"].as_array().unwrap() {
            for (model, m) in s["models"].as_object().unwrap() {
                let name = if m["isFallback"] == true { "" } else { model.as_str() };
                assert_eq!(ours(&got.by_model[name]), theirs(m), "{key}: model {model}");
            }
        }
        compared += 1;
    }
    assert_eq!(compared, 5);
}

#[test]
fn every_line_is_one_event_and_detection_says_why() {
    for entry in std::fs::read_dir(fixture_dir()).unwrap() {
        let path = entry.unwrap().path();
        if !path.is_file() {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let t = parse(&bytes);
        assert_eq!(t.format, "codex", "{}", path.display());
        assert_eq!(t.events.len(), lines(&bytes), "{}", path.display());
        assert!(t.detection.evidence[0].contains("rollout lines"), "{:?}", t.detection.evidence);
    }
    let t = parse(&fixture(FULL));
    assert_eq!(t.detection.confidence, 1.0);
    assert!(t.detection.evidence.iter().any(|e| e.contains("session_meta")), "{:?}", t.detection.evidence);
}

/// Every fixture of the other formats (tests/fixtures/xss holds one per
/// format, ours too, and is checked by the node suite).
#[test]
fn other_formats_fixtures_are_not_codex() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut checked = 0;
    for dir in std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir() && !p.ends_with("codex") && !p.ends_with("xss")) {
        for file in std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_file()) {
            if let Ok(t) = agent_trace_viewer::parse_trace(std::fs::read(&file).unwrap(), &ParseOptions::default()) {
                assert_ne!(t.format, "codex", "{}", file.display());
                checked += 1;
            }
        }
    }
    assert!(checked > 20, "{checked}");
}

#[test]
fn corpus_rollout_reads_as_one_session() {
    for path in corpus_files("codex") {
        let t = parse(&std::fs::read(&path).unwrap());
        assert_eq!(t.format, "codex");
        assert_eq!((t.runs.len(), t.runs[0].id.as_str()), (1, "test-session"));
        assert!(t.diagnostics.is_empty(), "{:?}", t.diagnostics);
        // The assistant message's part type is `text`, not `output_text`.
        let texts: Vec<String> = t.events.iter().filter_map(|e| match &e.body {
            EventBody::Message(m) => Some(format!("{}: {}", m.role, m.content.text())),
            _ => None,
        }).collect();
        assert_eq!(texts, ["user: Write a hello world function", "assistant: Here is a simple hello world function."]);
    }
}

fn kinds(t: &Trace) -> Vec<(&str, &str)> {
    t.events.iter().map(|e| (e.source_kind.as_str(), e.body.kind())).collect()
}

#[test]
fn each_record_type_maps_onto_the_model() {
    let t = parse(&fixture(FULL));
    let k = kinds(&t);
    let want: Vec<(&str, &str)> = vec![
        ("session_meta", "key-value"),
        ("message", "message"),
        ("turn_context", "key-value"),
        ("message", "message"),
        ("user_message", "key-value"),
        ("token_count", "key-value"),
        ("agent_reasoning", "key-value"),
        ("reasoning", "message"),
        ("function_call", "tool-call"),
        ("exec_command_begin", "marker"),
        ("exec_command_end", "marker"),
        ("function_call_output", "tool-result"),
        ("token_count", "key-value"),
        ("custom_tool_call", "tool-call"),
        ("patch_apply_begin", "marker"),
        ("patch_apply_end", "marker"),
        ("custom_tool_call_output", "tool-result"),
        ("token_count", "key-value"),
        ("local_shell_call", "tool-call"),
        ("function_call_output", "tool-result"),
        ("web_search_call", "tool-call"),
        ("function_call", "tool-call"),
        ("function_call_output", "tool-result"),
        ("agent_message", "key-value"),
        ("message", "message"),
        ("token_count", "key-value"),
        ("token_count", "key-value"),
        ("task_complete", "marker"),
        ("ghost_snapshot", "key-value"),
        ("compacted", "marker"),
        ("context_compacted", "marker"),
        ("future_item_kind", "key-value"),
        ("error", "marker"),
        ("turn_aborted", "marker"),
        ("future_record_kind", "key-value"),
    ];
    assert_eq!(k, want);
    let run = &t.runs[0];
    assert_eq!(run.id, "0199a213-81c0-7800-8aa1-bbab2a035a53");
    assert_eq!(run.metadata["cli_version"], "0.46.0");
    assert_eq!(run.metadata["git"]["branch"], "main");
    // Mirrors stay reachable and say what they mirror.
    assert_eq!(t.events[4].metadata["mirrors"], "a message response item");
    assert_eq!(t.events[6].metadata["mirrors"], "a reasoning response item");
    // The user's message with its image; reasoning as reasoning parts.
    match &t.events[3].body {
        EventBody::Message(m) => {
            assert_eq!(m.role, "user");
            assert!(matches!(&m.content, Content::Parts(p) if matches!(p[1], ContentPart::Image { .. })));
        }
        other => panic!("{other:?}"),
    }
    match &t.events[7].body {
        EventBody::Message(m) => assert!(matches!(&m.content, Content::Parts(p) if p == &[ContentPart::Reasoning("**Reading the failing test**".into())])),
        other => panic!("{other:?}"),
    }
    assert_eq!(t.events[7].metadata["encrypted_content_bytes"], 18);
    // Calls and outputs by call_id.
    let result = |call: usize| match &t.events[call].body {
        EventBody::ToolCall(c) => c.result.map(|r| r as usize),
        other => panic!("{other:?}"),
    };
    let status = |i: usize| match &t.events[i].body {
        EventBody::ToolResult(r) => (r.status, r.content.text()),
        other => panic!("{other:?}"),
    };
    assert_eq!(result(8), Some(11));
    assert_eq!(status(11), (ToolStatus::Error, "test parse_dates ... FAILED\n".to_string()));
    assert_eq!((&t.events[11].metadata["exit_code"], t.events[11].facts().duration_ms), (&serde_json::json!(101), Some(1500.0)));
    assert_eq!(result(13), Some(16));
    assert_eq!(result(18), Some(19));
    assert_eq!(status(19), (ToolStatus::Error, "sandbox denied the command".to_string()));
    assert_eq!(result(20), None, "a web search is answered inline");
    assert_eq!(result(21), Some(22));
    match &t.events[21].body {
        EventBody::ToolCall(c) => assert_eq!((c.function.as_str(), c.arguments.value.is_none()), ("mcp__docs__lookup", true)),
        other => panic!("{other:?}"),
    }
    match &t.events[13].body {
        EventBody::ToolCall(c) => assert!(c.arguments.display().starts_with("*** Begin Patch")),
        other => panic!("{other:?}"),
    }
    // Exec end: exit code, duration, failure.
    let end = &t.events[10];
    assert_eq!((end.failed, end.facts().duration_ms), (true, Some(1500.0)));
    assert!(t.events[32].failed, "an error event is a failure");
    // Usage on token_count events only, per call; the null-info one has none.
    assert_eq!(t.events[5].facts().usage, None);
    let u = t.events[17].facts().usage.unwrap();
    assert_eq!((u.input_tokens, u.cache_read_input_tokens, u.output_tokens, u.reasoning_output_tokens), (5800, 5100, 210, 64));
    assert_eq!(t.events[17].facts().model.as_deref(), Some("gpt-5-codex"));
    assert_eq!(codes(&t), ["arguments-not-json", "unknown-item-type", "unknown-line-type"]);
}

#[test]
fn sub_agent_links_to_its_parent_when_both_are_open() {
    let name = |p: &str| p.rsplit('/').next().unwrap().to_string();
    let files = vec![(name(CHILD), fixture(CHILD)), (name(FULL), fixture(FULL))];
    let t = parse_files(files, &ParseOptions::default()).unwrap();
    assert_eq!(t.format, "codex");
    let ids: Vec<&str> = t.runs.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["0199a213-81c0-7800-8aa1-bbab2a035a53", "0199a214-0a11-7c30-9d3e-5f0c2b7e8a10"], "ordered by file name");
    let (parent, child) = (&t.runs[0], &t.runs[1]);
    assert_eq!(parent.metadata["sub_agents"], serde_json::json!([child.id]));
    assert_eq!(child.metadata["parent_thread_id"], parent.id.as_str());
    assert_eq!(child.metadata["parent_opened"], true);
    assert!(child.name.as_deref().unwrap().contains(&parent.id));
    // Alone, the child names its parent but cannot reach it.
    let alone = parse(&fixture(CHILD));
    assert_eq!(alone.runs[0].metadata["parent_opened"], false);
    // Usage stays per run.
    assert_eq!(totals(&t, Some(1)).total.input_tokens, 3000);
}

#[test]
fn legacy_session_counts_growth_of_totals() {
    let t = parse(&fixture(LEGACY));
    let usages: Vec<u64> = t.events.iter().filter_map(|e| e.facts().usage.map(|u| u.input_tokens)).collect();
    assert_eq!(usages, [1000, 1300], "the line without a timestamp counts nothing, as in ccusage");
    assert_eq!(codes(&t), ["timestamp-missing", "unanswered-tool-call"]);
}

#[test]
fn invalid_lines_are_kept_and_located() {
    let bytes = fixture("codex/invalid-records.jsonl");
    let t = parse(&bytes);
    assert_eq!(t.events.len(), lines(&bytes));
    let got: Vec<(u32, &str, &str)> = t.diagnostics.iter().map(|d| (d.line, d.code, d.path.as_str())).collect();
    assert_eq!(
        got,
        [
            (2, "json-syntax", "$"),
            (3, "line-not-object", "$"),
            (4, "payload-missing", "$"),
            (5, "type-missing", "$"),
            (6, "field-type", "$.payload.content"),
            (7, "unknown-tool-call-id", "$.payload.call_id"),
            (8, "unanswered-tool-call", "$"),
            (8, "field-type", "$.payload.arguments"),
        ]
    );
    let unparsed = t.events.iter().filter(|e| matches!(e.body, EventBody::Unparsed(_))).count();
    assert_eq!(unparsed, 4);
}

/// The AgentRun text reads as the conversation: each user and agent message
/// once (not again as its `event_msg` mirror), the tool calls and outputs,
/// and none of the telemetry (token counts, exec markers, turn contexts).
#[test]
fn agent_run_text_is_the_conversation_once() {
    let bytes = std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("www/samples/codex-rollout.jsonl")).unwrap();
    let t = parse(&bytes);
    let run = agent_trace_viewer::import::agent_run(&t, 0).unwrap();
    let text = agent_trace_viewer::render::current::render(&run, &Default::default()).unwrap();
    let question = "Why does the test in tests/parse.rs fail? Here is a screenshot.";
    assert_eq!(text.matches(question).count(), 1, "{text}");
    for noise in ["[token_count]", "[user_message]", "[agent_message]", "[marker]", "[turn_context]", "[session_meta]"] {
        assert!(!text.contains(noise), "{noise} in the text");
    }
    assert!(text.contains("<tool call>\nshell(command=['bash', '-lc', 'cargo test --test parse']"), "{text}");
    assert!(text.contains("test parse_dates ... FAILED"), "the tool output stays");
}

/// An output's warnings name its `call_id`: one answering no call, and a
/// second output for a call (read fast and the exact way: an output whose
/// `output` is a list takes the exact path).
#[test]
fn output_warnings_name_the_call_id() {
    let line = |payload: &str| format!(r#"{{"timestamp":"2025-01-01T00:00:00Z","type":"response_item","payload":{payload}}}"#);
    let rollout = [
        line(r#"{"type":"function_call","name":"f","arguments":"{}","call_id":"c1"}"#),
        line(r#"{"type":"function_call_output","call_id":"c1","output":"one"}"#),
        line(r#"{"type":"function_call_output","call_id":"c1","output":"two"}"#),
        line(r#"{"type":"function_call_output","call_id":"c9","output":"none"}"#),
        line(r#"{"type":"function_call_output","call_id":"c8","output":[{"type":"input_text","text":"x"}]}"#),
    ]
    .join("\n");
    let t = parse(rollout.as_bytes());
    let got: Vec<(&str, &str)> = t.diagnostics.iter().map(|d| (d.code, d.message.as_str())).collect();
    assert_eq!(
        got,
        [
            ("duplicate-tool-result", "a second output for call `c1` (the call keeps its first)"),
            ("unknown-tool-call-id", "no call in this session has `call_id` `c9`"),
            ("unknown-tool-call-id", "no call in this session has `call_id` `c8`"),
        ]
    );
}
