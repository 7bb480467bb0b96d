//! The Claude Code reader's fast path: a `user` or `assistant` record's
//! `message.content` read straight from the bytes.
//!
//! The content is most of a session's bytes (the kit's file: 7.3 of 10 MB).
//! Built into a `serde_json::Value` it was copied twice (into the tree, then
//! into the model); here its texts stay in the source ([`Text`]) and tool
//! inputs are parsed when first read ([`crate::model::LazyValue`]). Of the
//! rest, only the members the reading looks at are built (ids, timestamp,
//! usage, the run's keys; of `toolUseResult`, its `agentId`): the event's
//! metadata, the record less its type, timestamp and content, stays in the
//! source and is built when first read ([`crate::model::EventMetadata`],
//! shaped by [`metadata_shape`] as the exact path shapes it).
//!
//! Taken only when the record is plain (no hazard serde_json refuses, valid
//! UTF-8), no key is escaped, `type`, `message` and `content` appear once,
//! and the content is a string or a list of the common blocks: `text` and
//! `thinking` with string texts, `tool_use` with a string `name`, an
//! optional string `id` and an `input`; or, in a `user` record, one
//! `tool_result` block alone with string or text-block `content`. Anything
//! else returns `None` and the exact path reads the record.
//! tests/fast_paths.rs holds the two paths to the same model.

use std::borrow::Cow;
use std::ops::Range;

use serde_json::Value;

use super::blocks::CallBlock;
use super::look::{InBytes, Look, Read, K};
use super::usage::Counted;
use super::walk::{self, Shape};
use super::RUN_KEYS;
use crate::json::fields::{self, Fields};
use crate::json::read::{self, Kind, Member};
use crate::json::{scan, ContainerEnds};
use crate::import::Builder;
use crate::model::{Arguments, Content, ContentPart, LazyValue, Metadata, Text, ToolCall};

/// `message.content` as the record's reading needs it.
pub enum FastContent {
    /// A string, or a list of text, thinking and tool-use blocks.
    Blocks { content: Content, calls: Vec<CallBlock> },
    /// A user record's one `tool_result` block.
    OneResult { tool_use_id: Option<String>, is_error: bool, content: Content },
    /// A `progress` record (it has no `message`): its `data` left in the
    /// source, the event's key (`data.type` when a string), and for a
    /// sub-agent's progress its `agentId` with the call it names.
    Progress { data: LazyValue, key: Option<String>, agent_call: Option<(String, String)> },
}

/// A record read fast: what the reading takes of it, its members (for the
/// run's keys), and the content.
pub struct FastRecord<'e> {
    pub read: Read<'e>,
    pub members: InBytes<'e>,
    pub content: FastContent,
}

/// The source and what the split found in it.
pub struct Source<'r, 'a, 'e> {
    pub out: &'r Builder<'a>,
    pub b: &'e [u8],
    pub ends: &'e ContainerEnds,
    pub hazards: &'e [usize],
}

impl Source<'_, '_, '_> {
    fn text(&self, m: &Member) -> Text {
        self.out.text(m.inner(), m.escaped)
    }

    fn decoded(&self, m: &Member) -> String {
        self.text(m).decoded().into_owned()
    }

    fn is(&self, m: Option<&Member>, want: &[u8]) -> bool {
        m.is_some_and(|m| m.kind == Kind::String && !m.escaped && self.b.get(m.inner()) == Some(want))
    }
}

/// The lists a record's reading fills, kept from one record to the next:
/// each was a new allocation (and its growth) every record.
#[derive(Default)]
pub struct Buffers {
    /// The record's members; the reader hands them back after the run's keys.
    pub top: Vec<Member>,
    message: Vec<Member>,
    block: Vec<Member>,
    /// The keys last seen at each walk's places: the top level's, and a
    /// user's and an assistant's `message` (apart: the two alternate).
    top_shape: Shape,
    user_message_shape: Shape,
    assistant_message_shape: Shape,
}

