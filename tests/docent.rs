//! The `docent` format: verdicts against the real Docent libraries
//! (tests/golden/docent/verdicts.json, from scripts/oracle/docent/verdicts.py),
//! the rule matrices' expected codes, and the mapping onto the shared model.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use agent_trace_viewer::diagnostic::{Diagnostic, Severity};
use agent_trace_viewer::import::{docent::Docent, Format, Sample};
use agent_trace_viewer::model::{CallRef, Content, ContentPart, EventBody, ToolStatus, Trace};
use agent_trace_viewer::{parse_trace, ParseOptions};
use common::{codes, corpus_files, errors, fixture, parse, parse_as};
use serde_json::Value;

fn golden() -> Value {
    common::golden_json("docent/verdicts.json")
}

fn fixture_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/docent");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_file()).collect();
    files.sort();
    files
}

fn name(p: &Path) -> String {
    p.file_name().unwrap().to_string_lossy().into_owned()
}

/// The diagnostics that fall in each run's byte span (runs are in file order).
fn per_run(t: &Trace) -> Vec<Vec<&Diagnostic>> {
    let starts: Vec<usize> = t.runs.iter().map(|r| r.offset.expect("docent runs record their offset")).collect();
    (0..starts.len())
        .map(|i| {
            let end = starts.get(i + 1).copied().unwrap_or(usize::MAX);
            t.diagnostics.iter().filter(|d| d.offset >= starts[i] && d.offset < end).collect()
        })
        .collect()
}

fn has_error(ds: &[&Diagnostic]) -> bool {
    ds.iter().any(|d| d.severity == Severity::Error)
}

fn generation(t: &Trace, run: usize) -> String {
    t.runs[run].metadata["_docent"]["generation"].as_str().unwrap().to_string()
}

#[test]
fn verdicts_match_the_docent_libraries_for_every_fixture_and_corpus_file() {
    let golden = golden();
    let files = golden["files"].as_object().unwrap();
    let mut inputs: Vec<(String, PathBuf)> = fixture_files().into_iter().map(|p| (format!("fixtures/docent/{}", name(&p)), p)).collect();
    inputs.extend(corpus_files("docent").into_iter().map(|p| (format!("corpus/docent/{}", name(&p)), p)));
    let (mut runs_checked, mut older_runs, mut rejected) = (0, 0, 0);
    for (key, path) in &inputs {
        let entry = files.get(key).unwrap_or_else(|| panic!("{key} has no golden verdicts: rerun scripts/oracle/docent/verdicts.py"));
        let all = entry["runs"].as_array().unwrap();
        // A JSON Lines line that is not JSON is the core's json-syntax error, not a run.
        let expected: Vec<&Value> = all.iter().filter(|r| r.get("invalid_json").is_none()).collect();
        let t = parse_as(&std::fs::read(path).unwrap(), "docent");
        if expected.len() < all.len() {
            assert!(codes(&t).contains(&"json-syntax"), "{key}");
        }
        assert_eq!(t.runs.len(), expected.len(), "{key}: run count");
        for (i, (ds, want)) in per_run(&t).iter().zip(expected).enumerate() {
            let gen = want["generation"].as_str().unwrap();
            assert_eq!(generation(&t, i), gen, "{key} run {i}: generation");
            let accepted = want[gen]["accepted"].as_bool().unwrap();
            let ours: Vec<String> = ds.iter().map(|d| d.to_line(key)).collect();
            assert_eq!(
                !has_error(ds),
                accepted,
                "{key} run {i}: {} says {:?}; we said {ours:#?}",
                golden["libraries"][gen]["package"],
                want[gen]["error"]
            );
            let warned = ds.iter().any(|d| d.code == "rejected-by-current-docent");
            let current_rejects = !want["current"]["accepted"].as_bool().unwrap();
            if gen == "older" {
                older_runs += 1;
                assert!(!warned || current_rejects, "{key} run {i}: warned, but docent 0.1.88 accepts it: {ours:#?}");
                if accepted && current_rejects {
                    assert!(warned, "{key} run {i}: docent 0.1.88 rejects it ({:?}) but we did not warn", want["current"]["error"]);
                }
                if !accepted && !current_rejects {
                    let noted = ds.iter().any(|d| d.severity == Severity::Error && d.message.ends_with("(docent 0.1.88 accepts this)"));
                    assert!(noted, "{key} run {i}: only the older library rejects it; the error should say so: {ours:#?}");
                }
            } else {
                assert!(!warned, "{key} run {i}");
                // The older library only reads object-keyed transcripts.
                assert!(!want["older"]["accepted"].as_bool().unwrap(), "{key} run {i}");
            }
            rejected += usize::from(!accepted);
            runs_checked += 1;
        }
    }
    assert_eq!(inputs.len(), files.len(), "golden lists files that no longer exist; rerun the oracle");
    assert!(runs_checked >= 290 && older_runs >= 170 && rejected >= 150, "{runs_checked} runs, {older_runs} older, {rejected} rejected");
}

