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

mod fast;

use std::collections::HashMap;
use std::ops::Range;

use serde_json::{Map, Value};

use super::{json_type, Builder, CallQueue, CallSite, Format, Input, Sample, Score};
use crate::diagnostic::Severity::{self, Error, Warning};
use crate::json::{scan, Layout, Seg};
use crate::model::{
    Arguments, CallRef, Content, ContentPart, EventBody, Message, Metadata, ToolCall, ToolDefinition, ToolResult,
    ToolStatus,
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
                    self.unparsed(from..self.b.len(), "$", format!("not read: invalid JSON from here ({})", e.message));
                }
            }
            Some(b'{') if complete => self.trace_value(range, "$"),
            _ if !complete => self.unparsed(range, "$", "not read: the document is not valid JSON".to_string()),
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
        self.unparsed(range, path, "not a trace".to_string());
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
                        self.unparsed(r, &mpath, "`messages` is not a list".to_string());
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
            self.event(r.clone(), format!("{base}[{i}]"), &mut links);
        }
        self.finish_links(links);
    }

    fn unparsed(&mut self, range: Range<usize>, path: &str, why: String) {
        if range.start >= range.end {
            return;
        }
        self.out.push_event(EventBody::Unparsed(why), "unparsed", range, path.to_string(), None);
    }

    fn event(&mut self, r: Range<usize>, path: String, links: &mut Links) {
        if let Some(event) = self.fast_event(&r) {
            let index = self.out.next_event();
            let ctx = Ctx { range: r.clone(), path, index };
            match event {
                fast::FastEvent::Message { role, content, calls, timestamp } => {
                    self.register_calls(&calls, &ctx, &[Seg::key("tool_calls")], links);
                    let body = Message { role, content, tool_calls: calls };
                    self.out.push_event(EventBody::Message(body), "Message", r, ctx.path, timestamp);
                }
                fast::FastEvent::ToolOutput { content, status, call_id, timestamp } => {
                    let mut result = ToolResult { call_id: None, content, status, call: None, implicit_link: false };
                    self.link_output(&mut result, call_id, &ctx, links);
                    self.out.push_event(EventBody::ToolResult(result), "ToolOutput", r, ctx.path, timestamp);
                }
            }
            return;
        }
        let path = path.as_str();
        let v = match self.out.parse_record(&r, path) {
            Ok(v) => v,
            Err(msg) => {
                self.unparsed(r, path, format!("invalid JSON: {msg}"));
                return;
            }
        };
        let index = self.out.next_event();
        let Value::Object(mut o) = v else {
            self.out.diag(
                Error,
                "event-not-object",
                format!("expected an event object (a message, a tool call or a tool list), found {}", json_type(&v)),
                path.to_string(),
                r.start,
                Some(index),
            );
            self.unparsed(r, path, format!("an event must be an object, not {}", json_type(&v)));
            return;
        };
        let ctx = Ctx { range: r.clone(), path: path.to_string(), index };
        // Invariant builds tool lists field by field; every other event is validated whole.
        let is_tool_list = !o.contains_key("role") && !o.contains_key("type") && o.contains_key("tools");
        self.check_common(&o, &ctx, !is_tool_list);
        let timestamp = o.get("timestamp").and_then(Value::as_str).map(str::to_string);
        if o.contains_key("role") {
            let role = match o.get("role") {
                Some(Value::String(s)) => {
                    if !KNOWN_ROLES.contains(&s.as_str()) {
                        let known = KNOWN_ROLES.join(", ");
                        self.d(&ctx, Warning, "unknown-role", format!("role {s:?} is none of {known}; it is read as a message"), &[Seg::key("role")]);
                    }
                    s.clone()
                }
                other => {
                    let found = other.map(json_type).unwrap_or("nothing");
                    self.d(&ctx, Error, "role-not-string", format!("expected `role` to be a string such as \"user\", found {found}"), &[Seg::key("role")]);
                    String::new()
                }
            };
            if role == "tool" {
                let body = self.tool_output(&mut o, &ctx, links);
                self.out.push_event(EventBody::ToolResult(body), "ToolOutput", r, path.to_string(), timestamp);
            } else {
                let content = self.content(&mut o, &ctx, false);
                let tool_calls = self.message_calls(&o, &ctx);
                self.register_calls(&tool_calls, &ctx, &[Seg::key("tool_calls")], links);
                let body = Message { role, content, tool_calls };
                let index = self.out.push_event(EventBody::Message(body), "Message", r, path.to_string(), timestamp);
                if let Some(e) = self.out.event_mut(index) {
                    e.facts = super::facts::completion(&o);
                }
            }
        } else if o.contains_key("type") {
            let call = self.call(&Value::Object(std::mem::take(&mut o)), &ctx, &[], false);
            self.register_calls(std::slice::from_ref(&call), &ctx, &[], links);
            self.out.push_event(EventBody::ToolCall(call), "ToolCall", r, path.to_string(), timestamp);
        } else if o.contains_key("tools") {
            let tools = self.tools(&o, &ctx);
            self.out.push_event(EventBody::ToolDefinitions(tools), "Tool", r, path.to_string(), timestamp);
        } else {
            let keys: Vec<&str> = o.keys().map(String::as_str).take(6).collect();
            self.d(
                &ctx,
                Error,
                "missing-role",
                format!(
                    "expected a message with a `role`, a tool call with `type` and `function`, or a `tools` list; this object has {}",
                    if keys.is_empty() { "no keys".to_string() } else { format!("keys {}", keys.join(", ")) }
                ),
                &[],
            );
            self.unparsed(r, path, "not a message, tool call or tool list".to_string());
        }
    }

    fn d(&mut self, ctx: &Ctx, severity: Severity, code: &'static str, message: String, segs: &[Seg]) {
        self.out.diag_in(severity, code, message, &ctx.range, &ctx.path, segs, Some(ctx.index));
    }

    /// `metadata` and `server`, which every Invariant event has. Invariant
    /// first copies `metadata.server` over `server` (testing `"server" in
    /// metadata`, which fails for null and numbers), then validates both,
    /// except on tool lists, which it builds from their `tools` alone.
    fn check_common(&mut self, o: &Map<String, Value>, ctx: &Ctx, validated: bool) {
        let metadata = o.get("metadata");
        if let Some(m) = metadata {
            let holds_server = match m {
                Value::String(s) => s.contains("server"),
                Value::Array(items) => items.iter().any(|v| v.as_str() == Some("server")),
                _ => false,
            };
            let at = [Seg::key("metadata")];
            match m {
                Value::Object(_) => {}
                Value::Null | Value::Bool(_) | Value::Number(_) => {
                    self.d(ctx, Error, "metadata-type", format!("expected `metadata` to be an object, found {}", json_type(m)), &at)
                }
                _ if validated || holds_server => {
                    self.d(ctx, Error, "metadata-type", format!("expected `metadata` to be an object, found {}", json_type(m)), &at)
                }
                _ => self.d(
                    ctx,
                    Warning,
                    "metadata-ignored",
                    format!("expected `metadata` to be an object, found {}; Invariant ignores it on a tool list", json_type(m)),
                    &at,
                ),
            }
        }
        if !validated {
            return;
        }
        let (server, at) = match metadata.and_then(Value::as_object).and_then(|m| m.get("server")) {
            Some(s) => (Some(s), vec![Seg::key("metadata"), Seg::key("server")]),
            None => (o.get("server"), vec![Seg::key("server")]),
        };
        if let Some(s) = server.filter(|s| !s.is_string() && !s.is_null()) {
            self.d(ctx, Error, "server-type", format!("expected `server` to be a string, found {}", json_type(s)), &at);
        }
    }

    /// Message content: null, a string, or a list of text/image chunks. Tool
    /// outputs may also hold an object.
    /// Moves `content` out of the event's object (it is read last): the bulk
    /// of a trace's bytes is content, and cloning it was a copy of the file.
    fn content(&mut self, o: &mut Map<String, Value>, ctx: &Ctx, allow_object: bool) -> Content {
        match o.get_mut("content").map(Value::take) {
            None | Some(Value::Null) => Content::None,
            Some(Value::String(s)) => Content::Text(s.into()),
            Some(Value::Array(items)) => {
                let mut parts = Vec::with_capacity(items.len());
                for (i, item) in items.into_iter().enumerate() {
                    match chunk(&item) {
                        Ok(p) => parts.push(p),
                        Err(why) => {
                            self.d(ctx, Error, "content-part-invalid", why, &[Seg::key("content"), Seg::Index(i)]);
                            parts.push(ContentPart::Other(item));
                        }
                    }
                }
                Content::Parts(parts)
            }
            Some(Value::Object(m)) if allow_object => Content::Json(Value::Object(m)),
            Some(other) => {
                let allowed = if allow_object { "a string, a list of content parts, an object or null" } else { "a string, a list of content parts or null" };
                self.d(ctx, Error, "content-type", format!("expected `content` to be {allowed}, found {}", json_type(&other)), &[Seg::key("content")]);
                Content::Json(other)
            }
        }
    }

    fn message_calls(&mut self, o: &Map<String, Value>, ctx: &Ctx) -> Vec<ToolCall> {
        match o.get("tool_calls") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(calls)) => calls
                .iter()
                .enumerate()
                .map(|(i, c)| self.call(c, ctx, &[Seg::key("tool_calls"), Seg::Index(i)], true))
                .collect(),
            Some(other) => {
                self.d(ctx, Error, "tool-calls-type", format!("expected `tool_calls` to be a list, found {}", json_type(other)), &[Seg::key("tool_calls")]);
                Vec::new()
            }
        }
    }

    /// One tool call. `decode_string_args` is true inside a message's
    /// `tool_calls`, where Invariant decodes JSON-string arguments.
    fn call(&mut self, v: &Value, ctx: &Ctx, at: &[Seg], decode_string_args: bool) -> ToolCall {
        let seg = |extra: &[&str]| -> Vec<Seg> {
            let mut s = at.to_vec();
            s.extend(extra.iter().map(|k| Seg::key(k)));
            s
        };
        let mut call = ToolCall { id: None, function: String::new(), arguments: Arguments::default(), result: None };
        let Some(o) = v.as_object() else {
            self.d(ctx, Error, "tool-call-not-object", format!("expected a tool call object, found {}", json_type(v)), at);
            return call;
        };
        if decode_string_args {
            // A standalone call's own `metadata`/`server` were checked as the event's.
            // Invariant stamps each call's `metadata` after validation, so null fails there.
            if let Some((field, why)) = nested_event_fields(o, false) {
                self.d(ctx, Error, "tool-call-field-type", format!("tool call: {why}"), &seg(&[field]));
            }
        }
        match o.get("id") {
            None | Some(Value::Null) => {
                self.d(ctx, Warning, "tool-call-missing-id", "tool call has no `id`; its output is linked by position".to_string(), at)
            }
            Some(Value::String(s)) => call.id = Some(s.clone()),
            Some(other) => {
                self.d(ctx, Error, "tool-call-id-type", format!("expected the tool call `id` to be a string, found {}", json_type(other)), &seg(&["id"]));
                call.id = Some(other.to_string());
            }
        }
        match o.get("type") {
            Some(Value::String(_)) => {}
            None => self.d(ctx, Error, "tool-call-missing-type", "tool call has no `type` (Invariant requires it, e.g. \"function\")".to_string(), at),
            Some(other) => self.d(ctx, Error, "tool-call-type-type", format!("expected the tool call `type` to be a string, found {}", json_type(other)), &seg(&["type"])),
        }
        let Some(function) = o.get("function").and_then(Value::as_object) else {
            let found = o.get("function").map(json_type).unwrap_or("nothing");
            self.d(ctx, Error, "tool-call-missing-function", format!("expected a `function` object with `name` and `arguments`, found {found}"), at);
            return call;
        };
        match function.get("name") {
            Some(Value::String(s)) => call.function = s.clone(),
            None => self.d(ctx, Error, "tool-call-missing-name", "tool call has no `function.name`".to_string(), &seg(&["function"])),
            Some(other) => {
                self.d(ctx, Error, "tool-call-name-type", format!("expected `function.name` to be a string, found {}", json_type(other)), &seg(&["function", "name"]));
                call.function = other.to_string();
            }
        }
        let args_at = seg(&["function", "arguments"]);
        match function.get("arguments") {
            None => self.d(ctx, Error, "tool-call-missing-arguments", "tool call has no `function.arguments`".to_string(), &seg(&["function"])),
            Some(Value::Object(m)) => call.arguments.value = Some(Value::Object(m.clone()).into()),
            Some(Value::String(s)) if decode_string_args => {
                call.arguments.text = Some(s.as_str().into());
                match crate::json::python::loads(s) {
                    Ok(Value::Object(m)) => call.arguments.value = Some(Value::Object(m).into()),
                    Ok(other) => {
                        self.d(ctx, Error, "arguments-not-object", format!("`function.arguments` decodes to {}, but must be an object of named arguments", json_type(&other)), &args_at);
                        call.arguments.value = Some(other.into());
                    }
                    Err(e) => self.d(
                        ctx,
                        Error,
                        "arguments-not-json",
                        format!("`function.arguments` is a string that is not valid JSON ({e}); Invariant rejects it"),
                        &args_at,
                    ),
                }
            }
            Some(other) => {
                let why = if other.is_string() {
                    "a standalone tool call's `function.arguments` must be an object (JSON strings are decoded only inside a message's `tool_calls`)".to_string()
                } else {
                    format!("expected `function.arguments` to be an object or a JSON string, found {}", json_type(other))
                };
                self.d(ctx, Error, "arguments-not-object", why, &args_at);
                match other {
                    Value::String(s) => call.arguments.text = Some(s.as_str().into()),
                    _ => call.arguments.value = Some(other.clone().into()),
                }
            }
        }
        call
    }

    fn register_calls(&mut self, calls: &[ToolCall], ctx: &Ctx, at: &[Seg], links: &mut Links) {
        if calls.is_empty() {
            return;
        }
        links.group.clear();
        for (j, call) in calls.iter().enumerate() {
            let cref = CallRef { event: ctx.index, call: crate::source::clamp_u32(j) };
            if let Some(id) = &call.id {
                if let Some(prev) = links.by_id.insert(id.clone(), cref) {
                    let mut segs = at.to_vec();
                    if !at.is_empty() {
                        segs.push(Seg::Index(j));
                    }
                    self.d(
                        ctx,
                        Warning,
                        "duplicate-tool-call-id",
                        format!("tool call id {id:?} was already used by event {}; outputs with this id link to this later call", prev.event),
                        &segs,
                    );
                }
            }
            links.last = Some(cref);
            links.group.push(cref, &call.function);
            let segs = if at.is_empty() { Vec::new() } else { vec![Seg::key("tool_calls"), Seg::Index(j)] };
            links.calls.push(CallSite { call: cref, segs });
        }
    }

    fn tool_output(&mut self, o: &mut Map<String, Value>, ctx: &Ctx, links: &mut Links) -> ToolResult {
        let content = self.content(o, ctx, true);
        let status = match o.get("error") {
            Some(Value::Null) | None => ToolStatus::Unknown,
            Some(Value::Bool(false)) => ToolStatus::Success,
            Some(_) => ToolStatus::Error,
        };
        let mut result = ToolResult { call_id: None, content, status, call: None, implicit_link: false };
        match o.get("tool_call_id") {
            Some(Value::String(id)) => self.link_output(&mut result, Some(id.clone()), ctx, links),
            None | Some(Value::Null) => self.link_output(&mut result, None, ctx, links),
            Some(other) => {
                self.d(ctx, Error, "tool-call-id-type", format!("expected `tool_call_id` to be a string, found {}", json_type(other)), &[Seg::key("tool_call_id")]);
            }
        }
        result
    }

    /// Links a tool output to its call: by `call_id`, or without one to the
    /// first unanswered call of the last message with calls (else the last call).
    fn link_output(&mut self, result: &mut ToolResult, call_id: Option<String>, ctx: &Ctx, links: &mut Links) {
        let target = match &call_id {
            Some(id) => {
                let found = links.by_id.get(id).copied();
                if found.is_none() {
                    self.d(ctx, Warning, "unknown-tool-call-id", format!("no tool call before this output has id {id:?}"), &[Seg::key("tool_call_id")]);
                }
                found
            }
            None => {
                result.implicit_link = true;
                let target = links.group.first_unanswered(self.out, None).or(links.last);
                if target.is_none() {
                    self.d(ctx, Warning, "tool-output-without-call", "tool output has no `tool_call_id` and no tool call comes before it".to_string(), &[]);
                }
                target
            }
        };
        result.call_id = call_id;
        if let Some(cref) = target {
            result.call = Some(cref);
            self.out.link_result(cref, ctx.index);
        }
    }

    fn finish_links(&mut self, links: Links) {
        self.out.warn_unanswered(&links.calls, |name| format!("{name} never gets a tool output"));
    }

    /// A `{tools: [...]}` event, checked as Invariant converts each tool's
    /// `inputSchema` into its parameter list.
    fn tools(&mut self, o: &Map<String, Value>, ctx: &Ctx) -> Vec<ToolDefinition> {
        let list = match o.get("tools") {
            Some(Value::Array(list)) => list,
            Some(v) if reads_as_empty_trace(v) => {
                let message = format!("expected `tools` to be a list of tool definitions, found {}; Invariant reads it as no tools", describe_empty(v));
                self.d(ctx, Warning, "tools-empty-non-list", message, &[Seg::key("tools")]);
                return Vec::new();
            }
            other => {
                let found = other.map(json_type).unwrap_or("nothing");
                self.d(ctx, Error, "tools-not-list", format!("expected `tools` to be a list of tool definitions, found {found}"), &[Seg::key("tools")]);
                return Vec::new();
            }
        };
        let mut tools = Vec::new();
        for (i, t) in list.iter().enumerate() {
            let at = [Seg::key("tools"), Seg::Index(i)];
            let Some(t) = t.as_object() else {
                self.d(ctx, Error, "tool-not-object", format!("expected a tool definition object, found {}", json_type(t)), &at);
                continue;
            };
            let name = match t.get("name") {
                Some(Value::String(s)) => s.clone(),
                _ => {
                    self.d(ctx, Error, "tool-missing-name", "tool definition has no string `name`".to_string(), &at);
                    String::new()
                }
            };
            self.tool_fields(t, &name, ctx, &at);
            tools.push(ToolDefinition {
                name,
                description: t.get("description").and_then(Value::as_str).map(str::to_string),
                parameters: t.get("inputSchema").cloned(),
            });
        }
        tools
    }

    /// A tool's `inputSchema`, `description` and `metadata`.
    fn tool_fields(&mut self, t: &Map<String, Value>, name: &str, ctx: &Ctx, at: &[Seg]) {
        let with = |extra: &[Seg]| -> Vec<Seg> { at.iter().cloned().chain(extra.iter().cloned()).collect() };
        match t.get("inputSchema") {
            Some(Value::Object(schema)) => {
                let mut problems = Vec::new();
                input_schema_problems(schema, &with(&[Seg::key("inputSchema")]), &mut problems);
                for (segs, why) in problems {
                    self.d(ctx, Error, "tool-schema-invalid", format!("tool {name:?}: {why}"), &segs);
                }
            }
            other => {
                let found = other.map(json_type).unwrap_or("nothing");
                self.d(ctx, Error, "tool-missing-input-schema", format!("tool {name:?} has no `inputSchema` object (found {found})"), at);
            }
        }
        if let Some(d) = t.get("description").filter(|d| !d.is_string() && !d.is_null()) {
            let message = format!("expected the `description` of tool {name:?} to be a string, found {}; Invariant converts it to text", json_type(d));
            self.d(ctx, Warning, "tool-description-type", message, &with(&[Seg::key("description")]));
        }
        match t.get("metadata") {
            None | Some(Value::Object(_)) => {}
            Some(m) => {
                let message = format!("expected the `metadata` of tool {name:?} to be an object, found {}", json_type(m));
                self.d(ctx, Error, "tool-metadata-type", message, &with(&[Seg::key("metadata")]));
            }
        }
        if let Some(s) = t.get("metadata").and_then(|m| m.get("server")).filter(|s| !s.is_string() && !s.is_null()) {
            let message = format!("expected `metadata.server` of tool {name:?} to be a string, found {}", json_type(s));
            self.d(ctx, Error, "tool-metadata-type", message, &with(&[Seg::key("metadata"), Seg::key("server")]));
        }
    }
}