/// The record at `r` read fast, or `None` for the exact path. Its top-level
/// members are walked once, placed by key ([`InBytes`]) for every look.
pub fn record<'e>(s: &Source<'_, '_, 'e>, bufs: &mut Buffers, r: &Range<usize>, counted: &Counted<'e>) -> Option<FastRecord<'e>> {
    if !fields::plain_record(s.b, r, s.hazards, s.out.utf8_valid()) {
        return None;
    }
    let b = s.b;
    let members = walk::object(b, scan::skip_ws(b, r.start), s.ends, &mut bufs.top_shape, std::mem::take(&mut bufs.top))?;
    let members = checked_members(members)?;
    if members.repeated(K::Type) || members.repeated(K::Message) {
        return None;
    }
    let kind = members.get(K::Type);
    if s.is(kind, b"progress") && members.get(K::Message).is_none() {
        return progress(s, members, counted);
    }
    let user = s.is(kind, b"user");
    if !user && !s.is(kind, b"assistant") {
        return None;
    }
    let message = members.get(K::Message).filter(|m| m.kind == Kind::Object)?;
    let shape = if user { &mut bufs.user_message_shape } else { &mut bufs.assistant_message_shape };
    let message = walk::object(b, message.value.start, s.ends, shape, std::mem::take(&mut bufs.message))?;
    if message.repeated(K::Content) {
        return None;
    }
    let content = message.get(K::Content)?;
    let listed = content.kind == Kind::Array;
    let content = match content.kind {
        Kind::String => FastContent::Blocks { content: Content::Text(s.text(content)), calls: Vec::new() },
        Kind::Array => blocks(s, bufs, content.value.start, user)?,
        _ => return None,
    };
    let read = Read::of(&members, Some(&message), listed, counted).ok()?;
    bufs.message = message.into_members();
    Some(FastRecord { read, members, content })
}

/// A record's members for [`Read::of`] and the run's keys: none with an
/// escaped key, and no run key but a string or `null` (a value the builder
/// would decline could not be said unsure when first read).
fn checked_members(members: InBytes<'_>) -> Option<InBytes<'_>> {
    let plain = |k: &K| members.kind(*k).is_none_or(|k| matches!(k, Kind::String | Kind::Null));
    RUN_KEYS.iter().all(plain).then_some(members)
}

/// A `progress` record without a `message` (a hook's or a tool's progress):
/// its `data` left in the source (building it was a tenth of the reading of
/// these records), the two members the reading needs found in its bytes.
fn progress<'e>(s: &Source<'_, '_, 'e>, members: InBytes<'e>, counted: &Counted<'e>) -> Option<FastRecord<'e>> {
    let (data, key, agent_call) = match members.get(K::Data) {
        None => (LazyValue::from(Value::Null), None, None),
        Some(m) => {
            // As `Value::get` reads it: only an object has members (an escaped key could be one of them).
            let fields = if m.kind == Kind::Object { Some(InBytes::at(s.b, s.ends, m.value.start)?) } else { None };
            let key = fields.as_ref().and_then(|d| d.str(K::Type)).map(Cow::into_owned);
            let agent = fields.as_ref().filter(|_| key.as_deref() == Some("agent_progress")).and_then(|d| d.str(K::AgentId));
            let agent_call = agent.and_then(|a| Some((a.into_owned(), members.str(K::ParentToolUseId)?.into_owned())));
            (s.out.json(m.value.clone()), key, agent_call)
        }
    };
    let read = Read::of(&members, None, false, counted).ok()?;
    Some(FastRecord { read, members, content: FastContent::Progress { data, key, agent_call } })
}

/// [`metadata_shape`] for a `progress` record, whose `data` the reading took first.
pub fn progress_shape(mut o: Metadata, extra: &Metadata) -> Metadata {
    o.remove("data");
    metadata_shape(o, extra)
}

