//! Exporting the normalised run and importing it again gives the same run:
//! property tests on generated OpenAI-format traces (valid and invalid
//! records, linked and unlinked tool calls, hostile text), and the check on
//! every OpenAI fixture and corpus file.

mod common;

use agent_trace_viewer::diagnostic::Severity;
use agent_trace_viewer::export::to_openai_jsonl;
use agent_trace_viewer::model::{EventBody, Trace};
use agent_trace_viewer::{parse_trace, ParseOptions};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

/// Everything of a trace the export must carry, without byte positions.
fn projection(t: &Trace) -> Value {
    let events: Vec<Value> = t
        .events
        .iter()
        .map(|e| {
            let body = match &e.body {
                EventBody::Message(m) => json!({
                    "role": m.role,
                    "content": format!("{:?}", m.content),
                    "calls": m.tool_calls.iter().map(|c| format!("{c:?}")).collect::<Vec<_>>(),
                }),
                EventBody::ToolResult(r) => json!(format!("{r:?}")),
                EventBody::ToolCall(c) => json!(format!("{c:?}")),
                EventBody::ToolDefinitions(d) => json!(format!("{d:?}")),
                EventBody::Unparsed(_) => json!("unparsed"),
                other => json!(other.kind()),
            };
            json!({ "kind": e.body.kind(), "body": body, "timestamp": e.timestamp, "run": e.run, "source_kind": e.source_kind })
        })
        .collect();
    let runs: Vec<Value> = t
        .runs
        .iter()
        .map(|r| {
            json!({
                "id": r.id,
                "metadata": r.metadata,
                "transcripts": r.transcripts.iter().map(|tr| (tr.events.start, tr.events.end)).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({ "events": events, "runs": runs, "metadata": t.metadata })
}

/// Findings about events, except events of `skip`. Those about the source's
/// layout (mixed JSON Lines rows, a row without messages) go with the layout
/// the export normalises.
fn event_codes(t: &Trace, skip: &[u32]) -> Vec<(u32, &'static str)> {
    let mut codes: Vec<(u32, &str)> = t.diagnostics.iter().filter_map(|d| Some((d.event?, d.code))).filter(|(e, _)| !skip.contains(e)).collect();
    codes.sort_unstable();
    codes
}

fn round_trip(src: &[u8]) -> Result<(), TestCaseError> {
    let Ok(first) = parse_trace(src.to_vec(), &ParseOptions { format: Some("openai".to_string()) }) else {
        return Ok(());
    };
    let exported = to_openai_jsonl(&first);
    let second = parse_trace(exported.clone().into_bytes(), &ParseOptions { format: Some("openai".to_string()) })
        .map_err(|e| TestCaseError::fail(format!("the export does not parse: {e}\n{exported}")))?;
    prop_assert_eq!(projection(&first), projection(&second), "\nsource: {}\nexport: {}", String::from_utf8_lossy(src), exported);
    // An invalid record is exported as the model read it (a call without
    // `function` has the name ""), so its errors may change; the findings on
    // every other event must not.
    // Warnings that, like errors, mean the model normalised a malformed value.
    const NORMALISED: &[&str] = &["tools-empty-non-list", "empty-non-list-trace"];
    let invalid: Vec<u32> = first
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error || NORMALISED.contains(&d.code))
        .filter_map(|d| d.event)
        .collect();
    prop_assert_eq!(event_codes(&first, &invalid), event_codes(&second, &invalid), "\nsource: {}\nexport: {}", String::from_utf8_lossy(src), exported);
    Ok(())
}

// ---- Generators of OpenAI-format records.

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z ]{0,8}",
        "[a-zA-Z0-9 \n\t\"\\\\<>&'{}\\[\\]:,é😀\u{202E}\u{1b}\u{0}]{0,16}",
        any::<String>().prop_map(|s| s.chars().take(12).collect()),
    ]
}

fn small_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        text().prop_map(Value::from),
        Just(json!(123456789012345678901234567890u128.to_string().parse::<Value>().unwrap())),
        prop::collection::btree_map(text(), text(), 0..3).prop_map(|m| json!(m)),
        prop::collection::vec(text(), 0..3).prop_map(|v| json!(v)),
    ]
}

fn object() -> impl Strategy<Value = Value> {
    prop::collection::btree_map(text(), small_value(), 0..4).prop_map(|m| Value::Object(m.into_iter().collect()))
}

fn content(allow_object: bool) -> impl Strategy<Value = Value> {
    let part = prop_oneof![
        text().prop_map(|t| json!({"type": "text", "text": t})),
        text().prop_map(|u| json!({"type": "image_url", "image_url": {"url": u}})),
        text().prop_map(|u| json!({"type": "image_url", "image_url": u})),
        small_value().prop_map(|v| json!({"type": "audio", "data": v})),
    ];
    prop_oneof![
        4 => text().prop_map(Value::from),
        1 => Just(Value::Null),
        2 => prop::collection::vec(part, 0..3).prop_map(Value::Array),
        1 => if allow_object { object().boxed() } else { small_value().boxed() },
    ]
}

