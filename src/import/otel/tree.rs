//! Spans into runs: one run per trace id, its spans walked as a tree
//! (parent links; siblings by start time), each span a begin and an end
//! event around what it adds — the messages its model call shows for the
//! first time, its tool call's result, its own events.
//!
//! The conversation is not repeated: every model call re-sends the history,
//! so the run keeps the chain hashes of every message sequence already
//! shown (each call's input followed by its output); a call's new messages
//! are those after the longest prefix of its input already shown. Several
//! agents in one trace each keep their own history this way. A tool
//! result re-sent in a later input after a tool span gave it is not shown
//! again.


use crate::import::lookup::Lookup;

use serde_json::{Map, Value};

use super::attrs::{key_values, str_of};
use super::convert::{self, tool_span};
use super::attrs::json_in;
use super::input_tail::Raw;
use super::input_text::{InputRead, LastInput};
use super::output_reuse::{LastOutput, Prepared};
use super::tool_answers::ToolAnswers;
use super::messages::{exchange, system_message, GenaiValues, LastSystem, Msg, SpanEvent, INPUT};
use crate::import::history::Sent;
use super::reader::SpanRec;
use super::schema::{self, get};
use super::time::{duration_ms, nanos, rfc3339};
use crate::diagnostic::Severity::Warning;
use crate::import::{chat, Builder, CallSite};
use crate::json::Seg;
use crate::text::RawText;
use crate::model::{CallRef, Content, EventBody, Marker, Metadata, SpanEvent as ModelSpan, SpanPhase, ToolCall, ToolResult, ToolStatus};

/// Run id of spans that carry no trace id (flat attribute objects).
pub const NO_TRACE: &str = "(no trace id)";

/// Builds every run from the spans, in order of each trace's first span.
pub fn runs(spans: &[SpanRec], out: &mut Builder) {
    let mut order: Vec<String> = Vec::new();
    let mut members: Lookup<String, Vec<usize>> = Lookup::default();
    for (i, s) in spans.iter().enumerate() {
        let trace = s.fields.trace_id.to_ascii_lowercase();
        let entry = members.entry(trace.clone()).or_insert_with(|| {
            order.push(trace);
            Vec::new()
        });
        entry.push(i);
    }
    for trace in order {
        let Some(indices) = members.remove(&trace) else { continue };
        Run::new(spans, out).build(&trace, &indices);
    }
}

struct Run<'s, 'r, 'a> {
    spans: &'s [SpanRec],
    out: &'r mut Builder<'a>,
    /// Chain hashes of every message sequence shown so far.
    shown: crate::import::chat::Shown,
    /// Tool calls by call id.
    calls: Lookup<String, CallRef>,
    sites: Vec<CallSite>,
    /// A span was deeper than [`MAX_DEPTH`] (warned once per run).
    too_deep: bool,
    /// The last span whose input was read item by item.
    last_input: LastInput<'s>,
    /// The last system instructions read.
    last_system: LastSystem,
    /// The last chat span's output messages, for the next one's input.
    last_output: LastOutput,
    /// The tool spans' results, for the chat spans that re-send them.
    tool_answers: ToolAnswers<'s>,
}

/// How many levels a span path keeps.
const MAX_DEPTH: usize = 256;

impl<'s, 'r, 'a> Run<'s, 'r, 'a> {
    fn new(spans: &'s [SpanRec], out: &'r mut Builder<'a>) -> Self {
        Run { spans, out, shown: Default::default(), calls: Lookup::default(), sites: Vec::new(), too_deep: false, last_input: LastInput::default(), last_system: LastSystem::default(), last_output: LastOutput::default(), tool_answers: ToolAnswers::default() }
    }

