//! The command-line tool: the same core as the viewer, for CI pipelines and
//! scripts where there is no browser.
//!
//!     agent-trace-viewer validate [--format json] [--as FORMAT] FILE…
//!     agent-trace-viewer stats [--format json] [--as FORMAT] FILE…
//!
//! `-` reads standard input. Exit status: 0 when every file read without
//! errors, 1 when any file has an error diagnostic or is no trace, 2 for
//! usage errors and unreadable files.

use std::io::{Read, Write};
use std::process::ExitCode;

use agent_trace_viewer::diagnostic::Severity;
use agent_trace_viewer::stats::trace_stats;
use agent_trace_viewer::{parse_trace, ParseOptions};

const USAGE: &str = "usage:
  agent-trace-viewer validate [--format text|json] [--as FORMAT] FILE...
  agent-trace-viewer stats [--format text|json] [--as FORMAT] FILE...

FILE may be - for standard input. FORMAT forces a format (openai, docent,
openhands, agent-catalog, agentlens); by default it is detected.
Exit status: 0 clean, 1 errors in a file (or not a trace), 2 usage or I/O error.";

struct Args {
    command: String,
    json: bool,
    format: Option<String>,
    files: Vec<String>,
}

fn parse_args(args: Vec<String>) -> Result<Args, String> {
    let mut it = args.into_iter();
    let command = it.next().ok_or("no command given")?;
    if command == "-h" || command == "--help" {
        return Err(String::new());
    }
    let mut out = Args { command, json: false, format: None, files: Vec::new() };
    while let Some(a) = it.next() {
        match a.as_str() {
            "--format" => match it.next().as_deref() {
                Some("json") => out.json = true,
                Some("text") => out.json = false,
                other => return Err(format!("--format takes text or json, not {}", other.unwrap_or("nothing"))),
            },
            "--as" => out.format = Some(it.next().ok_or("--as needs a format id")?),
            "-h" | "--help" => return Err(String::new()),
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag}")),
            _ => out.files.push(a),
        }
    }
    if out.files.is_empty() {
        return Err("no FILE given (use - for standard input)".to_string());
    }
    Ok(out)
}

fn read(file: &str) -> Result<Vec<u8>, String> {
    if file == "-" {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf).map_err(|e| format!("-: cannot read standard input: {e}"))?;
        return Ok(buf);
    }
    std::fs::read(file).map_err(|e| format!("{file}: cannot read: {e}"))
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1).collect()) {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("agent-trace-viewer: {e}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(if e.is_empty() { 0 } else { 2 });
        }
    };
    if !matches!(args.command.as_str(), "validate" | "stats") {
        eprintln!("agent-trace-viewer: unknown command {:?}\n{USAGE}", args.command);
        return ExitCode::from(2);
    }
    let options = ParseOptions { format: args.format.clone() };
    let mut status = 0u8;
    let mut json_out = Vec::new();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for file in &args.files {
        let bytes = match read(file) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("agent-trace-viewer: {e}");
                status = 2;
                continue;
            }
        };
        match parse_trace(bytes, &options) {
            Err(e) => {
                status = status.max(1);
                if args.json {
                    json_out.push(serde_json::json!({"file": file, "error": e.message}));
                } else {
                    let _ = writeln!(out, "{file}: error: {}", e.message);
                }
            }
            Ok(trace) => {
                if trace.diagnostics.iter().any(|d| d.severity == Severity::Error) {
                    status = status.max(1);
                }
                match (args.command.as_str(), args.json) {
                    ("validate", true) => json_out.push(serde_json::json!({
                        "file": file,
                        "format": trace.format,
                        "events": trace.events.len(),
                        "diagnostics": trace.diagnostics,
                    })),
                    ("validate", false) => {
                        for d in &trace.diagnostics {
                            let name = trace.file_at(d.offset).map(|f| f.name.as_str()).unwrap_or(file);
                            let _ = writeln!(out, "{}", d.to_line(name));
                        }
                        let errors = trace.error_count();
                        let _ = writeln!(
                            out,
                            "{file}: {} ({}, {}): {}, {}",
                            trace.format,
                            plural(trace.events.len(), "event"),
                            plural(trace.runs.len(), "run"),
                            plural(errors, "error"),
                            plural(trace.diagnostics.len() - errors, "other diagnostic"),
                        );
                    }
                    (_, true) => {
                        let mut v = serde_json::to_value(trace_stats(&trace)).unwrap_or_default();
                        if let Some(o) = v.as_object_mut() {
                            o.insert("file".to_string(), serde_json::Value::String(file.clone()));
                        }
                        json_out.push(v);
                    }
                    (_, false) => print_stats(&mut out, file, &trace),
                }
            }
        }
    }
    if args.json {
        let _ = writeln!(out, "{}", serde_json::to_string_pretty(&json_out).unwrap_or_default());
    }
    ExitCode::from(status)
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

fn print_stats(out: &mut impl Write, file: &str, trace: &agent_trace_viewer::model::Trace) {
    let s = trace_stats(trace);
    let _ = writeln!(out, "{file}");
    let _ = writeln!(out, "  format      {}", s.format);
    let _ = writeln!(out, "  runs        {}", s.runs);
    let _ = writeln!(out, "  events      {}", s.events);
    let join = |m: Vec<String>| m.join(", ");
    let _ = writeln!(out, "  by kind     {}", join(s.by_kind.iter().map(|(k, n)| format!("{k} {n}")).collect()));
    if !s.by_role.is_empty() {
        let _ = writeln!(out, "  by role     {}", join(s.by_role.iter().map(|(k, n)| format!("{k} {n}")).collect()));
    }
    let _ = writeln!(out, "  tool calls  {} ({} results linked)", s.tool_calls, s.linked_results);
    for (name, t) in &s.tools {
        let name = if name.is_empty() { "(unlinked results)" } else { name };
        let latency = if t.durations > 0 { format!(", mean {:.0} ms", t.duration_ms_total / f64::from(t.durations)) } else { String::new() };
        let _ = writeln!(out, "    {name}: {} calls, {} results, {} failed{latency}", t.calls, t.results, t.failures);
    }
    if s.tokens_in + s.tokens_out > 0 {
        let _ = writeln!(out, "  tokens      {} in, {} out", s.tokens_in, s.tokens_out);
    }
    for r in &s.run_times {
        let span = r.duration_seconds.map(|d| format!(" ({d:.1} s)")).unwrap_or_default();
        let _ = writeln!(
            out,
            "  run {:<7} {} → {}{span}",
            r.run,
            r.first.as_deref().unwrap_or("?"),
            r.last.as_deref().unwrap_or("?")
        );
    }
    let _ = writeln!(out, "  diagnostics {} errors, {} warnings", s.errors, s.warnings);
}
