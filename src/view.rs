//! Plain, serialisable views of the model for the UI: rows of events,
//! diagnostics counts, a one-line summary per event.
//!
//! The UI asks for pages of these (`events(start, count)`) instead of the
//! whole trace, so a large trace never exists as JS objects all at once.

use serde::Serialize;
use serde_json::Value;

pub use crate::analysis::spans::SpanRow;
pub use crate::analysis::summary::{summary, truncate};
use crate::analysis::summary::one_line;
use crate::diagnostic::Severity;
use crate::model::{CallRef, Content, ContentPart, Event, EventBody, LazyValue, Text, ToolCall, ToolStatus, Trace};

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EventView<'a> {
    pub index: u32,
    pub run: u32,
    pub transcript: u32,
    /// The shared model's kind: `message`, `tool-call`, `tool-result`, …
    pub kind: &'static str,
    /// The format's own record kind.
    pub source_kind: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<&'a str>,
    /// The readable text of the content (text parts joined).
    pub text: String,
    /// Content parts when the content was a list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parts: Option<Vec<PartView<'a>>>,
    /// Structured content (a tool output object).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub json: Option<&'a Value>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<CallView<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub call_id: Option<&'a str>,
    /// The call a tool result answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub call: Option<CallRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub call_function: Option<&'a str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub implicit_link: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<ToolStatus>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<&'a str>,
    pub summary: String,
    pub path: &'a str,
    pub line: u32,
    pub column: u32,
    pub errors: u32,
    pub warnings: u32,
    /// The span path the record was logged under, root first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span: Option<&'a [String]>,
    /// The source marks the record as a failure.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub failed: bool,
    #[serde(skip_serializing_if = "serde_json::Map::is_empty")]
    pub metadata: &'a serde_json::Map<String, Value>,
    /// The typed facts of the record (model, token usage, cost, duration), for
    /// the transcript's chips; absent when the record gives none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub facts: Option<FactsView<'a>>,
}

/// [`crate::model::EventFacts`] as the page reads them (the hand-off is
/// left out: Agent Catalog's span views show it).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FactsView<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage: Option<&'a crate::model::Usage>,
    /// What the call cost (USD), as the record reports it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<&'a crate::model::Cost>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<f64>,
}

fn facts_view(e: &Event) -> Option<FactsView<'_>> {
    let f = e.facts.as_deref()?;
    let view = FactsView { model: f.model.as_deref(), usage: f.usage.as_ref(), cost: f.cost.as_ref(), duration_ms: f.duration_ms.filter(|d| d.is_finite()) };
    (view.model.is_some() || view.usage.is_some() || view.cost.is_some() || view.duration_ms.is_some()).then_some(view)
}

#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum PartView<'a> {
    Text { text: &'a Text },
    Reasoning { text: &'a Text },
    Image { url: &'a Text },
    Other { json: &'a Value },
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CallView<'a> {
    pub index: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<&'a str>,
    pub function: &'a str,
    pub arguments: Option<&'a LazyValue>,
    /// The original text when the arguments came as a JSON string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arguments_text: Option<&'a Text>,
    /// Index of the event holding the result.
    pub result: Option<u32>,
}

/// Error and warning counts per event, computed once per trace.
pub fn diagnostic_counts(trace: &Trace) -> Vec<(u32, u32)> {
    let mut counts = vec![(0u32, 0u32); trace.events.len()];
    for d in &trace.diagnostics {
        if let Some(c) = d.event.and_then(|e| counts.get_mut(e as usize)) {
            match d.severity {
                Severity::Error => c.0 += 1,
                Severity::Warning => c.1 += 1,
                Severity::Info => {}
            }
        }
    }
    counts
}

fn call_view(index: usize, c: &ToolCall) -> CallView<'_> {
    CallView {
        index: crate::source::clamp_u32(index),
        id: c.id.as_deref(),
        function: &c.function,
        arguments: c.arguments.value.as_ref(),
        arguments_text: c.arguments.text.as_ref(),
        result: c.result,
    }
}

fn parts_view(content: &Content) -> Option<Vec<PartView<'_>>> {
    match content {
        Content::Parts(parts) => Some(
            parts
                .iter()
                .map(|p| match p {
                    ContentPart::Text(t) => PartView::Text { text: t },
                    ContentPart::Reasoning(t) => PartView::Reasoning { text: t },
                    ContentPart::Image { url } => PartView::Image { url },
                    ContentPart::Other(v) => PartView::Other { json: v },
                })
                .collect(),
        ),
        _ => None,
    }
}

pub fn event_view<'a>(trace: &'a Trace, index: usize, counts: (u32, u32)) -> Option<EventView<'a>> {
    let e: &Event = trace.events.get(index)?;
    let pos = trace.event_position(index)?;
    let mut v = EventView {
        index: crate::source::clamp_u32(index),
        run: e.run,
        transcript: e.transcript,
        kind: e.body.kind(),
        source_kind: &e.source_kind,
        role: None,
        timestamp: e.timestamp.as_deref(),
        text: String::new(),
        parts: None,
        json: None,
        tool_calls: Vec::new(),
        call_id: None,
        call: None,
        call_function: None,
        implicit_link: false,
        status: None,
        tools: Vec::new(),
        summary: summary(trace, e),
        path: &e.path,
        line: pos.line,
        column: pos.column,
        errors: counts.0,
        warnings: counts.1,
        span: e.span.as_deref(),
        failed: e.failed,
        metadata: &e.metadata,
        facts: facts_view(e),
    };
    match &e.body {
        EventBody::Message(m) => {
            v.role = Some(&m.role);
            v.text = m.content.text();
            v.parts = parts_view(&m.content);
            if let Content::Json(j) = &m.content {
                v.json = Some(j.get());
            }
            v.tool_calls = m.tool_calls.iter().enumerate().map(|(i, c)| call_view(i, c)).collect();
        }
        EventBody::ToolCall(c) => v.tool_calls = vec![call_view(0, c)],
        EventBody::ToolResult(r) => {
            v.role = Some("tool");
            v.text = r.content.text();
            v.parts = parts_view(&r.content);
            if let Content::Json(j) = &r.content {
                v.json = Some(j.get());
            }
            v.call_id = r.call_id.as_deref();
            v.call = r.call;
            v.call_function = r.call.and_then(|c| trace.call(c)).map(|c| c.function.as_str());
            v.implicit_link = r.implicit_link;
            v.status = Some(r.status);
        }
        EventBody::ToolDefinitions(tools) => v.tools = tools.iter().map(|t| t.name.as_str()).collect(),
        EventBody::Span(_) | EventBody::Marker(_) | EventBody::KeyValue(_) => {}
        EventBody::Unparsed(why) => v.text = why.clone(),
    }
    Some(v)
}

