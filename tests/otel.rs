//! The `otel` format (OpenTelemetry traces: OTLP JSON, GenAI conventions,
//! OpenInference).
//!
//! Goldens: tests/golden/otel/oracle.json, written by
//! scripts/oracle/otel/generate.py — protobuf's `json_format.Parse` verdict
//! per record (opentelemetry-proto 1.45.2), the GenAI JSON schemas' verdict
//! per message attribute, and counts computed in Python for every fixture
//! and corpus file.

mod common;

use agent_trace_viewer::diagnostic::Severity;
use agent_trace_viewer::integrity::LEFTOVER_RUN_ID;
use agent_trace_viewer::model::{Content, ContentPart, EventBody, SpanPhase, ToolStatus, Trace};
use common::{fixture, golden_input, parse, path_inside};
use serde_json::Value;

/// The Error diagnostics of one record: its line (JSON Lines), its list
/// index, or the whole document.
fn record_errors<'t>(t: &'t Trace, r: &Value) -> Vec<&'t agent_trace_viewer::diagnostic::Diagnostic> {
    let errors = t.diagnostics.iter().filter(|d| d.severity == Severity::Error);
    match (r.get("line").and_then(Value::as_u64), r.get("index").and_then(Value::as_u64)) {
        (Some(line), _) => errors.filter(|d| u64::from(d.line) == line).collect(),
        (None, Some(i)) => {
            let prefix = format!("$[{i}]");
            errors.filter(|d| path_inside(&d.path, &prefix)).collect()
        }
        (None, None) => errors.collect(),
    }
}

#[test]
fn verdicts_agree_with_protobuf_record_by_record() {
    let g = common::golden_json("otel/oracle.json");
    let (mut compared, mut rejected) = (0, 0);
    for (key, file) in g["files"].as_object().unwrap() {
        let t = parse(&golden_input("otel", "otel-genai", key));
        assert_eq!(t.format, "otel", "{key}");
        for r in file["records"].as_array().unwrap() {
            let errs = record_errors(&t, r);
            let at = format!("{key} record {}", r.get("line").or(r.get("index")).unwrap_or(&Value::Null));
            match r["kind"].as_str().unwrap() {
                // Flat attribute objects have no protobuf message.
                "attributes" => assert!(errs.is_empty(), "{at}: {errs:?}"),
                _ => {
                    let accepted = r["accepted"].as_bool().unwrap();
                    assert_eq!(errs.is_empty(), accepted, "{at}: protobuf accepted={accepted} ({}); ours {errs:?}", r["error"]);
                    rejected += usize::from(!accepted);
                }
            }
            compared += 1;
        }
    }
    assert!(compared >= 30 && rejected >= 15, "{compared} records compared, {rejected} rejected");
}

#[derive(Debug, PartialEq)]
struct Counts {
    runs: usize,
    spans: usize,
    messages: usize,
    tool_results: usize,
    tool_calls: usize,
    linked_tool_calls: usize,
}

fn counts(t: &Trace) -> Counts {
    let n = |f: &dyn Fn(&EventBody) -> bool| t.events.iter().filter(|e| f(&e.body)).count();
    Counts {
        runs: t.runs.iter().filter(|r| r.id != LEFTOVER_RUN_ID).count(),
        spans: n(&|b| matches!(b, EventBody::Span(s) if s.phase == SpanPhase::Begin)),
        messages: n(&|b| matches!(b, EventBody::Message(_))),
        tool_results: n(&|b| matches!(b, EventBody::ToolResult(_))),
        tool_calls: t.tool_call_count(),
        linked_tool_calls: t.linked_result_count(),
    }
}

