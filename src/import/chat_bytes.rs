//! Chat messages of the common shape read straight from the bytes, for the
//! formats that read a model call's messages with [`crate::import::chat`]: an OpenAI chat
//! message (`role`, `content` a string or null, `tool_calls` with a
//! `function` object, a tool's `tool_call_id`, `name`).
//!
//! The messages a call adds to its history were each built as a
//! `serde_json::Value` and then taken apart by [`crate::import::chat::message`]: a tenth
//! of a Langfuse or LangSmith parse. Here the members are read in place and
//! the texts left in the source ([`crate::model::Text`]). Anything else
//! gives `None`, and the caller reads the message the exact way: a `type`
//! (LangChain, Responses items), content parts, `additional_kwargs`, a
//! `function_call`, a member of another kind than these, an escaped or
//! repeated key. So a message read here is the one [`crate::import::chat::message`] reads
//! (tests/fast_paths/langfuse.rs and langsmith.rs compare both ways).

use std::ops::Range;

use crate::import::chat::{Msg, Res};
use crate::import::Builder;
use crate::json::fields::{self, Fields};
use crate::json::read::{self, Kind, Member};
use crate::json::ContainerEnds;
use crate::model::{Arguments, Content, ContentPart, LazyValue, ToolCall};

const TYPE: usize = 0;
const ROLE: usize = 1;
const CONTENT: usize = 2;
const PARTS: usize = 3;
const KWARGS: usize = 4;
const TOOL_CALLS: usize = 5;
const FUNCTION_CALL: usize = 6;
const TOOL_CALL_ID: usize = 7;
const CALL_ID: usize = 8;
const NAME: usize = 9;
/// Every member [`crate::import::chat::message`] may read of a message with a `role`.
const MESSAGE_FIELDS: [&[u8]; 10] = [b"type", b"role", b"content", b"parts", b"additional_kwargs", b"tool_calls", b"function_call", b"tool_call_id", b"call_id", b"name"];

/// The message whose object is at `item` of a record `Builder::reads_fast`
/// allows, as [`crate::import::chat::message`] reads it, or `None` when unsure.
pub fn message(out: &Builder, ends: &ContainerEnds, item: &Range<usize>) -> Option<Msg> {
    let b = out.bytes();
    if b.get(item.start) != Some(&b'{') {
        return None;
    }
    let mut members = Vec::new();
    read::members(b, item.start, ends, &mut members)?;
    let f = Fields::find(b, &members, MESSAGE_FIELDS)?;
    let get = |k: usize| f.get(&members, k);
    let null_or_absent = |k: usize| get(k).is_none_or(|m| m.kind == Kind::Null);
    if get(TYPE).is_some() || get(PARTS).is_some() || !null_or_absent(KWARGS) || !null_or_absent(FUNCTION_CALL) {
        return None;
    }
    let role = get(ROLE).filter(|m| m.kind == Kind::String)?;
    let role = out.text(role.inner(), role.escaped).decoded().into_owned();
    let role = match role.as_str() {
        "model" | "ai" => "assistant".to_string(),
        "human" => "user".to_string(),
        _ => role,
    };
    // `content`: a string (empty: no part) or nothing.
    let content = match get(CONTENT) {
        None => None,
        Some(m) if m.kind == Kind::Null => None,
        Some(m) if m.kind == Kind::String => Some(m),
        Some(_) => return None,
    };
    let mut m = Msg { role, ..Msg::default() };
    if let Some(c) = content.filter(|c| !c.inner().is_empty()) {
        m.parts.push(ContentPart::Text(out.text(c.inner(), c.escaped)));
    }
    match get(TOOL_CALLS) {
        None => {}
        Some(list) if list.kind == Kind::Null => {}
        Some(list) if list.kind == Kind::Array => m.calls = calls(out, ends, list)?,
        Some(_) => return None,
    }
    if m.role == "tool" || m.role == "function" {
        if let Some(call_id) = get(TOOL_CALL_ID).or_else(|| get(CALL_ID)) {
            let call_id = string_id(out, call_id)?;
            let name = match get(NAME) {
                Some(n) if n.kind == Kind::String => Some(out.text(n.inner(), n.escaped).decoded().into_owned()),
                None => None,
                Some(n) if n.kind == Kind::Null => None,
                Some(_) => return None,
            };
            let content = match (std::mem::take(&mut m.parts).pop(), content) {
                (Some(ContentPart::Text(t)), _) => Content::Text(t),
                // An empty string: the text, not no content.
                (_, Some(c)) => Content::Text(out.text(c.inner(), c.escaped)),
                (_, None) => Content::None,
            };
            m.results.push(Res { call_id, name, content });
        }
    }
    Some(m)
}

