//! Docent AgentRun JSON (Transluce's Docent): runs of named transcripts of
//! chat messages.
//!
//! Two generations, told apart by `transcripts`: an object keyed by name is
//! the older one (PyPI `docent-python` 0.1.3a0, run `metadata` with `scores`),
//! a list the current one (PyPI `docent` 0.1.88, `transcript_groups`). Each
//! run is validated as its generation's library validates it (see
//! [`rules`]); an older run that the current library would reject gets a
//! warning. Layouts: one run, a JSON list of runs, JSON Lines of runs.
//!
//! Mapping (docs/formats/docent.md): a run → an AgentRun; each transcript → a
//! Transcript keyed by its name (older) or id (current); each message → one
//! event: a Message, or a ToolResult for `tool` messages, linked to its call
//! by `tool_call_id` within the transcript.

mod agentrun;
mod fast;
mod rules;

use std::collections::HashMap;
use std::ops::Range;

use serde_json::{Map, Value};

use super::{json_type, Builder, CallQueue, Format, Input, Sample, Score};
use crate::diagnostic::Severity::{Error, Warning};
use crate::json::{render_path, scan, Layout, Seg};
use crate::model::{Arguments, CallRef, Content, ContentPart, EventBody, Message, Metadata, ToolCall, ToolResult, ToolStatus};
use rules::{Gen, Issue, Shape};

pub struct Docent;

/// Metadata key under which Docent's own run and transcript fields are kept
/// (suffixed with `_` while the source's metadata already uses it).
const RESERVED_KEY: &str = "_docent";

impl Format for Docent {
    fn id(&self) -> &'static str {
        "docent"
    }

    fn name(&self) -> &'static str {
        "Docent AgentRun JSON"
    }

    /// The run read back from its own JSON: every field Docent renders is there.
    fn agent_run(&self, trace: &crate::model::Trace, run: usize) -> Option<crate::agentrun::DocRun> {
        let start = trace.runs.get(run)?.offset?;
        agentrun::docent_source(trace, start, run)
    }

    fn detect(&self, sample: &Sample) -> Option<Score> {
        let records: Vec<&Value> = sample.records().collect();
        let mut runs = 0usize;
        let (mut older, mut current, mut shaped, mut scores, mut groups) = (0usize, 0usize, 0usize, 0usize, 0usize);
        for o in records.iter().filter_map(|r| r.as_object()) {
            let transcripts: Vec<&Value> = match o.get("transcripts") {
                Some(Value::Object(m)) => {
                    older += 1;
                    m.values().collect()
                }
                Some(Value::Array(items)) => {
                    current += 1;
                    items.iter().collect()
                }
                _ => continue,
            };
            runs += 1;
            if transcripts.iter().any(|t| has_docent_messages(t)) {
                shaped += 1;
            }
            if o.get("metadata").and_then(|m| m.get("scores")).is_some() {
                scores += 1;
            }
            if o.contains_key("transcript_groups") {
                groups += 1;
            }
        }
        if runs == 0 {
            return None;
        }
        let mut evidence = vec![format!("{runs} of {} sampled records are objects with `transcripts` (Docent AgentRuns)", records.len())];
        if older > 0 {
            evidence.push(format!("{older} with `transcripts` an object keyed by name (older Docent generation)"));
        }
        if current > 0 {
            evidence.push(format!("{current} with `transcripts` a list (current Docent generation)"));
        }
        if shaped > 0 {
            evidence.push(format!("{shaped} with transcript `messages` in Docent's shape (`role` system/user/assistant/tool and `content`)"));
        }
        if scores > 0 {
            evidence.push(format!("{scores} with `metadata.scores`"));
        }
        if groups > 0 {
            evidence.push(format!("{groups} with `transcript_groups`"));
        }
        let confidence = (0.6 * runs as f32 + 0.4 * shaped as f32) / records.len() as f32;
        Some(Score { confidence: confidence.min(1.0), evidence })
    }

    fn import(&self, input: &Input, out: &mut Builder) {
        let b = out.bytes();
        let mut reader = Reader { out, b, ends: &input.split.ends, hazards: &input.split.hazards, scratch: fast::Scratch::default() };
        match input.split.layout {
            Layout::Json => {
                if let Some(doc) = input.split.values.first() {
                    let complete = input.split.errors.is_empty() || doc.range.end < b.len();
                    reader.document(doc.range.clone(), complete);
                }
            }
            Layout::Jsonl => {
                for v in &input.split.values {
                    reader.run(v.range.clone(), "$");
                }
            }
        }
    }
}

