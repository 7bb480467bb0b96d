//! Linear in the input, whatever its shape: every format is parsed at n and
//! at 8n records of the shapes that stress it, in one process, and the time
//! may grow at most 16× (linear is ~8×, quadratic ~64×: wide enough not to
//! flake on a noisy machine, narrow enough to catch a square).
//!
//! The shapes are data, beside each format's fixtures:
//! `tests/fixtures/<id>/scaling/shapes.json` (a folder of its own, so the oracle scripts and tests that read every fixture do not take it for one), a list of
//! `{ "name", "parts": [ {"text": "…"} | {"repeat": "…{i}…", "sep": ","} ] }`:
//! the input for n is the parts in order, each `repeat` written n times with
//! `{i}` replaced by the repetition's number. Every format of the registry
//! must have shapes. A shape may set its own smaller size `"n"` (with
//! `"why n"`): one whose repetitions are tiny and build much each (a span
//! path of n names) leaves the caches between n = 4,000 and 32,000, and its
//! time then measures the memory, not the code.

mod common;

use std::time::Duration;

use agent_trace_viewer::{format_ids, parse_trace, ParseOptions};
use serde_json::Value;

/// The smaller size; the larger is 8 ×. The test runs in the release step of
/// `scripts/test.sh` (a debug build spent nine minutes here, a quarter of the
/// suite), where 4,000 records keep the small parse well above the clock's noise.
const N: usize = 4_000;
/// Allowed growth from n to 8n.
const MAX_RATIO: f64 = 16.0;

fn build(parts: &[Value], n: usize) -> Vec<u8> {
    let mut out = String::new();
    for p in parts {
        if let Some(text) = p.get("text").and_then(Value::as_str) {
            out.push_str(text);
        } else if let Some(item) = p.get("repeat").and_then(Value::as_str) {
            let sep = p.get("sep").and_then(Value::as_str).unwrap_or("");
            for i in 0..n {
                if i > 0 {
                    out.push_str(sep);
                }
                out.push_str(&item.replace("{i}", &i.to_string()));
            }
        } else {
            panic!("a part is {{\"text\"}} or {{\"repeat\", \"sep\"}}: {p}");
        }
    }
    out.into_bytes()
}

/// One parse's CPU time (the trace dropped after the clock stops).
fn time_once(bytes: &[u8], options: &ParseOptions) -> Duration {
    let input = bytes.to_vec();
    let start = common::cpu_now();
    let trace = parse_trace(input, options);
    let took = common::cpu_now().saturating_sub(start);
    drop(trace);
    took
}

/// The best of three parses of each size, taken in turn (small, large,
/// small, …) so that a slow spell of the machine touches both alike.
fn times(small: &[u8], large: &[u8], format: &str) -> (Duration, Duration) {
    let options = ParseOptions { format: Some(format.to_string()), ..Default::default() };
    let (mut a, mut b) = (Duration::MAX, Duration::MAX);
    for _ in 0..3 {
        a = a.min(time_once(small, &options));
        b = b.min(time_once(large, &options));
    }
    (a, b)
}

#[test]
#[cfg_attr(debug_assertions, ignore = "timed in release: scripts/test.sh runs it with --include-ignored")]
fn every_format_parses_in_linear_time() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut failures = Vec::new();
    let mut checked = 0;
    for id in format_ids() {
        let path = root.join(format!("tests/fixtures/{id}/scaling/shapes.json"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|_| panic!("{id}: no shapes in {} (see this test's doc)", path.display()));
        let shapes: Vec<Value> = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(!shapes.is_empty(), "{id}: no shapes");
        for shape in &shapes {
            let name = shape.get("name").and_then(Value::as_str).unwrap_or("?");
            let parts = shape.get("parts").and_then(Value::as_array).unwrap_or_else(|| panic!("{id}/{name}: no parts"));
            let n = shape.get("n").and_then(Value::as_u64).map_or(N, |n| n as usize);
            let small = build(parts, n);
            let large = build(parts, 8 * n);
            // The small input must parse as this format (else the shape tests nothing).
            let options = ParseOptions { format: Some(id.to_string()), ..Default::default() };
            let trace = parse_trace(small.clone(), &options).unwrap_or_else(|e| panic!("{id}/{name}: {e}"));
            assert!(!trace.events.is_empty(), "{id}/{name}: no events");
            let (a, b) = times(&small, &large, id);
            let ratio = b.as_secs_f64() / a.as_secs_f64().max(1e-6);
            eprintln!("{id}/{name}: {n} → {:?}, {} → {:?}: ×{ratio:.1}", a, 8 * n, b);
            checked += 1;
            if ratio > MAX_RATIO {
                failures.push(format!("{id}/{name}: ×{ratio:.1} from {n} to {} ({a:?} → {b:?})", 8 * n));
            }
        }
    }
    assert!(checked >= format_ids().len());
    assert!(failures.is_empty(), "not linear (time grew more than {MAX_RATIO}× for 8× the input):\n{}", failures.join("\n"));
}
