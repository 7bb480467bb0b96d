//! Native timing of the core against serde_json on the same bytes: a
//! generic `Value` tree (what any Rust reader building a DOM pays) and
//! `IgnoredAny` (merely tokenising the JSON: the floor). JSON Lines are read
//! value by value with serde_json's stream deserializer.
//!
//!     cargo bench --bench parse -- [--runs N] [--json] [--filters] FILE...
//!
//! Prints medians over N runs (default 5) and the core's time per phase.
//! `--json` prints one JSON object per file instead (scripts/bench/run.mjs
//! reads it). Files come from scripts/bench/gen.mjs (`npm run bench`
//! generates them).

use std::collections::BTreeMap;
use std::time::Instant;

use agent_trace_viewer::{parse_trace_observed, Phase};

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    match xs.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => xs[n / 2],
        n => (xs[n / 2 - 1] + xs[n / 2]) / 2.0,
    }
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

/// Every top-level value of `bytes` (one document, or JSON Lines) into `T`.
fn serde_all<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> (usize, bool) {
    let mut n = 0;
    for v in serde_json::Deserializer::from_slice(bytes).into_iter::<T>() {
        match v {
            Ok(v) => {
                n += 1;
                drop(v);
            }
            Err(_) => return (n, false),
        }
    }
    (n, true)
}

const PHASES: [Phase; 6] = [Phase::Container, Phase::Split, Phase::Detect, Phase::Utf8, Phase::Import, Phase::Finish];

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Container => "container",
        Phase::Split => "split",
        Phase::Detect => "detect",
        Phase::Utf8 => "utf8",
        Phase::Import => "import",
        Phase::Finish => "finish",
    }
}

struct Report {
    file: String,
    bytes: usize,
    events: usize,
    runs: usize,
    errors: usize,
    warnings: usize,
    codes: BTreeMap<&'static str, usize>,
    format: &'static str,
    value_ms: f64,
    ignored_ms: f64,
    core_ms: f64,
    drop_ms: f64,
    phases: Vec<(&'static str, f64)>,
    filters: Vec<(String, f64, usize)>,
}

fn bench_file(path: &str, runs: usize, filters: bool) -> Report {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("read {path}: {e}"));
    let mut value = Vec::new();
    let mut ignored = Vec::new();
    let mut core = Vec::new();
    let mut drops = Vec::new();
    let mut phase_times: Vec<Vec<f64>> = vec![Vec::new(); PHASES.len()];
    let mut last = None;
    for _ in 0..runs {
        let t = Instant::now();
        let (_, ok) = serde_all::<serde_json::Value>(&bytes);
        value.push(ms(t));
        assert!(ok, "{path}: serde_json rejects the file; the baselines need valid JSON");
        let t = Instant::now();
        serde_all::<serde::de::IgnoredAny>(&bytes);
        ignored.push(ms(t));

        let input = bytes.clone();
        let mut marks = Vec::with_capacity(PHASES.len());
        let t = Instant::now();
        let trace = parse_trace_observed(input, &Default::default(), &mut |p| marks.push((p, Instant::now())))
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        core.push(ms(t));
        let mut prev = t;
        for (p, at) in marks {
            if let Some(i) = PHASES.iter().position(|q| *q == p) {
                phase_times[i].push(at.duration_since(prev).as_secs_f64() * 1e3);
            }
            prev = at;
        }
        if let Some(old) = last.replace(trace) {
            let t = Instant::now();
            drop(old);
            drops.push(ms(t));
        }
    }
    let trace = last.expect("at least one run");
    let mut codes = BTreeMap::new();
    for d in &trace.diagnostics {
        *codes.entry(d.code).or_insert(0) += 1;
    }
    let mut filter_times = Vec::new();
    if filters {
        for q in ["role:tool", "kind:tool-result", "traceback", "\"connection refused\""] {
            let mut index = Default::default();
            let t = Instant::now();
            let hits = agent_trace_viewer::query::filter(&trace, q, &mut index).map(|v| v.len()).unwrap_or(0);
            let first = ms(t);
            let mut later = Vec::new();
            for _ in 0..runs {
                let t = Instant::now();
                let _ = agent_trace_viewer::query::filter(&trace, q, &mut index);
                later.push(ms(t));
            }
            filter_times.push((format!("{q} (first)"), first, hits));
            filter_times.push((q.to_string(), median(later), hits));
        }
    }
    Report {
        file: path.to_string(),
        bytes: bytes.len(),
        events: trace.events.len(),
        runs: trace.runs.len(),
        errors: trace.error_count(),
        warnings: trace.diagnostics.iter().filter(|d| d.severity == agent_trace_viewer::diagnostic::Severity::Warning).count(),
        codes,
        format: trace.format,
        value_ms: median(value),
        ignored_ms: median(ignored),
        core_ms: median(core),
        drop_ms: median(drops),
        phases: PHASES.iter().zip(phase_times).map(|(p, t)| (phase_name(*p), median(t))).collect(),
        filters: filter_times,
    }
}

fn print_text(r: &Report) {
    println!(
        "{}: {:.1} MB, {} ({} runs, {} events, {} errors, {} warnings)",
        r.file,
        r.bytes as f64 / 1e6,
        r.format,
        r.runs,
        r.events,
        r.errors,
        r.warnings
    );
    println!(
        "  serde_json Value {:.1} ms | IgnoredAny {:.1} ms | core {:.1} ms | core/Value {:.2} | core/IgnoredAny {:.2} | drop {:.1} ms",
        r.value_ms,
        r.ignored_ms,
        r.core_ms,
        r.core_ms / r.value_ms,
        r.core_ms / r.ignored_ms,
        r.drop_ms
    );
    let phases: Vec<String> = r.phases.iter().map(|(p, t)| format!("{p} {t:.1}")).collect();
    println!("  phases (ms): {}", phases.join(", "));
    if !r.codes.is_empty() {
        let codes: Vec<String> = r.codes.iter().map(|(c, n)| format!("{c}×{n}")).collect();
        println!("  diagnostics: {}", codes.join(", "));
    }
    for (q, t, hits) in &r.filters {
        println!("  filter {q}: {t:.2} ms, {hits} hits");
    }
}

fn print_json(r: &Report) {
    let v = serde_json::json!({
        "file": r.file,
        "bytes": r.bytes,
        "format": r.format,
        "events": r.events,
        "runs": r.runs,
        "errors": r.errors,
        "warnings": r.warnings,
        "codes": r.codes,
        "valueMs": r.value_ms,
        "ignoredAnyMs": r.ignored_ms,
        "coreMs": r.core_ms,
        "dropMs": r.drop_ms,
        "phases": r.phases.iter().map(|(p, t)| (p.to_string(), serde_json::json!(t))).collect::<serde_json::Map<_, _>>(),
        "filters": r.filters.iter().map(|(q, t, n)| serde_json::json!({"query": q, "ms": t, "hits": n})).collect::<Vec<_>>(),
    });
    println!("{v}");
}

fn main() {
    let mut runs = 5;
    let mut json = false;
    let mut filters = false;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--bench" => {}
            "--runs" => runs = args.next().and_then(|n| n.parse().ok()).expect("--runs N"),
            "--json" => json = true,
            "--filters" => filters = true,
            _ => files.push(a),
        }
    }
    if files.is_empty() {
        eprintln!("usage: cargo bench --bench parse -- [--runs N] [--json] [--filters] FILE...");
        std::process::exit(2);
    }
    for f in &files {
        let r = bench_file(f, runs.max(1), filters);
        if json {
            print_json(&r);
        } else {
            print_text(&r);
        }
    }
}
