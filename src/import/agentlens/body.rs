//! What an AgentLens event's body is made of: its tool call, its result,
//! its content, from the record's members. The members that can be big
//! (`input_data`, `output_data`, the call's `tool_input` and `tool_output`)
//! come as [`Piece`]s: the parsed value (the exact path), or an object left
//! in the source with its telling text (the fast path, `fast.rs`), so that
//! both paths place an event with the same code.

use std::ops::Range;

use serde_json::{Map, Value};

use super::key;
use super::record::{Call, Event, INPUT_DATA, OUTPUT_DATA, TOOL_CALL_ID, TOOL_INPUT, TOOL_NAME, TOOL_OUTPUT};
use crate::json::{scan, Seg};
use crate::model::{Arguments, Content, ContentPart, LazyValue, Text, ToolCall, ToolResult, ToolStatus};

/// A member that can be big.
pub(super) enum Piece<'v> {
    /// The value, parsed.
    Parsed(&'v Value),
    /// An object left in the source, with the string [`summary`] reads as
    /// the whole of it, when it has one.
    InSource { json: LazyValue, telling: Option<Text> },
}

impl Piece<'_> {
    fn is_null(&self) -> bool {
        matches!(self, Piece::Parsed(Value::Null))
    }

    /// The value as message content (see [`summary`]).
    fn summary(&self) -> Content {
        match self {
            Piece::Parsed(v) => summary(Some(v)),
            Piece::InSource { telling: Some(t), .. } => Content::Text(t.clone()),
            Piece::InSource { json, telling: None } => Content::Json(json.clone()),
        }
    }

    fn json(&self) -> LazyValue {
        match self {
            Piece::Parsed(v) => (*v).clone().into(),
            Piece::InSource { json, .. } => json.clone(),
        }
    }

    /// Where it is in the source, when the fast path read it.
    fn source_range(&self) -> Option<Range<usize>> {
        match self {
            Piece::Parsed(_) => None,
            Piece::InSource { json, .. } => json.source_range(),
        }
    }
}

/// The members of an event that can be big, when present.
#[derive(Default)]
pub(super) struct Pieces<'v> {
    pub input_data: Option<Piece<'v>>,
    pub output_data: Option<Piece<'v>>,
    /// The `tool_call` object's.
    pub tool_input: Option<Piece<'v>>,
    pub tool_output: Option<Piece<'v>>,
}

fn present<'p, 'v>(p: &'p Option<Piece<'v>>) -> Option<&'p Piece<'v>> {
    p.as_ref().filter(|p| !p.is_null())
}

impl<'v> Pieces<'v> {
    /// As the event's members `o` and its tool call's `call` hold them.
    pub fn of(o: &Event<'v>, call: Option<&Call<'v>>) -> Pieces<'v> {
        Pieces {
            input_data: o.get(INPUT_DATA).map(Piece::Parsed),
            output_data: o.get(OUTPUT_DATA).map(Piece::Parsed),
            tool_input: call.and_then(|c| c.get(TOOL_INPUT)).map(Piece::Parsed),
            tool_output: call.and_then(|c| c.get(TOOL_OUTPUT)).map(Piece::Parsed),
        }
    }

    /// `output_data` as message content.
    pub fn output_summary(&self) -> Content {
        self.output_data.as_ref().map(Piece::summary).unwrap_or(Content::None)
    }

    /// `input_data` as a tool call's arguments (a `tool_call` event without
    /// a `tool_call` object).
    pub fn input_arguments(&self) -> Arguments {
        Arguments { value: present(&self.input_data).map(Piece::json), text: None }
    }

    /// A `ToolCall` object (`c`, its big members in `self`) as the model's tool call.
    pub fn tool_call(&self, c: &Call<'_>) -> ToolCall {
        let function = match c.get(TOOL_NAME) {
            Some(Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
            None => String::new(),
        };
        let value = self.tool_input.as_ref().map(Piece::json).unwrap_or_else(|| Value::Object(Map::new()).into());
        ToolCall {
            id: c.get(TOOL_CALL_ID).and_then(Value::as_str).map(str::to_string),
            function,
            arguments: Arguments { value: Some(value), text: None },
            result: None,
        }
    }

    /// The successful output of a tool call event, where it sits in the
    /// record, and its range when the fast path read it.
    pub fn tool_output(&self) -> Option<(ToolResult, Vec<Seg>, Option<Range<usize>>)> {
        let (piece, at) = match present(&self.tool_output) {
            Some(p) => (p, vec![key("tool_call"), key("tool_output")]),
            None => (present(&self.output_data)?, vec![key("output_data")]),
        };
        let result = ToolResult { call_id: None, content: Content::Json(piece.json()), status: ToolStatus::Success, call: None, implicit_link: false };
        Some((result, at, piece.source_range()))
    }

    /// The result of a `tool_error` event: the error as content, status Error.
    pub fn error_result(&self) -> ToolResult {
        let content = present(&self.output_data).or_else(|| present(&self.tool_output)).map(Piece::summary).unwrap_or(Content::None);
        ToolResult { call_id: None, content, status: ToolStatus::Error, call: None, implicit_link: false }
    }

    /// Where a `tool_error` event's error sits, and its range when the fast path read it.
    pub fn error_at(&self) -> (Vec<Seg>, Option<Range<usize>>) {
        if let Some(p) = present(&self.output_data) {
            (vec![key("output_data")], p.source_range())
        } else if let Some(p) = present(&self.tool_output) {
            (vec![key("tool_call"), key("tool_output")], p.source_range())
        } else {
            (Vec::new(), None)
        }
    }

    /// A one-line label for marker events: output, else input, else nothing.
    pub fn label_text(&self) -> String {
        let content = match self.output_summary() {
            Content::None => self.input_data.as_ref().map(Piece::summary).unwrap_or(Content::None),
            c => c,
        };
        crate::view::truncate(&content.text(), 200)
    }
}

