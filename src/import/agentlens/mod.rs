//! AgentLens sessions and events.
//!
//! AgentLens records agent activity as `AgentEvent`s (`llm_call`,
//! `tool_call`, `agent_call`, `agent_error`, `tool_error`, `decision`,
//! `generic`), optionally wrapped in a `Session` with token totals and a
//! status. No AgentLens package can be installed, so the pydantic v2 models
//! are the schema of the project's issue, transcribed in
//! `scripts/oracle/agentlens/models.py`; the checks here apply pydantic's lax
//! mode by hand ([`super::pydantic_lax`]) and are compared with pydantic on
//! those models (tests/golden/agentlens/).
//!
//! Inputs: a `Session` object, a list of events (or of sessions), or JSON
//! Lines of either. A record with an `events` key, or with a session field
//! no event has (`agent_name`, `started_at`, …) and no `event_type`, is a
//! session (its events default to none); any other object is an event
//! (every event field has a default, so any object is a valid event). One
//! run per session; loose events are grouped into runs by `session_id`.
//!
//! pydantic's JSON parser reads `NaN`, `Infinity` and `-Infinity`, so the
//! input is split in that grammar (`json::Grammar::NonFinite`) and records
//! holding them are read with them ([`crate::json::python::read_nonfinite`]).

use std::collections::HashMap;
use std::ops::Range;

use serde_json::{Map, Value};

mod body;
mod checks;
mod fast;
mod record;

use super::pydantic_lax as lax;
use super::{json_type, Builder, Format, Input, Sample, Score};
use crate::diagnostic::Severity::{self, Error, Warning};
use crate::json::{render_path, scan, Seg};
use crate::model::{CallRef, Content, EventBody, Marker, Message, Metadata, ToolCall, ToolResult, ToolStatus};
use body::{scan_range, with_decision, Pieces};
use record::{Call, Event, Members, CALL_DURATION_MS, CALL_MEMBERS, DECISION_TRACE, DURATION_MS, EVENT_MEMBERS, EVENT_TYPE, MODEL, SESSION_ID, TIMESTAMP, TOKENS_IN, TOKENS_OUT};

pub struct AgentLens;

pub const EVENT_TYPES: &[&str] = &["llm_call", "tool_call", "agent_call", "agent_error", "tool_error", "decision", "generic"];
const SESSION_STATUSES: &[&str] = &["active", "completed", "error"];
/// Event fields besides `event_type` that mark an object as an AgentLens event.
const EVENT_KEYS: &[&str] =
    &["event_id", "session_id", "tokens_in", "tokens_out", "input_data", "output_data", "tool_call", "decision_trace"];
const SESSION_KEYS: &[&str] = &["agent_name", "total_tokens_in", "total_tokens_out", "started_at", "session_id"];
/// Session fields no event has: an object with one (and no `event_type`) is
/// a session, with or without `events` (they default to none).
const SESSION_ONLY_KEYS: &[&str] = &["agent_name", "started_at", "ended_at", "total_tokens_in", "total_tokens_out"];

/// Run id for events whose `session_id` is empty or absent.
const NO_SESSION: &str = "(no session)";

impl Format for AgentLens {
    /// Its reference validates with pydantic, whose JSON parser reads them.
    fn reads_nonfinite(&self) -> bool {
        true
    }