    fn build(mut self, trace: &str, indices: &[usize]) {
        let first = indices.first().and_then(|&i| self.spans.get(i));
        let mut metadata = Metadata::new();
        metadata.insert("trace_id".to_string(), Value::String(trace.to_string()));
        if let Some(s) = first {
            metadata.insert("resource".to_string(), Value::Object((*s.resource).clone()));
        }
        let id = if trace.is_empty() { NO_TRACE.to_string() } else { trace.to_string() };
        self.out.begin_run(id, metadata, first.map(|s| s.range.start));
        // Parent links within the trace; a parent not in the file makes a root.
        let mut by_id: Lookup<&str, usize> = Lookup::default();
        for &i in indices {
            let Some(s) = self.spans.get(i) else { continue };
            let id = s.fields.span_id.as_str();
            if id.is_empty() {
                continue;
            }
            if by_id.insert(id, i).is_some() {
                self.out.diag_in(Warning, "duplicate-span-id", format!("span id {id} is used by another span of this trace; children go to the last"), &s.range, &s.path, &[Seg::key("spanId")], None);
            }
        }
        let mut children: Lookup<usize, Vec<usize>> = Lookup::default();
        let mut roots = Vec::new();
        for &i in indices {
            let Some(s) = self.spans.get(i) else { continue };
            let parent = s.fields.parent_span_id.as_str();
            match by_id.get(parent).filter(|&&p| p != i) {
                Some(&p) if !parent.is_empty() => children.entry(p).or_default().push(i),
                _ => roots.push(i),
            }
        }
        let start = |i: &usize| self.spans.get(*i).map_or(0, |s| s.fields.start);
        crate::sort::by_key(&mut roots, start);
        for list in children.values_mut() {
            crate::sort::by_key(list, start);
        }
        let mut visited = vec![false; self.spans.len()];
        let walk = |me: &mut Self, root: usize, visited: &mut Vec<bool>| {
            // (span, its name path, closing?)
            let mut stack: Vec<(usize, std::rc::Rc<Vec<String>>, bool)> = vec![(root, std::rc::Rc::new(Vec::new()), false)];
            while let Some((i, path, closing)) = stack.pop() {
                if closing {
                    me.end(i, &path);
                    continue;
                }
                if visited.get(i).copied().unwrap_or(true) {
                    continue;
                }
                if let Some(v) = visited.get_mut(i) {
                    *v = true;
                }
                // Past MAX_DEPTH a span takes the place of its parent's
                // path's last step (each event carries its whole path: a
                // deeper tree would cost the square of its depth).
                let mut own: Vec<String> = path.iter().take(MAX_DEPTH - 1).cloned().collect();
                if path.len() >= MAX_DEPTH && !me.too_deep {
                    me.too_deep = true;
                    if let Some(s) = me.spans.get(i) {
                        me.out.diag_in(Warning, "span-too-deep", format!("spans nest deeper than {MAX_DEPTH} levels; deeper spans are shown at level {MAX_DEPTH}"), &s.range, &s.path, &[], None);
                    }
                }
                own.push(me.spans.get(i).map(name_of).unwrap_or_default());
                let own = std::rc::Rc::new(own);
                me.begin(i, &own);
                stack.push((i, own.clone(), true));
                for &c in children.get(&i).into_iter().flatten().rev() {
                    stack.push((c, own.clone(), false));
                }
            }
        };
        for root in roots {
            walk(&mut self, root, &mut visited);
        }
        // Spans in a parent cycle: reached from no root.
        for &i in indices {
            if !visited.get(i).copied().unwrap_or(true) {
                if let Some(s) = self.spans.get(i) {
                    self.out.diag_in(Warning, "span-cycle", "this span's parent links form a cycle; shown as a root".to_string(), &s.range, &s.path, &[Seg::key("parentSpanId")], None);
                }
                walk(&mut self, i, &mut visited);
            }
        }
        let sites = std::mem::take(&mut self.sites);
        self.out.warn_unanswered(&sites, |name| format!("{name} has no result in this trace (no tool span or tool message with its call id)"));
    }

