//! agent-trace-viewer's core: read AI-agent traces of several formats into one
//! model, validate them as their reference libraries would, and serve views of
//! them to a browser UI through WebAssembly.
//!
//! Data flows one way: bytes → [`json`] split → a format module in [`import`]
//! → the shared [`model`] → [`analysis`] → [`query`], [`view`] and [`render`].
//! The wasm-bindgen layer (`wasm`, compiled only for wasm32) is a thin
//! wrapper over [`parse_trace`].

// No panics on paths reachable from input: a panic in wasm poisons the
// module for the page. Enforced here; tests may unwrap.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic, clippy::unreachable)
)]

pub mod agentrun;
pub mod analysis;
pub mod byte_compare;
pub mod container;
pub mod diagnostic;
pub mod error;
pub mod event_metadata;
pub mod dupkeys;
pub mod export;
pub mod import;
pub mod integrity;
pub mod json;
pub mod lazy;
pub mod lazy_value;
pub mod limits;
pub mod model;
pub mod query;
pub mod redact;
pub mod render;
pub mod sort;
pub mod source;
pub mod source_kind;
#[cfg(test)]
mod test_rng;
pub mod text;
pub mod view;

#[cfg(target_arch = "wasm32")]
mod wasm;

use diagnostic::{Diagnostic, Severity};
use import::{Builder, Format, Input, Sample, FORMATS};
use model::{Detection, Trace};
use source::SourceMap;

/// Options for [`parse_trace`].
#[derive(Debug, Clone, Default)]
pub struct ParseOptions {
    /// Force a format by id instead of detecting it.
    pub format: Option<String>,
    /// Read every record through its format's exact path, never a fast one.
    /// The result is the same, only slower: tests and fuzzers compare the
    /// two to hold the fast paths to that.
    pub exact_only: bool,
    /// The input is an archive's members without its run bodies (those a
    /// format's [`import::Format::lazy_member`] names a body), read lazily
    /// ([`lazy::LazyArchive`]): the names of the bodies left unread, sorted.
    /// The format reads its summaries of those runs as runs whose
    /// `pending_body` names the member to read for them (a summary of a
    /// body the archive does not hold is no run, as in the full read).
    pub pending_bodies: Option<Vec<String>>,
}

pub use error::ParseError;

/// The ids of every supported format.
pub fn format_ids() -> Vec<&'static str> {
    FORMATS.iter().map(|f| f.id()).collect()
}

/// Reads `bytes` as a trace. Malformed records become diagnostics on the
/// returned trace; only an input that is no trace at all is an error.
pub fn parse_trace(bytes: Vec<u8>, options: &ParseOptions) -> Result<Trace, ParseError> {
    parse_trace_observed(bytes, options, &mut |_| {})
}

/// A step of [`parse_trace`], reported as it finishes, for benchmarks that
/// time each one (the core itself has no clock: `Instant` is not in wasm32).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Gzip, UTF-16 and zip checks (and decompression when needed).
    Container,
    /// Splitting into one document or JSON Lines, validating the grammar.
    Split,
    /// Scoring the formats on a sample.
    Detect,
    /// UTF-8 validation of the whole input.
    Utf8,
    /// The format module reading records into the model.
    Import,
    /// Sorting diagnostics and assembling the trace.
    Finish,
}

/// [`parse_trace`], calling `observe` after each [`Phase`].
pub fn parse_trace_observed(bytes: Vec<u8>, options: &ParseOptions, observe: &mut dyn FnMut(Phase)) -> Result<Trace, ParseError> {
    let bytes = if container::is_gzip(&bytes) {
        container::gunzip(&bytes, container::MAX_GZIP_EXPANSION).map_err(ParseError::Gzip)?
    } else {
        bytes
    };
    let utf16 = container::utf16_kind(&bytes);
    let bytes = match utf16 {
        Some(kind) => container::utf16_to_utf8(&bytes, kind),
        None => bytes,
    };
    if bytes.len() > limits::MAX_INPUT_BYTES {
        return Err(ParseError::TooLarge { bytes: bytes.len(), what: "the input" });
    }
    if container::is_zip(&bytes) {
        // An archive (an Inspect `.eval` log) is the files it holds, read together.
        let files = container::unzip(&bytes, container::MAX_GZIP_EXPANSION).map_err(ParseError::Zip)?;
        return parse_files(files, options);
    }
    observe(Phase::Container);
    let start = json::bom_len(&bytes);
    let split = json::split(&bytes, start);
    let source_map = source::LazySourceMap::with_anchors(split.values.iter().map(|v| (v.range.start, v.line)), bytes.len());
    observe(Phase::Split);
    if split.values.is_empty() && split.errors.is_empty() {
        return Err(ParseError::Empty { whitespace: bytes.len() != start });
    }
    let input = SplitInput { bytes, split, source_map, bom: start, utf16, files: Vec::new() };
    import_split(input, &|b, grammar| json::split_in(b, start, grammar), options, observe)
}

