//! The agent-catalog reader's fast path: the text of a message record
//! (`system`, `user`, `assistant`: `content.value`; `chat-completion`:
//! `content.output`) or of a tool result (`content.tool_result`, a string)
//! left in the source.
//!
//! Message texts are most of a log's bytes; built into the record's
//! `serde_json::Value` they were copied twice. Here the record is built as
//! serde_json builds it but with that text an empty string (so the keys and
//! their order stay serde_json's, and validation sees a string, which the
//! text is), and the text itself is a [`Text`] over the source. Only for a
//! plain record (no hazard such as `NaN`, valid UTF-8) without escaped keys,
//! whose `content`, `kind` and text member appear once, the kind written
//! plainly; anything else is parsed whole. tests/fast_paths.rs holds the two
//! paths to the same model.

use std::ops::Range;

use serde_json::Value;

use super::Reader;
use crate::json::fields::{self, Fields};
use crate::json::read::{self, Kind};
use crate::json::scan;
use crate::model::Text;

impl Reader<'_, '_> {
    /// The record at `r` with its message text read apart, or `None`.
    pub(super) fn fast_record(&self, r: &Range<usize>) -> Option<(Value, Text)> {
        let b = self.b;
        if self.out.exact_only() || !fields::plain_record(b, r, self.hazards, self.out.utf8_valid()) {
            return None;
        }
        let mut members = Vec::new();
        read::members(b, scan::skip_ws(b, r.start), self.ends, &mut members)?;
        let content = Fields::find(b, &members, [b"content"])?.get(&members, 0).filter(|c| c.kind == Kind::Object)?.clone();
        let mut inner = Vec::new();
        read::members(b, content.value.start, self.ends, &mut inner)?;
        let f = Fields::find(b, &inner, [b"kind", b"value", b"output", b"tool_result"])?;
        let kind = f.get(&inner, 0).filter(|k| k.kind == Kind::String && !k.escaped)?;
        let (field, at): (&[u8], usize) = match b.get(kind.inner())? {
            b"system" | b"user" | b"assistant" => (b"value", 1),
            b"chat-completion" => (b"output", 2),
            b"tool-result" => (b"tool_result", 3),
            _ => return None,
        };
        let text = f.get(&inner, at).filter(|t| t.kind == Kind::String)?.clone();
        let placeholder = |key: &[u8], _: &read::Member| (key == field).then(|| Value::String(String::new()));
        let content_value = Value::Object(fields::build_object(b, &inner, placeholder)?);
        let mut content_value = Some(content_value);
        let record = fields::build_object(b, &members, |_, m| if m.value == content.value { content_value.take() } else { None })?;
        Some((Value::Object(record), self.out.text(text.inner(), text.escaped)))
    }
}
