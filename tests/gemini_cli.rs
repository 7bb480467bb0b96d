//! The `gemini-cli` format (Gemini CLI session files).
//!
//! The fixtures of tests/fixtures/gemini-cli/ were written by Gemini CLI's
//! own recorder (`ChatRecordingService` of `@google/gemini-cli-core` 0.61.0),
//! and tests/golden/gemini-cli/goldens.json says what its own loader
//! (`loadConversationRecord`) and token hydration (`UiTelemetryService.hydrate`,
//! what `/stats` shows of a resumed session) make of each
//! (scripts/oracle/gemini-cli/generate.mjs writes both). The tests compare
//! our parse with them: the conversation's messages in order (ids, types,
//! models, thoughts, tool calls and their statuses), the session's metadata
//! and the token totals per model.

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use agent_trace_viewer::analysis::usage::totals;
use agent_trace_viewer::model::{CallRef, ContentPart, EventBody, ToolStatus, Trace};
use agent_trace_viewer::ParseOptions;
use common::{codes, parse};
use serde_json::{json, Value};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gemini-cli")
}

fn golden() -> Value {
    common::golden_json("gemini-cli/goldens.json")
}

fn read(name: &str) -> Trace {
    parse(&std::fs::read(dir().join(name)).unwrap())
}

/// The events of the messages the loader would return, in order.
fn loaded(t: &Trace) -> Vec<usize> {
    (0..t.events.len())
        .filter(|&i| {
            let m = &t.events[i].metadata;
            m.get("id").is_some_and(Value::is_string) && !m.contains_key("replaced") && !m.contains_key("abandoned_branch")
        })
        .collect()
}

/// A loaded message as the golden describes it.
fn describe(t: &Trace, i: usize) -> Value {
    let e = &t.events[i];
    let (thoughts, calls) = match &e.body {
        EventBody::Message(m) => {
            // The record's thoughts shown: each subject and description in the reasoning.
            let raw: Value = serde_json::from_slice(&t.source[e.raw.clone()]).unwrap();
            let reasoning: String = match &m.content {
                agent_trace_viewer::model::Content::Parts(p) => p.iter().filter_map(|p| match p { ContentPart::Reasoning(r) => Some(r.decoded().to_string()), _ => None }).collect(),
                _ => String::new(),
            };
            let thoughts = raw["thoughts"].as_array().map(|l| l.iter().filter(|x| {
                reasoning.contains(&format!("**{}**", x["subject"].as_str().unwrap())) && reasoning.contains(x["description"].as_str().unwrap())
            }).count()).unwrap_or(0);
            // A call's status: its result's, else (no result yet) the record's.
            let calls: Vec<Value> = m
                .tool_calls
                .iter()
                .enumerate()
                .map(|(j, c)| {
                    let status = match c.result {
                        Some(r) => t.events[r as usize].metadata["status"].clone(),
                        None => raw["toolCalls"][j]["status"].clone(),
                    };
                    json!({"id": c.id, "name": c.function, "status": status})
                })
                .collect();
            (thoughts, calls)
        }
        _ => (0, Vec::new()),
    };
    let model = e.metadata.get("model").cloned().unwrap_or(Value::Null);
    let tokens = e.metadata.get("tokens").cloned().unwrap_or(Value::Null);
    json!({"id": e.metadata["id"], "type": e.source_kind, "model": model, "thoughts": thoughts, "tokens": tokens, "toolCalls": calls})
}

