//! The second pass: events in source order from the [`super::plan`].
//!
//! A message the loader returns is a message (user, gemini) or a marker
//! (info, warning, error) with its tool calls and their results; a message
//! a later record with its id replaced is a key-value event pointing at its
//! replacement; a message a `$rewindTo` or a checkpoint cut is shown as it
//! was, marked `abandoned_branch`, its tokens not counted (Gemini CLI's
//! `/stats` of a resumed session does not count them either).

use std::ops::Range;

use serde_json::{Map, Value};

use super::content::{self, BadCount};
use super::plan::{Fate, Item, Msg, Nested, Plan, Record};
use super::slots::{decoded, TIMESTAMP, TYPE};
use crate::diagnostic::Severity::{self, Error, Info, Warning};
use crate::import::{json_type, Builder, CallSite};
use crate::json::{ContainerEnds, Seg, TopValue};
use crate::event_metadata::EventMetadata;
use crate::model::{Arguments, CallRef, Content, EventBody, KeyValue, Marker, Message, ToolCall, ToolResult, ToolStatus, Usage};

/// The message `type`s of `ConversationRecordExtra`.
pub const MESSAGE_TYPES: &[&str] = &["user", "gemini", "info", "error", "warning"];

/// Tool call statuses after which the call has its result
/// (`CompletedToolCall` of the scheduler).
pub const DONE: &[&str] = &["success", "error", "cancelled"];

pub struct Emitter<'r, 'a> {
    pub out: &'r mut Builder<'a>,
    pub plan: Plan,
    ends: &'r ContainerEnds,
    /// The split's objects that may repeat a key, sorted (`None`: not known).
    repeats: Option<&'r [usize]>,
    /// The split's top-level values with their lines (empty when several
    /// files were joined: each file's lines are then counted from its start).
    tops: &'r [TopValue],
    /// Replaced messages' events, the message that replaced each, and its id.
    replaced: Vec<(u32, usize, String)>,
    /// Tool calls that ran a sub-agent: its session id (`agentId`) and the call.
    agents: Vec<(String, CallRef)>,
    /// Calls whose result should follow, for the warning at the end.
    sites: Vec<CallSite>,
    /// Where each message's event went (for `superseded_by`).
    events: Vec<Option<u32>>,
    scratch: super::fast::Scratch,
}

fn key(k: &str) -> Seg {
    Seg::key(k)
}

impl<'r, 'a> Emitter<'r, 'a> {
    pub fn new(out: &'r mut Builder<'a>, plan: Plan, (ends, repeats): (&'r ContainerEnds, Option<&'r [usize]>), tops: &'r [TopValue]) -> Self {
        let n = plan.msgs.len();
        Emitter { out, plan, ends, repeats, tops, replaced: Vec::new(), agents: Vec::new(), sites: Vec::new(), events: vec![None; n], scratch: Default::default() }
    }

    /// A diagnostic at `segs` inside the record at `at` (its range and path).
    fn d(&mut self, at: (&Range<usize>, &str), severity: Severity, code: &'static str, message: String, segs: &[Seg], event: u32) {
        self.out.diag_in(severity, code, message, at.0, at.1, segs, Some(event));
    }

