//! Nothing lost: every value of every corpus file and every fixture is
//! reachable from the parsed trace — inside an event's raw JSON, a value of
//! the run, transcript or file metadata, or a broken place kept as an
//! unparsed record ([`agent_trace_viewer::integrity::lost_values`]).

mod common;

use std::path::{Path, PathBuf};

use agent_trace_viewer::integrity::lost_values;
use agent_trace_viewer::{parse_trace, ParseOptions};

/// The files below `dir` but the folders' own notes.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    common::files_under(dir).into_iter().filter(|p| p.file_name().is_some_and(|n| n != "INDEX.md" && n != "README.md")).collect()
}

/// Parses `bytes` (forced to `format` when given) and returns a report of
/// the lost values, or None when the input is refused as no trace.
fn lost_report(name: &str, bytes: &[u8], format: Option<&str>) -> Option<Vec<String>> {
    let options = ParseOptions { format: format.map(str::to_string), ..Default::default() };
    let trace = parse_trace(bytes.to_vec(), &options).ok()?;
    Some(lost_values(&trace).iter().map(|l| format!("{name} [{}]: {} at {}: {:?}", trace.format, l.path, l.offset, l.text)).collect())
}

fn check_all(files: &[PathBuf], formats: &[Option<&str>]) -> usize {
    let mut failures = Vec::new();
    let mut checked = 0;
    for f in files {
        let bytes = std::fs::read(f).unwrap();
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        for format in formats {
            if let Some(lost) = lost_report(&name, &bytes, *format) {
                checked += 1;
                failures.extend(lost.into_iter().take(5));
            }
        }
    }
    assert!(failures.is_empty(), "{} lost values:\n{}", failures.len(), failures.join("\n"));
    checked
}

#[test]
fn every_value_of_every_corpus_file_is_reachable() {
    let files = files_under(&common::corpus_dir());
    assert!(files.len() > 50, "corpus has {} files", files.len());
    let checked = check_all(&files, &[None]);
    assert!(checked > 30, "only {checked} corpus files parsed");
}

#[test]
fn every_value_of_every_fixture_is_reachable() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let files = files_under(&dir);
    let checked = check_all(&files, &[None]);
    assert!(checked > 80, "only {checked} fixtures parsed");
}

#[test]
fn every_value_is_reachable_under_every_forced_format() {
    // A file read as the wrong format must still lose nothing.
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let formats: Vec<Option<&str>> = agent_trace_viewer::format_ids().into_iter().map(Some).collect();
    let files: Vec<PathBuf> = files_under(&dir).into_iter().filter(|p| std::fs::metadata(p).unwrap().len() < 64 * 1024).collect();
    check_all(&files, &formats);
}

#[test]
fn broken_jsonl_lines_become_unparsed_events() {
    let src = b"{\"role\":\"user\",\"content\":\"a\"}\n{\"role\": \"user\", \"content\": \n{\"role\":\"user\",\"content\":\"b\"}\n";
    for format in agent_trace_viewer::format_ids() {
        let t = common::parse_as(src, format);
        let broken = t.events.iter().position(|e| t.source[e.raw.clone()].starts_with(b"{\"role\": \"user\", \"content\": "));
        let broken = broken.unwrap_or_else(|| panic!("{format}: the broken line is in no event"));
        assert_eq!(t.events[broken].body.kind(), "unparsed", "{format}");
        let syntax = t.diagnostics.iter().find(|d| d.code == "json-syntax").unwrap();
        assert_eq!(syntax.event, Some(broken as u32), "{format}: the syntax error names the unparsed line");
        assert!(lost_values(&t).is_empty(), "{format}: {:?}", lost_values(&t));
    }
}

#[test]
fn trailing_content_after_a_document_is_kept() {
    let t = common::parse(b"[{\"role\": \"user\", \"content\": \"a\"}]\n]]garbage");
    let last = t.events.last().unwrap();
    assert_eq!(last.body.kind(), "unparsed");
    assert_eq!(&t.source[last.raw.clone()], b"]]garbage");
    assert!(lost_values(&t).is_empty());
}

#[test]
fn an_undecodable_metadata_value_is_kept_and_its_diagnostic_names_an_event() {
    // Found by fuzzing (parse_openai): a row member holding invalid UTF-8 was
    // dropped from the metadata, and its json-invalid diagnostic named an
    // event index that did not exist.
    let t = common::parse_as(b"{\"\":\"\xff\"}", "openai");
    for d in &t.diagnostics {
        if let Some(e) = d.event {
            assert!((e as usize) < t.events.len(), "{} names event {e} of {}", d.code, t.events.len());
        }
    }
    let kept = t.events.iter().find(|e| &t.source[e.raw.clone()] == b"\"\xff\"").expect("the value is an event");
    assert_eq!(kept.body.kind(), "unparsed");
    let d = t.diagnostics.iter().find(|d| d.code == "json-invalid").unwrap();
    assert_eq!(d.event, Some(t.events.iter().position(|e| std::ptr::eq(e, kept)).unwrap() as u32));
    assert!(lost_values(&t).is_empty());
}

#[test]
fn the_walker_finds_a_lost_value() {
    // The check itself can fail: a value the trace does not hold is reported.
    let mut t = common::parse(b"{\"messages\": [{\"role\": \"user\", \"content\": \"a\"}], \"extra\": 12345}");
    assert!(lost_values(&t).is_empty());
    t.runs[0].metadata.clear();
    let lost = lost_values(&t);
    assert_eq!(lost.len(), 1, "{lost:?}");
    assert_eq!(lost[0].path, "$.extra");
    assert_eq!(lost[0].text, "12345");
}

#[test]
fn the_broken_tail_of_one_file_of_several_is_kept() {
    // Found by fuzzing (parse_files): a file of a multi-file drop that breaks
    // after its first records lost its tail, and its syntax error was
    // reported twice.
    let files = vec![
        ("a.json".to_string(), br#"[{"role": "user", "content": "first file"}]"#.to_vec()),
        ("b.json".to_string(), b"[{\"role\": \"user\", \"content\": \"ok\"},\n {\"role\": \"user\", \"content\": \"unterminated\n]".to_vec()),
    ];
    let t = agent_trace_viewer::parse_files(files, &ParseOptions::default()).unwrap();
    assert!(lost_values(&t).is_empty(), "{:?}", lost_values(&t));
    let tail = t.events.last().unwrap();
    assert_eq!(tail.body.kind(), "unparsed");
    assert!(t.source[tail.raw.clone()].ends_with(b"\"unterminated\n]\n"), "{:?}", String::from_utf8_lossy(&t.source[tail.raw.clone()]));
    let syntax: Vec<_> = t.diagnostics.iter().filter(|d| d.code == "json-syntax").collect();
    assert_eq!(syntax.len(), 1, "{syntax:?}");
    assert_eq!(syntax[0].event, Some(t.events.len() as u32 - 1));
}
