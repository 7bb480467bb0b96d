//! Reads a session's records into runs and events.
//!
//! Each record is placed in a run (the main conversation; a sub-agent by
//! `agentId`; sidechain records without one by their `parentUuid` chain);
//! the main conversation's records are read as they are placed, the other
//! runs' after it, each run's in order, so a run's events are contiguous
//! even when sidechain records sit between the main conversation's lines.
//! Every record is one event.

use std::borrow::Cow;
use std::ops::Range;

use serde_json::{Map, Value};

use super::blocks::CallBlock;
use super::fast::{self, FastContent};
use super::ids::{IdMap, Symbols};
use super::look::{self, Id, Look, Read};
use super::meta::{self, MetaRecord, RunMeta};
use super::{blocks, branches, place, is_agent_meta, meta_agent_id, usage, walk, Lookup, RUN_KEYS};
use crate::diagnostic::Severity;
use crate::import::{top_records, Builder, Input};
use crate::json::Seg;
use crate::model::{CallRef, Content, EventBody, KeyValue, Marker, Message, Metadata, ToolResult, ToolStatus};

/// One run's records before they are read.
struct RunRecords {
    /// `main`, `agent-<id>` or `sidechain-<n>`.
    id: String,
    agent: Option<String>,
    records: Vec<(Range<usize>, String)>,
    /// Its sub-agent's `agent-<id>.meta.json` values.
    metas: Vec<MetaRecord>,
}

impl RunRecords {
    fn new(id: String, agent: Option<String>) -> RunRecords {
        RunRecords { id, agent, records: Vec::new(), metas: Vec::new() }
    }
}