fn arguments() -> impl Strategy<Value = Value> {
    prop_oneof![
        object().prop_map(|o| Value::String(o.to_string())),
        object(),
        text().prop_map(Value::from),
        small_value().prop_map(|v| Value::String(v.to_string())),
    ]
}

fn call(ids: Vec<String>) -> impl Strategy<Value = Value> {
    (prop::sample::select(ids), any::<bool>(), text(), arguments()).prop_map(|(id, with_id, name, args)| {
        let mut c = Map::new();
        if with_id {
            c.insert("id".to_string(), Value::String(id));
        }
        c.insert("type".to_string(), json!("function"));
        c.insert("function".to_string(), json!({"name": name, "arguments": args}));
        Value::Object(c)
    })
}

fn event() -> impl Strategy<Value = Value> {
    let ids: Vec<String> = ["a", "b", "c", "call_1", "x<y>"].iter().map(|s| s.to_string()).collect();
    let role = prop_oneof![Just("system".to_string()), Just("user".to_string()), Just("assistant".to_string()), text()];
    let timestamp = prop::option::of(Just("2025-01-01T00:00:00Z".to_string()));
    prop_oneof![
        5 => (role, content(false), prop::collection::vec(call(ids.clone()), 0..3), timestamp.clone()).prop_map(|(role, content, calls, ts)| {
            let mut m = Map::new();
            m.insert("role".to_string(), Value::String(role));
            m.insert("content".to_string(), content);
            if !calls.is_empty() {
                m.insert("tool_calls".to_string(), Value::Array(calls));
            }
            if let Some(ts) = ts {
                m.insert("timestamp".to_string(), Value::String(ts));
            }
            Value::Object(m)
        }),
        3 => (prop::option::of(prop::sample::select(ids.clone())), content(true), prop::option::of(small_value())).prop_map(|(id, content, error)| {
            let mut m = Map::new();
            m.insert("role".to_string(), json!("tool"));
            m.insert("content".to_string(), content);
            if let Some(id) = id {
                m.insert("tool_call_id".to_string(), Value::String(id));
            }
            if let Some(e) = error {
                m.insert("error".to_string(), e);
            }
            Value::Object(m)
        }),
        1 => (prop::sample::select(ids), text(), object()).prop_map(|(id, name, args)| json!({"type": "function", "id": id, "function": {"name": name, "arguments": args}})),
        1 => prop::collection::vec((text(), prop::option::of(text()), object()), 0..3).prop_map(|tools| {
            json!({"tools": tools.into_iter().map(|(name, description, schema)| {
                let mut t = Map::new();
                t.insert("name".to_string(), Value::String(name));
                if let Some(d) = description {
                    t.insert("description".to_string(), Value::String(d));
                }
                t.insert("inputSchema".to_string(), schema);
                Value::Object(t)
            }).collect::<Vec<_>>()})
        }),
        1 => small_value(),
    ]
}

/// A whole input: a bare event list, one row, or JSON Lines of rows with a
/// dataset metadata line.
fn trace_source() -> impl Strategy<Value = Vec<u8>> {
    let events = || prop::collection::vec(event(), 0..8);
    let row = (prop::option::of(text()), object(), events()).prop_map(|(id, metadata, messages)| {
        let mut r = Map::new();
        if let Some(id) = id {
            r.insert("id".to_string(), Value::String(id));
        }
        r.insert("metadata".to_string(), metadata);
        r.insert("messages".to_string(), Value::Array(messages));
        Value::Object(r)
    }).boxed();
    prop_oneof![
        events().prop_map(|e| Value::Array(e).to_string().into_bytes()),
        row.clone().prop_map(|r| serde_json::to_vec_pretty(&r).unwrap()),
        (object(), prop::collection::vec(row, 1..4)).prop_map(|(meta, rows)| {
            let mut lines = vec![json!({"metadata": meta}).to_string()];
            lines.extend(rows.iter().map(Value::to_string));
            lines.join("\n").into_bytes()
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn generated_traces_survive_export_and_reimport(src in trace_source()) {
        round_trip(&src)?;
    }
}

#[test]
fn the_projection_sees_a_change() {
    // The property can fail: a trace and a changed trace differ.
    let a = parse_trace(br#"[{"role": "user", "content": "a"}]"#.to_vec(), &ParseOptions::default()).unwrap();
    let b = parse_trace(br#"[{"role": "user", "content": "b"}]"#.to_vec(), &ParseOptions::default()).unwrap();
    assert_ne!(projection(&a), projection(&b));
}

#[test]
fn openai_fixtures_and_corpus_files_survive_export_and_reimport() {
    let mut files = common::corpus_files("invariant");
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/openai");
    files.extend(std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()));
    let mut checked = 0;
    for f in files {
        let bytes = std::fs::read(&f).unwrap();
        let Ok(t) = parse_trace(bytes.clone(), &ParseOptions::default()) else { continue };
        if t.format != "openai" {
            continue;
        }
        round_trip(&bytes).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        checked += 1;
    }
    assert!(checked > 40, "{checked} files checked");
}
