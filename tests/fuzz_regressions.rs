//! Inputs the fuzzers (`fuzz/`, see FUZZING.md) found to break an invariant,
//! kept as regression tests: each is parsed as the target parsed it and put
//! through the same checks as `fuzz/src/lib.rs` that matter here — no panic,
//! and nothing lost (every value reachable from the trace).

use std::path::Path;

use agent_trace_viewer::integrity::lost_values;
use agent_trace_viewer::{parse_trace, ParseOptions};

fn check(file: &str, format: Option<&str>) -> agent_trace_viewer::model::Trace {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-regressions").join(file);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let options = ParseOptions { format: format.map(str::to_string), ..Default::default() };
    let trace = parse_trace(bytes, &options).unwrap_or_else(|e| panic!("{file}: {}", e.to_string()));
    let lost = lost_values(&trace);
    assert!(lost.is_empty(), "{file}: values lost: {lost:?}");
    trace
}

/// An OpenInference span whose attribute keys hold invalid UTF-8: the
/// values under those keys were neither in an event nor in the metadata.
#[test]
fn openai_invalid_utf8_in_attribute_keys() {
    let t = check("openai-invalid-utf8-key.json", Some("openai"));
    let run = &t.runs[0].metadata;
    // The keys keep their readable parts, with U+FFFD where the bytes were bad.
    assert_eq!(run.get("llm.\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}system").and_then(|v| v.as_str()), Some("openai"));
    assert!(run.values().any(|v| v.as_str() == Some("Weather in Paris?")));
    assert!(t.diagnostics.iter().any(|d| d.code == "invalid-utf8"));
}

/// The same with OpenTelemetry gen_ai attributes read as a Docent run.
#[test]
fn docent_invalid_utf8_in_attribute_keys() {
    let t = check("docent-invalid-utf8-key.json", Some("docent"));
    assert!(t.diagnostics.iter().any(|d| d.code == "invalid-utf8"));
}
/// Two keys that differ only in their invalid bytes read as one key: the
/// duplicate-key warning quotes the value not read, so it is not lost.
#[test]
fn keys_differing_only_in_invalid_bytes_are_duplicates() {
    let bytes = b"{\"messages\": [], \"a\xFF\": \"first\", \"a\xFE\": \"second\"}".to_vec();
    let t = parse_trace(bytes, &ParseOptions { format: Some("openai".into()), ..Default::default() }).expect("parses");
    let dup = t.diagnostics.iter().find(|d| d.code == "duplicate-key").expect("a duplicate-key warning");
    assert!(dup.message.contains("first"), "{}", dup.message);
    assert!(lost_values(&t).is_empty(), "{:?}", lost_values(&t));
}

/// An Explorer row whose fields repeat, or share a name with a key of its
/// `metadata`: the last repeat is read, and the row field moves to
/// `row.<key>`, whichever comes first (it was first-wins, losing values).
#[test]
fn row_fields_repeated_or_shadowing_metadata_keep_every_value() {
    for doc in [
        r#"{"messages": [], "x": "first", "x": "second", "metadata": {"x": "meta", "y": 1}, "y": 2}"#,
        r#"{"metadata": {"x": "meta", "y": 1}, "messages": [], "x": "first", "x": "second", "y": 2}"#,
    ] {
        let t = parse_trace(doc.as_bytes().to_vec(), &ParseOptions { format: Some("openai".into()), ..Default::default() }).expect("parses");
        let m = &t.runs[0].metadata;
        assert_eq!(m.get("x"), Some(&serde_json::json!("meta")), "{doc}");
        assert_eq!(m.get("row.x"), Some(&serde_json::json!("second")), "{doc}");
        assert_eq!(m.get("y"), Some(&serde_json::json!(1)), "{doc}");
        assert_eq!(m.get("row.y"), Some(&serde_json::json!(2)), "{doc}");
        assert!(lost_values(&t).is_empty(), "{doc}: {:?}", lost_values(&t));
    }
}

