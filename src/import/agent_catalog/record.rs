//! The members of an Agent Catalog record (and of its `content` object)
//! that the checks look at, found once: by key in the parsed record (the
//! exact path), or by the fast path from the bytes, with only those members
//! built and its big values left in the source. Looked up by index, not
//! hashed. And the event's metadata, made from the parsed record by one
//! `fn` both paths use.

use serde_json::{Map, Value};

pub(super) use crate::json::fields::Members;

use super::KINDS;
use crate::model::Metadata;

pub(super) const IDENTIFIER: usize = 0;
pub(super) const SPAN: usize = 1;
pub(super) const TIMESTAMP: usize = 2;
pub(super) const CONTENT: usize = 3;
pub(super) const ANNOTATIONS: usize = 4;
pub(super) const CATALOG_VERSION: usize = 5;
/// A record's members read, by the indices above.
pub(super) const RECORD_MEMBERS: [&str; 6] = ["identifier", "span", "timestamp", "content", "annotations", "catalog_version"];

pub(super) const KIND: usize = 0;
pub(super) const EXTRA: usize = 1;
pub(super) const VALUE: usize = 2;
pub(super) const OUTPUT: usize = 3;
pub(super) const USER_ID: usize = 4;
pub(super) const META: usize = 5;
pub(super) const TOOL_NAME: usize = 6;
pub(super) const TOOL_ARGS: usize = 7;
pub(super) const TOOL_CALL_ID: usize = 8;
pub(super) const STATUS: usize = 9;
pub(super) const TOOL_RESULT: usize = 10;
pub(super) const TOOLS: usize = 11;
pub(super) const KEY: usize = 12;
pub(super) const SOURCE: usize = 13;
pub(super) const DEST: usize = 14;
/// A `content` object's members read (those of all eleven kinds), by the indices above.
pub(super) const CONTENT_MEMBERS: [&str; 15] = [
    "kind",
    "extra",
    "value",
    "output",
    "user_id",
    "meta",
    "tool_name",
    "tool_args",
    "tool_call_id",
    "status",
    "tool_result",
    "tools",
    "key",
    "source",
    "dest",
];

/// A record's members.
pub(super) type RecordMembers<'v> = Members<'v, 6>;
/// A `content` object's members (none when `content` is not an object).
pub(super) type ContentMembers<'v> = Members<'v, 15>;

/// The name of the `content` member at index `k`.
pub(super) fn content_name(k: usize) -> &'static str {
    CONTENT_MEMBERS.get(k).copied().unwrap_or_default()
}

/// The `content` members a kind's event body holds: the others stay
/// reachable as the event's metadata.
pub(super) fn consumed(kind: &str) -> &'static [&'static str] {
    match kind {
        "system" | "user" | "assistant" => &["kind", "value"],
        "chat-completion" => &["kind", "output"],
        "tool-call" => &["kind", "tool_name", "tool_args", "tool_call_id"],
        "tool-result" => &["kind", "tool_call_id", "tool_result", "status"],
        "request-header" => &["kind", "tools"],
        "key-value" => &["kind", "key", "value"],
        _ => &["kind"],
    }
}

/// A record's event metadata: its `identifier` (any value), its
/// `annotations` (unless null), and, when `content` is an object of a known
/// kind, the `content` members its body does not hold, in their order (a
/// member named like one before it takes that one's place, as a map insert does).
pub(super) fn metadata_shape(mut o: Map<String, Value>, _: &Metadata) -> Metadata {
    let mut meta = Metadata::new();
    if let Some(id) = o.remove("identifier") {
        meta.insert("identifier".to_string(), id);
    }
    match o.remove("annotations") {
        None | Some(Value::Null) => {}
        Some(a) => {
            meta.insert("annotations".to_string(), a);
        }
    }
    if let Some(Value::Object(c)) = o.remove("content") {
        let kind = c.get("kind").and_then(Value::as_str).filter(|k| KINDS.contains(k)).map(consumed);
        if let Some(consumed) = kind {
            for (k, v) in c {
                if !consumed.contains(&k.as_str()) {
                    meta.insert(k, v);
                }
            }
        }
    }
    meta
}
