//! The agent-catalog reader's fast path: a record read member by member
//! from the bytes, its big values left in the source.
//!
//! Message texts and tool results are most of a log's bytes (the kit's:
//! tool results 7.1 of 10 MB), and every record repeats its
//! `catalog_version` and `annotations`. The exact path parsed each record
//! into a `serde_json::Value`, then copied into the model what it kept, and
//! kept the rest as the event's metadata (two thirds of a parse, and the
//! model twice the file). Here only the members the checks look at are built
//! (`record.rs`, by index, not hashed), and of those:
//! - a message's `value` / `output` or a tool result's `tool_result`, when a
//!   string, is a [`crate::model::Text`] in the source (`""` stands in for it);
//! - a tool call's `tool_args`, when an object, is a
//!   [`crate::model::LazyValue`] in the source (`{}` stands in);
//! - `annotations`, `content.extra` and `content.meta`, when objects, stand
//!   as `{}`: the checks look at their kind only;
//! - `catalog_version`, when byte for byte the last one read fast that
//!   passed its checks, is not built or checked again (`{}` stands in);
//! - `span`, when its check has nothing to say (a string `session`, a list
//!   of strings `name`), is not built: its names are read from the bytes.
//!
//! The event's metadata stays in the source (`record::metadata_shape`
//! makes it when first read). Both paths hand the members to one
//! `Reader::place`, so only the reading differs.
//!
//! Taken when the record is plain (`Builder::reads_fast`: no `NaN`, lone
//! surrogate or other hazard, valid UTF-8), is an object, and no key of it
//! or of its `content` object is escaped, nor a member read repeated.
//! Anything else returns `None` and the exact path parses the record.
//! tests/fast_paths/agent_catalog.rs holds the two paths to the same model.

use std::ops::Range;

use serde_json::{Map, Value};

use super::content::Pieces;
use super::record::{ANNOTATIONS, CATALOG_VERSION, CONTENT, CONTENT_MEMBERS, EXTRA, KIND, META, OUTPUT, RECORD_MEMBERS, SPAN, TOOL_ARGS, TOOL_RESULT, VALUE};
use super::Reader;
use crate::json::fields::Fields;
use crate::json::read::{self, Kind, Member};
use crate::json::{build, scan};

/// Buffers reused from record to record, one per level.
#[derive(Default)]
pub(super) struct Scratch {
    record: Vec<Member>,
    content: Vec<Member>,
    span: Vec<Member>,
    names: Vec<Range<usize>>,
}

/// A record read fast: the members the checks look at (by the indices of
/// `record::RECORD_MEMBERS` and `record::CONTENT_MEMBERS`), with stand-ins
/// for what was left in the source, and that.
pub(super) struct Read<'a> {
    pub record: [Option<Value>; 6],
    pub content: [Option<Value>; 15],
    pub pieces: Pieces,
    /// The bytes of its `catalog_version` object, when it is one.
    pub catalog_version: Option<&'a [u8]>,
    /// `span.name`, when the span is one its check has nothing to say
    /// about (a string `session`, a list of strings `name`): then the span
    /// is not built (`None` stands in for it).
    pub span_names: Option<Vec<String>>,
}

fn empty_object() -> Value {
    Value::Object(Map::new())
}

