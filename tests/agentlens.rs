//! The `agentlens` format (AgentLens sessions and events).
//!
//! The verdict test compares our Error paths, record by record, with the
//! errors pydantic reports for the issue's schema transcribed as pydantic
//! models (tests/golden/agentlens/verdicts.json, written by
//! scripts/oracle/agentlens/verdicts.py). The other tests check the mapping.

mod common;

use std::collections::BTreeSet;
use std::path::PathBuf;

use agent_trace_viewer::diagnostic::{Diagnostic, Severity};
use agent_trace_viewer::model::{CallRef, Content, ContentPart, EventBody, ToolStatus, Trace};
use common::{codes, errors, fixture, parse, parse_as};
use serde_json::{json, Value};

fn golden() -> Value {
    common::golden_json("agentlens/verdicts.json")
}

/// The record path prefix of a diagnostic path: `$[3]` of `$[3].tool_call`.
fn within(path: &str, prefix: &str) -> Option<String> {
    let rest = path.strip_prefix(prefix)?;
    (rest.is_empty() || rest.starts_with('.') || rest.starts_with('[')).then(|| format!("${rest}"))
}

fn record_errors(t: &Trace, r: &Value) -> (BTreeSet<String>, Vec<Diagnostic>) {
    let errs = t.diagnostics.iter().filter(|d| d.severity == Severity::Error);
    let picked: Vec<Diagnostic> = match (r.get("line").and_then(Value::as_u64), r.get("index").and_then(Value::as_u64)) {
        (Some(line), _) => errs.filter(|d| d.line as u64 == line).cloned().collect(),
        (None, Some(i)) => errs.filter(|d| within(&d.path, &format!("$[{i}]")).is_some()).cloned().collect(),
        (None, None) => errs.cloned().collect(),
    };
    let prefix = match r.get("index").and_then(Value::as_u64) {
        Some(i) => format!("$[{i}]"),
        None => "$".to_string(),
    };
    let paths = picked.iter().map(|d| within(&d.path, &prefix).unwrap_or_else(|| d.path.clone())).collect();
    (paths, picked)
}

#[test]
fn verdicts_agree_with_pydantic_record_by_record() {
    let g = golden();
    let mut compared = 0;
    let mut rejected = 0;
    for (key, file) in g["files"].as_object().unwrap() {
        let t = parse_as(&fixture(key.strip_prefix("fixtures/").unwrap()), "agentlens");
        for r in file["records"].as_array().unwrap() {
            let accepted = r["accepted"].as_bool().unwrap();
            let want: BTreeSet<String> = r["errors"].as_array().unwrap().iter().map(|e| e["path"].as_str().unwrap().to_string()).collect();
            let (got, diags) = record_errors(&t, r);
            let at = format!("{key} record {}", r.get("line").or(r.get("index")).unwrap());
            assert_eq!(got.is_empty(), accepted, "{at}: pydantic accepted={accepted} {:?}; ours {diags:?}", r["errors"]);
            assert_eq!(got, want, "{at}: our Error paths differ from pydantic's");
            // Every event record is shown, accepted or not.
            if r["model"] == "AgentEvent" {
                let shown = match (r.get("line").and_then(Value::as_u64), r.get("index").and_then(Value::as_u64)) {
                    (Some(line), _) => t.events.iter().any(|e| t.position_at(e.raw.start).line as u64 == line),
                    (None, Some(i)) => t.events.iter().any(|e| e.path == format!("$[{i}]")),
                    (None, None) => !t.events.is_empty(),
                };
                assert!(shown, "{at}: no event");
            }
            compared += 1;
            rejected += usize::from(!accepted);
        }
    }
    assert!(compared >= 110 && rejected >= 60, "compared {compared}, rejected {rejected}");
}

