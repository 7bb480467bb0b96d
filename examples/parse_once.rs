//! Parses one file (or a folder's files as one trace) and exits: the program BENCHMARKS.md's instruction counts
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
    // A folder: its files read as one trace (`parse_files`, as the page reads a folder of run files).
    let trace = if std::path::Path::new(&path).is_dir() {
        let mut files = Vec::new();
        for entry in std::fs::read_dir(&path).unwrap_or_else(|e| panic!("{path}: {e}")) {
            let p = entry.unwrap_or_else(|e| panic!("{path}: {e}")).path();
            let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            files.push((p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(), bytes));
        }
        agent_trace_viewer::parse_files(files, &Default::default())
    } else {
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        agent_trace_viewer::parse_trace(bytes, &Default::default())
    }
    .unwrap_or_else(|e| panic!("{path}: {e}"));
    println!("{path}: {} runs, {} events, {} diagnostics", trace.runs.len(), trace.events.len(), trace.diagnostics.len());
    std::mem::forget(trace);
}
