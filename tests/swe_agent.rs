//! The `swe-agent` format against counts computed independently with plain
//! `json` (scripts/oracle/swe-agent/counts.py) for the fixtures and the
//! SWE-agent corpus files; plus diagnostics, detection and the run's usage.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use agent_trace_viewer::analysis::usage::totals;
use agent_trace_viewer::model::{Content, EventBody, Trace};
use common::{codes, corpus_files, fixture, parse};
use serde_json::Value;

fn golden(file: &Path) -> Value {
    let name = file.file_name().unwrap().to_string_lossy();
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/swe-agent").join(format!("{name}.json"));
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("cannot read golden {}: {e}", p.display()));
    serde_json::from_str(&text).unwrap()
}

fn fixture_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/swe-agent");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_file()).collect();
    files.sort();
    files
}

/// The events of the transcript `key` of run 0.
fn transcript<'t>(t: &'t Trace, key: &str) -> Vec<&'t agent_trace_viewer::model::Event> {
    let Some(tr) = t.runs[0].transcripts.iter().find(|tr| tr.key == key) else { return Vec::new() };
    t.events[tr.events.start as usize..tr.events.end as usize].iter().collect()
}

fn counter<'a>(keys: impl Iterator<Item = &'a str>) -> Value {
    let mut m: BTreeMap<String, u64> = BTreeMap::new();
    for k in keys {
        *m.entry(k.to_string()).or_default() += 1;
    }
    serde_json::to_value(m).unwrap()
}

