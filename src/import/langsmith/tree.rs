//! Runs into agent runs: one per trace, its runs walked as a tree (parent
//! links; siblings in `dotted_order`, else by start time), each a begin and
//! an end span event around what it adds: an `llm` run's messages not shown
//! before, a `tool` run's call and result, its events other than streamed
//! tokens. As in `langfuse` and `otel`, a model call's re-sent history is
//! shown once (the chain hashes of every message sequence already shown).

use std::collections::HashMap;
use std::rc::Rc;

use crate::import::chat::Field;
use serde_json::Value;

use super::facts;
use crate::import::history::{self, Conversation, Sent};
use super::reader::RunRec;
use super::validate;
use crate::diagnostic::Severity::Warning;
use crate::import::chat::{self, Msg};
use crate::import::{Builder, CallSite, Input};
use crate::json::{render_path, Seg};
use crate::model::{CallRef, Content, ContentPart, EventBody, Marker, Message, Metadata, SpanEvent, SpanPhase, ToolCall, ToolResult, ToolStatus};

const MAX_DEPTH: usize = 256;

/// Builds every agent run, in order of each trace's first run.
pub fn runs(all: &[RunRec], input: &Input, out: &mut Builder) {
    // Computed once for all traces (per trace would be a square in the traces).
    let keys: Vec<SortKey> = all.iter().map(sort_key).collect();
    let mut visited = vec![false; all.len()];
    let mut order: Vec<&str> = Vec::new();
    let mut members: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, r) in all.iter().enumerate() {
        members
            .entry(r.trace.as_str())
            .or_insert_with(|| {
                order.push(r.trace.as_str());
                Vec::new()
            })
            .push(i);
    }
    for trace in order {
        let Some(indices) = members.remove(trace) else { continue };
        let first = indices.first().and_then(|&i| all.get(i));
        let mut metadata = Metadata::new();
        metadata.insert("trace_id".to_string(), Value::String(trace.to_string()));
        if let Some(s) = first.and_then(|r| r.o.field("session_name")) {
            metadata.insert("session_name".to_string(), s.clone());
        }
        let id = if trace.is_empty() { "(no trace id)".to_string() } else { trace.to_string() };
        out.begin_run(id, metadata, first.map(|r| r.range.start));
        if let Some(run) = out.last_run_mut() {
            run.name = first.map(|r| r.str_field("name").to_string()).filter(|n| !n.is_empty());
        }
        let mut w = Walk { all, input, out, keys: &keys, conversation: Conversation::default(), visited: &mut visited, shown: Default::default(), calls: HashMap::new(), by_name: HashMap::new(), sites: Vec::new(), too_deep: false };
        w.trace(&indices);
    }
}

/// How siblings sort: the last step of the dotted order (its start time),
/// else the start time; runs with neither last.
type SortKey = (bool, String, Option<crate::analysis::time::Instant>);

fn sort_key(r: &RunRec) -> SortKey {
    let dotted = r.str_field("dotted_order").rsplit('.').next().unwrap_or("").to_string();
    let start = facts::instant(r.o.field("start_time"));
    (dotted.is_empty() && start.is_none(), dotted, start)
}

struct Walk<'s, 'r, 'a> {
    all: &'s [RunRec],
    input: &'s Input<'s>,
    /// The last call whose input list was left in the source.
    conversation: Conversation,
    out: &'r mut Builder<'a>,
    keys: &'s [SortKey],
    visited: &'r mut [bool],
    shown: crate::import::chat::Shown,
    calls: HashMap<String, CallRef>,
    by_name: HashMap<String, (Vec<CallRef>, usize)>,
    sites: Vec<CallSite>,
    too_deep: bool,
}