/// One input read as far as the JSON layer: what detection and a format's
/// import start from, passed whole from one step to the next.
struct SplitInput {
    bytes: Vec<u8>,
    split: json::Split,
    source_map: source::LazySourceMap,
    /// Bytes of a UTF-8 byte order mark skipped at the start.
    bom: usize,
    /// The UTF-16 encoding the input was converted from, if it was.
    utf16: Option<&'static str>,
    /// The files joined into `bytes` ([`parse_files`]), empty for one input:
    /// the import sees which file a record came from ([`import::Input::files`]).
    files: Vec<model::SourceFile>,
}

/// Detects the format of an already split input and reads it. `resplit`
/// splits the same input in another grammar, for a format that reads one.
fn import_split(
    mut input: SplitInput,
    resplit: &dyn Fn(&[u8], json::Grammar) -> json::Split,
    options: &ParseOptions,
    observe: &mut dyn FnMut(Phase),
) -> Result<Trace, ParseError> {
    // One event per line at least: refuse before reading any record.
    if input.split.values.len().saturating_add(input.split.leftovers.len()) > limits::MAX_EVENTS {
        return Err(ParseError::TooManyEvents);
    }
    let (format, detection) = choose_format_and_grammar(&input.bytes, &mut input.split, resplit, options)?;
    observe(Phase::Detect);
    import_with(format, detection, input, options, observe)
}

/// Reads an already split input as `format`.
fn import_with(
    format: &'static dyn Format,
    detection: Detection,
    input: SplitInput,
    options: &ParseOptions,
    observe: &mut dyn FnMut(Phase),
) -> Result<Trace, ParseError> {
    let SplitInput { bytes, split, source_map, bom: start, utf16, files } = input;
    if split.values.len().saturating_add(split.leftovers.len()) > limits::MAX_EVENTS {
        return Err(ParseError::TooManyEvents);
    }
    // Shared with every `Text` the import leaves in the source (no copy).
    let source: model::Source = std::sync::Arc::new(bytes);
    let bytes: &[u8] = &source;
    let mut builder = Builder::new(&source, &source_map);
    let invalid_utf8 = source::invalid_utf8_at(bytes);
    builder.set_input_facts(invalid_utf8.is_none(), options.exact_only, &split.hazards);
    builder.set_pending_bodies(options.pending_bodies.clone());
    if let Some(kind) = utf16 {
        builder.diag(Severity::Info, "utf16", format!("the input is {kind} text; it was converted to UTF-8 (positions refer to the converted text)"), "$".to_string(), 0, None);
    }
    if let Some(at) = invalid_utf8 {
        let byte = bytes.get(at).copied().unwrap_or(0);
        builder.diag(Severity::Error, "invalid-utf8", format!("the input is not valid UTF-8: byte 0x{byte:02X} at offset {at} (records holding such bytes are kept raw)"), "$".to_string(), at, None);
    }
    observe(Phase::Utf8);
    if start > 0 {
        builder.diag(Severity::Info, "bom", "the input starts with a UTF-8 byte order mark, which was skipped".to_string(), "$".to_string(), 0, None);
    }
    // Syntax errors are the JSON layer's; every format gets them reported the same way.
    for e in &split.errors {
        builder.syntax_error(e, "$");
    }
    format.import(&Input { bytes, split: &split, files: &files }, &mut builder);
    integrity::keep_leftovers(&mut builder, &split);
    dupkeys::report(&mut builder, &split);
    let import::Built { runs, events, mut diagnostics, metadata, too_many_events, dropped_diagnostics } = builder.finish();
    if too_many_events {
        return Err(ParseError::TooManyEvents);
    }
    if dropped_diagnostics > 0 {
        let message = format!(
            "{} more diagnostics were left out: at most {} are kept",
            limits::group_digits(dropped_diagnostics),
            limits::group_digits(limits::MAX_DIAGNOSTICS)
        );
        diagnostics.push(Diagnostic {
            severity: Severity::Warning,
            code: "too-many-diagnostics",
            message,
            path: "$".to_string(),
            line: 1,
            column: 1,
            offset: 0,
            event: None,
            snippet: None,
        });
    }
    observe(Phase::Import);
    integrity::dedup_syntax_errors(&mut diagnostics);
    integrity::relink_diagnostics(&mut diagnostics, &events);
    // A run with no events is no finding (an AgentLens session without
    // events is valid to its reference); an input with neither is.
    if events.is_empty() && runs.is_empty() && diagnostics.iter().all(|d| d.severity != Severity::Error) {
        diagnostics.push(Diagnostic {
            severity: Severity::Warning,
            code: "no-events",
            message: "the input holds no events".to_string(),
            path: "$".to_string(),
            line: 1,
            column: 1,
            offset: 0,
            event: None,
            snippet: None,
        });
    }
    sort::by_key(&mut diagnostics, |d| d.offset);
    observe(Phase::Finish);
    Ok(Trace {
        format: format.id(),
        detection,
        layout: split.layout,
        runs,
        events,
        diagnostics,
        metadata,
        source,
        source_map,
        files,
    })
}

