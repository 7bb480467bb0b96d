//! Every format's runs as Docent AgentRuns (docs/agentrun-text.md).
//!
//! The docent path is proven byte for byte by tests/agentrun_text.rs. Here a
//! mapped run is exported as Docent AgentRun JSON, read back with the docent
//! format, and must render to the same bytes: the text of an openai trace is
//! exactly the text Docent gives the run we say it maps to.

mod common;

use agent_trace_viewer::model::{EventBody, KeyValue, Marker, SpanEvent, SpanPhase, Trace};
use agent_trace_viewer::agentrun::{to_docent_json, DocContent};
use agent_trace_viewer::import::agent_run as doc_run;
use agent_trace_viewer::render::{agent_run_text, render_run, ContextConfig, Style, TextOptions};
use serde_json::json;

fn all_metadata() -> ContextConfig {
    ContextConfig::from_json(&json!({
        "agent_run_metadata": {"include": ["*"]},
        "transcript_metadata": {"include": ["*"]},
        "message_metadata": {"include": ["*"]},
    }))
    .unwrap()
}

fn styles() -> Vec<TextOptions> {
    vec![
        TextOptions { style: Style::Legacy, ..TextOptions::default() },
        TextOptions { style: Style::Current, ..TextOptions::default() },
        TextOptions { style: Style::Current, context: all_metadata(), ..TextOptions::default() },
    ]
}

/// Renders run `i` directly and through its Docent JSON; both must agree.
fn assert_round_trip(trace: &Trace, i: usize, what: &str) {
    let run = doc_run(trace, i).unwrap();
    let exported = serde_json::to_vec(&to_docent_json(&run)).unwrap();
    let back = common::parse_as(&exported, "docent");
    assert_eq!(common::errors(&back), Vec::<&str>::new(), "{what}: the export is a valid Docent run");
    for options in styles() {
        let direct = render_run(&run, &options, None).unwrap();
        let via_docent = agent_run_text(&back, &options, None).unwrap();
        assert_eq!(direct, via_docent, "{what} ({:?})", options.style);
    }
}

const OPENAI: &str = r#"{"id": "r1", "metadata": {"task": "add", "scores": {"ok": true}},
 "messages": [
  {"role": "system", "content": "be brief"},
  {"role": "user", "content": [{"type": "text", "text": "add 2 and 2"}, {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}]},
  {"role": "assistant", "content": null, "tool_calls": [
    {"id": "c1", "type": "function", "function": {"name": "add", "arguments": "{\"a\": 2, \"b\": 2.0, \"why\": \"it's\"}"}},
    {"id": "c2", "type": "function", "function": {"name": "raw", "arguments": "[1, 2]"}}]},
  {"role": "tool", "tool_call_id": "c1", "content": "4"},
  {"role": "tool", "tool_call_id": "c2", "content": "bad", "error": "not an object"},
  {"role": "developer", "content": "note"},
  {"role": "assistant", "content": "2+2 = 4"}
 ]}"#;

#[test]
fn openai_maps_onto_docent_messages() {
    let trace = common::parse(OPENAI.as_bytes());
    assert_eq!(trace.format, "openai");
    let run = doc_run(&trace, 0).unwrap();
    assert_eq!(run.id, "r1");
    let t = &run.transcripts[0];
    let roles: Vec<&str> = t.messages.iter().map(|m| m.role).collect();
    assert_eq!(roles, ["system", "user", "assistant", "tool", "tool", "system", "assistant"]);
    // Images have no Docent content type: not in the text.
    assert!(matches!(&t.messages[1].content, DocContent::Parts(p) if p.len() == 2));
    assert_eq!(t.messages[1].text(), "add 2 and 2");

    let legacy = agent_run_text(&trace, &TextOptions { style: Style::Legacy, ..TextOptions::default() }, None).unwrap().concat();
    assert!(legacy.contains("<T0B2 | role: assistant>\n\n<tool call>\nadd(a=2, b=2.0, why=it's)\n</tool call>\n<tool call>\nraw(arguments=[1, 2])\n</tool call>\n</T0B2>"), "{legacy}");
    assert!(legacy.contains("<transcript default>\n<blocks>\n<action unit 0>\n<T0B0 | role: system>\nbe brief\n</T0B0>"));
    assert!(legacy.contains("scores (A dict of score_key -> score_value. Use one key for each metric you're tracking.):\n  ok: true\ntask: add\n"));
    let current = agent_run_text(&trace, &TextOptions::default(), None).unwrap().concat();
    assert!(current.contains("<|T0B3; role: tool|>\n4\n</|T0B3; role: tool|>"));
    assert!(!current.contains("metadata"), "default context hides all metadata");
    assert_round_trip(&trace, 0, "inline openai");
}