    fn begin(&mut self, i: usize, path: &std::rc::Rc<Vec<String>>) {
        let spans = self.spans;
        let Some(s) = spans.get(i) else { return };
        let (start, end) = (s.fields.start, s.fields.end);
        let failed = status_code(s) == 2;
        // Formatted once: the begin event and the input messages are at the start.
        let start_at = rfc3339(start);
        let index = self.out.push_event(EventBody::Span(ModelSpan { name: (**path).clone(), phase: SpanPhase::Begin }), "span", s.range.clone(), s.path.clone(), start_at.clone());
        // Left in the source when it can be: held built, every chat span's
        // attributes (the conversation so far, as JSON text) were the bulk
        // of the model, 4.6 times the file.
        let shape = if s.flat { flat_metadata } else { span_metadata };
        let metadata = if s.own_range && self.out.can_defer_metadata(&s.range) {
            self.out.metadata_in_source(s.range.clone(), shape, scope_of(s))
        } else {
            shape(s.span.clone(), &scope_of(s)).into()
        };
        if let Some(e) = self.out.event_mut(index) {
            e.span = Some((**path).clone());
            e.failed = failed;
            e.metadata = metadata;
            e.facts = convert::facts(&s.attrs, duration_ms(start, end));
        }
        let events: Vec<(String, Map<String, Value>, Option<u64>)> = s.fields.events
            .iter()
            .map(|e| {
                let name = e.get("name").and_then(Value::as_str).unwrap_or("").to_string();
                (name, key_values(e.get("attributes")), e.get("timeUnixNano").and_then(nanos))
            })
            .collect();
        let views: Vec<SpanEvent> = events.iter().map(|(n, a, _)| SpanEvent { name: n, attrs: a }).collect();
        // The input, the conversation so far, is read past what the last
        // span sent when it can be (an empty list stands in for it).
        let mut values = GenaiValues::without_input_after(&s.attrs, &s.texts, &mut self.last_system);
        let has_output = values.output.is_some();
        let prepared = match (values.output_text.take(), &values.output) {
            (Some(text), Some(Value::Array(items))) => Prepared::of(text, items, s.texts.output.as_ref().and_then(source_raw)),
            _ => None,
        };
        let mut read = None;
        values.input = match input_raw(s).filter(|_| !self.out.exact_only()).map(|t| self.last_input.read(t, values.system.clone().map(system_message), &mut self.last_output, &self.tool_answers)) {
            Some(Ok(r)) => {
                read = Some(r);
                Some(Value::Array(Vec::new()))
            }
            Some(Err(text)) if s.input_text.is_some() => Some(json_in(&Value::String(text.into_owned()))),
            _ => match &s.input_text {
                Some(t) => Some(json_in(&Value::String(t.decoded().into_owned()))),
                None => s.attrs.get(INPUT).map(json_in),
            },
        };
        self.check_messages(s, &values, read.as_ref().map(InputRead::failure), index);
        let mut x = exchange(&s.attrs, values, &views);
        let used_events = x.source == "message events" && !(x.input.is_empty() && x.output.is_empty());
        let sent = match &mut read {
            Some(r) => std::mem::replace(&mut r.sent, Sent::whole(Vec::new())),
            None => Sent::whole(std::mem::take(&mut x.input)),
        };
        // In time order: what was sent, the call a tool span makes, the
        // span's own events, what came back.
        let output = self.conversation(s, path, sent, read, &x.output, start_at.clone());
        let tool = tool_span(&s.attrs, &s.fields.name, s.texts.result.as_ref()).map(|t| self.tool_call(s, path, t));
        if let (Some((t, _)), Some(result)) = (&tool, &s.texts.result) {
            if let Some(id) = &t.call_id {
                self.tool_answers.add(id, result);
            }
        }
        for (k, (name, attrs, at)) in events.iter().enumerate() {
            let consumed = (used_events && is_message_event(name)) || name == "gen_ai.client.inference.operation.details" && x.source.ends_with("event");
            if consumed {
                continue;
            }
            let label = match name.as_str() {
                "exception" => format!(
                    "exception: {}{}",
                    str_of(attrs, "exception.type").map(|t| format!("{t}: ")).unwrap_or_default(),
                    str_of(attrs, "exception.message").unwrap_or("")
                ),
                other => other.to_string(),
            };
            let segs = [Seg::key("events"), Seg::Index(k)];
            let event_path = crate::json::render_path(&s.path, &segs);
            let index = self.out.push_event(EventBody::Marker(Marker { label }), "span event", s.range.clone(), event_path, at.and_then(rfc3339));
            if let Some(e) = self.out.event_mut(index) {
                e.span = Some((**path).clone());
                e.failed = name == "exception";
                e.metadata = attrs.clone().into();
            }
        }
        let at = rfc3339(end).or(start_at);
        for m in output {
            self.message(s, path, m, "output", at.clone());
        }
        // A span with output messages (all from `values.output`: `exchange`
        // took the GenAI attributes) makes them the last output.
        if has_output {
            self.last_output = prepared.map(|p| p.keep(std::mem::take(&mut x.output))).unwrap_or_default();
        }
        if let Some((t, call)) = tool {
            self.tool_result(s, path, t, call, failed, at);
        }
    }

