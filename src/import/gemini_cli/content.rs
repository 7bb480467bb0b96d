//! Gemini API content (`PartListUnion` of `@google/genai`: a string, a part,
//! or a list of parts) as the shared model's content, thoughts as reasoning,
//! and a message's `tokens` (`TokensSummary`) as usage.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::json::Seg;
use crate::model::{Content, ContentPart, Usage};

/// One part: `text` (reasoning when `thought: true`), `inlineData` with an
/// image type as a data URL; any other part (`functionCall`,
/// `functionResponse`, `fileData`, …) kept whole.
pub fn part(p: &Value) -> ContentPart {
    let Some(o) = p.as_object() else {
        return match p {
            Value::String(s) => ContentPart::Text(s.as_str().into()),
            other => ContentPart::Other(other.clone()),
        };
    };
    if let Some(t) = o.get("text").and_then(Value::as_str) {
        return if o.get("thought") == Some(&Value::Bool(true)) { ContentPart::Reasoning(t.into()) } else { ContentPart::Text(t.into()) };
    }
    if let Some(d) = o.get("inlineData").and_then(Value::as_object) {
        let mime = d.get("mimeType").and_then(Value::as_str).unwrap_or_default();
        if let (true, Some(data)) = (mime.starts_with("image/"), d.get("data").and_then(Value::as_str)) {
            return ContentPart::Image { url: format!("data:{mime};base64,{data}").into() };
        }
    }
    ContentPart::Other(p.clone())
}

/// A message's `content`: a string stays text; a part or a list of parts
/// becomes parts.
pub fn content(v: Option<&Value>) -> Content {
    match v {
        None | Some(Value::Null) => Content::None,
        Some(Value::String(s)) => Content::Text(s.as_str().into()),
        Some(Value::Array(parts)) => Content::Parts(parts.iter().map(part).collect()),
        Some(p @ Value::Object(_)) => Content::Parts(vec![part(p)]),
        Some(other) => Content::Json(other.clone().into()),
    }
}

/// The thoughts of a `gemini` message (`{subject, description, timestamp}`)
/// as one reasoning part, each written as Gemini writes a thought
/// (`**subject**`, a blank line, the description), blank lines between.
pub fn thoughts(v: Option<&Value>) -> Vec<ContentPart> {
    let list = v.and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
    thoughts_of(list.iter().map(|t| (text_of(t, "subject"), text_of(t, "description"))))
}

fn text_of<'v>(t: &'v Value, k: &str) -> Cow<'v, str> {
    Cow::Borrowed(t.get(k).and_then(Value::as_str).unwrap_or_default())
}

/// The reasoning part of thoughts given as (subject, description) pairs
/// (both paths read them; this writes them).
pub fn thoughts_of<'t>(pairs: impl IntoIterator<Item = (Cow<'t, str>, Cow<'t, str>)>) -> Vec<ContentPart> {
    let mut text = String::new();
    for (subject, description) in pairs {
        let one = match (subject.is_empty(), description.is_empty()) {
            (true, _) => description.into_owned(),
            (false, true) => format!("**{subject}**"),
            (false, false) => format!("**{subject}**\n\n{description}"),
        };
        if one.is_empty() {
            continue;
        }
        if !text.is_empty() {
            text.push_str("\n\n");
        }
        text.push_str(&one);
    }
    if text.is_empty() {
        Vec::new()
    } else {
        vec![ContentPart::Reasoning(text.into())]
    }
}

/// Thoughts first, then the content.
pub fn with_thoughts(reasoning: Vec<ContentPart>, c: Content) -> Content {
    if reasoning.is_empty() {
        return c;
    }
    let mut parts = reasoning;
    match c {
        Content::None => {}
        Content::Text(t) => {
            if !t.is_empty() {
                parts.push(ContentPart::Text(t));
            }
        }
        Content::Parts(p) => parts.extend(p),
        Content::Json(v) => parts.push(ContentPart::Other(v.into_value())),
    }
    Content::Parts(parts)
}

/// A tool call's `result` (the `functionResponse` parts sent back to the
/// model): each response's `output` (or `error`) as text, other parts as
/// parts; without a result, its `resultDisplay` when that is text.
pub fn tool_result(call: &Map<String, Value>) -> Content {
    let from_response = |p: &Value| -> Option<ContentPart> {
        let r = p.get("functionResponse")?.get("response")?;
        let text = r.get("output").or_else(|| r.get("error"))?.as_str()?;
        Some(ContentPart::Text(text.into()))
    };
    match call.get("result") {
        Some(Value::Array(parts)) if !parts.is_empty() => Content::Parts(parts.iter().map(|p| from_response(p).unwrap_or_else(|| part(p))).collect()),
        Some(p @ Value::Object(_)) => Content::Parts(vec![from_response(p).unwrap_or_else(|| part(p))]),
        Some(Value::String(s)) => Content::Text(s.as_str().into()),
        _ => match call.get("resultDisplay") {
            Some(Value::String(s)) => Content::Text(s.as_str().into()),
            Some(v @ Value::Object(_)) => Content::Json(v.clone().into()),
            _ => Content::None,
        },
    }
}

