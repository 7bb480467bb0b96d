//! Reads rollout lines in order: runs from `session_meta`, then one event per
//! line, dispatched on `type` ([`super::items`] for `response_item`,
//! [`super::events`] for `event_msg`).

use std::cell::Cell;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::ops::Range;

use serde_json::{Map, Value};

use super::usage::Tally;
use super::RECORD_TYPES;
use crate::diagnostic::Severity::{self, Error, Warning};
use crate::import::{json_type, top_records, Builder, CallSite, Input};
use crate::json::{Layout, Seg};
use super::fast::{Bytes, FastItem, FastLine, Head, Scratch, Surveyed};
use crate::model::{CallRef, EventBody, KeyValue, Marker, Message, Metadata};

/// A text that an `event_msg` may mirror: who said it and what.
pub type MirrorKey = (&'static str, String);

/// Texts of response-item messages and reasoning, with how many times each
/// occurs by who says it: an `event_msg` with one of them mirrors that item.
/// Looked up by `&str`, so that an event's text is not copied to be looked up.
#[derive(Default)]
pub struct Mirrors(Lookup<String, [usize; 3]>);

/// The reader's tables (the mirrors hash the text of every message: with
/// std's SipHash they were 8% of a parse).
use crate::import::lookup::Lookup;

impl Mirrors {
    fn slot(who: &str) -> usize {
        match who {
            "user" => 0,
            "assistant" => 1,
            _ => 2,
        }
    }

    pub fn add(&mut self, (who, text): MirrorKey) {
        if let Some(n) = self.0.entry(text).or_default().get_mut(Self::slot(who)) {
            *n += 1;
        }
    }

    /// Takes one occurrence of `text` said by `who`: true if there was one.
    pub fn take(&mut self, who: &str, text: &str) -> bool {
        match self.0.get_mut(text).and_then(|n| n.get_mut(Self::slot(who))) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        }
    }
}

/// Where diagnostics about the line being read go.
pub struct Line<'p> {
    pub range: Range<usize>,
    pub path: &'p str,
    /// The index its event gets.
    pub event: u32,
    /// Its string `timestamp`, moved into its event by [`Reader::push`]
    /// (a line has one event: cloning it was an allocation a line).
    timestamp: Cell<Option<String>>,
    /// It has a string `timestamp`.
    pub timestamped: bool,
}

