//! The command-line tool: the same core as the viewer, for CI pipelines and
//! scripts where there is no browser.
//!
//!     agent-trace-viewer validate [--format json] [--all] [--as FORMAT] FILE…
//!     agent-trace-viewer stats [--format json] [--as FORMAT] FILE…
//!     agent-trace-viewer text [--style legacy|current] [--token-limit N] [--run N]
//!                             [--context FILE_OR_JSON] [--format json] [--as FORMAT] FILE…
//!     agent-trace-viewer convert --to agentrun-json|openai-json [--run N] [--as FORMAT] FILE
//!     agent-trace-viewer formats [--format json]
//!
//! `-` reads standard input. Exit status: 0 when every file read without
//! errors, 1 when any file has an error diagnostic (validate, stats), is no
//! trace, or cannot be rendered (text, convert), 2 for usage errors and
//! unreadable files.
//!
//! `text` renders with the library's own `render::agent_run_text` (what the
//! wasm API's `toAgentRunText` calls); token counts use the cl100k_base
//! tokenizer crate, a dependency of this binary only (feature `cli`), never
//! of the wasm module.

use std::io::Write;
use std::process::ExitCode;

use agent_trace_viewer::analysis::diagnostics::group;
use agent_trace_viewer::analysis::stats::trace_stats;
use agent_trace_viewer::diagnostic::Severity;
use agent_trace_viewer::model::{Cost, Trace, Usage};
use agent_trace_viewer::render::dollars::dollars;
use agent_trace_viewer::redact::RedactOptions;
use agent_trace_viewer::render::{agent_run_text, ContextConfig, Style, TextOptions, Tokenizer};
use agent_trace_viewer::{parse_trace, ParseOptions};
use serde_json::{json, Value};

#[path = "cli/bundle.rs"]
mod bundle;
#[path = "cli/diff.rs"]
mod diff;
#[path = "cli/folder.rs"]
mod folder;
#[path = "cli/redact.rs"]
mod redact;

const USAGE: &str = "usage:
  agent-trace-viewer validate [--format text|json] [--all] [--as FORMAT] FILE...
  agent-trace-viewer stats [--format text|json] [--as FORMAT] FILE...
  agent-trace-viewer text [--style legacy|current] [--token-limit N] [--run N]
                          [--context FILE_OR_JSON] [--format text|json] [--as FORMAT] FILE...
  agent-trace-viewer convert --to agentrun-json|openai-json [--run N] [--as FORMAT] FILE
  agent-trace-viewer convert --redact [--redact-regex RE]... [--redact-literal TEXT]...
                             [--no-builtin] [--preview [--format text|json]]
                             [--to …] [--run N] [--as FORMAT] FILE
  agent-trace-viewer diff [--runs N,M | --run N] [--format text|json] [--as FORMAT] FILE [FILE]
  agent-trace-viewer bundle -o DIR [--viewer DIR] [--redact …] FILE...
  agent-trace-viewer formats [--format text|json]

validate: one line per diagnostic, `file:line:col: severity[code]: message`;
  diagnostics repeated with the same severity, code and message print as one
  line, `N records: message`, at the first of them (--all: every one).
  JSON output has them all, and their groups.
text: the run's AgentRun text as Docent renders it (default style current,
  docent 0.1.88; legacy: docent-python 0.1.3a0). --token-limit (legacy only)
  splits it into chunks with cl100k_base token counts; --context (current
  only) is Docent's AgentRunContextConfig as JSON, inline or a file.
convert: the normalised trace as JSON Lines: Docent AgentRun JSON, or OpenAI
  chat rows (Invariant Explorer), one line per run (--run N: that run only).
  --redact masks secrets (API keys and tokens of OpenAI, Anthropic, AWS,
  GitHub, Google, Slack; JWTs, bearer tokens, private keys, e-mail addresses;
  and each --redact-regex / --redact-literal) as stable placeholders
  ([REDACTED:openai-key:1]): without --to, in the input itself, written back
  in its own format; with --to, in the conversion. --preview prints what would
  be masked and how often, and writes nothing else. --no-builtin: only yours.
