//! Facet counts: how many of a set of events have each role, kind, record
//! kind and tool.

use serde::Serialize;

use crate::model::{EventBody, Trace};

/// Counts per facet among a set of events.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Facets {
    pub total: u32,
    pub role: std::collections::BTreeMap<String, u32>,
    pub kind: std::collections::BTreeMap<&'static str, u32>,
    pub source_kind: std::collections::BTreeMap<String, u32>,
    /// Events calling each tool or answering a call of it.
    pub tool: std::collections::BTreeMap<String, u32>,
}

/// Facet counts over `events` (indices into the trace).
pub fn facets(trace: &Trace, events: &[u32]) -> Facets {
    let mut f = Facets::default();
    for &i in events {
        let Some(e) = trace.events.get(i as usize) else { continue };
        f.total += 1;
        if let Some(r) = e.role() {
            *f.role.entry(r.to_string()).or_insert(0) += 1;
        }
        *f.kind.entry(e.body.kind()).or_insert(0) += 1;
        *f.source_kind.entry(e.source_kind.to_string()).or_insert(0) += 1;
        for t in event_tools(trace, i as usize) {
            *f.tool.entry(t.to_string()).or_insert(0) += 1;
        }
    }
    f
}

/// The tool names an event is about: the calls it makes, or the call it answers.
pub fn event_tools(trace: &Trace, index: usize) -> Vec<&str> {
    let Some(e) = trace.events.get(index) else { return Vec::new() };
    match &e.body {
        EventBody::Message(m) => {
            let mut v: Vec<&str> = m.tool_calls.iter().map(|c| c.function.as_str()).collect();
            crate::sort::short_by(&mut v, Ord::cmp);
            v.dedup();
            v
        }
        EventBody::ToolCall(c) => vec![c.function.as_str()],
        EventBody::ToolResult(r) => r.call.and_then(|c| trace.call(c)).map(|c| vec![c.function.as_str()]).unwrap_or_default(),
        _ => Vec::new(),
    }
}

