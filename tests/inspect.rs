//! Inspect AI logs against their references: inspect_ai 0.3.285's
//! `read_eval_log` (verdict, status, samples in order with their message
//! roles, event types and score values) and Docent 0.1.88's
//! `load_inspect_log` + `AgentRunView.to_text()` (byte for byte, run by run).
//! Goldens: scripts/oracle/inspect/goldens.py.

mod common;

use std::path::PathBuf;

use agent_trace_viewer::diagnostic::Severity;
use agent_trace_viewer::model::{EventBody, Trace};
use agent_trace_viewer::render::{agent_run_text, TextOptions};
use serde_json::Value;

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/inspect")
}

fn cases() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(golden_dir()).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "json") {
            let v: Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
            out.push((p.file_stem().unwrap().to_string_lossy().to_string(), v));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(out.len() >= 15, "{} golden cases", out.len());
    out
}

fn input_of(case: &Value) -> Vec<u8> {
    let source = case["source"].as_str().unwrap();
    let (root, rest) = source.split_once('/').unwrap();
    let path = match root {
        "fixtures" => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/inspect").join(rest),
        _ => common::corpus_dir().join("inspect").join(rest),
    };
    std::fs::read(path).unwrap()
}

/// The events of transcript `key` of run `run`.
fn transcript<'t>(t: &'t Trace, run: usize, key: &str) -> Vec<&'t agent_trace_viewer::model::Event> {
    let Some(tr) = t.runs[run].transcripts.iter().find(|tr| tr.key == key) else { return Vec::new() };
    t.events[tr.events.start as usize..tr.events.end as usize].iter().collect()
}

/// Events the sample's own lists hold (not the error, limit and usage events added after them).
fn is_own(e: &agent_trace_viewer::model::Event) -> bool {
    !matches!(e.source_kind.as_str(), "sample.error" | "sample.limit" | "sample.model_usage" | "transcript")
}

fn first_difference(want: &str, got: &str) -> String {
    let at = want.bytes().zip(got.bytes()).take_while(|(a, b)| a == b).count();
    format!("first difference at byte {at} (lengths {} / {}): want {:?} got {:?}", want.len(), got.len(), want.get(at..(at + 80).min(want.len())), got.get(at..(at + 80).min(got.len())))
}