    fn id(&self) -> &'static str {
        "agentlens"
    }

    fn name(&self) -> &'static str {
        "AgentLens sessions and events"
    }

    fn detect(&self, sample: &Sample) -> Option<Score> {
        let mut records = 0usize;
        let mut sessions = 0usize;
        let mut loose = 0usize;
        let mut nested = 0usize;
        let mut visit = |v: &Value, records: &mut usize| {
            *records += 1;
            if let Some(events) = session_like(v) {
                sessions += 1;
                nested += events;
            } else if is_event_like(v) {
                loose += 1;
            }
        };
        for v in &sample.values {
            match v {
                Value::Array(items) => items.iter().for_each(|i| visit(i, &mut records)),
                other => visit(other, &mut records),
            }
        }
        let matched = sessions + loose;
        if matched == 0 {
            return None;
        }
        let mut evidence = Vec::new();
        if sessions > 0 {
            evidence.push(format!("{sessions} session objects with AgentLens session fields (`session_id`, `agent_name`, `started_at`, …) and {nested} events"));
        }
        if loose > 0 {
            evidence.push(format!("{loose} of {records} sampled records have an AgentLens `event_type` and event fields"));
        }
        Some(Score { confidence: matched as f32 / records as f32, evidence })
    }

    fn import(&self, input: &Input, out: &mut Builder) {
        let b = out.bytes();
        let mut reader = Reader { out, b, ends: &input.split.ends, hazards: &input.split.hazards, scratch: fast::Scratch::default() };
        let records = reader.records(input);
        reader.runs(records);
    }
}

/// For an object that looks like a `Session`, how many events it holds: it
/// has session fields (one no event has, or `session_id` beside `events`),
/// no `event_type`, and `events`, when present, is a list of objects that
/// look like events (or of any objects, beside a field no event has: every
/// event field has a default).
fn session_like(v: &Value) -> Option<usize> {
    let o = v.as_object()?;
    if o.contains_key("event_type") {
        return None;
    }
    let own = SESSION_ONLY_KEYS.iter().filter(|k| o.contains_key(**k)).count();
    match o.get("events") {
        None => (own > 0 && SESSION_KEYS.iter().filter(|k| o.contains_key(**k)).count() >= 2).then_some(0),
        Some(Value::Array(items)) => {
            let events_ok = items.iter().all(|i| is_event_like(i) || (own > 0 && i.is_object()));
            (events_ok && (own > 0 || o.contains_key("session_id"))).then_some(items.len())
        }
        Some(_) => None,
    }
}

/// An object with an `event_type` of AgentLens and one more event field.
fn is_event_like(v: &Value) -> bool {
    let Some(o) = v.as_object() else { return false };
    o.get("event_type").and_then(Value::as_str).is_some_and(|t| EVENT_TYPES.contains(&t))
        && EVENT_KEYS.iter().any(|k| o.contains_key(*k))
}

/// One top-level record (a list item or JSONL line), before it is read.
struct Record {
    range: Range<usize>,
    path: String,
    kind: RecordKind,
}

#[derive(Clone, PartialEq, Eq, Hash)]
enum RecordKind {
    /// An object with `events` or a field only sessions have.
    Session,
    /// Anything else, with its `session_id` when it is a string.
    Event(String),
    /// Not valid JSON; the core reported it.
    Broken,
}

struct Reader<'r, 'a> {
    out: &'r mut Builder<'a>,
    b: &'a [u8],
    /// The split's container ends (and grammar): records are jumped over, not rescanned.
    ends: &'r crate::json::ContainerEnds,
    /// The split's: where `NaN` and the infinities are.
    hazards: &'r [usize],
    /// The fast path's buffers.
    scratch: fast::Scratch,
}

/// Where diagnostics about the event being read go.
struct Ctx {
    range: Range<usize>,
    path: String,
    index: u32,
}

/// Token counts of a run's events, for comparing with a session's totals.
#[derive(Default)]
struct Tokens {
    tokens_in: i64,
    tokens_out: i64,
    /// False once an event's count is missing from the sum (invalid or huge).
    exact: bool,
}

fn key(k: &str) -> Seg {
    Seg::key(k)
}

impl<'r, 'a> Reader<'r, 'a> {
    fn records(&mut self, input: &Input) -> Vec<Record> {
        super::top_records(input)
            .into_iter()
            .map(|r| if r.broken { Record { range: r.range, path: r.path, kind: RecordKind::Broken } } else { self.classify(r.range, r.path) })
            .collect()
    }

