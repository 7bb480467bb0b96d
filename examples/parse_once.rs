//! Parses one file and exits: the program BENCHMARKS.md's instruction counts
//! come from, since callgrind counts instructions repeatably on a shared
//! machine where wall times are not (the trace is kept, so dropping it is
//! not counted).
//!
//!     cargo build --release --example parse_once
//!     valgrind --tool=callgrind target/release/examples/parse_once FILE
//!     callgrind_annotate callgrind.out.<pid>

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: parse_once FILE");
        std::process::exit(2);
    };
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let trace = agent_trace_viewer::parse_trace(bytes, &Default::default()).unwrap_or_else(|e| panic!("{path}: {e}"));
    println!("{path}: {} events, {} diagnostics", trace.events.len(), trace.diagnostics.len());
    std::mem::forget(trace);
}
