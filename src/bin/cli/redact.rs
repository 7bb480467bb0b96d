//! `convert --redact`: a trace (or its conversion) with its secrets masked.

use std::io::Write;

use agent_trace_viewer::model::Trace;
use agent_trace_viewer::redact::{redact_input, redact_json, RedactOptions};
use serde_json::json;

use super::{convert, plural, Args};

/// `convert --redact`: the input itself (no `--to`: `original`, the bytes
/// as read, masked by `redact_input` as the page and the package do: gzip
/// and UTF-16 read first, a zip such as an Inspect `.eval` kept a zip of its
/// files) or its conversion, with its secrets masked; `--preview`: only what
/// would be masked.
pub fn convert_redacted(out: &mut impl Write, args: &Args, file: &str, trace: &Trace, original: Option<&[u8]>, options: &RedactOptions) -> Result<(), String> {
    let r = match (args.to, original) {
        (None, Some(bytes)) => redact_input(bytes, options).map_err(|e| e.to_string())?,
        (None, None) => return Err("--redact without --to needs the input's bytes".to_string()),
        (Some(_), _) => {
            let mut buf = Vec::new();
            convert(&mut buf, args, trace)?;
            redact_json(&buf, options).map_err(|e| e.to_string())?
        }
    };
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
