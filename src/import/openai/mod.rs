//! OpenAI-style chat messages with tool calls: Invariant Explorer's trace format.
//!
//! Accepts and rejects what Invariant's own loader does
//! (`invariant.analyzer.runtime.input.Input` of PyPI `invariant-ai` 0.3.5),
//! which is more lenient than the format page: a JSON-string `arguments`
//! inside a message's `tool_calls` is decoded (with Python's `json.loads`
//! grammar, so `NaN` passes), a call's `id` is optional, content may be a
//! list of text/image chunks, a tool output's content may be an object, an
//! event with `type` but no `role` is a standalone tool call, a `{tools: [...]}`
//! event lists tools (each `inputSchema` is checked as Invariant converts it),
//! and a tool output without `tool_call_id` belongs to the last call. Some of
//! its checks are accidents of its code, mirrored all the same: `metadata:
//! null` fails (`"server" in None`), `metadata.server` replaces `server`
//! before validation, a call's `metadata` must be an object, a tool list's own
//! `metadata` is hardly looked at, and an empty string or object where a list
//! belongs reads as an empty list. What that loader rejects is an error here;
//! what it accepts but looks wrong is a warning. tests/openai_oracle.rs holds
//! us to the real library, trace by trace.
//!
//! Layouts: a JSON list of events; a `{messages, metadata}` object (an
//! Explorer row); a JSON list of such rows or of event lists; JSON Lines with
//! one trace per line (a list, or `{messages, metadata, …}`), where a line
//! holding only `metadata` is the dataset's metadata; JSON Lines of single
//! events (consecutive event lines form one trace).

mod events;
mod fast;
mod tools;

use std::collections::HashMap;
use std::ops::Range;

use serde_json::{Map, Value};

use super::{json_type, Builder, CallQueue, CallSite, Format, Input, Sample, Score};
use crate::diagnostic::Severity::{Error, Warning};
use crate::json::{scan, Layout, Seg};
use crate::model::{
    CallRef, ContentPart, Metadata,
};

pub struct OpenAi;

const KNOWN_ROLES: &[&str] = &["system", "user", "assistant", "tool", "function", "developer"];

impl Format for OpenAi {
    fn id(&self) -> &'static str {
        "openai"
    }

    fn name(&self) -> &'static str {
        "OpenAI chat messages (Invariant Explorer)"
    }

    fn detect(&self, sample: &Sample) -> Option<Score> {
        let mut events: Vec<&Value> = Vec::new();
        let mut rows = 0usize;
        for v in &sample.values {
            collect_sample_events(v, &mut events, &mut rows, 0);
        }
        if events.is_empty() {
            return None;
        }
        let mut with_role = 0usize;
        let mut known_role = 0usize;
        let mut with_calls = 0usize;
        let mut standalone = 0usize;
        for e in &events {
            let Some(o) = e.as_object() else { continue };
            if let Some(role) = o.get("role") {
                with_role += 1;
                if role.as_str().is_some_and(|r| KNOWN_ROLES.contains(&r)) {
                    known_role += 1;
                }
                if o.get("tool_calls").is_some_and(Value::is_array) {
                    with_calls += 1;
                }
            } else if o.contains_key("type") && o.get("function").is_some_and(Value::is_object) {
                standalone += 1;
            }
        }
        let matched = with_role + standalone;
        if matched == 0 {
            return None;
        }
        let mut evidence = vec![format!(
            "{known_role} of {} sampled records are chat messages with a `role` of system/user/assistant/tool",
            events.len()
        )];
        if with_role > known_role {
            evidence.push(format!("{} records have another or invalid `role`", with_role - known_role));
        }
        if with_calls > 0 {
            evidence.push(format!("{with_calls} messages carry `tool_calls`"));
        }
        if standalone > 0 {
            evidence.push(format!("{standalone} standalone tool calls (`type` + `function`)"));
        }
        if rows > 0 {
            evidence.push(format!("{rows} trace objects holding the messages (`messages`, `traj` or `trace`)"));
        }
        Some(Score { confidence: matched as f32 / events.len() as f32, evidence })
    }

    fn import(&self, input: &Input, out: &mut Builder) {
        let b = out.bytes();
        let split = input.split;
        let mut reader = Reader { out, b, ends: &input.split.ends, hazards: &input.split.hazards, scratch: fast::Scratch::default() };
        match split.layout {
            Layout::Json => {
                if let Some(doc) = split.values.first() {
                    let complete = split.errors.is_empty() || doc.range.end < b.len();
                    reader.document(doc.range.clone(), complete);
                }
            }
            Layout::Jsonl => reader.lines(input),
        }
    }
}