#[test]
fn golden_covers_every_fixture() {
    let g = golden();
    let files = g["files"].as_object().unwrap();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/agentlens");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let entry = entry.unwrap();
        // Folders hold what is not a fixture of its own (scaling/shapes.json).
        if entry.path().is_dir() {
            continue;
        }
        let name = entry.file_name().into_string().unwrap();
        assert!(files.contains_key(&format!("fixtures/agentlens/{name}")), "fixture {name} has no golden; rerun scripts/oracle/agentlens/verdicts.py");
    }
}

#[test]
fn a_session_maps_every_event_type() {
    let t = parse(&fixture("agentlens/session.json"));
    assert_eq!(t.format, "agentlens", "{:?}", t.detection);
    assert!(t.diagnostics.is_empty(), "{:?}", t.diagnostics);
    assert_eq!(t.runs.len(), 1);
    let run = &t.runs[0];
    assert_eq!((run.id.as_str(), run.name.as_deref()), ("s-1", Some("travel-agent")));
    assert_eq!(run.metadata["status"], "error");
    assert_eq!((run.metadata["total_tokens_in"].clone(), run.metadata["total_tokens_out"].clone()), (json!(200), json!(60)));
    assert_eq!(run.metadata["metadata"], json!({"env": "staging"}));
    let kinds: Vec<(&str, &str)> = t.events.iter().map(|e| (e.source_kind.as_str(), e.body.kind())).collect();
    assert_eq!(
        kinds,
        [
            ("llm_call", "message"),
            ("decision", "message"),
            ("tool_call", "tool-call"),
            ("tool_call", "tool-result"),
            ("tool_error", "tool-call"),
            ("tool_error", "tool-result"),
            ("agent_call", "marker"),
            ("agent_error", "marker"),
            ("llm_call", "message"),
            ("generic", "marker"),
        ]
    );
    // llm_call: the output as text; model and tokens as metadata.
    let EventBody::Message(m) = &t.events[0].body else { panic!() };
    assert_eq!((m.role.as_str(), m.content.text().as_str()), ("assistant", "I will look up flights."));
    assert_eq!((t.events[0].metadata["model"].clone(), t.events[0].metadata["tokens_in"].clone()), (json!("gpt-4o"), json!(120)));
    assert_eq!(t.events[0].metadata["input_data"], json!({"prompt": "Plan a trip to Rome"}));
    assert_eq!(t.events[0].timestamp.as_deref(), Some("2025-03-01T10:00:00Z"));
    // decision: reasoning, alternatives and confidence are content.
    let EventBody::Message(m) = &t.events[1].body else { panic!() };
    assert_eq!(
        m.content,
        Content::Parts(vec![
            ContentPart::Reasoning("Flights first: dates are fixed.".into()),
            ContentPart::Text("Alternatives considered: hotels first; ask the user".into()),
            ContentPart::Text("Confidence: 0.8".into()),
        ])
    );
    assert_eq!(t.events[1].metadata["decision_trace"]["step"], 1);
    // tool_call: the call and its output, linked both ways; the result's raw bytes are the output.
    let EventBody::ToolCall(c) = &t.events[2].body else { panic!() };
    assert_eq!((c.id.as_deref(), c.function.as_str(), c.result), (Some("tc1"), "search_flights", Some(3)));
    assert_eq!(c.arguments.value, Some(json!({"dest": "FCO"}).into()));
    let EventBody::ToolResult(r) = &t.events[3].body else { panic!() };
    assert_eq!((r.call, r.status, r.call_id.as_deref()), (Some(CallRef { event: 2, call: 0 }), ToolStatus::Success, Some("tc1")));
    assert_eq!(t.events[3].path, "$.events[2].tool_call.tool_output");
    let raw: Value = serde_json::from_slice(t.raw_json(3).unwrap()).unwrap();
    assert_eq!(raw, json!({"flights": ["AZ611"]}));
    // tool_error: a failed result carrying the error.
    let EventBody::ToolResult(r) = &t.events[5].body else { panic!() };
    assert_eq!((r.status, r.content.text().as_str(), r.call), (ToolStatus::Error, "payment declined", Some(CallRef { event: 4, call: 0 })));
    let EventBody::Marker(m) = &t.events[7].body else { panic!() };
    assert_eq!(m.label, "agent error: hotel-agent timed out");
    assert!(t.events[7].failed && t.events[5].failed && !t.events[4].failed);
    // Errors are found by is:error although the file is valid.
    let mut ix = agent_trace_viewer::query::QueryIndex::default();
    assert_eq!(agent_trace_viewer::query::filter(&t, "is:error", &mut ix).unwrap(), [5, 7]);
    assert_eq!(agent_trace_viewer::query::filter(&t, "kind:decision", &mut ix).unwrap(), [1]);
}