impl<'p> Line<'p> {
    pub fn new(range: Range<usize>, path: &'p str, event: u32, timestamp: Option<String>) -> Line<'p> {
        Line { range, path, event, timestamped: timestamp.is_some(), timestamp: Cell::new(timestamp) }
    }
}

/// What reading one session needs besides the builder.
#[derive(Default)]
pub struct Session {
    pub tally: Tally,
    /// Calls by `call_id`, to link outputs to.
    pub calls: Lookup<String, CallRef>,
    /// Calls an output should answer, in order, for the warning at the end.
    pub sites: Vec<CallSite>,
}

pub struct Reader<'r, 'a> {
    pub out: &'r mut Builder<'a>,
    pub mirrors: Mirrors,
    pub session: Session,
}

/// The ids of every `session_meta` of the input, and the parent each names.
pub struct Sessions {
    ids: HashSet<String>,
    children: HashMap<String, Vec<String>>,
}

pub fn read(input: &Input, out: &mut Builder) {
    let records = records(input);
    let mut scratch = Scratch::default();
    // The objects that may repeat a key, sorted, when the split found them all.
    let repeats = input.split.errors.is_empty().then(|| {
        let mut r = input.split.repeats.clone();
        r.sort_unstable();
        r
    });
    let (mirrors, sessions, heads, kept) = survey(input, out, &records, repeats.as_deref(), &mut scratch);
    let mut kept = kept.into_iter().peekable();
    let mut reader = Reader { out, mirrors, session: Session::default() };
    // Each line is read (or parsed) in turn and its value dropped: the
    // values of the whole file are never held at once.
    for (index, (r, head)) in records.iter().zip(heads).enumerate() {
        if r.broken {
            reader.out.unparsed(r.range.clone(), &r.path, "not read: invalid JSON");
            continue;
        }
        let bytes = Bytes { out: reader.out, b: input.bytes, ends: &input.split.ends, repeats: repeats.as_deref() };
        // A `session_meta` payload the survey parsed: not parsed again.
        let payload = if head.is_some() { kept.next_if(|(at, _)| *at == index).map(|(_, p)| p) } else { None };
        if let Some((head, payload)) = head.as_ref().zip(payload) {
            let line = Line::new(r.range.clone(), &r.path, reader.out.next_event(), Some(head.timestamp(&bytes)));
            reader.dispatch(&line, "session_meta", payload, &sessions);
            continue;
        }
        if let Some((timestamp, read)) = head.and_then(|head| super::fast::line(&bytes, &head, &mut scratch)) {
            let line = Line::new(r.range.clone(), &r.path, reader.out.next_event(), Some(timestamp));
            match read {
                FastLine::Item(item) => reader.fast_item(&line, item),
                FastLine::Event(event) => reader.fast_event(&line, event),
                FastLine::Payload(kind, payload) => reader.dispatch(&line, kind, payload, &sessions),
                FastLine::TurnContext { payload, model } => reader.fast_turn_context(&line, payload, model),
            }
            continue;
        }
        match crate::json::build::from_slice(input.bytes.get(r.range.clone()).unwrap_or(&[])) {
            // Reports where it fails; the core keeps the line as an unparsed event.
            Err(_) => drop(reader.out.parse_record(&r.range, &r.path)),
            Ok(v) => reader.line(r.range.clone(), &r.path, v, &sessions),
        }
    }
    reader.end_session();
}

/// A record of the input, as [`top_records`] gives it.
struct Record {
    range: Range<usize>,
    path: Cow<'static, str>,
    broken: bool,
}

/// The input's records as [`top_records`] gives them, without a path
/// `String` for each line of JSON Lines (all `$`): an allocation a line.
fn records(input: &Input) -> Vec<Record> {
    let split = input.split;
    if split.layout != Layout::Jsonl {
        return top_records(input).into_iter().map(|r| Record { range: r.range, path: Cow::Owned(r.path), broken: r.broken }).collect();
    }
    let record = |range: Range<usize>, broken: bool| Record { range, path: Cow::Borrowed("$"), broken };
    // Both lists are in source order: merged, not sorted.
    let mut leftovers = split.leftovers.iter().map(|l| record(l.clone(), true)).peekable();
    let mut merged = Vec::with_capacity(split.values.len() + split.leftovers.len());
    for v in &split.values {
        while let Some(l) = leftovers.next_if(|l| l.range.start < v.range.start) {
            merged.push(l);
        }
        merged.push(record(v.range.clone(), false));
    }
    merged.extend(leftovers);
    merged
}

/// How many `session_meta` payloads the survey keeps for the second pass
/// at most (each is parsed once, not twice; past this many, a rollout of
/// sessions alone would hold them all at once).
const KEPT_SESSION_METAS: usize = 4096;

/// `session_meta` payloads the survey parsed from the bytes of a line the
/// second pass reads fast, with the record's index, in order.
type KeptPayloads = Vec<(usize, Map<String, Value>)>;

/// First pass: the texts response items say (for mirrors) and the sessions.
/// A line is read from the bytes where that tells enough, else parsed.
/// Also gives each record's [`Head`] (`None`: broken, or for the exact path)
/// and the `session_meta` payloads it parsed for a line with a head.
fn survey<'t>(input: &Input<'t>, out: &Builder, records: &[Record], repeats: Option<&[usize]>, scratch: &mut Scratch) -> (Mirrors, Sessions, Vec<Option<Head<'t>>>, KeptPayloads) {
    let mut mirrors = Mirrors::default();
    let mut sessions = Sessions { ids: HashSet::new(), children: HashMap::new() };
    let mut heads = Vec::with_capacity(records.len());
    let mut kept = KeptPayloads::new();
    let bytes = Bytes { out, b: input.bytes, ends: &input.split.ends, repeats };
    // The recorded containers read forward through the pass: the lines come in order.
    let mut at = input.split.ends.cursor_from(0);
    for (index, r) in records.iter().enumerate() {
        if r.broken {
            heads.push(None);
            continue;
        }
        let (surveyed, head) = super::fast::survey_line(&bytes, &r.range, &mut at, scratch);
        let has_head = head.is_some();
        heads.push(head);
        // Parsed from the payload's bytes, as the second pass would parse them.
        let (kind, payload, keep) = match surveyed {
            Some(Surveyed::Nothing) => continue,
            Some(Surveyed::Mirrors(keys)) => {
                keys.into_iter().for_each(|key| mirrors.add(key));
                continue;
            }
            Some(Surveyed::Payload(kind, payload)) => (kind, payload, has_head),
            None => {
                let Ok(Value::Object(mut v)) = crate::json::build::from_slice(input.bytes.get(r.range.clone()).unwrap_or(&[])) else { continue };
                let kind = match v.get("type").and_then(Value::as_str) {
                    Some("response_item") => "response_item",
                    Some("session_meta") => "session_meta",
                    _ => continue,
                };
                let Some(Value::Object(payload)) = v.remove("payload") else { continue };
                (kind, payload, false)
            }
        };
        if kind == "response_item" {
            super::items::mirror_keys(&payload).into_iter().for_each(|key| mirrors.add(key));
            continue;
        }
        if let Some(id) = payload.get("id").and_then(Value::as_str) {
            sessions.ids.insert(id.to_string());
            if let Some(parent) = parent_thread(&payload) {
                sessions.children.entry(parent.to_string()).or_default().push(id.to_string());
            }
        }
        if keep && kept.len() < KEPT_SESSION_METAS {
            kept.push((index, payload));
        }
    }
    (mirrors, sessions, heads, kept)
}

