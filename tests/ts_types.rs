//! The TypeScript declarations of the JS API (src/wasm/types.d.ts) checked
//! against the Rust view types that produce the values: real values of each
//! view type, built by the same library calls the wasm methods make from the
//! samples, the fixtures of every format and the corpus, must have exactly
//! the declared fields (every key declared, every required field present),
//! each of its declared type, nested objects and union members included.
//!
//! The declarations stay hand-written (they carry the docs), but cannot drift:
//! a field added to a Rust view type and not to the interface, a field made
//! optional in Rust (`skip_serializing_if`) but required in TypeScript, a new
//! interface no value is checked against, or a wasm method returning a type
//! not in [`TABLE`], each fails here. tests/node/event-types.test.mjs checks
//! the event rows through the built package with the TypeScript compiler;
//! this test needs no build and covers every returned type.

#[path = "ts_types/check.rs"]
mod check;
mod common;
#[path = "ts_types/dts.rs"]
mod dts;

use std::path::{Path, PathBuf};

use agent_trace_viewer::model::Trace;
use agent_trace_viewer::{analysis, import, query, view, ParseOptions};
use serde::Serialize;
use serde_json::Value;

use check::{sample, Checker};
use dts::{parse_type, Declarations, Ty};

/// One parsed input and the file names it was read from.
struct Input {
    name: String,
    paths: Vec<String>,
    trace: Trace,
}

/// A TypeScript type, the Rust type whose values it declares, the wasm
/// method that returns them, and how to build those values from a trace the
/// way that method does.
struct Row {
    ts: &'static str,
    rust: &'static str,
    method: &'static str,
    values: fn(&Input) -> Vec<Value>,
}

/// Interfaces no value of the API is checked against: what JavaScript passes
/// in (options, inputs, the tokenizer it hands over).
const INPUT_ONLY: &[&str] = &["RedactOptions", "ParseOptions", "FileInput", "GlobFilter", "AgentRunContextConfig", "AgentRunTextOptions", "Cl100kTokenizer", "ArchiveRead"];

/// Objects the wasm layer builds by hand around a checked row (a
/// Uint8Array is no JSON): tests/node/redact.test.mjs checks their shape.
const BUILT_BY_HAND: &[&str] = &["Redacted", "RedactExample"];

/// Return types of wasm methods that are plain JSON, with no interface to
/// check: format ids, metadata and Docent's own AgentRun object as read, the
/// AgentRun text (one string, or the chunks of a token limit), a metadata
/// field's scalar per run; and `Redacted`, built by hand (`bytes` a
/// Uint8Array) around a `RedactReport`, which is checked as its own row.
const PLAIN_JSON: &[&str] = &["string", "Record<string, unknown>", "string | string[]", "(string | number | boolean | null)[]", "Redacted", "number[]", "[number, number]"];

/// Events (and rows) checked per trace: big traces repeat their shapes, and
/// an even spread of 500 covers them (the test stays fast in a debug build).
const EVENTS_PER_TRACE: usize = 500;

/// The corpus files read: see [`inputs`].
const CORPUS_FILE_MAX: u64 = 1 << 20;

/// The value as JavaScript receives it: serde_json's text read back, with
/// `NaN` and the infinities (which the package hands over as those numbers,
/// src/wasm/mod.rs) read as Python's json reads them.
fn json<T: Serialize + ?Sized>(v: &T) -> Value {
    let text = serde_json::to_string(v).expect("a view type serialises");
    agent_trace_viewer::json::python::loads(&text).unwrap_or_else(|e| panic!("a view type's JSON reads back: {e}"))
}

fn each<T: Serialize>(items: impl IntoIterator<Item = T>) -> Vec<Value> {
    items.into_iter().map(|x| json(&x)).collect()
}

/// The event indices checked for a trace (all of a small one).
fn event_indices(t: &Trace) -> Vec<usize> {
    let n = t.events.len();
    let step = n.div_ceil(EVENTS_PER_TRACE).max(1);
    (0..n).step_by(step).collect()
}

