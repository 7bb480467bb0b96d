//! The OpenHands views as the generic [`FormatView`]s the page shows: the
//! condensed view and the LLM message stream of [`super::views`], each item
//! linked to its trace events.

use serde_json::Value;

use super::views::{condensed_view, llm_messages};
use crate::import::{FormatView, ViewInfo, ViewItem};
use crate::limits::group_digits;
use crate::model::Trace;

pub const CONDENSED: ViewInfo = ViewInfo {
    name: "condensed",
    label: "Condensed",
    description: "The history the agent's condenser left for the LLM (OpenHands' View.from_events).",
};

pub const LLM_MESSAGES: ViewInfo = ViewInfo {
    name: "llm-messages",
    label: "LLM messages",
    description: "The messages OpenHands' events_to_messages sends the model, built from the condensed view.",
};

pub static VIEWS: [ViewInfo; 2] = [CONDENSED, LLM_MESSAGES];

/// View `name` of run `run`.
pub fn view(trace: &Trace, name: &str, run: u32) -> Option<FormatView> {
    match name {
        n if n == CONDENSED.name => Some(condensed(trace, run)),
        n if n == LLM_MESSAGES.name => Some(messages(trace, run)),
        _ => None,
    }
}

fn condensed(trace: &Trace, run: u32) -> FormatView {
    let v = condensed_view(trace, run);
    let data = serde_json::to_value(&v).unwrap_or(Value::Null);
    let mut out = FormatView::new(&CONDENSED, "Condensed view".to_string(), data);
    out.notes.push(format!(
        "{} events remain, {} forgotten by condensations. This is the history the agent's condenser left for the LLM (OpenHands' View.from_events).",
        group_digits(v.entries.len()),
        group_digits(v.dropped.len())
    ));
    if v.unhandled_condensation_request {
        out.notices.push("The run ends with a condensation request that no condensation answered.".to_string());
    }
    if v.entries.is_empty() {
        out.notes.push("No OpenHands SDK events in this run.".to_string());
    }
    out.items = v
        .entries
        .into_iter()
        .map(|e| {
            let mut item = ViewItem::default();
            item.attrs.insert("sdk-id".to_string(), e.id.clone());
            item.attrs.insert("sdk-kind".to_string(), e.kind.clone());
            item.events = e.event.into_iter().collect();
            match e.summary {
                Some(summary) => {
                    item.badge = Some("summary".to_string());
                    item.text = summary;
                }
                None if e.event.is_some() => item.event = e.event,
                None => item.text = format!("{} {}", e.kind, e.id),
            }
            item
        })
        .collect();
    out
}

fn messages(trace: &Trace, run: u32) -> FormatView {
    let v = llm_messages(trace, run);
    let data = serde_json::to_value(&v).unwrap_or(Value::Null);
    let mut out = FormatView::new(&LLM_MESSAGES, "LLM messages".to_string(), data);
    out.notes.push(format!(
        "{} messages, as OpenHands' events_to_messages sends the condensed history to the model (batched tool calls become one assistant message).",
        group_digits(v.messages.len())
    ));
    if v.messages.is_empty() {
        out.notes.push("No messages in this run.".to_string());
    }
    out.error = v.error.map(|e| format!("The SDK's conversion stops here: {e}"));
    out.items = v
        .messages
        .into_iter()
        .map(|m| {
            let mut item = ViewItem { event: m.events.first().copied(), badge: Some(m.role.clone()), ..ViewItem::default() };
            let mut text = Vec::new();
            if !m.summaries.is_empty() {
                text.push(format!("[condensation summary] {}", m.summaries.join(" ")));
            }
            if m.events.is_empty() && m.summaries.is_empty() {
                text.push(format!("{} content parts", m.content_parts));
            }
            // A batch: several calls sent as one assistant message.
            if let Some(n) = m.tool_call_ids.as_ref().map(Vec::len).filter(|n| *n > 1) {
                text.push(format!("{n} tool calls"));
            }
            item.text = text.join(" ");
            item.attrs.insert("role".to_string(), m.role.clone());
            let ids = match (&m.tool_call_ids, &m.tool_call_id) {
                (Some(ids), _) => ids.join(" "),
                (None, Some(id)) => id.clone(),
                (None, None) => String::new(),
            };
            item.attrs.insert("tool-call-ids".to_string(), ids);
            item.events = m.events;
            item
        })
        .collect();
    out
}