#[test]
fn counts_agree_with_the_oracle_for_fixtures_and_corpus() {
    let g = common::golden_json("otel/oracle.json");
    let mut corpus = 0;
    for (key, file) in g["files"].as_object().unwrap() {
        let t = parse(&golden_input("otel", "otel-genai", key));
        let c = &file["counts"];
        let want = Counts {
            runs: c["runs"].as_u64().unwrap() as usize,
            spans: c["spans"].as_u64().unwrap() as usize,
            messages: c["messages"].as_u64().unwrap() as usize,
            tool_results: c["tool_results"].as_u64().unwrap() as usize,
            tool_calls: c["tool_calls"].as_u64().unwrap() as usize,
            linked_tool_calls: c["linked_tool_calls"].as_u64().unwrap() as usize,
        };
        assert_eq!(counts(&t), want, "{key}");
        corpus += usize::from(key.starts_with("corpus/"));
    }
    assert_eq!(corpus, common::corpus_files("otel-genai").len(), "every corpus file has a golden");
}

fn messages(t: &Trace, run: usize) -> Vec<(String, String)> {
    let r = &t.runs[run].transcripts[0].events;
    common::messages_of(&t.events[r.start as usize..r.end as usize])
}

#[test]
fn genai_conversation_shows_each_message_once() {
    let t = parse(&fixture("otel/sdk-genai.json"));
    assert_eq!(t.runs.len(), 2);
    let m = messages(&t, 0);
    let texts: Vec<&str> = m.iter().map(|(_, s)| s.as_str()).collect();
    assert_eq!(
        texts,
        [
            "You are a weather assistant.",
            "Weather in Paris?",
            "Let me check.",
            "It is rainy in Paris, 14°C.",
            "And this picture?",
            "A cloudy sky.",
            "Plan a trip",
            "Day 1: Louvre.",
            "More",
            "Day 2: Orsay.",
        ]
    );
    // The second call re-sends the tool result the tool span gave: shown once.
    let results: Vec<&Content> = t.events.iter().filter_map(|e| if let EventBody::ToolResult(r) = &e.body { Some(&r.content) } else { None }).collect();
    assert_eq!(results.len(), 2);
    assert_eq!(results[0].text(), "rainy, 14°C");
    // Reasoning and image parts.
    let parts = t.events.iter().find_map(|e| match &e.body {
        EventBody::Message(m) if m.content.text().contains("rainy in Paris") => Some(m.content.clone()),
        _ => None,
    });
    assert!(matches!(parts, Some(Content::Parts(p)) if matches!(&p[0], ContentPart::Reasoning(r) if r.to_string() == "The tool said rainy.")));
    let images = t.events.iter().filter_map(|e| match &e.body {
        EventBody::Message(m) => match &m.content {
            Content::Parts(p) => Some(p.iter().filter(|p| matches!(p, ContentPart::Image { .. })).count()),
            _ => None,
        },
        _ => None,
    });
    assert_eq!(images.sum::<usize>(), 2);
    // The second trace: messages from the inference details event.
    assert_eq!(messages(&t, 1), [("user".to_string(), "hi".to_string()), ("assistant".to_string(), "hello".to_string())]);
}

#[test]
fn spans_nest_with_times_usage_and_failures() {
    let t = parse(&fixture("otel/sdk-genai.json"));
    let begins: Vec<_> = t.events.iter().filter(|e| matches!(&e.body, EventBody::Span(s) if s.phase == SpanPhase::Begin)).collect();
    let EventBody::Span(first_chat) = &begins[1].body else { unreachable!() };
    assert_eq!(first_chat.name, ["invoke_agent weather", "chat gpt-4o"]);
    assert_eq!(begins[1].timestamp.as_deref(), Some("2026-01-01T00:00:00.002000000Z"));
    let f = begins[1].facts();
    assert_eq!((f.usage.unwrap().input_tokens, f.usage.unwrap().output_tokens, f.usage.unwrap().total_tokens), (120, 30, 150));
    assert_eq!(f.model.as_deref(), Some("gpt-4o-2024-08-06"));
    assert_eq!(f.duration_ms, Some(100.0));
    assert_eq!(begins[1].metadata["gen_ai.provider.name"], "openai");
    assert_eq!(begins[1].metadata["otel.kind"], 3);
    // The planner's chats nest under it.
    assert!(begins.iter().any(|e| matches!(&e.body, EventBody::Span(s) if s.name == ["invoke_agent weather", "invoke_agent planner", "chat claude"])));
    // The failed tool span: begin and end failed, its result an error, its exception a failed marker.
    let failed: Vec<_> = t.events.iter().filter(|e| e.failed).map(|e| e.body.kind()).collect();
    assert_eq!(failed, ["span", "marker", "tool-result", "span"]);
    let r = t.events.iter().find_map(|e| match &e.body {
        EventBody::ToolResult(r) if r.status == ToolStatus::Error => Some(r),
        _ => None,
    });
    assert_eq!(r.map(|r| r.content.text()), Some("SMTP refused".to_string()));
    // Every span of the run has its begin and end paired.
    let tree = agent_trace_viewer::analysis::spans::build(&t.events);
    assert!(tree.issues.is_empty(), "{:?}", tree.issues);
}

