//! About how long a run's current-style text will be, so that the renderer
//! writes into one buffer allocated once.
//!
//! Two estimates: [`of_run`] from the mapped run, exact enough that the
//! buffer does not grow (growing it at the end copied a 100 MB text once
//! more), and [`of_trace_run`] from the trace before the mapping, so that the
//! buffer is taken first. Taken after the mapping, the buffer of a second
//! call no longer fitted in the memory the first call's buffer had freed
//! (the mapping's many small allocations had been placed in it), and the
//! wasm memory grew by another 100 MB on that call.

use crate::agentrun::py::Py;
use crate::agentrun::{DocContent, DocPart, DocRun};
use crate::lazy_value::Unparsed;
use crate::model::{Content, ContentPart, EventBody, Trace};
use crate::text::{RawText, Text};

/// The run's text size: its messages' texts, tool calls and the tags around each.
pub fn of_run(run: &DocRun) -> usize {
    let mut size = 64;
    for t in &run.transcripts {
        for m in &t.messages {
            size += 48 + m.role.len() * 2;
            size += match &m.content {
                DocContent::Text(s) => s.source_range().map_or_else(|| s.decoded().len(), |r| r.len()),
                DocContent::Parts(parts) => parts
                    .iter()
                    .map(|p| match p {
                        DocPart::Text(s) => s.len() + 1,
                        DocPart::Reasoning { reasoning, .. } => reasoning.len() + 26,
                        DocPart::Other => 0,
                    })
                    .sum(),
            };
            for c in &m.tool_calls {
                size += 32 + c.function.len() + c.view.as_ref().map_or(0, String::len);
                size += c.arguments.iter().map(|(k, v)| k.len() + 3 + py_size(v)).sum::<usize>();
            }
        }
    }
    size
}

/// About the length of `str(v)`: long arguments (a file written by a tool
/// call) are much of a run's text.
fn py_size(v: &Py) -> usize {
    match v {
        // repr() escapes some characters: a little room for that.
        Py::Str(s) => s.len() + s.len() / 8 + 2,
        Py::Int(i) => i.len(),
        Py::Float(_) => 24,
        Py::None | Py::Bool(_) => 5,
        Py::List(items) => 2 + items.iter().map(|i| py_size(i) + 2).sum::<usize>(),
        Py::Dict(items) => 2 + items.iter().map(|(k, v)| k.len() + 6 + py_size(v)).sum::<usize>(),
    }
}

/// [`of_run`] from the trace's events of run `index`, before the mapping:
/// the texts' and arguments' lengths in the source.
pub fn of_trace_run(trace: &Trace, index: usize) -> usize {
    let Some(run) = trace.runs.get(index) else { return 0 };
    let mut size = 64;
    for t in &run.transcripts {
        let events = trace.events.get(t.events.start as usize..t.events.end as usize).unwrap_or_default();
        for e in events {
            size += 80;
            match &e.body {
                EventBody::Message(m) => {
                    size += content_len(&m.content);
                    for c in &m.tool_calls {
                        size += 48 + c.function.len();
                        size += match (&c.arguments.value, &c.arguments.text) {
                            (Some(v), _) => match v.origin() {
                                Some(Unparsed::Json(bytes)) => bytes.len(),
                                Some(Unparsed::EncodedIn(text)) => text_len(text),
                                None => 64,
                            },
                            (None, Some(text)) => text_len(text),
                            (None, None) => 0,
                        };
                    }
                }
                EventBody::ToolResult(r) => size += content_len(&r.content),
                _ => {}
            }
        }
    }
    size
}

fn content_len(c: &Content) -> usize {
    match c {
        Content::None | Content::Json(_) => 0,
        Content::Text(t) => text_len(t),
        Content::Parts(parts) => parts
            .iter()
            .map(|p| match p {
                ContentPart::Text(t) | ContentPart::Reasoning(t) => text_len(t) + 26,
                ContentPart::Image { .. } | ContentPart::Other(_) => 0,
            })
            .sum(),
    }
}

fn text_len(t: &Text) -> usize {
    match t.raw() {
        RawText::Owned(s) => s.len(),
        RawText::Source { bytes, .. } | RawText::Twice { bytes } => bytes.len(),
    }
}