/// Gathers the event-like records of a sample value for detection.
fn collect_sample_events<'v>(v: &'v Value, events: &mut Vec<&'v Value>, rows: &mut usize, depth: usize) {
    match v {
        Value::Array(items) if depth < 2 => {
            for item in items {
                match item {
                    Value::Array(_) => collect_sample_events(item, events, rows, depth + 1),
                    // A row's object is no list level: its `messages` are one level below this list.
                    Value::Object(o) if o.contains_key("messages") && !o.contains_key("role") => {
                        collect_sample_events(item, events, rows, depth)
                    }
                    _ => events.push(item),
                }
            }
        }
        Value::Object(o) => {
            let list = ["messages", "traj", "trace"]
                .iter()
                .find_map(|k| o.get(*k).filter(|m| m.is_array()))
                .or_else(|| o.get("trace").and_then(|t| t.get("trace")).filter(|m| m.is_array()));
            if let Some(m) = list.filter(|_| !o.contains_key("role")) {
                *rows += 1;
                // The row's list is at the row's own level: a JSON list of rows holds its events two arrays down.
                collect_sample_events(m, events, rows, depth);
            } else if o.len() == 1 && o.contains_key("metadata") {
                // An Explorer dataset's metadata line: neutral.
            } else {
                events.push(v);
            }
        }
        _ => events.push(v),
    }
}

struct Reader<'r, 'a> {
    out: &'r mut Builder<'a>,
    b: &'a [u8],
    /// The split's container ends: records are jumped over, not rescanned.
    ends: &'r crate::json::ContainerEnds,
    /// The split's hazards: records holding one take the exact path.
    hazards: &'r [usize],
    scratch: fast::Scratch,
}

/// Linking state within one trace.
#[derive(Default)]
struct Links {
    by_id: HashMap<String, CallRef>,
    last: Option<CallRef>,
    /// Calls of the most recent message with calls, for id-less outputs answering parallel calls in order.
    group: CallQueue,
    /// Every call of the trace, with where it sits, to warn about unanswered ones.
    calls: Vec<CallSite>,
}

impl<'r, 'a> Reader<'r, 'a> {
    fn first_byte(&self, r: &Range<usize>) -> Option<u8> {
        self.b.get(scan::skip_ws(self.b, r.start)).copied()
    }

    /// One JSON document: a list of events, a list of traces, or one row.
    fn document(&mut self, range: Range<usize>, complete: bool) {
        match self.first_byte(&range) {
            Some(b'[') => {
                let (items, end) = scan::array_items_in(self.b, range.start, self.ends);
                if let Err(e) = &end {
                    if complete {
                        self.out.syntax_error(e, "$");
                    }
                }
                let is_list_of_traces = items.first().is_some_and(|first| self.is_trace_value(first));
                if is_list_of_traces {
                    for (i, item) in items.iter().enumerate() {
                        let path = format!("$[{i}]");
                        self.trace_value(item.clone(), &path);
                    }
                } else {
                    self.out.begin_run("run-0".to_string(), Metadata::new(), Some(range.start));
                    self.trace(&items, "$");
                }
                if let Err(e) = end {
                    // Keep what could not be read as one unparsed record.
                    let from = items.last().map(|r| r.end).unwrap_or(range.start);
                    self.out.unparsed(from..self.b.len(), "$", format!("not read: invalid JSON from here ({})", e.message));
                }
            }
            Some(b'{') if complete => self.trace_value(range, "$"),
            _ if !complete => self.out.unparsed(range, "$", "not read: the document is not valid JSON".to_string()),
            _ => self.scalar_trace(
                range,
                "$",
                "expected a list of chat messages, a {\"messages\": [...]} object, or JSON Lines of traces",
            ),
        }
    }