#[test]
fn rule_matrices_emit_exactly_the_expected_errors() {
    for file in ["rules_older.jsonl", "rules_current.jsonl"] {
        let bytes = fixture(&format!("docent/{file}"));
        let lines: Vec<Value> = std::str::from_utf8(&bytes).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        let t = parse(&bytes);
        assert_eq!(t.format, "docent");
        assert_eq!(t.runs.len(), lines.len());
        for (i, (ds, line)) in per_run(&t).iter().zip(&lines).enumerate() {
            let expect: BTreeSet<&str> = line["expect"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
            let ours: BTreeSet<&str> = ds.iter().map(|d| d.code).collect();
            let our_errors: BTreeSet<&str> = ds.iter().filter(|d| d.severity == Severity::Error).map(|d| d.code).collect();
            let what = format!("{file} line {} ({})", i + 1, line["name"]);
            assert!(expect.is_subset(&ours), "{what}: expected {expect:?}, got {ours:?}");
            assert!(our_errors.is_subset(&expect), "{what}: unexpected errors {our_errors:?} (expected {expect:?}): {:#?}", ds);
            for d in ds {
                assert!(d.line == i as u32 + 1, "{what}: {} points at line {}", d.code, d.line);
            }
        }
    }
}

fn diag<'t>(t: &'t Trace, code: &str) -> &'t Diagnostic {
    t.diagnostics.iter().find(|d| d.code == code).unwrap_or_else(|| panic!("no {code} in {:?}", codes(t)))
}