pub fn import(input: &Input, out: &mut Builder) {
    let b = out.bytes();
    let (ends, hazards) = (&input.split.ends, &input.split.hazards);
    let mut reader = Reader { out, ends, hazards, usage: usage::Counted::default(), calls: IdMap::default(), agent_calls: Lookup::default(), bufs: fast::Buffers::default(), resume: None };
    // Run 0 is read as its records are placed (the others after it, as
    // before): placed in one pass and read in another, each record's bytes
    // came from memory twice. Its place in `runs` stays empty.
    let main_run = RunRecords::new("main".to_string(), None);
    let mut main: Option<(RunState<'_>, RunMeta)> = None;
    let mut runs = vec![RunRecords::new("main".to_string(), None)];
    let mut by_id: Lookup<String, usize> = Lookup::default();
    let mut sidechain_uuids: Lookup<String, usize> = Lookup::default();
    // The main conversation of each session file: several sessions read
    // together (a folder picked whole) stay apart, the first one run 0.
    let mut main_of_file: Lookup<Option<String>, usize> = Lookup::default();
    let all = top_records(input);
    let count = all.len();
    let lone_meta = input.files.is_empty() && all.len() == 1;
    let mut members = Vec::new();
    for r in all {
        if r.broken {
            continue; // kept as an unparsed event by the core
        }
        // A sub-agent's metadata file goes to that sub-agent's run, by its name.
        let file = input.file_at(r.range.start);
        let meta_id = file.and_then(meta_agent_id).map(str::to_string).or_else(|| {
            let alone = lone_meta && b.get(r.range.clone()).and_then(|x| serde_json::from_slice::<Value>(x).ok()).is_some_and(|v| v.as_object().is_some_and(is_agent_meta));
            alone.then(String::new)
        });
        if let Some(agent) = meta_id {
            let id = if agent.is_empty() { meta::KIND.to_string() } else { format!("agent-{agent}") };
            let slot = *by_id.entry(id.clone()).or_insert_with(|| {
                runs.push(RunRecords::new(id, Some(agent).filter(|a| !a.is_empty())));
                runs.len() - 1
            });
            if let Some(run) = runs.get_mut(slot) {
                run.metas.push(MetaRecord { range: r.range, path: r.path, file: file.map(str::to_string) });
            }
            continue;
        }
        // Most records are the main conversation's: placed without their ids.
        let quick = !reader.out.exact_only() && place::not_sidechain(b, &input.split.ends, &r.range);
        let mut head = (!quick).then(|| place::head(input, reader.out, &mut members, &r.range));
        let as_str = |v: &Option<Cow<'_, str>>| v.as_deref().map(str::to_string);
        let slot = match head.as_ref().filter(|h| h.sidechain) {
            None => {
                let first = main_of_file.is_empty();
                *main_of_file.entry(file.map(str::to_string)).or_insert_with(|| {
                    if first {
                        return 0;
                    }
                    runs.push(RunRecords::new("main".to_string(), None));
                    runs.len() - 1
                })
            }
            Some(head) => match as_str(&head.agent) {
                Some(agent) => {
                    let id = format!("agent-{agent}");
                    *by_id.entry(id.clone()).or_insert_with(|| {
                        runs.push(RunRecords::new(id, Some(agent)));
                        runs.len() - 1
                    })
                }
                None => match as_str(&head.parent).and_then(|p| sidechain_uuids.get(&p).copied()) {
                    Some(slot) => slot,
                    None => {
                        runs.push(RunRecords::new(format!("sidechain-{}", runs.len()), None));
                        runs.len() - 1
                    }
                },
            },
        };
        if slot == 0 {
            // Most records are the main conversation's.
            let (state, _) = main.get_or_insert_with(|| reader.begin(&main_run, Some(r.range.start), count));
            reader.read(r.range, r.path, state);
            continue;
        }
        {
            let head = head.get_or_insert_with(|| place::head(input, reader.out, &mut members, &r.range));
            if let (None, Some(uuid)) = (&head.agent, as_str(&head.uuid)) {
                sidechain_uuids.insert(uuid, slot);
            }
        }
        if let Some(run) = runs.get_mut(slot) {
            run.records.push((r.range, r.path));
        }
    }
    if let Some((state, run_meta)) = main {
        reader.end(&main_run, state, run_meta);
    }
    for run in runs.into_iter().filter(|r| !r.records.is_empty() || !r.metas.is_empty()) {
        reader.run(run);
    }
}

struct Reader<'r, 'a> {
    out: &'r mut Builder<'a>,
    /// The split's container ends and hazards, for the fast path.
    ends: &'r crate::json::ContainerEnds,
    hazards: &'r [usize],
    /// The usage counted so far (once per `message.id` + `requestId`).
    usage: usage::Counted<'r>,
    /// Tool calls by their `tool_use` id's text, as bytes: borrowed from
    /// the source when read fast (a copy of each id was an allocation).
    calls: IdMap<'r, CallRef>,
    /// The call that started each sub-agent, by `agentId`.
    agent_calls: Lookup<String, String>,
    /// The fast path's lists, kept from one record to the next.
    bufs: fast::Buffers,
    /// Where the last record's walk left the split's table.
    resume: Option<walk::Resume<'r>>,
}

/// What one run's reading keeps between records.
#[derive(Default)]
struct RunState<'b> {
    /// The assistant turn being written: its `message.id` and event.
    turn: Option<(Id<'b>, u32)>,
    /// Calls of the run, with their record and index in its content, to warn about unanswered ones.
    sites: Vec<(CallRef, Range<usize>, usize)>,
    /// One node a record (reserved for the run's records: growing the list copied it a dozen times).
    nodes: Vec<branches::Node>,
    /// The numbers of the nodes' ids.
    symbols: Symbols<'b>,
    /// The number of the last assistant record's `message.id`.
    last_message: Option<u32>,
    /// The number of the last record's uuid that had one (kept, not found
    /// by a look back over the nodes: records without a uuid made that
    /// look quadratic).
    last_uuid: Option<u32>,
    metadata: Metadata,
    /// Which of the [`RUN_KEYS`] `metadata` holds.
    run_keys: [bool; RUN_KEYS.len()],
    title: Option<String>,
}

impl RunState<'_> {
    /// The run's keys the record has that the run has not yet: its first non-null values.
    fn run_keys<L: Look>(&mut self, o: &L) {
        for (k, have) in RUN_KEYS.iter().zip(&mut self.run_keys) {
            if *have {
                continue;
            }
            if let Some(x) = o.value(*k).ok().flatten().filter(|x| !x.is_null()) {
                self.metadata.insert(k.name().to_string(), x);
                *have = true;
            }
        }
    }
}

