//! Parses one file and renders the current-style AgentRun text of its run 0
//! once: the program BENCHMARKS.md's instruction counts for the text come
//! from (callgrind counts instructions repeatably on a shared machine where
//! wall times are not). `--times N` renders N times (the later calls).
//!
//!     cargo build --release --example agentrun_once
//!     valgrind --tool=callgrind target/release/examples/agentrun_once FILE
//!     callgrind_annotate callgrind.out.<pid>

use agent_trace_viewer::render::{agent_run_text, TextOptions};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: agentrun_once FILE [--times N]");
        std::process::exit(2);
    };
    let times = args.iter().position(|a| a == "--times").and_then(|i| args.get(i + 1)).and_then(|n| n.parse().ok()).unwrap_or(1);
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let trace = agent_trace_viewer::parse_trace(bytes, &Default::default()).unwrap_or_else(|e| panic!("{path}: {e}"));
    for _ in 0..times {
        let t0 = std::time::Instant::now();
        let text = agent_run_text(&trace, &TextOptions::default(), None).unwrap_or_else(|e| panic!("{path}: {e}"));
        let bytes: usize = text.iter().map(String::len).sum();
        println!("{path}: {bytes} bytes of text in {:?}", t0.elapsed());
    }
    std::mem::forget(trace);
}