#[test]
fn token_totals_that_disagree_with_the_events_warn() {
    let t = parse(&fixture("agentlens/session_tokens_mismatch.json"));
    assert!(errors(&t).is_empty(), "{:?}", t.diagnostics);
    // tokens_in "50" and tokens_out 30.0 count as pydantic reads them: 150 in, 60 out.
    assert_eq!(codes(&t), ["token-total-mismatch"]);
    let d = &t.diagnostics[0];
    assert_eq!((d.severity, d.path.as_str(), d.event), (Severity::Warning, "$.total_tokens_in", None));
    assert!(d.message.contains("`total_tokens_in` is 999") && d.message.contains("add up to 150"), "{}", d.message);
    assert_eq!(t.runs[0].metadata["events_tokens_in"], 150);
}

#[test]
fn event_lists_group_into_runs_by_session_id() {
    for name in ["agentlens/events.json", "agentlens/events.jsonl"] {
        let t = parse(&fixture(name));
        assert_eq!(t.format, "agentlens", "{name}");
        let ids: Vec<&str> = t.runs.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["a", "b", "(no session)"], "{name}");
        let per_run = |run: u32| t.events.iter().filter(|e| e.run == run).map(|e| e.body.kind()).collect::<Vec<_>>();
        // a: llm_call; tool_call without output; tool_call whose output_data is its result.
        assert_eq!(per_run(0), ["message", "tool-call", "tool-call", "tool-result"], "{name}");
        assert_eq!(per_run(1), ["message", "message"], "{name}");
        assert_eq!(per_run(2), ["marker"], "{name}");
        assert_eq!(t.runs[0].metadata["tokens_in"], 5);
        assert_eq!(codes(&t), ["decision-without-trace"], "{name}");
        let EventBody::ToolResult(r) = &t.events[3].body else { panic!() };
        assert_eq!(r.content, Content::Json(json!({"time": "10:00"}).into()));
        assert!(t.events[3].path.ends_with(".output_data"), "{}", t.events[3].path);
    }
}

#[test]
fn session_level_rules_and_event_session_ids() {
    let t = parse_as(&fixture("agentlens/sessions.jsonl"), "agentlens");
    assert_eq!(t.runs.len(), 22);
    assert_eq!(t.runs[20].id, "session-20", "a session without session_id gets a generated run id");
    assert_eq!(t.runs[20].name.as_deref(), Some("default-agent"));
    assert_eq!(t.runs[20].metadata["status"], "active");
    let d = t.diagnostics.iter().find(|d| d.code == "event-session-mismatch").unwrap();
    assert_eq!((d.line, d.path.as_str(), d.severity), (22, "$.events[0].session_id", Severity::Warning));
    let d = t.diagnostics.iter().find(|d| d.line == 3).unwrap();
    assert_eq!((d.code, d.path.as_str()), ("invalid-value", "$.status"));
    assert!(d.message.contains("active, completed, error"), "{}", d.message);
}

