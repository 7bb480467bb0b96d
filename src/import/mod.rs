//! Format modules: one per input format, behind the small [`Format`] trait.
//!
//! Adding a format means one file here and one line in [`FORMATS`]. A format
//! module sees the input already split into top-level JSON values (see
//! [`crate::json`]) and writes runs, events and diagnostics into a
//! [`Builder`]; it never touches the wasm layer or the UI.

pub mod agent_catalog;
pub mod codex;
pub mod claude_code;
pub mod format_view;
pub mod gemini_cli;
pub mod agentlens;
mod builder;
pub mod chat;
pub mod chat_bytes;
pub mod docent;
pub mod facts;
pub mod history;
pub mod inspect;
pub mod langfuse;
pub mod langsmith;
pub mod lookalike;
pub mod lookup;
pub mod openai;
pub mod openhands;
pub mod otel;
pub mod pydantic_lax;
pub mod swe_agent;

use std::ops::Range;

use serde_json::Value;

use crate::json::{scan, Layout, Split};
use crate::model::{Metadata, Trace};
pub use builder::{Builder, CallQueue, CallSite, UnreadableRecord};
pub(crate) use builder::Built;
pub use format_view::{FormatView, ViewInfo, ViewItem};

/// Every format the core reads, in detection order (ties go to the first).
pub static FORMATS: &[&dyn Format] = &[
    &inspect::Inspect,
    &openai::OpenAi,
    &docent::Docent,
    &openhands::OpenHands,
    &agent_catalog::AgentCatalog,
    &agentlens::AgentLens,
    &codex::Codex,
    &swe_agent::SweAgent,
    // Before claude-code, whose file groups would take a Gemini sub-agent's
    // `chats/<parent id>/<id>.jsonl` for a Claude Code session of its own
    // (`<uuid>.jsonl`); no sample matches both.
    &gemini_cli::GeminiCli,
    &claude_code::ClaudeCode,
    &otel::Otel,
    &langfuse::Langfuse,
    &langsmith::LangSmith,
];

/// How well a sample matched a format, and why.
#[derive(Debug, Clone)]
pub struct Score {
    /// 0.0–1.0.
    pub confidence: f32,
    pub evidence: Vec<String>,
}

/// See [`Format::lazy_member`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LazyMember {
    /// A run's body.
    Body,
    /// Summaries of the runs (and what else only the runs table needs).
    Summaries,
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
    /// True when the format's reference library reads `NaN`, `Infinity` and
    /// `-Infinity` in JSON (pydantic's JSON parser does): its input is then
    /// split in [`crate::json::Grammar::NonFinite`] and those numbers are
    /// read; every other format's reference refuses them, as the strict split
    /// does.
    fn reads_nonfinite(&self) -> bool {
        false
    }
    /// Where a file goes when several files are read as one trace
    /// ([`crate::parse_files`]): files are joined in the order of this key.
    /// The default orders by base name.
    fn file_order(&self, name: &str) -> FileOrder {
        FileOrder { group: 1, index: 0, name: base_name(name).to_string() }
    }
    /// Files that make one trace together when dropped or picked with
    /// others (a conversation folder with one event per file): the group the
    /// file at `path` belongs to, or `None` for a file that is a trace of
    /// its own. The page reads each group with [`crate::parse_files`].
    /// `head` is the file's first bytes (up to [`GROUP_HEAD_BYTES`], a line
    /// possibly cut), given when [`Format::file_group_reads_head`] asked for
    /// them and the caller could read them; without it, or when it says
    /// nothing, the path alone decides.
    fn file_group(&self, _path: &str, _head: Option<&[u8]>) -> Option<FileGroupKey> {
        None
    }
    /// True when [`Format::file_group`] of `path` may depend on the file's
    /// first bytes (a path that names no group, whose records name one):
    /// callers read heads only of those files, so that grouping a folder of
    /// thousands stays a matter of names.
    fn file_group_reads_head(&self, _path: &str) -> bool {
        false
    }
    /// What archive member `name` is to a lazy opening of the archive
    /// ([`crate::lazy::LazyArchive`]): a run's body, read only when the run
    /// is shown or searched, or the summaries that stand for the bodies
    /// until then (not needed to read one body). The format then reads the
    /// other members with [`crate::ParseOptions::pending_bodies`] and makes a
    /// run of each summary, naming its member in `AgentRun::pending_body`.
    /// Default: none (the archive is read whole).
    fn lazy_member(&self, _name: &str) -> Option<LazyMember> {
        None
    }

    /// The views this format offers besides the event list.
    fn views(&self) -> &'static [ViewInfo] {
        &[]
    }
    /// Computes view `name` (one of [`Format::views`]) of run `run`.
    fn view(&self, _trace: &Trace, _name: &str, _run: u32) -> Option<FormatView> {
        None
    }
    /// The run as a Docent AgentRun, when the format holds one of its own
    /// (its source is one, or a reference loader defines the mapping);
    /// `None` takes the mapping of the shared model
    /// ([`crate::agentrun::from_model`]).
    fn agent_run(&self, _trace: &Trace, _run: usize) -> Option<crate::agentrun::DocRun> {
        None
    }
}

