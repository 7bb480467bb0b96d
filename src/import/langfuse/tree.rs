//! Observations into runs: one run per trace, its observations walked as a
//! tree (`parentObservationId`; siblings by `startTime`), each a begin and
//! an end span event around what it adds: a generation's messages not shown
//! before, a tool observation's call and result. An `EVENT` observation
//! (a point in time) is a marker. Scores follow as key-value events.
//!
//! A model call re-sends the conversation, so only what it adds is shown,
//! as the `otel` format does: the chain hashes of every message sequence
//! already shown; a call's new messages are those after the longest prefix
//! of its input already seen.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use crate::import::chat::Field;
use serde_json::Value;

use crate::import::chat::{self, Msg};
use super::facts;
use super::reader::{Obs, TraceRec};
use super::validate::{self, At};
use crate::diagnostic::Severity::Warning;
use crate::import::history::{self, Conversation, Sent};
use crate::import::{Builder, CallSite, Input};
use crate::json::{render_path, Seg};
use crate::model::{CallRef, EventBody, KeyValue, Marker, Metadata, SpanEvent, SpanPhase, ToolCall, ToolDefinition, ToolResult, ToolStatus};

/// How many levels a span path keeps (deeper observations take their
/// parent's last place: each event carries its whole path).
const MAX_DEPTH: usize = 256;

pub fn run(t: TraceRec, input: &Input, out: &mut Builder) {
    let mut metadata = Metadata::new();
    for (k, v) in &t.trace {
        metadata.insert(k.clone(), v.clone());
    }
    if let Some(m) = t.trace.field("metadata").filter(|m| m.is_string()).and_then(validate::metadata_object) {
        // The export's JSON string, read; the string stays as written.
        metadata.insert("metadata (as written)".to_string(), t.trace.field("metadata").cloned().unwrap_or(Value::Null));
        metadata.insert("metadata".to_string(), Value::Object(m));
    }
    metadata.insert("langfuse.shape".to_string(), Value::String(t.shape.to_string()));
    let id = if t.id.is_empty() { "(no trace id)".to_string() } else { t.id.clone() };
    out.begin_run(id, metadata, Some(t.range.start));
    if let Some(r) = out.last_run_mut() {
        r.name = t.trace.field("name").and_then(Value::as_str).map(str::to_string);
    }
    if !t.trace.is_empty() {
        validate::trace(out, &At { range: &t.range, path: &t.path, event: None }, &t.trace, t.shape == "api-trace");
    }
    let mut walk = Walk { obs: &t.observations, input, conversation: Conversation::default(), export: t.shape == "ui-export", out, shown: Default::default(), shown_tools: Default::default(), calls: HashMap::new(), by_name: HashMap::new(), sites: Vec::new(), too_deep: false };
    walk.all();
    for s in &t.scores {
        score(walk.out, s, t.shape == "api-trace");
    }
}

fn score(out: &mut Builder, s: &Obs, check: bool) {
    let key = s.str_field("name").to_string();
    let value = match s.o.field("value") {
        Some(v) if !v.is_null() && s.str_field("dataType") != "CATEGORICAL" => v.clone(),
        _ => s.o.field("stringValue").cloned().unwrap_or(Value::Null),
    };
    let at = s.o.field("timestamp").and_then(Value::as_str).map(str::to_string);
    let index = out.push_event(EventBody::KeyValue(KeyValue { key: format!("score: {key}"), value: value.into() }), "score", s.range.clone(), s.path.clone(), at);
    let metadata = if s.own_range && out.can_defer_metadata(&s.range) { out.metadata_in_source(s.range.clone(), keep_all, Metadata::new()) } else { s.o.clone().into() };
    if let Some(e) = out.event_mut(index) {
        e.metadata = metadata;
    }
    if check {
        validate::score(out, &At { range: &s.range, path: &s.path, event: Some(index) }, &s.o);
    }
}

/// An observation's metadata: every field, less the messages shown as
/// events (`retain` keeps the others' order).
fn keep_all(m: Metadata, _: &Metadata) -> Metadata {
    m
}

fn without_input(mut m: Metadata, _: &Metadata) -> Metadata {
    m.retain(|k, _| k != "input");
    m
}