#[test]
fn every_fixture_reads_as_gemini_cli_loader_does() {
    let g = golden();
    assert_eq!(g["tool"], "@google/gemini-cli-core@0.61.0");
    let files = g["files"].as_object().unwrap();
    let names: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| p.file_name().unwrap().to_string_lossy().to_string())
        .collect();
    assert_eq!(names.len(), files.len(), "every fixture has a golden");
    let mut compared = 0;
    for name in names {
        let want = &files[&name];
        let t = read(&name);
        assert_eq!(t.format, "gemini-cli", "{name}");
        if want["loads"] == false {
            assert!(codes(&t).contains(&"metadata-missing"), "{name}: {:?}", codes(&t));
            continue;
        }
        let run = &t.runs[0];
        assert_eq!(run.id, want["sessionId"].as_str().unwrap(), "{name}");
        assert_eq!(run.metadata["projectHash"], want["projectHash"], "{name}");
        assert_eq!(run.description.as_deref().map(Value::from).unwrap_or(Value::Null), want["summary"], "{name}");
        assert_eq!(run.metadata.get("kind").cloned().unwrap_or(Value::Null), want["kind"], "{name}");
        assert_eq!(run.metadata.get("directories").cloned().unwrap_or(Value::Null), want["directories"], "{name}");
        let ours: Vec<Value> = loaded(&t).into_iter().map(|i| describe(&t, i)).collect();
        assert_eq!(ours.len() as u64, want["messageCount"].as_u64().unwrap(), "{name}");
        assert_eq!(Value::from(ours.clone()), want["messages"], "{name}");
        let users = ours.iter().filter(|m| m["type"] == "user").count();
        assert_eq!(users as u64, want["userMessageCount"].as_u64().unwrap(), "{name}");

        // Tokens per model, as hydrate sums them (`unknown` for no model).
        let u = totals(&t, None);
        let mut by_model: BTreeMap<String, Value> = BTreeMap::new();
        for (model, m) in &u.by_model {
            let name = if model.is_empty() { "unknown".to_string() } else { model.clone() };
            by_model.insert(name, json!({
                "prompt": m.input_tokens, "candidates": m.output_tokens, "cached": m.cache_read_input_tokens,
                "thoughts": m.reasoning_output_tokens, "total": m.total_tokens,
                "input": m.input_tokens.saturating_sub(m.cache_read_input_tokens),
            }));
        }
        let theirs: BTreeMap<String, Value> = want["tokensByModel"]
            .as_object()
            .unwrap()
            .iter()
            .filter(|(_, v)| v["total"].as_u64() != Some(0) || v["prompt"].as_u64() != Some(0))
            .map(|(k, v)| {
                let mut v = v.clone();
                v.as_object_mut().unwrap().remove("tool");
                (k.clone(), v)
            })
            .collect();
        assert_eq!(by_model, theirs, "{name}: token totals per model");
        // Tool-use prompt tokens have no field of the shared usage: they stay in the message's `tokens`.
        let tool: u64 = ours.iter().filter_map(|m| m["tokens"]["tool"].as_u64()).sum();
        let want_tool: u64 = want["tokensByModel"].as_object().unwrap().values().map(|v| v["tool"].as_u64().unwrap()).sum();
        assert_eq!(tool, want_tool, "{name}");

        // Tool statistics: every call of the loaded messages, success and error.
        let calls: Vec<&Value> = ours.iter().flat_map(|m| m["toolCalls"].as_array().unwrap()).collect();
        let count = |s: &str| calls.iter().filter(|c| c["status"] == s).count() as u64;
        assert_eq!(calls.len() as u64, want["tools"]["totalCalls"].as_u64().unwrap(), "{name}");
        assert_eq!(count("success"), want["tools"]["totalSuccess"].as_u64().unwrap(), "{name}");
        assert_eq!(count("error"), want["tools"]["totalFail"].as_u64().unwrap(), "{name}");
        compared += 1;
    }
    assert_eq!(compared, 6);
}

const FULL: &str = "session-2026-03-01T10-00-a1b2c3d4.jsonl";
const LEGACY: &str = "session-2026-02-01T09-00-a1b2c3d4.json";
const REWIND: &str = "session-2026-03-01T10-00-b2c3d4e5.jsonl";
const CHECKPOINT: &str = "session-2026-03-01T10-00-c3d4e5f6.jsonl";

#[test]
fn tool_calls_link_to_results_and_errors_fail() {
    for name in [FULL, LEGACY] {
        let t = read(name);
        let results: Vec<_> = t
            .events
            .iter()
            .filter_map(|e| match &e.body {
                EventBody::ToolResult(r) => Some((r.call_id.clone().unwrap(), r.status, e.failed, r.content.text())),
                _ => None,
            })
            .collect();
        assert_eq!(results.len(), 3, "{name}");
        assert_eq!((results[0].1, results[0].2), (ToolStatus::Success, false));
        assert_eq!((results[1].0.as_str(), results[1].1, results[1].2), ("run_shell_command-2", ToolStatus::Error, true));
        assert!(results[1].3.contains("exited with code 1"));
        assert_eq!(results[2].1, ToolStatus::Unknown, "cancelled is no error");
        // Each result is linked both ways.
        for (i, e) in t.events.iter().enumerate() {
            if let EventBody::Message(m) = &e.body {
                for (j, c) in m.tool_calls.iter().enumerate() {
                    let r = c.result.expect("answered") as usize;
                    let EventBody::ToolResult(res) = &t.events[r].body else { panic!() };
                    assert_eq!(res.call.map(|c| (c.event as usize, c.call as usize)), Some((i, j)));
                }
            }
        }
        // The turn that sends the results back repeats them: kept, not shown twice.
        assert_eq!(t.events.iter().filter(|e| e.source_kind == "user" && e.body.kind() == "key-value").count(), 1, "{name}");
        // info/warning/error are markers; the error one is failed.
        let markers: Vec<_> = t.events.iter().filter(|e| e.body.kind() == "marker" && ["info", "warning", "error"].contains(&e.source_kind.as_str())).map(|e| (e.source_kind.as_str(), e.failed)).collect();
        assert_eq!(markers, [("info", false), ("warning", false), ("error", true)], "{name}");
    }
}