impl<'r> Reader<'r, '_> {
    fn run(&mut self, mut run: RunRecords) {
        let offset = run.records.first().map(|(r, _)| r.start);
        let (mut state, run_meta) = self.begin(&run, offset, run.records.len());
        // Each record's path moves into its event (a copy each was an allocation).
        for (range, path) in std::mem::take(&mut run.records) {
            self.read(range, path, &mut state);
        }
        self.end(&run, state, run_meta);
    }

    /// Begins `run` (at `offset`, with about `records` records besides its
    /// sub-agent metadata, which is read here).
    fn begin(&mut self, run: &RunRecords, offset: Option<usize>, records: usize) -> (RunState<'r>, RunMeta) {
        self.out.begin_run(run.id.clone(), Metadata::new(), offset);
        let mut state = RunState::default();
        state.nodes.reserve(records + run.metas.len());
        // A uuid a record, and a `message.id` for some.
        state.symbols.reserve(records + records / 2);
        let mut run_meta = RunMeta::default();
        let first_meta_event = self.out.next_event();
        for rec in &run.metas {
            if let Some(v) = meta::read(self.out, rec, &mut run_meta) {
                self.record(v, &rec.range, rec.path.clone(), &mut state);
            }
        }
        if let (0, Some(rec)) = (records, run.metas.first()) {
            meta::warn_alone(self.out, rec, &run_meta, first_meta_event);
        }
        if let (Some(agent), Some(call)) = (&run.agent, run_meta.tool_use_id()) {
            self.agent_calls.entry(agent.clone()).or_insert_with(|| call.to_string());
        }
        (state, run_meta)
    }

    /// Reads the run's record at `range`.
    fn read(&mut self, range: Range<usize>, path: String, state: &mut RunState<'r>) {
        let range = &range;
        let fast = if self.out.exact_only() {
            None
        } else {
            fast::record(&fast::Source { out: self.out, b: self.out.bytes(), ends: self.ends, hazards: self.hazards }, &mut self.bufs, &mut self.resume, range, &self.usage)
        };
        match fast {
            Some(f) => {
                state.run_keys(&f.members);
                self.bufs.top = f.members.into_members();
                self.fast_record(f.read, f.content, range, path, state);
            }
            None => {
                let Ok(v) = self.out.parse_record(range, &path) else { return };
                if let Some(o) = v.as_object() {
                    state.run_keys(&o);
                }
                self.record(v, range, path, state);
            }
        }
    }

    /// Ends the run: warns of its unanswered calls, marks its branches, sets its metadata.
    fn end(&mut self, run: &RunRecords, mut state: RunState<'r>, run_meta: RunMeta) {
        for (call, range, index) in std::mem::take(&mut state.sites) {
            if self.out.answered(call) {
                continue;
            }
            let name = self.out.call(call).map(|c| c.function.clone()).unwrap_or_default();
            let message = format!("call to `{name}` has no tool_result in this session");
            self.out.diag_in(Severity::Warning, "unanswered-tool-call", message, &range, "$", &CallBlock::segs(index), Some(call.event));
        }
        branches::mark(self.out, &state.nodes, state.symbols.len());
        let parent = run.agent.as_ref().and_then(|a| self.agent_calls.get(a)).and_then(|id| Some((id.clone(), *self.calls.get(id.as_bytes())?)));
        if let Some((call_id, _)) = &parent {
            state.metadata.insert("parent_tool_call_id".to_string(), Value::from(call_id.clone()));
        }
        if let Some(r) = self.out.last_run_mut() {
            r.started_by = parent.map(|(_, call)| call);
            if r.id == "main" {
                if let Some(session) = state.metadata.get("sessionId").and_then(Value::as_str) {
                    r.id = session.to_string();
                }
            }
            run_meta.merge_into(&mut state.metadata);
            r.metadata = state.metadata;
            r.name = state.title.or_else(|| run_meta.name());
        }
    }

    /// One record read the exact way.
    fn record(&mut self, v: Value, range: &Range<usize>, path: String, state: &mut RunState<'r>) {
        let Value::Object(o) = v else {
            let at = self.out.next_event();
            self.out.diag(Severity::Warning, "not-an-object", "a Claude Code record is a JSON object; this line is not".to_string(), path.clone(), range.start, Some(at));
            self.out.push_event(EventBody::KeyValue(KeyValue { key: "(not an object)".to_string(), value: v.into() }), "(not an object)", range.clone(), path, None);
            return;
        };
        let message = o.get("message").and_then(Value::as_object);
        let result_agent = look::result_agent(&&o).unwrap_or_default(); // (never unsure: parsed)
        let mut read = Read::of(&&o, message.as_ref(), None, result_agent, usage::content_listed(message), &self.usage).unwrap_or_default();
        let results = message.and_then(|m| m.get("content")).and_then(Value::as_array).is_some_and(|b| b.iter().any(|x| x.get("type").and_then(Value::as_str) == Some("tool_result")));
        let at = self.node(&mut read, results, state);
        let usage = self.usage.take(read.usage.take(), read.message_id.as_ref(), read.request_id.as_ref());
        self.dispatch(o, read, range, path, state);
        self.fill_usage(usage, at);
    }

    /// One record the fast path read.
    fn fast_record(&mut self, mut read: Read<'r>, content: FastContent<'r>, range: &Range<usize>, path: String, state: &mut RunState<'r>) {
        let results = matches!(content, FastContent::OneResult { .. });
        let at = self.node(&mut read, results, state);
        let usage = self.usage.take(read.usage.take(), read.message_id.as_ref(), read.request_id.as_ref());
        match content {
            FastContent::Blocks { content, calls } if read.kind == "assistant" => self.assistant(None, (content, calls), read, range, path, state),
            FastContent::OneResult { tool_use_id, is_error, content } => {
                let mut results = [ResultBlock { index: 0, tool_use_id, is_error }];
                self.user(None, (&mut results, UserBody::OneResult(content)), read, range, path);
            }
            FastContent::Blocks { content, .. } => self.user(None, (&mut [], UserBody::Message(content)), read, range, path),
            FastContent::Progress { data, key, agent_call } => {
                // As `dispatch` reads a progress record.
                if let Some((agent, call)) = agent_call {
                    self.agent_calls.entry(agent).or_insert(call);
                }
                let key = key.unwrap_or_else(|| "progress".to_string());
                let ev = self.out.push_event(EventBody::KeyValue(KeyValue { key, value: data }), "progress", range.clone(), path, read.timestamp);
                self.finish(ev, Rest::InSource(fast::progress_shape), range, Metadata::new());
            }
        }
        self.fill_usage(usage, at);
    }

    /// The record's node in the run's `parentUuid` tree (its uuids are
    /// taken from `read`); its event's number. `results`: the record's
    /// content holds a `tool_result` block (a tool-result record of any type,
    /// as it always was).
    fn node(&mut self, read: &mut Read<'r>, results: bool, state: &mut RunState<'r>) -> u32 {
        let at = self.out.next_event();
        let logical = read.parent.is_none() && read.logical_parent.is_some();
        // A record's parent is mostly the record before it, and a
        // response's records share their `message.id`: those numbers are
        // checked first, on bytes at hand, before a look in the table.
        let symbols = &mut state.symbols;
        let last = state.last_uuid;
        let uuid = read.uuid.take().and_then(|u| symbols.of(u));
        let parent = match read.parent.take().or_else(|| read.logical_parent.take()) {
            Some(p) => last.filter(|n| symbols.is(*n, &p)).or_else(|| symbols.of(p)),
            None => None,
        };
        let message_id = match read.message_id.clone().filter(|_| read.kind == "assistant") {
            Some(m) => state.last_message.filter(|n| symbols.is(*n, &m)).or_else(|| symbols.of(m)),
            None => None,
        };
        if message_id.is_some() {
            state.last_message = message_id;
        }
        if uuid.is_some() {
            state.last_uuid = uuid;
        }
        state.nodes.push(branches::Node {
            event: at,
            uuid,
            parent,
            logical,
            conversation: read.kind == "user" || read.kind == "assistant",
            attached: read.kind == "user" && read.tool_use_result || results,
            message_id,
        });
        at
    }

    fn fill_usage(&mut self, usage: Option<usage::Taken>, at: u32) {
        if let (Some(u), Some(e)) = (usage, self.out.event_mut(at)) {
            u.fill(e.facts_mut());
        }
    }

    /// Reads the record by its type into exactly one event.
    fn dispatch(&mut self, mut o: Map<String, Value>, read: Read<'r>, range: &Range<usize>, path: String, state: &mut RunState<'r>) {
        let str_field = |o: &Map<String, Value>, k: &str| o.get(k).and_then(Value::as_str).map(str::to_string);
        let kind = read.kind.to_string();
        let body = match kind.as_str() {
            "assistant" => {
                let (message, content) = take_message(&mut o);
                if message.is_none() {
                    let at = self.out.next_event();
                    self.out.diag_in(Severity::Warning, "no-message", "an `assistant` record should carry an API `message` object".to_string(), range, &path, &[Seg::Key("message".into())], Some(at));
                }
                let content = blocks::content(content.as_ref());
                return self.assistant(Some((o, message.unwrap_or_default())), content, read, range, path, state);
            }
            "user" => {
                let (message, content) = take_message(&mut o);
                let (mut results, body) = user_blocks(content.as_ref());
                return self.user(Some((o, message.unwrap_or_default())), (&mut results, body), read, range, path);
            }
            "system" => {
                let subtype = str_field(&o, "subtype").unwrap_or_default();
                let content = str_field(&o, "content").unwrap_or_default();
                let label = match subtype.as_str() {
                    "compact_boundary" => format!("compaction boundary: {content}"),
                    "" => content,
                    _ => format!("{subtype}: {content}"),
                };
                EventBody::Marker(Marker { label })
            }
            "summary" => EventBody::Marker(Marker { label: format!("summary: {}", str_field(&o, "summary").unwrap_or_default()) }),
            "progress" => {
                let data = o.remove("data").unwrap_or(Value::Null);
                self.agent_progress(&data, o.get("parentToolUseID").and_then(Value::as_str));
                let key = data.get("type").and_then(Value::as_str).unwrap_or("progress").to_string();
                EventBody::KeyValue(KeyValue { key, value: data.into() })
            }
            "file-history-snapshot" => EventBody::KeyValue(KeyValue { key: kind.clone(), value: o.remove("snapshot").unwrap_or(Value::Null).into() }),
            "attachment" => EventBody::KeyValue(KeyValue { key: kind.clone(), value: o.remove("attachment").unwrap_or(Value::Null).into() }),
            "custom-title" => {
                state.title = str_field(&o, "customTitle").or(state.title.take());
                EventBody::KeyValue(KeyValue { key: kind.clone(), value: o.get("customTitle").cloned().unwrap_or(Value::Null).into() })
            }
            "queue-operation" => {
                let value = match (o.get("operation"), o.get("content")) {
                    (Some(op), Some(c)) => Value::String(format!("{}: {}", op.as_str().unwrap_or_default(), c.as_str().map(str::to_string).unwrap_or_else(|| c.to_string()))),
                    (Some(op), None) => op.clone(),
                    _ => Value::Null,
                };
                EventBody::KeyValue(KeyValue { key: kind.clone(), value: value.into() })
            }
            _ => {
                // A record type this reader does not know: kept whole.
                let key = if kind.is_empty() { "(no type)".to_string() } else { kind.clone() };
                let value = Value::Object(o.clone());
                o.clear();
                EventBody::KeyValue(KeyValue { key, value: value.into() })
            }
        };
        let source_kind = if kind.is_empty() { "(no type)" } else { kind.as_str() };
        let ev = self.out.push_event(body, source_kind, range.clone(), path, read.timestamp);
        self.finish(ev, Rest::Parsed(o), range, Metadata::new());
    }

    /// A sub-agent's progress in the main session (`data.type`
    /// `agent_progress`, with its `agentId`) names the call that started it
    /// (`parentToolUseID`): the only link while the sub-agent runs, before
    /// the call's result carries `toolUseResult.agentId`.
    fn agent_progress(&mut self, data: &Value, call: Option<&str>) {
        if data.get("type").and_then(Value::as_str) != Some("agent_progress") {
            return;
        }
        if let (Some(agent), Some(call)) = (data.get("agentId").and_then(Value::as_str), call) {
            self.agent_calls.entry(agent.to_string()).or_insert_with(|| call.to_string());
        }
    }

    /// Keeps the record's remaining fields as the event's metadata, with
    /// what the reading adds (`extra`: `continues_event`) last. The extra
    /// is handed here, not put on the event first and taken back (that was
    /// a map's growth and two moves of the event's metadata each record).
    fn finish(&mut self, ev: u32, rest: Rest, range: &Range<usize>, extra: Metadata) {
        let metadata = match rest {
            Rest::Parsed(mut o) => {
                o.remove("type");
                o.remove("timestamp");
                o.extend(extra);
                o.into()
            }
            Rest::InSource(shape) => self.out.metadata_in_source(range.clone(), shape, extra),
        };
        if let Some(e) = self.out.event_mut(ev) {
            e.metadata = metadata;
        }
    }

    /// An assistant record: `exact` is the record read the exact way, less
    /// its `message`, and that message less its content (`None`: read fast).
    fn assistant(&mut self, exact: Option<(Map<String, Value>, Map<String, Value>)>, (content, calls): (Content, Vec<CallBlock<'r>>), read: Read<'r>, range: &Range<usize>, path: String, state: &mut RunState<'r>) {
        let (message_id, timestamp) = (read.message_id, read.timestamp);
        let open = state.turn.as_ref().filter(|(id, _)| message_id.as_deref() == Some(&**id)).map(|(_, ev)| *ev);
        // The turn's event and its calls so far: a later record of the same
        // API response adds its blocks to the turn's event.
        let (turn_event, base) = match open {
            Some(turn_event) => match self.out.event_mut(turn_event).map(|e| &e.body) {
                Some(EventBody::Message(m)) => (turn_event, m.tool_calls.len()),
                _ => (turn_event, 0),
            },
            None => (self.out.next_event(), 0),
        };
        // The calls move into the turn (cloning them was a tenth of this reading).
        let mut tool_calls = Vec::with_capacity(calls.len());
        for (k, c) in calls.into_iter().enumerate() {
            let call = CallRef { event: turn_event, call: crate::source::clamp_u32(base + k) };
            if let Some(id) = c.key {
                self.calls.insert(id, call);
            }
            state.sites.push((call, range.clone(), c.index));
            tool_calls.push(c.call);
        }
        let (ev, extra) = match open {
            Some(turn_event) => {
                if let Some(EventBody::Message(m)) = self.out.event_mut(turn_event).map(|e| &mut e.body) {
                    match (&mut m.content, content) {
                        (Content::Parts(have), Content::Parts(more)) => have.extend(more),
                        (_, Content::None | Content::Parts(_)) => {}
                        (have, other) => *have = other,
                    }
                    m.tool_calls.extend(tool_calls);
                }
                let label = continues_label(message_id.as_deref().unwrap_or_default(), turn_event);
                let ev = self.out.push_event(EventBody::Marker(Marker { label }), "assistant", range.clone(), path, timestamp);
                // Sized for its one entry: grown from empty it was rehashed.
                let mut extra = Metadata::with_capacity(1);
                extra.insert("continues_event".to_string(), Value::from(turn_event));
                (ev, extra)
            }
            None => {
                let body = EventBody::Message(Message { role: "assistant".to_string(), content, tool_calls });
                let ev = self.out.push_event(body, "assistant", range.clone(), path, timestamp);
                state.turn = message_id.map(|id| (id, ev));
                (ev, Metadata::new())
            }
        };
        self.finish(ev, exact.map_or(Rest::InSource(fast::metadata_shape), |e| Rest::Parsed(with_message(e))), range, extra);
        if let Some(e) = self.out.event_mut(ev) {
            e.failed = read.failed;
            if read.model.is_some() {
                e.facts_mut().model = read.model;
            }
        }
    }

    /// A user record (`exact` as [`Reader::assistant`] takes it), with its
    /// `tool_result` blocks and body.
    fn user(&mut self, exact: Option<(Map<String, Value>, Map<String, Value>)>, (results, body): (&mut [ResultBlock], UserBody), read: Read<'_>, range: &Range<usize>, path: String) {
        let at = self.out.next_event();
        let mut failed = false;
        // The calls answered: most records answer one, kept apart from a
        // list (a list each was an allocation).
        let (mut first_link, mut more_links) = (None, Vec::new());
        for r in results.iter() {
            failed |= r.is_error;
            match r.tool_use_id.as_ref().and_then(|id| self.calls.get(id.as_bytes())).copied() {
                Some(call) if first_link.is_none() => first_link = Some(call),
                Some(call) => more_links.push(call),
                None => {
                    let segs = [Seg::Key("message".into()), Seg::Key("content".into()), Seg::Index(r.index), Seg::Key("tool_use_id".into())];
                    let message = format!("tool_result for `{}` answers no tool_use of this session", r.tool_use_id.as_deref().unwrap_or_default());
                    self.out.diag_in(Severity::Warning, "orphan-tool-result", message, range, &path, &segs, Some(at));
                }
            }
        }
        if let (Some(agent), Some(first)) = (read.result_agent, results.first()) {
            if let Some(call) = &first.tool_use_id {
                self.agent_calls.entry(agent).or_insert_with(|| call.clone());
            }
        }
        let body = match body {
            UserBody::OneResult(content) => EventBody::ToolResult(ToolResult {
                call_id: results.first_mut().and_then(|r| r.tool_use_id.take()),
                content,
                status: if failed { ToolStatus::Error } else { ToolStatus::Success },
                call: first_link,
                implicit_link: false,
            }),
            UserBody::Message(content) => EventBody::Message(Message { role: "user".to_string(), content, tool_calls: Vec::new() }),
        };
        let ev = self.out.push_event(body, "user", range.clone(), path, read.timestamp);
        for call in first_link.into_iter().chain(more_links) {
            self.out.link_result(call, ev);
        }
        self.finish(ev, exact.map_or(Rest::InSource(fast::metadata_shape), |e| Rest::Parsed(with_message(e))), range, Metadata::new());
        if let Some(e) = self.out.event_mut(ev) {
            e.failed = failed;
        }
    }
}