/// True when some message of a sampled transcript has a Docent role and `content`.
fn has_docent_messages(t: &Value) -> bool {
    t.get("messages").and_then(Value::as_array).is_some_and(|messages| {
        messages.iter().any(|m| {
            m.get("role").and_then(Value::as_str).is_some_and(|r| rules::class_of(r).is_some()) && m.get("content").is_some()
        })
    })
}

struct Reader<'r, 'a> {
    out: &'r mut Builder<'a>,
    b: &'a [u8],
    /// The split's container ends: records are jumped over, not rescanned.
    ends: &'r crate::json::ContainerEnds,
    /// The split's hazards: messages holding one take the exact path.
    hazards: &'r [usize],
    scratch: fast::Scratch,
}

/// A run's `transcripts` member, located but not read.
enum Transcripts {
    Missing,
    Object(Vec<(String, Range<usize>)>),
    List(Vec<Range<usize>>),
    Other(Value, Range<usize>),
}

/// A transcript's `messages` member, located but not read.
enum Messages {
    Missing,
    List(Vec<Range<usize>>),
    Other(Value, Range<usize>),
}

/// Tool-call linking state within one transcript.
#[derive(Default)]
struct Links {
    by_id: HashMap<String, CallRef>,
    /// Calls of the latest assistant message that made calls, for tool messages without an id.
    latest: CallQueue,
    /// Every call, with its message's range and path and its index, to warn about unanswered ones.
    calls: Vec<(CallRef, Range<usize>, String)>,
}

impl<'r, 'a> Reader<'r, 'a> {
    fn first_byte(&self, r: &Range<usize>) -> Option<u8> {
        self.b.get(scan::skip_ws(self.b, r.start)).copied()
    }

    /// One JSON document: a list of runs or one run.
    fn document(&mut self, range: Range<usize>, complete: bool) {
        match self.first_byte(&range) {
            Some(b'[') => {
                let (items, end) = scan::array_items_in(self.b, range.start, self.ends);
                for (i, item) in items.iter().enumerate() {
                    self.run(item.clone(), &format!("$[{i}]"));
                }
                if end.is_err() {
                    // The core reported the syntax error; keep the unread rest.
                    let from = items.last().map(|r| r.end).unwrap_or(range.start);
                    self.out.unparsed(from..self.b.len(), "$", "not read: invalid JSON from here".to_string());
                }
            }
            _ if !complete => self.out.unparsed(range, "$", "not read: the document is not valid JSON".to_string()),
            _ => self.run(range, "$"),
        }
    }

    /// Parses the members of an object except `skip`, which is only located.
    fn members(&mut self, members: &[(String, Range<usize>)], skip: &str, path: &str) -> (Map<String, Value>, Option<Range<usize>>) {
        let mut fields = Map::new();
        let mut skipped = None;
        for (key, r) in members {
            if key == skip {
                skipped = Some(r.clone());
            } else if let Ok(v) = self.out.parse_record(r, &render_path(path, &[Seg::key(key)])) {
                fields.insert(key.clone(), v);
            }
        }
        (fields, skipped)
    }

    /// Emits the generation's issues as errors and, for an older run, what
    /// only the current library rejects as warnings (`secondary`).
    fn report(&mut self, primary: &[Issue], secondary: &[Issue], older: bool, record: &Range<usize>, path: &str, event: Option<u32>) {
        for i in primary {
            let message = if older && !secondary.iter().any(|s| s.at == i.at) {
                format!("{} ({} accepts this)", i.message, Gen::Current.library())
            } else {
                i.message.clone()
            };
            self.out.diag_in(Error, i.code, message, record, path, &i.at, event);
        }
        for i in secondary.iter().filter(|s| !primary.iter().any(|p| p.at == s.at)) {
            let message = format!("{} would reject this: {}", Gen::Current.library(), i.message);
            self.out.diag_in(Warning, "rejected-by-current-docent", message, record, path, &i.at, event);
        }
    }

