//! The builder a format module writes its runs, events and diagnostics
//! into. Its fields are private: formats go through the operations here,
//! which also hold what every format used to repeat — linking a tool result
//! to its call, warning about calls nothing answers, locating a value inside
//! a record for a diagnostic — once, in linear time.

use std::ops::Range;

use serde_json::Value;

use crate::diagnostic::{Diagnostic, Severity};
use crate::json::{render_path, scan, Seg, SyntaxError};
use crate::model::{AgentRun, CallRef, Event, EventBody, EventMetadata, LazyValue, Metadata, Source, Text, ToolCall, Transcript};
use crate::source::LazySourceMap;
use crate::source_kind::KindTable;

/// Collects what a format module reads.
pub struct Builder<'a> {
    bytes: &'a [u8],
    /// The same bytes, shared: what [`Builder::text`] points into.
    source: &'a Source,
    map: &'a LazySourceMap,
    runs: Vec<AgentRun>,
    events: Vec<Event>,
    /// One shared name per record kind (see [`crate::source_kind`]).
    kinds: KindTable,
    diagnostics: Vec<Diagnostic>,
    metadata: Metadata,
    /// The whole input is valid UTF-8 (else readers check each record
    /// before reading it in place).
    utf8_valid: bool,
    /// [`crate::ParseOptions::exact_only`]: no fast paths.
    exact_only: bool,
    /// See [`Builder::pending_bodies`].
    pending_bodies: Option<Vec<String>>,
    /// The split's hazards (sorted offsets of what serde_json refuses or
    /// reads otherwise): a record holding one is not left in the source.
    hazards: Vec<usize>,
    /// Set once an event past [`crate::limits::MAX_EVENTS`] was offered:
    /// the input is then refused as too large.
    too_many_events: bool,
    /// Diagnostics left out past [`crate::limits::MAX_DIAGNOSTICS`].
    dropped_diagnostics: usize,
    /// Records [`Builder::parse_record`] could not decode; those no event
    /// holds become unparsed events after the import ([`crate::integrity`]).
    failed_records: Vec<(Range<usize>, String)>,
    /// Records a format module read but could not place without losing
    /// something (e.g. a second dataset-metadata line that contradicts the
    /// first): kept whole as unparsed events, with why.
    set_aside: Vec<(Range<usize>, String, &'static str)>,
    /// The item offsets of the array [`Builder::locate`] last looked into.
    items: Option<ItemOffsets>,
}

/// Where the items of one array inside one record start.
struct ItemOffsets {
    record: usize,
    array: Vec<Seg>,
    starts: Vec<usize>,
}

/// A record that is not JSON serde_json can read (a diagnostic already
/// says where); `Display` gives serde_json's reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnreadableRecord {
    pub reason: String,
}

impl std::fmt::Display for UnreadableRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

/// What a finished import hands to the trace.
pub(crate) struct Built {
    pub runs: Vec<AgentRun>,
    pub events: Vec<Event>,
    pub diagnostics: Vec<Diagnostic>,
    pub metadata: Metadata,
    pub too_many_events: bool,
    pub dropped_diagnostics: usize,
}

/// A tool call and where a warning about it points: inside its event's
/// record at `segs` (`["tool_calls", 3]` for a call in a message; empty for
/// a standalone call).
#[derive(Debug, Clone)]
pub struct CallSite {
    pub call: CallRef,
    pub segs: Vec<Seg>,
}

