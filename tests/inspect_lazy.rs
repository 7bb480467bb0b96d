//! A `.eval` opened lazily (`lazy::LazyArchive`) against the same file read
//! whole (`parse_trace`): the runs table before any sample is read (run
//! ids in order, scores, model, tokens, cost, error, the trace's metadata)
//! and each run once its sample is read (its events, diagnostics and
//! metadata exactly as the full read gives them), for every `.eval` of the
//! fixtures and the corpus.

mod common;

use std::path::PathBuf;

use agent_trace_viewer::analysis::runs::run_rows;
use agent_trace_viewer::lazy::{LazyArchive, LazyError};
use agent_trace_viewer::model::Trace;
use agent_trace_viewer::view::{diagnostic_counts, event_view, run_views};
use agent_trace_viewer::{parse_trace, ParseOptions};
use serde_json::Value;

fn eval_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in [PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/inspect"), common::corpus_dir().join("inspect")] {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "eval") {
                files.push(p);
            }
        }
    }
    files.sort();
    // More to compare (a generated one: scripts/bench/eval-archive.mjs), by path.
    if let Some(extra) = std::env::var_os("ATV_LAZY_EVAL_EXTRA") {
        files.extend(std::env::split_paths(&extra));
    }
    assert!(files.len() >= 4, "{} .eval files", files.len());
    files
}

/// The runs trace with every body no summary lists read at once, as the
/// page opens it.
fn open(archive: &LazyArchive, bytes: &[u8]) -> Trace {
    let trace = archive.runs_trace(Vec::new(), &ParseOptions::default()).unwrap();
    let unlisted = archive.bodies_unlisted(&trace, &[]);
    if unlisted.is_empty() {
        return trace;
    }
    let bodies = unlisted.iter().map(|&i| archive.read_body(i, archive.slice(bytes, i)).unwrap()).collect();
    let trace = archive.runs_trace(bodies, &ParseOptions::default()).unwrap();
    let names: Vec<String> = trace.runs.iter().filter(|r| r.pending_body.is_none()).map(|r| format!("samples/{}.json", r.id)).collect();
    assert!(archive.bodies_unlisted(&trace, &names).is_empty());
    trace
}

/// Run `run`'s events, diagnostics and metadata, event indices counted from the run's first event.
fn run_of(trace: &Trace, run: usize) -> Value {
    let views = run_views(trace);
    let r = &views[run];
    let first = r.head.first_event;
    let counts = diagnostic_counts(trace);
    let shift = |v: &mut Value, key: &str| {
        if let Some(n) = v.get(key).and_then(Value::as_u64) {
            v[key] = Value::from(n - u64::from(first));
        }
    };
    let events: Vec<Value> = (first..first + r.head.event_count)
        .map(|i| {
            let mut v = serde_json::to_value(event_view(trace, i as usize, counts[i as usize]).unwrap()).unwrap();
            shift(&mut v, "index");
            // The run's index (the same in both, but 0 for a body read alone).
            v.as_object_mut().unwrap().remove("run");
            if let Some(call) = v.get_mut("call") {
                shift(call, "event");
            }
            if let Some(Value::Array(calls)) = v.get_mut("toolCalls") {
                for c in calls {
                    shift(c, "result");
                }
            }
            v["raw"] = Value::String(String::from_utf8_lossy(trace.raw_json(i as usize).unwrap()).into_owned());
            v["file"] = trace.files.iter().find(|f| f.range.contains(&trace.events[i as usize].raw.start)).map(|f| Value::from(f.name.clone())).unwrap_or(Value::Null);
            v
        })
        .collect();
    let diagnostics: Vec<Value> = trace
        .diagnostics
        .iter()
        .filter(|d| d.event.is_some_and(|e| e >= first && e < first + r.head.event_count))
        .map(|d| serde_json::json!([d.severity.name(), d.code, d.message, d.path, d.line, d.column, d.event.map(|e| e - first)]))
        .collect();
    let transcripts: Vec<Value> = r.transcripts.iter().map(|t| serde_json::json!([t.key, t.first_event - first, t.event_count])).collect();
    serde_json::json!({ "id": r.head.id, "metadata": r.metadata, "transcripts": transcripts, "events": events, "diagnostics": diagnostics })
}

/// The runs table's columns known before a body is read.
fn table_row(trace: &Trace, run: usize) -> Value {
    let row = &run_rows(trace)[run];
    serde_json::json!([row.id, row.scores, row.model, row.tokens, row.cost, row.error])
}