    /// Writes the session's events; returns the calls that ran sub-agents.
    pub fn run(mut self) -> Vec<(String, CallRef)> {
        let items = std::mem::take(&mut self.plan.items);
        for item in items {
            match item {
                Item::Broken { range, path } => {
                    // In the session's run, in its place (the core reported why).
                    let range = crate::json::scan::skip_ws(self.out.bytes(), range.start)..range.end;
                    self.out.unparsed(range, &path, "not read: invalid JSON");
                }
                Item::Message(m) => self.message(m),
                Item::Rewind { range, path, target, value } => {
                    let label = format!("rewind: the conversation from message `{target}` on was undone");
                    let i = self.out.push_event(EventBody::Marker(Marker { label }), "$rewindTo", range, path, None);
                    if let Some(e) = self.out.event_mut(i) {
                        e.metadata = value.into();
                    }
                }
                Item::Set { range, path, value, msgs, others } => {
                    let set = value.get("$set").and_then(Value::as_object);
                    let keys: Vec<&str> = set.map(|s| s.keys().map(String::as_str).collect()).unwrap_or_default();
                    let label = match set.and_then(|s| s.get("messages")).and_then(Value::as_array) {
                        Some(list) => format!("history checkpoint: the conversation is now these {} messages", list.len()),
                        None => format!("metadata update: {}", keys.join(", ")),
                    };
                    let time = set.and_then(|s| s.get("lastUpdated")).and_then(Value::as_str).map(str::to_string);
                    // A bare `lastUpdated` (written after every message) is data, not a moment.
                    let body = if keys == ["lastUpdated"] {
                        EventBody::KeyValue(KeyValue { key: "$set".to_string(), value: Value::Null.into() })
                    } else {
                        EventBody::Marker(Marker { label })
                    };
                    let i = self.out.push_event(body, "$set", range, path, time);
                    if let Some(e) = self.out.event_mut(i) {
                        e.metadata = value.into();
                        if let Some(Value::Object(set)) = e.metadata.get_mut("$set") {
                            set.remove("messages");
                        }
                        if let EventBody::KeyValue(kv) = &mut e.body {
                            kv.value = e.metadata.remove("$set").unwrap_or(Value::Null).into();
                        }
                    }
                    self.nested(msgs, others);
                }
                Item::Touch { range, path, set, time } => {
                    // As `Set` with a bare `lastUpdated`: the record has no
                    // other key, so its metadata is empty.
                    let body = EventBody::KeyValue(KeyValue { key: "$set".to_string(), value: self.out.json(set) });
                    self.out.push_event(body, "$set", range, path, Some(time));
                }
                Item::Meta { range, path, mut value, msgs, others } => {
                    value.remove("messages");
                    let time = value.get("startTime").and_then(Value::as_str).map(str::to_string);
                    let body = EventBody::KeyValue(KeyValue { key: "session".to_string(), value: Value::Object(value).into() });
                    if !self.plan.document {
                        self.out.push_event(body, "session", range, path, time);
                    }
                    self.nested(msgs, others);
                }
                Item::Other { range, path, value } => {
                    let i = self.out.next_event();
                    let why = match &value {
                        Value::Object(_) => "a record that is no message (no string `id`), `$set`, `$rewindTo` or metadata line (string `sessionId` and `projectHash`): Gemini CLI skips it; kept as a key-value event".to_string(),
                        other => format!("a session record must be an object, found {}: Gemini CLI skips it; kept as a key-value event", json_type(other)),
                    };
                    self.d((&range, &path), Warning, "unknown-record", why, &[], i);
                    self.out.push_event(EventBody::KeyValue(KeyValue { key: "record".to_string(), value: value.into() }), "record", range, path, None);
                }
            }
        }
        // Each replaced message's note and metadata, pointing at the event
        // that replaced it: built whole once that event's line is known.
        for (e, by, id) in std::mem::take(&mut self.replaced) {
            let by = self.events.get(by).copied().flatten();
            let line = by.and_then(|by| self.out.events().get(by as usize)).map(|x| self.line_of(&x.raw));
            let Some(ev) = self.out.event_mut(e) else { continue };
            let (mut note, mut metadata) = (Map::with_capacity(2), Map::with_capacity(2));
            metadata.insert("replaced".to_string(), Value::String(format!("a later record of message `{id}` replaces this one")));
            note.insert("id".to_string(), Value::String(id));
            if let Some(line) = line.map(Value::from) {
                metadata.insert("replaced_by_line".to_string(), line.clone());
                note.insert("replaced_by_line".to_string(), line);
            }
            ev.metadata = metadata.into();
            if let EventBody::KeyValue(KeyValue { value, .. }) = &mut ev.body {
                *value = Value::Object(note).into();
            }
        }
        let sites = std::mem::take(&mut self.sites);
        self.out.warn_unanswered(&sites, |name| format!("{name} has no result recorded (its `status` is not success, error or cancelled)"));
        self.agents
    }

    /// The line of the record at `raw`: the split's count for a top-level
    /// record read fast, else the source map's (building that map for these
    /// notes alone was 5% of a parse; the exact path still asks it).
    fn line_of(&self, raw: &Range<usize>) -> u32 {
        if self.out.reads_fast(raw) {
            let i = self.tops.partition_point(|v| v.range.start < raw.start);
            if let Some(top) = self.tops.get(i).filter(|v| v.range.start == raw.start) {
                return crate::source::clamp_u32(top.line + 1);
            }
        }
        self.out.line_at(raw.start)
    }