    /// One AgentRun.
    fn run(&mut self, range: Range<usize>, path: &str) {
        let n = self.out.runs().len();
        let start = scan::skip_ws(self.b, range.start);
        let members = match self.first_byte(&range) {
            Some(b'{') => scan::object_members_in(self.b, start, self.ends),
            _ => {
                self.not_a_run(range, path);
                return;
            }
        };
        let members = match members {
            Ok(m) => m,
            Err(e) => {
                self.out.begin_run(format!("run-{n}"), with_reserved(Metadata::new(), &Map::new(), &[], Gen::Current), Some(start));
                self.out.syntax_error(&e, path);
                self.out.unparsed(range, path, "not read: invalid JSON".to_string());
                return;
            }
        };
        let (fields, transcripts_at) = self.members(&members, "transcripts", path);
        let transcripts = self.locate_transcripts(transcripts_at, path);
        let gen = if matches!(transcripts, Transcripts::Object(_)) { Gen::Older } else { Gen::Current };

        let id = match fields.get("id") {
            Some(Value::String(s)) => s.clone(),
            _ => format!("run-{n}"),
        };
        let metadata = with_reserved(own_metadata(&fields), &fields, &["metadata"], gen);
        self.out.begin_run(id, metadata, Some(start));
        if let Some(run) = self.out.last_run_mut() {
            run.name = fields.get("name").and_then(Value::as_str).map(str::to_string);
            run.description = fields.get("description").and_then(Value::as_str).map(str::to_string);
        }

        let shape = |gen_for: Gen| rules::check_run(&fields, &transcripts_shape(&transcripts), gen_for);
        let primary = shape(gen);
        let secondary = if gen == Gen::Older { shape(Gen::Current) } else { Vec::new() };
        self.report(&primary, &secondary, gen == Gen::Older, &range, path, None);

        let mut keys: HashMap<String, usize> = HashMap::new();
        match transcripts {
            Transcripts::Missing => {}
            Transcripts::Object(members) => {
                for (key, r) in members {
                    let tpath = render_path(path, &[Seg::key("transcripts"), Seg::Key(key.clone())]);
                    self.transcript(r, &tpath, Some(key), 0, gen, &mut keys);
                }
            }
            Transcripts::List(items) => {
                for (i, r) in items.into_iter().enumerate() {
                    let tpath = render_path(path, &[Seg::key("transcripts"), Seg::Index(i)]);
                    self.transcript(r, &tpath, None, i, gen, &mut keys);
                }
            }
            Transcripts::Other(_, r) => {
                let tpath = render_path(path, &[Seg::key("transcripts")]);
                self.out.unparsed(r, &tpath, "`transcripts` is neither a list nor an object".to_string());
            }
        }
    }

    /// A top-level value that is not an object: an error, kept as an unparsed event.
    fn not_a_run(&mut self, range: Range<usize>, path: &str) {
        let n = self.out.runs().len();
        let start = scan::skip_ws(self.b, range.start);
        // Without an object `transcripts`, a run counts as current, as the oracle counts it.
        self.out.begin_run(format!("run-{n}"), with_reserved(Metadata::new(), &Map::new(), &[], Gen::Current), Some(start));
        let v = self.out.parse_record(&range, path).unwrap_or(Value::Null);
        let hint = match &v {
            Value::Array(items) if items.iter().any(|m| m.get("role").is_some()) => {
                " (this is a plain list of chat messages; Docent wraps messages in {\"transcripts\": [{\"messages\": [...]}]})"
            }
            _ => "",
        };
        self.out.diag(
            Error,
            "run-not-object",
            format!("expected a Docent AgentRun object with `transcripts`, found {}{hint}", json_type(&v)),
            path.to_string(),
            start,
            None,
        );
        self.out.unparsed(range, path, "not an AgentRun object".to_string());
    }

    fn locate_transcripts(&mut self, at: Option<Range<usize>>, run_path: &str) -> Transcripts {
        let Some(r) = at else { return Transcripts::Missing };
        let start = scan::skip_ws(self.b, r.start);
        let path = render_path(run_path, &[Seg::key("transcripts")]);
        match self.first_byte(&r) {
            Some(b'{') => match scan::object_members_in(self.b, start, self.ends) {
                Ok(m) => Transcripts::Object(m),
                Err(e) => {
                    self.out.syntax_error(&e, &path);
                    Transcripts::Other(Value::Null, r)
                }
            },
            Some(b'[') => Transcripts::List(scan::array_items_in(self.b, start, self.ends).0),
            _ => Transcripts::Other(self.out.parse_record(&r, &path).unwrap_or(Value::Null), r),
        }
    }