#[test]
fn older_run_maps_onto_the_model() {
    let t = parse(&fixture("docent/older_run.json"));
    assert_eq!(t.format, "docent");
    assert_eq!(t.detection.confidence, 1.0);
    assert!(t.detection.evidence.iter().any(|e| e.contains("older Docent generation")), "{:?}", t.detection.evidence);
    assert!(t.detection.evidence.iter().any(|e| e.contains("`metadata.scores`")));
    assert!(t.diagnostics.is_empty(), "{:?}", codes(&t));
    let run = &t.runs[0];
    assert_eq!(run.id, "run-older-hand");
    assert_eq!(run.name.as_deref(), Some("hand-written older run"));
    assert_eq!(run.description.as_deref(), Some("transcripts keyed by name; metadata with scores"));
    assert_eq!(run.metadata["scores"], serde_json::json!({"correct": true, "reward": 1}));
    assert_eq!(run.metadata["_field_descriptions"], serde_json::json!({"scores": "metrics"}));
    assert_eq!(run.metadata["_docent"]["id"], "run-older-hand");
    let keys: Vec<&str> = run.transcripts.iter().map(|t| t.key.as_str()).collect();
    assert_eq!(keys, ["agent", "grader"]);
    assert_eq!(run.transcripts[0].events, 0..6);
    assert_eq!(run.transcripts[1].events, 6..8);
    assert_eq!(run.transcripts[0].metadata["turns"], 3);
    assert_eq!(t.events[7].transcript, 1);
    let kinds: Vec<&str> = t.events.iter().map(|e| e.source_kind.as_str()).collect();
    assert_eq!(kinds, ["SystemMessage", "UserMessage", "AssistantMessage", "ToolMessage", "ToolMessage", "AssistantMessage", "UserMessage", "AssistantMessage"]);
    let EventBody::Message(m) = &t.events[2].body else { panic!() };
    assert_eq!(m.role, "assistant");
    assert_eq!(
        m.content,
        Content::Parts(vec![ContentPart::Reasoning("I should call the weather tool.".into()), ContentPart::Text("Checking.".into())])
    );
    assert_eq!(m.tool_calls.len(), 2);
    assert_eq!(m.tool_calls[0].id.as_deref(), Some("w1"));
    assert_eq!(m.tool_calls[0].function, "weather");
    assert_eq!(m.tool_calls[0].arguments.value, Some(serde_json::json!({"city": "Paris"}).into()));
    assert_eq!(m.tool_calls[0].result, Some(3));
    assert_eq!(m.tool_calls[1].result, Some(4));
    // `type` and `view` stay reachable through the raw JSON.
    let raw = std::str::from_utf8(t.raw_json(2).unwrap()).unwrap();
    assert!(raw.contains("\"view\": {\"format\": \"text\"") && raw.starts_with('{') && raw.ends_with('}'), "{raw}");
    let EventBody::ToolResult(r) = &t.events[3].body else { panic!() };
    assert_eq!((r.call_id.as_deref(), r.call, r.status, r.implicit_link), (Some("w1"), Some(CallRef { event: 2, call: 0 }), ToolStatus::Success, false));
    assert_eq!(r.content, Content::Text("18C, cloudy".into()));
    let EventBody::ToolResult(r) = &t.events[4].body else { panic!() };
    assert_eq!((r.call, r.status), (Some(CallRef { event: 2, call: 1 }), ToolStatus::Error));
    assert_eq!(t.events[3].path, "$.transcripts.agent.messages[3]");
    assert_eq!({ let p = t.event_position(3).unwrap(); (p.line, p.column) }, (22, 9));
}

#[test]
fn current_run_keeps_transcript_fields_and_groups() {
    let t = parse(&fixture("docent/current_run.json"));
    assert_eq!(t.format, "docent");
    assert!(t.detection.evidence.iter().any(|e| e.contains("current Docent generation")));
    assert!(t.detection.evidence.iter().any(|e| e.contains("`transcript_groups`")));
    assert!(t.diagnostics.is_empty(), "{:?}", codes(&t));
    let run = &t.runs[0];
    assert_eq!(run.metadata["scores"]["passed"], 1);
    assert_eq!(run.metadata["_docent"]["generation"], "current");
    assert_eq!(run.metadata["_docent"]["transcript_groups"][0]["id"], "g1");
    let keys: Vec<&str> = run.transcripts.iter().map(|t| t.key.as_str()).collect();
    assert_eq!(keys, ["t-main", "t-sub"]);
    let main = &run.transcripts[0].metadata;
    assert_eq!(main["sandbox"], "docker");
    assert_eq!(main["_docent"]["name"], "main agent");
    assert_eq!(main["_docent"]["transcript_group_id"], "g1");
    assert_eq!(main["_docent"]["created_at"], "2025-02-01T09:30:00Z");
    let EventBody::ToolResult(r) = &t.events[2].body else { panic!() };
    assert_eq!(r.call, Some(CallRef { event: 1, call: 0 }));
    assert_eq!(t.linked_result_count(), 1);
    assert_eq!(t.events[3].path, "$.transcripts[0].messages[3]");
    // Message metadata stays in the raw JSON.
    assert!(std::str::from_utf8(t.raw_json(0).unwrap()).unwrap().contains("\"metadata\": {\"turn\": 1}"));
}

#[test]
fn a_run_without_transcripts_is_an_error() {
    let t = parse_as(&fixture("docent/missing_transcripts.json"), "docent");
    assert_eq!(errors(&t), ["missing-transcripts"]);
    let d = diag(&t, "missing-transcripts");
    assert_eq!((d.path.as_str(), d.line, d.column), ("$", 1, 1));
    assert!(d.message.contains("Docent nests messages"), "{}", d.message);
    assert_eq!(t.runs[0].id, "no-transcripts");
}

