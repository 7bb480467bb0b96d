//! The OpenAI / Invariant format: one test per diagnostic, on small inputs
//! written here, checking code, severity, JSON path and line:column.

mod common;

use agent_trace_viewer::diagnostic::Severity;
use agent_trace_viewer::model::{CallRef, Content, ContentPart, EventBody};
use common::{codes, errors, parse};

fn diag<'t>(t: &'t agent_trace_viewer::model::Trace, code: &str) -> &'t agent_trace_viewer::diagnostic::Diagnostic {
    t.diagnostics.iter().find(|d| d.code == code).unwrap_or_else(|| panic!("no {code} in {:?}", codes(t)))
}

#[test]
fn clean_trace_has_no_diagnostics_and_links_calls() {
    let t = parse(br#"[
  {"role": "user", "content": "weather?"},
  {"role": "assistant", "content": null, "tool_calls": [
    {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Zurich\"}"}},
    {"id": "c2", "type": "function", "function": {"name": "get_time", "arguments": {"tz": "CET"}}}
  ]},
  {"role": "tool", "tool_call_id": "c2", "content": "12:00"},
  {"role": "tool", "tool_call_id": "c1", "content": {"temp": 21}}
]"#);
    assert!(t.diagnostics.is_empty(), "{:?}", t.diagnostics);
    assert_eq!(t.events.len(), 4);
    assert_eq!(t.format, "openai");
    let EventBody::Message(m) = &t.events[1].body else { panic!() };
    // Both forms of the arguments are kept.
    assert_eq!(m.tool_calls[0].arguments.text, Some(r#"{"city": "Zurich"}"#.into()));
    assert_eq!(m.tool_calls[0].arguments.value, Some(serde_json::json!({"city": "Zurich"}).into()));
    assert_eq!(m.tool_calls[1].arguments.text, None);
    assert_eq!(m.tool_calls[0].result, Some(3));
    assert_eq!(m.tool_calls[1].result, Some(2));
    let EventBody::ToolResult(r) = &t.events[2].body else { panic!() };
    assert_eq!(r.call, Some(CallRef { event: 1, call: 1 }));
    let EventBody::ToolResult(r) = &t.events[3].body else { panic!() };
    assert_eq!(r.content, Content::Json(serde_json::json!({"temp": 21}).into()));
    // Locations point at each record.
    assert_eq!({ let p = t.event_position(1).unwrap(); (p.line, p.column) }, (3, 3));
    assert_eq!(t.events[1].path, "$[1]");
    assert_eq!(&t.source[t.events[0].raw.clone()], br#"{"role": "user", "content": "weather?"}"#);
}

#[test]
fn json_syntax_error_names_line_column_and_keeps_earlier_events() {
    let t = parse(b"[\n  {\"role\": \"user\", \"content\": \"hi\"},\n  {\"role\": \"assistant\" \"content\": \"x\"}\n]");
    let d = diag(&t, "json-syntax");
    assert_eq!(d.severity, Severity::Error);
    assert_eq!((d.line, d.column), (3, 24));
    assert!(d.message.contains("expected `,` or `}`"), "{}", d.message);
    assert!(d.snippet.as_deref().unwrap().contains("\"assistant\" \"content\""));
    // The event before the error is still there; the rest is kept as unparsed.
    assert_eq!(t.events[0].body.kind(), "message");
    assert_eq!(t.events.last().unwrap().body.kind(), "unparsed");
}

#[test]
fn missing_role() {
    let t = parse(br#"[{"role": "user", "content": "a"}, {"content": "no role"}]"#);
    let d = diag(&t, "missing-role");
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(d.path, "$[1]");
    assert_eq!(d.event, Some(1));
    assert!(d.message.contains("keys content"), "{}", d.message);
    // Nothing is dropped: the record is an unparsed event with its raw JSON.
    assert_eq!(t.events.len(), 2);
    assert_eq!(t.events[1].body.kind(), "unparsed");
}

#[test]
fn non_string_role() {
    let t = parse(br#"[{"role": 7, "content": "a"}]"#);
    let d = diag(&t, "role-not-string");
    assert_eq!(d.path, "$[0].role");
    assert_eq!((d.line, d.column), (1, 11));
    assert!(d.message.contains("found a number"));
}

#[test]
fn content_of_the_wrong_type() {
    let t = parse(br#"[{"role": "user", "content": 42}, {"role": "user", "content": {"a": 1}}, {"role": "tool", "content": {"ok": true}}]"#);
    let found: Vec<_> = t.diagnostics.iter().filter(|d| d.code == "content-type").map(|d| d.path.as_str()).collect();
    // An object is fine for a tool output, not for a user message.
    assert_eq!(found, vec!["$[0].content", "$[1].content"]);
    assert!(t.diagnostics.iter().all(|d| d.event != Some(2) || d.code != "content-type"));
}

#[test]
fn content_parts() {
    let t = parse(br#"[{"role": "user", "content": [{"type": "text", "text": "look"}, {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}, {"type": "text"}]}]"#);
    let d = diag(&t, "content-part-invalid");
    assert_eq!(d.path, "$[0].content[2]");
    let EventBody::Message(m) = &t.events[0].body else { panic!() };
    let Content::Parts(parts) = &m.content else { panic!() };
    assert_eq!(parts[0], ContentPart::Text("look".into()));
    assert_eq!(parts[1], ContentPart::Image { url: "data:image/png;base64,AAAA".into() });
    assert!(matches!(parts[2], ContentPart::Other(_)));
}

#[test]
fn tool_call_without_id_is_a_warning_and_links_by_position() {
    let t = parse(br#"[{"role": "assistant", "tool_calls": [{"type": "function", "function": {"name": "a", "arguments": {}}}, {"type": "function", "function": {"name": "b", "arguments": {}}}]},
      {"role": "tool", "content": "A"}, {"role": "tool", "content": "B"}]"#);
    assert!(errors(&t).is_empty(), "{:?}", t.diagnostics);
    let d = diag(&t, "tool-call-missing-id");
    assert_eq!(d.severity, Severity::Warning);
    assert_eq!(d.path, "$[0].tool_calls[0]");
    // Parallel id-less calls are answered in order.
    let EventBody::ToolResult(r1) = &t.events[1].body else { panic!() };
    let EventBody::ToolResult(r2) = &t.events[2].body else { panic!() };
    assert_eq!(r1.call, Some(CallRef { event: 0, call: 0 }));
    assert_eq!(r2.call, Some(CallRef { event: 0, call: 1 }));
    assert!(r1.implicit_link);
}

#[test]
fn tool_call_without_function_name() {
    let t = parse(br#"[{"role": "assistant", "tool_calls": [{"id": "x", "type": "function", "function": {"arguments": {}}}]}]"#);
    let d = diag(&t, "tool-call-missing-name");
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(d.path, "$[0].tool_calls[0].function");
    assert_eq!((d.line, d.column), (1, 83));
}

#[test]
fn arguments_string_that_does_not_parse() {
    let t = parse(br#"[{"role": "assistant", "tool_calls": [{"id": "1", "type": "function", "function": {"name": "f", "arguments": "{'a': 1}"}}]}]"#);
    let d = diag(&t, "arguments-not-json");
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(d.path, "$[0].tool_calls[0].function.arguments");
    assert!(d.message.contains("not valid JSON"));
    let EventBody::Message(m) = &t.events[0].body else { panic!() };
    // The original text is kept even though it did not parse.
    assert_eq!(m.tool_calls[0].arguments.text, Some("{'a': 1}".into()));
    assert_eq!(m.tool_calls[0].arguments.value, None);
}

#[test]
fn tool_output_whose_id_matches_no_call() {
    let t = parse(br#"[{"role": "assistant", "tool_calls": [{"id": "a", "type": "function", "function": {"name": "f", "arguments": {}}}]}, {"role": "tool", "tool_call_id": "zzz", "content": "?"}]"#);
    let d = diag(&t, "unknown-tool-call-id");
    assert_eq!(d.severity, Severity::Warning);
    assert_eq!(d.path, "$[1].tool_call_id");
    assert!(d.message.contains("\"zzz\""));
}

#[test]
fn call_never_answered() {
    let t = parse(br#"[{"role": "assistant", "tool_calls": [{"id": "a", "type": "function", "function": {"name": "finish", "arguments": {}}}]}]"#);
    let d = diag(&t, "unanswered-tool-call");
    assert_eq!(d.severity, Severity::Warning);
    assert_eq!(d.path, "$[0].tool_calls[0]");
    assert!(d.message.contains("`finish`"));
    assert_eq!(d.event, Some(0));
    // The warning points at the call itself: the second of a message's, or a standalone one.
    let src = br#"[{"role": "assistant", "tool_calls": [{"id": "a", "type": "function", "function": {"name": "f", "arguments": {}}}, {"id": "b", "type": "function", "function": {"name": "g", "arguments": {}}}]}, {"role": "tool", "tool_call_id": "a", "content": "ok"}, {"type": "function", "id": "c", "function": {"name": "h", "arguments": {}}}]"#;
    let t = parse(src);
    let found: Vec<(&str, &[u8])> = t.diagnostics.iter().filter(|d| d.code == "unanswered-tool-call").map(|d| (d.path.as_str(), &src[d.offset..d.offset + 9])).collect();
    assert_eq!(found, vec![("$[0].tool_calls[1]", &br#"{"id": "b"#[..]), ("$[2]", &br#"{"type": "#[..])]);
}

#[test]
fn duplicate_call_ids() {
    let t = parse(br#"[{"role": "assistant", "tool_calls": [{"id": "a", "type": "function", "function": {"name": "f", "arguments": {}}}]},
      {"role": "tool", "tool_call_id": "a", "content": "1"},
      {"role": "assistant", "tool_calls": [{"id": "a", "type": "function", "function": {"name": "g", "arguments": {}}}]},
      {"role": "tool", "tool_call_id": "a", "content": "2"}]"#);
    let d = diag(&t, "duplicate-tool-call-id");
    assert_eq!(d.severity, Severity::Warning);
    assert_eq!(d.path, "$[2].tool_calls[0]");
    // As in Invariant, a later output with the id links to the later call.
    let EventBody::ToolResult(r) = &t.events[3].body else { panic!() };
    assert_eq!(r.call, Some(CallRef { event: 2, call: 0 }));
}

#[test]
fn standalone_tool_call_and_tools_events() {
    let t = parse(br#"[{"type": "function", "id": "s1", "function": {"name": "search", "arguments": {"q": "x"}}},
      {"role": "tool", "content": "found"},
      {"tools": [{"name": "search", "description": "web", "inputSchema": {"properties": {}}}]}]"#);
    assert!(t.diagnostics.is_empty(), "{:?}", t.diagnostics);
    assert_eq!(t.events[0].body.kind(), "tool-call");
    assert_eq!(t.events[2].body.kind(), "tool-definitions");
    let EventBody::ToolResult(r) = &t.events[1].body else { panic!() };
    assert_eq!(r.call, Some(CallRef { event: 0, call: 0 }));
}

#[test]
fn jsonl_of_traces_with_a_bad_line() {
    let t = parse(b"{\"metadata\": {\"description\": \"ds\"}}\n[{\"role\": \"user\", \"content\": \"a\"}]\n{\"messages\": [{\"role\": \"user\", \"content\": \"b\"}], \"metadata\": {\"k\": 1}}\n[{\"role\": \"user\",,]\n");
    // Two traces, and the broken line kept as an unparsed event in a run of its own.
    assert_eq!(t.runs.len(), 3);
    assert_eq!(t.events.len(), 3);
    assert_eq!(t.runs[2].id, agent_trace_viewer::integrity::LEFTOVER_RUN_ID);
    assert_eq!(t.events[2].body.kind(), "unparsed");
    assert_eq!(t.metadata.get("description"), Some(&serde_json::json!("ds")));
    assert_eq!(t.runs[1].metadata.get("k"), Some(&serde_json::json!(1)));
    let d = diag(&t, "json-syntax");
    assert_eq!(d.line, 4);
    assert_eq!(d.event, Some(2));
    assert!(codes(&t).contains(&"mixed-jsonl-rows"));
}

#[test]
fn not_json_at_all_is_an_error_with_a_place() {
    let e = agent_trace_viewer::parse_trace(b"hello".to_vec(), &Default::default()).unwrap_err();
    assert!(e.to_string().contains("line 1, column 1"), "{}", e.to_string());
    let e = agent_trace_viewer::parse_trace(b"  \n".to_vec(), &Default::default()).unwrap_err();
    assert!(e.to_string().contains("only whitespace"), "{}", e.to_string());
    let e = agent_trace_viewer::parse_trace(Vec::new(), &Default::default()).unwrap_err();
    assert!(e.to_string().contains("empty"), "{}", e.to_string());
    let e = agent_trace_viewer::parse_trace(b"[1]".to_vec(), &agent_trace_viewer::ParseOptions { format: Some("nope".into()), ..Default::default() }).unwrap_err();
    assert!(e.to_string().contains("unknown format") && e.to_string().contains("openai"), "{}", e.to_string());
}

#[test]
fn forced_format_reports_what_does_not_fit() {
    let t = common::parse_as(b"[1, \"x\"]", "openai");
    assert!(t.detection.forced);
    assert_eq!(errors(&t), vec!["event-not-object", "event-not-object"]);
    assert_eq!(t.events.len(), 2, "non-objects are kept as unparsed events");
}

#[test]
fn bom_is_skipped_with_a_note() {
    let t = parse(b"\xEF\xBB\xBF[{\"role\": \"user\", \"content\": \"hi\"}]");
    assert_eq!(t.events.len(), 1);
    assert_eq!(codes(&t), vec!["bom"]);
}

#[test]
fn invariant_testing_wrapper_and_tau_bench_traj_load() {
    let t = parse(br#"{"name": "t", "trace": {"trace": [{"role": "user", "content": "x"}], "metadata": {"m": 1}}, "passed": true}"#);
    assert_eq!(t.events.len(), 1);
    assert_eq!(t.events[0].path, "$.trace.trace[0]");
    assert_eq!(t.runs[0].metadata.get("passed"), Some(&serde_json::json!(true)));
    assert_eq!(t.runs[0].metadata.get("m"), Some(&serde_json::json!(1)));
    let t = parse(br#"{"task_id": 3, "traj": [{"role": "user", "content": "x"}, {"role": "assistant", "content": "y"}]}"#);
    assert_eq!(t.events.len(), 2);
    assert_eq!(t.runs[0].metadata.get("task_id"), Some(&serde_json::json!(3)));
}

#[test]
fn a_json_list_of_rows_is_detected() {
    // Found while building the XSS corpus: `[{"messages": [...]}]`, a
    // documented input, was refused as "not a supported trace format"
    // because detection sampled the row's messages one list level too deep.
    let t = parse(br#"[{"id": "r1", "metadata": {"a": 1}, "messages": [{"role": "user", "content": "hi"}]},
      {"messages": [{"role": "assistant", "content": "yo"}]}]"#);
    assert_eq!(t.format, "openai");
    assert_eq!((t.runs.len(), t.events.len()), (2, 2));
    assert_eq!(t.runs[0].id, "r1");
    assert!(t.detection.evidence.iter().any(|e| e.contains("2 trace objects")), "{:?}", t.detection.evidence);
}

#[test]
fn a_json_list_of_explorer_rows_is_detected() {
    // The events sit two arrays down (list → row.messages → event); detection
    // must look there, not only at the first level.
    let t = parse(br#"[{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}], "metadata": {"id": 1}},
{"messages": [{"role": "user", "content": "again"}], "metadata": {"id": 2}}]"#);
    assert_eq!(t.format, "openai");
    assert!(!t.detection.forced);
    assert_eq!((t.runs.len(), t.events.len()), (2, 3));
    assert!(t.diagnostics.is_empty(), "{:?}", t.diagnostics);
}