/// A light row for the virtualised list: what one line shows, without the
/// content (which the detail pane fetches with [`event_view`]).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RowView<'a> {
    pub index: u32,
    pub run: u32,
    pub kind: &'static str,
    pub source_kind: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<&'a str>,
    /// One line: text, `function(arguments)` of calls, `function: result`.
    pub summary: String,
    /// The call a tool result answers (its event index).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub call_event: Option<u32>,
    /// Result event of each call the event makes (None: unanswered).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub results: Vec<Option<u32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<ToolStatus>,
    /// The source marks the record itself as a failure (an agent error).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub failed: bool,
    pub errors: u32,
    pub warnings: u32,
}

pub fn row_view(trace: &Trace, index: usize, counts: (u32, u32)) -> Option<RowView<'_>> {
    let e = trace.events.get(index)?;
    let mut row = RowView {
        index: crate::source::clamp_u32(index),
        run: e.run,
        kind: e.body.kind(),
        source_kind: &e.source_kind,
        role: e.role(),
        timestamp: e.timestamp.as_deref(),
        summary: one_line(&summary(trace, e), 240),
        failed: e.failed,
        call_event: None,
        results: Vec::new(),
        status: None,
        errors: counts.0,
        warnings: counts.1,
    };
    match &e.body {
        EventBody::Message(m) => row.results = m.tool_calls.iter().map(|c| c.result).collect(),
        EventBody::ToolCall(c) => row.results = vec![c.result],
        EventBody::ToolResult(r) => {
            row.call_event = r.call.map(|c| c.event);
            row.status = Some(r.status);
        }
        _ => {}
    }
    Some(row)
}

/// One transcript of a [`RunView`]: its events are contiguous.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TranscriptView<'a> {
    pub key: &'a str,
    pub first_event: u32,
    pub event_count: u32,
}

/// A run without its metadata and transcripts (`trace.runHeads()`): what a
/// run switcher needs, cheap for 10,000 runs whose metadata is large.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunHead<'a> {
    pub index: usize,
    pub id: &'a str,
    pub name: Option<&'a str>,
    /// Index of the run's first event; its events are contiguous.
    pub first_event: u32,
    pub event_count: u32,
    /// The tool call that started the run, when it is a sub-agent's.
    pub started_by: Option<crate::model::CallRef>,
    /// The archive member holding the run's body, when it was left unread
    /// (an archive opened lazily): the run has its summary, not its events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending_body: Option<&'a str>,
}

/// A run as `trace.runs()` lists it: its head, and its metadata and
/// transcripts.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunView<'a> {
    #[serde(flatten)]
    pub head: RunHead<'a>,
    pub description: Option<&'a str>,
    pub transcripts: Vec<TranscriptView<'a>>,
    pub metadata: &'a crate::model::Metadata,
}

/// A run's head: where its events are, and what started it.
fn run_head(index: usize, r: &crate::model::AgentRun) -> RunHead<'_> {
    let first = r.transcripts.first().map(|t| t.events.start).unwrap_or(0);
    let last = r.transcripts.last().map(|t| t.events.end).unwrap_or(first);
    RunHead {
        index,
        id: &r.id,
        name: r.name.as_deref(),
        first_event: first,
        event_count: last.saturating_sub(first),
        started_by: r.started_by,
        pending_body: r.pending_body.as_deref(),
    }
}