fn check(file: &Path) {
    let name = file.file_name().unwrap().to_string_lossy().to_string();
    let g = golden(file);
    let t = parse(&std::fs::read(file).unwrap());
    assert_eq!(t.format, "swe-agent", "{name}");
    assert_eq!(t.runs.len(), 1, "{name}: one run per file");
    let run = &t.runs[0];

    // The run's metadata: every top-level key the transcripts do not read.
    let mut keys: Vec<&str> = g["top_level_keys"].as_array().unwrap().iter().map(|k| k.as_str().unwrap()).filter(|k| !["history", "trajectory", "info"].contains(k)).collect();
    if g["info"]["exit_status"].is_string() {
        keys.push("exit_status");
    }
    keys.sort();
    let mut got: Vec<&str> = run.metadata.keys().map(String::as_str).collect();
    got.sort();
    assert_eq!(got, keys, "{name}: run metadata keys");
    if let Some(id) = g["replay_instance"].as_str() {
        assert_eq!(run.id, id, "{name}: run id");
    }

    if let Some(h) = g.get("history") {
        let events = transcript(&t, "history");
        assert_eq!(events.len() as u64, h["items"].as_u64().unwrap(), "{name}: one event per history item");
        let unparsed = events.iter().filter(|e| matches!(e.body, EventBody::Unparsed(_))).count();
        assert_eq!(unparsed as u64, h["not_objects"].as_u64().unwrap(), "{name}: history items that are not objects");
        assert_eq!(counter(events.iter().filter_map(|e| e.role())), h["by_role"], "{name}: history messages by role");
        let calls: Vec<_> = events.iter().filter_map(|e| if let EventBody::Message(m) = &e.body { Some(m) } else { None }).flat_map(|m| &m.tool_calls).collect();
        assert_eq!(calls.len() as u64, h["tool_calls"].as_u64().unwrap(), "{name}: history tool calls");
        assert_eq!(counter(calls.iter().map(|c| c.function.as_str())), h["tool_calls_by_function"], "{name}: calls by function");
        let by_id = calls
            .iter()
            .filter_map(|c| c.result)
            .filter(|r| matches!(&t.events[*r as usize].body, EventBody::ToolResult(res) if !res.implicit_link))
            .count();
        assert_eq!(by_id as u64, h["calls_answered_by_id"].as_u64().unwrap(), "{name}: calls answered by `tool_call_ids`");
        let unknown = codes(&t).iter().filter(|c| **c == "unknown-tool-call-id").count();
        assert_eq!(unknown as u64, h["unknown_tool_call_ids"].as_u64().unwrap(), "{name}: ids naming no call");
    } else {
        assert!(transcript(&t, "history").is_empty(), "{name}");
    }

    if let Some(s) = g.get("trajectory") {
        let events = transcript(&t, "trajectory");
        let steps: Vec<_> = events.iter().filter(|e| e.source_kind == "step").collect();
        assert_eq!(steps.len() as u64, s["steps"].as_u64().unwrap(), "{name}: steps");
        let unparsed = events.iter().filter(|e| matches!(e.body, EventBody::Unparsed(_))).count() as u64;
        assert_eq!(unparsed, s["items"].as_u64().unwrap() - s["steps"].as_u64().unwrap(), "{name}: items that are not steps");
        let calls: Vec<_> = steps.iter().filter_map(|e| if let EventBody::Message(m) = &e.body { Some(m) } else { None }).flat_map(|m| &m.tool_calls).collect();
        assert_eq!(calls.len() as u64, s["actions"].as_u64().unwrap(), "{name}: actions");
        assert_eq!(counter(calls.iter().map(|c| c.function.as_str())), s["action_commands"], "{name}: action commands");
        let observations = events.iter().filter(|e| e.source_kind == "observation").count();
        assert_eq!(observations as u64, s["observations"].as_u64().unwrap(), "{name}: observations");
        let timed: Vec<f64> = steps.iter().filter_map(|e| e.facts().duration_ms).collect();
        assert_eq!(timed.len() as u64, s["steps_with_execution_time"].as_u64().unwrap(), "{name}: timed steps");
        let total: f64 = timed.iter().sum();
        assert!((total - s["execution_time_total"].as_f64().unwrap() * 1000.0).abs() < 1e-6, "{name}: execution time {total} ms");
        let bad_state = codes(&t).iter().filter(|c| **c == "bad-state").count() as u64;
        assert_eq!(bad_state, s["states_as_text"].as_u64().unwrap() - s["states_as_json_text"].as_u64().unwrap(), "{name}: states that are not JSON");
        let objects = steps.iter().filter(|e| e.metadata.get("state").is_some_and(Value::is_object)).count() as u64;
        assert!(objects >= s["states_as_json_text"].as_u64().unwrap(), "{name}: JSON-text states read as JSON");
    }

    let usage = totals(&t, Some(0));
    match g.get("info").filter(|i| !i.is_null()) {
        Some(info) => {
            let events = transcript(&t, "info");
            let EventBody::KeyValue(kv) = &events[0].body else { panic!("{name}: info event") };
            let info_keys: Vec<&str> = kv.value.get().as_object().unwrap().keys().map(String::as_str).collect();
            let mut want: Vec<&str> = info["keys"].as_array().unwrap().iter().map(|k| k.as_str().unwrap()).collect();
            want.sort();
            let mut info_keys = info_keys;
            info_keys.sort();
            assert_eq!(info_keys, want, "{name}: info keys");
            assert_eq!(run.metadata.get("exit_status"), info.get("exit_status").filter(|s| !s.is_null()), "{name}: exit status");
            let (sent, received) = (info["tokens_sent"].as_u64(), info["tokens_received"].as_u64());
            if sent.is_some() || received.is_some() {
                assert_eq!(usage.events, 1, "{name}: one usage, model_stats");
                assert_eq!(usage.total.input_tokens, sent.unwrap_or(0), "{name}: tokens_sent");
                assert_eq!(usage.total.output_tokens, received.unwrap_or(0), "{name}: tokens_received");
            } else {
                assert_eq!(usage.events, 0, "{name}");
            }
            if let Some(model) = g["replay_model"].as_str() {
                assert!(usage.by_model.contains_key(model), "{name}: usage by model {:?}", usage.by_model);
            }
            let submission = events.iter().find(|e| e.source_kind == "submission");
            match info["submission"].as_str() {
                Some(patch) => {
                    let Some(EventBody::KeyValue(kv)) = submission.map(|e| &e.body) else { panic!("{name}: submission event") };
                    assert_eq!(kv.value.get().as_str(), Some(patch), "{name}: submission patch");
                }
                None => assert!(submission.is_none(), "{name}"),
            }
        }
        None => assert_eq!(usage.events, 0, "{name}: no info, no usage"),
    }
}

#[test]
fn corpus_files_match_independent_counts() {
    let files = corpus_files("swe-agent");
    assert_eq!(files.len(), 4);
    for f in &files {
        check(f);
    }
}

#[test]
fn fixtures_match_independent_counts() {
    let files = fixture_files();
    assert_eq!(files.len(), 3);
    for f in &files {
        check(f);
    }
}

#[test]
fn history_only_demonstration_loads_with_linked_calls() {
    let f = corpus_files("swe-agent").into_iter().find(|p| p.to_string_lossy().contains("function_calling_simple")).unwrap();
    let t = parse(&std::fs::read(f).unwrap());
    assert_eq!(t.runs[0].transcripts.iter().map(|t| t.key.as_str()).collect::<Vec<_>>(), ["history"]);
    assert_eq!((t.tool_call_count(), t.linked_result_count()), (5, 5));
    assert!(t.diagnostics.is_empty(), "{:?}", t.diagnostics);
}