/// `format!("{:.0}", confidence * 100.0)` for an f32 confidence, without
/// `f32`'s `Display` (its exact-precision float formatting, ~1 KB of the .wasm,
/// used nowhere else): the product is widened to f64 exactly, so rounding it
/// half to even is what `{:.0}` does with its exact decimal value.
fn whole_percent(confidence: f32) -> String {
    let x = f64::from(confidence * 100.0);
    if x.is_finite() {
        format!("{}", x.round_ties_even() as i64)
    } else {
        format!("{x}")
    }
}

/// Reads several files as one trace: a conversation folder with one event
/// per file (OpenHands' `events/event-NNNNN-<id>.json`), or several files
/// dropped at once. Files are ordered as the detected format orders them
/// ([`import::Format::file_order`]; by name unless the format says otherwise)
/// and joined into one source, newline-separated, each file's values read as
/// JSON Lines values would be. Every event keeps its raw bytes;
/// `trace.files` names the file holding each byte range, and line numbers
/// of events and diagnostics count from the start of their own file.
pub fn parse_files(mut files: Vec<(String, Vec<u8>)>, options: &ParseOptions) -> Result<Trace, ParseError> {
    if files.len() == 1 {
        let (name, bytes) = files.remove(0);
        let len = bytes.len();
        let mut trace = parse_trace(bytes, options)?;
        trace.files = vec![model::SourceFile { name, range: 0..len, first_line: 1 }];
        return Ok(trace);
    }
    // Joined in name order to detect the format, then in the format's order
    // (the second join, a second split of every byte, only when the orders
    // differ). A format the caller names orders them before the only join.
    match options.format.as_deref().and_then(|id| FORMATS.iter().find(|f| f.id() == id)) {
        Some(format) => sort::by_key(&mut files, |f| format.file_order(&f.0)),
        None => sort::by_key(&mut files, |f| import::FileOrder { group: 1, index: 0, name: import::base_name(&f.0).to_string() }),
    }
    let mut joined = join_files(&files, json::Grammar::Strict)?;
    let parts = joined.parts.clone();
    let resplit = |b: &[u8], grammar| json::split_each(b, &parts, grammar);
    let (format, detection) = choose_format_and_grammar(&joined.bytes, &mut joined.split, &resplit, options)?;
    let ordered = files.windows(2).all(|w| match w {
        [a, b] => format.file_order(&a.0) <= format.file_order(&b.0),
        _ => true,
    });
    if !ordered {
        sort::by_key(&mut files, |f| format.file_order(&f.0));
        joined = join_files(&files, joined.split.grammar())?;
    }
    let JoinedFiles { bytes, split, sources, .. } = joined;
    // (No anchors: a joined split counts each file's lines from its start.)
    let input = SplitInput { bytes, split, source_map: source::LazySourceMap::default(), bom: 0, utf16: None, files: sources };
    let mut trace = import_with(format, detection, input, options, &mut |_| {})?;
    rebase_lines(&mut trace);
    Ok(trace)
}