diff: two runs side by side, aligned turn by turn on roles and tool names (an
  inserted step is a gap, not a shift), with the deltas of scores, tokens, tool
  calls, failures and duration. Two files: run N of each (--run N, default 0);
  one file: runs N and M (--runs N,M, default 0,1). --runs N,M works on two
  files too.
bundle: a folder any static host serves that opens on the traces: the viewer
  (--viewer DIR, default ./dist or ./www of a build), the traces as its
  samples (--redact and its options mask them first), an index.html that opens
  the first. DIR must be new or empty.

formats: the format ids this build reads, one per line with its name.

FILE may be - for standard input. FORMAT forces a format ({FORMATS});
by default it is detected.
Exit status: 0 clean, 1 errors in a file (or not a trace, or not renderable),
2 usage or I/O error.";

/// [`USAGE`] with the registry's format ids.
fn usage() -> String {
    USAGE.replace("{FORMATS}", &agent_trace_viewer::format_ids().join(", "))
}

/// Printed before each chunk of a token-limited text (`--format text`).
/// `{i}` counts from 1; the chunk text follows on the next line and is itself
/// followed by one newline.
fn chunk_separator(i: usize, n: usize, tokens: usize) -> String {
    format!("===== agent-trace-viewer: chunk {i}/{n}, {tokens} tokens =====")
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Command {
    Validate,
    Stats,
    Text,
    Convert,
    Formats,
    Diff,
    Bundle,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    AgentRunJson,
    OpenAiJson,
}

struct Args {
    command: Command,
    json: bool,
    /// `validate`: every diagnostic on its own line, repeated ones too.
    all: bool,
    format: Option<String>,
    style: Option<Style>,
    token_limit: Option<i64>,
    run: Option<usize>,
    context: Option<ContextConfig>,
    to: Option<Target>,
    /// `convert --redact`: what to mask (None: no redaction).
    redact: Option<RedactOptions>,
    preview: bool,
    /// `diff --runs N,M`: the right side's run.
    run_b: Option<usize>,
    /// `bundle -o DIR` and `--viewer DIR`.
    output: Option<String>,
    viewer: Option<String>,
    files: Vec<String>,
}

fn number(flag: &str, value: Option<String>) -> Result<u64, String> {
    let v = value.ok_or_else(|| format!("{flag} needs a whole number"))?;
    v.parse::<u64>().map_err(|_| format!("{flag} takes a whole number ≥ 0, not {v:?}"))
}

/// `--context`: inline JSON when the argument starts with `{` or `[`, else a file.
fn context(value: Option<String>) -> Result<ContextConfig, String> {
    let v = value.ok_or("--context needs a JSON object or a file holding one")?;
    let text = if v.trim_start().starts_with(['{', '[']) {
        v
    } else {
        let bytes = std::fs::read(&v).map_err(|e| format!("--context {v}: cannot read: {e}"))?;
        String::from_utf8(bytes).map_err(|_| format!("--context {v}: not UTF-8 text"))?
    };
    let json: Value = serde_json::from_str(&text).map_err(|e| format!("--context: not JSON: {e}"))?;
    ContextConfig::from_json(&json).map_err(|e| format!("--context: {e}"))
}

fn parse_args(args: Vec<String>) -> Result<Args, String> {
    let mut it = args.into_iter();
    let command = it.next().ok_or("no command given")?;
    let command = match command.as_str() {
        "-h" | "--help" => return Err(String::new()),
        "validate" => Command::Validate,
        "stats" => Command::Stats,
        "text" => Command::Text,
        "convert" => Command::Convert,
        "formats" => Command::Formats,
        "diff" => Command::Diff,
        "bundle" => Command::Bundle,
        other => return Err(format!("unknown command {other:?}")),
    };
    let mut out = Args {
        command,
        json: false,
        all: false,
        format: None,
        style: None,
        token_limit: None,
        run: None,
        context: None,
        to: None,
        redact: None,
        preview: false,
        run_b: None,
        output: None,
        viewer: None,
        files: Vec::new(),
    };
    let only = |flag: &str, commands: &[Command]| -> Result<(), String> {
        if commands.contains(&command) {
            Ok(())
        } else {
            Err(format!("{flag} is not an option of this command"))
        }
    };
    while let Some(a) = it.next() {
        match a.as_str() {
            "--format" => {
                only("--format", &[Command::Validate, Command::Stats, Command::Text, Command::Formats, Command::Convert, Command::Diff])?;
                match it.next().as_deref() {
                    Some("json") => out.json = true,
                    Some("text") => out.json = false,
                    other => return Err(format!("--format takes text or json, not {}", other.unwrap_or("nothing"))),
                }
            }
            "--as" => out.format = Some(it.next().ok_or("--as needs a format id")?),
            "--all" => {
                only("--all", &[Command::Validate])?;
                out.all = true;
            }
            "--style" => {
                only("--style", &[Command::Text])?;
                let v = it.next().unwrap_or_default();
                out.style = Some(Style::parse(&v).ok_or_else(|| format!("--style takes legacy or current, not {v:?}"))?);
            }
            "--token-limit" => {
                only("--token-limit", &[Command::Text])?;
                let n = number("--token-limit", it.next())?;
                out.token_limit = Some(i64::try_from(n).map_err(|_| "--token-limit is too large".to_string())?);
            }
            "--run" => {
                only("--run", &[Command::Text, Command::Convert, Command::Diff])?;
                let n = number("--run", it.next())?;
                out.run = Some(usize::try_from(n).map_err(|_| "--run is too large".to_string())?);
            }
            "--context" => {
                only("--context", &[Command::Text])?;
                out.context = Some(context(it.next())?);
            }
            "--to" => {
                only("--to", &[Command::Convert])?;
                out.to = Some(match it.next().as_deref() {
                    Some("agentrun-json") => Target::AgentRunJson,
                    Some("openai-json") => Target::OpenAiJson,
                    other => return Err(format!("--to takes agentrun-json or openai-json, not {}", other.unwrap_or("nothing"))),
                });
            }
            "--redact" | "--no-builtin" | "--redact-regex" | "--redact-literal" => {
                only(a.as_str(), &[Command::Convert, Command::Bundle])?;
                let r = out.redact.get_or_insert_with(RedactOptions::default);
                match a.as_str() {
                    "--no-builtin" => r.no_builtin = true,
                    "--redact-regex" => r.patterns.push(it.next().ok_or("--redact-regex needs a regex")?),
                    "--redact-literal" => r.literals.push(it.next().ok_or("--redact-literal needs a string")?),
                    _ => {}
                }
            }
            "--runs" => {
                only("--runs", &[Command::Diff])?;
                let v = it.next().unwrap_or_default();
                let (a, b) = v.split_once(',').ok_or_else(|| format!("--runs takes N,M (two run indices), not {v:?}"))?;
                out.run = Some(usize::try_from(number("--runs", Some(a.to_string()))?).map_err(|_| "--runs is too large".to_string())?);
                out.run_b = Some(usize::try_from(number("--runs", Some(b.to_string()))?).map_err(|_| "--runs is too large".to_string())?);
            }
            "-o" | "--output" => {
                only("-o", &[Command::Bundle])?;
                out.output = Some(it.next().ok_or("-o needs a directory")?);
            }
            "--viewer" => {
                only("--viewer", &[Command::Bundle])?;
                out.viewer = Some(it.next().ok_or("--viewer needs the directory of a built viewer")?);
            }
            "--preview" => {
                only("--preview", &[Command::Convert])?;
                out.preview = true;
            }
            "-h" | "--help" => return Err(String::new()),
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag}")),
            _ => out.files.push(a),
        }
    }
    if command == Command::Formats {
        return match out.files.first() {
            Some(f) => Err(format!("formats takes no FILE, not {f:?}")),
            None => Ok(out),
        };
    }
    if out.files.is_empty() {
        return Err("no FILE given (use - for standard input)".to_string());
    }
    match command {
        Command::Text => {
            let style = out.style.unwrap_or(Style::Current);
            if out.token_limit.is_some() && style != Style::Legacy {
                return Err("--token-limit needs --style legacy (docent 0.1.88 does not split the current text by tokens)".to_string());
            }
            if out.context.is_some() && style != Style::Current {
                return Err("--context applies to the current style only".to_string());
            }
        }
        Command::Convert => {
            if out.to.is_none() && out.redact.is_none() {
                return Err("convert needs --to agentrun-json or --to openai-json (or --redact)".to_string());
            }
            if out.preview && out.redact.is_none() {
                return Err("--preview shows what --redact would mask: give --redact".to_string());
            }
            if out.json && !out.preview {
                return Err("convert writes JSON already; --format applies to --preview".to_string());
            }
            if out.files.len() != 1 {
                return Err("convert takes one FILE (its output is one JSON Lines document)".to_string());
            }
        }
        Command::Bundle => {
            if out.output.is_none() {
                return Err("bundle needs -o DIR".to_string());
            }
        }
        Command::Diff => {
            if out.files.len() > 2 {
                return Err("diff takes one FILE (two of its runs) or two".to_string());
            }
        }
        Command::Validate | Command::Stats | Command::Formats => {}
    }
    Ok(out)
}