fn without_output(mut m: Metadata, _: &Metadata) -> Metadata {
    m.retain(|k, _| k != "output");
    m
}

fn without_input_and_output(mut m: Metadata, _: &Metadata) -> Metadata {
    m.retain(|k, _| k != "input" && k != "output");
    m
}

struct Walk<'t, 'r, 'a> {
    obs: &'t [Obs],
    input: &'t Input<'t>,
    /// The last generation whose input list was left in the source.
    conversation: Conversation,
    export: bool,
    out: &'r mut Builder<'a>,
    shown: crate::import::chat::Shown,
    /// Tool declaration sets shown (once each).
    shown_tools: crate::import::chat::Shown,
    calls: HashMap<String, CallRef>,
    /// Calls without an id, by function name, in order.
    by_name: HashMap<String, ByName>,
    sites: Vec<CallSite>,
    too_deep: bool,
}

/// The calls of one function name in order, and how many at the front are
/// answered (each lookup moves past them once: linear overall).
#[derive(Default)]
struct ByName {
    calls: Vec<CallRef>,
    answered: usize,
}

impl ByName {
    fn first_unanswered(&mut self, out: &Builder) -> Option<CallRef> {
        while let Some(c) = self.calls.get(self.answered) {
            if !out.answered(*c) {
                return Some(*c);
            }
            self.answered += 1;
        }
        None
    }
}