impl Walk<'_, '_, '_> {
    fn trace(&mut self, indices: &[usize]) {
        let mut by_id: HashMap<&str, usize> = HashMap::new();
        for &i in indices {
            let Some(r) = self.all.get(i) else { continue };
            let id = r.str_field("id");
            if !id.is_empty() && by_id.insert(id, i).is_some() {
                self.out.diag_in(Warning, "duplicate-run-id", format!("run id {id} is used by another run of this trace; children go to the last"), &r.range, &r.path, &[Seg::key("id")], None);
            }
        }
        let mut children: HashMap<usize, Vec<usize>> = HashMap::new();
        let mut roots = Vec::new();
        for &i in indices {
            let Some(r) = self.all.get(i) else { continue };
            let parent = r.parent.as_deref().unwrap_or("");
            match by_id.get(parent).filter(|&&p| p != i) {
                Some(&p) if !parent.is_empty() => children.entry(p).or_default().push(i),
                _ => {
                    if !parent.is_empty() {
                        self.out.diag_in(Warning, "missing-parent", format!("parent run {parent} is not in this input; shown as a root"), &r.range, &r.path, &[Seg::key("parent_run_id")], None);
                    }
                    roots.push(i)
                }
            }
        }
        let keys = self.keys;
        let key = |i: &usize| keys.get(*i).cloned().unwrap_or((true, String::new(), None));
        crate::sort::by_key(&mut roots, key);
        for list in children.values_mut() {
            crate::sort::by_key(list, key);
        }
        for root in roots {
            self.walk(root, &children);
        }
        for &i in indices {
            if !self.visited.get(i).copied().unwrap_or(true) {
                if let Some(r) = self.all.get(i) {
                    self.out.diag_in(Warning, "run-cycle", "this run's parent links form a cycle; shown as a root".to_string(), &r.range, &r.path, &[Seg::key("parent_run_id")], None);
                }
                self.walk(i, &children);
            }
        }
        let sites = std::mem::take(&mut self.sites);
        self.out.warn_unanswered(&sites, |name| format!("{name} has no result in this trace (no tool run or tool message answers it)"));
    }

    fn walk(&mut self, root: usize, children: &HashMap<usize, Vec<usize>>) {
        let mut stack: Vec<(usize, Rc<Vec<String>>, bool)> = vec![(root, Rc::new(Vec::new()), false)];
        while let Some((i, path, closing)) = stack.pop() {
            if closing {
                self.end(i, &path);
                continue;
            }
            if self.visited.get(i).copied().unwrap_or(true) {
                continue;
            }
            if let Some(v) = self.visited.get_mut(i) {
                *v = true;
            }
            let mut own: Vec<String> = path.iter().take(MAX_DEPTH - 1).cloned().collect();
            if path.len() >= MAX_DEPTH && !self.too_deep {
                self.too_deep = true;
                if let Some(r) = self.all.get(i) {
                    self.out.diag_in(Warning, "run-too-deep", format!("runs nest deeper than {MAX_DEPTH} levels; deeper ones are shown at level {MAX_DEPTH}"), &r.range, &r.path, &[], None);
                }
            }
            own.push(self.all.get(i).map(name_of).unwrap_or_default());
            let own = Rc::new(own);
            self.begin(i, &own);
            stack.push((i, own.clone(), true));
            for &c in children.get(&i).into_iter().flatten().rev() {
                stack.push((c, own.clone(), false));
            }
        }
    }

    fn begin(&mut self, i: usize, path: &[String]) {
        let Some(r) = self.all.get(i) else { return };
        let failed = r.o.field("error").is_some_and(|e| !e.is_null() && e.as_str() != Some(""));
        let start = facts::timestamp(r.o.field("start_time"));
        let index = self.out.push_event(EventBody::Span(SpanEvent { name: path.to_vec(), phase: SpanPhase::Begin }), "run", r.range.clone(), r.path.clone(), start.clone());
        let llm = r.str_field("run_type") == "llm";
        let (input, whole_inputs) = if llm { self.input_of(r) } else { (None, None) };
        let output = if llm { self.output_of(r) } else { None };
        // Left in the source when it can be, else the fields as read.
        let mut shown = Metadata::new();
        for (k, as_messages) in [("inputs", input.is_some()), ("outputs", output.is_some())] {
            if as_messages {
                shown.insert(k.to_string(), Value::Bool(true));
            }
        }
        let deferred = (r.own_range && self.out.can_defer_metadata(&r.range)).then(|| self.out.metadata_in_source(r.range.clone(), run_metadata, shown.clone()));
        if let Some(e) = self.out.event_mut(index) {
            e.span = Some(path.to_vec());
            e.failed = failed;
            e.facts = facts::facts(&r.o);
            match deferred {
                Some(m) => e.metadata = m,
                None => {
                    for (k, v) in &r.o {
                        if !shown.contains_key(k) {
                            let v = match (&whole_inputs, &r.output, &r.choices) {
                                (Some(whole), _, _) if k == "inputs" => whole.clone(),
                                (_, Some(t), _) if k == "outputs" => serde_json::json!({ "output": t.decoded() }),
                                (_, _, Some(c)) if k == "outputs" => history::value_at(self.input.bytes, &c.outputs),
                                _ => v.clone(),
                            };
                            e.metadata.insert(k.clone(), v);
                        }
                    }
                }
            }
        }
        // Diagnostics point into the post, or the patch for what it set.
        let problems = validate::run(&r.o);
        let (in_patch, in_post): (Vec<_>, Vec<_>) = problems.into_iter().partition(|(segs, _)| matches!(segs.first(), Some(Seg::Key(k)) if r.patch_keys.iter().any(|p| p == k)));
        validate::report(self.out, &r.range, &r.path, in_post, Some(index));
        if let Some((range, path)) = &r.patch {
            validate::report(self.out, range, path, in_patch, Some(index));
        }
        self.events(r, path);
        if let Some(msgs) = input {
            self.conversation(r, path, msgs, output.unwrap_or_default(), start);
        } else if r.str_field("run_type") == "tool" {
            self.tool(r, path, failed);
        }
    }

    /// An `llm` run's input messages, and its `inputs` read whole when they
    /// were left in the source and are no conversation (its metadata then
    /// holds them).
    fn input_of(&mut self, r: &RunRec) -> (Option<Sent>, Option<Value>) {
        let Some(at) = &r.history else { return (r.o.field("inputs").and_then(inputs).map(Sent::whole), None) };
        let b = self.input.bytes;
        let without = r.o.field("inputs").and_then(Value::as_object);
        if let Some(sent) = without.and_then(|o| self.conversation.input(self.out, &self.input.split.ends, Some(o), at)) {
            return (Some(sent), None);
        }
        let whole = history::value_at(b, &at.value);
        (inputs(&whole).map(Sent::whole), Some(whole))
    }

    /// An `llm` run's output messages: its `choices` read from the bytes
    /// when they were left in the source (else its outputs read whole).
    fn output_of(&self, r: &RunRec) -> Option<Vec<Msg>> {
        let Some(at) = &r.choices else { return r.o.field("outputs").and_then(|v| chat::messages(v, "assistant")) };
        match super::llm_record::choice_messages(self.out, &self.input.split.ends, at) {
            Some(found) => found,
            None => chat::messages(&history::value_at(self.input.bytes, &at.outputs), "assistant"),
        }
    }

    /// The run's events other than streamed tokens, as markers.
    fn events(&mut self, r: &RunRec, path: &[String]) {
        let Some(Value::Array(events)) = r.o.field("events") else { return };
        let (range, base) = match (&r.patch, r.patch_keys.iter().any(|k| k == "events")) {
            (Some((range, p)), true) => (range.clone(), p.clone()),
            _ => (r.range.clone(), r.path.clone()),
        };
        for (k, ev) in events.iter().enumerate() {
            let name = ev.field("name").and_then(Value::as_str).unwrap_or("event");
            if name == "new_token" {
                continue; // streamed tokens: the output has them whole
            }
            let at = facts::timestamp(ev.field("time"));
            let index = self.out.push_event(EventBody::Marker(Marker { label: name.to_string() }), "run event", range.clone(), render_path(&base, &[Seg::key("events"), Seg::Index(k)]), at);
            if let Some(e) = self.out.event_mut(index) {
                e.span = Some(path.to_vec());
                if let Some(o) = ev.as_object() {
                    e.metadata = o.clone().into();
                }
            }
        }
    }

    fn end(&mut self, i: usize, path: &[String]) {
        let Some(r) = self.all.get(i) else { return };
        let (range, at_path) = r.patch.clone().unwrap_or_else(|| (r.range.clone(), r.path.clone()));
        let index = self.out.push_event(EventBody::Span(SpanEvent { name: path.to_vec(), phase: SpanPhase::End }), "run", range, at_path, facts::timestamp(r.o.field("end_time")));
        if let Some(e) = self.out.event_mut(index) {
            e.span = Some(path.to_vec());
            e.failed = r.o.field("error").is_some_and(|e| !e.is_null() && e.as_str() != Some(""));
            e.metadata.insert("id".to_string(), Value::String(r.str_field("id").to_string()));
            if let Some(err) = r.o.field("error").filter(|e| !e.is_null()) {
                e.metadata.insert("error".to_string(), err.clone());
            }
        }
    }

    fn conversation(&mut self, r: &RunRec, path: &[String], mut input: Sent, output: Vec<Msg>, start: Option<String>) {
        let (known, chains) = chat::already_shown_after(&mut self.shown, input.prefix, &input.rest, &output);
        self.conversation.remember(&mut input, chains);
        let in_path = render_path(&r.path, &[Seg::key("inputs")]);
        for m in input.rest.into_iter().skip(known - input.prefix.0) {
            self.message(r, path, m, &r.range, &in_path, "input message", start.clone());
        }
        let at = facts::timestamp(r.o.field("end_time")).or(start);
        let (range, base) = match (&r.patch, r.patch_keys.iter().any(|k| k == "outputs")) {
            (Some((range, p)), true) => (range.clone(), p.clone()),
            _ => (r.range.clone(), r.path.clone()),
        };
        let out_path = render_path(&base, &[Seg::key("outputs")]);
        for m in output {
            self.message(r, path, m, &range, &out_path, "output message", at.clone());
        }
    }

    #[allow(clippy::too_many_arguments)] // each is one fact of the message event
    fn message(&mut self, _r: &RunRec, path: &[String], m: Msg, range: &std::ops::Range<usize>, at_path: &str, kind: &str, at: Option<String>) {
        if m.definition.is_some() {
            return; // a tool declaration in a LangChain handler's input (not seen in LangSmith)
        }
        let content = m.content();
        if content != Content::None || !m.calls.is_empty() || m.results.is_empty() {
            let names: Vec<(Option<String>, String)> = m.calls.iter().map(|c| (c.id.clone(), c.function.clone())).collect();
            let index = self.out.push_event(EventBody::Message(Message { role: m.role.clone(), content, tool_calls: m.calls }), kind, range.clone(), at_path.to_string(), at.clone());
            if let Some(e) = self.out.event_mut(index) {
                e.span = Some(path.to_vec());
            }
            for (n, (id, name)) in names.into_iter().enumerate() {
                let call = CallRef { event: index, call: crate::source::clamp_u32(n) };
                self.sites.push(CallSite { call, segs: Vec::new() });
                if let Some(id) = id {
                    self.calls.entry(id).or_insert(call);
                }
                self.by_name.entry(name).or_default().0.push(call);
            }
        }
        for res in m.results {
            let linked = res.call_id.as_ref().and_then(|id| self.calls.get(id)).copied();
            if linked.is_some_and(|c| self.out.answered(c)) {
                continue; // shown already, by its tool run
            }
            let result = ToolResult { call_id: res.call_id, content: res.content, status: ToolStatus::Unknown, call: linked, implicit_link: false };
            let index = self.out.push_event(EventBody::ToolResult(result), "tool result", range.clone(), at_path.to_string(), at.clone());
            if let Some(e) = self.out.event_mut(index) {
                e.span = Some(path.to_vec());
            }
            if let Some(c) = linked {
                self.out.link_result(c, index);
            }
        }
    }

    fn first_unanswered(&mut self, name: &str) -> Option<CallRef> {
        let (calls, answered) = self.by_name.get_mut(name)?;
        while let Some(c) = calls.get(*answered) {
            if !self.out.answered(*c) {
                return Some(*c);
            }
            *answered += 1;
        }
        None
    }

    /// A tool run: the call an `llm` run made for it (by `tool_call_id`, else
    /// the first unanswered call of its name), or a call of its own; then
    /// its output (or error) as the result.
    fn tool(&mut self, r: &RunRec, path: &[String], failed: bool) {
        let inputs = r.o.field("inputs");
        let meta = r.o.field("extra").and_then(|e| e.field("metadata"));
        let call_id = [inputs.and_then(|i| i.field("tool_call_id")), meta.and_then(|m| m.field("tool_call_id"))].into_iter().flatten().find_map(Value::as_str).map(str::to_string);
        let name = r.str_field("name").to_string();
        let by_id = call_id.as_ref().and_then(|id| self.calls.get(id)).copied();
        let known = match by_id {
            Some(c) => Some(c).filter(|c| !self.out.answered(*c)),
            None => self.first_unanswered(&name),
        };
        let start = facts::timestamp(r.o.field("start_time"));
        let call = match known {
            Some(c) => c,
            None => {
                let args = match inputs {
                    Some(Value::Object(o)) if o.len() == 1 && o.has_field("input") => o.field("input"),
                    other => other,
                };
                let body = EventBody::ToolCall(ToolCall { id: call_id.clone(), function: name, arguments: chat::arguments(args), result: None });
                let index = self.out.push_event(body, "tool run", r.range.clone(), render_path(&r.path, &[Seg::key("inputs")]), start.clone());
                if let Some(e) = self.out.event_mut(index) {
                    e.span = Some(path.to_vec());
                }
                CallRef { event: index, call: 0 }
            }
        };
        // The output: its text left in the source, else as read.
        let output = match &r.output {
            Some(t) => Some(Content::Text(t.clone())),
            None => r.o.field("outputs").filter(|v| !v.is_null()).map(|o| match o {
                Value::Object(m) if m.len() == 1 && m.has_field("output") => chat::content_value(m.field("output")),
                other => chat::content_value(Some(other)),
            }),
        };
        let status = if failed { ToolStatus::Error } else if output.is_some() { ToolStatus::Success } else { ToolStatus::Unknown };
        let content = match (output, failed) {
            (Some(c), _) => c,
            (None, true) => chat::content_value(r.o.field("error")),
            (None, false) => Content::None,
        };
        let (range, base) = r.patch.clone().unwrap_or_else(|| (r.range.clone(), r.path.clone()));
        let index = self.out.push_event(EventBody::ToolResult(ToolResult { call_id, content, status, call: Some(call), implicit_link: false }), "tool result", range, render_path(&base, &[Seg::key("outputs")]), facts::timestamp(r.o.field("end_time")).or(start));
        if let Some(e) = self.out.event_mut(index) {
            e.span = Some(path.to_vec());
            e.failed = failed;
        }
        self.out.link_result(call, index);
    }
}