#[test]
fn field_rules_name_what_was_expected() {
    let t = parse_as(&fixture("agentlens/fields.jsonl"), "agentlens");
    let at = |line: u32| t.diagnostics.iter().find(|d| d.line == line && d.severity == Severity::Error).unwrap_or_else(|| panic!("line {line}"));
    let d = at(29);
    assert_eq!((d.code, d.path.as_str()), ("field-type", "$.tokens_in"));
    assert!(d.message.contains("fractional part"), "{}", d.message);
    let d = at(46);
    assert_eq!((d.code, d.path.as_str()), ("field-missing", "$.tool_call.tool_name"));
    let d = at(58);
    assert_eq!((d.code, d.path.as_str()), ("out-of-range", "$.decision_trace.confidence"));
    assert!(d.message.contains("between 0.0 and 1.0"));
    let d = at(3);
    assert_eq!((d.code, d.path.as_str()), ("invalid-value", "$.event_type"));
    // An unknown event type is still an event.
    let e = t.events.iter().find(|e| t.position_at(e.raw.start).line == 72).unwrap();
    assert_eq!((e.source_kind.as_str(), e.body.kind()), ("bogus", "marker"));
    // An empty object is a valid generic event.
    let e = t.events.iter().find(|e| t.position_at(e.raw.start).line == 1).unwrap();
    assert_eq!((e.source_kind.as_str(), e.body.kind()), ("generic", "marker"));
    assert!(t.diagnostics.iter().all(|d| d.line != 1));
}

/// A JSON list of sessions is several sessions: one run each, with its own
/// events (nested events are not lost as one event's fields).
#[test]
fn a_list_of_sessions_is_one_run_each() {
    let bytes = fixture("agentlens/sessions_list.json");
    let listed: Value = serde_json::from_slice(&bytes).unwrap();
    let t = parse(&bytes);
    assert_eq!(t.format, "agentlens", "{:?}", t.detection);
    assert!(t.diagnostics.is_empty(), "{:?}", t.diagnostics);
    let ids: Vec<&str> = t.runs.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["s-1", "s-2", "s-3", "s-4"]);
    for (i, (run, session)) in t.runs.iter().zip(listed.as_array().unwrap()).enumerate() {
        let events = t.events.iter().filter(|e| e.run as usize == i).collect::<Vec<_>>();
        // One event per nested event (a tool call that carries its output gets a result beside it).
        let nested = session.get("events").and_then(Value::as_array).map_or(0, Vec::len);
        let outputs = events.iter().filter(|e| e.body.kind() == "tool-result").count();
        assert_eq!(events.len(), nested + outputs, "{}", run.id);
        for (k, e) in events.iter().filter(|e| e.body.kind() != "tool-result").enumerate() {
            assert_eq!(e.path, format!("$[{i}].events[{k}]"));
        }
        assert_eq!(run.metadata["agent_name"], "travel-agent");
        assert_eq!(run.name.as_deref(), Some("travel-agent"));
    }
    assert_eq!(t.runs[2].transcripts[0].events.len(), 0);
}

/// A session with no `events` (`session_id`, `agent_name`, `started_at`) is
/// detected by those keys and loads as a run with no events; pydantic
/// accepts it (events default to none), so nothing is reported.
#[test]
fn sessions_without_events_are_detected_and_load_as_empty_runs() {
    let t = parse(&fixture("agentlens/sessions_without_events.json"));
    assert_eq!(t.format, "agentlens", "{:?}", t.detection);
    assert!(t.detection.evidence.iter().any(|e| e.contains("1 session objects")), "{:?}", t.detection.evidence);
    assert!(t.diagnostics.is_empty(), "{:?}", t.diagnostics);
    assert_eq!((t.runs.len(), t.events.len()), (1, 0));
    assert_eq!((t.runs[0].id.as_str(), t.runs[0].name.as_deref()), ("s-9", Some("travel-agent")));
    assert_eq!(t.runs[0].metadata["started_at"], "2025-03-01T10:00:00Z");

    let t = parse(&fixture("agentlens/sessions_without_events.jsonl"));
    assert_eq!(t.format, "agentlens", "{:?}", t.detection);
    assert_eq!(t.runs.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["s-7", "s-8", "s-bad"]);
    assert_eq!(t.events.len(), 0);
    assert_eq!(errors(&t), ["timestamp-invalid"]);
}