    /// A trace that is neither a list nor an object: a run holding it as one
    /// unparsed event. Invariant iterates it, so an empty string is an empty
    /// trace there, and anything else is rejected.
    fn scalar_trace(&mut self, range: Range<usize>, path: &str, expected: &str) {
        let start = scan::skip_ws(self.b, range.start);
        let v = self.out.parse_record(&range, path).unwrap_or(Value::Null);
        let n = self.out.runs().len();
        self.out.begin_run(format!("run-{n}"), Metadata::new(), Some(start));
        let index = Some(self.out.next_event());
        if reads_as_empty_trace(&v) {
            let message = format!("{expected}; found {}, which Invariant reads as an empty trace", describe_empty(&v));
            self.out.diag(Warning, "empty-non-list-trace", message, path.to_string(), start, index);
        } else {
            let message = format!("{expected}; found {}", json_type(&v));
            self.out.diag(Error, "not-a-trace", message, path.to_string(), start, index);
        }
        self.out.unparsed(range, path, "not a trace".to_string());
    }

    /// True for a list, or an object with `messages` that is not itself an event.
    fn is_trace_value(&self, r: &Range<usize>) -> bool {
        match self.first_byte(r) {
            Some(b'[') => true,
            Some(b'{') => {
                let start = scan::skip_ws(self.b, r.start);
                match scan::object_members_in(self.b, start, self.ends) {
                    Ok(m) => is_row(m.iter().map(|(k, _)| k.as_str())),
                    Err(_) => false,
                }
            }
            _ => false,
        }
    }

    fn lines(&mut self, input: &Input) {
        let mut loose_events: Vec<Range<usize>> = Vec::new();
        let mut list_rows = 0usize;
        let mut object_rows = 0usize;
        for v in &input.split.values {
            // Paths are inside the line's value; diagnostics carry the line.
            let path = "$".to_string();
            let range = v.range.clone();
            let is_event = match self.first_byte(&range) {
                Some(b'{') => {
                    let start = scan::skip_ws(self.b, range.start);
                    let keys: Vec<String> =
                        scan::object_members_in(self.b, start, self.ends).map(|m| m.into_iter().map(|(k, _)| k).collect()).unwrap_or_default();
                    let has = |k: &str| keys.iter().any(|key| key == k);
                    if is_row(keys.iter().map(String::as_str)) {
                        object_rows += 1;
                        false
                    } else if keys.len() == 1 && has("metadata") {
                        self.flush_loose(&mut loose_events);
                        self.dataset_metadata(range.clone(), &path);
                        continue;
                    } else {
                        true
                    }
                }
                Some(b'[') => {
                    list_rows += 1;
                    false
                }
                _ => true,
            };
            if is_event {
                loose_events.push(range);
            } else {
                self.flush_loose(&mut loose_events);
                self.trace_value(range, &path);
            }
        }
        self.flush_loose(&mut loose_events);
        if list_rows > 0 && object_rows > 0 {
            self.out.diag(
                Warning,
                "mixed-jsonl-rows",
                format!(
                    "this file mixes {list_rows} list rows and {object_rows} {{\"messages\": ...}} rows; Invariant Explorer rejects uploads that mix the two"
                ),
                "$".to_string(),
                input.split.values.first().map(|v| v.range.start).unwrap_or(0),
                None,
            );
        }
    }

    /// JSON Lines of single events: consecutive event lines form one trace.
    fn flush_loose(&mut self, events: &mut Vec<Range<usize>>) {
        if events.is_empty() {
            return;
        }
        let n = self.out.runs().len();
        self.out.begin_run(format!("run-{n}"), Metadata::new(), events.first().map(|r| r.start));
        let items = std::mem::take(events);
        let mut links = Links::default();
        for r in &items {
            self.event(r.clone(), "$".to_string(), &mut links);
        }
        self.finish_links(links);
    }

