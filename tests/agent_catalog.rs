//! The `agent-catalog` format (Couchbase Agent Catalog `Log` records).
//!
//! The verdict test compares, record by record, whether we report an Error
//! with whether agentc-core 1.1.5's `Log.model_validate_json` rejects the
//! record (tests/golden/agent-catalog/verdicts.json, written by
//! scripts/oracle/agent-catalog/verdicts.py), and that our Error paths are pydantic's
//! error locations. The other tests check the mapping onto the shared model.

mod common;

use std::collections::BTreeSet;
use std::path::PathBuf;

use agent_trace_viewer::diagnostic::Severity;
use agent_trace_viewer::model::{CallRef, Content, EventBody, SpanPhase, ToolStatus, Trace};
use agent_trace_viewer::analysis::spans::span_tree;
use common::{codes, corpus_dir, corpus_files, errors, fixture, parse, parse_as};
use serde_json::Value;

const CORPUS_FOLDER: &str = "couchbase-agentc";

fn golden() -> Value {
    common::golden_json("agent-catalog/verdicts.json")
}

fn bytes_of(key: &str) -> Vec<u8> {
    if let Some(rest) = key.strip_prefix("corpus/") {
        std::fs::read(corpus_dir().join(rest)).unwrap_or_else(|e| panic!("{key}: {e}"))
    } else if let Some(rest) = key.strip_prefix("fixtures/") {
        fixture(rest)
    } else {
        panic!("unknown golden key {key}")
    }
}

/// Error paths of one event, relative to its record.
fn error_paths(t: &Trace, event: usize) -> BTreeSet<String> {
    let prefix = &t.events[event].path;
    t.diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error && d.event == Some(event as u32))
        .map(|d| format!("${}", d.path.strip_prefix(prefix.as_str()).unwrap_or(&d.path)))
        .collect()
}

#[test]
fn verdicts_agree_with_agentc_core_record_by_record() {
    let g = golden();
    let files = g["files"].as_object().unwrap();
    let mut compared = 0;
    let mut rejected = 0;
    for (key, file) in files {
        let t = parse_as(&bytes_of(key), "agent-catalog");
        let records = file["records"].as_array().unwrap();
        let mut matched_events = BTreeSet::new();
        for r in records {
            let accepted = r["accepted"].as_bool().unwrap();
            let want: BTreeSet<String> = r["errors"].as_array().unwrap().iter().map(|e| e["path"].as_str().unwrap().to_string()).collect();
            let types: Vec<&str> = r["errors"].as_array().unwrap().iter().map(|e| e["type"].as_str().unwrap()).collect();
            let event = match (r.get("line").and_then(Value::as_u64), r.get("index").and_then(Value::as_u64)) {
                (Some(line), _) => t.events.iter().position(|e| t.position_at(e.raw.start).line as u64 == line),
                (None, Some(i)) => t.events.iter().position(|e| e.path == format!("$[{i}]")),
                (None, None) => t.events.iter().position(|e| e.path == "$"),
            };
            let Some(event) = event else { panic!("{key}: no event for record {r}") };
            matched_events.insert(event);
            if types == ["json_invalid"] {
                // Not JSON at all: the core reports the syntax error; the bytes stay as an unparsed event.
                let line = r["line"].as_u64().unwrap();
                assert!(t.diagnostics.iter().any(|d| d.code == "json-syntax" && d.line as u64 == line), "{key}:{line}");
                assert_eq!(t.events[event].body.kind(), "unparsed");
                rejected += 1;
                compared += 1;
                continue;
            }
            let got = error_paths(&t, event);
            let where_ = format!("{key} record {}", r.get("line").or(r.get("index")).unwrap());
            assert_eq!(got.is_empty(), accepted, "{where_}: library accepted={accepted} ({:?}), our errors {got:?}", r["errors"]);
            assert_eq!(got, want, "{where_}: our Error paths differ from pydantic's ({types:?})");
            compared += 1;
            if !accepted {
                rejected += 1;
            }
        }
        // One event per record: nothing dropped, nothing invented.
        assert_eq!(t.events.len(), records.len(), "{key}: events vs records");
        assert_eq!(matched_events.len(), records.len(), "{key}: records mapped to distinct events");
    }
    assert!(compared >= 240 && rejected >= 120, "compared {compared}, rejected {rejected}");
}

