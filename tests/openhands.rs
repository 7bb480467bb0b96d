//! The `openhands` format against goldens from openhands-sdk 1.58.2
//! (scripts/oracle/openhands/goldens.py): per-event verdicts, the condensed
//! view and the LLM message stream, for the SDK-built fixtures and the
//! SDK-era corpus files; plus V0 trajectories, layouts and detection.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use agent_trace_viewer::diagnostic::Severity;
use agent_trace_viewer::import::openhands::{condensed_view, llm_messages};
use agent_trace_viewer::model::{Content, EventBody, ToolStatus, Trace};
use agent_trace_viewer::{parse_files, parse_trace, ParseOptions};
use common::{codes, corpus_dir, corpus_files, fixture, parse};
use serde_json::Value;

fn golden(name: &str) -> Value {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/openhands").join(format!("{name}.json"));
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("cannot read golden {}: {e}", p.display()));
    serde_json::from_str(&text).unwrap()
}

fn read_files(paths: &[PathBuf]) -> Vec<(String, Vec<u8>)> {
    paths.iter().map(|p| (p.file_name().unwrap().to_string_lossy().to_string(), std::fs::read(p).unwrap())).collect()
}

fn fixture_folder() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/openhands/conversation/events");
    std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect()
}

/// The top-level field a diagnostic path names, relative to its event's path (`` for the root).
fn top_field(diag_path: &str, event_path: &str) -> String {
    let rest = diag_path.strip_prefix(event_path).unwrap_or(diag_path);
    if let Some(r) = rest.strip_prefix('.') {
        r.split(['.', '[']).next().unwrap_or_default().to_string()
    } else if let Some(r) = rest.strip_prefix("[\"") {
        r.split("\"]").next().unwrap_or_default().to_string()
    } else {
        String::new()
    }
}

/// Compares one trace with one golden file; returns the number of events checked.
fn check_against_golden(name: &str, trace: &Trace) -> usize {
    let g = golden(name);
    assert_eq!(trace.format, "openhands", "{name}: detected as {}", trace.format);
    let runs = g["runs"].as_array().unwrap();
    assert_eq!(trace.runs.len(), runs.len(), "{name}: run count");
    let mut checked = 0;
    for (r, grun) in runs.iter().enumerate() {
        let run = u32::try_from(r).unwrap();
        let events: Vec<usize> = (0..trace.events.len()).filter(|i| trace.events[*i].run == run).collect();
        let gevents = grun["events"].as_array().unwrap();
        assert_eq!(events.len(), gevents.len(), "{name} run {r}: event count");
        for (i, ge) in events.iter().zip(gevents) {
            let event = &trace.events[*i];
            let errors: Vec<_> = trace.diagnostics.iter().filter(|d| d.event == Some(u32::try_from(*i).unwrap()) && d.severity == Severity::Error).collect();
            let expected_kind = ge["kind"].as_str().unwrap_or("");
            if !expected_kind.is_empty() {
                assert_eq!(event.source_kind, expected_kind, "{name} run {r} event {i}: kind");
            }
            let accepted = ge["accepted"].as_bool().unwrap();
            assert_eq!(
                errors.is_empty(),
                accepted,
                "{name} run {r} event {i} ({expected_kind}): SDK accepted={accepted}, we report {:?}; SDK errors {}",
                errors.iter().map(|d| format!("{} {} {}", d.code, d.path, d.message)).collect::<Vec<_>>(),
                ge["errors"]
            );
            if !accepted {
                let ours: BTreeSet<String> = errors.iter().map(|d| top_field(&d.path, &event.path)).collect();
                let theirs: BTreeSet<String> = ge["errors"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|e| e["loc"].as_array().and_then(|l| l.first()).and_then(Value::as_str).unwrap_or("").to_string())
                    .collect();
                assert_eq!(ours, theirs, "{name} run {r} event {i} ({expected_kind}): fields in error; SDK says {}", ge["errors"]);
            }
            checked += 1;
        }
        check_views(name, trace, run, grun);
    }
    checked
}

