//! AgentRun text against goldens written by the real Docent libraries
//! (scripts/oracle/agentrun-text/goldens.py → tests/golden/agentrun-text/).

mod common;

use std::path::PathBuf;

use agent_trace_viewer::render::{agent_run_text, ContextConfig, Style, TextOptions, Tokenizer};
use serde_json::{json, Value};

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/agentrun-text")
}

fn read(name: &str) -> String {
    let p = golden_dir().join(name);
    String::from_utf8(std::fs::read(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))).unwrap()
}

fn manifest() -> Value {
    serde_json::from_str(&read("cases.json")).unwrap()
}

/// Where two texts first differ, for a readable failure.
fn first_difference(want: &str, got: &str) -> String {
    let at = want.bytes().zip(got.bytes()).take_while(|(a, b)| a == b).count();
    let line = want.get(..at).map(|s| s.matches('\n').count() + 1).unwrap_or(0);
    let show = |s: &str| s.get(at.saturating_sub(40)..(at + 60).min(s.len())).map(|x| format!("{x:?}")).unwrap_or_default();
    format!("first difference at byte {at} (line {line}):\n  want …{}\n  got  …{}\n  (lengths {} / {})", show(want), show(got), want.len(), got.len())
}

fn cases() -> Vec<Value> {
    manifest()["cases"].as_array().unwrap().clone()
}

fn render(name: &str, options: &TextOptions, tok: Option<&dyn Tokenizer>) -> Result<Vec<String>, String> {
    let bytes = read(&format!("{name}.json")).into_bytes();
    let trace = common::parse_as(&bytes, "docent");
    assert_eq!(trace.runs.len(), 1, "{name}: one run");
    agent_run_text(&trace, options, tok).map_err(|e| e.message)
}

fn check(failures: &mut Vec<String>, what: String, want: &str, got: Result<Vec<String>, String>) {
    match got {
        Ok(chunks) if chunks.len() == 1 && chunks[0] == want => {}
        Ok(chunks) if chunks.len() == 1 => failures.push(format!("{what}: {}", first_difference(want, &chunks[0]))),
        Ok(chunks) => failures.push(format!("{what}: {} chunks instead of one", chunks.len())),
        Err(e) => failures.push(format!("{what}: error {e}")),
    }
}

#[test]
fn legacy_text_matches_docent_python() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in cases().iter().filter(|c| c["generation"] == "older") {
        let name = case["name"].as_str().unwrap();
        let want = read(&format!("{name}.legacy.txt"));
        let options = TextOptions { style: Style::Legacy, ..TextOptions::default() };
        check(&mut failures, format!("{name}.legacy.txt"), &want, render(name, &options, None));
        checked += 1;
    }
    assert!(checked >= 8, "only {checked} legacy goldens");
    assert!(failures.is_empty(), "{} of {checked} legacy texts differ:\n{}", failures.len(), failures.join("\n\n"));
}

#[test]
fn current_text_matches_docent_0_1_88() {
    let m = manifest();
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in cases() {
        let name = case["name"].as_str().unwrap();
        if let Some(error) = case["current_error"].as_str() {
            // Docent itself fails on this run: so must we, naming the same exception.
            let kind = error.split(':').next().unwrap();
            assert_eq!(read(&format!("{name}.current.error.txt")).trim_end(), error);
            match render(name, &TextOptions::default(), None) {
                Err(e) if e.contains(kind) => {}
                other => failures.push(format!("{name}: docent 0.1.88 raises {error}; we gave {other:?}")),
            }
            checked += 1;
            continue;
        }
        let mut variants = vec![("current.txt".to_string(), ContextConfig::default())];
        for ctx in case["contexts"].as_array().unwrap() {
            let ctx = ctx.as_str().unwrap();
            let config = ContextConfig::from_json(&m["contexts"][ctx]).unwrap();
            variants.push((format!("current.{ctx}.txt"), config));
        }
        for (file, context) in variants {
            let want = read(&format!("{name}.{file}"));
            let options = TextOptions { style: Style::Current, context, ..TextOptions::default() };
            check(&mut failures, format!("{name}.{file}"), &want, render(name, &options, None));
            checked += 1;
        }
    }
    assert!(checked >= 60, "only {checked} current goldens");
    assert!(failures.is_empty(), "{} of {checked} current texts differ:\n{}", failures.len(), failures.join("\n\n"));
}

