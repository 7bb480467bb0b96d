//! Opens a `.eval` lazily as the viewer does (directory, heads, the runs
//! trace) and prints how long each step took: for profiling the open of a
//! large log (`perf record cargo run --release --example lazy_once -- x.eval`).
//! `--search QUERY` then reads every body as the viewer's "Search samples"
//! does (inflate, parse with the heads, filter) and says what it cost.

use std::time::Instant;

use agent_trace_viewer::lazy::LazyArchive;
use agent_trace_viewer::ParseOptions;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: lazy_once FILE.eval [--open RUN | --search QUERY]");
        std::process::exit(2);
    };
    let bytes = std::fs::read(&path).expect("readable");
    let t = Instant::now();
    let archive = LazyArchive::from_bytes(&bytes).expect("a lazily readable archive");
    println!("directory and heads: {:?}", t.elapsed());
    let t = Instant::now();
    let trace = archive.runs_trace(Vec::new(), &ParseOptions::default()).expect("a trace");
    println!("runs trace: {:?} ({} runs, {} events)", t.elapsed(), trace.runs.len(), trace.events.len());
    if std::env::args().nth(2).as_deref() == Some("--search") {
        let query = std::env::args().nth(3).unwrap_or_default();
        let (mut inflate, mut parse, mut filter) = (std::time::Duration::ZERO, std::time::Duration::ZERO, std::time::Duration::ZERO);
        let (mut bodies, mut found, mut inflated) = (0, 0, 0);
        for run in &trace.runs {
            let Some(member) = run.pending_body.as_deref() else { continue };
            let entry = archive.entry_named(member).expect("its member");
            let t = Instant::now();
            let body = archive.read_body(entry, archive.slice(&bytes, entry)).expect("its body");
            inflated += body.1.len();
            inflate += t.elapsed();
            let t = Instant::now();
            let one = archive.body_trace(body, &ParseOptions::default()).expect("a trace");
            parse += t.elapsed();
            let t = Instant::now();
            let n = agent_trace_viewer::query::filter(&one, &query, &mut Default::default()).expect("a query").len();
            filter += t.elapsed();
            bodies += 1;
            found += usize::from(n > 0);
        }
        println!("search {query:?}: {found} of {bodies} bodies match; {inflated} bytes inflated in {inflate:?}, parsed in {parse:?}, filtered in {filter:?}");
    }
    if let Some(run) = std::env::args().nth(3).and_then(|r| r.parse::<usize>().ok()) {
        let member = trace.runs.get(run).and_then(|r| r.pending_body.clone()).expect("a pending run");
        let entry = archive.entry_named(&member).expect("its member");
        let t = Instant::now();
        let body = archive.read_body(entry, archive.slice(&bytes, entry)).expect("its body");
        let opened = archive.runs_trace(vec![body], &ParseOptions::default()).expect("a trace");
        println!("run {run} opened: {:?} ({} events)", t.elapsed(), opened.events.len());
    }
}