    /// Warns (`genai-schema`) about a message attribute its schema rejects.
    /// `input_failure`: the verdict on an input read item by item.
    fn check_messages(&mut self, s: &SpanRec, values: &GenaiValues, input_failure: Option<Option<String>>, event: u32) {
        for (k, (key, kind)) in super::genai_schema::ATTRIBUTES.into_iter().enumerate() {
            let Some(v) = values.get(kind) else { continue };
            let why = match (kind, &input_failure) {
                (super::genai_schema::Kind::Input, Some(verdict)) => verdict.clone(),
                _ => super::genai_schema::check(kind, v),
            };
            let Some(why) = why else { continue };
            let segs = if s.flat {
                vec![Seg::key(key)]
            } else {
                let at = match &s.texts.genai_at {
                    Some(found) => found.get(k).copied().flatten(),
                    None => {
                        let list = get(&s.span, &schema::SPAN, "attributes").and_then(Value::as_array);
                        list.and_then(|l| l.iter().rposition(|kv| kv.get("key").and_then(Value::as_str) == Some(key)))
                    }
                };
                match at {
                    Some(n) => vec![Seg::key("attributes"), Seg::Index(n), Seg::key("value")],
                    None => vec![Seg::key("attributes")],
                }
            };
            self.out.diag_in(Warning, "genai-schema", format!("`{key}` does not follow the GenAI conventions' schema: {why}"), &s.range, &s.path, &segs, Some(event));
        }
    }

    fn end(&mut self, i: usize, path: &[String]) {
        let Some(s) = self.spans.get(i) else { return };
        let end = s.fields.end;
        let index = self.out.push_event(EventBody::Span(ModelSpan { name: path.to_vec(), phase: SpanPhase::End }), "span", s.range.clone(), s.path.clone(), rfc3339(end));
        if let Some(e) = self.out.event_mut(index) {
            e.span = Some(path.to_vec());
            e.failed = status_code(s) == 2;
            if let Some(st) = &s.fields.status {
                e.metadata.insert("status".to_string(), st.clone());
            }
            e.metadata.insert("span_id".to_string(), Value::String(s.fields.span_id.clone()));
        }
    }

    /// The messages of a call not shown before, as events.
    /// Shows the input messages not shown before; returns the output ones
    /// (always new), to show once the span's own events are.
    /// `read`: the input read item by item, to remember for the next span.
    fn conversation<'m>(&mut self, s: &SpanRec, path: &[String], mut sent: Sent<Msg>, read: Option<InputRead<'s>>, output: &'m [Msg], start: Option<String>) -> &'m [Msg] {
        let (known, chains) = chat::already_shown_after(&mut self.shown, sent.prefix, &sent.rest, output);
        if let Some(mut read) = read {
            read.sent = sent;
            self.last_input.remember(&mut read, chains);
            sent = read.sent;
        }
        let new_input = sent.rest.get(known - sent.prefix.0..).unwrap_or(&[]);
        for m in new_input {
            self.message(s, path, m, "input", start.clone());
        }
        output
    }

