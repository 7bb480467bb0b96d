//! Detection boundaries of `agent-catalog` and `agentlens`: neither claims
//! another format's files (every other corpus folder), and each of their
//! inputs is claimed by itself alone.

mod common;

use agent_trace_viewer::import::{Sample, FORMATS};
use agent_trace_viewer::json;
use common::{corpus_dir, corpus_files, fixture};

/// The formats whose detector scores the input, with their confidence.
fn scores(bytes: &[u8]) -> Vec<(&'static str, f32)> {
    let split = json::split(bytes, json::bom_len(bytes));
    let sample = Sample::new(bytes, &split);
    FORMATS.iter().filter_map(|f| f.detect(&sample).map(|s| (f.id(), s.confidence))).collect()
}

#[test]
fn other_corpus_folders_are_not_claimed() {
    let mut folders: Vec<String> = std::fs::read_dir(corpus_dir())
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().into_string().unwrap())
        .filter(|name| name != "couchbase-agentc")
        .collect();
    folders.sort();
    assert!(folders.len() >= 8, "expected the other corpus folders, found {folders:?}");
    let mut checked = 0;
    for folder in &folders {
        for path in corpus_files(folder) {
            let bytes = std::fs::read(&path).unwrap();
            let claimed: Vec<_> = scores(&bytes).into_iter().filter(|(id, _)| *id == "agent-catalog" || *id == "agentlens").collect();
            assert!(claimed.is_empty(), "{} is claimed by {claimed:?}", path.display());
            if let Ok(t) = agent_trace_viewer::parse_trace(bytes, &Default::default()) {
                assert!(t.format != "agent-catalog" && t.format != "agentlens", "{} detected as {}", path.display(), t.format);
            }
            checked += 1;
        }
    }
    assert!(checked >= 50, "only {checked} files checked");
}

#[test]
fn agent_catalog_inputs_are_claimed_by_agent_catalog_alone() {
    let mut inputs: Vec<(String, Vec<u8>)> = corpus_files("couchbase-agentc")
        .into_iter()
        .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
        .collect();
    for name in ["all_kinds.jsonl", "list.json", "single.json", "sessions.jsonl", "pairing_by_order.jsonl", "spans_unmatched.jsonl"] {
        inputs.push((name.to_string(), fixture(&format!("agent-catalog/{name}"))));
    }
    for (name, bytes) in inputs {
        let s = scores(&bytes);
        assert_eq!(s, [("agent-catalog", 1.0)], "{name}");
    }
}

#[test]
fn agentlens_inputs_are_claimed_by_agentlens_alone() {
    // (Also lists of sessions, and sessions without events: their keys are evidence.)
    for name in [
        "session.json",
        "session_tokens_mismatch.json",
        "events.json",
        "events.jsonl",
        "sessions_list.json",
        "sessions_without_events.json",
        "sessions_without_events.jsonl",
    ] {
        let s = scores(&fixture(&format!("agentlens/{name}")));
        assert_eq!(s, [("agentlens", 1.0)], "{name}");
    }
}

/// Cut anywhere, bytes flipped: both importers report, never panic.
#[test]
fn damaged_inputs_never_panic() {
    let inputs = [
        ("agent-catalog", fixture("agent-catalog/all_kinds.jsonl")),
        ("agent-catalog", fixture("agent-catalog/list.json")),
        ("agentlens", fixture("agentlens/session.json")),
        ("agentlens", fixture("agentlens/events.jsonl")),
    ];
    let mut parsed = 0;
    for (format, bytes) in &inputs {
        for cut in (1..bytes.len()).step_by(13) {
            let mut damaged = bytes[..cut].to_vec();
            if cut % 2 == 0 {
                damaged.extend_from_slice(b"\x7b\"]\xff");
                damaged.extend_from_slice(&bytes[cut..]);
            }
            for f in [*format, "agent-catalog", "agentlens"] {
                let options = agent_trace_viewer::ParseOptions { format: Some(f.to_string()), ..Default::default() };
                if let Ok(t) = agent_trace_viewer::parse_trace(damaged.clone(), &options) {
                    // Whatever was read keeps valid links and ranges.
                    for e in &t.events {
                        assert!(e.raw.end <= t.source.len() && e.raw.start <= e.raw.end);
                    }
                    parsed += 1;
                }
            }
        }
    }
    assert!(parsed > 1000, "{parsed}");
}