    /// One transcript: `key` is its name in an older run; a current one is keyed by its id.
    fn transcript(&mut self, range: Range<usize>, path: &str, key: Option<String>, i: usize, gen: Gen, keys: &mut HashMap<String, usize>) {
        let start = scan::skip_ws(self.b, range.start);
        let members = match self.first_byte(&range) {
            Some(b'{') => scan::object_members_in(self.b, start, self.ends).ok(),
            _ => None,
        };
        let Some(members) = members else {
            let v = self.out.parse_record(&range, path).unwrap_or(Value::Null);
            let key = self.unique_key(key.unwrap_or_else(|| format!("transcript-{i}")), keys, &range, path);
            self.out.begin_transcript(key, Metadata::new());
            self.out.diag(Error, "transcript-not-object", format!("expected a transcript object with `messages`, found {}", json_type(&v)), path.to_string(), start, None);
            self.out.unparsed(range, path, "not a transcript object".to_string());
            return;
        };
        let (fields, messages_at) = self.members(&members, "messages", path);
        let messages = self.locate_messages(messages_at, path);
        let key = key.unwrap_or_else(|| match fields.get("id") {
            Some(Value::String(id)) => id.clone(),
            _ => format!("transcript-{i}"),
        });
        let key = self.unique_key(key, keys, &range, path);
        let metadata = with_reserved(own_metadata(&fields), &fields, &["metadata"], gen);
        self.out.begin_transcript(key, metadata);

        let shape = match &messages {
            Messages::Missing => Shape::Missing,
            Messages::List(items) => Shape::List(items.len()),
            Messages::Other(v, _) => Shape::Other(v),
        };
        let primary = rules::check_transcript(&fields, &shape, gen);
        let secondary = if gen == Gen::Older { rules::check_transcript(&fields, &shape, Gen::Current) } else { Vec::new() };
        self.report(&primary, &secondary, gen == Gen::Older, &range, path, None);

        match messages {
            Messages::Missing => {}
            Messages::List(items) => {
                let mut links = Links::default();
                for (j, r) in items.into_iter().enumerate() {
                    let mpath = render_path(path, &[Seg::key("messages"), Seg::Index(j)]);
                    self.message(r, &mpath, gen, &mut links);
                }
                self.finish_links(links);
            }
            Messages::Other(_, r) => {
                let mpath = render_path(path, &[Seg::key("messages")]);
                self.out.unparsed(r, &mpath, "`messages` is not a list".to_string());
            }
        }
    }

    fn locate_messages(&mut self, at: Option<Range<usize>>, transcript_path: &str) -> Messages {
        let Some(r) = at else { return Messages::Missing };
        let path = render_path(transcript_path, &[Seg::key("messages")]);
        match self.first_byte(&r) {
            Some(b'[') => Messages::List(scan::array_items_in(self.b, scan::skip_ws(self.b, r.start), self.ends).0),
            _ => Messages::Other(self.out.parse_record(&r, &path).unwrap_or(Value::Null), r),
        }
    }

    /// The model wants unique transcript keys within a run; a repeat gets `#2`, `#3`, ….
    fn unique_key(&mut self, key: String, keys: &mut HashMap<String, usize>, range: &Range<usize>, path: &str) -> String {
        let seen = keys.entry(key.clone()).or_insert(0);
        *seen += 1;
        if *seen == 1 {
            return key;
        }
        let renamed = format!("{key}#{seen}");
        self.out.diag(
            Warning,
            "duplicate-transcript-id",
            format!("transcript {key:?} appears more than once in this run; this one is shown as {renamed:?}"),
            path.to_string(),
            scan::skip_ws(self.b, range.start),
            None,
        );
        renamed
    }

    /// One chat message → one event: read fast when it is of a common,
    /// valid shape (see [`fast`]), else parsed and validated whole.
    fn message(&mut self, range: Range<usize>, path: &str, gen: Gen, links: &mut Links) {
        if let Some(m) = self.fast_message(&range, gen) {
            let index = self.out.next_event();
            self.place(m, range, path, index, links);
            return;
        }
        let v = match self.out.parse_record(&range, path) {
            Ok(v) => v,
            Err(msg) => {
                self.out.unparsed(range, path, format!("invalid JSON: {msg}"));
                return;
            }
        };
        let index = self.out.next_event();
        let primary = rules::check_message(&v, gen);
        let secondary = if gen == Gen::Older { rules::check_message(&v, Gen::Current) } else { Vec::new() };
        self.report(&primary, &secondary, gen == Gen::Older, &range, path, Some(index));
        let Value::Object(o) = v else {
            self.out.push_event(EventBody::Unparsed(format!("a message must be an object, not {}", json_type(&v))), "ChatMessage", range, path.to_string(), None);
            return;
        };
        let role = match o.get("role") {
            Some(Value::String(r)) => r.clone(),
            Some(other) => other.to_string(),
            None => String::new(),
        };
        let answer = (role == "tool").then(|| Answer::of(&o));
        let tool_calls = if role == "assistant" { calls(o.get("tool_calls")) } else { Vec::new() };
        let m = ReadMessage { content: content(o.get("content")), role, tool_calls, answer };
        self.place(m, range, path, index, links);
    }