    fn message(&mut self, s: &SpanRec, path: &[String], m: &Msg, side: &str, at: Option<String>) {
        let c = convert::message(m, |id| self.calls.get(id).is_some_and(|c| self.out.answered(*c)));
        let attrs_path = if s.flat { s.path.clone() } else { format!("{}.attributes", s.path) };
        let kind = if side == "input" { "input message" } else { "output message" };
        if let Some(msg) = c.message {
            let calls: Vec<Option<String>> = msg.tool_calls.iter().map(|t| t.id.clone()).collect();
            let index = self.out.push_event(EventBody::Message(msg), kind, s.range.clone(), attrs_path.clone(), at.clone());
            if let Some(e) = self.out.event_mut(index) {
                e.span = Some(path.to_vec());
                e.metadata = m.extra.clone().into();
            }
            for (n, id) in calls.into_iter().enumerate() {
                let call = CallRef { event: index, call: crate::source::clamp_u32(n) };
                self.sites.push(CallSite { call, segs: Vec::new() });
                if let Some(id) = id {
                    self.calls.entry(id).or_insert(call);
                }
            }
        }
        for r in c.results {
            let linked = r.call_id.as_ref().and_then(|id| self.calls.get(id)).copied();
            if linked.is_some_and(|c| self.out.answered(c)) {
                continue; // shown already (by its tool span)
            }
            self.result(s, path, r, linked, &attrs_path, at.clone(), false);
        }
    }

    #[allow(clippy::too_many_arguments)] // each is one fact of the result event
    fn result(&mut self, s: &SpanRec, path: &[String], mut r: ToolResult, call: Option<CallRef>, at_path: &str, at: Option<String>, failed: bool) {
        r.call = call;
        let index = self.out.push_event(EventBody::ToolResult(r), "tool result", s.range.clone(), at_path.to_string(), at);
        if let Some(e) = self.out.event_mut(index) {
            e.span = Some(path.to_vec());
            e.failed = failed;
        }
        if let Some(c) = call {
            self.out.link_result(c, index);
        }
    }

    /// A tool span's call: the message's call with its id, else (no message
    /// made it) a call event from the span.
    fn tool_call<'t>(&mut self, s: &SpanRec, path: &[String], t: convert::ToolSpan<'t>) -> (convert::ToolSpan<'t>, CallRef) {
        let attrs_path = if s.flat { s.path.clone() } else { format!("{}.attributes", s.path) };
        let known = t.call_id.as_ref().and_then(|id| self.calls.get(id)).copied().filter(|c| !self.out.answered(*c));
        let call = match known {
            Some(c) => c,
            None => {
                let body = EventBody::ToolCall(ToolCall { id: t.call_id.clone(), function: t.name.clone(), arguments: t.arguments(), result: None });
                let start = rfc3339(s.fields.start);
                let index = self.out.push_event(body, "tool span", s.range.clone(), attrs_path.clone(), start);
                if let Some(e) = self.out.event_mut(index) {
                    e.span = Some(path.to_vec());
                }
                let c = CallRef { event: index, call: 0 };
                if let Some(id) = &t.call_id {
                    self.calls.entry(id.clone()).or_insert(c);
                }
                c
            }
        };
        (t, call)
    }

    /// A tool span's result, answering its call.
    fn tool_result(&mut self, s: &SpanRec, path: &[String], t: convert::ToolSpan<'_>, call: CallRef, failed: bool, at: Option<String>) {
        let attrs_path = if s.flat { s.path.clone() } else { format!("{}.attributes", s.path) };
        let status = if failed { ToolStatus::Error } else if t.result.is_some() { ToolStatus::Success } else { ToolStatus::Unknown };
        let content = match (t.result, failed) {
            (Some(c), _) => c,
            (None, true) => chat::content_value(s.fields.status.as_ref().and_then(|st| st.get("message"))),
            (None, false) => Content::None,
        };
        let r = ToolResult { call_id: t.call_id, content, status, call: None, implicit_link: false };
        self.result(s, path, r, Some(call), &attrs_path, at, failed);
    }
}

