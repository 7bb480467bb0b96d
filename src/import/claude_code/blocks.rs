//! Anthropic API content blocks onto the shared model's content parts and
//! tool calls.

use serde_json::Value;

use super::look::Id;
use crate::json::Seg;
use crate::model::{Arguments, Content, ContentPart, LazyValue, Text, ToolCall};

/// A `tool_use` block read into a call, with where it sits in its record:
/// `message.content[index]` (the path is written only for a diagnostic),
/// and its id's text as bytes, the key the reader finds the call by
/// (borrowed from the source when read fast: no copy of the id).
pub struct CallBlock<'b> {
    pub call: ToolCall,
    pub index: usize,
    pub key: Option<Id<'b>>,
}

impl CallBlock<'_> {
    /// Where a block at `index` of `message.content` is, for a diagnostic.
    pub fn segs(index: usize) -> [Seg; 3] {
        [Seg::Key("message".into()), Seg::Key("content".into()), Seg::Index(index)]
    }
}

/// An assistant or user `message.content`: a string, or a list of blocks.
/// Tool calls are returned apart; `tool_result` blocks are left to the caller
/// (kept as `Other` parts here).
pub fn content<'b>(raw: Option<&Value>) -> (Content, Vec<CallBlock<'b>>) {
    match raw {
        None | Some(Value::Null) => (Content::None, Vec::new()),
        Some(Value::String(s)) => (Content::Text(Text::from(s.as_str())), Vec::new()),
        Some(Value::Array(blocks)) => {
            let mut parts = Vec::new();
            let mut calls = Vec::new();
            for (i, b) in blocks.iter().enumerate() {
                match b.get("type").and_then(Value::as_str) {
                    Some("tool_use") => {
                        let call = tool_call(b);
                        let key = call.id.as_ref().map(|id| Id::Owned(id.as_bytes().to_vec()));
                        calls.push(CallBlock { call, index: i, key });
                    }
                    _ => parts.push(part(b)),
                }
            }
            (Content::Parts(parts), calls)
        }
        Some(other) => (Content::Json(other.clone().into()), Vec::new()),
    }
}

/// One block that is not a call.
pub fn part(b: &Value) -> ContentPart {
    let str_of = |k: &str| b.get(k).and_then(Value::as_str);
    match b.get("type").and_then(Value::as_str) {
        Some("text") if str_of("text").is_some() => ContentPart::Text(Text::from(str_of("text").unwrap_or_default())),
        Some("thinking") if str_of("thinking").is_some() => ContentPart::Reasoning(Text::from(str_of("thinking").unwrap_or_default())),
        Some("image") => match image_url(b) {
            Some(url) => ContentPart::Image { url: Text::from(url) },
            None => ContentPart::Other(b.clone()),
        },
        // redacted_thinking (its `data` is opaque), tool_result, documents, unknown blocks: whole.
        _ => ContentPart::Other(b.clone()),
    }
}

/// An image block's source as a URL (`data:` for base64 sources).
fn image_url(b: &Value) -> Option<String> {
    let source = b.get("source")?;
    match source.get("type").and_then(Value::as_str)? {
        "base64" => {
            let media = source.get("media_type").and_then(Value::as_str).unwrap_or("application/octet-stream");
            Some(format!("data:{media};base64,{}", source.get("data")?.as_str()?))
        }
        "url" => source.get("url").and_then(Value::as_str).map(str::to_string),
        _ => None,
    }
}

fn tool_call(b: &Value) -> ToolCall {
    let input = b.get("input").cloned().unwrap_or(Value::Null);
    ToolCall {
        id: b.get("id").and_then(Value::as_str).map(str::to_string),
        function: b.get("name").and_then(Value::as_str).unwrap_or_default().to_string(),
        arguments: Arguments { value: Some(LazyValue::from(input)), text: None },
        result: None,
    }
}

/// A `tool_result` block's `content`: a string, or a list of text and image blocks.
pub fn result_content(b: &Value) -> Content {
    match b.get("content") {
        None | Some(Value::Null) => Content::None,
        Some(Value::String(s)) => Content::Text(Text::from(s.as_str())),
        Some(Value::Array(items)) => Content::Parts(items.iter().map(part).collect()),
        Some(other) => Content::Json(other.clone().into()),
    }
}
