//! `event_msg` lines: the `EventMsg` enum of codex-rs/protocol
//! `protocol.rs`. `token_count` carries usage; `user_message`,
//! `agent_message`, `agent_reasoning` and `agent_reasoning_raw_content` are
//! messages unless they repeat a response item (then they stay reachable as
//! key-value events, so that each turn shows once); every other event is a
//! marker whose metadata holds its fields.

use serde_json::{Map, Value};

use super::reader::{Line, Reader};
use crate::diagnostic::Severity::Warning;
use crate::import::json_type;
use crate::json::Seg;
use super::fast_events::FastEvent;
use super::usage::Counted;
use crate::model::{Content, ContentPart, EventBody, KeyValue, LazyValue, Message};

/// A mirrorable event: the item kind it repeats, the role of its message,
/// the field holding its text, and whether the text is reasoning.
fn mirrored(kind: &str) -> Option<(&'static str, &'static str, &'static str, bool)> {
    match kind {
        "user_message" => Some(("user", "user", "message", false)),
        "agent_message" => Some(("assistant", "assistant", "message", false)),
        "agent_reasoning" => Some(("reasoning", "assistant", "text", true)),
        "agent_reasoning_raw_content" => Some(("reasoning", "assistant", "text", true)),
        _ => None,
    }
}

impl<'r, 'a> Reader<'r, 'a> {
    pub fn event_msg(&mut self, line: &Line, payload: Map<String, Value>) {
        let kind = payload.get("type").and_then(Value::as_str).unwrap_or_default().to_string();
        if kind.is_empty() {
            let why = match payload.get("type") {
                None => "event has no `type`".to_string(),
                Some(v) => format!("event `type` must be a string, found {}", json_type(v)),
            };
            self.d(line, Warning, "item-type-missing", why, &[Seg::key("payload")]);
            self.marker(line, "event".to_string(), "event_msg", payload);
            return;
        }
        if kind == "token_count" {
            self.token_count(line, payload);
            return;
        }
        if let Some((who, role, field, reasoning)) = mirrored(&kind) {
            self.mirror_or_message(line, &kind, payload, (who, role, field, reasoning));
            return;
        }
        let text = |k: &str| payload.get(k).and_then(Value::as_str).map(str::to_string);
        let detail = text("message").or_else(|| text("reason")).or_else(|| text("last_agent_message"));
        let command = payload.get("command").and_then(Value::as_array).map(|c| {
            c.iter().map(|a| a.as_str().map(str::to_string).unwrap_or_else(|| a.to_string())).collect::<Vec<_>>().join(" ")
        });
        let mut label = kind.replace('_', " ");
        if let Some(code) = payload.get("exit_code").and_then(Value::as_i64) {
            label.push_str(&format!(" (exit {code})"));
        }
        if let Some(d) = detail.or(command) {
            label.push_str(": ");
            label.push_str(&crate::view::truncate(&d, 200));
        }
        let failed = kind == "error" || payload.get("exit_code").and_then(Value::as_i64).is_some_and(|c| c != 0);
        let duration = duration_ms(payload.get("duration"));
        let i = self.marker(line, label, &kind, payload);
        if let Some(e) = self.out.event_mut(i) {
            e.failed = failed;
            if let Some(ms) = duration {
                e.facts_mut().duration_ms = Some(ms);
            }
        }
    }

    /// The usage ccusage counts for this event (see [`super::usage`]).
    fn token_count(&mut self, line: &Line, payload: Map<String, Value>) {
        let counted = self.session.tally.token_count(&payload, line.timestamped);
        for bad in &counted.bad {
            let mut at = vec![Seg::key("payload")];
            at.extend(bad.at.iter().cloned());
            let name = bad.at.iter().map(|s| match s {
                Seg::Key(k) => k.as_str(),
                Seg::Index(_) => "",
            });
            let why = format!(
                "`{}` must be a whole number of tokens, found {} (counted as 0)",
                name.collect::<Vec<_>>().join("."),
                json_type(&bad.found)
            );
            self.d(line, Warning, "token-count-invalid", why, &at);
        }
        self.place_token_count(line, Value::Object(payload).into(), counted);
    }