/// pydantic reads `NaN` and the infinities in the JSON, so the AgentLens
/// models take them where a field takes any value or a float (verdicts in
/// the golden); the events keep the numbers.
#[test]
fn nonfinite_numbers_load_where_pydantic_reads_them() {
    let t = parse(&fixture("agentlens/nonfinite.jsonl"));
    assert_eq!(t.format, "agentlens", "{:?}", t.detection);
    assert!(!codes(&t).contains(&"json-syntax") && !codes(&t).contains(&"json-invalid"), "{:?}", t.diagnostics);
    let first = &t.events[0];
    assert_eq!(first.metadata["input_data"].to_string(), r#"{"x":NaN,"y":[Infinity,-Infinity]}"#);
    let call = t.events.iter().find(|e| t.position_at(e.raw.start).line == 3 && e.body.kind() == "tool-call").unwrap();
    let EventBody::ToolCall(c) = &call.body else { panic!() };
    assert_eq!(c.arguments.display(), r#"{"v":Infinity}"#);
    let result = t.events.iter().find(|e| t.position_at(e.raw.start).line == 3 && e.body.kind() == "tool-result").unwrap();
    assert_eq!(t.raw_json(t.events.iter().position(|e| std::ptr::eq(e, result)).unwrap()), Some(&br#"{"r": -Infinity}"#[..]));
}

/// Cost linear in the input whatever its shape: eight times the input takes
/// about eight times as long (a ratio in one process, not a time). Many bad
/// items of one list made a diagnostic each, each looked up from the
/// event's start (quadratic); many sessions and many bad events of one
/// session are here to stay linear too.
#[test]
fn cost_is_linear_in_the_input_whatever_its_shape() {
    // This thread's CPU time, the best of `runs` parses.
    let parse_time = |bytes: &[u8], runs: usize| {
        let mut diagnostics = 0;
        let fastest = common::fastest_cpu(runs, || diagnostics = parse_as(bytes, "agentlens").diagnostics.len());
        (fastest, diagnostics)
    };
    let shapes: Vec<(&str, Box<dyn Fn(usize) -> Vec<u8>>)> = vec![
        (
            "bad alternatives",
            Box::new(|n| format!(r#"{{"event_type": "decision", "decision_trace": {{"reasoning": "r", "alternatives_considered": [{}]}}}}"#, vec!["1"; n].join(", ")).into_bytes()),
        ),
        (
            "bad events of one session",
            Box::new(|n| format!(r#"{{"session_id": "s", "agent_name": "a", "events": [{}]}}"#, vec![r#"{"event_type": "llm_call", "tokens_in": "x"}"#; n].join(", ")).into_bytes()),
        ),
        (
            "many sessions",
            Box::new(|n| (0..n).map(|i| format!("{{\"session_id\": \"s{i}\", \"agent_name\": 1, \"events\": [{{\"event_type\": \"generic\", \"session_id\": \"x\"}}]}}\n")).collect::<String>().into_bytes()),
        ),
    ];
    for (what, make) in shapes {
        let (small, large) = (make(1_000), make(8_000));
        let ((fast, _), (slow, diagnostics)) = (parse_time(&small, 3), parse_time(&large, 3));
        // The shape does what it is meant to: a diagnostic per item.
        assert!(diagnostics >= 8_000, "{what}: {diagnostics} diagnostics");
        let ratio = slow.as_secs_f64() / fast.as_secs_f64();
        assert!(ratio < 20.0, "{what}: 8 times the input took {ratio:.1} times as long ({fast:?}, {slow:?})");
    }
}