/// The sort key of a file among the files of one trace: by `group`, then
/// `index`, then `name`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct FileOrder {
    pub group: u8,
    pub index: u64,
    pub name: String,
}

/// Which group of files a file belongs to ([`Format::file_group`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileGroupKey {
    /// Files with equal keys are one trace.
    pub key: String,
    /// What the group is called (a folder's name).
    pub label: String,
    /// What its files are, in the plural ("event files").
    pub what: &'static str,
}

/// Files read together as one trace, by their indices in the list given to
/// [`group_files`], and what the group is called.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FileGroup {
    pub name: String,
    pub files: Vec<usize>,
}

/// How many first bytes of a file grouping reads, at most
/// ([`Format::file_group`]'s `head`): enough for a record's first fields.
pub const GROUP_HEAD_BYTES: usize = 8192;

/// The indices of the `paths` whose first bytes [`group_files`] would use
/// ([`Format::file_group_reads_head`]): the only files a caller needs to
/// open before grouping.
pub fn group_heads_wanted(paths: &[String]) -> Vec<usize> {
    paths.iter().enumerate().filter(|(_, p)| FORMATS.iter().any(|f| f.file_group_reads_head(p))).map(|(i, _)| i).collect()
}

/// Groups files into traces: files some format claims for one group
/// ([`Format::file_group`]) together, in the order given; every other file
/// on its own. Groups come in the order of their first file. `heads` are
/// the files' first bytes by index (see [`group_heads_wanted`],
/// [`GROUP_HEAD_BYTES`]); a missing or `None` one leaves the path to
/// decide, so `&[]` groups by paths alone.
pub fn group_files(paths: &[String], heads: &[Option<&[u8]>]) -> Vec<FileGroup> {
    let mut groups: Vec<(Option<(String, FileGroupKey)>, FileGroup)> = Vec::new();
    let mut by_key: std::collections::HashMap<(String, String), usize> = std::collections::HashMap::new();
    for (i, path) in paths.iter().enumerate() {
        let head = heads.get(i).copied().flatten();
        let claim = FORMATS.iter().find_map(|f| f.file_group(path, head).map(|k| (f.id().to_string(), k)));
        match claim {
            Some((format, key)) => {
                let slot = *by_key.entry((format.clone(), key.key.clone())).or_insert_with(|| {
                    groups.push((Some((format, key)), FileGroup { name: String::new(), files: Vec::new() }));
                    groups.len() - 1
                });
                if let Some((_, g)) = groups.get_mut(slot) {
                    g.files.push(i);
                }
            }
            None => groups.push((None, FileGroup { name: base_name(path).to_string(), files: vec![i] })),
        }
    }
    groups
        .into_iter()
        .map(|(claim, mut g)| {
            match (claim, g.files.as_slice()) {
                (Some(_), [one]) => g.name = paths.get(*one).map(|p| base_name(p).to_string()).unwrap_or_default(),
                (Some((_, key)), files) => g.name = format!("{} ({} {})", key.label, files.len(), key.what),
                (None, _) => {}
            }
            g
        })
        .collect()
}