/// `formats`: every format of the registry, in detection order.
fn print_formats(json: bool) {
    let formats = agent_trace_viewer::import::FORMATS;
    if json {
        let list: Vec<Value> = formats.iter().map(|f| json!({"id": f.id(), "name": f.name()})).collect();
        println!("{}", Value::Array(list));
    } else {
        for f in formats {
            println!("{}\t{}", f.id(), f.name());
        }
    }
}

/// tiktoken's cl100k_base through the tokenizer crate (the one the wasm
/// tokenizer module is built from).
struct Cl100k;

impl Tokenizer for Cl100k {
    fn encode(&self, text: &str) -> Vec<u32> {
        atv_tokenizer::encode(text)
    }
    fn decode(&self, tokens: &[u32]) -> String {
        atv_tokenizer::decode(tokens)
    }
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1).collect()) {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("agent-trace-viewer: {e}");
            }
            eprintln!("{}", usage());
            return ExitCode::from(if e.is_empty() { 0 } else { 2 });
        }
    };
    if args.token_limit.is_some() && !atv_tokenizer::ready() {
        eprintln!("agent-trace-viewer: the cl100k_base tokenizer could not be built");
        return ExitCode::from(2);
    }
    if args.command == Command::Formats {
        print_formats(args.json);
        return ExitCode::SUCCESS;
    }
    let options = ParseOptions { format: args.format.clone(), ..Default::default() };
    let mut status = 0u8;
    let mut json_out = Vec::new();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.command == Command::Bundle {
        return match bundle::bundle(&args, &options) {
            Ok(done) => {
                eprintln!("agent-trace-viewer: {done}");
                ExitCode::SUCCESS
            }
            Err((code, e)) => {
                eprintln!("agent-trace-viewer: {e}");
                ExitCode::from(code)
            }
        };
    }
    if args.command == Command::Diff {
        return match diff::diff(&mut out, &args, &options) {
            Ok(()) => ExitCode::SUCCESS,
            Err((code, e)) => {
                eprintln!("agent-trace-viewer: {e}");
                ExitCode::from(code)
            }
        };
    }
    let mut inputs = Vec::new();
    for file in &args.files {
        match folder::traces(file) {
            Ok(traces) => inputs.extend(traces),
            Err(e) => {
                eprintln!("agent-trace-viewer: {e}");
                status = 2;
            }
        }
    }
    if args.command == Command::Convert && inputs.len() > 1 {
        eprintln!("agent-trace-viewer: convert takes one trace; this folder holds {} (convert each file, or a folder of one trace)", inputs.len());
        return ExitCode::from(2);
    }
    let several = inputs.len() > 1;
    for input in inputs {
        let file = &input.label;
        let mut files = input.files;
        // `convert --redact` without `--to` masks the input as it was read (a
        // zip stays a zip): only then is a copy of the bytes kept.
        let keep = args.command == Command::Convert && args.redact.is_some() && args.to.is_none() && files.len() == 1;
        let original = files.first().filter(|_| keep).map(|(_, bytes)| bytes.clone());
        let parsed = if files.len() == 1 { parse_trace(files.remove(0).1, &options) } else { agent_trace_viewer::parse_files(files, &options) };
        let trace = match parsed {
            Ok(t) => t,
            Err(e) => {
                status = status.max(1);
                match (args.command, args.json) {
                    (Command::Validate | Command::Stats, true) => json_out.push(json!({"file": file, "error": e.to_string()})),
                    (Command::Validate | Command::Stats, false) => {
                        let _ = writeln!(out, "{file}: error: {e}");
                    }
                    (Command::Text, true) => {
                        let _ = writeln!(out, "{}", json!({"file": file, "error": e.to_string()}));
                    }
                    (Command::Text | Command::Convert | Command::Formats | Command::Diff | Command::Bundle, _) => eprintln!("agent-trace-viewer: {file}: error: {e}"),
                }
                continue;
            }
        };
        match args.command {
            Command::Validate | Command::Stats => {
                if trace.diagnostics.iter().any(|d| d.severity == Severity::Error) {
                    status = status.max(1);
                }
                report(&mut out, &mut json_out, &args, file, &trace);
            }
            Command::Text => {
                warn_errors(file, &trace);
                if let Err(e) = text(&mut out, &args, file, &trace, several) {
                    status = status.max(1);
                    if args.json {
                        let _ = writeln!(out, "{}", json!({"file": file, "error": e}));
                    } else {
                        eprintln!("agent-trace-viewer: {file}: error: {e}");
                    }
                }
            }
            Command::Convert => {
                warn_errors(file, &trace);
                let done = match &args.redact {
                    Some(options) => redact::convert_redacted(&mut out, &args, file, &trace, original.as_deref(), options),
                    None => convert(&mut out, &args, &trace),
                };
                if let Err(e) = done {
                    status = status.max(1);
                    eprintln!("agent-trace-viewer: {file}: error: {e}");
                }
            }
            Command::Formats | Command::Diff | Command::Bundle => {}
        }
    }
    if args.json && matches!(args.command, Command::Validate | Command::Stats) {
        let _ = writeln!(out, "{}", serde_json::to_string_pretty(&json_out).unwrap_or_default());
    }
    if out.flush().is_err() {
        return ExitCode::from(2);
    }
    ExitCode::from(status)
}

