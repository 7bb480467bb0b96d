//! `convert --redact`: a trace (or its conversion) with its secrets masked.

use std::io::Write;

use agent_trace_viewer::model::Trace;
use agent_trace_viewer::redact::{redact_json, RedactOptions};
use serde_json::json;

use super::{convert, plural, Args};

/// `convert --redact`: the input itself (no `--to`: the same format, read
/// back by the same parser) or its conversion, with its secrets masked;
/// `--preview`: only what would be masked.
pub fn convert_redacted(out: &mut impl Write, args: &Args, file: &str, trace: &Trace, options: &RedactOptions) -> Result<(), String> {
    let text = match args.to {
        None if trace.files.len() > 1 => return Err("--redact without --to writes the input back, which needs one JSON file (not an archive of several)".to_string()),
        None => trace.source.to_vec(),
        Some(_) => {
            let mut buf = Vec::new();
            convert(&mut buf, args, trace)?;
            buf
        }
    };
    let r = redact_json(&text, options).map_err(|e| e.to_string())?;
    let total: u32 = r.report.kinds.iter().map(|k| k.occurrences).sum();
    if args.preview {
        if args.json {
            let _ = writeln!(out, "{}", json!({"file": file, "report": r.report}));
        } else {
            let _ = writeln!(out, "{file}: {} masked in {}", plural(total as usize, "secret"), plural(r.report.strings_changed as usize, "string"));
            for k in &r.report.kinds {
                let _ = writeln!(out, "  {:<16} {:>6} × ({} distinct)", k.kind, k.occurrences, k.distinct);
            }
        }
        return Ok(());
    }
    out.write_all(&r.bytes).map_err(|e| format!("cannot write: {e}"))?;
    eprintln!("agent-trace-viewer: {file}: {} masked", plural(total as usize, "secret"));
    Ok(())
}