impl Walk<'_, '_, '_> {
    fn all(&mut self) {
        let mut by_id: HashMap<&str, usize> = HashMap::new();
        for (i, o) in self.obs.iter().enumerate() {
            let id = o.str_field("id");
            if !id.is_empty() && by_id.insert(id, i).is_some() {
                self.out.diag_in(Warning, "duplicate-observation-id", format!("observation id {id} is used by another observation of this trace; children go to the last"), &o.range, &o.path, &[Seg::key("id")], None);
            }
        }
        let mut children: HashMap<usize, Vec<usize>> = HashMap::new();
        let mut roots = Vec::new();
        for (i, o) in self.obs.iter().enumerate() {
            let parent = o.str_field("parentObservationId");
            match by_id.get(parent).filter(|&&p| p != i) {
                Some(&p) if !parent.is_empty() => children.entry(p).or_default().push(i),
                _ => {
                    if !parent.is_empty() {
                        self.out.diag_in(Warning, "missing-parent", format!("parent observation {parent} is not in this trace; shown as a root"), &o.range, &o.path, &[Seg::key("parentObservationId")], None);
                    }
                    roots.push(i)
                }
            }
        }
        // Unreadable start times sort last (None < Some, hence the flag).
        let starts: Vec<Option<crate::analysis::time::Instant>> = self.obs.iter().map(|o| facts::instant(o.o.field("startTime"))).collect();
        let start = |i: &usize| {
            let s = starts.get(*i).copied().flatten();
            (s.is_none(), s)
        };
        crate::sort::by_key(&mut roots, start);
        for list in children.values_mut() {
            crate::sort::by_key(list, start);
        }
        let mut visited = vec![false; self.obs.len()];
        for root in roots {
            self.walk(root, &children, &mut visited);
        }
        for i in 0..self.obs.len() {
            if !visited.get(i).copied().unwrap_or(true) {
                if let Some(o) = self.obs.get(i) {
                    self.out.diag_in(Warning, "observation-cycle", "this observation's parent links form a cycle; shown as a root".to_string(), &o.range, &o.path, &[Seg::key("parentObservationId")], None);
                }
                self.walk(i, &children, &mut visited);
            }
        }
        let sites = std::mem::take(&mut self.sites);
        self.out.warn_unanswered(&sites, |name| format!("{name} has no result in this trace (no tool observation or tool message answers it)"));
    }

    fn walk(&mut self, root: usize, children: &HashMap<usize, Vec<usize>>, visited: &mut [bool]) {
        let mut stack: Vec<(usize, Rc<Vec<String>>, bool)> = vec![(root, Rc::new(Vec::new()), false)];
        while let Some((i, path, closing)) = stack.pop() {
            if closing {
                self.end(i, &path);
                continue;
            }
            if visited.get(i).copied().unwrap_or(true) {
                continue;
            }
            if let Some(v) = visited.get_mut(i) {
                *v = true;
            }
            let mut own: Vec<String> = path.iter().take(MAX_DEPTH - 1).cloned().collect();
            if path.len() >= MAX_DEPTH && !self.too_deep {
                self.too_deep = true;
                if let Some(o) = self.obs.get(i) {
                    self.out.diag_in(Warning, "observation-too-deep", format!("observations nest deeper than {MAX_DEPTH} levels; deeper ones are shown at level {MAX_DEPTH}"), &o.range, &o.path, &[], None);
                }
            }
            own.push(self.obs.get(i).map(name_of).unwrap_or_default());
            let own = Rc::new(own);
            let point = self.begin(i, &own);
            if !point {
                stack.push((i, own.clone(), true));
            }
            for &c in children.get(&i).into_iter().flatten().rev() {
                stack.push((c, own.clone(), false));
            }
        }
    }

    /// The observation's opening event and what it adds; true for an
    /// `EVENT` (a point: no end event).
    fn begin(&mut self, i: usize, path: &Rc<Vec<String>>) -> bool {
        let Some(o) = self.obs.get(i) else { return false };
        let kind = o.str_field("type");
        let failed = o.str_field("level") == "ERROR";
        let start = o.o.field("startTime").and_then(Value::as_str).map(str::to_string);
        let point = kind == "EVENT";
        let body = if point { EventBody::Marker(Marker { label: name_of(o) }) } else { EventBody::Span(SpanEvent { name: (**path).clone(), phase: SpanPhase::Begin }) };
        let index = self.out.push_event(body, if point { "event" } else { "observation" }, o.range.clone(), o.path.clone(), start.clone());
        let generation = kind == "GENERATION";
        let input = if generation { self.input_of(o) } else { None };
        let output = match &o.output_object {
            // A message read from the bytes is the one `chat::messages` reads of the object.
            Some(at) => crate::import::chat_bytes::message(self.out, &self.input.split.ends, at).map(|m| vec![m]).or_else(|| chat::messages(&history::value_at(self.input.bytes, at), "assistant")),
            None if generation => o.o.field("output").and_then(|v| chat::messages(v, "assistant")),
            None => None,
        };
        // Messages shown as events are not repeated in the metadata. The
        // rest is the observation as written: left in the source when it can
        // be (a clone of each observation was a fifth of a parse).
        let shape = match (input.is_some(), output.is_some()) {
            (false, false) => keep_all,
            (true, false) => without_input,
            (false, true) => without_output,
            (true, true) => without_input_and_output,
        };
        let metadata = if o.own_range && self.out.can_defer_metadata(&o.range) {
            self.out.metadata_in_source(o.range.clone(), shape, Metadata::new())
        } else if o.unbuilt.is_some() {
            // Not all of it was built: the observation as written.
            let all = match history::value_at(self.input.bytes, &o.range) {
                Value::Object(all) => all,
                _ => o.o.clone(),
            };
            shape(all, &Metadata::new()).into()
        } else {
            let mut all = o.o.clone();
            if let Some(at) = &o.history {
                all.insert("input".to_string(), history::value_at(self.input.bytes, &at.value));
            }
            if let Some(t) = &o.output {
                all.insert("output".to_string(), Value::String(t.decoded().into_owned()));
            }
            if let Some(at) = &o.output_object {
                all.insert("output".to_string(), history::value_at(self.input.bytes, at));
            }
            shape(all, &Metadata::new()).into()
        };
        if let Some(e) = self.out.event_mut(index) {
            e.span = Some((**path).clone());
            e.failed = failed;
            e.facts = facts::observation(&o.o);
            e.metadata = metadata;
        }
        validate::observation(self.out, &At { range: &o.range, path: &o.path, event: Some(index) }, &o.o, self.export, o.unbuilt.unwrap_or(0));
        if let Some(msgs) = input {
            self.conversation(o, path, msgs, output.unwrap_or_default(), start);
        } else if kind == "TOOL" {
            self.tool(o, path, failed);
        }
        point
    }

    /// A generation's input messages (read from the source when they were
    /// left there; the metadata reads them from it too).
    fn input_of(&mut self, o: &Obs) -> Option<Sent> {
        let Some(at) = &o.history else { return o.o.field("input").and_then(|v| chat::messages(v, "user")).map(Sent::whole) };
        let b = self.input.bytes;
        let object = o.o.field("input").and_then(Value::as_object);
        if let Some(sent) = self.conversation.input(self.out, &self.input.split.ends, object, at) {
            return Some(sent);
        }
        chat::messages(&history::value_at(b, &at.value), "user").map(Sent::whole)
    }

    fn end(&mut self, i: usize, path: &[String]) {
        let Some(o) = self.obs.get(i) else { return };
        let at = o.o.field("endTime").and_then(Value::as_str).map(str::to_string);
        let index = self.out.push_event(EventBody::Span(SpanEvent { name: path.to_vec(), phase: SpanPhase::End }), "observation", o.range.clone(), o.path.clone(), at);
        if let Some(e) = self.out.event_mut(index) {
            e.span = Some(path.to_vec());
            e.failed = o.str_field("level") == "ERROR";
            e.metadata.insert("id".to_string(), Value::String(o.str_field("id").to_string()));
            if let Some(m) = o.o.field("statusMessage").filter(|m| !m.is_null()) {
                e.metadata.insert("statusMessage".to_string(), m.clone());
            }
        }
    }

    /// The input messages not shown before, then the output.
    fn conversation(&mut self, o: &Obs, path: &[String], mut sent: Sent, output: Vec<Msg>, start: Option<String>) {
        let (definitions, input): (Vec<Msg>, Vec<Msg>) = std::mem::take(&mut sent.rest).into_iter().partition(|m| m.definition.is_some());
        let declares = !definitions.is_empty();
        let definitions: Vec<ToolDefinition> = definitions.into_iter().filter_map(|m| m.definition).collect();
        if !definitions.is_empty() {
            let mut h = crate::import::chat::fingerprint_hasher();
            for d in &definitions {
                (&d.name, &d.description, d.parameters.as_ref().map(Value::to_string)).hash(&mut h);
            }
            if self.shown_tools.insert(h.finish()) {
                let index = self.out.push_event(EventBody::ToolDefinitions(definitions), "tools", o.range.clone(), render_path(&o.path, &[Seg::key("input")]), start.clone());
                if let Some(e) = self.out.event_mut(index) {
                    e.span = Some(path.to_vec());
                }
            }
        }
        let (known, chains) = chat::already_shown_after(&mut self.shown, sent.prefix, &input, &output);
        if !declares {
            self.conversation.remember(&mut sent, chains);
        } else {
            // Its chains skip the declarations: not one per item.
            self.conversation = Conversation::default();
        }
        let in_path = render_path(&o.path, &[Seg::key("input")]);
        for m in input.into_iter().skip(known - sent.prefix.0) {
            self.message(o, path, m, &in_path, "input message", start.clone());
        }
        let at = o.o.field("endTime").and_then(Value::as_str).map(str::to_string).or(start);
        let out_path = render_path(&o.path, &[Seg::key("output")]);
        for m in output {
            self.message(o, path, m, &out_path, "output message", at.clone());
        }
    }

    fn message(&mut self, o: &Obs, path: &[String], m: Msg, at_path: &str, kind: &str, at: Option<String>) {
        let content = m.content();
        let has_body = content != crate::model::Content::None || !m.calls.is_empty() || m.results.is_empty();
        if has_body {
            let ids: Vec<(Option<String>, String)> = m.calls.iter().map(|c| (c.id.clone(), c.function.clone())).collect();
            let msg = crate::model::Message { role: m.role.clone(), content, tool_calls: m.calls };
            let index = self.out.push_event(EventBody::Message(msg), kind, o.range.clone(), at_path.to_string(), at.clone());
            if let Some(e) = self.out.event_mut(index) {
                e.span = Some(path.to_vec());
            }
            for (n, (id, name)) in ids.into_iter().enumerate() {
                let call = CallRef { event: index, call: crate::source::clamp_u32(n) };
                self.sites.push(CallSite { call, segs: Vec::new() });
                if let Some(id) = id {
                    self.calls.entry(id).or_insert(call);
                }
                self.by_name.entry(name).or_default().calls.push(call);
            }
        }
        for r in m.results {
            let linked = match (&r.call_id, &r.name) {
                (Some(id), _) => self.calls.get(id).copied(),
                // Gemini names the function, not the call: its first
                // unanswered call, else (all answered) its last one.
                (None, Some(name)) => {
                    let out = &*self.out;
                    self.by_name.get_mut(name.as_str()).and_then(|l| l.first_unanswered(out).or(l.calls.last().copied()))
                }
                (None, None) => None,
            };
            if linked.is_some_and(|c| self.out.answered(c)) {
                continue; // shown already, by its tool observation
            }
            let result = ToolResult { call_id: r.call_id, content: r.content, status: ToolStatus::Unknown, call: None, implicit_link: false };
            self.result(o, path, result, linked, at_path, at.clone(), false);
        }
    }

    #[allow(clippy::too_many_arguments)] // each is one fact of the result event
    fn result(&mut self, o: &Obs, path: &[String], mut r: ToolResult, call: Option<CallRef>, at_path: &str, at: Option<String>, failed: bool) {
        r.call = call;
        let index = self.out.push_event(EventBody::ToolResult(r), "tool result", o.range.clone(), at_path.to_string(), at);
        if let Some(e) = self.out.event_mut(index) {
            e.span = Some(path.to_vec());
            e.failed = failed;
        }
        if let Some(c) = call {
            self.out.link_result(c, index);
        }
    }

    /// A tool observation: the call a generation made for it (by call id,
    /// else the first unanswered call of its name), or a call of its own;
    /// then its output as the result.
    fn tool(&mut self, o: &Obs, path: &[String], failed: bool) {
        let attrs = o.o.field("metadata").and_then(|m| m.field("attributes"));
        let attr = |k: &str| attrs.and_then(|a| a.field(k)).and_then(Value::as_str);
        let call_id = attr("gen_ai.tool.call.id").or_else(|| attr("tool_call.id")).map(str::to_string);
        let name = attr("gen_ai.tool.name").or_else(|| attr("tool.name")).unwrap_or_else(|| o.str_field("name")).to_string();
        let unanswered = |c: &CallRef, out: &Builder| !out.answered(*c);
        let by_id = call_id.as_ref().and_then(|id| self.calls.get(id)).copied();
        let mut known = by_id.filter(|c| unanswered(c, self.out));
        // A call with another id (or none) of the same name, unanswered.
        if known.is_none() && by_id.is_none() {
            let out = &*self.out;
            known = self.by_name.get_mut(&name).and_then(|l| l.first_unanswered(out));
        }
        let start = o.o.field("startTime").and_then(Value::as_str).map(str::to_string);
        let in_path = render_path(&o.path, &[Seg::key("input")]);
        let call = match known {
            Some(c) => c,
            None => {
                let body = EventBody::ToolCall(ToolCall { id: call_id.clone(), function: name, arguments: chat::arguments(o.o.field("input")), result: None });
                let index = self.out.push_event(body, "tool observation", o.range.clone(), in_path, start.clone());
                if let Some(e) = self.out.event_mut(index) {
                    e.span = Some(path.to_vec());
                }
                CallRef { event: index, call: 0 }
            }
        };
        // The output: its text left in the source, else as read.
        let output = match &o.output {
            Some(t) => Some(crate::model::Content::Text(t.clone())),
            None => o.o.field("output").filter(|v| !v.is_null()).map(|v| chat::content_value(Some(v))),
        };
        let status = if failed {
            ToolStatus::Error
        } else if output.is_some() {
            ToolStatus::Success
        } else {
            ToolStatus::Unknown
        };
        let content = match (output, failed) {
            (Some(c), _) => c,
            (None, true) => chat::content_value(o.o.field("statusMessage")),
            (None, false) => crate::model::Content::None,
        };
        let r = ToolResult { call_id, content, status, call: None, implicit_link: false };
        let at = o.o.field("endTime").and_then(Value::as_str).map(str::to_string).or(start);
        let out_path = render_path(&o.path, &[Seg::key("output")]);
        self.result(o, path, r, Some(call), &out_path, at, failed);
    }
}

/// An observation's name, else its type.
fn name_of(o: &Obs) -> String {
    match o.o.field("name").and_then(Value::as_str) {
        Some(n) if !n.is_empty() => n.to_string(),
        _ => o.str_field("type").to_ascii_lowercase(),
    }
}