    /// Session or event, read from the top-level keys without parsing: a
    /// session has `events`, or a session field no event has (and no
    /// `event_type`).
    fn classify(&self, range: Range<usize>, path: String) -> Record {
        let start = scan::skip_ws(self.b, range.start);
        let members = scan::object_members_in(self.b, start, self.ends).unwrap_or_default();
        let has = |key: &str| members.iter().any(|(k, _)| k == key);
        let session = has("events") || (!has("event_type") && SESSION_ONLY_KEYS.iter().any(|k| has(k)));
        let kind = if session {
            RecordKind::Session
        } else {
            let session = members
                .iter()
                .rev()
                .find(|(k, _)| k == "session_id")
                .filter(|(_, r)| self.b.get(r.start) == Some(&b'"'))
                .and_then(|(_, r)| scan::decode_string(self.b, r.clone()));
            RecordKind::Event(session.unwrap_or_default())
        };
        Record { range, path, kind }
    }

    /// Sessions are runs of their own; loose events are grouped by
    /// `session_id`; runs come in order of first appearance (a run's events
    /// must be contiguous). A broken line joins the group before it.
    fn runs(&mut self, records: Vec<Record>) {
        #[derive(PartialEq, Eq, Hash, Clone)]
        enum Group {
            Session(usize),
            Events(String),
        }
        let mut order: Vec<Group> = Vec::new();
        let mut members: HashMap<Group, Vec<usize>> = HashMap::new();
        let mut previous: Option<Group> = None;
        for (i, r) in records.iter().enumerate() {
            let group = match &r.kind {
                RecordKind::Session => Group::Session(i),
                RecordKind::Event(s) => Group::Events(s.clone()),
                RecordKind::Broken => previous.clone().unwrap_or(Group::Events(String::new())),
            };
            previous = Some(group.clone());
            if !members.contains_key(&group) {
                order.push(group.clone());
            }
            members.entry(group).or_default().push(i);
        }
        for group in order {
            let Some(indices) = members.remove(&group) else { continue };
            let mut group_records = indices.iter().filter_map(|&i| records.get(i));
            match &group {
                Group::Session(_) => {
                    for r in group_records {
                        match r.kind {
                            RecordKind::Session => self.session(r),
                            _ => self.out.unparsed(r.range.clone(), &r.path, "not read: invalid JSON".to_string()),
                        }
                    }
                }
                Group::Events(session_id) => {
                    let mut metadata = Metadata::new();
                    metadata.insert("session_id".to_string(), Value::String(session_id.clone()));
                    let id = if session_id.is_empty() { NO_SESSION.to_string() } else { session_id.clone() };
                    let offset = group_records.clone().next().map(|r| r.range.start);
                    self.out.begin_run(id, metadata, offset);
                    let mut tokens = Tokens { exact: true, ..Tokens::default() };
                    for r in group_records.by_ref() {
                        match r.kind {
                            RecordKind::Broken => self.out.unparsed(r.range.clone(), &r.path, "not read: invalid JSON".to_string()),
                            _ => self.event(r.range.clone(), &r.path, &mut tokens, None),
                        }
                    }
                    if let Some(run) = self.out.last_run_mut() {
                        run.metadata.insert("tokens_in".to_string(), Value::from(tokens.tokens_in));
                        run.metadata.insert("tokens_out".to_string(), Value::from(tokens.tokens_out));
                    }
                }
            }
        }
    }

    /// The value at `range` as pydantic's JSON parser reads it: serde_json's,
    /// or, when it holds `NaN`, `Infinity` or `-Infinity`, with those
    /// numbers (`Builder::parse_record` would call it invalid JSON).
    fn parse(&mut self, range: &Range<usize>, path: &str) -> Result<Value, crate::import::UnreadableRecord> {
        match crate::json::python::read_nonfinite(self.b, range.clone(), self.hazards) {
            Some(v) => Ok(v),
            None => self.out.parse_record(range, path),
        }
    }

    fn d(&mut self, ctx: &Ctx, severity: Severity, code: &'static str, message: String, segs: &[Seg]) {
        self.out.diag_in(severity, code, message, &ctx.range, &ctx.path, segs, Some(ctx.index));
    }

