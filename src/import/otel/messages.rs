//! The messages of a model-call span, from whichever convention wrote them,
//! in one shape: the GenAI semantic conventions' message (`role`, `parts`
//! of `text` / `tool_call` / `tool_call_response` / `reasoning` / `blob` /
//! `uri` / …). Sources, first found wins (the others stay in the span's
//! attributes):
//!
//! 1. `gen_ai.system_instructions`, `gen_ai.input.messages`,
//!    `gen_ai.output.messages` (span attributes, or on the
//!    `gen_ai.client.inference.operation.details` event);
//! 2. OpenInference `llm.input_messages.N.message.*` / `llm.output_messages.N.message.*`;
//! 3. the deprecated `gen_ai.prompt.N.*` / `gen_ai.completion.N.*`, or
//!    `gen_ai.prompt` / `gen_ai.completion` holding JSON;
//! 4. message events (`gen_ai.system.message`, `gen_ai.user.message`,
//!    `gen_ai.assistant.message`, `gen_ai.tool.message`, `gen_ai.choice`).

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use std::borrow::Cow;

use super::attrs::json_in;
use super::reader::SpanTexts;
use super::unescape::text_decoded;
use crate::text::RawText;

/// One message in GenAI form.
#[derive(Debug, Clone, PartialEq)]
pub struct Msg {
    pub role: String,
    pub parts: Vec<Value>,
    /// Other members of the message (`finish_reason`, `name`, …).
    pub extra: Map<String, Value>,
}

impl Msg {
    fn new(role: &str, parts: Vec<Value>) -> Msg {
        Msg { role: role.to_string(), parts, extra: Map::new() }
    }

}

impl crate::import::chat::Fingerprint for Msg {
    /// What makes two messages the same one re-sent: role and parts.
    fn fingerprint(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = crate::import::chat::fingerprint_hasher();
        self.role.hash(&mut h);
        for p in &self.parts {
            hash_value(p, &mut h);
        }
        h.finish()
    }
}

/// Hashes a part so that parts with the same JSON text (key order included)
/// hash the same, and different ones almost never: the text was serialised
/// to a string per part to be hashed, a sixth of an otel parse.
fn hash_value(v: &Value, h: &mut impl std::hash::Hasher) {
    use std::hash::Hash;
    match v {
        Value::Null => 0u8.hash(h),
        Value::Bool(b) => (1u8, b).hash(h),
        // Arbitrary precision: a number's text as written, as serialised.
        Value::Number(n) => (2u8, n.as_str()).hash(h),
        Value::String(s) => (3u8, s).hash(h),
        Value::Array(items) => {
            (4u8, items.len()).hash(h);
            for x in items {
                hash_value(x, h);
            }
        }
        Value::Object(o) => {
            (5u8, o.len()).hash(h);
            for (k, x) in o {
                k.hash(h);
                hash_value(x, h);
            }
        }
    }
}

/// A span's conversation: what it was sent and what it answered, and which
/// convention they came from.
#[derive(Debug, Default)]
pub struct Exchange {
    pub input: Vec<Msg>,
    pub output: Vec<Msg>,
    pub source: &'static str,
}

/// A span event: its name and decoded attributes.
pub struct SpanEvent<'a> {
    pub name: &'a str,
    pub attrs: &'a Map<String, Value>,
}

/// The attribute holding a call's input messages.
pub const INPUT: &str = "gen_ai.input.messages";

/// The attributes holding a call's system instructions and output messages.
pub const SYSTEM: &str = "gen_ai.system_instructions";
pub const OUTPUT: &str = "gen_ai.output.messages";

/// The last system instructions read as JSON: their bytes (of a string, 0,
/// or a literal in the source, 1 + escaped) and what they read as.
#[derive(Default)]
pub struct LastSystem(Option<(u8, Vec<u8>, Value)>);

impl LastSystem {
    /// The JSON in the text whose bytes are `bytes` (of kind `kind`),
    /// `text` when they are not the last ones'.
    fn read<'t>(&mut self, kind: u8, bytes: &[u8], text: impl FnOnce() -> Cow<'t, str>) -> Value {
        if let Some((k, seen, value)) = &self.0 {
            if *k == kind && super::input_tail::same_bytes(seen, bytes) {
                return value.clone();
            }
        }
        let value = json_text(&text());
        self.0 = Some((kind, bytes.to_vec(), value.clone()));
        value
    }
}