#[test]
fn every_golden_file_is_in_the_manifest() {
    let mut named = std::collections::BTreeSet::new();
    named.insert("cases.json".to_string());
    named.insert("tokens.json".to_string());
    for case in cases() {
        let name = case["name"].as_str().unwrap();
        named.insert(format!("{name}.json"));
        named.insert(format!("{name}.{}", if case["current_error"].is_string() { "current.error.txt" } else { "current.txt" }));
        if case["generation"] == "older" {
            named.insert(format!("{name}.legacy.txt"));
            for n in case["legacy_limits"].as_array().unwrap() {
                named.insert(format!("{name}.legacy.{n}.json"));
            }
        }
        for ctx in case["contexts"].as_array().unwrap() {
            named.insert(format!("{name}.current.{}.txt", ctx.as_str().unwrap()));
        }
    }
    let on_disk: std::collections::BTreeSet<String> =
        std::fs::read_dir(golden_dir()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(on_disk, named);
}

/// tiktoken cl100k_base through the tokenizer crate.
struct Cl100k;

impl Tokenizer for Cl100k {
    fn encode(&self, text: &str) -> Vec<u32> {
        atv_tokenizer::encode(text)
    }
    fn decode(&self, tokens: &[u32]) -> String {
        atv_tokenizer::decode(tokens)
    }
}

#[test]
fn token_counts_match_tiktoken() {
    let golden: Value = serde_json::from_str(&read("tokens.json")).unwrap();
    assert_eq!(golden["encoding"], "cl100k_base");
    let texts = golden["texts"].as_array().unwrap();
    assert!(texts.len() >= 30);
    let mut failures = Vec::new();
    for t in texts {
        let text = t["text"].as_str().unwrap();
        let want = t["count"].as_u64().unwrap() as usize;
        let got = atv_tokenizer::count(text);
        if got != want {
            failures.push(format!("{:?}: tiktoken {want}, ours {got}", text.chars().take(60).collect::<String>()));
        }
    }
    let special = &golden["special_token_text"];
    assert_eq!(atv_tokenizer::count(special["text"].as_str().unwrap()) as u64, special["encode_ordinary_count"].as_u64().unwrap());
    for t in golden["truncations"].as_array().unwrap() {
        let got = agent_trace_viewer::render::legacy::truncate(&Cl100k, t["text"].as_str().unwrap(), t["limit"].as_i64().unwrap());
        if got != t["result"].as_str().unwrap() {
            failures.push(format!("truncate({:?}, {}): want {:?}, got {got:?}", t["text"], t["limit"], t["result"]));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn legacy_chunks_match_docent_python() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in cases().iter().filter(|c| c["generation"] == "older") {
        let name = case["name"].as_str().unwrap();
        for n in case["legacy_limits"].as_array().unwrap() {
            let limit = n.as_i64().unwrap();
            let want: Vec<String> = serde_json::from_str(&read(&format!("{name}.legacy.{limit}.json"))).unwrap();
            let options = TextOptions { style: Style::Legacy, token_limit: Some(limit), ..TextOptions::default() };
            checked += 1;
            match render(name, &options, Some(&Cl100k)) {
                Ok(got) if got == want => {}
                Ok(got) if got.len() != want.len() => failures.push(format!("{name} @{limit}: {} chunks, want {}", got.len(), want.len())),
                Ok(got) => {
                    for (i, (w, g)) in want.iter().zip(&got).enumerate().filter(|(_, (w, g))| w != g) {
                        failures.push(format!("{name} @{limit} chunk {i}: {}", first_difference(w, g)));
                    }
                }
                Err(e) => failures.push(format!("{name} @{limit}: error {e}")),
            }
        }
    }
    assert!(checked >= 20, "only {checked} chunk goldens");
    let long = cases().iter().find(|c| c["name"] == "long-older").cloned().unwrap();
    let chunks: Vec<String> = serde_json::from_str(&read("long-older.legacy.100.json")).unwrap();
    assert!(chunks.len() > 10 && long["legacy_limits"].as_array().unwrap().len() >= 5, "the long case must really split");
    assert!(failures.is_empty(), "{} chunkings differ:\n{}", failures.len(), failures.join("\n\n"));
}

#[test]
fn the_run_asked_for_renders_from_jsonl_and_lists() {
    let a: Value = serde_json::from_str(&read("basic-older.json")).unwrap();
    let b: Value = serde_json::from_str(&read("reasoning-current.json")).unwrap();
    let jsonl = format!("{}\n{}\n", serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap());
    let list = serde_json::to_string_pretty(&json!([a, b])).unwrap();
    for bytes in [jsonl.into_bytes(), list.into_bytes()] {
        let trace = common::parse_as(&bytes, "docent");
        assert_eq!(trace.runs.len(), 2);
        let legacy = TextOptions { style: Style::Legacy, run: 0, ..TextOptions::default() };
        assert_eq!(agent_run_text(&trace, &legacy, None).unwrap(), vec![read("basic-older.legacy.txt")]);
        let current = TextOptions { run: 1, ..TextOptions::default() };
        assert_eq!(agent_run_text(&trace, &current, None).unwrap(), vec![read("reasoning-current.current.txt")]);
    }
}