/// Text and conversions still come out of a trace with errors; say so on stderr.
fn warn_errors(file: &str, trace: &Trace) {
    let errors = trace.error_count();
    if errors > 0 {
        eprintln!("agent-trace-viewer: {file}: warning: {} in the input (see `agent-trace-viewer validate`)", plural(errors, "error"));
    }
}

/// `text`: the run's text, or its chunks under a token limit.
fn text(out: &mut impl Write, args: &Args, file: &str, trace: &Trace, several: bool) -> Result<(), String> {
    let options = TextOptions {
        style: args.style.unwrap_or(Style::Current),
        token_limit: args.token_limit,
        context: args.context.clone().unwrap_or_default(),
        run: args.run.unwrap_or(0),
    };
    let tokenizer = args.token_limit.map(|_| &Cl100k as &dyn Tokenizer);
    let chunks = agent_run_text(trace, &options, tokenizer).map_err(|e| e.message)?;
    if args.json {
        // One object per file and line. Token counts always: cl100k_base of each chunk
        // (the whole text when there is no limit).
        let style = match options.style {
            Style::Legacy => "legacy",
            Style::Current => "current",
        };
        let chunks: Vec<Value> = chunks.iter().map(|c| json!({"text": c, "tokens": atv_tokenizer::count(c)})).collect();
        let v = json!({"file": file, "style": style, "run": options.run, "tokenLimit": options.token_limit, "chunks": chunks});
        let _ = writeln!(out, "{v}");
        return Ok(());
    }
    if several {
        let _ = writeln!(out, "==> {file} <==");
    }
    match options.token_limit {
        // Exactly the text, no newline added (unless more files follow).
        None => {
            let _ = out.write_all(chunks.concat().as_bytes());
            if several {
                let _ = writeln!(out);
            }
        }
        Some(limit) => {
            if chunks.is_empty() {
                // Docent's own answer, so not an error; but silence would puzzle.
                eprintln!("{file}: docent-python gives no chunks for this run at a token limit of {limit} (its 50-token margin leaves no room; a transcript with no messages is dropped); raise the limit");
            }
            for (i, c) in chunks.iter().enumerate() {
                let _ = writeln!(out, "{}", chunk_separator(i + 1, chunks.len(), atv_tokenizer::count(c)));
                let _ = writeln!(out, "{c}");
            }
        }
    }
    Ok(())
}