/// [`json_in`] of a string: its JSON, else the string itself.
fn json_text(s: &str) -> Value {
    crate::json::build::from_str(s).unwrap_or_else(|_| Value::String(s.to_string()))
}

/// The GenAI message attributes of a span or event, each read once from its
/// JSON text: the schema check and the messages both need them, and on a
/// chat span they hold the whole conversation so far.
#[derive(Debug, Default)]
pub struct GenaiValues {
    pub system: Option<Value>,
    pub input: Option<Value>,
    pub output: Option<Value>,
    /// The text `output` was read from, when a fast reader left it in the
    /// source (`output_reuse`: the next span re-sends its items).
    pub output_text: Option<String>,
}

impl GenaiValues {
    pub fn of(a: &Map<String, Value>) -> GenaiValues {
        GenaiValues { input: a.get(INPUT).map(json_in), ..GenaiValues::without_input(a) }
    }

    /// All but `gen_ai.input.messages` (read item by item by the caller).
    pub fn without_input(a: &Map<String, Value>) -> GenaiValues {
        Self::without_input_after(a, &SpanTexts::default(), &mut LastSystem::default())
    }

    /// [`GenaiValues::without_input`] of a span whose system instructions
    /// and output messages may be left in the source (`texts`, their
    /// `attrs` entries `null`); the system instructions read once for the
    /// spans that repeat `last`'s text (an agent's chat spans each carry the
    /// same ones: parsing them again was 3% of an otel parse).
    pub fn without_input_after(a: &Map<String, Value>, texts: &SpanTexts, last: &mut LastSystem) -> GenaiValues {
        let system = match &texts.system {
            Some(t) => Some(match t.raw() {
                RawText::Source { bytes, escaped } => last.read(1 + u8::from(escaped), bytes, || text_decoded(t)),
                RawText::Owned(s) => last.read(0, s.as_bytes(), || Cow::Borrowed(s)),
                RawText::Twice { .. } => json_text(&t.decoded()),
            }),
            None => a.get(SYSTEM).map(|v| match v {
                Value::String(s) => last.read(0, s.as_bytes(), || Cow::Borrowed(s)),
                other => json_in(other),
            }),
        };
        let (output, output_text) = match &texts.output {
            Some(t) => {
                let text = text_decoded(t).into_owned();
                (Some(json_text(&text)), Some(text))
            }
            None => (a.get(OUTPUT).map(json_in), None),
        };
        GenaiValues { system, input: None, output, output_text }
    }

    /// The value of one of [`super::genai_schema::ATTRIBUTES`].
    pub fn get(&self, kind: super::genai_schema::Kind) -> Option<&Value> {
        use super::genai_schema::Kind;
        match kind {
            Kind::System => self.system.as_ref(),
            Kind::Input => self.input.as_ref(),
            Kind::Output => self.output.as_ref(),
        }
    }
}

/// The exchange of a span with attributes `a` (whose GenAI message
/// attributes are `values`) and events `events`.
pub fn exchange(a: &Map<String, Value>, values: GenaiValues, events: &[SpanEvent]) -> Exchange {
    if let Some(x) = genai(values) {
        return x;
    }
    if let Some(details) = events.iter().find(|e| e.name == "gen_ai.client.inference.operation.details") {
        if let Some(x) = genai(GenaiValues::of(details.attrs)) {
            return Exchange { source: "gen_ai.client.inference.operation.details event", ..x };
        }
    }
    let oi = (indexed(a, "llm.input_messages.", openinference), indexed(a, "llm.output_messages.", openinference));
    if !oi.0.is_empty() || !oi.1.is_empty() {
        return Exchange { input: oi.0, output: oi.1, source: "openinference" };
    }
    let old = (indexed(a, "gen_ai.prompt.", deprecated), indexed(a, "gen_ai.completion.", deprecated));
    if !old.0.is_empty() || !old.1.is_empty() {
        return Exchange { input: old.0, output: old.1, source: "gen_ai.prompt.N / gen_ai.completion.N" };
    }
    if a.contains_key("gen_ai.prompt") || a.contains_key("gen_ai.completion") {
        let input = a.get("gen_ai.prompt").map(|v| loose_messages(v, "user")).unwrap_or_default();
        let output = a.get("gen_ai.completion").map(|v| loose_messages(v, "assistant")).unwrap_or_default();
        return Exchange { input, output, source: "gen_ai.prompt / gen_ai.completion" };
    }
    let mut x = Exchange { source: "message events", ..Exchange::default() };
    for e in events {
        match e.name {
            "gen_ai.system.message" => x.input.push(event_message(e.attrs, "system")),
            "gen_ai.user.message" => x.input.push(event_message(e.attrs, "user")),
            "gen_ai.assistant.message" => x.input.push(event_message(e.attrs, "assistant")),
            "gen_ai.tool.message" => x.input.push(event_message(e.attrs, "tool")),
            "gen_ai.choice" => {
                let inner = e.attrs.get("message").map(json_in);
                let mut m = match inner.as_ref().and_then(Value::as_object) {
                    Some(o) => event_message(o, "assistant"),
                    None => event_message(e.attrs, "assistant"),
                };
                if let Some(f) = e.attrs.get("finish_reason") {
                    m.extra.insert("finish_reason".to_string(), f.clone());
                }
                x.output.push(m);
            }
            _ => {}
        }
    }
    x
}