#[test]
fn golden_covers_every_fixture_and_corpus_file() {
    let g = golden();
    let files = g["files"].as_object().unwrap();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/agent-catalog");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let entry = entry.unwrap();
        // Folders hold what is not a fixture of its own (scaling/shapes.json).
        if entry.path().is_dir() {
            continue;
        }
        let name = entry.file_name().into_string().unwrap();
        assert!(files.contains_key(&format!("fixtures/agent-catalog/{name}")), "fixture {name} has no golden verdicts; rerun scripts/oracle/agent-catalog/verdicts.py");
    }
    for p in corpus_files(CORPUS_FOLDER) {
        let name = p.file_name().unwrap().to_str().unwrap();
        assert!(files.contains_key(&format!("corpus/{CORPUS_FOLDER}/{name}")), "corpus file {name} has no golden verdicts");
    }
}

#[test]
fn corpus_file_loads_without_errors_with_its_span_tree() {
    let files = corpus_files(CORPUS_FOLDER);
    let path = files.iter().find(|p| p.to_str().unwrap().ends_with("EXTRACTED-activity.jsonl")).expect("the notebook-derived log");
    let t = parse(&std::fs::read(path).unwrap());
    assert_eq!(t.format, "agent-catalog", "detected as {} ({:?})", t.format, t.detection);
    assert!(t.diagnostics.is_empty(), "{:?}", t.diagnostics);
    assert_eq!(t.events.len(), 30);
    assert_eq!(t.runs.len(), 1);
    assert_eq!(t.runs[0].id, "cd0ddc170ad04d24bc4776e71cb41753");
    assert_eq!(t.runs[0].name.as_deref(), Some("Flight Search Agent"));
    assert_eq!(t.runs[0].metadata["catalog_version"]["identifier"], "502f8f99816de30af7d6519116b62fd72933b54c");
    let kinds = |k: &str| t.events.iter().filter(|e| e.source_kind == k).count();
    assert_eq!((kinds("begin"), kinds("key-value"), kinds("end")), (10, 10, 10));
    // Offsets are kept as written.
    assert_eq!(t.events[0].timestamp.as_deref(), Some("2025-07-07T12:18:46.065764+05:30"));
    assert_eq!(t.events.iter().filter(|e| e.metadata.contains_key("annotations")).count(), 10);

    // Counted independently (python over the same file): 8 span paths under one
    // root; begin/end pairs by line; nothing unmatched.
    let tree = span_tree(&t);
    assert_eq!(tree.nodes.len(), 8);
    assert_eq!(tree.roots.len(), 1);
    assert!(tree.issues.is_empty());
    let mut pairs: Vec<(u32, u32)> = tree
        .nodes
        .iter()
        .flat_map(|n| n.occurrences.iter())
        .map(|o| (t.event_position(o.begin.unwrap() as usize).unwrap().line, t.event_position(o.end.unwrap() as usize).unwrap().line))
        .collect();
    pairs.sort();
    assert_eq!(pairs, vec![(1, 6), (3, 4), (7, 12), (9, 10), (13, 18), (15, 16), (19, 24), (21, 22), (25, 30), (27, 28)]);
    let agent = tree
        .find(0, &["Flight Search Agent".into(), "FlightSearchGraph".into(), "FlightSearchAgent".into()])
        .expect("agent span");
    assert_eq!(tree.nodes[agent].occurrences.len(), 5);
    assert_eq!(tree.nodes[agent].depth, 2);
    let graph = tree.nodes[agent].parent.unwrap();
    assert!(tree.nodes[graph].occurrences.is_empty(), "FlightSearchGraph is only a path prefix");
    // Each query span holds its begin, two key-values (query, result) and its end.
    let root = tree.roots[0];
    let queries: Vec<usize> = tree.nodes[root].children.iter().copied().filter(|&c| tree.nodes[c].name.starts_with("Query: ")).collect();
    assert_eq!(queries.len(), 5);
    for q in queries {
        let kinds: Vec<&str> = tree.nodes[q].events.iter().map(|&e| t.events[e as usize].source_kind.as_str()).collect();
        assert_eq!(kinds, ["begin", "key-value", "key-value", "end"]);
    }
}