#[test]
fn repeated_ids_replace_in_place_and_stay_reachable() {
    let t = read(FULL);
    let replaced: Vec<_> = t.events.iter().filter(|e| e.metadata.contains_key("replaced")).collect();
    // The first model turn is written twice (text, then with its tool calls).
    assert_eq!(replaced.len(), 1);
    let by = replaced[0].metadata["replaced_by_line"].as_u64().unwrap();
    assert_eq!(by, t.position_at(replaced[0].raw.start).line as u64 + 2);
    assert!(t.diagnostics.is_empty(), "{:?}", t.diagnostics);
}

#[test]
fn rewind_marks_the_cut_messages_abandoned_and_uncounted() {
    let t = read(REWIND);
    let cut: Vec<_> = t.events.iter().filter(|e| e.metadata.get("abandoned_branch") == Some(&Value::Bool(true))).map(|e| e.source_kind.as_str()).collect();
    assert_eq!(cut, ["user", "gemini"]);
    assert!(t.events.iter().any(|e| e.source_kind == "$rewindTo" && e.body.kind() == "marker"));
    assert_eq!(codes(&t), ["abandoned-branch", "abandoned-branch"]);
    // The cut turn's 340 prompt tokens are not counted (300 + 350).
    assert_eq!(totals(&t, None).total.input_tokens, 650);
    // Its thought is still shown.
    assert!(t.events.iter().any(|e| matches!(&e.body, EventBody::Message(m) if matches!(&m.content, agent_trace_viewer::model::Content::Parts(p) if p.iter().any(|p| matches!(p, ContentPart::Reasoning(_)))))));
}

#[test]
fn checkpoint_replaces_the_conversation() {
    let t = read(CHECKPOINT);
    let set = t.events.iter().find(|e| e.body.kind() == "marker" && e.source_kind == "$set" && e.path == "$").map(|e| e.raw.clone());
    assert!(set.is_some());
    // The checkpoint's messages are events of their own, inside its line.
    let inner: Vec<_> = t.events.iter().filter(|e| e.path.starts_with("$[\"$set\"].messages[")).collect();
    assert_eq!(inner.len(), 3 + 1, "three messages and the result of the call the checkpoint keeps");
    // The messages before it are replaced by the checkpoint's versions.
    assert_eq!(t.events.iter().filter(|e| e.metadata.contains_key("replaced")).count(), 3);
}

#[test]
fn detection_says_why_and_other_fixtures_are_not_gemini() {
    let t = read(FULL);
    assert!((t.detection.confidence - 1.0).abs() < 1e-6, "{:?}", t.detection);
    assert!(t.detection.evidence.iter().any(|e| e.contains("metadata line")), "{:?}", t.detection.evidence);
    let t = read(LEGACY);
    assert!(t.detection.evidence[0].contains("whole session"), "{:?}", t.detection.evidence);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut checked = 0;
    for d in std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir() && !p.ends_with("gemini-cli") && !p.ends_with("xss")) {
        for f in std::fs::read_dir(&d).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_file()) {
            if let Ok(t) = agent_trace_viewer::parse_trace(std::fs::read(&f).unwrap(), &ParseOptions::default()) {
                assert_ne!(t.format, "gemini-cli", "{}", f.display());
                checked += 1;
            }
        }
    }
    assert!(checked > 20, "{checked}");
}