#[test]
fn openinference_and_deprecated_attributes() {
    let t = parse(&fixture("otel/sdk-openinference.jsonl"));
    assert_eq!(t.runs.len(), 1, "one trace across two lines");
    let m = messages(&t, 0);
    assert_eq!(m[0], ("system".to_string(), "You search docs.".to_string()));
    assert_eq!(m.last().unwrap().1, "Refunds are accepted within 30 days.");
    let calls: Vec<_> = t.events.iter().filter_map(|e| if let EventBody::Message(m) = &e.body { Some(m.tool_calls.clone()) } else { None }).flatten().collect();
    assert_eq!(calls.iter().map(|c| (c.id.as_deref(), c.function.as_str(), c.result.is_some())).collect::<Vec<_>>(), [(Some("c-9"), "search", true), (Some("c-10"), "lookup", true)]);
    let usage: u64 = t.events.iter().filter_map(|e| e.facts().usage).map(|u| u.total_tokens).sum();
    assert_eq!(usage, 70 + 102);

    let t = parse(&fixture("otel/sdk-deprecated.json"));
    let m = messages(&t, 0);
    // The event-based call re-sends the system prompt the first call showed.
    assert_eq!(m.iter().map(|(r, _)| r.as_str()).collect::<Vec<_>>(), ["system", "user", "assistant", "assistant", "user", "assistant"]);
    assert!(m.iter().any(|(_, s)| s == "It is 9 am."));
    assert!(m.iter().any(|(r, s)| r == "assistant" && s == "Hi!"), "gen_ai.choice event: {m:?}");
}

#[test]
fn edges_are_diagnosed_not_lost() {
    let t = parse(&fixture("otel/edges.json"));
    let codes: Vec<&str> = t.diagnostics.iter().map(|d| d.code).collect();
    assert!(codes.contains(&"duplicate-span-id"), "{codes:?}");
    assert!(codes.contains(&"span-cycle"), "{codes:?}");
    assert!(codes.contains(&"unanswered-tool-call"), "{codes:?}");
    assert_eq!(t.error_count(), 0);
    // Every span is shown, once.
    assert_eq!(counts(&t).spans, 8);
    // A span without an end time has an end event without a timestamp.
    let unended = t.events.iter().filter(|e| matches!(&e.body, EventBody::Span(s) if s.phase == SpanPhase::End) && e.timestamp.is_none()).count();
    assert_eq!(unended, 1);
    assert!(agent_trace_viewer::integrity::lost_values(&t).is_empty());
}

#[test]
fn detection_names_the_evidence() {
    for (name, needle) in [("otel/sdk-genai.json", "OTLP export requests"), ("otel/spans.json", "OTLP spans"), ("otel/flat-list.json", "span attributes")] {
        let t = parse(&fixture(name));
        assert_eq!(t.format, "otel", "{name}");
        assert!(t.detection.evidence.iter().any(|e| e.contains(needle)), "{name}: {:?}", t.detection.evidence);
    }
}