/// `convert`: JSON Lines, one run a line (OpenAI: the file's metadata first, as the format reads it).
fn convert(out: &mut impl Write, args: &Args, trace: &Trace) -> Result<(), String> {
    let runs: Vec<usize> = match args.run {
        Some(r) if r >= trace.runs.len() => return Err(format!("the trace has {}; there is no run {r}", plural(trace.runs.len(), "run"))),
        Some(r) => vec![r],
        None => (0..trace.runs.len()).collect(),
    };
    let mut lines = Vec::new();
    match args.to {
        Some(Target::OpenAiJson) => {
            if args.run.is_none() && !trace.metadata.is_empty() {
                lines.push(json!({ "metadata": trace.metadata }));
            }
            lines.extend(runs.iter().filter_map(|&r| agent_trace_viewer::export::run_to_openai(trace, r)));
        }
        Some(Target::AgentRunJson) | None => {
            for &r in &runs {
                let run = agent_trace_viewer::import::agent_run(trace, r).ok_or_else(|| format!("there is no run {r}"))?;
                lines.push(agent_trace_viewer::agentrun::to_docent_json(&run));
            }
        }
    }
    for l in lines {
        let _ = writeln!(out, "{l}");
    }
    Ok(())
}

fn report(out: &mut impl Write, json_out: &mut Vec<Value>, args: &Args, file: &str, trace: &Trace) {
    match (args.command, args.json) {
        (Command::Validate, true) => json_out.push(json!({
            "file": file,
            "format": trace.format,
            "events": trace.events.len(),
            "diagnostics": trace.diagnostics,
            "groups": group(&trace.diagnostics),
        })),
        (Command::Validate, false) => {
            let groups = group(&trace.diagnostics);
            let mut collapsed = 0;
            for g in &groups {
                let members = g.diagnostics.iter().filter_map(|&i| trace.diagnostics.get(i as usize));
                if args.all || g.count == 1 {
                    for d in members {
                        let name = trace.file_at(d.offset).map(|f| f.name.as_str()).unwrap_or(file);
                        let _ = writeln!(out, "{}", d.to_line(name));
                    }
                    continue;
                }
                collapsed += 1;
                let Some(d) = trace.diagnostics.get(g.first as usize) else { continue };
                let name = trace.file_at(d.offset).map(|f| f.name.as_str()).unwrap_or(file);
                let (sev, code, headline) = (g.severity.name(), g.code, g.headline());
                let _ = writeln!(out, "{name}:{}:{}: {sev}[{code}]: {headline} (first at {})", d.line, d.column, d.path);
            }
            let errors = trace.error_count();
            let grouped = if collapsed > 0 { " (repeated ones grouped: --all lists each)" } else { "" };
            let _ = writeln!(
                out,
                "{file}: {} ({}, {}): {}, {}{grouped}",
                trace.format,
                plural(trace.events.len(), "event"),
                plural(trace.runs.len(), "run"),
                plural(errors, "error"),
                plural(trace.diagnostics.len() - errors, "other diagnostic"),
            );
        }
        (_, true) => {
            let mut v = serde_json::to_value(trace_stats(trace)).unwrap_or_default();
            if let Some(o) = v.as_object_mut() {
                o.insert("file".to_string(), Value::String(file.to_string()));
            }
            json_out.push(v);
        }
        (_, false) => print_stats(out, file, trace),
    }
}