    fn nested(&mut self, msgs: Vec<usize>, others: Vec<Nested>) {
        for m in msgs {
            self.message(m);
        }
        for n in others {
            let i = self.out.next_event();
            let why = format!("a `messages` item must be a message record with a string `id`, found {}: Gemini CLI skips it", json_type(&n.value));
            self.d((&n.range, &n.path), Warning, "message-id-missing", why, &[], i);
            self.out.push_event(EventBody::KeyValue(KeyValue { key: "messages item".to_string(), value: n.value.into() }), "record", n.range, n.path, None);
        }
    }

    fn message(&mut self, m: usize) {
        let Some(msg) = self.plan.msgs.get_mut(m) else { return };
        let Msg { range, path, id, record, fate } = std::mem::replace(msg, Msg { range: 0..0, path: String::new(), id: String::new(), record: Record::Parsed(Map::new()), fate: Fate::Loaded });
        let loaded = fate == Fate::Loaded;
        let value = match record {
            Record::Parsed(value) => Some(value),
            // A record the plan read from the bytes is read where the plan found its members (or parsed now: it is plain, it parses).
            Record::InBytes(slots) if self.out.can_defer_metadata(&range) => {
                if let Fate::Replaced(by) = fate {
                    let text = |k: usize| slots.fields.get(k).copied().flatten()?.string().map(|(inner, escaped)| decoded(self.out.bytes(), inner, escaped));
                    // Its source kind is its `type` (`message` when it has none), as below.
                    let kind = text(TYPE).filter(|k| !k.is_empty()).unwrap_or_else(|| "message".to_string());
                    let time = text(TIMESTAMP);
                    return self.replaced_message(m, (range, path), id, by, kind, time);
                }
                let calls = slots.calls.as_ref().and_then(|c| self.plan.calls.get(c.start as usize..c.end as usize));
                if let Some(read) = super::fast::message(self.out, (self.ends, self.repeats), &slots, calls, loaded, &self.plan.call_ids, &mut self.scratch) {
                    let metadata = self.out.metadata_in_source(range.clone(), message_metadata, message_extra(fate));
                    return self.place(m, (range, path), fate, read, metadata);
                }
                None
            }
            Record::InBytes(_) => None,
        };
        let mut value = value.unwrap_or_else(|| match self.out.bytes().get(range.clone()).and_then(crate::json::build::value) {
            Some(Value::Object(o)) => o,
            _ => Map::new(),
        });
        // The source kind is the message `type` (`message` when it has none).
        let kind = value.get("type").and_then(Value::as_str).filter(|t| !t.is_empty()).unwrap_or("message").to_string();
        let time = value.get("timestamp").and_then(Value::as_str).map(str::to_string);
        if let Fate::Replaced(by) = fate {
            return self.replaced_message(m, (range, path), id, by, kind, time);
        }
        let i = self.out.next_event();
        // Taken first, as the metadata's shape takes it first.
        let mut calls = value.remove("toolCalls");
        self.check(&range, &path, &value, calls.as_ref(), i);
        let body = match kind.as_str() {
            "user" => self.user(&mut value),
            "gemini" => self.gemini(&value, calls.as_mut(), &range, &path, i),
            "info" | "warning" | "error" => {
                let c = content::content(value.get("content"));
                let label = format!("{kind}: {}", crate::view::truncate(&content::marker_text(&c), 300));
                EventBody::Marker(Marker { label })
            }
            _ => {
                let why = format!("unknown message type `{kind}` (known: {}); kept as a key-value event", MESSAGE_TYPES.join(", "));
                self.d((&range, &path), Warning, "unknown-message-type", why, &[key("type")], i);
                EventBody::KeyValue(KeyValue { key: kind.clone(), value: value.get("content").cloned().unwrap_or(Value::Null).into() })
            }
        };
        let usage = if kind == "gemini" && loaded {
            let mut bad = Vec::new();
            let u = content::usage(value.get("tokens"), &mut bad);
            self.bad_counts(&range, &path, bad, i);
            u
        } else {
            None
        };
        let model = value.get("model").and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_string);
        let outcomes = match (kind == "gemini", calls) {
            (true, Some(Value::Array(calls))) => self.outcomes(calls, &range, !loaded),
            _ => Vec::new(),
        };
        // Left in the source when the record is plain, built when first read.
        let metadata = if self.out.can_defer_metadata(&range) {
            self.out.metadata_in_source(range.clone(), message_metadata, message_extra(fate))
        } else {
            message_metadata(value, &message_extra(fate)).into()
        };
        self.place(m, (range, path), fate, Read { kind, time, body, usage, model, outcomes }, metadata);
    }

    /// A message a later record with its id replaced: the record stays in
    /// the raw view; the event says what replaced it.
    fn replaced_message(&mut self, m: usize, (range, path): (Range<usize>, String), id: String, by: usize, kind: String, time: Option<String>) {
        // Its note (`{id, replaced_by_line}`) and metadata are written at the end of the run.
        let mut key = String::with_capacity(kind.len() + 19);
        key.push_str(&kind);
        key.push_str(" message (replaced)");
        let body = EventBody::KeyValue(KeyValue { key, value: Value::Null.into() });
        let i = self.out.push_event(body, &kind, range, path, time);
        self.replaced.push((i, by, id));
        if let Some(slot) = self.events.get_mut(m) {
            *slot = Some(i);
        }
    }

    /// Writes a message's event (read by either path), its tool results,
    /// and the note that a rewind or checkpoint cut it.
    fn place(&mut self, m: usize, (range, path): (Range<usize>, String), fate: Fate, read: Read, metadata: EventMetadata) {
        let Read { kind, time, body, usage, model, outcomes } = read;
        let loaded = fate == Fate::Loaded;
        // What is read of the path after it moves into the event: its
        // results' `render_path(path, [toolCalls])`, and for a cut message its note's.
        let calls_path = (!outcomes.is_empty()).then(|| {
            let mut calls = String::with_capacity(path.len() + 10);
            calls.push_str(&path);
            calls.push_str(".toolCalls");
            calls
        });
        let cut = (!loaded).then(|| (range.clone(), path.clone()));
        let i = self.out.push_event(body, &kind, range, path, time);
        if let Some(slot) = self.events.get_mut(m) {
            *slot = Some(i);
        }
        if let Some(e) = self.out.event_mut(i) {
            e.failed = kind == "error";
            e.metadata = metadata;
            if usage.is_some() || model.is_some() {
                let f = e.facts_mut();
                f.usage = usage;
                f.model = model;
            }
        }
        self.results(outcomes, i, calls_path.as_deref().unwrap_or_default(), !loaded);
        if let Some((range, path)) = cut {
            let why = "a `$rewindTo` or a history checkpoint later removed this message: Gemini CLI resumes without it (marked `abandoned_branch`; its tokens are not counted)".to_string();
            self.d((&range, &path), Info, "abandoned-branch", why, &[], i);
        }
    }

    /// Field types `MessageRecord` requires.
    fn check(&mut self, range: &Range<usize>, path: &str, v: &Map<String, Value>, calls: Option<&Value>, i: u32) {
        match v.get("timestamp") {
            Some(Value::String(_)) => {}
            None => self.d((range, path), Warning, "field-missing", "message has no `timestamp`".to_string(), &[], i),
            Some(other) => self.d((range, path), Error, "field-type", format!("`timestamp` must be a string, found {}", json_type(other)), &[key("timestamp")], i),
        }
        match v.get("type") {
            Some(Value::String(_)) => {}
            None => self.d((range, path), Error, "field-missing", format!("message has no `type` (one of {})", MESSAGE_TYPES.join(", ")), &[], i),
            Some(other) => self.d((range, path), Error, "field-type", format!("`type` must be a string, found {}", json_type(other)), &[key("type")], i),
        }
        if let Some(other) = v.get("content").filter(|c| !matches!(c, Value::String(_) | Value::Array(_) | Value::Object(_))) {
            let why = format!("`content` must be a string, a part or a list of parts, found {}", json_type(other));
            self.d((range, path), Error, "field-type", why, &[key("content")], i);
        }
        for (k, what) in [("toolCalls", "a list of tool call records"), ("thoughts", "a list of thoughts")] {
            let found = if k == "toolCalls" { calls } else { v.get(k) };
            if let Some(other) = found.filter(|x| !x.is_array() && !x.is_null()) {
                let why = format!("`{k}` must be {what}, found {}", json_type(other));
                self.d((range, path), Error, "field-type", why, &[key(k)], i);
            }
        }
        if let Some(other) = v.get("tokens").filter(|x| !x.is_object() && !x.is_null()) {
            let why = format!("`tokens` must be an object {{input, output, cached, thoughts, tool, total}}, found {}", json_type(other));
            self.d((range, path), Error, "field-type", why, &[key("tokens")], i);
        }
    }

    fn bad_counts(&mut self, range: &Range<usize>, path: &str, bad: Vec<BadCount>, i: u32) {
        for b in bad {
            let name = match b.at.last() {
                Some(Seg::Key(k)) => k.clone(),
                _ => String::new(),
            };
            let why = format!("`tokens.{name}` must be a whole number of tokens, found {} (counted as 0)", json_type(&b.found));
            self.d((range, path), Warning, "token-count-invalid", why, &b.at, i);
        }
    }

    /// A user message; one made only of `functionResponse` parts that
    /// answer recorded tool calls repeats their results (Gemini CLI records
    /// the turn that sends them back): it stays reachable as a key-value
    /// event so that each result shows once.
    fn user(&mut self, v: &mut Map<String, Value>) -> EventBody {
        let parts = v.get("content").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
        let mirrors = !parts.is_empty()
            && parts.iter().all(|p| {
                p.get("functionResponse").and_then(|r| r.get("id")).and_then(Value::as_str).is_some_and(|id| self.plan.call_ids.contains(id))
            });
        if mirrors {
            // Moved out, not copied: `content` is the next member the metadata's shape removes.
            let parts = v.remove("content").unwrap_or(Value::Null);
            return EventBody::KeyValue(KeyValue { key: "function responses".to_string(), value: parts.into() });
        }
        EventBody::Message(Message { role: "user".to_string(), content: content::content(v.get("content")), tool_calls: Vec::new() })
    }

    fn gemini(&mut self, v: &Map<String, Value>, calls: Option<&mut Value>, range: &Range<usize>, path: &str, i: u32) -> EventBody {
        let c = content::with_thoughts(content::thoughts(v.get("thoughts")), content::content(v.get("content")));
        let calls = calls.and_then(Value::as_array_mut).map(Vec::as_mut_slice).unwrap_or(&mut []);
        let mut tool_calls = Vec::with_capacity(calls.len());
        for (j, call) in calls.iter_mut().enumerate() {
            let at = [key("toolCalls"), Seg::Index(j)];
            let id = call.get("id").and_then(Value::as_str).map(str::to_string);
            let name = call.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
            if !call.is_object() {
                self.d((range, path), Error, "field-type", format!("a tool call record must be an object, found {}", json_type(call)), &at, i);
            } else if id.is_none() || name.is_empty() {
                self.d((range, path), Error, "field-missing", "a tool call record needs a string `id` and `name`".to_string(), &at, i);
            }
            // Moved out: the result's event reads no `args`.
            let arguments = Arguments { value: call.as_object_mut().and_then(|c| c.remove("args")).map(Into::into), text: None };
            tool_calls.push(ToolCall { id, function: name, arguments, result: None });
        }
        EventBody::Message(Message { role: "assistant".to_string(), content: c, tool_calls })
    }

    /// What each tool call of a `gemini` message says of its result (the
    /// call record itself, inside the message).
    fn outcomes(&self, calls: Vec<Value>, range: &Range<usize>, abandoned: bool) -> Vec<Outcome> {
        if calls.is_empty() {
            return Vec::new();
        }
        let ranges = super::plan::item_ranges(self.out.bytes(), self.ends, range.start, &[key("toolCalls")]);
        let extra = result_extra(abandoned);
        let outcome = |(call, r): (Value, Range<usize>)| {
            let Value::Object(o) = call else { return Outcome::Skipped };
            let status = o.get("status").and_then(Value::as_str).unwrap_or_default().to_string();
            let has_result = o.get("result").is_some_and(|r| !r.is_null());
            if !DONE.contains(&status.as_str()) && !has_result {
                return Outcome::Pending;
            }
            let text = |k: &str| o.get(k).and_then(Value::as_str).map(str::to_string);
            let (call_id, time, agent, content) = (text("id"), text("timestamp"), text("agentId"), content::tool_result(&o));
            Outcome::Done { range: r, call_id, status, content, time, agent, metadata: result_metadata(o, &extra).into() }
        };
        calls.into_iter().zip(ranges).map(outcome).collect()
    }

    /// One tool-result event per call of the message at event `i` that has
    /// its result (its calls at `calls_path`).
    fn results(&mut self, outcomes: Vec<Outcome>, i: u32, calls_path: &str, abandoned: bool) {
        for (j, outcome) in outcomes.into_iter().enumerate() {
            let at = CallRef { event: i, call: j as u32 };
            let (range, call_id, status, content, time, agent, metadata) = match outcome {
                Outcome::Skipped => continue,
                Outcome::Pending => {
                    self.sites.push(CallSite { call: at, segs: vec![key("toolCalls"), Seg::Index(j)] });
                    continue;
                }
                Outcome::Done { range, call_id, status, content, time, agent, metadata } => (range, call_id, status, content, time, agent, metadata),
            };
            let tool_status = match status.as_str() {
                "success" => ToolStatus::Success,
                "error" => ToolStatus::Error,
                _ => ToolStatus::Unknown,
            };
            let result = ToolResult { call_id, content, status: tool_status, call: Some(at), implicit_link: false };
            // `render_path(path, [toolCalls, j])`, without its allocations per step.
            let item_path = crate::json::item_path(calls_path, j);
            let e = self.out.push_event(EventBody::ToolResult(result), "toolCall", range, item_path, time);
            self.out.link_result(at, e);
            if let (false, Some(agent)) = (abandoned, agent) {
                self.agents.push((agent, at));
            }
            if let Some(ev) = self.out.event_mut(e) {
                ev.failed = status == "error";
                ev.metadata = metadata;
            }
        }
    }
}