/// AgentLens sessions with fields the Session model does not declare
/// (`agenc_name`): they were dropped from the run metadata.
#[test]
fn agentlens_undeclared_session_fields_are_kept() {
    check("agentlens-lost-field.json", Some("agentlens"));
    let doc = r#"{"session_id": "s", "agent_name": "a", "events": [], "team": "red", "events_tokens_in": "mine"}"#;
    let t = parse_trace(doc.as_bytes().to_vec(), &ParseOptions { format: Some("agentlens".into()), ..Default::default() }).expect("parses");
    let m = &t.runs[0].metadata;
    assert_eq!(m.get("team"), Some(&serde_json::json!("red")));
    // A session field named like our own sums keeps its value.
    assert_eq!(m.get("events_tokens_in"), Some(&serde_json::json!("mine")));
    assert_eq!(m.get("events_tokens_out"), Some(&serde_json::json!(0)));
    assert!(lost_values(&t).is_empty(), "{:?}", lost_values(&t));
}

/// An AgentLens session whose `events` is not a list (`null`, a string, a
/// number): the error was reported but the value itself reached nothing.
#[test]
fn agentlens_events_not_a_list_is_kept() {
    check("agentlens-events-null.json", Some("agentlens"));
    for (events, expected) in [("null", serde_json::json!(null)), ("\"later\"", serde_json::json!("later")), ("7", serde_json::json!(7)), ("{\"a\": 1}", serde_json::json!({"a": 1}))] {
        let doc = format!(r#"{{"session_id": "s", "agent_name": "a", "events": {events}}}"#);
        let t = parse_trace(doc.into_bytes(), &ParseOptions { format: Some("agentlens".into()), ..Default::default() }).expect("parses");
        assert_eq!(t.runs[0].metadata.get("events"), Some(&expected), "events: {events}");
        let d = t.diagnostics.iter().find(|d| d.code == "field-type").expect("a field-type error");
        assert!(d.message.contains("`events` must be a list"), "{}", d.message);
        assert!(lost_values(&t).is_empty(), "{events}: {:?}", lost_values(&t));
    }
}

/// Explorer JSON Lines with two dataset-metadata lines that disagree: the
/// later one overwrote the earlier. Now the first holds and the later line is
/// kept whole, with a warning.
#[test]
fn contradicting_dataset_metadata_lines_are_both_kept() {
    check("auto-lost-description.json", None);
    let doc = "{\"metadata\": {\"description\": \"first\"}}\n{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}\n{\"metadata\": {\"description\": \"second\", \"extra\": 1}}\n{\"metadata\": {\"more\": 2}}\n";
    let t = parse_trace(doc.as_bytes().to_vec(), &ParseOptions::default()).expect("parses");
    assert_eq!(t.metadata.get("description"), Some(&serde_json::json!("first")));
    assert_eq!(t.metadata.get("more"), Some(&serde_json::json!(2)), "a line that agrees adds its keys");
    assert!(t.metadata.get("extra").is_none(), "the contradicting line is not merged");
    let d = t.diagnostics.iter().find(|d| d.code == "repeated-dataset-metadata").expect("a warning");
    assert_eq!(d.line, 3);
    let kept = t.events.iter().find(|e| matches!(e.body, agent_trace_viewer::model::EventBody::Unparsed(_))).expect("kept raw");
    assert!(t.source.as_slice()[kept.raw.clone()].starts_with(b"{\"metadata\": {\"description\": \"second\""));
    assert!(lost_values(&t).is_empty(), "{:?}", lost_values(&t));
}

/// An Explorer row with `"metadata": null`: the null was dropped.
#[test]
fn explicit_null_row_metadata_is_kept() {
    let t = check("openai-null-metadata.json", Some("openai"));
    assert!(t.runs.iter().any(|r| r.metadata.get("metadata") == Some(&serde_json::Value::Null)));
}