/// Several files as one source, newline-separated, split as JSON Lines values.
struct JoinedFiles {
    bytes: Vec<u8>,
    split: json::Split,
    sources: Vec<model::SourceFile>,
    /// Each file's bytes after any BOM: what is split.
    parts: Vec<std::ops::Range<usize>>,
}

fn join_files(files: &[(String, Vec<u8>)], grammar: json::Grammar) -> Result<JoinedFiles, ParseError> {
    let mut bytes = Vec::new();
    let mut parts = Vec::new();
    let mut sources = Vec::new();
    let mut newlines = 0usize;
    for (name, data) in files {
        let start = bytes.len();
        let first_line = source::clamp_u32(newlines + 1);
        bytes.extend_from_slice(data);
        if !data.ends_with(b"\n") {
            bytes.push(b'\n');
        }
        newlines += bytes.get(start..).map(json::count_newlines).unwrap_or(0);
        let end = bytes.len();
        parts.push(start + json::bom_len(data)..end);
        sources.push(model::SourceFile { name: name.clone(), range: start..end, first_line });
    }
    if bytes.len() > limits::MAX_INPUT_BYTES {
        return Err(ParseError::TooLarge { bytes: bytes.len(), what: "the files together" });
    }
    let split = json::split_each(&bytes, &parts, grammar);
    if split.values.is_empty() && split.errors.is_empty() {
        return Err(ParseError::EmptyFiles);
    }
    Ok(JoinedFiles { bytes, split, sources, parts })
}

/// Makes diagnostic line numbers relative to the file holding them (an
/// event's are, when asked: [`Trace::event_position`]).
fn rebase_lines(trace: &mut Trace) {
    for d in &mut trace.diagnostics {
        d.line = d.line.saturating_sub(model::first_line_before(&trace.files, d.offset));
    }
}

/// [`choose_format`], leaving in `split` the split the format reads: the
/// strict one, unless it stopped at a non-finite literal and the format
/// reads them. Detection runs on the strict split, then (when that claims
/// nothing) on the wider one, the strict one's error kept for a format that
/// refuses the literals: a document that breaks in its first record leaves
/// the strict split too little to detect. Inputs without such a literal are
/// split once, and so are those a format that refuses them reads.
fn choose_format_and_grammar(
    bytes: &[u8],
    split: &mut json::Split,
    resplit: &dyn Fn(&[u8], json::Grammar) -> json::Split,
    options: &ParseOptions,
) -> Result<(&'static dyn Format, Detection), ParseError> {
    let stopped = split.stopped_at_nonfinite(bytes);
    let mut strict_error = None;
    // (A loop: one call of `choose_format`, which stays inlined.)
    loop {
        match (choose_format(bytes, split, options), strict_error) {
            (Ok((format, detection)), None) => {
                if stopped && format.reads_nonfinite() {
                    *split = resplit(bytes, json::Grammar::NonFinite);
                }
                return Ok((format, detection));
            }
            (Err(e), None) if stopped => {
                strict_error = Some(e);
                *split = resplit(bytes, json::Grammar::NonFinite);
            }
            (Ok(found), Some(_)) if found.0.reads_nonfinite() => return Ok(found),
            (Err(e), None) | (_, Some(e)) => return Err(e),
        }
    }
}