    fn dataset_metadata(&mut self, range: Range<usize>, path: &str) {
        if let Ok(Value::Object(o)) = self.out.parse_record(&range, path) {
            if let Some(Value::Object(m)) = o.get("metadata") {
                // A later metadata line adds keys; one that contradicts an
                // earlier line is kept whole as an unparsed record (Explorer
                // reads one dataset-metadata line), never merged over it.
                let clash = m.iter().find(|(k, v)| self.out.metadata().get(*k).is_some_and(|old| old != *v)).map(|(k, _)| k.clone());
                if let Some(k) = clash {
                    let message = format!("dataset metadata given again, with a different `{k}`: this line is kept as an unparsed record; the first one holds");
                    self.out.diag(Warning, "repeated-dataset-metadata", message, path.to_string(), range.start, None);
                    self.out.set_aside(range, path.to_string(), "dataset metadata contradicting an earlier line");
                    return;
                }
                for (k, v) in m {
                    self.out.metadata_mut().insert(k.clone(), v.clone());
                }
            } else {
                let v = o.get("metadata").cloned().unwrap_or(Value::Null);
                if self.out.metadata().get("metadata").is_some_and(|old| *old != v) {
                    let message = "dataset metadata given again, with a different value: this line is kept as an unparsed record; the first one holds".to_string();
                    self.out.diag(Warning, "repeated-dataset-metadata", message, path.to_string(), range.start, None);
                    self.out.set_aside(range, path.to_string(), "dataset metadata contradicting an earlier line");
                    return;
                }
                self.out.metadata_mut().insert("metadata".to_string(), v);
            }
        }
    }

    /// A trace given as a list of events or as a `{messages, …}` row.
    fn trace_value(&mut self, range: Range<usize>, path: &str) {
        let start = scan::skip_ws(self.b, range.start);
        match self.b.get(start) {
            Some(b'[') => {
                let (items, end) = scan::array_items_in(self.b, start, self.ends);
                let n = self.out.runs().len();
                self.out.begin_run(format!("run-{n}"), Metadata::new(), Some(start));
                self.trace(&items, path);
                if let Err(e) = end {
                    self.out.syntax_error(&e, path);
                }
            }
            Some(b'{') => self.row(start, path),
            _ => self.scalar_trace(range, path, "expected a trace (a list of messages or a {\"messages\": [...]} object)"),
        }
    }