/// The last component of a `/` or `\\` separated path.
pub fn base_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// The run at `run` of the trace as a Docent AgentRun: the format's own
/// mapping when it has one, else the shared model's.
pub fn agent_run(trace: &Trace, run: usize) -> Option<crate::agentrun::DocRun> {
    trace.runs.get(run)?;
    by_id(trace.format).and_then(|f| f.agent_run(trace, run)).or_else(|| Some(crate::agentrun::from_model(trace, run)))
}

/// The format with id `id`.
pub fn by_id(id: &str) -> Option<&'static dyn Format> {
    FORMATS.iter().copied().find(|f| f.id() == id)
}

/// The input as a format module sees it.
pub struct Input<'a> {
    pub bytes: &'a [u8],
    pub split: &'a Split,
    /// The files joined into `bytes` when several are read as one trace
    /// ([`crate::parse_files`]): their names and byte ranges, for a format
    /// whose files say by their names what their records are (a Claude Code
    /// sub-agent's `agent-<id>.meta.json`). Empty for a single input.
    pub files: &'a [crate::model::SourceFile],
}

impl Input<'_> {
    /// The name of the file holding byte `offset`, when several files were joined.
    pub fn file_at(&self, offset: usize) -> Option<&str> {
        let i = self.files.partition_point(|f| f.range.end <= offset);
        self.files.get(i).filter(|f| f.range.contains(&offset)).map(|f| f.name.as_str())
    }
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
/// The largest value parsed whole while the budget lasts.
const SAMPLE_FULL_BYTES: usize = 64 * 1024;
/// What the whole sample may parse whole, all values together: 16 records
/// of 64 KB each were up to 1 MB of `Value`s, a tenth of the parse of a 10 MB
/// file (otel 28M of 224M instructions, inspect 33M of 306M). Past it,
/// values are kept by their structure ([`SAMPLE_SMALL_BYTES`] still whole).
const SAMPLE_BUDGET: usize = 192 * 1024;
/// A value this small is parsed whole even when the budget is spent: the
/// keys and short strings detection reads are in values like these.
const SAMPLE_SMALL_BYTES: usize = 2 * 1024;
/// Past this many bytes read (parsed whole, or long strings stepped over),
/// no further top-level value is sampled once [`SAMPLE_MIN_VALUES`] are: an
/// OTLP line is ~1 MB of spans whose long strings the structural walk still
/// has to step over (16 such lines were most of a 10 MB file's detection).
const SAMPLE_READ: usize = 512 * 1024;
const SAMPLE_MIN_VALUES: usize = 4;

/// How many items of a list the sample keeps: fewer once it has read its
/// fill (an Inspect log's 16 samples of 16 messages and 16 events each).
fn sample_items(cost: &SampleCost) -> usize {
    if cost.read >= SAMPLE_READ {
        SAMPLE_FEW_ITEMS
    } else {
        SAMPLE_ITEMS
    }
}
const SAMPLE_FEW_ITEMS: usize = 4;

/// What the sample has read so far.
#[derive(Default)]
struct SampleCost {
    /// Bytes of values parsed whole.
    whole: usize,
    /// Bytes read in all: parsed whole, or long strings stepped over.
    read: usize,
}
/// How deep the sample keeps the structure of a large value.
const SAMPLE_DEPTH: usize = 12;

impl Sample {
    /// The sampled records: the items of a top-level list, else the values
    /// themselves (a document or a line is one record).
    pub fn records(&self) -> impl Iterator<Item = &Value> {
        self.values.iter().flat_map(|v| match v {
            Value::Array(items) => items.iter(),
            other => std::slice::from_ref(other).iter(),
        })
    }

