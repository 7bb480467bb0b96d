//! Tool answers re-sent in a later chat span's input, built from the tool
//! span's result instead of parsed again. After a tool span, the next chat
//! call re-sends its answer as an input item
//! `{"role":"tool","parts":[{"type":"tool_call_response","id":…,"response":…}]}`
//! whose `response` literal is, byte for byte, the literal of the span's
//! `gen_ai.tool.call.result` in the source: parsing those items into
//! `Value`s was 8% of an otel parse on the kit's file (a tool's whole
//! output each), for a text the reader had already found.
//!
//! Only an item written exactly so (these members, in this order, no
//! space, an id without escapes) whose `response` bytes are the result's
//! is built here; anything else is parsed as before. The result's bytes
//! are a string literal's contents as the source's scanner found them (no
//! unescaped quote, no trailing lone backslash), so the same bytes between
//! the item's quotes are one literal, the item's last member: the item
//! holds nothing else. The caller reads items only from text its scanner
//! found hazard-free (no lone surrogate), which serde_json decodes as
//! [`Text::decoded`] does.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::input_tail::same_bytes;
use crate::text::{RawText, Text};

/// The bytes before a re-sent answer's call id, and between it and its
/// response text, and after that.
const BEFORE_ID: &[u8] = br#"{"role":"tool","parts":[{"type":"tool_call_response","id":""#;
const BEFORE_RESPONSE: &[u8] = br#"","response":""#;
const AFTER_RESPONSE: &[u8] = br#""}]}"#;

/// The results of a run's tool spans left in the source, by call id.
#[derive(Default)]
pub struct ToolAnswers<'s> {
    by_call: HashMap<String, &'s Text>,
}

impl<'s> ToolAnswers<'s> {
    /// Notes the result of the tool span whose call id is `call_id` (the
    /// last span of an id wins: any is right, the bytes are compared).
    pub fn add(&mut self, call_id: &str, result: &'s Text) {
        if let RawText::Source { .. } = result.raw() {
            self.by_call.insert(call_id.to_string(), result);
        }
    }

    /// The value the input item `item` parses to, when it is a re-sent
    /// answer written as the module says, whose response is a noted
    /// result's bytes; `None`: parse it.
    pub fn value_of(&self, item: &[u8]) -> Option<Value> {
        if self.by_call.is_empty() {
            return None;
        }
        let rest = item.strip_prefix(BEFORE_ID)?;
        let id_len = memchr::memchr(b'"', rest)?;
        let id = rest.get(..id_len)?;
        if memchr::memchr(b'\\', id).is_some() {
            return None; // its text is not its bytes
        }
        let response = rest.get(id_len..)?.strip_prefix(BEFORE_RESPONSE)?.strip_suffix(AFTER_RESPONSE)?;
        let id = std::str::from_utf8(id).ok()?;
        let result = self.by_call.get(id)?;
        let RawText::Source { bytes, .. } = result.raw() else { return None };
        if !same_bytes(bytes, response) {
            return None;
        }
        let mut part = Map::with_capacity(3);
        part.insert("type".to_string(), Value::String("tool_call_response".to_string()));
        part.insert("id".to_string(), Value::String(id.to_string()));
        part.insert("response".to_string(), Value::String(super::unescape::text_decoded(result).into_owned()));
        let mut message = Map::with_capacity(2);
        message.insert("role".to_string(), Value::String("tool".to_string()));
        message.insert("parts".to_string(), Value::Array(vec![Value::Object(part)]));
        Some(Value::Object(message))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::history;
    use std::sync::Arc;

    /// Each item a noted result's bytes make is the value parsing it gives;
    /// items written otherwise are left to the parse.
    #[test]
    fn built_answers_are_what_parsing_gives() {
        let results = [r#"a\nb \"q\" \\ é😀 \u00e9\ud83d\ude00 \/"#, "plain", "", r#"x\\"#, r#"}]}"#];
        let source: crate::text::Source = Arc::new(results.iter().map(|r| format!("\"{r}\"")).collect::<Vec<_>>().join(",").into_bytes());
        let mut texts = Vec::new();
        let mut at = 0;
        for r in results {
            texts.push(Text::in_source(&source, at + 1..at + 1 + r.len(), r.contains('\\')));
            at += r.len() + 3;
        }
        let mut answers = ToolAnswers::default();
        for (k, t) in texts.iter().enumerate() {
            answers.add(&format!("c{k}"), t);
        }
        for (k, r) in results.iter().enumerate() {
            let item = format!(r#"{{"role":"tool","parts":[{{"type":"tool_call_response","id":"c{k}","response":"{r}"}}]}}"#);
            assert_eq!(answers.value_of(item.as_bytes()), Some(history::value_of(item.as_bytes())), "{item}");
            let others = [
                item.replace(r#""id":"c"#, r#""id":"d"#),
                item.replace(r#""id":"c"#, r#""id":"\u0063"#),
                item.replace(r#"}]}"#, r#"},{}]}"#),
                item.replace(r#""}]}"#, r#"","x":1}]}"#),
                item.replace(r#""}]}"#, r#"x"}]}"#),
                item.replace(r#""role":"tool","parts""#, r#""parts""#),
                item.replace(r#""role":"tool","#, r#""role": "tool","#),
                item.replace(r#""type":"tool_call_response","#, ""),
            ];
            for other in others {
                assert_eq!(answers.value_of(other.as_bytes()), None, "{other}");
            }
        }
        assert_eq!(ToolAnswers::default().value_of(br#"{"role":"tool","parts":[{"type":"tool_call_response","id":"c1","response":"plain"}]}"#), None);
    }
}