#[test]
fn every_kind_maps_onto_the_model() {
    let t = parse(&fixture("agent-catalog/all_kinds.jsonl"));
    assert_eq!(t.format, "agent-catalog");
    assert!(t.diagnostics.is_empty(), "{:?}", t.diagnostics);
    let kinds: Vec<(&str, &str)> = t.events.iter().map(|e| (e.source_kind.as_str(), e.body.kind())).collect();
    assert_eq!(
        kinds,
        [
            ("begin", "span"),
            ("user", "message"),
            ("system", "message"),
            ("begin", "span"),
            ("request-header", "tool-definitions"),
            ("chat-completion", "message"),
            ("tool-call", "tool-call"),
            ("tool-result", "tool-result"),
            ("edge", "marker"),
            ("end", "span"),
            ("begin", "span"),
            ("tool-call", "tool-call"),
            ("tool-result", "tool-result"),
            ("key-value", "key-value"),
            ("end", "span"),
            ("assistant", "message"),
            ("end", "span"),
        ]
    );
    let EventBody::Message(m) = &t.events[1].body else { panic!() };
    assert_eq!((m.role.as_str(), m.content.text().as_str()), ("user", "Find flights to LAX"));
    assert_eq!(t.events[1].metadata["user_id"], "u-7");
    let EventBody::Message(m) = &t.events[5].body else { panic!() };
    assert_eq!((m.role.as_str(), m.content.text().as_str()), ("assistant", "I will search."));
    assert_eq!(t.events[5].metadata["meta"]["model"], "gpt-4o");
    let EventBody::ToolDefinitions(tools) = &t.events[4].body else { panic!() };
    assert_eq!(tools[0].name, "search_flights");
    assert_eq!(tools[0].parameters.as_ref().unwrap()["properties"]["dest"]["type"], "string");
    // Calls and results link both ways by tool_call_id.
    let EventBody::ToolCall(c) = &t.events[6].body else { panic!() };
    assert_eq!((c.id.as_deref(), c.function.as_str(), c.result), (Some("call_1"), "search_flights", Some(7)));
    assert_eq!(c.arguments.value, Some(serde_json::json!({"dest": "LAX"}).into()));
    let EventBody::ToolResult(r) = &t.events[7].body else { panic!() };
    assert_eq!((r.call, r.status, r.implicit_link), (Some(CallRef { event: 6, call: 0 }), ToolStatus::Success, false));
    assert_eq!(r.content, Content::Json(serde_json::json!([{"flight": "AA1"}]).into()));
    let EventBody::ToolResult(r) = &t.events[12].body else { panic!() };
    assert_eq!((r.status, r.content.text().as_str()), (ToolStatus::Error, "disk full"));
    let EventBody::KeyValue(kv) = &t.events[13].body else { panic!() };
    assert_eq!((kv.key.as_str(), kv.value.get()), ("score", &serde_json::json!(0.5)));
    let EventBody::Span(s) = &t.events[9].body else { panic!() };
    assert_eq!((s.name.clone(), s.phase), (vec!["travel".to_string(), "planner".to_string()], SpanPhase::End));
    assert_eq!(t.events[9].metadata["state"], serde_json::json!({"done": true}));
    // Every event keeps its span path.
    assert_eq!(t.events[13].span.as_deref(), Some(&["travel".to_string(), "booker".to_string()][..]));
    // The edge is a hand-off between the two sibling spans.
    let EventBody::Marker(m) = &t.events[8].body else { panic!() };
    assert_eq!(m.label, "hand-off travel/planner → travel/booker");
    let tree = span_tree(&t);
    assert_eq!(tree.handoffs.len(), 1);
    let h = &tree.handoffs[0];
    assert_eq!((h.event, h.source.join("/"), h.dest.join("/")), (8, "travel/planner".to_string(), "travel/booker".to_string()));
    assert_eq!(tree.path(h.source_node.unwrap()), ["travel", "planner"]);
    assert_eq!(tree.path(h.dest_node.unwrap()), ["travel", "booker"]);
    assert_eq!(tree.nodes.len(), 3);
    assert!(tree.nodes.iter().all(|n| n.occurrences.len() == 1 && n.occurrences[0].end.is_some()));
    // A failed tool result is found by is:error without being a validation error.
    let mut ix = agent_trace_viewer::query::QueryIndex::default();
    let hits = agent_trace_viewer::query::filter(&t, "is:error", &mut ix).unwrap();
    assert_eq!(hits, [12]);
}

#[test]
fn results_without_ids_pair_by_order() {
    let t = parse(&fixture("agent-catalog/pairing_by_order.jsonl"));
    let link = |i: usize| match &t.events[i].body {
        EventBody::ToolResult(r) => (r.call.map(|c| c.event), r.implicit_link),
        _ => panic!("event {i} is not a result"),
    };
    assert_eq!(link(1), (Some(0), true));
    assert_eq!(link(3), (Some(2), true));
    // An id that matches no call: warned, then paired by order.
    assert_eq!(link(5), (Some(4), true));
    // Nothing left to answer.
    assert_eq!(link(6), (None, true));
    assert_eq!(codes(&t), ["unknown-tool-call-id", "tool-result-without-call"]);
    assert!(errors(&t).is_empty());
    let d = &t.diagnostics[0];
    assert_eq!((d.line, d.path.as_str()), (6, "$.content.tool_call_id"));
}

