//! Native timing of the core on a file given as the first argument, against
//! serde_json on the same bytes. (Issue 7 grows this into the benchmark kit.)
//!
//!     cargo bench --bench parse -- FILE

use std::time::Instant;

fn main() {
    let Some(path) = std::env::args().nth(1).filter(|a| a != "--bench") .or_else(|| std::env::args().nth(2)) else {
        eprintln!("usage: cargo bench --bench parse -- FILE");
        return;
    };
    let bytes = std::fs::read(&path).expect("read");
    let t = Instant::now();
    let v: Result<serde_json::Value, _> = serde_json::from_slice(&bytes);
    let value_ms = t.elapsed().as_secs_f64() * 1e3;
    drop(v);
    let t = Instant::now();
    let _ = serde_json::from_slice::<serde::de::IgnoredAny>(&bytes);
    let ignored_ms = t.elapsed().as_secs_f64() * 1e3;
    let t = Instant::now();
    let trace = agent_trace_viewer::parse_trace(bytes.clone(), &Default::default()).expect("parse");
    let core_ms = t.elapsed().as_secs_f64() * 1e3;
    println!("{path}: {} MB, {} events", bytes.len() / 1_000_000, trace.events.len());
    println!("serde_json Value {value_ms:.0} ms, IgnoredAny {ignored_ms:.0} ms, core {core_ms:.0} ms");
}