/// GenAI JSON messages, when the span has any of the three attributes.
fn genai(values: GenaiValues) -> Option<Exchange> {
    let GenaiValues { system, input, output, .. } = values;
    if system.is_none() && input.is_none() && output.is_none() {
        return None;
    }
    let mut x = Exchange { source: "gen_ai.input.messages / gen_ai.output.messages", ..Exchange::default() };
    x.input.extend(system.map(system_message));
    x.input.extend(input.map(|v| genai_list(v, "user")).unwrap_or_default());
    x.output = output.map(|v| genai_list(v, "assistant")).unwrap_or_default();
    Some(x)
}

/// The system message `gen_ai.system_instructions` (read from JSON) makes.
pub fn system_message(instructions: Value) -> Msg {
    let parts = match instructions {
        Value::Array(parts) => parts.into_iter().map(part).collect(),
        other => vec![part(other)],
    };
    Msg::new("system", parts)
}

/// A list of GenAI messages read from JSON (or a lone one, or text).
fn genai_list(v: Value, role: &str) -> Vec<Msg> {
    match v {
        Value::Array(items) => items.into_iter().map(|m| genai_message(m, role)).collect(),
        other => vec![genai_message(other, role)],
    }
}

pub fn genai_message(v: Value, default_role: &str) -> Msg {
    let o = match v {
        Value::Object(o) if o.contains_key("parts") => o,
        // An OpenAI-shaped message ({role, content, tool_calls}) where the
        // GenAI shape was expected: read it as one.
        Value::Object(o) => return event_message(&o, default_role),
        other => return Msg::new(default_role, vec![part(other)]),
    };
    let (mut role, mut parts, mut extra) = (None, Vec::new(), Map::new());
    for (k, v) in o {
        match k.as_str() {
            "role" => role = Some(v),
            "parts" => {
                parts = match v {
                    Value::Array(ps) => ps.into_iter().map(part).collect(),
                    other => vec![part(other)],
                }
            }
            _ => {
                extra.insert(k, v);
            }
        }
    }
    let role = role.as_ref().and_then(Value::as_str).unwrap_or(default_role);
    Msg { role: role.to_string(), parts, extra }
}

/// A part: objects as they are, a bare string a text part.
fn part(v: Value) -> Value {
    match v {
        Value::String(s) => json!({"type": "text", "content": s}),
        other => other,
    }
}

/// `gen_ai.prompt` / `gen_ai.completion` holding a JSON list of messages, a
/// completion object (`{"text": …}`), or plain text.
fn loose_messages(v: &Value, role: &str) -> Vec<Msg> {
    match json_in(v) {
        Value::Array(items) => items.into_iter().map(|m| genai_message(m, role)).collect(),
        Value::Object(o) if o.contains_key("role") => vec![genai_message(Value::Object(o), role)],
        Value::Object(o) => {
            let text = o.get("text").or_else(|| o.get("content")).and_then(Value::as_str).map(str::to_string);
            let mut m = match text {
                Some(t) => Msg::new(role, vec![json!({"type": "text", "content": t})]),
                None => Msg::new(role, vec![Value::Object(o.clone())]),
            };
            m.extra = o.into_iter().filter(|(k, _)| k != "text" && k != "content").collect();
            vec![m]
        }
        other => vec![Msg::new(role, vec![part(other)])],
    }
}