#[test]
fn one_run_per_session_even_when_interleaved() {
    let t = parse(&fixture("agent-catalog/sessions.jsonl"));
    let ids: Vec<&str> = t.runs.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["A", "B", "(no session)"]);
    let lines = |run: u32| t.events.iter().filter(|e| e.run == run).map(|e| t.position_at(e.raw.start).line).collect::<Vec<_>>();
    assert_eq!(lines(0), [1, 3, 5]);
    assert_eq!(lines(1), [2, 4, 6]);
    assert_eq!(lines(2), [7]);
    // Runs are contiguous ranges of events.
    assert_eq!(t.runs[1].transcripts[0].events, 3..6);
    assert_eq!(codes(&t), ["span-session-missing"]);
    let tree = span_tree(&t);
    assert_eq!(tree.roots.len(), 3, "one `root` span per run");
    assert!(tree.issues.is_empty());
}

#[test]
fn unmatched_begin_and_end_are_warnings() {
    let t = parse(&fixture("agent-catalog/spans_unmatched.jsonl"));
    assert!(errors(&t).is_empty());
    let found: Vec<(&str, u32)> = t.diagnostics.iter().map(|d| (d.code, d.line)).collect();
    assert_eq!(found, [("span-not-ended", 2), ("span-end-without-begin", 3), ("span-end-without-begin", 7)]);
    assert!(t.diagnostics[0].message.contains("`a/b`"), "{}", t.diagnostics[0].message);
    let tree = span_tree(&t);
    let a = tree.find(0, &["a".to_string()]).unwrap();
    let occ: Vec<(Option<u32>, Option<u32>)> = tree.nodes[a].occurrences.iter().map(|o| (o.begin, o.end)).collect();
    assert_eq!(occ, [(Some(0), Some(3)), (Some(4), Some(5)), (None, Some(6))]);
}

#[test]
fn json_list_and_single_object_documents() {
    let t = parse(&fixture("agent-catalog/list.json"));
    assert_eq!(t.format, "agent-catalog");
    assert_eq!(t.events.len(), 4);
    assert_eq!(t.events[2].path, "$[2]");
    let d = t.diagnostics.iter().find(|d| d.code == "field-type").unwrap();
    assert_eq!((d.path.as_str(), d.line, d.column), ("$[2].content.tool_args", 53, 20));
    assert!(d.message.contains("must be an object of named arguments, found a list"), "{}", d.message);
    // The rejected record is still shown in full.
    let EventBody::ToolCall(c) = &t.events[2].body else { panic!() };
    assert_eq!((c.function.as_str(), c.arguments.value.as_ref().map(|v| v.get().clone())), ("f", Some(serde_json::json!([]))));

    let t = parse(&fixture("agent-catalog/single.json"));
    assert_eq!(t.format, "agent-catalog");
    assert!(t.diagnostics.is_empty(), "{:?}", t.diagnostics);
    assert_eq!(t.events.len(), 1);
}

#[test]
fn diagnostics_say_what_was_expected_and_where() {
    let t = parse_as(&fixture("agent-catalog/timestamps.jsonl"), "agent-catalog");
    let d = t.diagnostics.iter().find(|d| d.line == 1 && d.severity == Severity::Error).unwrap();
    assert_eq!((d.code, d.path.as_str()), ("timestamp-naive", "$.timestamp"));
    assert!(d.message.contains("has no timezone"), "{}", d.message);
    let col = d.column as usize;
    let line1 = std::str::from_utf8(&fixture("agent-catalog/timestamps.jsonl")).unwrap().lines().next().unwrap().to_string();
    assert!(line1[col - 1..].starts_with("\"2025-07-07T12:18:46\""), "column {col} points at the value");
    let t = parse_as(&fixture("agent-catalog/required_fields.jsonl"), "agent-catalog");
    let d = t.diagnostics.iter().find(|d| d.line == 5 && d.severity == Severity::Error).unwrap();
    assert_eq!((d.code, d.path.as_str()), ("field-missing", "$.content.tool_name"));
    assert!(d.message.contains("is required for a `tool-call` record"), "{}", d.message);
    let d = t.diagnostics.iter().find(|d| d.line == 25 && d.severity == Severity::Error).unwrap();
    assert_eq!(d.code, "content-kind-missing");
    let t = parse_as(&fixture("agent-catalog/enums.jsonl"), "agent-catalog");
    let d = t.diagnostics.iter().find(|d| d.line == 11 && d.severity == Severity::Error).unwrap();
    assert_eq!((d.code, d.path.as_str()), ("invalid-value", "$.catalog_version.version_system"));
    assert!(d.message.contains("\"git\" or \"raw\""));
    // Unknown kinds become events, never dropped.
    assert_eq!(t.events[2].source_kind, "thinking");
    assert_eq!(t.events[2].body.kind(), "unparsed");
}