impl<'a> Builder<'a> {
    pub fn new(source: &'a Source, map: &'a LazySourceMap) -> Builder<'a> {
        Builder {
            bytes: source.as_slice(),
            source,
            map,
            runs: Vec::new(),
            events: Vec::new(),
            kinds: KindTable::default(),
            diagnostics: Vec::new(),
            metadata: Metadata::new(),
            utf8_valid: true,
            exact_only: false,
            pending_bodies: None,
            hazards: Vec::new(),
            too_many_events: false,
            dropped_diagnostics: 0,
            failed_records: Vec::new(),
            set_aside: Vec::new(),
            items: None,
        }
    }

    /// Sets what the core learnt of the input before the import: whether it
    /// is valid UTF-8, and whether fast paths are allowed.
    pub(crate) fn set_input_facts(&mut self, utf8_valid: bool, exact_only: bool, hazards: &[usize]) {
        self.utf8_valid = utf8_valid;
        self.exact_only = exact_only;
        self.hazards = hazards.to_vec();
    }

    /// Makes room for more events, as many as the input seems to hold: the
    /// events so far, scaled by how far into the input the event at `at`
    /// ends (a sixteenth more for the variation), at least a quarter more
    /// (so growth stays geometric) and at most four times as many
    /// (an event made late from early bytes does not blow it up). Doubling
    /// instead copied every event made so far at each step and kept up to
    /// twice the room needed: a Codex parse of 81,842 events grew to room for
    /// 131,072, its reallocations 4% of the parse in V8's profile.
    fn grow_events(&mut self, at: usize) {
        let len = self.events.len();
        // In u64: on wasm32 the product of the counts overflows usize.
        let scaled = |n: usize| u64::try_from(n).unwrap_or(u64::MAX);
        let projected = scaled(len).saturating_mul(scaled(self.bytes.len())).checked_div(scaled(at)).unwrap_or(0);
        let projected = usize::try_from(projected).unwrap_or(usize::MAX);
        let want = projected.saturating_add(projected / 16).max(len.saturating_add(len / 4).max(16)).min(len.saturating_mul(4).max(16));
        self.events.reserve_exact(want.min(crate::limits::MAX_EVENTS).saturating_sub(len).max(1));
    }

    /// The input.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The whole input is valid UTF-8 (else readers check each record
    /// before reading it in place).
    pub fn utf8_valid(&self) -> bool {
        self.utf8_valid
    }

    /// [`crate::ParseOptions::exact_only`]: no fast paths.
    pub fn exact_only(&self) -> bool {
        self.exact_only
    }

    /// [`crate::ParseOptions::pending_bodies`]: an archive's run bodies were
    /// left out; its summaries stand for them.
    pub fn pending_bodies(&self) -> bool {
        self.pending_bodies.is_some()
    }

    /// Whether `member` is a body left unread (see [`Builder::pending_bodies`]).
    pub fn is_pending_body(&self, member: &str) -> bool {
        self.pending_bodies.as_ref().is_some_and(|names| names.binary_search_by(|n| n.as_str().cmp(member)).is_ok())
    }

    pub(crate) fn set_pending_bodies(&mut self, pending: Option<Vec<String>>) {
        self.pending_bodies = pending;
    }

    /// The line (1-based, in the whole source) of byte `offset`: builds the
    /// line map, which a clean input's parse otherwise never does.
    pub fn line_at(&self, offset: usize) -> u32 {
        self.map.position(self.bytes, offset).line
    }

    /// The events so far.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The index the next pushed event gets.
    pub fn next_event(&self) -> u32 {
        crate::source::clamp_u32(self.events.len())
    }

    /// The runs so far.
    pub fn runs(&self) -> &[AgentRun] {
        &self.runs
    }

    /// The run events are pushed into now.
    pub fn last_run_mut(&mut self) -> Option<&mut AgentRun> {
        self.runs.last_mut()
    }

    /// How many diagnostics were reported so far (to tell whether a step added one).
    pub fn diagnostic_count(&self) -> usize {
        self.diagnostics.len() + self.dropped_diagnostics
    }

    /// The file-level metadata (an Explorer dataset's first line).
    pub fn metadata(&self) -> &Metadata {
        &self.metadata
    }

    pub fn metadata_mut(&mut self) -> &mut Metadata {
        &mut self.metadata
    }

    /// Keeps a record the format read but cannot place without losing
    /// something: it becomes an unparsed event after the import, with `why`.
    pub fn set_aside(&mut self, range: Range<usize>, path: String, why: &'static str) {
        self.set_aside.push((range, path, why));
    }

    pub(crate) fn failed_records(&self) -> &[(Range<usize>, String)] {
        &self.failed_records
    }

    pub(crate) fn set_aside_records(&self) -> &[(Range<usize>, String, &'static str)] {
        &self.set_aside
    }

    pub(crate) fn diagnostics_mut(&mut self) -> &mut Vec<Diagnostic> {
        &mut self.diagnostics
    }

    /// Ends the import.
    pub(crate) fn finish(self) -> Built {
        Built {
            runs: self.runs,
            events: self.events,
            diagnostics: self.diagnostics,
            metadata: self.metadata,
            too_many_events: self.too_many_events,
            dropped_diagnostics: self.dropped_diagnostics,
        }
    }

    /// The string literal whose contents (between its quotes) are `inner`,
    /// left in the source; `escaped` when they hold a `\\` escape.
    pub fn text(&self, inner: Range<usize>, escaped: bool) -> Text {
        Text::in_source(self.source, inner, escaped)
    }

    /// The input, for a text a reader leaves in it some other way than
    /// [`Builder::text`] does.
    pub fn source(&self) -> &'a Source {
        self.source
    }

    /// The validated JSON value at `range`, left in the source and parsed
    /// when first read.
    pub fn json(&self, range: Range<usize>) -> LazyValue {
        LazyValue::in_source(self.source, range)
    }

    /// True when the record at `range`, already parsed by the caller, may
    /// have its event's metadata left in the source: serde_json reads it as
    /// it is (`fields::plain_record`), and fast paths are on (the exact path
    /// builds it at once, which `tests/fast_paths.rs` compares).
    pub fn can_defer_metadata(&self, range: &Range<usize>) -> bool {
        self.reads_fast(range)
    }

    /// True when a fast path may read the record at `range` from the bytes:
    /// fast paths are on and serde_json reads it as it is
    /// (`fields::plain_record`).
    pub fn reads_fast(&self, range: &Range<usize>) -> bool {
        !self.exact_only && crate::json::fields::plain_record(self.bytes, range, &self.hazards, self.utf8_valid)
    }

    /// An event's metadata left in the source: the validated record at
    /// `range`, turned into the metadata by `shape` with `extra` when first
    /// read (see [`EventMetadata`]).
    pub fn metadata_in_source(&self, range: Range<usize>, shape: crate::event_metadata::Shape, extra: Metadata) -> EventMetadata {
        EventMetadata::in_source(self.source, range, shape, extra)
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
        let offset = self.locate(record.start, segs);
        self.diag(severity, code, message, render_path(record_path, segs), offset, event);
    }

    /// Where `segs` lead inside the record starting at `record` (as far as
    /// they exist). Diagnostics about many items of one array (every call of
    /// a message) would each scan the record from its start, a square in the
    /// number of items: the item offsets of the last array looked into are
    /// kept, so each such lookup costs its item's size.
    pub fn locate(&mut self, record: usize, segs: &[Seg]) -> usize {
        let Some(k) = segs.iter().rposition(|s| matches!(s, Seg::Index(_))) else {
            return scan::find_path(self.bytes, record, segs);
        };
        let (array, rest) = segs.split_at(k);
        let (Some(Seg::Index(n)), rest) = (rest.first(), rest.get(1..).unwrap_or(&[])) else {
            return scan::find_path(self.bytes, record, segs);
        };
        let cached = self.items.as_ref().is_some_and(|c| c.record == record && c.array == array);
        if !cached {
            let starts = match exact_path(self.bytes, record, array) {
                Some(at) if self.bytes.get(at) == Some(&b'[') => scan::array_items(self.bytes, at).0.iter().map(|r| r.start).collect(),
                _ => Vec::new(),
            };
            self.items = Some(ItemOffsets { record, array: array.to_vec(), starts });
        }
        match self.items.as_ref().and_then(|c| c.starts.get(*n)) {
            Some(&item) => scan::find_path(self.bytes, item, rest),
            None => scan::find_path(self.bytes, record, segs),
        }
    }

    /// The tool call at `c`, in a message or standalone.
    pub fn call(&self, c: CallRef) -> Option<&ToolCall> {
        match &self.events.get(c.event as usize)?.body {
            EventBody::Message(m) => m.tool_calls.get(c.call as usize),
            EventBody::ToolCall(call) if c.call == 0 => Some(call),
            _ => None,
        }
    }

    /// The call at `c` has its result yet.
    pub fn answered(&self, c: CallRef) -> bool {
        self.call(c).is_some_and(|call| call.result.is_some())
    }

    /// Links the call at `c` to the result event `result`; a call keeps the
    /// first result that answers it (false when it had one already).
    pub fn link_result(&mut self, c: CallRef, result: u32) -> bool {
        let call = match self.events.get_mut(c.event as usize).map(|e| &mut e.body) {
            Some(EventBody::Message(m)) => m.tool_calls.get_mut(c.call as usize),
            Some(EventBody::ToolCall(call)) if c.call == 0 => Some(call),
            _ => None,
        };
        match call {
            Some(call) if call.result.is_none() => {
                call.result = Some(result);
                true
            }
            _ => false,
        }
    }

    /// Warns (`unanswered-tool-call`) about each call of `sites` that no
    /// result answered, with `message` naming it (`call to `f``, or `tool
    /// call` when it has no name) as the format words it.
    pub fn warn_unanswered(&mut self, sites: &[CallSite], message: impl Fn(&str) -> String) {
        for site in sites {
            let Some(call) = self.call(site.call) else { continue };
            if call.result.is_some() {
                continue;
            }
            let name = if call.function.is_empty() { "tool call".to_string() } else { format!("call to `{}`", call.function) };
            let Some(event) = self.events.get(site.call.event as usize) else { continue };
            let (path, start) = (render_path(&event.path, &site.segs), event.raw.start);
            let offset = self.locate(start, &site.segs);
            self.diag(Severity::Warning, "unanswered-tool-call", message(&name), path, offset, Some(site.call.event));
        }
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
    pub fn parse_record(&mut self, range: &Range<usize>, path: &str) -> Result<Value, UnreadableRecord> {
        let slice = self.bytes.get(range.clone()).unwrap_or(&[]);
        // The fast builder gives serde_json's value or nothing; serde_json
        // then reads the record again and says what is wrong with it.
        if !self.exact_only {
            if let Some(v) = crate::json::build::value(slice) {
                return Ok(v);
            }
        }
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
                let message = super::describe_serde_error(&e);
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
                Err(UnreadableRecord { reason: message })
            }
        }
    }

    pub fn begin_run(&mut self, id: String, metadata: Metadata, offset: Option<usize>) -> u32 {
        let n = crate::source::clamp_u32(self.events.len());
        self.runs.push(AgentRun {
            id,
            name: None,
            description: None,
            transcripts: vec![Transcript { key: "default".to_string(), events: n..n, metadata: Metadata::new(), retells: false }],
            metadata,
            offset,
            started_by: None,
            pending_body: None,
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
        run.transcripts.push(Transcript { key, events: n..n, metadata, retells: false });
        crate::source::clamp_u32(run.transcripts.len() - 1)
    }

    /// Marks the transcript begun last as retelling another of its run
    /// ([`Transcript::retells`]): its calls are not counted twice.
    pub fn mark_retelling(&mut self) {
        if let Some(t) = self.runs.last_mut().and_then(|r| r.transcripts.last_mut()) {
            t.retells = true;
        }
    }
    /// Keeps bytes no record could be read from as an `unparsed` event that
    /// says why, so that nothing of the input is lost (an empty range is
    /// nothing to keep).
    pub fn unparsed(&mut self, range: Range<usize>, path: &str, why: impl Into<String>) {
        if range.start < range.end {
            self.push_event(EventBody::Unparsed(why.into()), "unparsed", range, path.to_string(), None);
        }
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
        if self.events.len() == self.events.capacity() {
            self.grow_events(raw.end);
        }
        let run = self.runs.len() - 1;
        let index = crate::source::clamp_u32(self.events.len());
        let transcript = self.runs.get(run).map(|r| r.transcripts.len().saturating_sub(1)).unwrap_or(0);
        self.events.push(Event {
            run: crate::source::clamp_u32(run),
            transcript: crate::source::clamp_u32(transcript),
            body,
            source_kind: self.kinds.get(source_kind),
            timestamp,
            raw,
            path,
            span: None,
            failed: false,
            metadata: EventMetadata::default(),
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


/// Where `segs` lead inside the value at `start`, only if every step exists.
fn exact_path(b: &[u8], start: usize, segs: &[Seg]) -> Option<usize> {
    let mut at = scan::skip_ws(b, start);
    for seg in segs {
        at = match (seg, b.get(at)) {
            (Seg::Key(k), Some(b'{')) => scan::object_members(b, at).ok()?.into_iter().find(|(key, _)| key == k)?.1.start,
            (Seg::Index(n), Some(b'[')) => scan::array_items(b, at).0.get(*n)?.start,
            _ => return None,
        };
        at = scan::skip_ws(b, at);
    }
    Some(at)
}

/// The calls of one message that results without a call id answer in
/// order: each such result takes the first call still unanswered (of a
/// given function, when the result names one). The cursors only move
/// forward, since a call never becomes unanswered again, so n results cost
/// O(n) in all rather than O(n²).
#[derive(Debug, Default)]
pub struct CallQueue {
    all: Cursor,
    by_function: std::collections::HashMap<String, Cursor>,
}

#[derive(Debug, Default)]
struct Cursor {
    calls: Vec<CallRef>,
    next: usize,
}

impl Cursor {
    fn first_unanswered(&mut self, out: &Builder) -> Option<CallRef> {
        while let Some(&c) = self.calls.get(self.next) {
            if !out.answered(c) {
                return Some(c);
            }
            self.next += 1;
        }
        None
    }
}

impl CallQueue {
    /// Starts over with the calls of a new message.
    pub fn clear(&mut self) {
        self.all = Cursor::default();
        self.by_function.clear();
    }

    pub fn push(&mut self, call: CallRef, function: &str) {
        self.all.calls.push(call);
        self.by_function.entry(function.to_string()).or_default().calls.push(call);
    }

    /// The first unanswered call (of `function`, when given).
    pub fn first_unanswered(&mut self, out: &Builder, function: Option<&str>) -> Option<CallRef> {
        match function {
            None => self.all.first_unanswered(out),
            Some(f) => self.by_function.get_mut(f)?.first_unanswered(out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Events spread evenly over the input get room for about as many as it
    /// holds, not the next power of two; events that all end at the input's
    /// end (made in a late pass) still grow geometrically.
    #[test]
    fn events_get_the_room_the_input_projects() {
        let source: Source = std::sync::Arc::new(vec![b' '; 150_000]);
        let map = LazySourceMap::default();
        let mut out = Builder::new(&source, &map);
        for i in 0..1500 {
            out.push_event(EventBody::Unparsed(String::new()), "x", i * 100..i * 100 + 100, String::new(), None);
        }
        let room = out.events.capacity();
        assert!((1500..=1650).contains(&room), "room for {room} events");

        let mut late = Builder::new(&source, &map);
        let mut growths = 0;
        for _ in 0..10_000 {
            let before = late.events.capacity();
            late.push_event(EventBody::Unparsed(String::new()), "x", 0..150_000, String::new(), None);
            growths += usize::from(late.events.capacity() != before);
        }
        assert!(growths <= 40, "{growths} growths for 10,000 events");
    }
}