/// A message read by either path, before its event is written.
pub struct Read {
    pub kind: String,
    pub time: Option<String>,
    pub body: EventBody,
    pub usage: Option<Usage>,
    pub model: Option<String>,
    /// A `gemini` message's tool calls' results, in the calls' order.
    pub outcomes: Vec<Outcome>,
}

/// What a tool call record says of its result. (Short-lived, one per
/// call: its size does not matter.)
#[allow(clippy::large_enum_variant)]
pub enum Outcome {
    /// Not an object: no result event.
    Skipped,
    /// Not finished: a result should follow (warned about at the end).
    Pending,
    /// Its result event: the call record's range and what the event shows.
    Done { range: Range<usize>, call_id: Option<String>, status: String, content: Content, time: Option<String>, agent: Option<String>, metadata: EventMetadata },
}

/// The members of a call record a result event's metadata keeps, in order.
const RESULT_KEYS: [&str; 7] = ["status", "displayName", "description", "resultDisplay", "renderOutputAsMarkdown", "agentId", "name"];

/// A result event's metadata: [`RESULT_KEYS`] of the call record, then
/// what the reading adds (`abandoned_branch`). Both paths shape it with this.
pub fn result_metadata(mut call: Map<String, Value>, extra: &Map<String, Value>) -> Map<String, Value> {
    let mut out = Map::new();
    for k in RESULT_KEYS {
        if let Some(x) = call.remove(k) {
            out.insert(k.to_string(), x);
        }
    }
    out.extend(extra.clone());
    out
}