    /// An Explorer row `{messages, metadata, id?, index?, annotations?, …}`,
    /// or a wrapper holding the event list under `traj` (tau-bench results) or
    /// `trace` / `trace.trace` (invariant-testing results).
    fn row(&mut self, start: usize, path: &str) {
        let members = match scan::object_members_in(self.b, start, self.ends) {
            Ok(m) => m,
            Err(e) => {
                self.out.syntax_error(&e, path);
                return;
            }
        };
        let mut metadata = Metadata::new();
        // Names taken by row fields and by keys of the row's `metadata`.
        let mut row_fields: std::collections::HashSet<&str> = std::collections::HashSet::new();
        let mut metadata_keys: std::collections::HashSet<String> = std::collections::HashSet::new();
        let mut id: Option<String> = None;
        let mut messages: Option<(Range<usize>, String)> = None;
        let list_key = ["messages", "traj", "trace"]
            .into_iter()
            .find(|k| members.iter().any(|(key, r)| key == k && (*k == "messages" || self.first_byte(r) == Some(b'['))));
        let nested_trace = list_key.is_none()
            && members.iter().any(|(key, r)| key == "trace" && self.first_byte(r) == Some(b'{'));
        for (key, r) in &members {
            let member_path = crate::json::render_path(path, &[Seg::Key(key.clone())]);
            if Some(key.as_str()) == list_key {
                messages = Some((r.clone(), member_path));
                continue;
            }
            if nested_trace && key == "trace" {
                // invariant-testing: {name, trace: {trace: [...], metadata}, passed, assertions}
                let inner = scan::object_members_in(self.b, scan::skip_ws(self.b, r.start), self.ends).unwrap_or_default();
                for (k, ir) in inner {
                    let inner_path = crate::json::render_path(&member_path, &[Seg::Key(k.clone())]);
                    if (k == "trace" || k == "messages") && messages.is_none() && self.first_byte(&ir) == Some(b'[') {
                        messages = Some((ir, inner_path));
                    } else if let Ok(v) = self.out.parse_record(&ir, &inner_path) {
                        match (k.as_str(), v) {
                            ("metadata", Value::Object(m)) => metadata.extend(m),
                            (_, v) => {
                                metadata.insert(format!("trace.{k}"), v);
                            }
                        }
                    }
                }
                continue;
            }
            let Ok(v) = self.out.parse_record(r, &member_path) else { continue };
            match (key.as_str(), v) {
                ("metadata", Value::Object(m)) => {
                    for (k, v) in m {
                        // `metadata`'s key wins its name; a row field of
                        // the same name moves to `row.<key>`.
                        // `row.<key>`, unless the two are equal (as our own
                        // export writes `id`).
                        if row_fields.contains(k.as_str()) && !metadata_keys.contains(&k) && metadata.get(&k) != Some(&v) {
                            if let Some(old) = metadata.remove(&k) {
                                metadata.insert(format!("row.{k}"), old);
                            }
                        }
                        metadata_keys.insert(k.clone());
                        metadata.insert(k, v);
                    }
                }
                ("metadata", Value::Null) => {
                    // No metadata, said explicitly: kept as said (nothing
                    // in the input goes unrepresented).
                    match metadata.get("metadata") {
                        None => _ = metadata.insert("metadata".to_string(), Value::Null),
                        Some(Value::Null) => {}
                        Some(_) => _ = metadata.insert("row.metadata".to_string(), Value::Null),
                    }
                }
                ("metadata", other) => {
                    // Invariant is given only `messages`; a row's metadata never reaches it.
                    self.out.diag(
                        Warning,
                        "row-metadata-type",
                        format!("expected the trace's `metadata` to be an object, found {}", json_type(&other)),
                        member_path,
                        r.start,
                        None,
                    );
                    metadata.insert("metadata".to_string(), other);
                }
                (_, v) => {
                    if let ("id", Value::String(s)) = (key.as_str(), &v) {
                        id = Some(s.clone());
                    }
                    // A field repeated in the row: the last one is read, as
                    // Python's json reads it (the duplicate-key warning quotes
                    // the earlier value). A name `metadata` also has goes to
                    // `row.<key>`, so neither value is lost.
                    row_fields.insert(key.as_str());
                    if metadata_keys.contains(key) {
                        if metadata.get(key) != Some(&v) {
                            metadata.insert(format!("row.{key}"), v);
                        }
                    } else {
                        metadata.insert(key.clone(), v);
                    }
                }
            }
        }
        let n = self.out.runs().len();
        self.out.begin_run(id.unwrap_or_else(|| format!("run-{n}")), metadata, Some(start));
        match messages {
            Some((r, mpath)) => {
                match self.first_byte(&r) {
                    Some(b'[') => {
                        let (items, end) = scan::array_items_in(self.b, r.start, self.ends);
                        self.trace(&items, &mpath);
                        if let Err(e) = end {
                            self.out.syntax_error(&e, &mpath);
                        }
                    }
                    _ => {
                        let v = self.out.parse_record(&r, &mpath).unwrap_or(Value::Null);
                        let index = Some(self.out.next_event());
                        if reads_as_empty_trace(&v) {
                            let message = format!(
                                "expected `messages` to be a list of events; found {}, which Invariant reads as an empty trace",
                                describe_empty(&v)
                            );
                            self.out.diag(Warning, "empty-non-list-trace", message, mpath.clone(), r.start, index);
                        } else {
                            let message = format!("expected `messages` to be a list of events, found {}", json_type(&v));
                            self.out.diag(Error, "messages-not-list", message, mpath.clone(), r.start, index);
                        }
                        self.out.unparsed(r, &mpath, "`messages` is not a list".to_string());
                    }
                }
            }
            None => self.out.diag(
                Error,
                "missing-messages",
                "expected a `messages` list in this trace object".to_string(),
                path.to_string(),
                start,
                None,
            ),
        }
    }