/// The format's views of each run (at most 5 runs), as `formatView` builds them.
fn format_views(i: &Input) -> Vec<import::FormatView> {
    let Some(format) = import::by_id(i.trace.format) else { return Vec::new() };
    let runs = i.trace.runs.len().min(5) as u32;
    format.views().iter().flat_map(|v| (0..runs).filter_map(move |run| format.view(&i.trace, v.name, run))).collect()
}

fn view_data(i: &Input, name: &str) -> Vec<Value> {
    format_views(i).into_iter().filter(|v| v.name == name).map(|v| v.data).collect()
}

/// Every type a wasm method returns, with its Rust producer.
const TABLE: &[Row] = &[
    Row { ts: "Detection", rust: "model::Detection", method: "detection", values: |i| vec![json(&i.trace.detection)] },
    Row { ts: "Diagnostic", rust: "diagnostic::Diagnostic", method: "diagnostics", values: |i| each(&i.trace.diagnostics) },
    Row {
        ts: "EventView",
        rust: "view::EventView",
        method: "events",
        values: |i| {
            let counts = view::diagnostic_counts(&i.trace);
            each(event_indices(&i.trace).into_iter().filter_map(|n| view::event_view(&i.trace, n, counts[n])))
        },
    },
    Row {
        ts: "RowView",
        rust: "view::RowView",
        method: "rows",
        values: |i| {
            let counts = view::diagnostic_counts(&i.trace);
            each(event_indices(&i.trace).into_iter().filter_map(|n| view::row_view(&i.trace, n, counts[n])))
        },
    },
    Row { ts: "RunView", rust: "view::RunView", method: "runs", values: |i| each(view::run_views(&i.trace)) },
    Row { ts: "RunHead", rust: "view::RunHead", method: "runHeads", values: |i| each(view::run_heads(&i.trace)) },
    Row { ts: "SourceFileView", rust: "view::SourceFileView", method: "files", values: |i| each(view::source_file_views(&i.trace)) },
    Row {
        ts: "Facets",
        rust: "query::Facets",
        method: "facets",
        values: |i| {
            let all: Vec<u32> = (0..i.trace.events.len() as u32).collect();
            vec![json(&query::facets(&i.trace, &all)), json(&query::facets(&i.trace, &[]))]
        },
    },
    Row { ts: "FilterableField", rust: "query::FilterableField", method: "filterableFields", values: |i| each(query::filterable_fields(&i.trace)) },
    Row { ts: "TraceStats", rust: "analysis::stats::TraceStats", method: "stats", values: |i| vec![json(&analysis::stats::trace_stats(&i.trace))] },
    Row {
        ts: "UsageTotals",
        rust: "analysis::usage::UsageTotals",
        method: "usage",
        values: |i| {
            let mut all = vec![json(&analysis::usage::totals(&i.trace, None))];
            all.extend((0..i.trace.runs.len() as u32).map(|r| json(&analysis::usage::totals(&i.trace, Some(r)))));
            all
        },
    },
    Row {
        ts: "Comparison",
        rust: "analysis::compare::Comparison",
        method: "compareRuns",
        values: |i| {
            let n = i.trace.runs.len() as u32;
            (1..n.min(4)).filter_map(|b| analysis::compare::compare(&i.trace, 0, &i.trace, b)).map(|c| json(&c)).collect()
        },
    },
    Row { ts: "SpanBars", rust: "analysis::span_bars::SpanBars", method: "spanBars", values: |i| vec![json(&analysis::span_bars::span_bars(&i.trace))] },
    Row { ts: "RunRow", rust: "analysis::runs::RunRow", method: "runRows", values: |i| each(analysis::runs::run_rows(&i.trace)) },
    Row {
        ts: "ArchiveEntry",
        rust: "lazy::ArchiveEntryView",
        method: "entries",
        values: |i| {
            let archives = i.paths.iter().filter(|p| p.ends_with(".eval")).filter_map(|p| agent_trace_viewer::lazy::LazyArchive::from_bytes(&std::fs::read(p).ok()?).ok());
            archives.flat_map(|a| each(a.entry_views())).collect()
        },
    },
    Row {
        ts: "RedactReport",
        rust: "redact::RedactReport",
        method: "redact",
        values: |i| vec![json(&agent_trace_viewer::redact::redact_json(&i.trace.source, &Default::default()).unwrap().report)],
    },
    Row { ts: "ToolStat", rust: "analysis::stats::ToolStat", method: "toolStats", values: |i| each(analysis::stats::tool_stats(&i.trace)) },
    Row { ts: "SpanNode", rust: "analysis::spans::SpanRow", method: "spans", values: |i| each(view::span_tree(&i.trace)) },
    Row { ts: "SpanTree", rust: "analysis::spans::SpanTree", method: "spanTree", values: |i| vec![json(&analysis::spans::span_tree(&i.trace))] },
    Row {
        ts: "DiagnosticGroup",
        rust: "analysis::diagnostics::DiagnosticGroup",
        method: "diagnosticGroups",
        values: |i| each(analysis::diagnostics::group(&i.trace.diagnostics)),
    },
    Row {
        ts: "FormatViewInfo",
        rust: "import::format_view::ViewInfo",
        method: "formatViews",
        values: |i| import::by_id(i.trace.format).map(|f| each(f.views())).unwrap_or_default(),
    },
    Row { ts: "FormatView", rust: "import::format_view::FormatView", method: "formatView", values: |i| each(format_views(i)) },
    Row {
        ts: "CondensedView",
        rust: "import::openhands::views::CondensedView",
        method: "condensedView",
        values: |i| view_data(i, "condensed"),
    },
    Row {
        ts: "LlmMessages",
        rust: "import::openhands::views::LlmMessages",
        method: "llmMessages",
        values: |i| view_data(i, "llm-messages"),
    },
    Row { ts: "FileGroup", rust: "import::FileGroup", method: "groupFiles", values: |i| each(import::group_files(&i.paths, &[])) },
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn declarations() -> Declarations {
    let path = root().join("src/wasm/types.d.ts");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    dts::parse(&text).unwrap_or_else(|e| panic!("{e}"))
}

/// The files directly in `dir` (not its subfolders), sorted.
fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.is_file())
        .collect();
    out.sort();
    out
}