    /// An `event_msg` the fast path read ([`super::fast_events`]), placed as
    /// the exact path places it; a text no response item says is read by
    /// the exact path (a message event).
    pub fn fast_event(&mut self, line: &Line, event: FastEvent) {
        match event {
            FastEvent::TokenCount { payload, info } => {
                let counted = match info {
                    Some((last, total)) => self.session.tally.add(last, total, || None, Counted::default()),
                    None => Counted::default(),
                };
                let value = self.out.json(payload);
                self.place_token_count(line, value, counted);
            }
            FastEvent::Mirror { kind, payload, text } => {
                let Some((who, _, _, reasoning)) = mirrored(kind) else { return };
                if self.mirrors.take(who, &text.decoded()) {
                    let value = self.out.json(payload);
                    self.place_mirror(line, kind, value, reasoning);
                    return;
                }
                let parsed = crate::json::build::from_slice(self.out.source().get(payload.clone()).unwrap_or(&[]));
                match parsed {
                    Ok(Value::Object(p)) => self.event_msg(line, p),
                    // The split validated the line: not reached; kept whole all the same.
                    _ => drop(self.push(line, EventBody::KeyValue(KeyValue { key: kind.to_string(), value: self.out.json(payload) }), kind)),
                }
            }
        }
    }

    /// A `token_count`'s key-value event and the usage it counts.
    fn place_token_count(&mut self, line: &Line, value: LazyValue, counted: Counted) {
        let i = self.push(line, EventBody::KeyValue(KeyValue { key: "token_count".to_string(), value }), "token_count");
        if let Some(e) = self.out.event_mut(i) {
            if counted.usage.is_some() {
                let facts = e.facts_mut();
                facts.usage = counted.usage;
                facts.model = counted.model;
            }
        }
    }

    /// A message event, or a key-value event when a response item says the
    /// same (each occurrence of a text mirrors one item).
    fn mirror_or_message(&mut self, line: &Line, kind: &str, payload: Map<String, Value>, how: (&'static str, &str, &str, bool)) {
        let (who, role, field, reasoning) = how;
        let text = payload.get(field).and_then(Value::as_str).unwrap_or_default();
        if self.mirrors.take(who, text) {
            self.place_mirror(line, kind, Value::Object(payload).into(), reasoning);
            return;
        }
        let mut parts = vec![if reasoning { ContentPart::Reasoning(text.into()) } else { ContentPart::Text(text.into()) }];
        if let Some(images) = payload.get("images").and_then(Value::as_array) {
            parts.extend(images.iter().filter_map(Value::as_str).map(|u| ContentPart::Image { url: u.into() }));
        }
        self.push(line, EventBody::Message(Message { role: role.to_string(), content: Content::Parts(parts), tool_calls: Vec::new() }), kind);
    }
}

impl Reader<'_, '_> {
    /// A key-value event for an event that mirrors a response item.
    fn place_mirror(&mut self, line: &Line, kind: &str, value: LazyValue, reasoning: bool) {
        let i = self.push(line, EventBody::KeyValue(KeyValue { key: kind.to_string(), value }), kind);
        if let Some(e) = self.out.event_mut(i) {
            let note = if reasoning { "a reasoning response item" } else { "a message response item" };
            e.metadata.insert("mirrors".to_string(), Value::String(note.to_string()));
        }
    }
}

/// A Rust `Duration` as serde writes it (`{secs, nanos}`), or a number of
/// seconds, in milliseconds.
fn duration_ms(v: Option<&Value>) -> Option<f64> {
    match v? {
        Value::Object(d) => {
            let secs = d.get("secs").and_then(Value::as_f64)?;
            let nanos = d.get("nanos").and_then(Value::as_f64).unwrap_or(0.0);
            Some(secs * 1000.0 + nanos / 1_000_000.0)
        }
        Value::Number(n) => n.as_f64().map(|s| s * 1000.0),
        _ => None,
    }
}