    /// Pushes a read message as event `index`, linking its calls or its answer.
    fn place(&mut self, m: ReadMessage, range: Range<usize>, path: &str, index: u32, links: &mut Links) {
        let kind = match rules::class_of(&m.role) {
            Some(class) => class.to_string(),
            None if m.role.is_empty() => "ChatMessage".to_string(),
            None => format!("ChatMessage:{}", m.role),
        };
        if let Some(answer) = m.answer {
            let result = self.tool_result(answer, m.content, links, &range, path, index);
            self.out.push_event(EventBody::ToolResult(result), &kind, range, path.to_string(), None);
            return;
        }
        self.register_calls(&m.tool_calls, index, &range, path, links);
        let body = Message { role: m.role, content: m.content, tool_calls: m.tool_calls };
        self.out.push_event(EventBody::Message(body), &kind, range, path.to_string(), None);
    }

    fn register_calls(&mut self, calls: &[ToolCall], index: u32, range: &Range<usize>, path: &str, links: &mut Links) {
        if calls.is_empty() {
            return;
        }
        links.latest.clear();
        for (j, call) in calls.iter().enumerate() {
            let cref = CallRef { event: index, call: crate::source::clamp_u32(j) };
            let at = [Seg::key("tool_calls"), Seg::Index(j)];
            if let Some(id) = &call.id {
                if let Some(prev) = links.by_id.insert(id.clone(), cref) {
                    let message = format!(
                        "tool call id {id:?} was already used by event {} in this transcript; tool messages with this id answer this later call",
                        prev.event
                    );
                    self.out.diag_in(Warning, "duplicate-tool-call-id", message, range, path, &at, Some(index));
                }
            }
            links.latest.push(cref, &call.function);
            links.calls.push((cref, range.clone(), path.to_string()));
        }
    }

    /// A `tool` message: linked by `tool_call_id`, or without one to the first
    /// unanswered call (of the same function, when named) of the latest assistant message.
    fn tool_result(&mut self, answer: Answer, content: Content, links: &mut Links, range: &Range<usize>, path: &str, index: u32) -> ToolResult {
        let status = if answer.errored { ToolStatus::Error } else { ToolStatus::Success };
        let mut result = ToolResult { call_id: None, content, status, call: None, implicit_link: false };
        let target = match answer.call_id {
            AnswerId::Id(id) => {
                let found = links.by_id.get(&id).copied();
                if found.is_none() {
                    let message = format!("no tool call before this message in its transcript has id {id:?}");
                    self.out.diag_in(Warning, "unknown-tool-call-id", message, range, path, &[Seg::key("tool_call_id")], Some(index));
                }
                result.call_id = Some(id);
                found
            }
            AnswerId::Missing => {
                let function = answer.function.as_deref();
                let found = links.latest.first_unanswered(self.out, function);
                match found {
                    Some(_) => result.implicit_link = true,
                    None => {
                        let of = function.map(|f| format!(" to `{f}`")).unwrap_or_default();
                        let message = format!("tool message has no `tool_call_id` and no earlier unanswered tool call{of} to answer");
                        self.out.diag_in(Warning, "tool-message-without-call", message, range, path, &[], Some(index));
                    }
                }
                found
            }
            AnswerId::Other => None,
        };
        if let Some(cref) = target {
            result.call = Some(cref);
            self.out.link_result(cref, index);
        }
        result
    }

    fn finish_links(&mut self, links: Links) {
        for (cref, range, path) in links.calls {
            let Some(call) = self.out.call(cref) else { continue };
            if call.result.is_some() {
                continue;
            }
            let name = if call.function.is_empty() { "tool call".to_string() } else { format!("call to `{}`", call.function) };
            let at = [Seg::key("tool_calls"), Seg::Index(cref.call as usize)];
            self.out.diag_in(Warning, "unanswered-tool-call", format!("{name} never gets a tool message"), &range, &path, &at, Some(cref.event));
        }
    }
}