/// The samples, every fixture of every format (not the generated scaling
/// ones), the OpenHands conversation read as one multi-file trace, and the
/// corpus' files up to 1 MB (the three bigger ones repeat the shapes of
/// smaller ones of their folders and take seconds to parse in a debug
/// build). Files that are no trace (`parse_trace` errs) are left out.
fn inputs() -> Vec<Input> {
    let mut paths: Vec<PathBuf> = files_in(&root().join("www/samples"));
    for folder in ["openai", "docent", "openhands", "agent-catalog", "agentlens", "xss"] {
        paths.extend(files_in(&root().join("tests/fixtures").join(folder)));
    }
    let corpus = common::corpus_dir();
    for entry in std::fs::read_dir(&corpus).expect("corpus folders") {
        let dir = entry.expect("dir entry").path();
        if dir.is_dir() {
            paths.extend(files_in(&dir).into_iter().filter(|p| p.metadata().is_ok_and(|m| m.len() <= CORPUS_FILE_MAX)));
        }
    }
    let mut out: Vec<Input> = paths
        .iter()
        .filter_map(|p| {
            let name = p.strip_prefix(root()).unwrap_or(p).display().to_string();
            let trace = agent_trace_viewer::parse_trace(std::fs::read(p).ok()?, &ParseOptions::default()).ok()?;
            Some(Input { paths: vec![name.clone()], name, trace })
        })
        .collect();
    let events = root().join("tests/fixtures/openhands/conversation/events");
    let files: Vec<(String, Vec<u8>)> =
        files_in(&events).into_iter().map(|p| (format!("conversation/events/{}", p.file_name().unwrap().to_string_lossy()), std::fs::read(&p).unwrap())).collect();
    let paths = files.iter().map(|(n, _)| n.clone()).collect();
    let trace = agent_trace_viewer::parse_files(files, &ParseOptions::default()).expect("the OpenHands conversation parses");
    out.push(Input { name: "tests/fixtures/openhands/conversation (parseFiles)".into(), paths, trace });
    out
}