    pub fn new(bytes: &[u8], split: &Split) -> Sample {
        let mut cost = SampleCost::default();
        let mut values = Vec::new();
        for v in split.values.iter().take(SAMPLE_VALUES) {
            if values.len() >= SAMPLE_MIN_VALUES && cost.read >= SAMPLE_READ {
                break;
            }
            values.push(sample_value(bytes, v.range.clone(), 0, &split.ends, &mut cost));
        }
        Sample { layout: split.layout, values }
    }
}

/// Parses a value, cutting arrays to their first items and huge strings to a
/// placeholder once the value is too large to parse whole (or the sample's
/// `budget` of whole parses is spent). Containers the split recorded the end
/// of (`ends`) are jumped over, not scanned again.
fn sample_value(b: &[u8], range: Range<usize>, depth: usize, ends: &scan::ContainerEnds, cost: &mut SampleCost) -> Value {
    let start = scan::skip_ws(b, range.start);
    let slice = b.get(start..range.end).unwrap_or(&[]);
    let budget = SAMPLE_BUDGET.saturating_sub(cost.whole);
    if slice.len() <= SAMPLE_SMALL_BYTES || slice.len() <= SAMPLE_FULL_BYTES.min(budget) {
        if let Ok(v) = crate::json::build::from_slice(slice) {
            cost.whole += slice.len();
            cost.read += slice.len();
            return v;
        }
    }
    // Past the depth budget a large value is left out, parsed neither whole
    // (an OTLP line's span list sits five levels down and is most of the
    // line: detection parsed 16 such lines in full) nor by recursing, which
    // could go as deep as the input nests.
    if depth > SAMPLE_DEPTH {
        return Value::Null;
    }
    match b.get(start) {
        Some(b'{') => {
            let mut map = Metadata::new();
            if let Ok(members) = scan::object_members_in(b, start, ends) {
                for (k, r) in members {
                    map.insert(k, sample_value(b, r, depth + 1, ends, cost));
                }
            }
            Value::Object(map)
        }
        Some(b'[') => {
            let mut items = Vec::new();
            let mut i = scan::skip_ws(b, start + 1);
            while items.len() < sample_items(cost) && b.get(i) != Some(&b']') {
                let end = match (b.get(i), ends.end_of(i)) {
                    (Some(b'[' | b'{'), Some(end)) => end,
                    _ => match scan::scan_value(b, i) {
                        Ok(end) => end,
                        Err(_) => break,
                    },
                };
                items.push(sample_value(b, i..end, depth + 1, ends, cost));
                i = scan::skip_ws(b, end);
                if b.get(i) == Some(&b',') {
                    i = scan::skip_ws(b, i + 1);
                } else {
                    break;
                }
            }
            Value::Array(items)
        }
        Some(b'"') => {
            cost.read += slice.len();
            Value::String(String::from("…"))
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversation_event_files_group_and_other_files_stay_alone() {
        let paths: Vec<String> = [
            "run/conv-a/events/event-00001-x.json",
            "notes.json",
            "run/conv-a/events/event-00000-y.json",
            "run/conv-b/events/event-00000-z.json",
            "flat__conv-c__events__event-00003-q.json",
            "flat__conv-c__events__event-00004-r.json",
            "event-1-short.json",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let groups = group_files(&paths, &[]);
        let got: Vec<(&str, Vec<usize>)> = groups.iter().map(|g| (g.name.as_str(), g.files.clone())).collect();
        assert_eq!(
            got,
            [
                ("events (2 event files)", vec![0, 2]),
                ("notes.json", vec![1]),
                ("event-00000-z.json", vec![3]),
                ("flat__conv-c__events (2 event files)", vec![4, 5]),
                ("event-1-short.json", vec![6]),
            ]
        );
    }
    /// Detection's sample costs what a small file does however deep the
    /// bulk of a record sits: an OTLP line's spans are five levels down.
    #[test]
    fn the_sample_cuts_large_values_at_any_depth() {
        let big = format!(r#""{}""#, "x".repeat(SAMPLE_FULL_BYTES));
        let spans: Vec<String> = (0..40).map(|i| format!(r#"{{"name": "s{i}", "text": {big}}}"#)).collect();
        let deep = format!("{}{big}{}", "[".repeat(SAMPLE_DEPTH + 3), "]".repeat(SAMPLE_DEPTH + 3));
        let doc = format!(r#"{{"a": [{{"b": [{{"spans": [{}]}}]}}], "deep": {deep}}}"#, spans.join(", "));
        let split = crate::json::split(doc.as_bytes(), 0);
        let sample = Sample::new(doc.as_bytes(), &split);
        let spans = &sample.values[0]["a"][0]["b"][0]["spans"];
        // Each span steps over a 64 KB string: the list stops at the read fill.
        let kept = spans.as_array().map_or(0, Vec::len);
        assert_eq!(kept, SAMPLE_READ.div_ceil(SAMPLE_FULL_BYTES + 2), "{kept} spans kept");
        assert_eq!(spans[0], serde_json::json!({"name": "s0", "text": "…"}));
        let mut v = &sample.values[0]["deep"];
        for _ in 0..SAMPLE_DEPTH {
            assert!(v.is_array(), "the structure is kept down to the budget");
            v = &v[0];
        }
        assert_eq!(*v, Value::Null, "past the depth budget a large value is left out");
    }

    fn jsonl_sample(lines: &[String]) -> Sample {
        let text = lines.join("\n");
        let split = crate::json::split(text.as_bytes(), 0);
        Sample::new(text.as_bytes(), &split)
    }

    /// Small lines: the sample is the first [`SAMPLE_VALUES`], each whole.
    #[test]
    fn the_sample_of_small_lines_is_its_first_lines_whole() {
        let lines: Vec<String> = (0..40).map(|i| format!(r#"{{"type": "user", "n": {i}}}"#)).collect();
        let sample = jsonl_sample(&lines);
        assert_eq!(sample.values.len(), SAMPLE_VALUES);
        assert_eq!(sample.values[15], serde_json::json!({"type": "user", "n": 15}));
    }

    /// Lines of a megabyte (an OTLP export request each): past the read fill
    /// only [`SAMPLE_MIN_VALUES`] lines are sampled, not sixteen.
    #[test]
    fn the_sample_of_huge_lines_stops_at_its_read_fill() {
        let blob = "y".repeat(300 * 1024);
        let lines: Vec<String> = (0..20).map(|i| format!(r#"{{"type": "span", "n": {i}, "blob": "{blob}"}}"#)).collect();
        let sample = jsonl_sample(&lines);
        assert_eq!(sample.values.len(), SAMPLE_MIN_VALUES);
        assert_eq!(sample.values[3], serde_json::json!({"type": "span", "n": 3, "blob": "…"}));
    }

    /// Values under 64 KB are parsed whole while [`SAMPLE_BUDGET`] lasts; past
    /// it they keep their keys and short values, and long strings are cut.
    #[test]
    fn the_sample_parses_values_whole_within_its_budget() {
        let text = "z".repeat(40 * 1024);
        let lines: Vec<String> = (0..12).map(|i| format!(r#"{{"type": "message", "n": {i}, "text": "{text}"}}"#)).collect();
        let sample = jsonl_sample(&lines);
        let whole = SAMPLE_BUDGET / (40 * 1024 + 40);
        assert_eq!(sample.values.len(), 12, "12 lines of 40 KB are within the read fill of the first lines");
        for (i, v) in sample.values.iter().enumerate() {
            assert_eq!(v["type"], "message");
            assert_eq!(v["n"], i);
            let cut = v["text"] == "…";
            assert_eq!(cut, i >= whole, "line {i}: text cut {cut}");
        }
    }
}
