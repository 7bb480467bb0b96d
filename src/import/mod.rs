//! Format modules: one per input format, behind the small [`Format`] trait.
//!
//! Adding a format means one file here and one line in [`FORMATS`]. A format
//! module sees the input already split into top-level JSON values (see
//! [`crate::json`]) and writes runs, events and diagnostics into a
//! [`Builder`]; it never touches the wasm layer or the UI.

pub mod agent_catalog;
pub mod agentlens;
pub mod docent;
pub mod facts;
pub mod lookalike;
pub mod openai;
pub mod openhands;
pub mod pydantic_lax;

use std::ops::Range;

use serde_json::Value;

use crate::diagnostic::{Diagnostic, Severity};
use crate::json::{scan, render_path, Layout, Seg, Split, SyntaxError};
use crate::model::{AgentRun, Event, EventBody, LazyValue, Metadata, Source, Text, Transcript};
use crate::source::SourceMap;

/// Every format the core reads, in detection order (ties go to the first).
pub static FORMATS: &[&dyn Format] = &[
    &openai::OpenAi,
    &docent::Docent,
    &openhands::OpenHands,
    &agent_catalog::AgentCatalog,
    &agentlens::AgentLens,
];

/// How well a sample matched a format, and why.
#[derive(Debug, Clone)]
pub struct Score {
    /// 0.0–1.0.
    pub confidence: f32,
    pub evidence: Vec<String>,
}

pub trait Format: Sync {
    /// Stable id used in `trace.format` and the `format` option.
    fn id(&self) -> &'static str;
    /// Human name for messages.
    fn name(&self) -> &'static str;
    /// Scores a sample of the input; `None` when nothing matched.
    fn detect(&self, sample: &Sample) -> Option<Score>;
    /// Reads the whole input into the builder.
    fn import(&self, input: &Input, out: &mut Builder);
}

/// The input as a format module sees it.
pub struct Input<'a> {
    pub bytes: &'a [u8],
    pub split: &'a Split,
}

/// A bounded sample of the input for detection: the first records, with huge
/// values cut down so that detecting a 1 GB file costs what a small one does.
#[derive(Debug, Clone)]
pub struct Sample {
    pub layout: Layout,
    /// The top-level values (for JSON: the one document; for JSONL: the first lines).
    pub values: Vec<Value>,
}

const SAMPLE_VALUES: usize = 16;
const SAMPLE_ITEMS: usize = 16;
const SAMPLE_FULL_BYTES: usize = 64 * 1024;

impl Sample {
    pub fn new(bytes: &[u8], split: &Split) -> Sample {
        let values = split
            .values
            .iter()
            .take(SAMPLE_VALUES)
            .map(|v| sample_value(bytes, v.range.clone(), 0, &split.ends))
            .collect();
        Sample { layout: split.layout, values }
    }
}

/// Parses a value, cutting arrays to their first items and huge strings to a
/// placeholder once the value is too large to parse whole. Containers the
/// split recorded the end of (`ends`) are jumped over, not scanned again.
fn sample_value(b: &[u8], range: Range<usize>, depth: usize, ends: &scan::ContainerEnds) -> Value {
    let start = scan::skip_ws(b, range.start);
    let slice = b.get(start..range.end).unwrap_or(&[]);
    if slice.len() <= SAMPLE_FULL_BYTES || depth > 4 {
        if let Ok(v) = serde_json::from_slice::<Value>(slice) {
            return v;
        }
        // Past the depth budget, a value that does not parse is left out:
        // recursing into it could go as deep as the input nests.
        if depth > 4 {
            return Value::Null;
        }
    }
    match b.get(start) {
        Some(b'{') => {
            let mut map = Metadata::new();
            if let Ok(members) = scan::object_members_in(b, start, ends) {
                for (k, r) in members {
                    map.insert(k, sample_value(b, r, depth + 1, ends));
                }
            }
            Value::Object(map)
        }
        Some(b'[') => {
            let mut items = Vec::new();
            let mut i = scan::skip_ws(b, start + 1);
            while items.len() < SAMPLE_ITEMS && b.get(i) != Some(&b']') {
                let end = match (b.get(i), ends.end_of(i)) {
                    (Some(b'[' | b'{'), Some(end)) => end,
                    _ => match scan::scan_value(b, i) {
                        Ok(end) => end,
                        Err(_) => break,
                    },
                };
                items.push(sample_value(b, i..end, depth + 1, ends));
                i = scan::skip_ws(b, end);
                if b.get(i) == Some(&b',') {
                    i = scan::skip_ws(b, i + 1);
                } else {
                    break;
                }
            }
            Value::Array(items)
        }
        Some(b'"') => Value::String(String::from("…")),
        _ => Value::Null,
    }
}