#[test]
fn agrees_with_read_eval_log_and_docent() {
    let mut texts = 0;
    let mut failures = Vec::new();
    for (name, case) in cases() {
        let bytes = input_of(&case);
        let t = match agent_trace_viewer::parse_trace(bytes, &Default::default()) {
            Ok(t) => t,
            // Refused outright: agrees when read_eval_log refuses it too.
            Err(e) => {
                if case["reads"].as_bool().unwrap() {
                    failures.push(format!("{name}: not read: {e}"));
                }
                continue;
            }
        };
        assert_eq!(t.format, "inspect", "{name}");
        let errors: Vec<String> = t.diagnostics.iter().filter(|d| d.severity == Severity::Error).map(|d| format!("{} {}: {}", d.code, d.path, d.message)).collect();
        let reads = case["reads"].as_bool().unwrap();
        if reads != errors.is_empty() {
            failures.push(format!("{name}: read_eval_log reads={reads}, our errors: {errors:?}"));
        }
        if !reads {
            continue;
        }
        assert_eq!(t.metadata.get("status"), case.get("status"), "{name}: status");
        let samples = case["samples"].as_array().unwrap();
        assert_eq!(t.runs.len(), samples.len(), "{name}: runs");
        for (i, s) in samples.iter().enumerate() {
            let m = &t.runs[i].metadata;
            assert_eq!((&m["id"], &m["epoch"]), (&s["id"], &s["epoch"]), "{name}: run {i} is sample {} epoch {}", s["id"], s["epoch"]);
            let roles: Vec<&str> = transcript(&t, i, "messages").iter().map(|e| e.role().unwrap_or("?")).collect();
            let want: Vec<&str> = s["roles"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
            assert_eq!(roles, want, "{name}: run {i} roles");
            let kinds: Vec<&str> = transcript(&t, i, "events").into_iter().filter(|e| is_own(e)).map(|e| e.source_kind.as_str()).collect();
            let want: Vec<&str> = s["event_types"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
            assert_eq!(kinds, want, "{name}: run {i} event types");
            for (scorer, value) in s["scores"].as_object().unwrap() {
                assert_eq!(&m["scores"][scorer]["value"], value, "{name}: run {i} score {scorer}");
            }
            let failed_marks = transcript(&t, i, "events").iter().chain(transcript(&t, i, "messages").iter()).filter(|e| matches!(e.source_kind.as_str(), "sample.error" | "sample.limit") && e.failed).count();
            assert_eq!(failed_marks, usize::from(!s["error"].is_null()) + usize::from(!s["limit"].is_null()), "{name}: run {i} error/limit events");
        }
        for (i, d) in case["docent"].as_array().unwrap().iter().enumerate() {
            let Some(file) = d["file"].as_str() else { continue };
            let want = std::fs::read_to_string(golden_dir().join(file)).unwrap();
            let got = agent_run_text(&t, &TextOptions { run: i, ..TextOptions::default() }, None).unwrap().join("");
            texts += 1;
            if got != want {
                failures.push(format!("{name} run {i}: {}", first_difference(&want, &got)));
            }
        }
    }
    assert!(failures.is_empty(), "{} disagreements:\n{}", failures.len(), failures.join("\n"));
    assert!(texts >= 30, "{texts} Docent texts compared");
}

#[test]
fn usage_per_run_is_model_usage_and_tool_errors_are_failed_results() {
    let t = common::parse(&common::fixture("inspect/rich.json"));
    let u = agent_trace_viewer::analysis::usage::totals(&t, Some(0));
    assert_eq!((u.total.input_tokens, u.total.output_tokens, u.total.cache_read_input_tokens, u.total.cache_creation_input_tokens, u.total.reasoning_output_tokens, u.total.total_tokens), (120, 30, 40, 10, 5, 200));
    assert_eq!(u.events, 1, "only model_usage counts: the model event's own usage is not added again");
    let failed: Vec<&str> = t.events.iter().filter(|e| e.failed).map(|e| e.source_kind.as_str()).collect();
    assert_eq!(failed, ["tool", "tool"], "the tool message and the tool event with an error");
    assert!(t.diagnostics.iter().all(|d| d.severity != Severity::Error), "{:?}", t.diagnostics);
    // Spans nest by parent_id; events sit in their span.
    let model = t.events.iter().find(|e| e.source_kind == "model").unwrap();
    assert_eq!(model.span.as_deref(), Some(&["solvers".to_string(), "generate".to_string()][..]));
    assert_eq!(model.facts().model.as_deref(), Some("mockllm/model"));
    assert_eq!(model.facts().duration_ms, Some(500.0));
    // attachment:// resolves from the sample's attachments.
    let user = t.events.iter().find(|e| e.role() == Some("user")).unwrap();
    let EventBody::Message(m) = &user.body else { panic!() };
    assert_eq!(m.content.text(), "What is 1 + 2? See the attached note");
    // Both tool calls linked, in both transcripts.
    assert_eq!(t.linked_result_count(), 4);
}

#[test]
fn what_went_wrong_is_data_not_errors() {
    let t = common::parse(&common::fixture("inspect/error-status.json"));
    assert!(t.diagnostics.iter().all(|d| d.severity != Severity::Error), "{:?}", t.diagnostics);
    assert!(common::codes(&t).contains(&"eval-status"));
    assert_eq!(t.metadata["status"], "error");
    let failed: Vec<&str> = t.events.iter().filter(|e| e.failed).map(|e| e.source_kind.as_str()).collect();
    assert_eq!(failed, ["sample.error", "sample_limit", "error", "sample.limit"]);
    let t = common::parse(&common::fixture("inspect/no-samples.json"));
    assert!(t.runs.is_empty());
    let d = t.diagnostics.iter().find(|d| d.code == "no-samples").unwrap();
    assert!(d.message.contains("has not finished"), "{}", d.message);
}

#[test]
fn an_unfinished_eval_reads_from_its_journal() {
    let t = common::parse(&common::fixture("inspect/unfinished.eval"));
    assert_eq!(t.metadata["status"], "started");
    assert!(common::codes(&t).contains(&"unfinished-log"), "{:?}", common::codes(&t));
    assert!(common::errors(&t).is_empty(), "{:?}", t.diagnostics);
    assert_eq!(t.runs.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["1_epoch_1", "neg_epoch_1"]);
}

#[test]
fn eval_and_json_of_one_run_agree() {
    let j = common::parse(&common::fixture("inspect/generated.json"));
    let e = common::parse(&common::fixture("inspect/generated.eval"));
    assert_eq!(j.runs.len(), 4);
    let ids = |t: &Trace| t.runs.iter().map(|r| r.id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&j), ids(&e));
    assert_eq!(ids(&j), ["1_epoch_1", "neg_epoch_1", "1_epoch_2", "neg_epoch_2"]);
    assert_eq!(j.events.len(), e.events.len());
    assert!(e.files.iter().any(|f| f.name == "header.json"), "the archive's files are named");
}

/// Condensed model events (`input_refs`/`call_refs` into the sample's
/// `events_data` pools, what inspect_ai 0.3.285 writes): each one's input and
/// call request equal what `read_eval_log` expands them to
/// (scripts/oracle/inspect/goldens.py, `model_inputs`); the raw JSON keeps the refs.
#[test]
fn condensed_model_events_expand_as_read_eval_log_does() {
    let mut inputs = 0;
    let mut calls = 0;
    for (name, case) in cases() {
        let Some(samples) = case["model_inputs"].as_array() else { continue };
        let t = common::parse(&input_of(&case));
        for (run, want) in samples.iter().enumerate() {
            let models: Vec<_> = transcript(&t, run, "events").into_iter().filter(|e| e.source_kind == "model").collect();
            let want = want.as_array().unwrap();
            assert_eq!(models.len(), want.len(), "{name} run {run}");
            for (k, (e, w)) in models.iter().zip(want).enumerate() {
                let raw: Value = serde_json::from_slice(t.raw_json(t.events.iter().position(|x| std::ptr::eq(x, *e)).unwrap()).unwrap()).unwrap();
                if raw.get("input_refs").is_some_and(|r| !r.is_null()) {
                    assert_eq!(e.metadata.get("input"), Some(&w["input"]), "{name} run {run} model event {k}: input");
                    assert_eq!(raw["input"], serde_json::json!([]), "the raw JSON stays as written");
                    inputs += 1;
                }
                if raw["call"].get("call_refs").is_some_and(|r| !r.is_null()) {
                    assert_eq!(e.metadata["call"]["request"], w["call_request"], "{name} run {run} model event {k}: call");
                    assert!(e.metadata["call"].get("call_refs").is_none());
                    calls += 1;
                }
            }
        }
    }
    // generated.{json,eval} (4 samples × 2 calls), unfinished.eval (2 × 2), condensed and condensed-bad-refs (4 each).
    assert_eq!((inputs, calls), (28, 28));
}

#[test]
fn a_pool_ref_past_the_pool_is_located_and_sliced_as_python_does() {
    let case = cases().into_iter().find(|(n, _)| n == "fixture-condensed-bad-refs-json").unwrap().1;
    let t = common::parse(&input_of(&case));
    let d: Vec<_> = t.diagnostics.iter().filter(|d| d.code == "pool-ref-out-of-range").collect();
    let paths: Vec<&str> = d.iter().map(|d| d.path.as_str()).collect();
    assert_eq!(paths, ["$.samples[0].events[19].call.call_refs[1]", "$.samples[0].events[23].input_refs[1]"], "{:?}", d.iter().map(|d| &d.message).collect::<Vec<_>>());
    assert!(d.iter().all(|d| d.severity == agent_trace_viewer::diagnostic::Severity::Warning));
    assert!(common::errors(&t).is_empty(), "{:?}", common::codes(&t));
}

/// `ModelUsage.total_cost` per model of a sample, summed over the models
/// that report one (tests/golden/inspect/cost/ by scripts/oracle/inspect/cost.py
/// from inspect_ai's `read_eval_log`); a model without one adds nothing.
#[test]
fn sample_cost_is_model_usage_total_cost() {
    let g = common::golden_json("inspect/cost/model-usage.json");
    let t = common::parse(&common::fixture("inspect/cost/model-usage.json"));
    let s = &g["samples"][0];
    assert_eq!(common::cost_counts(&t, Some(0)), (s["reporting"].as_u64().unwrap(), common::picodollars(s["sum"].as_f64().unwrap())));
    let c = agent_trace_viewer::analysis::usage::totals(&t, Some(0)).cost.unwrap();
    for (model, want) in s["total_cost"].as_object().unwrap() {
        assert_eq!(c.by_model.get(model).map(|c| common::picodollars(c.total)), want.as_f64().map(common::picodollars), "{model}");
    }
}