    /// A `Session`: its fields become run metadata, its events the run's events.
    fn session(&mut self, r: &Record) {
        let start = scan::skip_ws(self.b, r.range.start);
        let members = match scan::object_members_in(self.b, start, self.ends) {
            Ok(m) => m,
            Err(e) => {
                self.out.syntax_error(&e, &r.path);
                return;
            }
        };
        // A run-level context: diagnostics about session fields belong to no event.
        let ctx = Ctx { range: r.range.clone(), path: r.path.clone(), index: u32::MAX };
        let mut fields = Map::new();
        let mut events: Option<Range<usize>> = None;
        for (k, range) in &members {
            if k == "events" {
                events = Some(range.clone());
            } else {
                let member_path = render_path(&r.path, &[key(k)]);
                if let Ok(v) = self.parse(range, &member_path) {
                    fields.insert(k.clone(), v);
                }
            }
        }
        let n = self.out.runs().len();
        let id = fields.get("session_id").and_then(Value::as_str).map(str::to_string).unwrap_or_else(|| format!("session-{n}"));
        self.out.begin_run(id, Metadata::new(), Some(start));
        self.session_fields(&fields, &ctx);
        let mut tokens = Tokens { exact: true, ..Tokens::default() };
        let session_id = fields.get("session_id").and_then(Value::as_str).unwrap_or_default().to_string();
        match events {
            Some(range) if self.b.get(scan::skip_ws(self.b, range.start)) == Some(&b'[') => {
                let (items, end) = scan::array_items_in(self.b, scan::skip_ws(self.b, range.start), self.ends);
                for (i, item) in items.iter().enumerate() {
                    let path = render_path(&r.path, &[key("events"), Seg::Index(i)]);
                    self.event(item.clone(), &path, &mut tokens, Some(&session_id));
                }
                if let Err(e) = end {
                    self.out.syntax_error(&e, &render_path(&r.path, &[key("events")]));
                }
            }
            Some(range) => {
                let path = render_path(&r.path, &[key("events")]);
                if let Ok(v) = self.parse(&range, &path) {
                    self.session_diag(&ctx, Error, "field-type", format!("`events` must be a list of events, found {}", json_type(&v)), &[key("events")]);
                    // Kept in the run metadata (as an undeclared field would
                    // be): the value is wrong, not worthless.
                    fields.insert("events".to_string(), v);
                }
            }
            None => {}
        }
        self.check_totals(&fields, &tokens, &ctx);
        if let Some(run) = self.out.last_run_mut() {
            run.name = Some(fields.get("agent_name").and_then(Value::as_str).unwrap_or("default-agent").to_string());
            const KNOWN: [&str; 8] = ["session_id", "agent_name", "status", "started_at", "ended_at", "total_tokens_in", "total_tokens_out", "metadata"];
            for k in KNOWN {
                if let Some(v) = fields.get(k) {
                    run.metadata.insert(k.to_string(), v.clone());
                }
            }
            // Fields the Session model does not declare (pydantic ignores
            // them) are kept too, after the declared ones: nothing is lost.
            for (k, v) in fields.iter().filter(|(k, _)| !KNOWN.contains(&k.as_str())) {
                run.metadata.insert(k.clone(), v.clone());
            }
            run.metadata.entry("status".to_string()).or_insert_with(|| Value::String("active".to_string()));
            // Our own sums, unless the session has fields of those names.
            run.metadata.entry("events_tokens_in".to_string()).or_insert_with(|| Value::from(tokens.tokens_in));
            run.metadata.entry("events_tokens_out".to_string()).or_insert_with(|| Value::from(tokens.tokens_out));
        }
    }

    fn session_diag(&mut self, ctx: &Ctx, severity: Severity, code: &'static str, message: String, segs: &[Seg]) {
        self.out.diag_in(severity, code, message, &ctx.range, &ctx.path, segs, None);
    }

