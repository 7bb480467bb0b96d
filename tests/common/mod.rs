//! Shared helpers for integration tests.
#![allow(dead_code)]

pub mod openai_records;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use agent_trace_viewer::diagnostic::Severity;
use agent_trace_viewer::model::Trace;
use agent_trace_viewer::{parse_trace, ParseOptions};

/// The real-world corpus beside the repo (`../shared/corpus`), or `$ATV_CORPUS`.
/// Fails loudly when it is missing: a suite that silently skips is a red suite.
pub fn corpus_dir() -> PathBuf {
    let dir = match std::env::var_os("ATV_CORPUS") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
    };
    assert!(
        dir.is_dir(),
        "CORPUS MISSING: {} is not a directory. The corpus tests need the shared corpus; set ATV_CORPUS=/path/to/corpus.",
        dir.display()
    );
    dir
}

/// Every file below `dir`, at any depth, sorted.
pub fn files_under(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("cannot read {}: {e}", d.display())) {
            let p = e.expect("dir entry").path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Files of one corpus folder, sorted.
pub fn corpus_files(folder: &str) -> Vec<PathBuf> {
    let dir = corpus_dir().join(folder);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no files in {}", dir.display());
    files
}

pub fn fixture(path: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(path);
    std::fs::read(&p).unwrap_or_else(|e| panic!("cannot read fixture {}: {e}", p.display()))
}

pub fn parse(bytes: &[u8]) -> Trace {
    parse_trace(bytes.to_vec(), &ParseOptions::default()).unwrap_or_else(|e| panic!("parse failed: {e}"))
}

pub fn parse_as(bytes: &[u8], format: &str) -> Trace {
    parse_trace(bytes.to_vec(), &ParseOptions { format: Some(format.to_string()), ..Default::default() })
        .unwrap_or_else(|e| panic!("parse failed: {e}"))
}

/// The diagnostic codes of a trace, in order.
pub fn codes(t: &Trace) -> Vec<&'static str> {
    t.diagnostics.iter().map(|d| d.code).collect()
}

pub fn errors(t: &Trace) -> Vec<&'static str> {
    t.diagnostics.iter().filter(|d| d.severity == Severity::Error).map(|d| d.code).collect()
}

/// A trace's cost totals as (events reporting one, total in 1e-12 USD): sums
/// of the same figures in another order (the oracle's) agree to far below that.
pub fn cost_counts(t: &Trace, run: Option<u32>) -> (u64, i64) {
    agent_trace_viewer::analysis::usage::totals(t, run).cost.map_or((0, 0), |c| (u64::from(c.events), picodollars(c.total.total)))
}

/// Dollars as whole 1e-12 USD.
pub fn picodollars(x: f64) -> i64 {
    (x * 1e12).round() as i64
}

/// `tests/golden/<path>`: what a format's oracle script wrote.
pub fn golden_json(path: &str) -> serde_json::Value {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(path);
    let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("cannot read golden {}: {e}", p.display()));
    serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("golden {} is not JSON: {e}", p.display()))
}

/// The input an oracle golden names by key: `fixtures/<name>` in
/// `tests/fixtures/<fixtures>/`, `corpus/<name>` in the corpus folder `corpus`.
pub fn golden_input(fixtures: &str, corpus: &str, key: &str) -> Vec<u8> {
    match key.split_once('/') {
        Some(("fixtures", name)) => fixture(&format!("{fixtures}/{name}")),
        Some(("corpus", name)) => std::fs::read(corpus_dir().join(corpus).join(name)).expect("corpus file"),
        _ => panic!("unknown golden key {key}"),
    }
}

/// Whether the JSON path `path` is `object` or inside it.
pub fn path_inside(path: &str, object: &str) -> bool {
    path == object || path.strip_prefix(object).is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
}

/// The messages among `events`, as (role, text).
pub fn messages_of(events: &[agent_trace_viewer::model::Event]) -> Vec<(String, String)> {
    events
        .iter()
        .filter_map(|e| match &e.body {
            agent_trace_viewer::model::EventBody::Message(m) => Some((m.role.clone(), m.content.text())),
            _ => None,
        })
        .collect()
}

/// This thread's CPU time: what the parse costs, whatever else the shared
/// machine runs meanwhile (wall time there grows with the load).
#[cfg(unix)]
pub fn cpu_now() -> std::time::Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime only writes the timespec it is handed.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0;
    assert!(ok, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    std::time::Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

#[cfg(not(unix))]
pub fn cpu_now() -> std::time::Duration {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// The least CPU time of `runs` calls of `f` (a shared machine is noisy:
/// other processes do not count, and the best of several runs drops the
/// slow spells of this one).
pub fn fastest_cpu(runs: usize, mut f: impl FnMut()) -> std::time::Duration {
    (0..runs.max(1))
        .map(|_| {
            let start = cpu_now();
            f();
            cpu_now().saturating_sub(start)
        })
        .min()
        .unwrap_or_default()
}

/// Runs the command-line tool with `args` (and `stdin`): its exit code, stdout and stderr.
pub fn cli(args: &[&str], stdin: Option<&[u8]>) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_agent-trace-viewer"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    if let Some(input) = stdin {
        // A command that fails on its arguments exits without reading stdin:
        // the write then races the exit and may find the pipe closed.
        if let Err(e) = child.stdin.take().unwrap().write_all(input) {
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
        }
    } else {
        drop(child.stdin.take());
    }
    let out = child.wait_with_output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}