#[test]
fn an_unknown_role_is_named_and_its_message_kept() {
    let t = parse(&fixture("docent/unknown_role.json"));
    assert_eq!(errors(&t), ["unknown-role"]);
    let d = diag(&t, "unknown-role");
    assert!(d.message.contains("\"developer\""), "{}", d.message);
    assert_eq!((d.path.as_str(), d.line, d.column), ("$.transcripts[0].messages[1].role", 7, 18));
    assert_eq!(d.event, Some(1));
    assert_eq!(t.events.len(), 3);
    assert_eq!(t.events[1].source_kind, "ChatMessage:developer");
    assert!(matches!(&t.events[1].body, EventBody::Message(m) if m.role == "developer" && m.content == Content::Text("be brief".into())));
}

#[test]
fn a_bad_content_part_type_is_an_error_and_the_part_is_kept() {
    let t = parse(&fixture("docent/bad_content_part.json"));
    assert_eq!(errors(&t), ["content-part-type"]);
    let d = diag(&t, "content-part-type");
    assert!(d.message.contains("\"image\"") && d.message.contains("\"reasoning\""), "{}", d.message);
    assert_eq!((d.path.as_str(), d.line), ("$.transcripts[0].messages[0].content[1].type", 10));
    let EventBody::Message(m) = &t.events[0].body else { panic!() };
    let Content::Parts(parts) = &m.content else { panic!() };
    assert_eq!(parts[0], ContentPart::Text("What is in this picture?".into()));
    assert!(matches!(&parts[1], ContentPart::Other(v) if v["type"] == "image"));
}

#[test]
fn tool_calls_need_an_id_and_a_function() {
    let t = parse(&fixture("docent/tool_call_missing_id.json"));
    assert_eq!(errors(&t), ["tool-call-missing-id"]);
    let d = diag(&t, "tool-call-missing-id");
    assert_eq!((d.path.as_str(), d.line, d.column), ("$.transcripts.main.messages[0].tool_calls[0]", 6, 25));
    // Without ids, the tool message answers the unanswered call to its function.
    let EventBody::ToolResult(r) = &t.events[1].body else { panic!() };
    assert_eq!((r.call, r.implicit_link), (Some(CallRef { event: 0, call: 0 }), true));

    let t = parse(&fixture("docent/tool_call_missing_function.json"));
    assert_eq!(errors(&t), ["tool-call-missing-function"]);
    assert_eq!(diag(&t, "tool-call-missing-function").path, "$.transcripts[0].messages[0].tool_calls[0]");
    assert_eq!(t.linked_result_count(), 1);
}

#[test]
fn metadata_of_the_wrong_type_is_an_error_at_each_level() {
    let t = parse(&fixture("docent/metadata_wrong_type.json"));
    let found: Vec<(&str, u32)> = t.diagnostics.iter().filter(|d| d.code == "metadata-type").map(|d| (d.path.as_str(), d.line)).collect();
    assert_eq!(found, [("$.transcripts[0].messages[0].metadata", 5), ("$.transcripts[0].metadata", 6), ("$.metadata", 9)]);
    assert_eq!(errors(&t).len(), 3);
    // Kept anyway.
    assert_eq!(t.runs[0].metadata["metadata"], serde_json::json!(["not", "an", "object"]));
}