#[test]
fn a_lazily_opened_eval_reads_as_the_whole_file_does() {
    let mut checked_runs = 0;
    let mut pending_runs = 0;
    for path in eval_files() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let bytes = std::fs::read(&path).unwrap();
        let full = parse_trace(bytes.clone(), &ParseOptions::default()).unwrap();
        let archive = LazyArchive::from_bytes(&bytes).unwrap();
        let lazy = open(&archive, &bytes);
        let ids = |t: &Trace| t.runs.iter().map(|r| r.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(&lazy), ids(&full), "{name}: run ids in order");
        assert_eq!(lazy.metadata, full.metadata, "{name}: the trace's metadata");
        assert_eq!(lazy.format, full.format, "{name}");
        for (i, run) in lazy.runs.iter().enumerate() {
            let rows = run_rows(&lazy);
            if let Some(member) = &run.pending_body {
                pending_runs += 1;
                assert!(rows[i].pending, "{name} run {i}");
                // Older summaries (the streaming corpus log's) hold no `model_usage`: tokens are known once the sample is read.
                let (mut before, mut after) = (table_row(&lazy, i), table_row(&full, i));
                if !run.metadata.contains_key("model_usage") {
                    assert_eq!(before[3], 0, "{name} run {i}");
                    (before[3], after[3]) = (Value::Null, Value::Null);
                }
                assert_eq!(before, after, "{name} run {i}: the runs table before the sample is read");
                let entry = archive.entry_named(member).unwrap_or_else(|| panic!("{name}: no member {member}"));
                let body = archive.read_body(entry, archive.slice(&bytes, entry)).unwrap();
                // The runs trace with this body read: the run as the full read has it.
                let opened = archive.runs_trace(vec![body.clone()], &ParseOptions::default()).unwrap();
                assert_eq!(ids(&opened), ids(&full), "{name}");
                assert!(opened.runs[i].pending_body.is_none());
                assert_eq!(run_of(&opened, i), run_of(&full, i), "{name} run {i} opened");
                assert_eq!(table_row(&opened, i), table_row(&full, i), "{name} run {i}");
                let full_row = serde_json::to_value(&run_rows(&full)[i]).unwrap();
                assert_eq!(serde_json::to_value(&run_rows(&opened)[i]).unwrap(), full_row, "{name} run {i}: every column once opened");
                // The body alone (what a search over the bodies reads): the same run.
                let alone = archive.body_trace(body, &ParseOptions::default()).unwrap();
                assert_eq!(alone.runs.len(), 1, "{name} run {i}");
                // Read as the format that named the bodies: no detection for each body searched.
                assert!(alone.detection.forced && alone.format == full.format, "{name} run {i}: {:?}", alone.detection);
                assert_eq!(run_of(&alone, 0), run_of(&full, i), "{name} run {i} alone");
            } else {
                assert_eq!(run_of(&lazy, i), run_of(&full, i), "{name} run {i}, read at open");
            }
            checked_runs += 1;
        }
    }
    assert!(checked_runs >= 8 && pending_runs >= 4, "{checked_runs} runs checked, {pending_runs} of them pending");
}

/// `parse_files` with the format named orders the files by that format
/// before its only join (no detection, no second split): whatever order they
/// come in, the runs are those of the archive read whole.
#[test]
fn files_read_as_a_named_format_join_in_its_order() {
    for path in eval_files() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let bytes = std::fs::read(&path).unwrap();
        let full = parse_trace(bytes.clone(), &ParseOptions::default()).unwrap();
        let mut members: Vec<(String, Vec<u8>)> =
            agent_trace_viewer::container::unzip(&bytes, u64::MAX).unwrap();
        members.reverse();
        let named = ParseOptions { format: Some(full.format.to_string()), ..Default::default() };
        let read = agent_trace_viewer::parse_files(members, &named).unwrap();
        assert!(read.detection.forced, "{name}");
        assert_eq!(read.runs.len(), full.runs.len(), "{name}");
        for i in 0..full.runs.len() {
            assert_eq!(run_of(&read, i), run_of(&full, i), "{name} run {i}");
        }
    }
}

#[test]
fn damaged_archives_are_refused_not_panicked_on() {
    let bytes = std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/inspect/generated.eval")).unwrap();
    let archive = LazyArchive::from_bytes(&bytes).unwrap();
    let entry = archive.entries().iter().position(|e| e.name.starts_with("samples/")).unwrap();
    let read = archive.slice(&bytes, entry);
    // Cut short: how far to read is said.
    let short = &read[..read.len() / 2];
    assert!(matches!(archive.read_body(entry, short), Err(LazyError::Short { .. }) | Err(LazyError::Zip(_))));
    // Every single-byte change of a member's bytes, and of the archive's tail.
    for n in (0..read.len()).step_by(7) {
        let mut bad = read.to_vec();
        bad[n] ^= 0x5a;
        let _ = archive.read_body(entry, &bad);
    }
    for n in (bytes.len().saturating_sub(2000)..bytes.len()).step_by(3) {
        let mut bad = bytes.clone();
        bad[n] ^= 0x5a;
        if let Ok(a) = LazyArchive::from_bytes(&bad) {
            let _ = a.runs_trace(Vec::new(), &ParseOptions::default());
        }
    }
}
