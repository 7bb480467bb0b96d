//! The CLI, the wasm API and the page report the same tool stats: on every
//! corpus file, `agent-trace-viewer stats --format json` prints what
//! `analysis::stats::trace_stats` computes (which `trace.stats()` serialises)
//! and its tools are `analysis::stats::tool_stats` (which `trace.toolStats()`,
//! the page's Stats view, serialises). Failures follow the failure rule: a
//! call fails by its result's error status or the format's failure mark,
//! never by a diagnostic.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use agent_trace_viewer::analysis::failures::event_failed;
use agent_trace_viewer::analysis::stats::{tool_stats, trace_stats};
use agent_trace_viewer::model::{EventBody, Trace};
use agent_trace_viewer::{parse_trace, ParseOptions};
use serde_json::Value;

/// Every file under the corpus, recursively, sorted.
fn corpus_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.file_name().is_some_and(|n| n != "INDEX.md") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(&common::corpus_dir(), &mut out);
    out.sort();
    out
}

/// Per tool: (calls, answered, unanswered, failures), counted here from the
/// model with the failure rule spelled out, not through `analysis`.
fn counted(t: &Trace) -> Vec<(String, [u32; 4])> {
    let mut by: std::collections::BTreeMap<String, [u32; 4]> = Default::default();
    for e in &t.events {
        // A transcript that retells another (Inspect's event log) is not counted again.
        if t.runs[e.run as usize].transcripts[e.transcript as usize].retells {
            continue;
        }
        let calls: Vec<_> = match &e.body {
            EventBody::Message(m) => m.tool_calls.iter().collect(),
            EventBody::ToolCall(c) => vec![c],
            _ => continue,
        };
        for c in calls {
            let n = by.entry(c.function.clone()).or_default();
            n[0] += 1;
            let result = c.result.map(|r| &t.events[r as usize]);
            n[1] += u32::from(result.is_some());
            n[2] += u32::from(result.is_none());
            let own = matches!(e.body, EventBody::ToolCall(_)) && e.failed;
            n[3] += u32::from(own || result.is_some_and(event_failed));
        }
    }
    by.into_iter().collect()
}

#[test]
fn cli_trace_stats_and_tool_stats_agree_on_every_corpus_file() {
    let files = corpus_files();
    let mut args: Vec<String> = vec!["stats".into(), "--format".into(), "json".into()];
    args.extend(files.iter().map(|p| p.to_str().unwrap().to_string()));
    let out = Command::new(env!("CARGO_BIN_EXE_agent-trace-viewer")).args(&args).output().expect("run the CLI");
    let cli: Vec<Value> = serde_json::from_slice(&out.stdout).expect("the CLI's JSON");
    assert_eq!(cli.len(), files.len());
    let (mut compared, mut skipped, mut with_tools) = (0, 0, 0);
    for (path, printed) in files.iter().zip(&cli) {
        let name = path.display();
        assert_eq!(printed["file"], path.to_str().unwrap());
        let t = match parse_trace(std::fs::read(path).unwrap(), &ParseOptions::default()) {
            Ok(t) => t,
            Err(e) => {
                // Not a supported format yet: the CLI says so too, and nothing else.
                assert_eq!(printed["error"], e.to_string().as_str(), "{name}");
                skipped += 1;
                continue;
            }
        };
        let stats = trace_stats(&t);
        let tools = tool_stats(&t);
        assert_eq!(stats.tools, tools, "{name}: trace.stats().tools vs trace.toolStats()");
        assert_eq!(printed, &serde_json::to_value(&stats).unwrap().as_object().map(|o| {
            let mut o = o.clone();
            o.insert("file".into(), printed["file"].clone());
            Value::Object(o)
        }).unwrap(), "{name}: the CLI's stats vs trace.stats()");
        let printed_tools: Vec<(String, [u32; 4])> = printed["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                let n = |k: &str| t[k].as_u64().unwrap() as u32;
                (t["tool"].as_str().unwrap().to_string(), [n("calls"), n("answered"), n("unanswered"), n("failures")])
            })
            .collect();
        let mut sorted = printed_tools.clone();
        sorted.sort();
        assert_eq!(sorted, counted(&t), "{name}: tool failures by the rule");
        compared += 1;
        with_tools += usize::from(!tools.is_empty());
    }
    eprintln!("{compared} corpus files compared, {skipped} not supported yet, {with_tools} with tool calls");
    assert!(compared > 0 && with_tools > 0, "{compared} compared, {with_tools} with tools");
}
