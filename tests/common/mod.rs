//! Shared helpers for integration tests.
#![allow(dead_code)]

pub mod openai_records;

use std::path::PathBuf;

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