/// A call or result id: a string (empty: none) or null; `None` (unsure)
/// for anything else.
fn string_id(out: &Builder, m: &Member) -> Option<Option<String>> {
    match m.kind {
        Kind::Null => Some(None),
        Kind::String if m.inner().is_empty() => Some(None),
        Kind::String => Some(Some(out.text(m.inner(), m.escaped).decoded().into_owned())),
        _ => None,
    }
}

/// `tool_calls`: each `{id, function: {name, arguments}}`, the arguments an
/// object or a string (parsed as [`crate::import::chat::arguments`] parses it; the text
/// stays in the source).
fn calls(out: &Builder, ends: &ContainerEnds, list: &Member) -> Option<Vec<ToolCall>> {
    let b = out.bytes();
    let mut items = Vec::new();
    read::items(b, list.value.start, ends, &mut items)?;
    let (mut call, mut function) = (Vec::new(), Vec::new());
    let mut calls = Vec::with_capacity(items.len());
    for item in &items {
        if b.get(item.start) != Some(&b'{') {
            return None;
        }
        read::members(b, item.start, ends, &mut call)?;
        let f = Fields::find(b, &call, [b"id", b"function", b"name", b"args", b"arguments"])?;
        let id = match f.get(&call, 0) {
            None => None,
            Some(m) => string_id(out, m)?,
        };
        let at = f.get(&call, 1).filter(|m| m.kind == Kind::Object)?;
        read::members(b, at.value.start, ends, &mut function)?;
        let g = Fields::find(b, &function, [b"name", b"arguments"])?;
        let name = g.get(&function, 0).filter(|m| m.kind == Kind::String)?;
        let name = out.text(name.inner(), name.escaped).decoded().into_owned();
        let args = g.get(&function, 1)?;
        let arguments = match args.kind {
            Kind::Object => Arguments { value: Some(out.json(args.value.clone())), text: None },
            Kind::String => {
                let text = out.text(args.inner(), args.escaped);
                let decoded = text.decoded();
                // An object serde_json reads as the scanner does is parsed
                // when first read (most arguments never are), as the openai
                // fast path leaves them; anything else is parsed now.
                let value = if fields::encodes_an_object(&decoded) { Some(LazyValue::encoded_in(text.clone())) } else { crate::json::build::from_str(&decoded).ok().map(Into::into) };
                drop(decoded);
                Arguments { value, text: Some(text) }
            }
            _ => return None,
        };
        calls.push(ToolCall { id, function: name, arguments, result: None });
    }
    Some(calls)
}

#[cfg(test)]
mod tests {
    /// Every member `chat::message` reads of a message with a role is one
    /// this reader looks at (so that it sees them repeated or escaped).
    #[test]
    fn the_fields_are_chats() {
        let src = include_str!("chat.rs");
        let body = src.split("fn body(").nth(1).unwrap_or_default().split("\n}\n").next().unwrap_or_default();
        for key in body.split("o.get(\"").skip(1).filter_map(|s| s.split('"').next()) {
            assert!(super::MESSAGE_FIELDS.contains(&key.as_bytes()), "{key}");
        }
    }
}