/// `1200 in, 300 out, 1500 total`, with cache and reasoning counts when there are any.
fn usage_line(u: &Usage) -> String {
    let mut parts = vec![format!("{} in", u.input_tokens), format!("{} out", u.output_tokens)];
    for (n, what) in [(u.cache_read_input_tokens, "cache read"), (u.cache_creation_input_tokens, "cache write"), (u.reasoning_output_tokens, "reasoning")] {
        if n > 0 {
            parts.push(format!("{n} {what}"));
        }
    }
    parts.push(format!("{} total", u.total_tokens));
    parts.join(", ")
}

/// `$0.0035 (input $0.001, output $0.0025)`, the parts when the source gave them.
fn cost_line(c: &Cost) -> String {
    let parts: Vec<String> = [(c.input, "input"), (c.output, "output")].iter().filter_map(|(x, what)| x.map(|x| format!("{what} {}", dollars(x)))).collect();
    if parts.is_empty() {
        dollars(c.total)
    } else {
        format!("{} ({})", dollars(c.total), parts.join(", "))
    }
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

fn print_stats(out: &mut impl Write, file: &str, trace: &Trace) {
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
    for t in &s.tools {
        let latency = if t.durations > 0 { format!(", mean {:.0} ms", t.duration_ms_total / f64::from(t.durations)) } else { String::new() };
        let _ = writeln!(out, "    {}: {} calls, {} answered, {} failed{latency}", t.tool, t.calls, t.answered, t.failures);
    }
    let u = &s.unlinked_results;
    if u.results > 0 {
        let _ = writeln!(out, "    (results answering no call): {} results, {} failed", u.results, u.failures);
    }
    if s.usage.events > 0 {
        let _ = writeln!(out, "  tokens      {}", usage_line(&s.usage.total));
        if s.usage.by_model.len() > 1 || s.usage.by_model.keys().any(|m| !m.is_empty()) {
            for (model, u) in &s.usage.by_model {
                let model = if model.is_empty() { "(model not named)" } else { model };
                let _ = writeln!(out, "    {model}: {}", usage_line(u));
            }
        }
    }
    if let Some(c) = &s.usage.cost {
        // The trace's own figures; a call that reports none is not in the sum.
        let _ = writeln!(out, "  cost        {}, reported by {}", cost_line(&c.total), plural(c.events as usize, "event"));
        if c.by_model.len() > 1 || c.by_model.keys().any(|m| !m.is_empty()) {
            for (model, m) in &c.by_model {
                let model = if model.is_empty() { "(model not named)" } else { model };
                let _ = writeln!(out, "    {model}: {}", cost_line(m));
            }
        }
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
