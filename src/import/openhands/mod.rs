//! OpenHands conversations: SDK events (openhands-sdk, `kind`-tagged) and the
//! older V0 trajectories (integer ids, `action`/`observation` records).
//!
//! SDK events are validated as openhands-sdk 1.58.2's `Event` union does (see
//! [`validate`]); every record becomes exactly one event, unknown kinds
//! included. Layouts: a JSON list of events, JSON Lines of events, one event
//! per file (a conversation's `events/` folder, read with
//! [`crate::parse_files`]), and eval outputs whose rows hold a `history` list
//! (one run per row). [`views`] derives the SDK's condensed view and LLM
//! message stream. The mapping onto the shared model is documented in
//! docs/formats/openhands.md.

mod format_views;
mod sdk;
mod v0;
pub mod validate;
pub mod views;

use std::ops::Range;

use serde_json::{Map, Value};

use super::{base_name, json_type, Builder, FileGroupKey, FileOrder, Format, FormatView, Input, Sample, Score, ViewInfo};
use crate::diagnostic::Severity::{Error, Info, Warning};
use crate::json::{scan, Layout};
use crate::model::Metadata;

pub use views::{condensed_view, llm_messages, CondensedView, LlmMessage, LlmMessages, ViewEntry};

pub struct OpenHands;

impl Format for OpenHands {
    fn id(&self) -> &'static str {
        "openhands"
    }

    fn name(&self) -> &'static str {
        "OpenHands events (SDK and V0 trajectories)"
    }

    fn detect(&self, sample: &Sample) -> Option<Score> {
        detect(sample)
    }

    /// The SDK's order of a conversation's files: `base_state.json`, then
    /// `event-NNNNN-<id>.json` by index, then any other file by name.
    fn file_order(&self, name: &str) -> FileOrder {
        let base = base_name(name);
        if base.ends_with("base_state.json") {
            return FileOrder { group: 0, index: 0, name: base.to_string() };
        }
        let index = base.rfind("event-").and_then(|i| {
            let rest = base.get(i + "event-".len()..)?;
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            let after = rest.get(digits.len()..)?;
            (digits.len() >= 5 && after.starts_with('-') && after.ends_with(".json")).then(|| digits.parse::<u64>().ok()).flatten()
        });
        match index {
            Some(i) => FileOrder { group: 1, index: i, name: base.to_string() },
            None => FileOrder { group: 2, index: 0, name: base.to_string() },
        }
    }

    /// A conversation folder's event files (`…/events/event-00012-<id>.json`,
    /// also inside longer names) are one trace: grouped by what precedes
    /// `event-`.
    fn file_group(&self, path: &str, _head: Option<&[u8]>) -> Option<FileGroupKey> {
        let base = base_name(path);
        let at = path.len() - base.len();
        let i = base.rfind("event-")?;
        let rest = base.get(i + "event-".len()..)?;
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let after = rest.get(digits..)?;
        if digits != 5 || !after.starts_with('-') || !after.ends_with(".json") || !(i == 0 || base.get(..i)?.ends_with('_')) {
            return None;
        }
        let key = path.get(..at + i)?.trim_end_matches(['_', '/']).to_string();
        let dir = key.rsplit('/').next().unwrap_or("");
        let label = if dir.is_empty() { "conversation".to_string() } else { dir.to_string() };
        Some(FileGroupKey { key, label, what: "event files" })
    }

    fn views(&self) -> &'static [ViewInfo] {
        &format_views::VIEWS
    }

    fn view(&self, trace: &crate::model::Trace, name: &str, run: u32) -> Option<FormatView> {
        format_views::view(trace, name, run)
    }

    fn import(&self, input: &Input, out: &mut Builder) {
        let b = out.bytes();
        // The objects that may repeat a key, by offset (complete only without a syntax error).
        let repeats = input.split.errors.is_empty().then(|| {
            let mut r = input.split.repeats.clone();
            r.sort_unstable();
            r
        });
        let mut reader = Reader { out, b, ends: &input.split.ends, hazards: &input.split.hazards, repeats: repeats.as_deref(), pending_metadata: None };
        match input.split.layout {
            Layout::Json => {
                if let Some(doc) = input.split.values.first() {
                    let complete = input.split.errors.is_empty() || doc.range.end < b.len();
                    reader.document(doc.range.clone(), complete);
                }
            }
            Layout::Jsonl => reader.lines(input),
        }
        reader.flush_pending_metadata();
    }
}