/// A chain of `n` spans, each the parent of the next.
fn chain_of(n: usize) -> Vec<u8> {
    let spans: Vec<String> = (0..n)
        .map(|i| {
            let parent = if i == 0 { String::new() } else { format!("{:016x}", i - 1) };
            format!(r#"{{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"{:016x}","parentSpanId":"{parent}","name":"level","startTimeUnixNano":"{}","endTimeUnixNano":"{}"}}"#, i, 1_000 + i, 100_000 - i)
        })
        .collect();
    format!(r#"{{"resourceSpans":[{{"scopeSpans":[{{"spans":[{}]}}]}}]}}"#, spans.join(",")).into_bytes()
}

#[test]
fn deep_nesting_is_capped_and_linear() {
    let t = parse(&chain_of(300));
    let deepest = t.events.iter().filter_map(|e| match &e.body {
        EventBody::Span(s) => Some(s.name.len()),
        _ => None,
    });
    assert_eq!(deepest.max(), Some(256));
    assert_eq!(t.diagnostics.iter().filter(|d| d.code == "span-too-deep").count(), 1);
    let tree = agent_trace_viewer::analysis::spans::build(&t.events);
    assert!(tree.issues.is_empty(), "begins and ends still pair: {:?}", tree.issues);
    // The time grows linearly: 8× the spans, well under 64× the time (the
    // scaling harness cannot write a chain: `{i}` cannot name `i - 1`).
    let time = |n: usize| {
        let bytes = chain_of(n);
        common::fastest_cpu(3, || drop(parse(&bytes)))
    };
    let (a, b) = (time(500), time(4_000));
    assert!(b.as_secs_f64() / a.as_secs_f64() < 16.0, "{a:?} → {b:?}");
}

#[test]
fn genai_schema_warnings_agree_with_the_schemas() {
    let g = common::golden_json("otel/oracle.json");
    let mut invalid = 0;
    for (key, file) in g["files"].as_object().unwrap() {
        let t = parse(&golden_input("otel", "otel-genai", key));
        let want: Vec<String> = file["schemas"].as_array().unwrap().iter().filter(|s| s["valid"] == false).map(|s| s["attribute"].as_str().unwrap().to_string()).collect();
        let mut ours: Vec<&agent_trace_viewer::diagnostic::Diagnostic> = t.diagnostics.iter().filter(|d| d.code == "genai-schema").collect();
        ours.sort_by_key(|d| d.offset);
        let got: Vec<String> = ours.iter().map(|d| d.message.split('`').nth(1).unwrap_or("").to_string()).collect();
        assert_eq!(got, want, "{key}: {ours:?}");
        invalid += want.len();
    }
    assert!(invalid >= 2, "the goldens hold schema failures to compare");
}

/// OpenInference's `llm.cost.*` (names from openinference-semantic-conventions,
/// tests/golden/otel/cost.json by scripts/oracle/otel/cost.py): the spans'
/// cost, a missing total the sum of prompt and completion, a detail not added
/// again, a span without cost attributes left out, per model.
#[test]
fn openinference_cost_per_span_and_model() {
    let g = common::golden_json("otel/cost.json");
    assert_eq!(g["names"], serde_json::json!({"total": "llm.cost.total", "prompt": "llm.cost.prompt", "completion": "llm.cost.completion"}));
    assert_eq!(g["genai_cost_attributes"], serde_json::json!([]), "the GenAI conventions define no cost attribute to read");
    let t = common::parse_as(&common::fixture("otel/openinference-cost.json"), "otel");
    let want = &g["cost"];
    assert_eq!(common::cost_counts(&t, None), (want["events"].as_u64().unwrap(), common::picodollars(want["total"].as_f64().unwrap())));
    let c = agent_trace_viewer::analysis::usage::totals(&t, None).cost.unwrap();
    for (model, total) in want["byModel"].as_object().unwrap() {
        assert_eq!(common::picodollars(c.by_model[model].total), common::picodollars(total.as_f64().unwrap()), "{model}");
    }
    let first = t.events.iter().find_map(|e| e.facts().cost).unwrap();
    assert_eq!((first.input, first.output), (Some(0.0002), Some(0.00016)));
}