#[test]
fn json_lines_and_lists_of_runs_load_as_several_runs() {
    let t = parse(&fixture("docent/mixed_generations.jsonl"));
    assert_eq!(t.format, "docent");
    let ids: Vec<&str> = t.runs.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["a", "b", "c"]);
    assert_eq!((0..3).map(|i| generation(&t, i)).collect::<Vec<_>>(), ["older", "current", "current"]);
    let d = diag(&t, "unknown-role");
    assert_eq!((d.path.as_str(), d.line), ("$.transcripts[0].messages[0].role", 3));
    assert_eq!(t.events.iter().map(|e| e.run).collect::<Vec<_>>(), [0, 1, 2]);

    for (file, gen) in [("lib_older_runs.jsonl", "older"), ("lib_current_runs.jsonl", "current"), ("lib_older_runs_list.json", "older"), ("lib_current_runs_list.json", "current")] {
        let t = parse(&fixture(&format!("docent/{file}")));
        assert_eq!((t.format, t.runs.len()), ("docent", 2), "{file}");
        assert!(errors(&t).is_empty() && t.diagnostics.is_empty(), "{file}: {:?}", codes(&t));
        assert_eq!(generation(&t, 1), gen);
        assert!(t.runs.iter().all(|r| r.id.starts_with(gen)), "{file}");
    }
}

#[test]
fn what_the_libraries_write_reads_cleanly() {
    let t = parse(&fixture("docent/lib_older_run.json"));
    assert!(t.diagnostics.is_empty(), "{:?}", codes(&t));
    let keys: Vec<&str> = t.runs[0].transcripts.iter().map(|t| t.key.as_str()).collect();
    assert_eq!(keys, ["main", "judge"]);
    assert_eq!(t.runs[0].metadata["scores"]["reward"], 0.0);
    assert_eq!(t.runs[0].metadata["allow_fields_without_descriptions"], true);
    assert_eq!(t.tool_call_count(), 2);
    assert_eq!(t.linked_result_count(), 2);

    let t = parse(&fixture("docent/lib_current_run.json"));
    assert!(t.diagnostics.is_empty(), "{:?}", codes(&t));
    let run = &t.runs[0];
    assert_eq!(run.transcripts.len(), 2);
    assert_eq!(run.transcripts[0].key, "current-t-1");
    assert_eq!(run.transcripts[0].metadata["_docent"]["name"], "attempt 1");
    assert_eq!(run.metadata["_docent"]["transcript_groups"][0]["name"], "attempts");
    let statuses: Vec<ToolStatus> =
        t.events.iter().filter_map(|e| if let EventBody::ToolResult(r) = &e.body { Some(r.status) } else { None }).collect();
    assert_eq!(statuses, [ToolStatus::Success, ToolStatus::Error]);
    let EventBody::Message(m) = &t.events[2].body else { panic!() };
    assert!(matches!(&m.content, Content::Parts(p) if p[0] == ContentPart::Reasoning("Run the tests first.".into())));
}

#[test]
fn tool_messages_link_within_their_transcript() {
    let t = parse(&fixture("docent/linking.json"));
    assert!(errors(&t).is_empty(), "{:?}", codes(&t));
    let result = |i: usize| match &t.events[i].body {
        EventBody::ToolResult(r) => r.clone(),
        _ => panic!("event {i} is not a tool result"),
    };
    assert_eq!(result(1).call, Some(CallRef { event: 0, call: 1 }));
    let implicit = result(2);
    assert_eq!((implicit.call, implicit.implicit_link), (Some(CallRef { event: 0, call: 0 }), true));
    assert_eq!(result(3).call, None);
    // A reused id answers the later call.
    assert_eq!(result(5).call, Some(CallRef { event: 4, call: 0 }));
    // Ids do not cross transcripts.
    assert_eq!(result(7).call, None);
    let warnings: Vec<(&str, &str)> = t.diagnostics.iter().map(|d| (d.code, d.path.as_str())).collect();
    assert_eq!(
        warnings,
        [
            ("unanswered-tool-call", "$.transcripts[0].messages[0].tool_calls[2]"),
            ("unknown-tool-call-id", "$.transcripts[0].messages[3].tool_call_id"),
            ("duplicate-tool-call-id", "$.transcripts[0].messages[4].tool_calls[0]"),
            ("tool-message-without-call", "$.transcripts[1].messages[0]"),
            ("unknown-tool-call-id", "$.transcripts[1].messages[1].tool_call_id"),
        ]
    );
}