/// `continues assistant message <id> (event <n>)`, written without
/// `format!` (a tenth of an assistant record's reading); `id` is a JSON
/// string's text, so UTF-8.
fn continues_label(id: &[u8], turn_event: u32) -> String {
    let mut label = String::with_capacity(48 + id.len());
    label.push_str("continues assistant message ");
    match std::str::from_utf8(id) {
        Ok(id) => label.push_str(id),
        Err(_) => label.push_str(&String::from_utf8_lossy(id)),
    }
    label.push_str(" (event ");
    let mut digits = [0u8; 10];
    let (mut at, mut n) = (digits.len(), turn_event);
    while let Some(d) = at.checked_sub(1).and_then(|i| digits.get_mut(i)) {
        *d = b'0' + (n % 10) as u8;
        at -= 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    label.extend(digits.get(at..).unwrap_or_default().iter().map(|d| char::from(*d)));
    label.push(')');
    label
}

/// What is left of a record for its event's metadata.
enum Rest {
    /// The parsed record, less what the reading took.
    Parsed(Map<String, Value>),
    /// A record the fast path read: left in the source, shaped the same way when first read.
    InSource(crate::event_metadata::Shape),
}

/// A user record's `tool_result` block: where it is and what the reading needs of it.
struct ResultBlock {
    index: usize,
    tool_use_id: Option<String>,
    is_error: bool,
}

/// A user record's event body, before its links are known.
enum UserBody {
    /// The content is one `tool_result` block: a tool result with its content.
    OneResult(Content),
    Message(Content),
}

/// Takes the record's `message` out of `o`: the message less its content,
/// and that content; `None` (and `o` as it was) when it is no object.
fn take_message(o: &mut Map<String, Value>) -> (Option<Map<String, Value>>, Option<Value>) {
    match o.remove("message") {
        Some(Value::Object(mut m)) => {
            let content = m.remove("content");
            (Some(m), content)
        }
        other => {
            // (serde_json's `remove` moved the last member into its place; as before.)
            if let Some(v) = other {
                o.insert("message".to_string(), v);
            }
            (None, None)
        }
    }
}

/// The record less its type and timestamp, with its message (less its
/// content) put back last, as the event's metadata holds it.
fn with_message((mut o, message): (Map<String, Value>, Map<String, Value>)) -> Map<String, Value> {
    o.insert("message".to_string(), Value::Object(message));
    o
}

/// The `tool_result` blocks of a user message's `content`, and its body.
fn user_blocks(content: Option<&Value>) -> (Vec<ResultBlock>, UserBody) {
    let blocks = content.and_then(Value::as_array);
    let results: Vec<(usize, &Value)> = blocks
        .map(|b| b.iter().enumerate().filter(|(_, x)| x.get("type").and_then(Value::as_str) == Some("tool_result")).collect())
        .unwrap_or_default();
    let body = match (results.as_slice(), blocks.map(Vec::len)) {
        ([(_, block)], Some(1)) => UserBody::OneResult(blocks::result_content(block)),
        _ => UserBody::Message(blocks::content(content).0),
    };
    let results = results
        .into_iter()
        .map(|(index, block)| ResultBlock {
            index,
            tool_use_id: block.get("tool_use_id").and_then(Value::as_str).map(str::to_string),
            is_error: block.get("is_error").and_then(Value::as_bool).unwrap_or(false),
        })
        .collect();
    (results, body)
}

#[cfg(test)]
mod tests {
    use crate::model::{Content, EventBody};

    /// What both ways share (the differential tests cannot see it): a later
    /// record of a turn with no content leaves the turn's content; a call no
    /// result answers is warned about at its block's place in the record.
    #[test]
    fn a_continued_turn_keeps_its_content_and_its_calls_places() {
        let lines = [
            r#"{"type":"assistant","uuid":"a1","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"first"}]}}"#,
            r#"{"type":"assistant","uuid":"a2","parentUuid":"a1","message":{"id":"m1","role":"assistant","content":null}}"#,
            r#"{"type":"assistant","uuid":"a3","parentUuid":"a2","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"t"},{"type":"tool_use","id":"c1","name":"X","input":{}}]}}"#,
        ];
        for exact_only in [false, true] {
            let options = crate::ParseOptions { format: Some("claude-code".into()), exact_only, ..Default::default() };
            let t = crate::parse_trace(lines.join("\n").into_bytes(), &options).unwrap();
            let Some(EventBody::Message(m)) = t.events.first().map(|e| &e.body) else { panic!("{:?}", t.events.first()) };
            assert!(matches!(&m.content, Content::Parts(p) if p.len() == 2), "{:?}", m.content);
            let unanswered: Vec<&str> = t.diagnostics.iter().filter(|d| d.code == "unanswered-tool-call").map(|d| d.path.as_str()).collect();
            assert_eq!(unanswered, ["$.message.content[1]"]);
        }
    }

    #[test]
    fn continues_label_reads_as_format_writes_it() {
        for (id, n) in [("msg_1", 0u32), ("", 7), ("é✓", 10), ("x", u32::MAX), ("m", 1_000_000), ("m", 9)] {
            assert_eq!(super::continues_label(id.as_bytes(), n), format!("continues assistant message {id} (event {n})"));
        }
    }
}