#[test]
fn every_returned_value_has_exactly_its_declared_fields() {
    let decls = declarations();
    let inputs = inputs();
    let formats: std::collections::BTreeSet<&str> = inputs.iter().map(|i| i.trace.format).collect();
    assert_eq!(formats.len(), agent_trace_viewer::format_ids().len(), "inputs of every format: {formats:?}");
    let mut checker = Checker::new(&decls);
    // Distinct mismatches (the same field of the same type, whatever the
    // value's index), each with its first sample and how often it occurred.
    let mut failures: Vec<(String, String, usize)> = Vec::new();
    let mut checked = 0usize;
    for row in TABLE {
        let ty = Ty::Named(row.ts.to_string());
        assert!(decls.interfaces.contains_key(row.ts) || decls.aliases.contains_key(row.ts), "{} (the table's type for {}) is not declared in types.d.ts", row.ts, row.rust);
        let mut values = 0;
        for input in &inputs {
            for (n, v) in (row.values)(input).iter().enumerate() {
                values += 1;
                let errors = checker.check(&ty, v, &format!("{}#{n}", row.ts));
                if errors.is_empty() {
                    continue;
                }
                let shapes: std::collections::BTreeSet<String> = errors.iter().map(|e| shape(e)).collect();
                let key = format!("{}: {}", row.ts, shapes.into_iter().collect::<Vec<_>>().join("; "));
                match failures.iter_mut().find(|(k, _, _)| *k == key) {
                    Some((_, _, count)) => *count += 1,
                    None => failures.push((key, format!("{} (Rust {}, `{}()`) from {}:\n  {}", row.ts, row.rust, row.method, input.name, errors.iter().take(8).cloned().collect::<Vec<_>>().join("\n  ")), 1)),
                }
            }
        }
        assert!(values > 0, "no input produced a {} ({}): the check of it would be empty", row.ts, row.rust);
        checked += values;
    }
    let report: Vec<String> = failures.iter().take(30).map(|(_, first, count)| format!("{first}\n  ({count} values like this)")).collect();
    assert!(failures.is_empty(), "{} distinct mismatches with types.d.ts:\n\n{}", failures.len(), report.join("\n\n"));

    // Every interface a returned value can be was checked against one.
    let unchecked: Vec<&String> = decls
        .interfaces
        .keys()
        .filter(|n| !INPUT_ONLY.contains(&n.as_str()) && !BUILT_BY_HAND.contains(&n.as_str()) && !checker.reached.interfaces.contains_key(*n))
        .collect();
    assert!(
        unchecked.is_empty(),
        "interfaces of types.d.ts that no real value was checked against: {unchecked:?}. Add the type to TABLE in tests/ts_types.rs \
         (with the library call its wasm method makes), an input that produces it, or, for what JavaScript passes in, to INPUT_ONLY"
    );
    for name in INPUT_ONLY {
        assert!(decls.interfaces.contains_key(*name), "INPUT_ONLY names {name}, which types.d.ts does not declare");
        assert!(!checker.reached.interfaces.contains_key(*name), "{name} is INPUT_ONLY but a returned value is one");
    }

    // Optional fields no value had, or every value had: not errors (a rare
    // case may be missing from the inputs; `?` may be deliberate), but said,
    // so that a dead or too loose declaration shows.
    for (name, interface) in decls.interfaces.iter().filter(|(n, _)| !INPUT_ONLY.contains(&n.as_str())) {
        let matched = checker.reached.interfaces.get(name).copied().unwrap_or(0);
        let seen = checker.reached.optional_seen.get(name);
        let count = |f: &str| seen.and_then(|s| s.get(f)).copied().unwrap_or(0);
        let optional = interface.fields.iter().filter(|f| f.optional);
        let (never, always): (Vec<_>, Vec<_>) = optional.map(|f| (f.name.as_str(), count(&f.name))).filter(|(_, c)| *c == 0 || *c == matched).partition(|(_, c)| *c == 0);
        if !never.is_empty() {
            eprintln!("note: optional fields of {name} no value had: {:?}", never.iter().map(|(f, _)| f).collect::<Vec<_>>());
        }
        if !always.is_empty() {
            eprintln!("note: optional fields of {name} all {matched} values had: {:?}", always.iter().map(|(f, _)| f).collect::<Vec<_>>());
        }
    }
    eprintln!("checked {checked} values of {} types from {} inputs", TABLE.len(), inputs.len());
}