/// A message as the importer places it, read by either path.
struct ReadMessage {
    role: String,
    content: Content,
    tool_calls: Vec<ToolCall>,
    /// For a `tool` message: what it says about the call it answers.
    answer: Option<Answer>,
}

/// A `tool` message's `error`, `tool_call_id` and `function`.
struct Answer {
    errored: bool,
    call_id: AnswerId,
    /// The function answered, used to link a message without an id.
    function: Option<String>,
}

enum AnswerId {
    Id(String),
    /// Absent or null: linked to the latest unanswered call.
    Missing,
    /// Not a string (an error reported by validation): linked to nothing.
    Other,
}

impl Answer {
    fn of(o: &Map<String, Value>) -> Answer {
        Answer {
            errored: !matches!(o.get("error"), None | Some(Value::Null)),
            call_id: match o.get("tool_call_id") {
                Some(Value::String(id)) => AnswerId::Id(id.clone()),
                None | Some(Value::Null) => AnswerId::Missing,
                Some(_) => AnswerId::Other,
            },
            function: o.get("function").and_then(Value::as_str).map(str::to_string),
        }
    }
}

fn transcripts_shape(t: &Transcripts) -> Shape<'_> {
    match t {
        Transcripts::Missing => Shape::Missing,
        Transcripts::Object(m) => Shape::Object(m.len()),
        Transcripts::List(items) => Shape::List(items.len()),
        Transcripts::Other(v, _) => Shape::Other(v),
    }
}

/// The source's `metadata` object verbatim; any other value kept under `metadata`.
fn own_metadata(fields: &Map<String, Value>) -> Metadata {
    match fields.get("metadata") {
        Some(Value::Object(m)) => m.clone(),
        Some(other) => Metadata::from_iter([("metadata".to_string(), other.clone())]),
        None => Metadata::new(),
    }
}

/// Adds Docent's own fields (all but `except`) and the generation under the reserved key.
fn with_reserved(mut metadata: Metadata, fields: &Map<String, Value>, except: &[&str], gen: Gen) -> Metadata {
    let mut own = Map::new();
    own.insert("generation".to_string(), Value::String(gen.name().to_string()));
    for (k, v) in fields.iter().filter(|(k, _)| !except.contains(&k.as_str())) {
        own.insert(k.clone(), v.clone());
    }
    let mut key = RESERVED_KEY.to_string();
    while metadata.contains_key(&key) {
        key.push('_');
    }
    metadata.insert(key, Value::Object(own));
    metadata
}

/// Message content: a string, or parts (text and reasoning; others kept whole).
fn content(v: Option<&Value>) -> Content {
    match v {
        None | Some(Value::Null) => Content::None,
        Some(Value::String(s)) => Content::Text(s.as_str().into()),
        Some(Value::Array(parts)) => Content::Parts(parts.iter().map(part).collect()),
        Some(other) => Content::Json(other.clone().into()),
    }
}

fn part(p: &Value) -> ContentPart {
    let text_of = |key: &str| p.get(key).and_then(Value::as_str).map(str::to_string);
    match p.get("type").and_then(Value::as_str) {
        Some("text") => text_of("text").map(|t| ContentPart::Text(t.into())),
        Some("reasoning") => text_of("reasoning").map(|t| ContentPart::Reasoning(t.into())),
        _ => None,
    }
    .unwrap_or_else(|| ContentPart::Other(p.clone()))
}

/// An assistant's `tool_calls`; one entry per source item so indices match paths.
fn calls(v: Option<&Value>) -> Vec<ToolCall> {
    let Some(Value::Array(items)) = v else { return Vec::new() };
    items
        .iter()
        .map(|c| {
            let arguments = match c.get("arguments") {
                Some(Value::String(s)) => Arguments { value: None, text: Some(s.as_str().into()) },
                Some(other) => Arguments { value: Some(other.clone().into()), text: None },
                None => Arguments::default(),
            };
            ToolCall {
                id: c.get("id").and_then(Value::as_str).map(str::to_string),
                function: match c.get("function") {
                    Some(Value::String(f)) => f.clone(),
                    Some(other) => other.get("name").and_then(Value::as_str).map(str::to_string).unwrap_or_else(|| other.to_string()),
                    None => String::new(),
                },
                arguments,
                result: None,
            }
        })
        .collect()
}
