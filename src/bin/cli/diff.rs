//! `diff`: two runs side by side (`analysis::compare`, `render::diff`).

use std::io::Write;

use agent_trace_viewer::model::Trace;
use agent_trace_viewer::{parse_trace, ParseOptions};
use serde_json::json;

use super::folder::read;
use super::{plural, Args};

/// `diff`: two runs aligned (`analysis::compare`), as text or JSON. Errors:
/// (1, why) for inputs that are no trace or runs that do not exist, (2, why) for I/O.
pub fn diff(out: &mut impl Write, args: &Args, options: &ParseOptions) -> Result<(), (u8, String)> {
    let load = |file: &str| -> Result<Trace, (u8, String)> {
        let bytes = read(file).map_err(|e| (2, e))?;
        parse_trace(bytes, options).map_err(|e| (1, format!("{file}: {e}")))
    };
    let (a_file, b_file) = match args.files.as_slice() {
        [a] => (a.as_str(), a.as_str()),
        [a, b, ..] => (a.as_str(), b.as_str()),
        [] => return Err((2, "diff needs a FILE".to_string())),
    };
    let one_file = args.files.len() == 1;
    let left = load(a_file)?;
    // One file is read once (it may be standard input) and serves both sides.
    let second = if one_file { None } else { Some(load(b_file)?) };
    let right = second.as_ref().unwrap_or(&left);
    let a = args.run.unwrap_or(0);
    let b = args.run_b.unwrap_or(if one_file { 1 } else { a });
    let missing = |file: &str, t: &Trace, r: usize| (1, format!("{file}: the trace has {}; there is no run {r}", plural(t.runs.len(), "run")));
    let as_u32 = |r: usize| u32::try_from(r).unwrap_or(u32::MAX);
    let c = agent_trace_viewer::analysis::compare::compare(&left, as_u32(a), right, as_u32(b)).ok_or_else(|| {
        if a >= left.runs.len() {
            missing(a_file, &left, a)
        } else {
            missing(b_file, right, b)
        }
    })?;
    let text = if args.json {
        format!("{}\n", json!({"left": {"file": a_file, "run": a}, "right": {"file": b_file, "run": b}, "comparison": c}))
    } else {
        agent_trace_viewer::render::diff::diff_text(&c, &left, right, (&format!("{a_file} #{a}"), &format!("{b_file} #{b}")))
    };
    out.write_all(text.as_bytes()).map_err(|e| (2, format!("cannot write: {e}")))
}