// ---------------------------------------------------------------------------
// Detection
// ---------------------------------------------------------------------------

#[derive(Default)]
struct Tally {
    records: usize,
    sdk: usize,
    sdk_unknown: usize,
    v0: usize,
    rows: usize,
    base_state: usize,
    python_repr: usize,
    kinds: Vec<String>,
}

fn detect(sample: &Sample) -> Option<Score> {
    let mut t = Tally::default();
    for record in sample.records() {
        tally_top(record, &mut t);
    }
    let matched = t.sdk + t.sdk_unknown + t.v0;
    if matched == 0 {
        if t.base_state > 0 {
            return Some(Score {
                confidence: 0.6,
                evidence: vec!["an OpenHands conversation `base_state.json` (`agent`, `execution_status`): conversation state, no events".to_string()],
            });
        }
        if t.python_repr > 0 {
            return Some(Score {
                confidence: 0.4,
                evidence: vec!["a JSON string holding Python repr() of OpenHands SDK objects".to_string()],
            });
        }
        return None;
    }
    let mut evidence = Vec::new();
    if t.sdk > 0 {
        crate::sort::by(&mut t.kinds, Ord::cmp);
        t.kinds.dedup();
        let shown: Vec<String> = t.kinds.iter().take(5).map(|k| format!("`{k}`")).collect();
        evidence.push(format!(
            "{} of {} sampled records are OpenHands SDK events: `kind` is an SDK event class ({}) with `id`/`timestamp`/`source`",
            t.sdk,
            t.records,
            shown.join(", ")
        ));
    }
    if t.sdk_unknown > 0 {
        evidence.push(format!("{} records have `kind`, `id`, `timestamp` and `source` with a kind unknown to openhands-sdk 1.58.2", t.sdk_unknown));
    }
    if t.v0 > 0 {
        evidence.push(format!("{} records are OpenHands V0 events: integer `id` with an `action` or `observation` name", t.v0));
    }
    if t.rows > 0 {
        evidence.push(format!("{} eval-output rows with a `history` list of events", t.rows));
    }
    Some(Score { confidence: matched as f32 / t.records.max(1) as f32, evidence })
}

fn tally_top(v: &Value, t: &mut Tally) {
    match v {
        Value::Object(o) if history_of(o).is_some() => {
            t.rows += 1;
            for e in history_of(o).unwrap_or(&[]) {
                match e {
                    Value::Array(pair) => pair.iter().for_each(|x| tally_event(x, t, true)),
                    other => tally_event(other, t, true),
                }
            }
        }
        Value::Object(o) if is_base_state(o) => t.base_state += 1,
        Value::String(s) if looks_like_python_repr(s) => t.python_repr += 1,
        other => tally_event(other, t, false),
    }
}

/// Counts one record. Inside a `history` list V0 records may lack ids (the oldest outputs).
fn tally_event(v: &Value, t: &mut Tally, in_history: bool) {
    t.records += 1;
    let Some(o) = v.as_object() else { return };
    match record_flavor(o) {
        Flavor::Sdk => {
            let kind = o.get("kind").and_then(Value::as_str).unwrap_or_default();
            if validate::schema().is_kind("Event", kind) {
                t.sdk += 1;
                t.kinds.push(kind.to_string());
            } else if ["id", "timestamp", "source"].iter().all(|k| o.contains_key(*k)) {
                t.sdk_unknown += 1;
            }
        }
        Flavor::V0 if in_history || o.get("id").is_some_and(Value::is_i64) => t.v0 += 1,
        _ => {}
    }
}