/// The event metadata of a record the fast path read, from the record as
/// serde_json builds it: what `Reader::assistant`/`user` and `finish` leave
/// of it (`message` moved last without its content; `type` and `timestamp`
/// removed), with serde_json's `remove` (a swap) as they use it; then what
/// the reading added (`continues_event`), as `finish` adds it.
pub fn metadata_shape(mut o: Metadata, extra: &Metadata) -> Metadata {
    if let Some(Value::Object(mut message)) = o.remove("message") {
        message.remove("content");
        o.insert("message".to_string(), Value::Object(message));
    }
    o.remove("type");
    o.remove("timestamp");
    o.extend(extra.clone());
    o
}

const TYPE: usize = 0;
const TEXT: usize = 1;
const THINKING: usize = 2;
const ID: usize = 3;
const NAME: usize = 4;
const INPUT: usize = 5;
const TOOL_USE_ID: usize = 6;
const IS_ERROR: usize = 7;
const CONTENT: usize = 8;
const BLOCK_FIELDS: [&[u8]; 9] = [b"type", b"text", b"thinking", b"id", b"name", b"input", b"tool_use_id", b"is_error", b"content"];

/// A content list of common blocks (see the module's doc).
fn blocks(s: &Source<'_, '_, '_>, bufs: &mut Buffers, open: usize, user: bool) -> Option<FastContent> {
    let b = s.b;
    let block = &mut bufs.block;
    let (mut parts, mut calls) = (Vec::new(), Vec::new());
    if b.get(open) != Some(&b'[') {
        return None;
    }
    // Each block is walked where it stands (only lists of objects are read
    // here): listing the items first was one more walk of the list.
    let mut at = scan::skip_ws(b, open + 1);
    let mut i = 0;
    while b.get(at) != Some(&b']') {
        let next = scan::skip_ws(b, read::members(b, at, s.ends, block)?);
        let last = match b.get(next) {
            Some(b',') => false,
            Some(b']') => true,
            _ => return None,
        };
        at = if last { next } else { scan::skip_ws(b, next + 1) };
        let f = Fields::find(b, block, BLOCK_FIELDS)?;
        let get = |k: usize| f.get(block, k);
        // ccusage's check of an assistant's usage reads every block's `text`.
        if get(TEXT).is_some_and(|t| t.kind != Kind::String) {
            return None;
        }
        if s.is(get(TYPE), b"text") {
            parts.push(ContentPart::Text(s.text(get(TEXT)?)));
        } else if s.is(get(TYPE), b"thinking") {
            parts.push(ContentPart::Reasoning(s.text(get(THINKING).filter(|t| t.kind == Kind::String)?)));
        } else if s.is(get(TYPE), b"tool_use") {
            let name = get(NAME).filter(|n| n.kind == Kind::String)?;
            let id = match get(ID) {
                None => None,
                Some(id) if id.kind == Kind::String => Some(s.decoded(id)),
                Some(_) => return None,
            };
            let input = get(INPUT)?;
            let arguments = Arguments { value: Some(s.out.json(input.value.clone())), text: None };
            let call = ToolCall { id, function: s.decoded(name), arguments, result: None };
            calls.push(CallBlock { call, index: i });
        } else if user && i == 0 && last && s.is(get(TYPE), b"tool_result") {
            let tool_use_id = get(TOOL_USE_ID).filter(|t| t.kind == Kind::String).map(|t| s.decoded(t));
            let is_error = get(IS_ERROR).is_some_and(|e| e.kind == Kind::Bool && b.get(e.value.clone()) == Some(b"true"));
            let content = match get(CONTENT) {
                None => Content::None,
                Some(c) if c.kind == Kind::Null => Content::None,
                Some(c) if c.kind == Kind::String => Content::Text(s.text(c)),
                Some(c) if c.kind == Kind::Array => Content::Parts(fields::text_parts(s.b, s.ends, c.value.start)?.iter().map(|t| ContentPart::Text(s.text(t))).collect()),
                Some(_) => return None,
            };
            return Some(FastContent::OneResult { tool_use_id, is_error, content });
        } else {
            return None;
        }
        i += 1;
    }
    Some(FastContent::Blocks { content: Content::Parts(parts), calls })
}
