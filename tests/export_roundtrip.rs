//! Exporting the normalised run and importing it again gives the same run:
//! property tests on generated OpenAI-format traces (valid and invalid
//! records, linked and unlinked tool calls, hostile text), and the check on
//! every OpenAI fixture and corpus file.

mod common;

use agent_trace_viewer::diagnostic::Severity;
use agent_trace_viewer::export::to_openai_jsonl;
use agent_trace_viewer::model::{EventBody, Trace};
use agent_trace_viewer::{parse_trace, ParseOptions};
use common::openai_records::trace_source;
use proptest::prelude::*;
use serde_json::{json, Value};

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
    let Ok(first) = parse_trace(src.to_vec(), &ParseOptions { format: Some("openai".to_string()), ..Default::default() }) else {
        return Ok(());
    };
    let exported = to_openai_jsonl(&first);
    let second = parse_trace(exported.clone().into_bytes(), &ParseOptions { format: Some("openai".to_string()), ..Default::default() })
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
    files.extend(std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_file()));
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