/// The `history` list of an eval-output row, when its items look like OpenHands events.
fn history_of(o: &Map<String, Value>) -> Option<&[Value]> {
    let items = o.get("history")?.as_array()?;
    let is_object_event = |e: &Value| e.as_object().is_some_and(|e| record_flavor(e) != Flavor::Other);
    // An event, or an `[action, observation]` pair of the oldest outputs.
    let is_event = |e: &Value| is_object_event(e) || e.as_array().and_then(|p| p.first()).is_some_and(is_object_event);
    if o.contains_key("kind") || (!items.is_empty() && !items.iter().take(3).any(is_event)) {
        return None;
    }
    Some(items)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flavor {
    Sdk,
    V0,
    Other,
}

fn record_flavor(o: &Map<String, Value>) -> Flavor {
    if o.get("kind").is_some_and(Value::is_string) {
        Flavor::Sdk
    } else if (o.get("action").is_some_and(Value::is_string) || o.get("observation").is_some_and(Value::is_string)) && !o.contains_key("role") {
        // A `role` makes it a chat message (SWE-agent histories carry `action` too).
        Flavor::V0
    } else {
        Flavor::Other
    }
}

/// A conversation's `base_state.json`: agent and state settings, no events.
fn is_base_state(o: &Map<String, Value>) -> bool {
    !o.contains_key("kind") && o.contains_key("agent") && (o.contains_key("execution_status") || o.contains_key("persistence_dir"))
}

/// `ConversationStateUpdate(key=…, value={'id': …})`: Python repr, not JSON.
fn looks_like_python_repr(s: &str) -> bool {
    let head: String = s.chars().take(200).collect();
    let class_call = head.split('(').next().is_some_and(|name| {
        !name.is_empty() && name.len() < 60 && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && name.starts_with(|c: char| c.is_ascii_uppercase())
    }) && head.contains('(');
    class_call || head.contains("': '") || head.contains("'kind': ")
}

// ---------------------------------------------------------------------------
// Walking the input
// ---------------------------------------------------------------------------

struct Reader<'r, 'a> {
    out: &'r mut Builder<'a>,
    b: &'a [u8],
    /// The split's container ends: records are jumped over, not rescanned.
    ends: &'r crate::json::ContainerEnds,
    /// The split's hazards: records holding one take the exact path.
    hazards: &'r [usize],
    /// The split's `repeats`, sorted; `None` when they may be incomplete.
    repeats: Option<&'r [usize]>,
    /// A `base_state.json` read before the events it describes.
    pending_metadata: Option<Metadata>,
}

impl<'r, 'a> Reader<'r, 'a> {
    /// True when a fast path may read the record at `r` from the bytes:
    /// serde_json would read it as the scanner did (it is valid UTF-8 and
    /// holds none of the split's hazards).
    fn fast_allowed(&self, r: &Range<usize>) -> bool {
        let Some(bytes) = self.b.get(r.clone()) else { return false };
        let first_hazard = self.hazards.partition_point(|h| *h < r.start);
        let hazard_inside = self.hazards.get(first_hazard).is_some_and(|h| *h < r.end);
        !self.out.exact_only() && !hazard_inside && (self.out.utf8_valid() || std::str::from_utf8(bytes).is_ok())
    }

    fn objects(&self) -> validate::Objects<'r> {
        validate::Objects { b: self.b, ends: self.ends, repeats: self.repeats }
    }

    fn first_byte(&self, r: &Range<usize>) -> Option<u8> {
        self.b.get(scan::skip_ws(self.b, r.start)).copied()
    }

    fn document(&mut self, range: Range<usize>, complete: bool) {
        let start = scan::skip_ws(self.b, range.start);
        match self.b.get(start) {
            Some(b'[') => {
                let (items, end) = scan::array_items_in(self.b, start, self.ends);
                if let Err(e) = &end {
                    if complete {
                        self.out.syntax_error(e, "$");
                    }
                }
                if items.first().is_some_and(|r| self.is_row(r)) {
                    for (i, item) in items.iter().enumerate() {
                        self.value_as_run(item.clone(), &format!("$[{i}]"));
                    }
                } else {
                    self.events_run(&items, "$", start, false);
                }
                if let Err(e) = end {
                    let from = items.last().map(|r| r.end).unwrap_or(start);
                    self.out.unparsed(from..self.b.len(), "$", format!("not read: invalid JSON from here ({})", e.message));
                }
            }
            Some(b'{') if complete => self.value_as_run(range, "$"),
            Some(b'"') if complete => self.string_document(range),
            _ if !complete => self.out.unparsed(range, "$", "not read: the document is not valid JSON".to_string()),
            _ => {
                let v = self.out.parse_record(&range, "$").unwrap_or(Value::Null);
                self.out.diag(
                    Error,
                    "not-a-trace",
                    format!("expected a list of OpenHands events, one event object, or rows with a `history` list; found {}", json_type(&v)),
                    "$".to_string(),
                    start,
                    None,
                );
                self.out.unparsed(range, "$", "not an OpenHands trace".to_string());
            }
        }
    }

    /// True for an eval-output row (`{history: [...]}`) or a nested list of events.
    fn is_row(&self, r: &Range<usize>) -> bool {
        match self.first_byte(r) {
            Some(b'[') => true,
            Some(b'{') => self.keys(r).iter().any(|k| k == "history") && !self.keys(r).iter().any(|k| k == "kind"),
            _ => false,
        }
    }

    fn keys(&self, r: &Range<usize>) -> Vec<String> {
        let start = scan::skip_ws(self.b, r.start);
        scan::object_members_in(self.b, start, self.ends).map(|m| m.into_iter().map(|(k, _)| k).collect()).unwrap_or_default()
    }

    /// A top-level value that is one run: a row, a list of events, a base state, or one event.
    fn value_as_run(&mut self, range: Range<usize>, path: &str) {
        let start = scan::skip_ws(self.b, range.start);
        match self.b.get(start) {
            Some(b'[') => {
                let (items, end) = scan::array_items_in(self.b, start, self.ends);
                self.events_run(&items, path, start, false);
                if let Err(e) = end {
                    self.out.syntax_error(&e, path);
                }
            }
            Some(b'{') => {
                if !self.out.exact_only() && self.fast_row(&range, start, path) {
                    return;
                }
                let Ok(mut v) = self.out.parse_record(&range, path) else {
                    self.out.unparsed(range, path, "invalid JSON".to_string());
                    return;
                };
                let Value::Object(o) = &mut v else { return };
                if history_of(o).is_some() || (o.contains_key("history") && !o.contains_key("kind")) {
                    self.row(start, o, path);
                } else if is_base_state(o) {
                    self.base_state(o, start, path);
                } else {
                    self.events_run(std::slice::from_ref(&range), path, start, true);
                }
            }
            _ => self.events_run(std::slice::from_ref(&range), path, start, true),
        }
    }

    fn lines(&mut self, input: &Input) {
        let mut loose: Vec<Range<usize>> = Vec::new();
        for v in &input.split.values {
            let range = v.range.clone();
            let keys = if self.first_byte(&range) == Some(b'{') { self.keys(&range) } else { Vec::new() };
            let has = |k: &str| keys.iter().any(|key| key == k);
            let own_run = (has("history") && !has("kind")) || (has("agent") && !has("kind") && (has("execution_status") || has("persistence_dir")));
            let event_list = self.first_byte(&range) == Some(b'[') && self.is_event_list(&range);
            if own_run || event_list {
                self.flush_loose(&mut loose);
                self.value_as_run(range, "$");
            } else {
                loose.push(range);
            }
        }
        self.flush_loose(&mut loose);
    }

    /// A JSONL line holding a list whose first item is an OpenHands event.
    fn is_event_list(&self, r: &Range<usize>) -> bool {
        let start = scan::skip_ws(self.b, r.start);
        let (items, _) = scan::array_items_in(self.b, start, self.ends);
        items.first().is_some_and(|first| {
            let s = scan::skip_ws(self.b, first.start);
            let slice = self.b.get(s..first.end).unwrap_or(&[]);
            crate::json::build::from_slice(slice).ok().and_then(|v| v.as_object().map(record_flavor)).is_some_and(|f| f != Flavor::Other)
        })
    }

    fn flush_loose(&mut self, loose: &mut Vec<Range<usize>>) {
        if loose.is_empty() {
            return;
        }
        let items = std::mem::take(loose);
        let start = items.first().map(|r| r.start).unwrap_or(0);
        self.events_run(&items, "$", start, true);
    }

    fn begin_run(&mut self, id: Option<String>, mut metadata: Metadata, offset: usize) -> u32 {
        if let Some(pending) = self.pending_metadata.take() {
            for (k, v) in pending {
                metadata.entry(k).or_insert(v);
            }
        }
        let n = self.out.runs().len();
        let id = id.or_else(|| metadata.get("id").and_then(Value::as_str).map(str::to_string)).unwrap_or_else(|| format!("run-{n}"));
        self.out.begin_run(id, metadata, Some(offset))
    }

    /// The events of one run: list items (paths `base[i]`) or JSONL lines (`per_line`: paths `$`).
    fn events_run(&mut self, items: &[Range<usize>], base: &str, offset: usize, per_line: bool) {
        self.begin_run(None, Metadata::new(), offset);
        self.events(items, base, per_line);
    }

    fn events(&mut self, items: &[Range<usize>], base: &str, per_line: bool) {
        let located: Vec<(Range<usize>, String)> = items
            .iter()
            .enumerate()
            .map(|(i, r)| (r.clone(), if per_line { base.to_string() } else { crate::json::item_path(base, i) }))
            .collect();
        self.located_events(&located, Vec::new());
    }

    /// The events at `items`; `parsed`, when it has one value per item, holds
    /// them already parsed (a row's history, taken from the parsed row).
    fn located_events(&mut self, items: &[(Range<usize>, String)], parsed: Vec<Value>) {
        let mut sdk = sdk::Run::default();
        let mut old = v0::Run::default();
        let mut parsed = (parsed.len() == items.len()).then(|| parsed.into_iter());
        for (r, path) in items {
            let v = parsed.as_mut().and_then(Iterator::next);
            self.event(r.clone(), path, v, &mut sdk, &mut old);
        }
        sdk.finish(self);
        old.finish(self);
    }

    fn event(&mut self, r: Range<usize>, path: &str, parsed: Option<Value>, sdk: &mut sdk::Run, old: &mut v0::Run) {
        if parsed.is_none() && sdk.fast_event(self, &r, path) {
            return;
        }
        let parsed = match parsed {
            Some(v) => Ok(v),
            None => self.out.parse_record(&r, path),
        };
        let v = match parsed {
            Ok(v) => v,
            Err(msg) => {
                self.out.unparsed(r, path, format!("invalid JSON: {msg}"));
                return;
            }
        };
        match &v {
            Value::Object(o) if record_flavor(o) == Flavor::V0 => old.event(self, o, r, path),
            Value::Object(o) if record_flavor(o) == Flavor::Other && old.active() => old.event(self, o, r, path),
            _ => sdk.event(self, &v, r, path),
        }
    }

    /// An eval-output row: one run, its `history` the events, the rest metadata.
    fn row(&mut self, start: usize, o: &mut Map<String, Value>, path: &str) {
        let mut metadata = Metadata::new();
        for (k, v) in o.iter() {
            if k != "history" {
                metadata.insert(k.clone(), v.clone());
            }
        }
        let id = o.get("instance_id").and_then(Value::as_str).map(str::to_string);
        let members = scan::object_members_in(self.b, start, self.ends).unwrap_or_default();
        // The history's events were parsed with the row: they are taken from
        // it rather than parsed again (half the parse), flattened as the
        // ranges are below. Only when the row names its history once (a
        // repeated key's value is the last, the ranges the first's). Not
        // with `exact_only`, so that the fast-path tests compare the two.
        let once = !self.out.exact_only() && members.iter().filter(|(k, _)| k == "history").count() == 1;
        let parsed: Vec<Value> = match o.get_mut("history").map(Value::take) {
            Some(Value::Array(items)) if once => items
                .into_iter()
                .flat_map(|item| match item {
                    Value::Array(pair) => pair,
                    other => vec![other],
                })
                .collect(),
            _ => Vec::new(),
        };
        let history = members.iter().find(|(k, _)| k == "history").map(|(_, r)| r.clone());
        self.row_events(start, path, id, metadata, history, parsed);
    }

    /// A row whose members are read from the bytes, not parsed as a whole:
    /// only the metadata members are parsed, and the history's events are
    /// each left to the fast path. False (nothing done) when the value at
    /// `range` is not a row, or holds an escaped or repeated key, or a
    /// hazard: then [`Reader::value_as_run`] reads it as a whole.
    fn fast_row(&mut self, range: &Range<usize>, start: usize, path: &str) -> bool {
        if !self.fast_allowed(range) {
            return false;
        }
        let mut members = Vec::new();
        if crate::json::read::members(self.b, start, self.ends, &mut members).is_none() {
            return false;
        }
        if !self.objects().plain_keys(start, &members) {
            return false;
        }
        let key = |m: &crate::json::read::Member| self.b.get(m.key.clone()).unwrap_or(&[]);
        let Some(history) = members.iter().find(|m| key(m) == b"history") else { return false };
        if members.iter().any(|m| key(m) == b"kind") {
            return false;
        }
        let mut metadata = Metadata::new();
        for m in members.iter().filter(|m| key(m) != b"history") {
            let Some(v) = self.b.get(m.value.clone()).and_then(crate::json::build::value) else { return false };
            metadata.insert(String::from_utf8_lossy(key(m)).into_owned(), v);
        }
        let id = metadata.get("instance_id").and_then(Value::as_str).map(str::to_string);
        let history = history.value.clone();
        self.row_events(start, path, id, metadata, Some(history), Vec::new());
        true
    }

    /// A row's run: its metadata, then the events of its `history` (at
    /// `history`; `parsed`, when not empty, holds them already parsed).
    fn row_events(&mut self, start: usize, path: &str, id: Option<String>, metadata: Metadata, history: Option<Range<usize>>, parsed: Vec<Value>) {
        self.begin_run(id, metadata, start);
        let hpath = format!("{path}.history");
        match history {
            Some(r) if self.first_byte(&r) == Some(b'[') => {
                let (items, end) = scan::array_items_in(self.b, scan::skip_ws(self.b, r.start), self.ends);
                // The oldest outputs hold `[action, observation]` pairs.
                let mut located = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    if self.first_byte(item) == Some(b'[') {
                        let (pair, _) = scan::array_items_in(self.b, scan::skip_ws(self.b, item.start), self.ends);
                        located.extend(pair.into_iter().enumerate().map(|(j, x)| (x, format!("{hpath}[{i}][{j}]"))));
                    } else {
                        located.push((item.clone(), format!("{hpath}[{i}]")));
                    }
                }
                self.located_events(&located, parsed);
                if let Err(e) = end {
                    self.out.syntax_error(&e, &hpath);
                }
            }
            Some(r) => {
                self.out.diag(Error, "history-not-list", "expected `history` to be a list of events".to_string(), hpath.clone(), r.start, None);
                self.out.unparsed(r, &hpath, "`history` is not a list".to_string());
            }
            None => {}
        }
    }

    /// `base_state.json`: the conversation's settings become run metadata.
    fn base_state(&mut self, o: &Map<String, Value>, start: usize, path: &str) {
        let mut metadata = Metadata::new();
        for (k, v) in o {
            metadata.insert(k.clone(), v.clone());
        }
        if let Some(model) = o.get("agent").and_then(|a| a.get("llm")).and_then(|l| l.get("model")) {
            metadata.insert("model".to_string(), model.clone());
        }
        self.out.diag(
            Info,
            "base-state",
            "this is a conversation's base_state.json (agent and state settings, no events); it is read as run metadata — load it together with the events/ folder to see the conversation".to_string(),
            path.to_string(),
            start,
            None,
        );
        match &mut self.pending_metadata {
            Some(m) => m.extend(metadata),
            None => self.pending_metadata = Some(metadata),
        }
    }

    /// A base state with no events after it still becomes a run, so its settings show.
    fn flush_pending_metadata(&mut self) {
        if let Some(m) = self.pending_metadata.take() {
            let n = self.out.runs().len();
            if let Some(run) = self.out.last_run_mut().filter(|_| n > 0) {
                for (k, v) in m {
                    run.metadata.entry(k).or_insert(v);
                }
            } else {
                let id = m.get("id").and_then(Value::as_str).map(str::to_string).unwrap_or_else(|| "run-0".to_string());
                self.out.begin_run(id, m, Some(0));
            }
        }
    }

    /// A whole document that is one JSON string: usually Python repr() pasted as JSON.
    fn string_document(&mut self, range: Range<usize>) {
        let start = scan::skip_ws(self.b, range.start);
        let s = self.out.parse_record(&range, "$").ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
        let (code, message) = if looks_like_python_repr(&s) {
            let head: String = s.chars().take(40).collect();
            (
                "python-repr",
                format!(
                    "the file is one JSON string holding Python repr() output ({head}…), not JSON events; re-export it with the SDK's model_dump_json() or the events/ folder"
                ),
            )
        } else {
            ("not-a-trace", "expected a list of OpenHands events, one event object, or rows with a `history` list; found a string".to_string())
        };
        self.out.diag(Error, code, message, "$".to_string(), start, None);
        self.out.unparsed(range, "$", "a string, not events".to_string());
    }

    fn warn_at(&mut self, code: &'static str, message: String, range: &Range<usize>, path: &str, segs: &[crate::json::Seg], event: u32) {
        self.out.diag_in(Warning, code, message, range, path, segs, Some(event));
    }
}

fn str_field<'v>(o: &'v Map<String, Value>, key: &str) -> Option<&'v str> {
    o.get(key).and_then(Value::as_str)
}