/// An OpenAI-shaped message (`role`, `content`, `tool_calls`, `id` /
/// `tool_call_id`), as message events and older SDKs write them.
fn event_message(o: &Map<String, Value>, default_role: &str) -> Msg {
    let role = o.get("role").and_then(Value::as_str).unwrap_or(default_role);
    let mut parts = Vec::new();
    let content = o.get("content").map(json_in);
    let call_id = o.get("tool_call_id").or_else(|| o.get("id")).and_then(Value::as_str);
    match (role, call_id, content) {
        ("tool", Some(id), c) => parts.push(json!({"type": "tool_call_response", "id": id, "response": c.unwrap_or(Value::Null)})),
        (_, _, Some(Value::Array(items))) => parts.extend(items.into_iter().map(part)),
        (_, _, Some(Value::Null) | None) => {}
        (_, _, Some(other)) => parts.push(part(other)),
    }
    for call in o.get("tool_calls").map(json_in).as_ref().and_then(Value::as_array).into_iter().flatten() {
        let function = call.get("function");
        let name = function.and_then(|f| f.get("name")).or_else(|| call.get("name")).cloned().unwrap_or(Value::Null);
        let arguments = function.and_then(|f| f.get("arguments")).or_else(|| call.get("arguments")).map(json_in).unwrap_or(Value::Null);
        parts.push(json!({"type": "tool_call", "id": call.get("id").cloned().unwrap_or(Value::Null), "name": name, "arguments": arguments}));
    }
    let known = ["role", "content", "tool_calls", "tool_call_id", "id"];
    let extra = o.iter().filter(|(k, _)| !known.contains(&k.as_str())).map(|(k, v)| (k.clone(), v.clone())).collect();
    Msg { role: role.to_string(), parts, extra }
}

/// The values of attributes `prefix N . rest`, grouped by N in order.
type Indexed<'a> = BTreeMap<usize, Vec<(&'a str, &'a Value)>>;

fn group<'a>(items: impl Iterator<Item = (&'a str, &'a Value)>, prefix: &str) -> Indexed<'a> {
    let mut out: Indexed = BTreeMap::new();
    for (k, v) in items {
        let Some(rest) = k.strip_prefix(prefix) else { continue };
        let (n, field) = rest.split_once('.').unwrap_or((rest, ""));
        if let Ok(n) = n.parse::<usize>() {
            out.entry(n).or_default().push((field, v));
        }
    }
    out
}

fn indexed(a: &Map<String, Value>, prefix: &str, read: fn(&[(&str, &Value)]) -> Msg) -> Vec<Msg> {
    group(a.iter().map(|(k, v)| (k.as_str(), v)), prefix).values().map(|fields| read(fields)).collect()
}

fn field<'a>(fields: &[(&str, &'a Value)], name: &str) -> Option<&'a Value> {
    fields.iter().find(|(k, _)| *k == name).map(|(_, v)| *v)
}

/// One OpenInference message: the fields after `llm.input_messages.N.`.
fn openinference(fields: &[(&str, &Value)]) -> Msg {
    let role = field(fields, "message.role").and_then(Value::as_str).unwrap_or("user");
    let mut parts = Vec::new();
    let call_id = field(fields, "message.tool_call_id").and_then(Value::as_str);
    if let Some(c) = field(fields, "message.content") {
        match call_id {
            Some(id) => parts.push(json!({"type": "tool_call_response", "id": id, "response": c})),
            None => parts.push(part(c.clone())),
        }
    }
    for content in group(fields.iter().copied(), "message.contents.").values() {
        let kind = field(content, "message_content.type").and_then(Value::as_str).unwrap_or("text");
        match (kind, field(content, "message_content.text"), field(content, "message_content.image.image.url")) {
            (_, Some(t), _) => parts.push(json!({"type": "text", "content": t})),
            (_, None, Some(url)) => parts.push(json!({"type": "uri", "modality": "image", "uri": url})),
            _ => parts.push(Value::Object(content.iter().map(|(k, v)| (k.to_string(), (*v).clone())).collect())),
        }
    }
    for call in group(fields.iter().copied(), "message.tool_calls.").values() {
        parts.push(json!({
            "type": "tool_call",
            "id": field(call, "tool_call.id").cloned().unwrap_or(Value::Null),
            "name": field(call, "tool_call.function.name").cloned().unwrap_or(Value::Null),
            "arguments": field(call, "tool_call.function.arguments").map(json_in).unwrap_or(Value::Null),
        }));
    }
    let mut m = Msg::new(role, parts);
    if let Some(name) = field(fields, "message.name") {
        m.extra.insert("name".to_string(), name.clone());
    }
    m
}