/// A top-level record of the input: an item of a JSON list, the JSON
/// document itself, or a JSON Lines value.
#[derive(Debug, Clone)]
pub struct TopRecord {
    pub range: Range<usize>,
    /// JSONPath of the record (`$[3]` in a list; `$` for a document or a line).
    pub path: String,
    /// Bytes that could not be read as JSON (a broken line, or the rest of a
    /// document after a syntax error): kept so that nothing is lost.
    pub broken: bool,
}

/// The records of the input in source order, for formats whose records are
/// list items or lines alike. The core has already reported syntax errors.
pub fn top_records(input: &Input) -> Vec<TopRecord> {
    let b = input.bytes;
    let split = input.split;
    let mut records = Vec::new();
    let broken = |range: Range<usize>| TopRecord { range, path: "$".to_string(), broken: true };
    match split.layout {
        Layout::Json => {
            let Some(doc) = split.values.first() else { return records };
            let start = scan::skip_ws(b, doc.range.start);
            let complete = split.errors.is_empty() || doc.range.end < b.len();
            match b.get(start) {
                Some(b'[') => {
                    let (items, end) = scan::array_items_in(b, start, &split.ends);
                    for (i, r) in items.iter().enumerate() {
                        records.push(TopRecord { range: r.clone(), path: format!("$[{i}]"), broken: false });
                    }
                    if end.is_err() {
                        let from = items.last().map(|r| r.end).unwrap_or(start + 1);
                        records.push(broken(from..doc.range.end.max(from)));
                    }
                }
                _ if !complete => records.push(broken(doc.range.clone())),
                _ => records.push(TopRecord { range: doc.range.clone(), path: "$".to_string(), broken: false }),
            }
        }
        Layout::Jsonl => {
            for v in &split.values {
                records.push(TopRecord { range: v.range.clone(), path: "$".to_string(), broken: false });
            }
        }
    }
    // Both lists are in source order: merged, not sorted.
    let mut leftovers = split.leftovers.iter().cloned().map(broken).peekable();
    let mut merged = Vec::with_capacity(records.len() + split.leftovers.len());
    for r in records {
        while let Some(l) = leftovers.next_if(|l| l.range.start < r.range.start) {
            merged.push(l);
        }
        merged.push(r);
    }
    merged.extend(leftovers);
    merged
}

/// Collects what a format module reads.
pub struct Builder<'a> {
    pub bytes: &'a [u8],
    /// The same bytes, shared: what [`Builder::text`] points into.
    source: &'a Source,
    map: &'a SourceMap,
    pub runs: Vec<AgentRun>,
    pub events: Vec<Event>,
    pub diagnostics: Vec<Diagnostic>,
    pub metadata: Metadata,
    /// The whole input is valid UTF-8 (else readers check each record
    /// before reading it in place).
    pub utf8_valid: bool,
    /// [`crate::ParseOptions::exact_only`]: no fast paths.
    pub exact_only: bool,
    /// Set once an event past [`crate::limits::MAX_EVENTS`] was offered:
    /// the input is then refused as too large.
    pub too_many_events: bool,
    /// Diagnostics left out past [`crate::limits::MAX_DIAGNOSTICS`].
    pub dropped_diagnostics: usize,
    /// Records [`Builder::parse_record`] could not decode; those no event
    /// holds become unparsed events after the import ([`crate::integrity`]).
    pub failed_records: Vec<(Range<usize>, String)>,
    /// Records a format module read but could not place without losing
    /// something (e.g. a second dataset-metadata line that contradicts the
    /// first): kept whole as unparsed events, with why.
    pub set_aside: Vec<(Range<usize>, String, &'static str)>,
}