/// The parent thread a sub-agent session names:
/// `source: {"subagent": {"thread_spawn": {"parent_thread_id": …}}}`.
pub fn parent_thread(meta: &Map<String, Value>) -> Option<&str> {
    meta.get("source")?.get("subagent")?.get("thread_spawn")?.get("parent_thread_id")?.as_str()
}

impl<'r, 'a> Reader<'r, 'a> {
    pub fn d(&mut self, line: &Line, severity: Severity, code: &'static str, message: String, segs: &[Seg]) {
        self.out.diag_in(severity, code, message, &line.range, line.path, segs, Some(line.event));
    }

    /// Pushes the line's event (its one event: it takes the timestamp); returns its index.
    pub fn push(&mut self, line: &Line, body: EventBody, kind: &str) -> u32 {
        self.out.push_event(body, kind, line.range.clone(), line.path.to_string(), line.timestamp.take())
    }

    /// An item the fast path read, placed as the exact path places it.
    fn fast_item(&mut self, line: &Line, item: FastItem) {
        match item {
            FastItem::Message { role, content } => {
                self.push(line, EventBody::Message(Message { role, content, tool_calls: Vec::new() }), "message");
            }
            FastItem::Call { function, id, arguments } => self.place_call(line, "function_call", function, Some(id), arguments),
            FastItem::Output { kind, call_id, read } => self.place_output(line, kind, call_id, read),
        }
    }

    fn line(&mut self, range: Range<usize>, path: &str, v: Value, sessions: &Sessions) {
        let Value::Object(mut o) = v else {
            let line = Line::new(range.clone(), path, self.out.next_event(), None);
            let why = format!("a rollout line must be an object {{timestamp, type, payload}}, found {}", json_type(&v));
            self.d(&line, Error, "line-not-object", why.clone(), &[]);
            self.out.unparsed(range, path, why);
            return;
        };
        let timestamp = o.get("timestamp").and_then(Value::as_str).map(str::to_string);
        let line = Line::new(range, path, self.out.next_event(), timestamp);
        match o.get("timestamp") {
            Some(Value::String(_)) => {}
            None => self.d(&line, Warning, "timestamp-missing", "rollout line has no `timestamp` (its token counts are not counted)".to_string(), &[]),
            Some(other) => {
                let why = format!("`timestamp` must be a string, found {}", json_type(other));
                self.d(&line, Error, "field-type", why, &[Seg::key("timestamp")]);
            }
        }
        let kind = match o.get("type") {
            Some(Value::String(k)) => k.clone(),
            found => {
                let why = match found {
                    None => "rollout line has no `type`".to_string(),
                    Some(other) => format!("`type` must be a string, found {}", json_type(other)),
                };
                let at = if found.is_some() { vec![Seg::key("type")] } else { Vec::new() };
                self.d(&line, Error, "type-missing", why.clone(), &at);
                self.out.unparsed(line.range.clone(), path, why);
                return;
            }
        };
        let payload = match o.remove("payload") {
            Some(Value::Object(p)) => p,
            found => {
                let why = match &found {
                    None => format!("`{kind}` line has no `payload`"),
                    Some(other) => format!("`payload` must be an object, found {}", json_type(other)),
                };
                let at = if found.is_some() { vec![Seg::key("payload")] } else { Vec::new() };
                self.d(&line, Error, "payload-missing", why.clone(), &at);
                self.out.unparsed(line.range.clone(), path, why);
                return;
            }
        };
        self.dispatch(&line, &kind, payload, sessions);
    }