fn choose_format(
    bytes: &[u8],
    split: &json::Split,
    options: &ParseOptions,
) -> Result<(&'static dyn Format, Detection), ParseError> {
    if let Some(id) = &options.format {
        let Some(f) = FORMATS.iter().find(|f| f.id() == id) else {
            return Err(ParseError::UnknownFormatId { id: id.clone(), supported: format_ids() });
        };
        let detection = Detection {
            format: f.id(),
            forced: true,
            confidence: 1.0,
            evidence: vec!["format chosen by the caller".to_string()],
            runner_up: None,
        };
        return Ok((*f, detection));
    }
    let sample = Sample::new(bytes, split);
    let mut scored: Vec<(&'static dyn Format, import::Score)> =
        FORMATS.iter().filter_map(|f| f.detect(&sample).map(|s| (*f, s))).collect();
    sort::by(&mut scored, |a, b| b.1.confidence.total_cmp(&a.1.confidence));
    let mut ranked = scored.into_iter();
    let Some((best, score)) = ranked.next() else {
        return Err(not_a_trace(bytes, split, &sample));
    };
    let runner_up = ranked
        .next()
        .filter(|(_, s)| s.confidence >= score.confidence * 0.5)
        .map(|(f, s)| format!("{} ({}%)", f.id(), whole_percent(s.confidence)));
    Ok((
        best,
        Detection { format: best.id(), forced: false, confidence: score.confidence, evidence: score.evidence, runner_up },
    ))
}

/// The error for an input no format claims: what it looks like, what is supported.
fn not_a_trace(bytes: &[u8], split: &json::Split, sample: &Sample) -> ParseError {
    let supported = FORMATS.iter().map(|f| format!("{} ({})", f.id(), f.name())).collect::<Vec<_>>().join(", ");
    if let Some(e) = split.errors.first() {
        if split.values.is_empty() || split.layout == json::Layout::Json {
            let map = SourceMap::new(bytes);
            let pos = map.position(bytes, e.offset);
            return ParseError::NotJson { line: pos.line, column: pos.column, message: e.message.clone(), near: map.snippet(bytes, e.offset) };
        }
    }
    if let Some(what) = import::lookalike::recognise(sample) {
        return ParseError::Unsupported { looks_like: what.to_string(), supported };
    }
    let looks = describe_shape(sample);
    ParseError::UnknownFormat { looks_like: looks, supported }
}

/// A short description of the input's shape for "unsupported" errors.
fn describe_shape(sample: &Sample) -> String {
    let Some(first) = sample.values.first() else { return "no JSON values".to_string() };
    let layout = match sample.layout {
        json::Layout::Json => "a JSON document",
        json::Layout::Jsonl => "JSON Lines",
    };
    let record = match first {
        serde_json::Value::Array(items) => match items.first() {
            Some(serde_json::Value::Object(_)) => {
                // Union of the keys of the sampled items: the first may be a header.
                let mut union = serde_json::Map::new();
                for o in items.iter().filter_map(serde_json::Value::as_object) {
                    for k in o.keys() {
                        union.entry(k.clone()).or_insert(serde_json::Value::Null);
                    }
                }
                format!("a list of objects with keys {}", keys(&union))
            }
            Some(v) => format!("a list of {}", import::json_type(v)),
            None => "an empty list".to_string(),
        },
        serde_json::Value::Object(o) => format!("objects with keys {}", keys(o)),
        v => import::json_type(v).to_string(),
    };
    format!("it looks like {layout} holding {record}")
}

fn keys(o: &serde_json::Map<String, serde_json::Value>) -> String {
    let mut k: Vec<String> = o.keys().take(8).map(|k| format!("`{k}`")).collect();
    if o.len() > 8 {
        k.push("…".to_string());
    }
    k.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_percent_is_f32_display_with_no_decimals() {
        for c in [0.0f32, 0.004, 0.005, 0.015, 0.025, 0.125, 0.3333, 0.5, 0.625, 0.995, 1.0, 0.0049999, 1.0 / 3.0, 2.0 / 3.0, f32::NAN, f32::INFINITY] {
            assert_eq!(whole_percent(c), format!("{:.0}", c * 100.0), "{c}");
        }
        for i in 0..=100_000u32 {
            let c = i as f32 / 100_000.0;
            assert_eq!(whole_percent(c), format!("{:.0}", c * 100.0), "{c}");
        }
        for i in 0..=1000u32 {
            for n in 1..=200u32 {
                let c = i as f32 / n as f32;
                assert_eq!(whole_percent(c), format!("{:.0}", c * 100.0), "{i}/{n}");
            }
        }
    }
}