impl<'a> Builder<'a> {
    pub fn new(source: &'a Source, map: &'a SourceMap) -> Builder<'a> {
        Builder {
            bytes: source.as_slice(),
            source,
            map,
            runs: Vec::new(),
            events: Vec::new(),
            diagnostics: Vec::new(),
            metadata: Metadata::new(),
            utf8_valid: true,
            exact_only: false,
            too_many_events: false,
            dropped_diagnostics: 0,
            failed_records: Vec::new(),
            set_aside: Vec::new(),
        }
    }

    /// The string literal whose contents (between its quotes) are `inner`,
    /// left in the source; `escaped` when they hold a `\\` escape.
    pub fn text(&self, inner: Range<usize>, escaped: bool) -> Text {
        Text::in_source(self.source, inner, escaped)
    }

    /// The validated JSON value at `range`, left in the source and parsed
    /// when first read.
    pub fn json(&self, range: Range<usize>) -> LazyValue {
        LazyValue::in_source(self.source, range)
    }

    /// Keeps a diagnostic unless the cap is reached (then only counts it).
    fn push_diagnostic(&mut self, d: Diagnostic) {
        if self.diagnostics.len() < crate::limits::MAX_DIAGNOSTICS {
            self.diagnostics.push(d);
        } else {
            self.dropped_diagnostics += 1;
        }
    }

    /// Adds a diagnostic at a byte offset.
    pub fn diag(&mut self, severity: Severity, code: &'static str, message: String, path: String, offset: usize, event: Option<u32>) {
        let pos = self.map.position(self.bytes, offset);
        self.push_diagnostic(Diagnostic {
            severity,
            code,
            message,
            path,
            line: pos.line,
            column: pos.column,
            offset,
            event,
            snippet: None,
        });
    }

    /// Adds a diagnostic about the value at `segs` inside the record at `record`.
    #[allow(clippy::too_many_arguments)] // each is one fact of the diagnostic
    pub fn diag_in(&mut self, severity: Severity, code: &'static str, message: String, record: &Range<usize>, record_path: &str, segs: &[Seg], event: Option<u32>) {
        let offset = scan::find_path(self.bytes, record.start, segs);
        self.diag(severity, code, message, render_path(record_path, segs), offset, event);
    }

    pub fn syntax_error(&mut self, e: &SyntaxError, path: &str) {
        let pos = self.map.position(self.bytes, e.offset);
        let snippet = self.map.snippet(self.bytes, e.offset);
        self.push_diagnostic(Diagnostic {
            severity: Severity::Error,
            code: "json-syntax",
            message: format!("invalid JSON: {}", e.message),
            path: path.to_string(),
            line: pos.line,
            column: pos.column,
            offset: e.offset,
            event: None,
            snippet: Some(snippet),
        });
    }

    /// Parses one record; on failure records a diagnostic pointing into it.
    pub fn parse_record(&mut self, range: &Range<usize>, path: &str) -> Result<Value, String> {
        let slice = self.bytes.get(range.clone()).unwrap_or(&[]);
        match serde_json::from_slice::<Value>(slice) {
            Ok(v) => Ok(v),
            Err(e) => {
                self.failed_records.push((range.clone(), path.to_string()));
                // serde_json's line and column are relative to the slice.
                let mut offset = range.start;
                let mut line = 1usize;
                for (i, c) in slice.iter().enumerate() {
                    if line == e.line() {
                        offset = range.start + i;
                        break;
                    }
                    if *c == b'\n' {
                        line += 1;
                    }
                }
                offset = (offset + e.column().saturating_sub(1)).min(range.end);
                let message = describe_serde_error(&e);
                let pos = self.map.position(self.bytes, offset);
                let snippet = self.map.snippet(self.bytes, offset);
                self.push_diagnostic(Diagnostic {
                    severity: Severity::Error,
                    code: "json-invalid",
                    message: format!("invalid JSON: {message}"),
                    path: path.to_string(),
                    line: pos.line,
                    column: pos.column,
                    offset,
                    event: Some(crate::source::clamp_u32(self.events.len())),
                    snippet: Some(snippet),
                });
                Err(message)
            }
        }
    }

    pub fn begin_run(&mut self, id: String, metadata: Metadata, offset: Option<usize>) -> u32 {
        let n = crate::source::clamp_u32(self.events.len());
        self.runs.push(AgentRun {
            id,
            name: None,
            description: None,
            transcripts: vec![Transcript { key: "default".to_string(), events: n..n, metadata: Metadata::new() }],
            metadata,
            offset,
        });
        crate::source::clamp_u32(self.runs.len() - 1)
    }

    /// Starts a new transcript with `key` in the last run, for formats whose
    /// runs hold several transcripts; events pushed next belong to it. The
    /// run's initial "default" transcript is dropped while it is still empty.
    /// Returns the transcript's index within the run.
    pub fn begin_transcript(&mut self, key: String, metadata: Metadata) -> u32 {
        if self.runs.is_empty() {
            self.begin_run("run-0".to_string(), Metadata::new(), None);
        }
        let n = crate::source::clamp_u32(self.events.len());
        let Some(run) = self.runs.last_mut() else { return 0 };
        let untouched_default = run.transcripts.len() == 1
            && run.transcripts.first().is_some_and(|t| t.key == "default" && t.events.is_empty() && t.metadata.is_empty());
        if untouched_default {
            run.transcripts.clear();
        }
        run.transcripts.push(Transcript { key, events: n..n, metadata });
        crate::source::clamp_u32(run.transcripts.len() - 1)
    }

    /// Appends an event to the last run's last transcript; returns its index.
    /// Past [`crate::limits::MAX_EVENTS`] nothing is stored and the parse
    /// ends in a "too large" error.
    pub fn push_event(&mut self, body: EventBody, source_kind: &str, raw: Range<usize>, path: String, timestamp: Option<String>) -> u32 {
        if self.events.len() >= crate::limits::MAX_EVENTS {
            self.too_many_events = true;
            return crate::source::clamp_u32(self.events.len());
        }
        if self.runs.is_empty() {
            self.begin_run("run-0".to_string(), Metadata::new(), None);
        }
        let run = self.runs.len() - 1;
        let index = crate::source::clamp_u32(self.events.len());
        let transcript = self.runs.get(run).map(|r| r.transcripts.len().saturating_sub(1)).unwrap_or(0);
        let pos = self.map.position(self.bytes, raw.start);
        self.events.push(Event {
            run: crate::source::clamp_u32(run),
            transcript: crate::source::clamp_u32(transcript),
            body,
            source_kind: source_kind.to_string(),
            timestamp,
            raw,
            path,
            line: pos.line,
            column: pos.column,
            span: None,
            failed: false,
            metadata: Metadata::new(),
            facts: None,
        });
        if let Some(t) = self.runs.get_mut(run).and_then(|r| r.transcripts.last_mut()) {
            t.events.end = index + 1;
        }
        index
    }

    /// The event at `index`, to fill in what `push_event` does not take
    /// (span path, failure flag, metadata).
    pub fn event_mut(&mut self, index: u32) -> Option<&mut Event> {
        self.events.get_mut(index as usize)
    }
}

/// serde_json's message without its own "at line X column Y" suffix (we add ours).
/// serde_json's message without its own "at line X column Y" suffix (we add
/// ours), reworded where its words mislead.
pub fn describe_serde_error(e: &serde_json::Error) -> String {
    let s = e.to_string();
    let s = match s.rfind(" at line ") {
        Some(i) => s.get(..i).unwrap_or(&s).to_string(),
        None => s,
    };
    match s.as_str() {
        "invalid unicode code point" => {
            "a string holds bytes that are not valid UTF-8 (the file must be UTF-8)".to_string()
        }
        "lone leading surrogate in hex escape" | "unexpected end of hex escape" | "invalid escape" => {
            "a \\u escape is a lone UTF-16 surrogate (\\uD800-\\uDFFF must come in high-low pairs)".to_string()
        }
        "recursion limit exceeded" => {
            "nesting deeper than 128 levels is not read (the record's raw JSON is kept)".to_string()
        }
        _ => s,
    }
}

/// Names a JSON value's type the way messages say it ("an object", "a number").
pub fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}
