//! Plain, serialisable views of the model for the UI: rows of events,
//! diagnostics counts, a one-line summary per event.
//!
//! The UI asks for pages of these (`events(start, count)`) instead of the
//! whole trace, so a large trace never exists as JS objects all at once.

use serde::Serialize;
use serde_json::Value;

use crate::diagnostic::Severity;
use crate::model::{CallRef, Content, ContentPart, Event, EventBody, ToolCall, ToolStatus, Trace};

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
}

#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum PartView<'a> {
    Text { text: &'a str },
    Reasoning { text: &'a str },
    Image { url: &'a str },
    Other { json: &'a Value },
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CallView<'a> {
    pub index: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<&'a str>,
    pub function: &'a str,
    pub arguments: Option<&'a Value>,
    /// The original text when the arguments came as a JSON string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arguments_text: Option<&'a str>,
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
        arguments_text: c.arguments.text.as_deref(),
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
        line: e.line,
        column: e.column,
        errors: counts.0,
        warnings: counts.1,
        span: e.span.as_deref(),
        failed: e.failed,
        metadata: &e.metadata,
    };
    match &e.body {
        EventBody::Message(m) => {
            v.role = Some(&m.role);
            v.text = m.content.text();
            v.parts = parts_view(&m.content);
            if let Content::Json(j) = &m.content {
                v.json = Some(j);
            }
            v.tool_calls = m.tool_calls.iter().enumerate().map(|(i, c)| call_view(i, c)).collect();
        }
        EventBody::ToolCall(c) => v.tool_calls = vec![call_view(0, c)],
        EventBody::ToolResult(r) => {
            v.role = Some("tool");
            v.text = r.content.text();
            v.parts = parts_view(&r.content);
            if let Content::Json(j) = &r.content {
                v.json = Some(j);
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

/// Cuts `s` to at most `max` characters on a character boundary.
pub fn truncate(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", s.get(..i).unwrap_or(s)),
        None => s.to_string(),
    }
}

fn one_line(s: &str, max: usize) -> String {
    let collapsed: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    truncate(&collapsed, max)
}

/// One line that says what the event is, for list rows.
pub fn summary(trace: &Trace, e: &Event) -> String {
    match &e.body {
        EventBody::Message(m) => {
            let text = one_line(&m.content.text(), 160);
            let calls: Vec<String> =
                m.tool_calls.iter().map(|c| format!("{}({})", c.function, one_line(&c.arguments.display(), 60))).collect();
            match (text.is_empty(), calls.is_empty()) {
                (_, true) => text,
                (true, false) => format!("→ {}", calls.join(", ")),
                (false, false) => format!("{text} → {}", calls.join(", ")),
            }
        }
        EventBody::ToolCall(c) => format!("{}({})", c.function, one_line(&c.arguments.display(), 100)),
        EventBody::ToolResult(r) => {
            let f = r.call.and_then(|c| trace.call(c)).map(|c| format!("{}: ", c.function)).unwrap_or_default();
            format!("{f}{}", one_line(&r.content.text(), 160))
        }
        EventBody::ToolDefinitions(t) => {
            format!("tools: {}", t.iter().map(|t| t.name.as_str()).collect::<Vec<_>>().join(", "))
        }
        EventBody::Span(s) => format!("{:?} {}", s.phase, s.name.join("/")),
        EventBody::Marker(m) => m.label.clone(),
        EventBody::KeyValue(kv) => format!("{} = {}", kv.key, one_line(&kv.value.to_string(), 100)),
        EventBody::Unparsed(why) => why.clone(),
    }
}
