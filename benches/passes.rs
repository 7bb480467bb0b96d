//! The byte-level passes of a parse, each alone: the line/column map
//! (`SourceMap::new`), the split (`json::split`, the validating scan) and the
//! whole-input UTF-8 check. Each runs in its own `#[inline(never)]` function,
//! so that `valgrind --tool=callgrind` counts the instructions of each pass
//! exactly (inclusive cost of `passes::pass_*`), whatever LTO inlines inside.
//!
//!     cargo bench --bench passes -- [--runs N] FILE...
//!
//! Prints the median time of each pass over N runs (default 5).

use std::hint::black_box;
use std::time::Instant;

use agent_trace_viewer::{json, source};

#[inline(never)]
fn pass_source_map(b: &[u8]) -> usize {
    source::SourceMap::new(b).line_count()
}

#[inline(never)]
fn pass_split(b: &[u8]) -> usize {
    let s = json::split(b, json::bom_len(b));
    s.values.len() + s.errors.len()
}

#[inline(never)]
fn pass_utf8(b: &[u8]) -> Option<usize> {
    source::invalid_utf8_at(b)
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    xs.get(xs.len() / 2).copied().unwrap_or(f64::NAN)
}

fn time<T>(runs: usize, mut f: impl FnMut() -> T) -> f64 {
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let t = Instant::now();
        black_box(f());
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    median(times)
}

fn main() {
    let mut runs = 5;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--bench" => {}
            "--runs" => runs = args.next().and_then(|n| n.parse().ok()).expect("--runs N"),
            _ => files.push(a),
        }
    }
    if files.is_empty() {
        eprintln!("usage: cargo bench --bench passes -- [--runs N] FILE...");
        std::process::exit(2);
    }
    for f in &files {
        let bytes = std::fs::read(f).unwrap_or_else(|e| panic!("read {f}: {e}"));
        let b = black_box(bytes.as_slice());
        let source_map = time(runs, || pass_source_map(b));
        let split = time(runs, || pass_split(b));
        let utf8 = time(runs, || pass_utf8(b));
        println!(
            "{f}: {:.1} MB: source-map {source_map:.2} ms, split {split:.2} ms, utf8 {utf8:.2} ms (medians of {runs})",
            bytes.len() as f64 / 1e6
        );
    }
}