/// One deprecated indexed message: the fields after `gen_ai.prompt.N.`.
fn deprecated(fields: &[(&str, &Value)]) -> Msg {
    let mut o = Map::new();
    for (k, v) in fields {
        if !k.starts_with("tool_calls.") {
            o.insert(k.to_string(), (*v).clone());
        }
    }
    let calls: Vec<Value> = group(fields.iter().copied(), "tool_calls.")
        .values()
        .map(|c| Value::Object(c.iter().map(|(k, v)| (k.to_string(), (*v).clone())).collect()))
        .collect();
    if !calls.is_empty() {
        o.insert("tool_calls".to_string(), Value::Array(calls));
    }
    event_message(&o, "user")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attrs(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn conventions_agree() {
        let genai = attrs(json!({"gen_ai.input.messages": "[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"hi\"}]}]",
            "gen_ai.output.messages": [{"role": "assistant", "parts": [{"type": "tool_call", "id": "c1", "name": "f", "arguments": {"x": 1}}], "finish_reason": "tool_call"}]}));
        let x = exchange(&genai, GenaiValues::of(&genai), &[]);
        assert_eq!((x.input.len(), x.output.len()), (1, 1));
        assert_eq!(x.output[0].parts[0]["id"], "c1");
        assert_eq!(x.output[0].extra["finish_reason"], "tool_call");

        let oi = attrs(json!({"llm.input_messages.1.message.role": "tool", "llm.input_messages.1.message.content": "r",
            "llm.input_messages.1.message.tool_call_id": "c1", "llm.input_messages.0.message.role": "user",
            "llm.input_messages.0.message.contents.0.message_content.type": "text", "llm.input_messages.0.message.contents.0.message_content.text": "hi",
            "llm.output_messages.0.message.role": "assistant", "llm.output_messages.0.message.tool_calls.0.tool_call.id": "c2",
            "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "g", "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments": "{\"a\":2}"}));
        let x = exchange(&oi, GenaiValues::of(&oi), &[]);
        assert_eq!(x.input[0], Msg::new("user", vec![json!({"type": "text", "content": "hi"})]));
        assert_eq!(x.input[1].parts[0], json!({"type": "tool_call_response", "id": "c1", "response": "r"}));
        assert_eq!(x.output[0].parts[0], json!({"type": "tool_call", "id": "c2", "name": "g", "arguments": {"a": 2}}));

        let old = attrs(json!({"gen_ai.prompt.0.role": "user", "gen_ai.prompt.0.content": "hi", "gen_ai.completion.0.role": "assistant",
            "gen_ai.completion.0.tool_calls.0.id": "c3", "gen_ai.completion.0.tool_calls.0.name": "h", "gen_ai.completion.0.tool_calls.0.arguments": "{}",
            "gen_ai.completion.0.finish_reason": "tool_calls"}));
        let x = exchange(&old, GenaiValues::of(&old), &[]);
        assert_eq!(x.input[0], Msg::new("user", vec![json!({"type": "text", "content": "hi"})]));
        assert_eq!(x.output[0].parts[0]["name"], "h");
        assert_eq!(x.output[0].extra["finish_reason"], "tool_calls");

        let ev = attrs(json!({"content": "hello"}));
        let choice = attrs(json!({"message": {"content": "yes"}, "finish_reason": "stop"}));
        let x = exchange(&Map::new(), GenaiValues::default(), &[SpanEvent { name: "gen_ai.user.message", attrs: &ev }, SpanEvent { name: "gen_ai.choice", attrs: &choice }]);
        assert_eq!(x.input[0].parts[0]["content"], "hello");
        assert_eq!((x.output[0].role.as_str(), &x.output[0].parts[0]["content"]), ("assistant", &json!("yes")));
    }
}