/// What a mismatch is about, without the value's indices and sample: the
/// place (`EventView.toolCalls[].id`) and the complaint.
fn shape(error: &str) -> String {
    let head = error.trim().split("; sample:").next().unwrap_or_default();
    let (place, what) = head.split_once(": ").unwrap_or((head, ""));
    let place: String = place.chars().filter(|c| !c.is_ascii_digit()).collect();
    let what = if what.contains(" is not ") || what.contains("matches no member") { "wrong type" } else { what };
    format!("{place}: {what}")
}

/// Every `unchecked_return_type` of the wasm layer is a type of [`TABLE`]
/// (or an array of one) or plain JSON: a method returning a new type must
/// bring its check along.
#[test]
fn every_wasm_return_type_is_in_the_table() {
    let mut found = 0;
    for path in files_in(&root().join("src/wasm")).into_iter().filter(|p| p.extension().is_some_and(|e| e == "rs")) {
        let text = std::fs::read_to_string(&path).unwrap();
        for (_, rest) in text.match_indices("unchecked_return_type = \"").map(|(i, m)| ((), &text[i + m.len()..])) {
            let ty = &rest[..rest.find('"').unwrap()];
            let base = ty.strip_suffix("[]").unwrap_or(ty);
            found += 1;
            assert!(
                TABLE.iter().any(|r| r.ts == base) || PLAIN_JSON.contains(&ty) || PLAIN_JSON.contains(&base),
                "{} returns `{ty}`, which tests/ts_types.rs does not check: add it to TABLE",
                path.display()
            );
        }
    }
    assert!(found >= TABLE.len(), "found only {found} unchecked_return_type attributes in src/wasm");
}

/// The checker fails on drift: an undeclared key, a missing required field,
/// a wrong type, a value of the wrong union member.
#[test]
fn the_checker_names_type_field_and_sample_of_a_mismatch() {
    let decls = declarations();
    let t = common::parse(br#"[{"role": "user", "content": "hi"}, {"role": "tool", "tool_call_id": "x", "content": "out"}]"#);
    let mut good = json(&view::event_view(&t, 1, (0, 0)).unwrap());
    let ty = parse_type("EventView").unwrap();
    let mut checker = Checker::new(&decls);
    assert_eq!(checker.check(&ty, &good, "EventView"), Vec::<String>::new());
    let mut extra = good.clone();
    extra["bogus"] = Value::from(1);
    let errors = checker.check(&ty, &extra, "EventView").join("\n");
    assert!(errors.contains("ToolResultEventView") && errors.contains(".bogus: field not declared") && errors.contains("\"bogus\":1"), "{errors}");
    good.as_object_mut().unwrap().remove("status");
    let errors = checker.check(&ty, &good, "EventView").join("\n");
    assert!(errors.contains(".status: required field of `ToolResultEventView` missing"), "{errors}");
    good["status"] = Value::from("maybe");
    let errors = checker.check(&ty, &good, "EventView").join("\n");
    assert!(errors.contains("EventView.status"), "{errors}");
    let errors = checker.check(&parse_type("Usage[]").unwrap(), &serde_json::json!([{"inputTokens": "1"}]), "u").join("\n");
    assert!(errors.contains("u[0].inputTokens: \"1\" is not `number`") && errors.contains("u[0].outputTokens: required"), "{errors}");
    assert!(sample(&Value::from("x".repeat(500))).ends_with('…'));
}