#[test]
fn events_without_chat_meaning_become_system_notes() {
    let mut trace = common::parse(OPENAI.as_bytes());
    trace.events[5].body = EventBody::Marker(Marker { label: "condensed 12 events".into() });
    trace.events[6].body = EventBody::KeyValue(KeyValue { key: "state".into(), value: json!({"step": 3}).into() });
    trace.events[0].body = EventBody::Span(SpanEvent { name: vec!["agent".into(), "plan".into()], phase: SpanPhase::Begin });
    let run = doc_run(&trace, 0).unwrap();
    let texts: Vec<String> = run.transcripts[0].messages.iter().map(|m| m.text()).collect();
    assert_eq!(texts[0], "[span start] agent > plan");
    assert_eq!(texts[5], "[marker] condensed 12 events");
    assert_eq!(texts[6], "[state] {\"step\":3}");
    assert!(run.transcripts[0].messages[5].role == "system");
    let current = render_run(&run, &TextOptions { style: Style::Current, context: all_metadata(), ..TextOptions::default() }, None).unwrap().concat();
    assert!(current.contains("[marker] condensed 12 events\n<|message metadata|>\n{\n  \"event_kind\": \"marker\",\n  \"source_kind\": \"Message\"\n}"), "{current}");
    assert_round_trip(&trace, 0, "synthetic events");
}

#[test]
fn every_invariant_corpus_run_renders_and_round_trips() {
    let mut runs = 0;
    for path in common::corpus_files("invariant") {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(trace) = agent_trace_viewer::parse_trace(bytes, &Default::default()) else { continue };
        for i in 0..trace.runs.len().min(20) {
            assert_round_trip(&trace, i, &format!("{} run {i}", path.display()));
            runs += 1;
        }
    }
    assert!(runs >= 20, "only {runs} corpus runs");
}

#[test]
fn run_index_out_of_range_is_an_error() {
    let trace = common::parse(OPENAI.as_bytes());
    let e = agent_run_text(&trace, &TextOptions { run: 1, ..TextOptions::default() }, None).unwrap_err();
    assert!(e.message.contains("no run 1"), "{}", e.message);
}

#[test]
fn large_runs_render_in_linear_time() {
    let transcripts: Vec<_> = (0..3000).map(|i| json!({"id": format!("t{i}"), "name": format!("n{i}"), "messages": [{"role": "user", "content": "hi"}]})).collect();
    let long = "word ".repeat(200_000);
    // An int to YAML 1.1 (base 60), so PyYAML quotes it: worst case for the resolver patterns.
    let sexagesimal = format!("1{}", ":11".repeat(30_000));
    let run = json!({"id": "big", "transcripts": transcripts, "metadata": {"long": long, "digits": "1".repeat(100_000), "sexagesimal": sexagesimal}});
    let trace = common::parse_as(&serde_json::to_vec(&run).unwrap(), "docent");
    let start = std::time::Instant::now();
    let current = agent_run_text(&trace, &TextOptions { context: all_metadata(), ..TextOptions::default() }, None).unwrap().concat();
    assert!(current.contains("<|transcript T2999|>"));
    let legacy = agent_run_text(&trace, &TextOptions { style: Style::Legacy, ..TextOptions::default() }, None).unwrap().concat();
    assert!(legacy.contains("<transcript t2999>") && legacy.contains(&format!("digits: '{}'", "1".repeat(100_000))));
    assert!(legacy.contains(&format!("sexagesimal: '{sexagesimal}'")));
    assert!(start.elapsed().as_secs() < 60, "took {:?}", start.elapsed());
}