#[test]
fn bad_records_are_kept_and_reported_where_they_are() {
    let t = read("invalid-records.jsonl");
    let mut c = codes(&t);
    c.sort();
    c.dedup();
    assert_eq!(
        c,
        ["abandoned-branch", "field-type", "json-syntax", "message-id-missing", "unanswered-tool-call", "unknown-message-type", "unknown-record"]
    );
    // Every line is reachable: the broken one as an unparsed event in its place, in the session's run.
    assert_eq!(t.runs.len(), 1);
    let kinds: Vec<&str> = t.events.iter().take(6).map(|e| e.body.kind()).collect();
    assert_eq!(kinds, ["key-value", "message", "message", "unparsed", "key-value", "key-value"]);
    let bad_time = t.diagnostics.iter().find(|d| d.message.contains("`timestamp` must be a string")).unwrap();
    assert_eq!((bad_time.path.as_str(), bad_time.line), ("$.timestamp", 9));
    let no_id = t.diagnostics.iter().find(|d| d.code == "message-id-missing").unwrap();
    assert_eq!((no_id.path.as_str(), no_id.line), ("$[\"$set\"].messages[1]", 12));
    // A rewind to an id not in the conversation clears it (as the loader does).
    let cut: Vec<_> = t.events.iter().filter(|e| e.metadata.contains_key("abandoned_branch") && e.metadata.contains_key("id")).map(|e| e.metadata["id"].as_str().unwrap()).collect();
    assert_eq!(cut, ["u1", "g1", "x1", "g2"]);
    let t = read("no-metadata.jsonl");
    assert_eq!(codes(&t), ["metadata-missing"]);
    assert_eq!(totals(&t, None).total.total_tokens, 4);
}

#[test]
fn bad_token_counts_count_zero_and_are_reported() {
    let text = br#"{"sessionId":"s","projectHash":"h"}
{"id":"g","timestamp":"t","type":"gemini","content":"x","tokens":{"input":"12","output":3,"cached":-1,"total":3.5},"model":"m"}
"#;
    let t = parse(text);
    assert_eq!(t.format, "gemini-cli");
    let u = totals(&t, None).total;
    assert_eq!((u.input_tokens, u.output_tokens, u.cache_read_input_tokens, u.total_tokens), (0, 3, 0, 0));
    let paths: Vec<_> = t.diagnostics.iter().filter(|d| d.code == "token-count-invalid").map(|d| d.path.as_str()).collect();
    assert_eq!(paths, ["$.tokens.input", "$.tokens.cached", "$.tokens.total"]);
}

const SUB: &str = "d4e5f6a7-0000-4000-8000-00000000f004.jsonl";

#[test]
fn a_session_and_its_sub_agent_read_together_are_two_linked_runs() {
    let files: Vec<(String, Vec<u8>)> = [
        (format!("chats/c3d4e5f6-0000-4000-8000-00000000f003/{SUB}"), SUB),
        (format!("chats/{CHECKPOINT}"), CHECKPOINT),
    ]
    .iter()
    .map(|(path, name)| (path.clone(), std::fs::read(dir().join(name)).unwrap()))
    .collect();
    // Dropped together, they are one group.
    let paths: Vec<String> = files.iter().map(|f| f.0.clone()).collect();
    let groups = agent_trace_viewer::import::group_files(&paths, &[]);
    assert_eq!(groups.len(), 1, "{groups:?}");
    let t = agent_trace_viewer::parse_files(files, &ParseOptions::default()).unwrap();
    assert_eq!(t.format, "gemini-cli");
    let ids: Vec<&str> = t.runs.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["c3d4e5f6-0000-4000-8000-00000000f003", "d4e5f6a7-0000-4000-8000-00000000f004"]);
    assert_eq!(t.runs[1].name.as_deref(), Some("Gemini CLI sub-agent"));
    assert_eq!(t.runs[1].metadata["parent_session_id"], "c3d4e5f6-0000-4000-8000-00000000f003");
    assert_eq!(t.runs[1].metadata["parent_tool_call_id"], "investigator-1");
    let call_event = t.runs[1].started_by.expect("the sub-agent names the call that started it").event as usize;
    let EventBody::Message(m) = &t.events[call_event].body else { panic!() };
    assert_eq!(m.tool_calls[0].id.as_deref(), Some("investigator-1"));
    assert_eq!(t.runs[1].started_by, Some(CallRef { event: call_event as u32, call: 0 }));
    assert!(t.runs[1].metadata.get("parent_event").is_none(), "the link is typed, not a metadata key");
    assert_eq!(t.runs[0].started_by, None);
    // Each run's tokens are its file's, as Gemini CLI counts them.
    let g = golden();
    for (run, name) in [(0, CHECKPOINT), (1, SUB)] {
        let want: u64 = g["files"][name]["tokensByModel"].as_object().unwrap().values().map(|v| v["total"].as_u64().unwrap()).sum();
        assert_eq!(totals(&t, Some(run)).total.total_tokens, want, "{name}");
    }
    // Opened alone, the sub-agent still loads.
    assert_eq!(read(SUB).runs.len(), 1);
}