/// An `llm` run's input messages: a chat conversation, or a completion
/// model's `prompts` (each a user message).
fn inputs(v: &Value) -> Option<Vec<Msg>> {
    if let Some(Value::Array(prompts)) = v.field("prompts") {
        let msgs: Vec<Msg> = prompts.iter().filter_map(Value::as_str).map(|p| Msg { role: "user".to_string(), parts: vec![ContentPart::Text(p.into())], ..Msg::default() }).collect();
        if !msgs.is_empty() {
            return Some(msgs);
        }
    }
    chat::messages(v, "user")
}

/// A run's begin-event metadata from its object as written, as the reader
/// and `begin` make it: `child_runs` taken out (a list or null: they are
/// runs of their own; anything else goes back, last), and the `inputs` and
/// `outputs` shown as messages (named in `shown`) left out.
fn run_metadata(mut o: Metadata, shown: &Metadata) -> Metadata {
    match o.remove("child_runs") {
        Some(Value::Array(_) | Value::Null) | None => {}
        Some(other) => {
            o.insert("child_runs".to_string(), other);
        }
    }
    o.retain(|k, _| !shown.contains_key(k));
    o
}

fn name_of(r: &RunRec) -> String {
    match r.str_field("name") {
        "" => r.str_field("run_type").to_string(),
        n => n.to_string(),
    }
}