#[test]
fn v0_state_text_is_read_as_json() {
    let t = parse(&fixture("swe-agent/v0_state_text.traj"));
    let step = transcript(&t, "trajectory")[0];
    assert_eq!(step.metadata["state"]["working_dir"], "/repo");
    assert!(t.diagnostics.is_empty(), "{:?}", t.diagnostics);
    // Zero model_stats report zeros, not nothing.
    let u = totals(&t, Some(0));
    assert_eq!((u.events, u.total.input_tokens, u.total.output_tokens), (1, 0, 0));
}

#[test]
fn v1_calls_thinking_and_parts() {
    let t = parse(&fixture("swe-agent/v1_function_calling.traj"));
    let h = transcript(&t, "history");
    let EventBody::Message(m) = &h[2].body else { panic!() };
    assert_eq!(m.tool_calls.len(), 2);
    let Content::Parts(parts) = &m.content else { panic!("thinking first: {:?}", m.content) };
    assert!(matches!(&parts[0], agent_trace_viewer::model::ContentPart::Reasoning(r) if r.decoded() == "The bug is probably in range()."));
    // One tool message answers both parallel calls.
    assert_eq!(m.tool_calls.iter().map(|c| c.result).collect::<Vec<_>>(), [Some(t.runs[0].transcripts[0].events.start + 3); 2]);
    let EventBody::Message(user) = &h[1].body else { panic!() };
    assert!(matches!(&user.content, Content::Parts(p) if matches!(p[1], agent_trace_viewer::model::ContentPart::Image { .. })));
    // Arguments given as an object stay an object.
    let EventBody::Message(edit) = &h[4].body else { panic!() };
    assert_eq!(edit.tool_calls[0].arguments.value.as_ref().unwrap().get()["start"], 2);
    assert_eq!(h[4].metadata["tags"], serde_json::json!(["cached"]));
    // The submit call has no tool message.
    assert_eq!(codes(&t), ["unanswered-tool-call"]);
    assert_eq!(t.diagnostics[0].path, "$.history[6].tool_calls[0]");
}

#[test]
fn invalid_shapes_warn_at_their_paths_and_keep_everything() {
    let t = parse(&fixture("swe-agent/invalid_shapes.traj"));
    let got: Vec<(&str, &str)> = t.diagnostics.iter().map(|d| (d.code, d.path.as_str())).collect();
    assert_eq!(
        got,
        [
            ("not-an-object", "$.history[1]"),
            ("bad-role", "$.history[2].role"),
            ("bad-content", "$.history[3].content"),
            ("bad-tool-calls", "$.history[3].tool_calls"),
            ("bad-tool-call", "$.history[4].tool_calls[0]"),
            ("bad-tool-call-id", "$.history[5].tool_call_ids[1]"),
            ("unknown-tool-call-id", "$.history[5].tool_call_ids[2]"),
            ("bad-tool-call-ids", "$.history[6].tool_call_ids"),
            ("bad-state", "$.trajectory[0].state"),
            ("bad-execution-time", "$.trajectory[0].execution_time"),
            ("not-an-object", "$.trajectory[1]"),
            ("bad-action", "$.trajectory[2].action"),
            ("bad-model-stats", "$.info.model_stats.tokens_sent"),
        ]
    );
    assert_eq!(t.error_count(), 0);
    // Kept: the string tool_calls and tool_call_ids in metadata, `attempts` on the run.
    let h = transcript(&t, "history");
    assert!(h[3].metadata["tool_calls"].is_string());
    assert!(h[6].metadata["tool_call_ids"].is_string());
    assert!(t.runs[0].metadata["attempts"].is_array());
    // The id-less tool message answers the call still open, by order.
    let EventBody::ToolResult(r) = &h[6].body else { panic!() };
    assert!(r.implicit_link && r.call.is_some());
    // tokens_received alone is still usage.
    let u = totals(&t, Some(0));
    assert_eq!((u.total.input_tokens, u.total.output_tokens), (0, 12));
}

#[test]
fn not_a_trajectory_when_forced() {
    let t = common::parse_as(b"[1, 2]", "swe-agent");
    assert_eq!(codes(&t), ["not-a-trace"]);
    assert!(matches!(t.events[0].body, EventBody::Unparsed(_)));
}

#[test]
fn plain_chat_history_is_not_claimed() {
    // `{history: [{role, content}]}` without SWE-agent's fields is no .traj.
    let r = agent_trace_viewer::parse_trace(br#"{"history": [{"role": "user", "content": "hi"}]}"#.to_vec(), &Default::default());
    assert!(r.map(|t| t.format).unwrap_or("none") != "swe-agent");
}