    /// A line with a string `type` and an object `payload`, by its type.
    pub fn dispatch(&mut self, line: &Line, kind: &str, payload: Map<String, Value>, sessions: &Sessions) {
        match kind {
            "session_meta" => self.session_meta(line, payload, sessions),
            "turn_context" => {
                self.session.tally.turn_context(&payload);
                let model = super::usage::model_named(&payload);
                let i = self.push(line, EventBody::KeyValue(KeyValue { key: kind.to_string(), value: Value::Object(payload).into() }), kind);
                if let (Some(m), Some(e)) = (model, self.out.event_mut(i)) {
                    e.facts_mut().model = Some(m);
                }
            }
            "response_item" => self.response_item(line, payload),
            "event_msg" => self.event_msg(line, payload),
            "compacted" => {
                let message = payload.get("message").and_then(Value::as_str).unwrap_or_default();
                let label = format!("history compacted: {}", crate::view::truncate(message, 200));
                self.marker(line, label, kind, payload);
            }
            _ => {
                let why = format!("unknown rollout line type `{kind}` (known: {}); kept as a key-value event", RECORD_TYPES.join(", "));
                self.d(line, Warning, "unknown-line-type", why, &[Seg::key("type")]);
                self.push(line, EventBody::KeyValue(KeyValue { key: kind.to_string(), value: Value::Object(payload).into() }), kind);
            }
        }
    }

    /// A marker event whose metadata holds the payload's fields (but `type`).
    pub fn marker(&mut self, line: &Line, label: String, kind: &str, mut payload: Map<String, Value>) -> u32 {
        payload.remove("type");
        let i = self.push(line, EventBody::Marker(Marker { label }), kind);
        if let Some(e) = self.out.event_mut(i) {
            e.metadata = payload.into();
        }
        i
    }

    /// A `turn_context` the fast path read: its payload left in the source,
    /// the model it names read from the bytes (`turn_context` in
    /// [`Reader::dispatch`] for the exact path).
    fn fast_turn_context(&mut self, line: &Line, payload: Range<usize>, model: Option<String>) {
        self.session.tally.set_model(model.clone());
        let value = self.out.json(payload);
        let i = self.push(line, EventBody::KeyValue(KeyValue { key: "turn_context".to_string(), value }), "turn_context");
        if let (Some(m), Some(e)) = (model, self.out.event_mut(i)) {
            e.facts_mut().model = Some(m);
        }
    }

    /// Starts the session's run (a new one unless the line repeats the
    /// current session's id) and keeps the line as a key-value event.
    fn session_meta(&mut self, line: &Line, payload: Map<String, Value>, sessions: &Sessions) {
        let id = match payload.get("id") {
            Some(Value::String(s)) => Some(s.clone()),
            None => None,
            Some(other) => {
                let why = format!("`payload.id` must be a string (a thread id), found {}", json_type(other));
                self.d(line, Error, "field-type", why, &[Seg::key("payload"), Seg::key("id")]);
                None
            }
        };
        let same = id.as_ref().is_some_and(|id| self.out.runs().last().is_some_and(|r| &r.id == id));
        if !same {
            self.end_session();
            let n = self.out.runs().len();
            let run_id = id.clone().unwrap_or_else(|| format!("session-{n}"));
            let mut metadata = Metadata::new();
            for (k, v) in payload.iter().filter(|(k, _)| k.as_str() != "instructions") {
                metadata.insert(k.clone(), v.clone());
            }
            let parent = parent_thread(&payload).map(str::to_string);
            if let Some(p) = &parent {
                metadata.insert("parent_thread_id".to_string(), Value::String(p.clone()));
                metadata.insert("parent_opened".to_string(), Value::Bool(sessions.ids.contains(p)));
            }
            if let Some(kids) = id.as_ref().and_then(|id| sessions.children.get(id)) {
                metadata.insert("sub_agents".to_string(), Value::from(kids.clone()));
            }
            self.out.begin_run(run_id, metadata, Some(line.range.start));
            if let Some(run) = self.out.last_run_mut() {
                run.name = Some(match &parent {
                    Some(p) => format!("Codex sub-agent of {p}"),
                    None => "Codex session".to_string(),
                });
                run.description = payload.get("cwd").and_then(Value::as_str).map(str::to_string);
            }
        }
        self.push(line, EventBody::KeyValue(KeyValue { key: "session_meta".to_string(), value: Value::Object(payload).into() }), "session_meta");
    }

    /// Ends the current session: warns about calls nothing answered.
    pub fn end_session(&mut self) {
        let session = std::mem::take(&mut self.session);
        self.out.warn_unanswered(&session.sites, |name| format!("{name} has no output with its `call_id`"));
    }
}
