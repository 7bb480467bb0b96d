//! `bundle`: a folder any static host serves that opens on the given traces
//! — the viewer (a built `dist/` or `www/`), the traces as its samples
//! (redacted on request), and an `index.html` that opens the first. No
//! server, no upload: a report to hand to a colleague.

use std::path::{Path, PathBuf};

use agent_trace_viewer::redact::redact_input;
use agent_trace_viewer::{parse_trace, ParseOptions};
use serde_json::{json, Value};

use super::folder::read;
use super::{plural, Args};

/// Where the viewer is: `--viewer DIR`, else `$ATV_VIEWER_DIR`, else the
/// build's `dist/` (or `www/`) in this directory.
fn viewer_dir(args: &Args) -> Result<PathBuf, String> {
    let given = args.viewer.clone().or_else(|| std::env::var("ATV_VIEWER_DIR").ok());
    let candidates: Vec<PathBuf> = match given {
        Some(d) => vec![PathBuf::from(d)],
        None => vec![PathBuf::from("dist"), PathBuf::from("www")],
    };
    candidates
        .into_iter()
        .find(|d| d.join("index.html").is_file() && d.join("pkg").join("agent_trace_viewer_bg.wasm").is_file())
        .ok_or_else(|| "no built viewer found (a folder with index.html and pkg/agent_trace_viewer_bg.wasm): run scripts/build.sh and pass --viewer dist".to_string())
}

/// Copies `from` into `to`, leaving out its `samples/` (the bundle's own go there).
fn copy_viewer(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let (src, name) = (entry.path(), entry.file_name());
        let dest = to.join(&name);
        if entry.file_type()?.is_dir() {
            if name != "samples" {
                copy_viewer(&src, &dest)?;
            }
        } else {
            std::fs::copy(&src, &dest)?;
        }
    }
    Ok(())
}

/// A file name for trace `i` of the bundle: its own, made unique.
fn unique_name(path: &str, taken: &mut Vec<String>) -> String {
    let base = Path::new(path).file_name().and_then(|n| n.to_str()).filter(|n| !n.is_empty() && *n != "-").unwrap_or("trace.json");
    let base: String = base.chars().map(|c| if c.is_ascii_alphanumeric() || ".-_".contains(c) { c } else { '_' }).collect();
    let mut name = base.clone();
    let mut k = 2;
    while taken.contains(&name) {
        name = format!("{k}-{base}");
        k += 1;
    }
    taken.push(name.clone());
    name
}

/// Writes the bundle; (code, why) on failure: 1 for a file that is no
/// trace, 2 for usage and I/O.
pub fn bundle(args: &Args, options: &ParseOptions) -> Result<String, (u8, String)> {
    let out = PathBuf::from(args.output.as_deref().ok_or((2, "bundle needs -o DIR".to_string()))?);
    let viewer = viewer_dir(args).map_err(|e| (2, e))?;
    if out.exists() && std::fs::read_dir(&out).map(|mut d| d.next().is_some()).unwrap_or(true) {
        return Err((2, format!("{}: exists and is not empty (the bundle goes into a new folder)", out.display())));
    }
    let io = |e: std::io::Error| (2, format!("{}: {e}", out.display()));
    let site = out.join("viewer");
    copy_viewer(&viewer, &site).map_err(io)?;
    std::fs::create_dir_all(site.join("samples")).map_err(io)?;
    let mut taken = Vec::new();
    let mut index: Vec<Value> = Vec::new();
    let mut masked = 0u32;
    for file in &args.files {
        let bytes = read(file).map_err(|e| (2, e))?;
        let trace = parse_trace(bytes.clone(), options).map_err(|e| (1, format!("{file}: {e}")))?;
        let (bytes, note) = match &args.redact {
            Some(r) => {
                let red = redact_input(&bytes, r).map_err(|e| (1, format!("{file}: {e}")))?;
                let n: u32 = red.report.kinds.iter().map(|k| k.occurrences).sum();
                masked += n;
                (red.bytes, format!(", {} masked", plural(n as usize, "secret")))
            }
            None => (bytes, String::new()),
        };
        let name = unique_name(file, &mut taken);
        std::fs::write(site.join("samples").join(&name), &bytes).map_err(io)?;
        let description = format!("{} · {} · {}{note}", trace.format, plural(trace.runs.len(), "run"), plural(trace.events.len(), "event"));
        index.push(json!({"file": name, "title": name, "description": description}));
    }
    let text = serde_json::to_string_pretty(&index).unwrap_or_default();
    std::fs::write(site.join("samples").join("index.json"), text + "\n").map_err(io)?;
    let first = index.first().and_then(|v| v["file"].as_str()).unwrap_or_default().to_string();
    // No script (the viewer's CSP has none inline): a meta refresh opens the first trace.
    let target = format!("viewer/index.html?sample={}", percent_encode(&first));
    let html = format!(
        "<!doctype html>\n<meta charset=\"utf-8\">\n<title>agent-trace-viewer bundle</title>\n<meta http-equiv=\"refresh\" content=\"0; url={target}\">\n<p>Opening <a href=\"{target}\">the viewer</a> on {}.</p>\n",
        plural(index.len(), "trace")
    );
    std::fs::write(out.join("index.html"), html).map_err(io)?;
    Ok(format!(
        "{}: {} and the viewer{}; serve the folder and open index.html",
        out.display(),
        plural(index.len(), "trace"),
        if args.redact.is_some() { format!(" ({} masked)", plural(masked as usize, "secret")) } else { String::new() }
    ))
}

/// `?sample=` value: the names are already `[A-Za-z0-9._-]`, kept as they are.
fn percent_encode(s: &str) -> String {
    s.chars().map(|c| if c.is_ascii_alphanumeric() || ".-_".contains(c) { c.to_string() } else { format!("%{:02X}", c as u32) }).collect()
}