impl<'a> Reader<'_, 'a> {
    /// The record at `r`, read fast, or `None` for the exact path to read.
    pub(super) fn fast_record(&mut self, r: &Range<usize>) -> Option<Read<'a>> {
        if !self.out.reads_fast(r) {
            return None;
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        let read = self.fast_record_in(r, &mut scratch);
        self.scratch = scratch;
        read
    }

    fn fast_record_in(&self, r: &Range<usize>, s: &mut Scratch) -> Option<Read<'a>> {
        let b = self.b;
        let start = scan::skip_ws(b, r.start);
        if b.get(start) != Some(&b'{') {
            return None;
        }
        read::members(b, start, self.ends, &mut s.record)?;
        let f = Fields::find(b, &s.record, RECORD_MEMBERS.map(str::as_bytes))?;
        let mut read = Read { record: Default::default(), content: Default::default(), pieces: Pieces::default(), catalog_version: None, span_names: None };
        for (k, slot) in read.record.iter_mut().enumerate() {
            let Some(m) = f.get(&s.record, k) else { continue };
            *slot = Some(match k {
                CONTENT if m.kind == Kind::Object => {
                    self.fast_content(m, &mut s.content, &mut read.content, &mut read.pieces)?;
                    empty_object()
                }
                ANNOTATIONS if m.kind == Kind::Object => empty_object(),
                SPAN if m.kind == Kind::Object => match self.span_names(m, &mut s.span, &mut s.names) {
                    Some(names) => {
                        read.span_names = Some(names);
                        continue;
                    }
                    None => build::value(b.get(m.value.clone())?)?,
                },
                CATALOG_VERSION if m.kind == Kind::Object => {
                    let bytes = b.get(m.value.clone())?;
                    read.catalog_version = Some(bytes);
                    if self.clean_catalog_version == Some(bytes) { empty_object() } else { build::value(bytes)? }
                }
                _ => build::value(b.get(m.value.clone())?)?,
            });
        }
        Some(read)
    }

    /// Reads the `content` object `m` into `out` and `pieces`.
    fn fast_content(&self, m: &Member, members: &mut Vec<Member>, out: &mut [Option<Value>; 15], pieces: &mut Pieces) -> Option<()> {
        let b = self.b;
        read::members(b, m.value.start, self.ends, members)?;
        let f = Fields::find(b, members, CONTENT_MEMBERS.map(str::as_bytes))?;
        // The member holding the text, by the kind when it is written plainly
        // (an escaped kind is read as any other member: its text is built).
        let kind = f.get(members, KIND).filter(|k| k.kind == Kind::String && !k.escaped).and_then(|k| b.get(k.inner()));
        let text_at = match kind {
            Some(b"system" | b"user" | b"assistant") => Some(VALUE),
            Some(b"chat-completion") => Some(OUTPUT),
            Some(b"tool-result") => Some(TOOL_RESULT),
            _ => None,
        };
        let args_at = (kind == Some(b"tool-call")).then_some(TOOL_ARGS);
        for (k, slot) in out.iter_mut().enumerate() {
            let Some(m) = f.get(members, k) else { continue };
            *slot = Some(match k {
                _ if text_at == Some(k) && m.kind == Kind::String => {
                    pieces.text = Some(self.out.text(m.inner(), m.escaped));
                    Value::String(String::new())
                }
                _ if args_at == Some(k) && m.kind == Kind::Object => {
                    pieces.args = Some(self.out.json(m.value.clone()));
                    empty_object()
                }
                EXTRA | META if m.kind == Kind::Object => empty_object(),
                _ => build::value(b.get(m.value.clone())?)?,
            });
        }
        Some(())
    }

    /// The names of the span object `m` when it has a string `session` and
    /// a list of strings `name` (keys plain and unrepeated), decoded; else
    /// `None` (the span is built and checked).
    fn span_names(&self, m: &Member, members: &mut Vec<Member>, items: &mut Vec<Range<usize>>) -> Option<Vec<String>> {
        let b = self.b;
        read::members(b, m.value.start, self.ends, members)?;
        let f = Fields::find(b, members, [b"session", b"name"])?;
        f.get(members, 0).filter(|m| m.kind == Kind::String)?;
        let name = f.get(members, 1).filter(|m| m.kind == Kind::Array)?;
        read::items(b, name.value.start, self.ends, items)?;
        // Sized once (collected through `Option`, the list grew to twice its length).
        let mut names = Vec::with_capacity(items.len());
        for item in items.iter() {
            if b.get(item.start) != Some(&b'"') {
                return None;
            }
            names.push(scan::decode_string(b, item.clone())?);
        }
        Some(names)
    }
}