/// JSON Schema types Invariant's `ToolParameter` holds.
const PARAMETER_TYPES: &[&str] = &["object", "array", "string", "number", "integer", "boolean"];

/// Type names Invariant maps onto [`PARAMETER_TYPES`].
const TYPE_ALIASES: &[(&str, &str)] =
    &[("int", "integer"), ("long", "integer"), ("float", "number"), ("bool", "boolean"), ("str", "string"), ("dict", "object"), ("list", "array")];

type Problems = Vec<(Vec<Seg>, String)>;

/// What Invariant's `parse_tool_param` fails on in a tool's `inputSchema`
/// (its `properties`, each converted with the schema's `required`).
fn input_schema_problems(schema: &Map<String, Value>, at: &[Seg], out: &mut Problems) {
    properties_problems(schema, &own_required(schema, at), at, out);
}

/// A schema's `required` as Invariant reads it (`[]` when absent), with where it is.
type Required = (Value, Vec<Seg>);

fn own_required(schema: &Map<String, Value>, at: &[Seg]) -> Required {
    let value = schema.get("required").cloned().unwrap_or(Value::Array(Vec::new()));
    (value, at.iter().cloned().chain([Seg::key("required")]).collect())
}

/// The `properties` of an object schema; `required` is what each property is
/// looked up in (Python `None` = JSON null: each property's own `required`).
fn properties_problems(schema: &Map<String, Value>, required: &Required, at: &[Seg], out: &mut Problems) {
    let at_props: Vec<Seg> = at.iter().cloned().chain([Seg::key("properties")]).collect();
    match schema.get("properties") {
        None => {}
        Some(Value::Object(props)) => {
            for (key, sub) in props {
                let at_sub: Vec<Seg> = at_props.iter().cloned().chain([Seg::Key(key.clone())]).collect();
                parameter_problems(sub, required, &at_sub, out);
            }
        }
        Some(other) => out.push((at_props, format!("expected `properties` to be an object of parameter schemas, found {}", json_type(other)))),
    }
}

