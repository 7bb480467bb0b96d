//! Parses one file, then runs one free-text query on it: the first such query
//! searches the source in place (BENCHMARKS.md's "first query" row), and
//! again; then builds the lower-cased index (`prepare_search`, what a viewer
//! does while idle) and queries it. Prints the times; under callgrind, the
//! instructions of the query are those above `parse_once`'s for the same file.
//!
//!     cargo build --release --example first_text_query
//!     target/release/examples/first_text_query FILE [QUERY]

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: first_text_query FILE [QUERY]");
        std::process::exit(2);
    };
    let query = args.next().unwrap_or_else(|| "traceback".to_string());
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let start = std::time::Instant::now();
    let trace = agent_trace_viewer::parse_trace(bytes, &Default::default()).unwrap_or_else(|e| panic!("{path}: {e}"));
    let parsed = start.elapsed();
    let mut index = agent_trace_viewer::query::QueryIndex::default();
    let start = std::time::Instant::now();
    let hits = agent_trace_viewer::query::filter(&trace, &query, &mut index).unwrap_or_else(|e| panic!("{query}: {e}"));
    let first = start.elapsed();
    let start = std::time::Instant::now();
    let again = agent_trace_viewer::query::filter(&trace, &query, &mut index).map(|h| h.len()).unwrap_or(0);
    let second = start.elapsed();
    let start = std::time::Instant::now();
    index.prepare_search(&trace);
    let prepare = start.elapsed();
    let start = std::time::Instant::now();
    let indexed = agent_trace_viewer::query::filter(&trace, &query, &mut index).map(|h| h.len()).unwrap_or(0);
    println!(
        "{path}: parse {parsed:.1?}; {query:?}: first {first:.1?} ({} hits), again {second:.2?} ({again} hits); index built in {prepare:.1?}, then {:.2?} ({indexed} hits)",
        hits.len(),
        start.elapsed()
    );
    std::mem::forget(trace);
}