    /// One `AgentEvent`; becomes one event, or two for a tool call with its result.
    fn event(&mut self, range: Range<usize>, path: &str, tokens: &mut Tokens, session: Option<&str>) {
        if let Some(read) = self.fast_event(&range) {
            let fast::Read { event, call, in_source } = read;
            let members = Members(event.each_ref().map(Option::as_ref));
            let tool = call.as_ref().map(|c| Members(c.each_ref().map(Option::as_ref)));
            let built = Pieces::of(&members, tool.as_ref());
            let all = Pieces {
                input_data: in_source.input_data.or(built.input_data),
                output_data: in_source.output_data.or(built.output_data),
                tool_input: in_source.tool_input.or(built.tool_input),
                tool_output: in_source.tool_output.or(built.tool_output),
            };
            let index = self.place(&range, path, tokens, session, &members, tool.as_ref(), &all);
            // Its metadata stays in the source (`reads_fast` is `can_defer_metadata`).
            let metadata = self.out.metadata_in_source(range, metadata_shape, Map::new());
            if let Some(e) = self.out.event_mut(index) {
                e.metadata = metadata;
            }
            return;
        }
        let v = match self.parse(&range, path) {
            Ok(v) => v,
            Err(msg) => {
                tokens.exact = false;
                self.out.unparsed(range, path, format!("invalid JSON: {msg}"));
                return;
            }
        };
        let Value::Object(o) = &v else {
            tokens.exact = false;
            let ctx = Ctx { range: range.clone(), path: path.to_string(), index: self.out.next_event() };
            self.d(&ctx, Error, "record-not-object", format!("expected an AgentLens event object, found {}", json_type(&v)), &[]);
            self.out.unparsed(range, path, format!("an event must be an object, not {}", json_type(&v)));
            return;
        };
        let members = Event::of(o, &EVENT_MEMBERS);
        let tool = o.get("tool_call").and_then(Value::as_object).map(|c| Call::of(c, &CALL_MEMBERS));
        let index = self.place(&range, path, tokens, session, &members, tool.as_ref(), &Pieces::of(&members, tool.as_ref()));
        // The event's metadata is the record but its type and time. A record
        // serde_json reads as it is (no NaN for pydantic, no other hazard)
        // stays in the source until it is shown: held built, every event's
        // input and output made the model 4.6 times the file's size. (The
        // exact path keeps `v`: tests/fast_paths.rs compares the two.)
        let metadata = if self.out.can_defer_metadata(&range) {
            self.out.metadata_in_source(range.clone(), metadata_shape, Map::new())
        } else {
            let Value::Object(metadata) = v else { return };
            metadata_shape(metadata, &Map::new()).into()
        };
        if let Some(e) = self.out.event_mut(index) {
            e.metadata = metadata;
        }
    }