/// A count of `tokens` that is not a whole non-negative number, and where.
pub struct BadCount {
    pub at: Vec<Seg>,
    pub found: Value,
}

/// `tokens` (`{input, output, cached, thoughts?, tool?, total}`, the
/// `usageMetadata` counts `recordMessageTokens` copies) as usage: `input` is
/// the prompt (`promptTokenCount`, cached tokens included), `cached` the
/// cached part, `output` the candidates, `thoughts` the reasoning, `total`
/// the total; `tool` (tool-use prompt tokens) has no field of its own and
/// stays in the event's metadata. `None` when `tokens` is not an object
/// (the recorder writes `null` before the counts arrive).
pub fn usage(tokens: Option<&Value>, bad: &mut Vec<BadCount>) -> Option<Usage> {
    let o = tokens?.as_object()?;
    let mut n = |k: &str| -> u64 {
        match o.get(k) {
            None | Some(Value::Null) => 0,
            Some(v) => v.as_u64().unwrap_or_else(|| {
                bad.push(BadCount { at: vec![Seg::key("tokens"), Seg::key(k)], found: v.clone() });
                0
            }),
        }
    };
    Some(Usage {
        input_tokens: n("input"),
        output_tokens: n("output"),
        cache_read_input_tokens: n("cached"),
        cache_creation_input_tokens: 0,
        reasoning_output_tokens: n("thoughts"),
        total_tokens: n("total"),
    })
}

/// The text a marker shows of an `info`/`warning`/`error` message.
pub fn marker_text(c: &Content) -> String {
    let mut text = c.text();
    if let Content::Parts(parts) = c {
        for p in parts {
            let what = match p {
                ContentPart::Image { .. } => "(image)".to_string(),
                ContentPart::Other(v) => v.as_object().and_then(|o| o.keys().next()).map(|k| format!("({k})")).unwrap_or_default(),
                _ => continue,
            };
            if !what.is_empty() {
                if !text.is_empty() {
                    text.push(' ');
                }
                text.push_str(&what);
            }
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parts_thoughts_and_images() {
        let c = content(Some(&json!([{"text": "hi"}, {"text": "hmm", "thought": true}, {"inlineData": {"mimeType": "image/png", "data": "AAA"}}, {"functionCall": {"name": "f"}}])));
        let Content::Parts(p) = c else { panic!() };
        assert_eq!(p[0], ContentPart::Text("hi".into()));
        assert_eq!(p[1], ContentPart::Reasoning("hmm".into()));
        assert_eq!(p[2], ContentPart::Image { url: "data:image/png;base64,AAA".into() });
        assert!(matches!(p[3], ContentPart::Other(_)));
        let t = thoughts(Some(&json!([{"subject": "S", "description": "d"}, {"subject": "T", "description": ""}])));
        assert_eq!(t, vec![ContentPart::Reasoning("**S**\n\nd\n\n**T**".into())]);
        assert_eq!(with_thoughts(t, Content::Text("x".into())).text(), "x");
    }

    #[test]
    fn usage_counts_and_bad_counts() {
        let mut bad = Vec::new();
        let u = usage(Some(&json!({"input": 10, "output": 2, "cached": 4, "thoughts": 3, "tool": 1, "total": 16})), &mut bad).unwrap();
        assert_eq!((u.input_tokens, u.output_tokens, u.cache_read_input_tokens, u.reasoning_output_tokens, u.total_tokens), (10, 2, 4, 3, 16));
        assert!(usage(Some(&Value::Null), &mut bad).is_none());
        let u = usage(Some(&json!({"input": "10", "output": -1, "total": 5})), &mut bad).unwrap();
        assert_eq!((u.input_tokens, u.output_tokens, u.total_tokens), (0, 0, 5));
        assert_eq!(bad.len(), 2);
    }

    #[test]
    fn tool_results() {
        let call = json!({"result": [{"functionResponse": {"id": "a", "name": "f", "response": {"output": "ok"}}}]});
        assert_eq!(tool_result(call.as_object().unwrap()).text(), "ok");
        let call = json!({"result": null, "resultDisplay": "shown"});
        assert_eq!(tool_result(call.as_object().unwrap()).text(), "shown");
    }
}