/// What a result event's metadata adds to the call record's members.
pub fn result_extra(abandoned: bool) -> Map<String, Value> {
    let mut extra = Map::new();
    if abandoned {
        extra.insert("abandoned_branch".to_string(), Value::Bool(true));
    }
    extra
}

/// What a message event's metadata adds to the record's members.
fn message_extra(fate: Fate) -> Map<String, Value> {
    let mut extra = Map::new();
    let cut_by = match fate {
        Fate::Rewound(_) => Some("$rewindTo"),
        Fate::Checkpointed(_) => Some("$set.messages checkpoint"),
        _ => None,
    };
    if let Some(by) = cut_by {
        extra.insert("abandoned_branch".to_string(), Value::Bool(true));
        extra.insert("cut_by".to_string(), Value::String(by.to_string()));
    }
    extra
}

/// A message event's metadata: the record less its tool calls, content,
/// thoughts, type and timestamp (removed in that order, as serde_json's
/// `remove` moves the last member into each hole), then what the reading
/// adds (`abandoned_branch`, `cut_by`). Both paths shape it with this.
fn message_metadata(mut m: Map<String, Value>, extra: &Map<String, Value>) -> Map<String, Value> {
    for k in ["toolCalls", "content", "thoughts", "type", "timestamp"] {
        m.remove(k);
    }
    m.extend(extra.clone());
    m
}