/// pydantic's JSON parser reads `NaN`, `Infinity` and `-Infinity`, so
/// agentc-core accepts a Log holding them where its fields take any value
/// (the verdicts are in the golden: tests/fixtures/agent-catalog/nonfinite.jsonl,
/// written by the oracle script). The records load as events with those
/// numbers, shown as Python shows them; where agentc-core rejects them the
/// error is its field's, not invalid JSON.
#[test]
fn nonfinite_numbers_load_where_agentc_core_reads_them() {
    use agent_trace_viewer::render::{agent_run_text, TextOptions};
    let bytes = fixture("agent-catalog/nonfinite.jsonl");
    let t = parse(&bytes);
    assert_eq!(t.format, "agent-catalog", "{:?}", t.detection);
    assert_eq!(t.events.len(), 27);
    let line = |n: u32| t.events.iter().position(|e| t.position_at(e.raw.start).line == n).unwrap();
    for n in 1..=10 {
        assert!(error_paths(&t, line(n)).is_empty(), "line {n}: {:?}", error_paths(&t, line(n)));
        assert_ne!(t.events[line(n)].body.kind(), "unparsed", "line {n}");
    }
    // The arguments hold the numbers: written back as json.dumps writes them.
    let args = |n: u32| match &t.events[line(n)].body {
        EventBody::ToolCall(c) => c.arguments.display(),
        other => panic!("line {n}: {other:?}"),
    };
    assert_eq!((args(1), args(2), args(3)), (r#"{"x":NaN}"#.to_string(), r#"{"x":Infinity}"#.to_string(), r#"{"x":-Infinity}"#.to_string()));
    let EventBody::ToolCall(c) = &t.events[line(4)].body else { panic!() };
    let x = &c.arguments.value.as_ref().unwrap().get()["x"];
    assert!(x[0].as_number().is_some_and(agent_trace_viewer::json::python::is_nonfinite));
    assert_eq!(agent_trace_viewer::json::python::to_f64(x[1]["z"][0].as_number().unwrap()), Some(f64::NEG_INFINITY));
    // And the AgentRun text prints them as Python's str() of the arguments does.
    let text = agent_run_text(&t, &TextOptions::default(), None).unwrap().concat();
    assert!(text.contains("f(x=nan)") && text.contains("f(x=inf)") && text.contains("f(x=-inf)"), "{text}");
    assert!(text.contains("f(x=[nan, {'y': inf, 'z': [-inf, inf, 1.5]}])"), "{text}");
    // Where a field wants a string, a time or a bool, the error is that field's.
    let d = t.diagnostics.iter().find(|d| d.line == 12 && d.severity == Severity::Error).unwrap();
    assert_eq!((d.code, d.path.as_str()), ("timestamp-invalid", "$.timestamp"));
    // Other spellings are no JSON to pydantic either: the line stays raw.
    for n in 24..=26 {
        assert!(t.diagnostics.iter().any(|d| d.code == "json-syntax" && d.line == n), "line {n}");
        assert_eq!(t.events[line(n)].body.kind(), "unparsed", "line {n}");
    }
    assert_eq!(t.diagnostics.iter().filter(|d| d.code == "json-syntax").count(), 3);

    // A JSON list whose first record holds one is detected all the same.
    let t = parse(&fixture("agent-catalog/nonfinite_list.json"));
    assert_eq!((t.format, t.events.len()), ("agent-catalog", 4));
    assert!(!codes(&t).contains(&"json-syntax") && !codes(&t).contains(&"json-invalid"), "{:?}", t.diagnostics);
}

/// The other formats' references refuse `NaN` in a file: their inputs are
/// split and reported as before (only the formats that read them split again).
#[test]
fn other_formats_still_refuse_nonfinite_literals() {
    let openai = b"{\"role\": \"user\", \"content\": \"hi\"}\n{\"role\": \"assistant\", \"content\": \"x\", \"n\": NaN}\n";
    let t = parse(openai);
    assert_eq!(t.format, "openai");
    let d = t.diagnostics.iter().find(|d| d.code == "json-syntax").unwrap();
    assert!(d.message.contains("`NaN` is not valid JSON") && d.line == 2, "{d:?}");
    let docent = br#"{"id": "r", "transcripts": [{"messages": [{"role": "user", "content": "hi"}]}], "metadata": {"score": Infinity}}"#;
    let options = agent_trace_viewer::ParseOptions { format: Some("docent".to_string()), ..Default::default() };
    let t = agent_trace_viewer::parse_trace(docent.to_vec(), &options).unwrap();
    assert!(t.diagnostics.iter().any(|d| d.code == "json-syntax" && d.message.contains("`Infinity` is not valid JSON")));
    // Not detected at all: the error names the literal, as before.
    let e = agent_trace_viewer::parse_trace(br#"[{"x": NaN}]"#.to_vec(), &Default::default()).unwrap_err();
    assert!(e.to_string().contains("`NaN` is not valid JSON"), "{e}");
}

/// The least CPU time of `runs` parses of `bytes` (a shared machine is
/// noisy), and how many diagnostics a parse gives.
fn parse_time(bytes: &[u8], runs: usize) -> (std::time::Duration, usize) {
    let mut diagnostics = 0;
    let fastest = common::fastest_cpu(runs, || diagnostics = parse_as(bytes, "agent-catalog").diagnostics.len());
    (fastest, diagnostics)
}

/// Cost linear in the input whatever its shape: eight times the input
/// takes about eight times as long (a ratio in one process, not a time).
/// Each shape made one step quadratic before: results paired by order
/// after many answered calls (each looked back through every call), and
/// many bad items of one list or object (each diagnostic looked its path up
/// from the record's start).
#[test]
fn cost_is_linear_in_the_input_whatever_its_shape() {
    const CV: &str = r#""catalog_version": {"timestamp": "2025-07-04T11:20:31Z", "identifier": "v"}"#;
    let head = |i: usize| format!(r#""identifier": "r{i}", "span": {{"session": "s", "name": ["a"]}}, "timestamp": "2025-07-07T12:00:00Z""#);
    let shapes: Vec<(&str, Box<dyn Fn(usize) -> Vec<u8>>)> = vec![
        (
            "results by order after answered calls",
            Box::new(move |n| {
                let mut out = String::new();
                for i in 0..n {
                    out += &format!("{{{}, \"content\": {{\"kind\": \"tool-call\", \"tool_name\": \"f\", \"tool_args\": {{}}, \"tool_call_id\": \"c{i}\"}}, {CV}}}\n", head(i));
                }
                for i in 0..n {
                    out += &format!("{{{}, \"content\": {{\"kind\": \"tool-result\", \"tool_call_id\": \"c{i}\", \"tool_result\": 1}}, {CV}}}\n", head(i));
                }
                for i in 0..n {
                    out += &format!("{{{}, \"content\": {{\"kind\": \"tool-result\", \"tool_result\": 1}}, {CV}}}\n", head(i));
                }
                out.into_bytes()
            }),
        ),
        (
            "bad span names",
            Box::new(move |n| format!("{{\"span\": {{\"session\": \"s\", \"name\": [{}]}}, \"timestamp\": \"2025-07-07T12:00:00Z\", \"content\": {{\"kind\": \"user\", \"value\": \"v\"}}, {CV}}}\n", vec!["1"; n].join(", ")).into_bytes()),
        ),
        (
            "bad tools",
            Box::new(move |n| format!("{{{}, \"content\": {{\"kind\": \"request-header\", \"tools\": [{}]}}, {CV}}}\n", head(0), vec![r#"{"description": 1}"#; n].join(", ")).into_bytes()),
        ),
        (
            "bad catalog metadata",
            Box::new(move |n| {
                let members: Vec<String> = (0..n).map(|i| format!("\"k{i}\": {i}")).collect();
                format!("{{{}, \"content\": {{\"kind\": \"user\", \"value\": \"v\"}}, \"catalog_version\": {{\"timestamp\": \"2025-07-04T11:20:31Z\", \"identifier\": \"v\", \"metadata\": {{{}}}}}}}\n", head(0), members.join(", ")).into_bytes()
            }),
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