#[test]
fn values_that_are_not_runs_are_errors_but_kept() {
    let t = parse_as(&fixture("docent/not_runs.json"), "docent");
    assert_eq!(t.runs.len(), 4);
    assert_eq!(errors(&t), ["run-not-object", "run-not-object", "run-not-object"]);
    let last = t.diagnostics.iter().rfind(|d| d.code == "run-not-object").unwrap();
    assert_eq!(last.path, "$[3]");
    assert!(last.message.contains("plain list of chat messages"), "{}", last.message);
    let kinds: Vec<&str> = t.events.iter().map(|e| e.body.kind()).collect();
    assert_eq!(kinds, ["unparsed", "unparsed", "message", "unparsed"]);
}

#[test]
fn detection_leaves_openai_messages_and_the_tau_bench_sample_alone() {
    // A plain OpenAI message list is the openai format's, not ours.
    let t = parse(&fixture("docent/openai_messages.json"));
    assert_eq!(t.format, "openai");
    assert_eq!(t.detection.runner_up, None);
    // And a Docent run is ours, with openai not even a runner-up.
    let t = parse(&fixture("docent/lib_current_run.json"));
    assert_eq!((t.format, t.detection.runner_up.clone()), ("docent", None));

    // The corpus's Docent sample is a tau-bench result, not an AgentRun.
    let files = corpus_files("docent");
    assert_eq!(files.len(), 1);
    let bytes = std::fs::read(&files[0]).unwrap();
    match parse_trace(bytes.clone(), &ParseOptions::default()) {
        Ok(t) => assert_ne!(t.format, "docent"),
        Err(e) => assert!(e.to_string().contains("not"), "{e}"),
    }
    let split = agent_trace_viewer::json::split(&bytes, 0);
    assert!(Docent.detect(&Sample::new(&bytes, &split)).is_none());
    // Forced, it is one run without transcripts.
    let t = parse_as(&bytes, "docent");
    assert_eq!(errors(&t), ["missing-transcripts"]);
    assert_eq!(t.runs.len(), 1);
}

#[test]
fn explorer_rows_are_not_docent_runs() {
    let row = br#"{"messages": [{"role": "user", "content": "hi"}], "metadata": {"k": 1}}"#;
    let split = agent_trace_viewer::json::split(row, 0);
    assert!(Docent.detect(&Sample::new(row, &split)).is_none());
    assert_eq!(parse(row).format, "openai");
}

#[test]
fn truncated_and_mangled_runs_never_panic() {
    for file in ["lib_current_run.json", "older_run.json", "linking.json", "mixed_generations.jsonl"] {
        let bytes = fixture(&format!("docent/{file}"));
        for cut in (0..bytes.len()).step_by(7) {
            let _ = parse_trace(bytes[..cut].to_vec(), &ParseOptions { format: Some("docent".into()), ..Default::default() });
        }
    }
    for doc in [&b"{\"transcripts\": {\"a\": {\"messages\": {}}}, \"metadata\": 3}"[..], b"{\"transcripts\": [[]]}", b"[[[]]]", b"\"x\"", b"{\"transcripts\": [{\"messages\": [1, [], {\"role\": {}}]}]}"] {
        let t = parse_as(doc, "docent");
        assert!(t.error_count() > 0, "{}", String::from_utf8_lossy(doc));
    }
}

#[test]
fn each_transcript_starts_where_its_events_start() {
    // begin_transcript replaces the run's empty "default" transcript.
    let t = parse(br#"{"transcripts": [{"id": "x", "messages": []}, {"id": "y", "messages": [{"role": "user", "content": "q"}]}]}"#);
    let keys: Vec<(&str, std::ops::Range<u32>)> = t.runs[0].transcripts.iter().map(|t| (t.key.as_str(), t.events.clone())).collect();
    assert_eq!(keys, [("x", 0..0), ("y", 0..1)]);
    assert_eq!(t.events[0].transcript, 1);
    // A run without transcripts keeps the default one.
    let t = parse_as(br#"{"id": "r"}"#, "docent");
    assert_eq!(t.runs[0].transcripts.len(), 1);
    assert_eq!(t.runs[0].transcripts[0].key, "default");
}
