//! The failure rule: what the trace says about a call, never what the
//! validator says about a record.
//!
//! A tool call failed when its result has an error status (an `error` field,
//! `is_error`, an error observation, a non-zero exit code: each format maps
//! its own signs onto [`ToolStatus::Error`]) or the format marks the record
//! failed ([`Event::failed`]: a call with an error status of its own, an
//! AgentLens `tool_error`). A diagnostic on the record is not a failure: a
//! file written by another version of an SDK has one on every record, and
//! every call in it may still have succeeded.

use crate::model::{Event, EventBody, ToolCall, ToolStatus, Trace};

/// The record says it failed: a tool result with an error status, or any
/// record the format marks failed (an agent error, a failed call).
pub fn event_failed(e: &Event) -> bool {
    e.failed || matches!(&e.body, EventBody::ToolResult(r) if r.status == ToolStatus::Error)
}

/// Whether the call `c`, made by event `e`, failed: a standalone call
/// record marked failed, or a linked result that failed.
pub fn call_failed(trace: &Trace, e: &Event, c: &ToolCall) -> bool {
    let own = matches!(e.body, EventBody::ToolCall(_)) && e.failed;
    own || c.result.and_then(|r| trace.events.get(r as usize)).is_some_and(event_failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_status_fails_a_call_and_a_diagnostic_does_not() {
        // `cat` has an error result; `ls` a malformed (diagnosed) but successful one.
        let text = r#"[
{"role": "assistant", "content": "", "tool_calls": [{"id": "a", "type": "function", "function": {"name": "ls", "arguments": "{}"}}, {"id": "b", "type": "function", "function": {"name": "cat", "arguments": "{}"}}]},
{"role": "tool", "tool_call_id": "a", "content": 7},
{"role": "tool", "tool_call_id": "b", "content": "no such file", "error": "ENOENT"}
]"#;
        let t = crate::parse_trace(text.as_bytes().to_vec(), &crate::ParseOptions::default()).unwrap();
        assert!(t.diagnostics.iter().any(|d| d.event == Some(1) && d.severity == crate::diagnostic::Severity::Error));
        let EventBody::Message(m) = &t.events[0].body else { panic!() };
        assert!(!call_failed(&t, &t.events[0], &m.tool_calls[0]));
        assert!(call_failed(&t, &t.events[0], &m.tool_calls[1]));
        assert!(!event_failed(&t.events[1]) && event_failed(&t.events[2]));
    }
}
