//! Our `openai` verdicts against Invariant's own loader, trace by trace.
//!
//! The golden file comes from the real library (`invariant-ai`, see
//! scripts/oracle/openai/verdicts.py). A trace is "rejected" by us when its
//! run has at least one Error diagnostic; Invariant rejects it when
//! `Input(trace)` raises.

mod common;

use std::collections::BTreeSet;
use std::path::PathBuf;

use agent_trace_viewer::diagnostic::{Diagnostic, Severity};
use agent_trace_viewer::model::Trace;
use serde_json::Value;

const GOLDEN: &str = "tests/golden/openai/invariant_verdicts.json";
const CORPUS_PREFIX: &str = "corpus/";
const FIXTURE_PREFIX: &str = "fixtures/";
const FIXTURE_FOLDER: &str = "openai";
const CORPUS_FOLDER: &str = "invariant";
const REGENERATE: &str = "regenerate with `python3 scripts/oracle/openai/verdicts.py`";

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn golden() -> serde_json::Map<String, Value> {
    let bytes = std::fs::read(manifest_dir().join(GOLDEN)).unwrap_or_else(|e| panic!("cannot read {GOLDEN}: {e}; {REGENERATE}"));
    match serde_json::from_slice(&bytes).expect("golden is JSON") {
        Value::Object(m) => m,
        other => panic!("golden must be an object, found {other}"),
    }
}

/// The file a golden key names.
fn file_of(key: &str) -> PathBuf {
    if let Some(rest) = key.strip_prefix(CORPUS_PREFIX) {
        common::corpus_dir().join(rest)
    } else if let Some(rest) = key.strip_prefix(FIXTURE_PREFIX) {
        manifest_dir().join("tests/fixtures").join(rest)
    } else {
        panic!("golden key {key:?} is neither corpus/… nor fixtures/…")
    }
}

/// The run an Error diagnostic belongs to: its event's run, or else the last
/// run that starts at or before it.
fn run_of(trace: &Trace, d: &Diagnostic) -> Option<usize> {
    if let Some(e) = d.event {
        return trace.events.get(e as usize).map(|ev| ev.run as usize);
    }
    trace.runs.iter().rposition(|r| r.offset.is_some_and(|o| o <= d.offset))
}

fn run_event_count(trace: &Trace, run: usize) -> usize {
    trace.events.iter().filter(|e| e.run as usize == run).count()
}

/// Compares one file; returns the mismatches in words.
fn compare_file(key: &str, expected: &[Value]) -> Vec<String> {
    let path = file_of(key);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let trace = common::parse_as(&bytes, "openai");
    let mut problems = Vec::new();
    let file = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
    let errors: Vec<&Diagnostic> = trace.diagnostics.iter().filter(|d| d.severity == Severity::Error).collect();
    for d in &errors {
        if run_of(&trace, d).is_none() {
            problems.push(format!("{key}: an Error diagnostic belongs to no run: {}", d.to_line(&file)));
        }
    }
    if trace.runs.len() != expected.len() {
        problems.push(format!("{key}: Invariant sees {} traces, we read {} runs", expected.len(), trace.runs.len()));
        return problems;
    }
    for (i, want) in expected.iter().enumerate() {
        let accepted = want["accepted"].as_bool().expect("accepted is a bool");
        let ours: Vec<String> =
            errors.iter().filter(|d| run_of(&trace, d) == Some(i)).map(|d| d.to_line(&file)).collect();
        if accepted != ours.is_empty() {
            let all: Vec<String> = trace
                .diagnostics
                .iter()
                .filter(|d| run_of(&trace, d) == Some(i))
                .map(|d| format!("    {}", d.to_line(&file)))
                .collect();
            problems.push(format!(
                "{key} trace {i}: Invariant {} it{}; we {}. Our diagnostics for this run:\n{}",
                if accepted { "accepts" } else { "rejects" },
                want["error"].as_str().map(|e| format!(" ({e})")).unwrap_or_default(),
                if ours.is_empty() { "accept it" } else { "reject it" },
                if all.is_empty() { "    (none)".to_string() } else { all.join("\n") },
            ));
        }
        if let Some(n) = want["events"].as_u64() {
            let got = run_event_count(&trace, i);
            if got as u64 != n {
                problems.push(format!("{key} trace {i}: the trace holds {n} events, we loaded {got}"));
            }
        }
    }
    problems
}

#[test]
fn openai_verdicts_match_invariant() {
    let golden = golden();
    let mut problems = Vec::new();
    let mut compared = 0usize;
    for (key, traces) in &golden {
        let traces = traces.as_array().unwrap_or_else(|| panic!("{key}: expected a list of trace verdicts"));
        problems.extend(compare_file(key, traces));
        compared += traces.len();
    }
    assert!(compared > 0, "the golden holds no traces; {REGENERATE}");
    assert!(problems.is_empty(), "{} disagreement(s) with Invariant:\n{}", problems.len(), problems.join("\n"));
}

fn file_names(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.is_file())
        .map(|p| p.file_name().expect("file name").to_string_lossy().to_string())
        .collect();
    names.sort();
    names
}

#[test]
fn golden_covers_every_corpus_file_and_fixture() {
    let keys: BTreeSet<String> = golden().keys().cloned().collect();
    let mut wanted = BTreeSet::new();
    for p in common::corpus_files(CORPUS_FOLDER) {
        let name = p.file_name().expect("file name").to_string_lossy().to_string();
        wanted.insert(format!("{CORPUS_PREFIX}{CORPUS_FOLDER}/{name}"));
    }
    let fixtures = file_names(&manifest_dir().join("tests/fixtures").join(FIXTURE_FOLDER));
    assert!(!fixtures.is_empty(), "no fixtures in tests/fixtures/{FIXTURE_FOLDER}");
    for name in fixtures {
        wanted.insert(format!("{FIXTURE_PREFIX}{FIXTURE_FOLDER}/{name}"));
    }
    let missing: Vec<&String> = wanted.difference(&keys).collect();
    let stale: Vec<&String> = keys.difference(&wanted).collect();
    assert!(missing.is_empty() && stale.is_empty(), "golden out of date; {REGENERATE}\n  missing: {missing:?}\n  stale: {stale:?}");
}

/// The fixtures exist to probe both sides of each rule: both verdicts must occur.
#[test]
fn fixtures_hold_accepted_and_rejected_traces() {
    let golden = golden();
    let verdicts: Vec<bool> = golden
        .iter()
        .filter(|(k, _)| k.starts_with(FIXTURE_PREFIX))
        .flat_map(|(_, v)| v.as_array().cloned().unwrap_or_default())
        .map(|t| t["accepted"].as_bool().expect("accepted is a bool"))
        .collect();
    assert!(verdicts.iter().any(|a| *a), "no fixture trace is accepted by Invariant");
    assert!(verdicts.iter().any(|a| !*a), "no fixture trace is rejected by Invariant");
}