    /// Checks the event whose members are `o` (its `tool_call` object's
    /// `tool`, its big members `p`) and places its event, and its result's;
    /// returns the event's index.
    #[allow(clippy::too_many_arguments)]
    fn place(&mut self, range: &Range<usize>, path: &str, tokens: &mut Tokens, session: Option<&str>, o: &Event<'_>, tool: Option<&Call<'_>>, p: &Pieces<'_>) -> u32 {
        let ctx = Ctx { range: range.clone(), path: path.to_string(), index: self.out.next_event() };
        let event_type = self.check_event(o, tool, &ctx, tokens);
        if let (Some(session), Some(Value::String(own))) = (session, o.get(SESSION_ID)) {
            if !own.is_empty() && own != session {
                self.d(
                    &ctx,
                    Warning,
                    "event-session-mismatch",
                    format!("this event's `session_id` {own:?} is not its session's {session:?}"),
                    &[key("session_id")],
                );
            }
        }
        let timestamp = match o.get(TIMESTAMP) {
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        };
        let source_kind = match o.get(EVENT_TYPE) {
            None => "generic".to_string(),
            Some(Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
        };
        let call = tool.map(|c| p.tool_call(c));
        let trace = o.get(DECISION_TRACE).and_then(Value::as_object);
        let (body, failed) = match event_type.as_deref() {
            Some("llm_call") => {
                let mut content = p.output_summary();
                if let Some(t) = trace {
                    content = with_decision(content, t);
                }
                (EventBody::Message(Message { role: "assistant".to_string(), content, tool_calls: call.clone().into_iter().collect() }), false)
            }
            Some("decision") => {
                if trace.is_none() {
                    self.d(&ctx, Warning, "decision-without-trace", "a `decision` event without a `decision_trace` has no reasoning to show".to_string(), &[]);
                }
                let content = trace.map(|t| with_decision(Content::None, t)).unwrap_or_else(|| p.output_summary());
                (EventBody::Message(Message { role: "assistant".to_string(), content, tool_calls: Vec::new() }), false)
            }
            Some("tool_call") => match &call {
                Some(c) => (EventBody::ToolCall(c.clone()), false),
                None => {
                    self.d(&ctx, Warning, "tool-call-without-details", "a `tool_call` event without a `tool_call` object names no tool".to_string(), &[]);
                    (EventBody::ToolCall(ToolCall { id: None, function: String::new(), arguments: p.input_arguments(), result: None }), false)
                }
            },
            Some("tool_error") => match &call {
                Some(c) => (EventBody::ToolCall(c.clone()), false),
                None => (EventBody::ToolResult(p.error_result()), true),
            },
            Some("agent_error") => (EventBody::Marker(Marker { label: format!("agent error: {}", p.label_text()) }), true),
            Some("agent_call") => (EventBody::Marker(Marker { label: format!("agent call: {}", p.label_text()) }), false),
            Some("generic") => (EventBody::Marker(Marker { label: p.label_text() }), false),
            _ => (EventBody::Marker(Marker { label: format!("event of type {source_kind}: {}", p.label_text()) }), false),
        };
        let index = self.out.push_event(body, &source_kind, range.clone(), path.to_string(), timestamp.clone());
        if let Some(e) = self.out.event_mut(index) {
            e.failed = failed;
            e.facts = super::facts::agentlens(o.get(TOKENS_IN), o.get(TOKENS_OUT), o.get(DURATION_MS), tool.and_then(|c| c.get(CALL_DURATION_MS)), o.get(MODEL));
        }
        // A call that carries its output (or failed) gets a result event beside it.
        let result = match (event_type.as_deref(), &call) {
            (Some("tool_call" | "llm_call"), Some(c)) => p.tool_output().map(|(r, at, raw)| (ToolResult { call_id: c.id.clone(), ..r }, at, raw)),
            (Some("tool_error"), Some(c)) => {
                let (at, raw) = p.error_at();
                Some((ToolResult { call_id: c.id.clone(), ..p.error_result() }, at, raw))
            }
            _ => None,
        };
        if let Some((mut r, at, raw)) = result {
            let failed = r.status == ToolStatus::Error;
            r.call = Some(CallRef { event: index, call: 0 });
            let raw = raw.or_else(|| scan_range(self.b, range, &at, self.ends)).unwrap_or(range.clone());
            let result_path = render_path(path, &at);
            let result_index = self.out.push_event(EventBody::ToolResult(r), &source_kind, raw, result_path, timestamp);
            if let Some(e) = self.out.event_mut(result_index) {
                e.failed = failed;
            }
            match self.out.event_mut(index).map(|e| &mut e.body) {
                Some(EventBody::ToolCall(c)) => c.result = Some(result_index),
                Some(EventBody::Message(m)) => {
                    if let Some(c) = m.tool_calls.first_mut() {
                        c.result = Some(result_index);
                    }
                }
                _ => {}
            }
        }
        index
    }
}

/// An event record as its event's metadata: the record but its type and
/// time (`shift_remove` keeps the other keys' order).
fn metadata_shape(mut o: Map<String, Value>, _: &Map<String, Value>) -> Map<String, Value> {
    o.shift_remove("event_type");
    o.shift_remove("timestamp");
    o
}