fn parameter_problems(schema: &Value, required: &Required, at: &[Seg], out: &mut Problems) {
    let Some(schema) = schema.as_object() else {
        out.push((at.to_vec(), format!("expected a parameter schema object, found {}", json_type(schema))));
        return;
    };
    let field = |k: &str| -> Vec<Seg> { at.iter().cloned().chain([Seg::key(k)]).collect() };
    let own_required = own_required(schema, at);
    let required = if required.0.is_null() { &own_required } else { required };
    if let Some(d) = schema.get("description").filter(|d| !d.is_string() && !d.is_null()) {
        out.push((field("description"), format!("expected a parameter's `description` to be a string, found {}", json_type(d))));
    }
    let declared = schema.get("type");
    let kind = match declared {
        None => Some("string"),
        Some(Value::String(t)) => Some(TYPE_ALIASES.iter().find(|(a, _)| a == t).map(|(_, to)| *to).unwrap_or(t.as_str())),
        Some(_) => None,
    };
    match (kind, declared) {
        (Some("object"), _) => properties_problems(schema, &own_required, at, out),
        (Some("array"), _) => {
            if let Some(items) = schema.get("items") {
                parameter_problems(items, &(Value::Array(Vec::new()), Vec::new()), &field("items"), out);
            }
        }
        (Some("string" | "number" | "integer" | "boolean"), _) => match schema.get("enum") {
            None | Some(Value::Null) => {}
            Some(Value::Array(items)) if items.iter().all(Value::is_string) => {}
            Some(other) => out.push((field("enum"), format!("expected `enum` to be a list of strings, found {}", describe_enum(other)))),
        },
        (_, Some(Value::Array(types))) => {
            if let Some(bad) = types.iter().find(|t| !t.as_str().is_some_and(|t| t == "null" || PARAMETER_TYPES.contains(&t))) {
                out.push((field("type"), format!("unsupported type {bad} in the `type` list; expected {} or \"null\"", PARAMETER_TYPES.join(", "))));
            }
        }
        (_, other) => {
            let shown = other.map(Value::to_string).unwrap_or_default();
            out.push((field("type"), format!("unsupported parameter type {shown}; expected one of {}", PARAMETER_TYPES.join(", "))));
            return;
        }
    }
    // Invariant tests `name in required`, which fails on null, booleans and numbers.
    let (required, required_at) = required;
    if !matches!(required, Value::Array(_) | Value::String(_) | Value::Object(_)) {
        let message = format!("expected `required` to be a list of parameter names, found {}", json_type(required));
        if !out.iter().any(|(at, m)| at == required_at && *m == message) {
            out.push((required_at.clone(), message));
        }
    }
}

fn describe_enum(v: &Value) -> String {
    match v {
        Value::Array(_) => "a list with non-string items".to_string(),
        other => json_type(other).to_string(),
    }
}

struct Ctx {
    range: Range<usize>,
    path: String,
    index: u32,
}

/// A content chunk as Invariant's `TextChunk | Image` union accepts it.
fn chunk(v: &Value) -> Result<ContentPart, String> {
    let Some(o) = v.as_object() else {
        return Err(format!("expected a content part object such as {{\"type\": \"text\", \"text\": …}}, found {}", json_type(v)));
    };
    // Chunks are Invariant events too, with an optional `metadata` object and `server` string.
    if let Some((field, why)) = nested_event_fields(o, true) {
        return Err(format!("content part `{field}`: {why}"));
    }
    let Some(kind) = o.get("type").and_then(Value::as_str) else {
        return Err("content part has no string `type`".to_string());
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
        return Err("`image_url` values must all be strings".to_string());
    }
    Err(format!("content part of type {kind:?} has neither a string `text` nor an `image_url` object"))
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