fn is_message_event(name: &str) -> bool {
    matches!(name, "gen_ai.system.message" | "gen_ai.user.message" | "gen_ai.assistant.message" | "gen_ai.tool.message" | "gen_ai.choice")
}

/// A span's name: its own, else (flat attributes) its operation and model.
fn name_of(s: &SpanRec) -> String {
    let name = s.fields.name.as_str();
    if !name.is_empty() && !s.flat {
        return name.to_string();
    }
    let op = str_of(&s.attrs, "gen_ai.operation.name")
        .map(str::to_string)
        .or_else(|| str_of(&s.attrs, "openinference.span.kind").map(str::to_ascii_lowercase))
        .unwrap_or_else(|| "span".to_string());
    let target = ["gen_ai.tool.name", "tool.name", "gen_ai.request.model", "llm.model_name"].iter().find_map(|k| str_of(&s.attrs, k));
    match target {
        Some(t) => format!("{op} {t}"),
        None => op,
    }
}

/// `status.code` as a number (2 is ERROR).
fn status_code(s: &SpanRec) -> i64 {
    match s.fields.status.as_ref().and_then(|st| st.get("code")) {
        Some(Value::Number(n)) => n.as_i64().unwrap_or(0),
        Some(Value::String(c)) if c == "STATUS_CODE_ERROR" => 2,
        Some(Value::String(c)) if c == "STATUS_CODE_OK" => 1,
        _ => 0,
    }
}

/// A span's begin-event metadata: its ids, kind, status, scope, and every
/// attribute under its own key (events and links as written).
/// A span's begin-event metadata, from the span object as written: its OTLP
/// fields as `otel.<field>`, its scope (`scope`, from `scope_of`, which the
/// span object does not hold), then its attributes as a plain object.
fn span_metadata(span: Metadata, scope: &Metadata) -> Metadata {
    let mut m = Metadata::new();
    for k in ["traceId", "spanId", "parentSpanId", "kind", "status", "events", "links", "traceState", "flags"] {
        if let Some(v) = get(&span, &schema::SPAN, k) {
            m.insert(format!("otel.{k}"), v.clone());
        }
    }
    m.extend(scope.clone());
    m.extend(key_values(get(&span, &schema::SPAN, "attributes")));
    m
}

/// The span's `gen_ai.input.messages` string as it is read: its literal in
/// the source when the reader left it there.
fn input_raw(s: &SpanRec) -> Option<Raw<'_>> {
    match &s.input_text {
        Some(t) => Some(match t.raw() {
            RawText::Owned(text) => Raw { bytes: text.as_bytes(), escaped: false },
            RawText::Source { bytes, escaped } => Raw { bytes, escaped },
            // Not a literal's contents as they stand (no reader here makes one): read whole.
            RawText::Twice { .. } => return None,
        }),
        None => s.attrs.get(INPUT).and_then(Value::as_str).map(|text| Raw { bytes: text.as_bytes(), escaped: false }),
    }
}

/// A text's literal in the source, as it is written there.
fn source_raw(t: &crate::text::Text) -> Option<Raw<'_>> {
    match t.raw() {
        RawText::Source { bytes, escaped } => Some(Raw { bytes, escaped }),
        _ => None,
    }
}

/// A flat attribute object's metadata: the object itself.
fn flat_metadata(attrs: Metadata, _: &Metadata) -> Metadata {
    attrs
}

/// `otel.scope` for `span_metadata`, when the span has a scope.
fn scope_of(s: &SpanRec) -> Metadata {
    let mut m = Metadata::new();
    if !s.flat && !s.scope.is_null() {
        m.insert("otel.scope".to_string(), (*s.scope).clone());
    }
    m
}