/// Every run of the trace (`trace.runs()`).
pub fn run_views(trace: &Trace) -> Vec<RunView<'_>> {
    trace
        .runs
        .iter()
        .enumerate()
        .map(|(index, r)| RunView {
            head: run_head(index, r),
            description: r.description.as_deref(),
            transcripts: r
                .transcripts
                .iter()
                .map(|t| TranscriptView {
                    key: &t.key,
                    first_event: t.events.start,
                    event_count: t.events.end.saturating_sub(t.events.start),
                })
                .collect(),
            metadata: &r.metadata,
        })
        .collect()
}

/// Every run of the trace, light (`trace.runHeads()`).
pub fn run_heads(trace: &Trace) -> Vec<RunHead<'_>> {
    trace.runs.iter().enumerate().map(|(index, r)| run_head(index, r)).collect()
}

/// One input file of a multi-file trace (`trace.files()`): its byte range
/// in the joined source and the line it starts on.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceFileView<'a> {
    pub name: &'a str,
    pub start: usize,
    pub end: usize,
    pub first_line: u32,
}

/// The input files of the trace (`trace.files()`; empty for a single input).
pub fn source_file_views(trace: &Trace) -> Vec<SourceFileView<'_>> {
    trace
        .files
        .iter()
        .map(|f| SourceFileView { name: &f.name, start: f.range.start, end: f.range.end, first_line: f.first_line })
        .collect()
}

/// The flat list of spans (`trace.spans()`): every opening of a span in
/// the order they begin, read off the one span tree ([`crate::analysis::spans`]).
/// Empty for formats without spans.
pub fn span_tree(trace: &Trace) -> Vec<SpanRow<'_>> {
    crate::analysis::spans::span_tree(trace).rows(trace)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{SpanEvent, SpanPhase};

    const TRACE: &str = r#"[
{"role": "user", "content": "go"},
{"role": "assistant", "content": "", "tool_calls": [{"id": "a", "type": "function", "function": {"name": "ls", "arguments": "{}"}}, {"id": "b", "type": "function", "function": {"name": "cat", "arguments": "{\"f\": 1}"}}]},
{"role": "tool", "tool_call_id": "a", "content": "x y"},
{"role": "tool", "tool_call_id": "b", "content": "no such file", "error": "ENOENT"},
{"role": "assistant", "content": "", "tool_calls": [{"id": "c", "type": "function", "function": {"name": "ls", "arguments": "{}"}}]}
]"#;

    fn trace() -> Trace {
        crate::parse_trace(TRACE.as_bytes().to_vec(), &crate::ParseOptions::default()).unwrap()
    }

    #[test]
    fn rows_link_calls_and_results() {
        let t = trace();
        let counts = diagnostic_counts(&t);
        let call = row_view(&t, 1, counts[1]).unwrap();
        assert_eq!(call.results, vec![Some(2), Some(3)]);
        assert_eq!(call.summary, r#"→ ls({}), cat({"f":1})"#);
        let result = row_view(&t, 3, counts[3]).unwrap();
        assert_eq!(result.call_event, Some(1));
        assert_eq!(result.status, Some(ToolStatus::Error));
        assert_eq!(result.role, Some("tool"));
        assert_eq!(result.summary, "cat: no such file");
        assert!(row_view(&t, 99, (0, 0)).is_none());
    }

    #[test]
    fn summary_of_content_without_text_names_what_it_holds() {
        let text = r#"[{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:image/png;base64,AA"}}, {"type": "image_url", "image_url": {"url": "https://x/y.png"}}]},
{"role": "assistant", "content": [{"type": "reasoning", "text": "hmm"}]}]"#;
        let t = crate::parse_trace(text.as_bytes().to_vec(), &crate::ParseOptions::default()).unwrap();
        assert_eq!(row_view(&t, 0, (0, 0)).unwrap().summary, "[2 images]");
        assert_eq!(row_view(&t, 1, (0, 0)).unwrap().summary, "[reasoning]");
    }

    #[test]
    fn span_tree_nests_and_closes() {
        let mut t = trace();
        let span = |name: &[&str], phase| EventBody::Span(SpanEvent { name: name.iter().map(|s| s.to_string()).collect(), phase });
        t.events[0].body = span(&["agent"], SpanPhase::Begin);
        t.events[1].body = span(&["agent", "step"], SpanPhase::Begin);
        t.events[2].body = span(&["agent", "step"], SpanPhase::End);
        t.events[3].body = span(&["agent", "step2"], SpanPhase::Begin);
        let tree = span_tree(&t);
        let shape: Vec<(&str, u32, u32, Option<u32>)> = tree.iter().map(|n| (n.name.as_str(), n.depth, n.begin, n.end)).collect();
        assert_eq!(shape, vec![("agent", 0, 0, None), ("step", 1, 1, Some(2)), ("step2", 1, 3, None)]);
        assert_eq!(tree[1].path, "agent/step");
    }
}