fn check_views(name: &str, trace: &Trace, run: u32, grun: &Value) {
    let view = condensed_view(trace, run);
    let ours: Vec<(String, String)> = view.entries.iter().map(|e| (e.id.clone(), e.kind.clone())).collect();
    let theirs: Vec<(String, String)> = grun["view"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["id"].as_str().unwrap().to_string(), e["kind"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(ours, theirs, "{name} run {run}: condensed view");
    for (ours, theirs) in view.entries.iter().zip(grun["view"].as_array().unwrap()) {
        assert_eq!(ours.summary.as_deref(), theirs["summary"].as_str().filter(|_| ours.event.is_none()), "{name}: inserted summary text");
    }
    assert_eq!(view.unhandled_condensation_request, grun["unhandled_condensation_request"].as_bool().unwrap(), "{name} run {run}: unhandled request");
    let msgs = llm_messages(trace, run);
    assert_eq!(msgs.error.is_some(), grun.get("messages_error").is_some(), "{name} run {run}: messages error {:?}", msgs.error);
    if let Some(gmsgs) = grun.get("messages").and_then(Value::as_array) {
        assert_eq!(msgs.messages.len(), gmsgs.len(), "{name} run {run}: message count; ours {:?}", msgs.messages);
        for (k, (m, gm)) in msgs.messages.iter().zip(gmsgs).enumerate() {
            assert_eq!(m.role, gm["role"].as_str().unwrap(), "{name} run {run} message {k}: role");
            let ids = gm.get("tool_call_ids").and_then(Value::as_array).map(|a| a.iter().map(|x| x.as_str().unwrap().to_string()).collect::<Vec<_>>());
            assert_eq!(m.tool_call_ids, ids, "{name} run {run} message {k}: tool_call_ids");
            assert_eq!(m.tool_call_id.as_deref(), gm.get("tool_call_id").and_then(Value::as_str), "{name} run {run} message {k}: tool_call_id");
            // Observation content depends on each tool's to_llm_content; other roles are exact.
            if m.role != "tool" {
                assert_eq!(m.content_parts as u64, gm["content_parts"].as_u64().unwrap(), "{name} run {run} message {k} ({}): content parts", m.role);
            }
        }
    }
}

fn corpus_file(name: &str) -> PathBuf {
    corpus_dir().join("openhands").join(name)
}

fn parse_path(p: &Path) -> Trace {
    parse(&std::fs::read(p).unwrap())
}

#[test]
fn fixtures_match_the_sdk() {
    let mut n = 0;
    n += check_against_golden("sdk_stream", &parse(&fixture("openhands/sdk_stream.json")));
    n += check_against_golden("sdk_stream.jsonl", &parse(&fixture("openhands/sdk_stream.jsonl")));
    n += check_against_golden("sdk_eval_output", &parse(&fixture("openhands/sdk_eval_output.jsonl")));
    n += check_against_golden("sdk_invalid", &parse(&fixture("openhands/sdk_invalid.jsonl")));
    let folder = parse_files(read_files(&fixture_folder()), &ParseOptions::default()).unwrap();
    n += check_against_golden("conversation", &folder);
    assert!(n >= 130, "only {n} events compared");
}

#[test]
fn sdk_corpus_matches_the_sdk() {
    let mut n = 0;
    for name in ["corpus-conversation-3fdb3160", "corpus-conversation-cd945624"] {
        let g = golden(name);
        let files: Vec<PathBuf> = g["files"].as_array().unwrap().iter().map(|f| corpus_file(f.as_str().unwrap())).collect();
        // Shuffled on purpose: parse_files must restore the SDK's order.
        let mut shuffled = read_files(&files);
        shuffled.reverse();
        n += check_against_golden(name, &parse_files(shuffled, &ParseOptions::default()).unwrap());
    }
    n += check_against_golden("corpus-goal-events", &parse_path(&corpus_file("OpenHands__software-agent-sdk__tests__sdk__conversation__goal__fixtures__events.jsonl")));
    for (name, tag) in [("corpus-openagentsafety-critic", "output.critic_attempt_1.jsonl"), ("corpus-openagentsafety-initial", "N_initial__output.jsonl")] {
        let file = corpus_files("openhands").into_iter().find(|p| p.to_string_lossy().ends_with(tag)).unwrap();
        n += check_against_golden(name, &parse_path(&file));
    }
    assert!(n >= 800, "only {n} corpus events compared");
}

#[test]
fn every_event_class_is_covered() {
    let g = golden("sdk_stream");
    let kinds: BTreeSet<&str> = g["runs"][0]["events"].as_array().unwrap().iter().map(|e| e["kind"].as_str().unwrap()).collect();
    for k in [
        "MessageEvent",
        "ActionEvent",
        "ObservationEvent",
        "AgentErrorEvent",
        "UserRejectObservation",
        "SystemPromptEvent",
        "Condensation",
        "CondensationRequest",
        "CondensationSummaryEvent",
        "ConversationStateUpdateEvent",
        "LLMCompletionLogEvent",
        "TokenEvent",
        "PauseEvent",
    ] {
        assert!(kinds.contains(k), "fixture lacks {k}");
    }
    let run = &g["runs"][0];
    assert!(run["view"].as_array().unwrap().iter().any(|e| e["id"].as_str().unwrap().ends_with("-summary")), "no inserted summary");
    assert!(
        run["messages"].as_array().unwrap().iter().any(|m| m["tool_call_ids"].as_array().is_some_and(|a| a.len() == 2)),
        "no batched parallel calls"
    );
    let invalid = golden("sdk_invalid");
    let verdicts: Vec<bool> = invalid["runs"][0]["events"].as_array().unwrap().iter().map(|e| e["accepted"].as_bool().unwrap()).collect();
    assert!(verdicts.iter().filter(|a| !**a).count() >= 25 && verdicts.iter().any(|a| *a), "invalid fixture should mix verdicts");
}

#[test]
fn sdk_mapping_onto_the_model() {
    let t = parse(&fixture("openhands/sdk_stream.json"));
    assert_eq!(t.runs.len(), 1);
    // One event per record.
    let records: Value = serde_json::from_slice(&fixture("openhands/sdk_stream.json")).unwrap();
    assert_eq!(t.events.len(), records.as_array().unwrap().len());
    let by_kind = |k: &str| t.events.iter().position(|e| e.source_kind == k).unwrap();
    // System prompt: a system message; its tools in run metadata.
    let sys = &t.events[by_kind("SystemPromptEvent")];
    assert!(matches!(&sys.body, EventBody::Message(m) if m.role == "system" && m.content.text().contains("OpenHands agent")));
    let tools = t.runs[0].metadata["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|x| x["name"].as_str().unwrap()).collect();
    assert_eq!(names, vec!["terminal", "file_editor", "think", "finish"]);
    // Action: assistant message with one call, reasoning and thought as parts.
    let act = &t.events[by_kind("ActionEvent")];
    let EventBody::Message(m) = &act.body else { panic!("action is not a message") };
    assert_eq!(m.role, "assistant");
    assert_eq!(m.tool_calls.len(), 1);
    assert_eq!(m.tool_calls[0].id.as_deref(), Some("call_run_1"));
    assert_eq!(m.tool_calls[0].function, "terminal");
    assert_eq!(m.tool_calls[0].arguments.value.as_ref().unwrap().get()["command"], "python -m pytest tests/test_math.py -q");
    let Content::Parts(parts) = &m.content else { panic!() };
    assert!(parts.iter().any(|p| matches!(p, agent_trace_viewer::model::ContentPart::Reasoning(r) if r.decoded().contains("run it"))));
    // Every call is answered, and linked both ways.
    assert_eq!(t.tool_call_count(), 7);
    assert_eq!(t.linked_result_count(), 7);
    let err = &t.events[by_kind("AgentErrorEvent")];
    let EventBody::ToolResult(r) = &err.body else { panic!() };
    assert_eq!(r.status, ToolStatus::Error);
    assert_eq!(r.call_id.as_deref(), Some("call_view_b"));
    let call = t.call(r.call.unwrap()).unwrap();
    assert_eq!(call.result, Some(u32::try_from(by_kind("AgentErrorEvent")).unwrap()));
    let rej = &t.events[by_kind("UserRejectObservation")];
    assert!(matches!(&rej.body, EventBody::ToolResult(r) if r.status == ToolStatus::Error && r.content.text() == "Action rejected: Do not delete tests." && r.call.is_some()));
    for (k, want) in [("Condensation", "key-value"), ("CondensationRequest", "marker"), ("PauseEvent", "marker"), ("TokenEvent", "key-value"), ("LLMCompletionLogEvent", "key-value")] {
        assert_eq!(t.events[by_kind(k)].body.kind(), want, "{k}");
    }
    assert!(t.diagnostics.iter().all(|d| d.severity != Severity::Error), "{:?}", codes(&t));
    assert_eq!(t.events[0].timestamp.as_deref(), Some("2026-03-01T10:00:01.001111"));
}

#[test]
fn views_are_serialisable_and_point_at_events() {
    let t = parse(&fixture("openhands/sdk_stream.json"));
    let view = condensed_view(&t, 0);
    // The two forgotten events are dropped; the inserted summary has no event.
    assert_eq!(view.entries.iter().filter(|e| e.event.is_none()).count(), 1);
    assert!(view.dropped.len() >= 2);
    let msgs = llm_messages(&t, 0);
    let batched = msgs.messages.iter().find(|m| m.tool_call_ids.as_ref().is_some_and(|ids| ids.len() == 2)).unwrap();
    assert_eq!(batched.events.len(), 2);
    let json = serde_json::to_value(&msgs).unwrap();
    assert!(json["messages"][0]["role"] == "system");
    assert!(serde_json::to_string(&view).unwrap().contains("\"unhandledCondensationRequest\""));
}

#[test]
fn invalid_events_point_at_the_field() {
    let t = parse(&fixture("openhands/sdk_invalid.jsonl"));
    let names: Vec<String> = serde_json::from_slice(&fixture("openhands/sdk_invalid.names.json")).unwrap();
    let at = |name: &str| u32::try_from(names.iter().position(|n| n == name).unwrap()).unwrap();
    let diag = |name: &str| t.diagnostics.iter().find(|d| d.event == Some(at(name)) && d.severity == Severity::Error).unwrap();
    let d = diag("action-missing-tool-name");
    assert_eq!((d.code, d.path.as_str()), ("missing-field", "$.tool_name"));
    let d = diag("message-bad-role");
    assert_eq!((d.code, d.path.as_str()), ("invalid-value", "$.llm_message.role"));
    assert_eq!(d.line, at("message-bad-role") + 1);
    assert!(d.column > 1);
    let d = diag("action-unknown-action-kind");
    assert_eq!(d.code, "unknown-action-kind");
    assert!(d.message.contains("ExecuteBashAction"), "{}", d.message);
    assert_eq!(diag("event-unknown-kind").code, "unknown-event-kind");
    assert_eq!(diag("event-missing-kind").code, "missing-kind");
    assert_eq!(diag("event-reserved-id").code, "reserved-event-id");
    assert_eq!(diag("pause-extra").code, "unknown-field");
    assert_eq!(diag("condensation-negative-offset").code, "out-of-range");
    let d = diag("token-float-ids");
    assert_eq!(d.path, "$.prompt_token_ids[1]");
    // Unknown kinds are kept as events labelled with the kind.
    let e = &t.events[at("event-unknown-kind") as usize];
    assert_eq!(e.source_kind, "SystemPromptUpdateEvent");
    assert!(matches!(&e.body, EventBody::Marker(m) if m.label == "SystemPromptUpdateEvent"));
    assert!(matches!(t.events[at("event-not-object") as usize].body, EventBody::Unparsed(_)));
}

#[test]
fn conversation_folder_keeps_files_and_order() {
    let mut files = read_files(&fixture_folder());
    files.sort_by(|a, b| b.0.cmp(&a.0));
    let t = parse_files(files, &ParseOptions::default()).unwrap();
    assert_eq!(t.files.len(), fixture_folder().len());
    assert!(t.files[0].name.starts_with("event-00000-"));
    // A pretty-printed file is one event; its raw bytes are the whole file's JSON.
    let pretty = t.files.iter().position(|f| f.name.starts_with("event-00003-")).unwrap();
    let e = t.events.iter().position(|e| t.file_at(e.raw.start).map(|f| &f.name) == Some(&t.files[pretty].name)).unwrap();
    let raw = std::str::from_utf8(t.raw_json(e).unwrap()).unwrap();
    assert!(raw.contains('\n') && raw.starts_with('{') && raw.ends_with('}'));
    assert_eq!(t.event_position(e).unwrap().line, 1, "lines count from the file's start");
    // A base_state.json among the files becomes run metadata, not an event.
    let mut with_state = read_files(&fixture_folder());
    with_state.push(("base_state.json".to_string(), br#"{"id": "conv-1", "agent": {"llm": {"model": "gpt-4o"}}, "execution_status": "finished"}"#.to_vec()));
    let t2 = parse_files(with_state, &ParseOptions::default()).unwrap();
    assert_eq!(t2.events.len(), t.events.len());
    assert_eq!(t2.runs[0].id, "conv-1");
    assert_eq!(t2.runs[0].metadata["model"], "gpt-4o");
}

#[test]
fn v0_trajectories_link_by_cause_and_tool_call_id() {
    let t = parse_path(&corpus_file("All-Hands-AI__OpenHands__tests__runtime__trajs__basic.json"));
    assert_eq!(t.format, "openhands");
    assert!(t.events.iter().all(|e| e.source_kind.starts_with("action:") || e.source_kind.starts_with("observation:")));
    // Every observation links to its action (the final `finish` call has no observation in V0).
    let results = |t: &Trace| t.events.iter().filter(|e| e.body.kind() == "tool-result").count();
    assert_eq!(results(&t), t.linked_result_count());
    assert!(t.linked_result_count() >= 1);
    let user = t.events.iter().find(|e| e.source_kind == "action:message").unwrap();
    assert!(matches!(&user.body, EventBody::Message(m) if m.role == "user" && m.content.text().contains("2048")));
    let edit = t.events.iter().find(|e| e.source_kind == "action:edit").unwrap();
    let EventBody::Message(m) = &edit.body else { panic!() };
    assert_eq!(m.tool_calls[0].function, "str_replace_editor");
    assert!(m.tool_calls[0].result.is_some());
    // V0 runs take no part in the SDK views.
    assert!(condensed_view(&t, 0).entries.is_empty());

    let gui = parse_path(&corpus_file("All-Hands-AI__OpenHands__tests__runtime__trajs__basic_gui_mode.json"));
    assert!(gui.events.iter().any(|e| e.source_kind == "observation:agent_state_changed" && e.body.kind() == "marker"));

    let resolver = parse_path(&corpus_file("All-Hands-AI__OpenHands__tests__unit__resolver__mock_output__output.jsonl"));
    assert_eq!(resolver.format, "openhands");
    assert_eq!(resolver.runs.len(), 2);
    // `[action, observation]` pairs without ids link inside the pair.
    assert!(resolver.tool_call_count() >= 20);
    assert_eq!(results(&resolver), resolver.linked_result_count());

    let msb = parse_path(&corpus_file("All-Hands-AI__OpenHands__evaluation__benchmarks__multi_swe_bench__examples__output.jsonl"));
    assert_eq!(msb.runs.len(), 3);
    assert!(msb.runs.iter().all(|r| r.metadata.contains_key("instance_id")));
    assert!(msb.linked_result_count() * 10 >= msb.tool_call_count() * 9, "{} of {}", msb.linked_result_count(), msb.tool_call_count());
}

#[test]
fn every_openhands_corpus_file_loads() {
    let mut loaded = 0;
    for p in corpus_files("openhands") {
        let bytes = std::fs::read(&p).unwrap();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let t = parse_trace(bytes, &ParseOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(t.format, "openhands", "{name}: detected as {} ({:?})", t.format, t.detection.evidence);
        if name.contains("traj_safety") {
            assert_eq!(codes(&t), vec!["python-repr"], "{name}");
            assert!(t.diagnostics[0].message.contains("repr"));
            assert_eq!(t.events.len(), 1);
        } else if name.ends_with("base_state.json") {
            assert!(codes(&t).contains(&"base-state"), "{name}: {:?}", codes(&t));
            assert!(t.runs[0].metadata.contains_key("agent"));
        } else {
            assert!(!t.events.is_empty(), "{name}");
        }
        if name.contains("__events__event-") {
            // One event file alone: no link warnings about the events it lacks.
            assert!(t.diagnostics.iter().all(|d| d.severity == Severity::Error), "{name}: {:?}", codes(&t));
        }
        for run in 0..t.runs.len() {
            let _ = condensed_view(&t, u32::try_from(run).unwrap());
            let _ = llm_messages(&t, u32::try_from(run).unwrap());
        }
        loaded += 1;
    }
    assert!(loaded >= 30, "{loaded}");
}

#[test]
fn detection_evidence_and_no_claim_on_openai_files() {
    let t = parse(&fixture("openhands/sdk_stream.jsonl"));
    assert!(t.detection.confidence > 0.9);
    assert!(t.detection.evidence[0].contains("`kind`"), "{:?}", t.detection.evidence);
    let v0 = parse_path(&corpus_file("All-Hands-AI__OpenHands__tests__runtime__trajs__basic_interactions.json"));
    assert!(v0.detection.evidence.iter().any(|e| e.contains("V0")), "{:?}", v0.detection.evidence);
    for p in corpus_files("invariant").into_iter().chain(corpus_files("swe-agent")) {
        if let Ok(t) = parse_trace(std::fs::read(&p).unwrap(), &ParseOptions::default()) {
            assert_ne!(t.format, "openhands", "{} claimed by openhands", p.display());
        }
    }
    let openai = br#"[{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]"#;
    assert_eq!(parse(openai).format, "openai");
}

#[test]
fn broken_input_gives_diagnostics_not_panics() {
    for bad in [
        &b"[{\"kind\": \"PauseEvent\", \"source\": \"user\"}, {\"kind\": "[..],
        b"{\"history\": 3}",
        b"{\"history\": [{\"kind\": \"MessageEvent\"}, 7, null]}",
        b"[[{\"kind\": \"PauseEvent\"}], {\"kind\": 5}]",
        b"{\"kind\": \"ActionEvent\", \"tool_call\": {\"arguments\": \"{not json\"}, \"thought\": null}",
        b"{\"id\": 1, \"observation\": \"run\", \"cause\": 99, \"content\": \"x\"}",
    ] {
        let t = parse_trace(bad.to_vec(), &ParseOptions { format: Some("openhands".to_string()), ..Default::default() }).unwrap();
        assert!(!t.diagnostics.is_empty(), "{}", String::from_utf8_lossy(bad));
        for run in 0..t.runs.len() {
            let _ = llm_messages(&t, u32::try_from(run).unwrap());
        }
    }
}

/// An eval output written by an older SDK: every `execute_bash` action and
/// observation carries an "unknown kind" error for openhands-sdk 1.58.2, yet
/// no call failed (no observation is an error). The diagnostics stay; the
/// failures count what the trace says (they were 17 of 17 when a diagnostic
/// on the call counted as a failure), and the diagnostics read as one finding
/// per message.
#[test]
fn an_older_sdk_output_has_diagnostics_but_no_failed_calls() {
    let t = parse_path(&corpus_file(
        "OpenHands__benchmarks__benchmarks__openagentsafety__outputs__mgulavani__openagentsafety_full_updated-train__litellm_proxy__neulab__gpt-4o-2024-08-06_maxiter_100_N_initial__output.jsonl",
    ));
    let unknown = t.diagnostics.iter().filter(|d| d.code == "unknown-action-kind" && d.severity == Severity::Error).count();
    assert_eq!(unknown, 17);
    let tools = agent_trace_viewer::analysis::stats::tool_stats(&t);
    let bash = tools.iter().find(|s| s.tool == "execute_bash").unwrap();
    assert_eq!((bash.calls, bash.answered, bash.failures), (17, 17, 0));
    assert_eq!(agent_trace_viewer::analysis::stats::trace_stats(&t).tools, tools);
    let groups = agent_trace_viewer::analysis::diagnostics::group(&t.diagnostics);
    let shape: Vec<(&str, u32, u32)> = groups.iter().map(|g| (g.code, g.count, g.events)).collect();
    assert_eq!(shape, vec![("unknown-action-kind", 17, 17), ("unknown-observation-kind", 17, 17), ("unknown-field", 1, 1)]);
    assert!(groups[0].headline().starts_with("17 records: openhands-sdk 1.58.2"), "{}", groups[0].headline());
    assert!(groups[0].message.contains("\"ExecuteBashAction\""));
    // `is:error` still finds the records with error diagnostics.
    let errors = agent_trace_viewer::query::filter(&t, "is:error", &mut Default::default()).unwrap();
    assert!(errors.len() >= 34, "{}", errors.len());
}