/// The byte range of the value at `at` inside the record at `record`.
pub(super) fn scan_range(b: &[u8], record: &Range<usize>, at: &[Seg], ends: &crate::json::ContainerEnds) -> Option<Range<usize>> {
    if at.is_empty() {
        return None;
    }
    let start = scan::find_path_in(b, record.start, at, ends);
    let end = scan::value_end(b, start, ends).ok()?;
    (start > record.start && end <= record.end).then_some(start..end)
}

/// Keys whose string value reads as the whole of an input or output object.
pub(super) const TEXT_KEYS: [&str; 14] =
    ["response", "output", "content", "text", "completion", "message", "answer", "result", "error", "prompt", "query", "input", "task", "note"];

/// An input/output object as message content: its one telling string when it
/// has one (`{"response": "…"}`), else the object as JSON.
fn summary(v: Option<&Value>) -> Content {
    match v {
        None | Some(Value::Null) => Content::None,
        Some(Value::String(s)) => Content::Text(s.as_str().into()),
        Some(Value::Object(o)) => match telling_text(o) {
            Some(t) => Content::Text(t.to_string().into()),
            None => Content::Json(Value::Object(o.clone()).into()),
        },
        Some(other) => Content::Json(other.clone().into()),
    }
}

fn telling_text(o: &Map<String, Value>) -> Option<&str> {
    if o.len() == 1 {
        if let Some(s) = o.values().next().and_then(Value::as_str) {
            return Some(s);
        }
    }
    TEXT_KEYS.iter().find_map(|k| o.get(*k).and_then(Value::as_str))
}

/// Adds a decision trace's reasoning, alternatives and confidence as parts.
pub(super) fn with_decision(content: Content, t: &Map<String, Value>) -> Content {
    let mut parts = match content {
        Content::None => Vec::new(),
        Content::Text(s) => vec![ContentPart::Text(s)],
        Content::Parts(p) => p,
        Content::Json(v) => vec![ContentPart::Other(v.into_value())],
    };
    if let Some(r) = t.get("reasoning").and_then(Value::as_str).filter(|r| !r.is_empty()) {
        parts.push(ContentPart::Reasoning(r.into()));
    }
    if let Some(alts) = t.get("alternatives_considered").and_then(Value::as_array).filter(|a| !a.is_empty()) {
        let names: Vec<String> = alts.iter().map(|a| a.as_str().map(str::to_string).unwrap_or_else(|| a.to_string())).collect();
        parts.push(ContentPart::Text(format!("Alternatives considered: {}", names.join("; ")).into()));
    }
    if let Some(c) = t.get("confidence").filter(|c| !c.is_null()) {
        parts.push(ContentPart::Text(format!("Confidence: {}", c.as_str().map(str::to_string).unwrap_or_else(|| c.to_string())).into()));
    }
    Content::Parts(parts)
}