    /// The events of one trace (the run was begun by the caller).
    fn trace(&mut self, items: &[Range<usize>], base: &str) {
        let mut links = Links::default();
        for (i, r) in items.iter().enumerate() {
            self.event(r.clone(), crate::json::item_path(base, i), &mut links);
        }
        self.finish_links(links);
    }

}

struct Ctx {
    range: Range<usize>,
    path: String,
    index: u32,
}

/// Why a content chunk is not one of Invariant's `TextChunk | Image`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ChunkError {
    NotAnObject { found: &'static str },
    NestedField { field: &'static str, why: String },
    NoType,
    ImageUrlNotStrings,
    NoTextOrImage { kind: String },
}

impl std::fmt::Display for ChunkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChunkError::NotAnObject { found } => write!(f, "expected a content part object such as {{\"type\": \"text\", \"text\": …}}, found {found}"),
            ChunkError::NestedField { field, why } => write!(f, "content part `{field}`: {why}"),
            ChunkError::NoType => f.write_str("content part has no string `type`"),
            ChunkError::ImageUrlNotStrings => f.write_str("`image_url` values must all be strings"),
            ChunkError::NoTextOrImage { kind } => write!(f, "content part of type {kind:?} has neither a string `text` nor an `image_url` object"),
        }
    }
}

/// A content chunk as Invariant's `TextChunk | Image` union accepts it.
fn chunk(v: &Value) -> Result<ContentPart, ChunkError> {
    let Some(o) = v.as_object() else {
        return Err(ChunkError::NotAnObject { found: json_type(v) });
    };
    // Chunks are Invariant events too, with an optional `metadata` object and `server` string.
    if let Some((field, why)) = nested_event_fields(o, true) {
        return Err(ChunkError::NestedField { field, why });
    }
    let Some(kind) = o.get("type").and_then(Value::as_str) else {
        return Err(ChunkError::NoType);
    };
    if let Some(text) = o.get("text").and_then(Value::as_str) {
        return Ok(match kind {
            "reasoning" | "thinking" => ContentPart::Reasoning(text.into()),
            _ => ContentPart::Text(text.into()),
        });
    }
    if let Some(image) = o.get("image_url").and_then(Value::as_object) {
        if image.values().all(Value::is_string) {
            let url = image.get("url").and_then(Value::as_str).unwrap_or_default().to_string();
            return Ok(ContentPart::Image { url: url.into() });
        }
        return Err(ChunkError::ImageUrlNotStrings);
    }
    Err(ChunkError::NoTextOrImage { kind: kind.to_string() })
}

/// What is wrong with the optional `metadata` (object) and `server` (string)
/// of an Invariant event nested in another (a chunk, a call in `tool_calls`).
fn nested_event_fields(o: &Map<String, Value>, metadata_nullable: bool) -> Option<(&'static str, String)> {
    if let Some(m) = o.get("metadata").filter(|m| !(m.is_object() || (metadata_nullable && m.is_null()))) {
        return Some(("metadata", format!("expected `metadata` to be an object, found {}", json_type(m))));
    }
    if let Some(s) = o.get("server").filter(|s| !s.is_string() && !s.is_null()) {
        return Some(("server", format!("expected `server` to be a string, found {}", json_type(s))));
    }
    None
}

/// True for an object holding `messages` that Invariant would not read as an event.
/// A trace object: the messages under `messages`, or a wrapper holding them
/// under `traj` (tau-bench) or `trace` (invariant-testing), and not itself an event.
fn is_row<'k>(mut keys: impl Iterator<Item = &'k str> + Clone) -> bool {
    keys.clone().any(|k| k == "messages" || k == "traj" || k == "trace")
        && !keys.any(|k| k == "role" || k == "type" || k == "tools")
}

/// Invariant iterates a trace; an empty string or object iterates as no events.
fn reads_as_empty_trace(v: &Value) -> bool {
    match v {
        Value::String(s) => s.is_empty(),
        Value::Object(m) => m.is_empty(),
        _ => false,
    }
}

fn describe_empty(v: &Value) -> &'static str {
    if v.is_string() {
        "an empty string"
    } else {
        "an empty object"
    }
}

