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
use super::look::{self, Id, InBytes, Look, Read, Unsure, K};
use super::usage::Counted;
use super::walk::{self, Resume, Shape, Walk};
use super::RUN_KEYS;
use crate::json::fields;
use crate::json::read::{Claimed, Kind, Member};
use crate::json::string::decode_literal;
use crate::json::{scan, ContainerEnds};
use crate::import::Builder;
use crate::model::{Arguments, Content, ContentPart, LazyValue, Metadata, Text, ToolCall};

/// `message.content` as the record's reading needs it.
pub enum FastContent<'e> {
    /// A string, or a list of text, thinking and tool-use blocks.
    Blocks { content: Content, calls: Vec<CallBlock<'e>> },
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
    pub content: FastContent<'e>,
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

    /// A string member's text, copied (decoded as [`Text`] decodes it,
    /// without making one: a `Text` holds the source, counted).
    fn decoded(&self, m: &Member) -> String {
        decode_literal(self.b.get(m.inner()).unwrap_or_default(), m.escaped).into_owned()
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
    blocks: BlockLists,
    /// The keys last seen at each walk's places: the top level's, and a
    /// user's and an assistant's `message` (apart: the two alternate).
    top_shape: Shape,
    user_message_shape: Shape,
    assistant_message_shape: Shape,
    /// A `toolUseResult` object's members, and their shape.
    result: Vec<Member>,
    result_shape: Shape,
    /// A message's `usage` members, and their shape (walked apart, a new
    /// list each, it was a tenth of the reading).
    usage: Vec<Member>,
    usage_shape: Shape,
    /// A `progress` record's `data` object's members, and their shape
    /// (walked apart, a new list each, it was a third of these records' reading).
    data: Vec<Member>,
    data_shape: Shape,
}

/// The record at `r` read fast, or `None` for the exact path. Its top-level
/// members are walked once, placed by key ([`InBytes`]) for every look;
/// the walk goes on from where the last record's stopped (`resume`, and
/// leaves it there for the next).
pub fn record<'e>(s: &Source<'_, '_, 'e>, bufs: &mut Buffers, resume: &mut Option<Resume<'e>>, r: &Range<usize>, counted: &Counted<'e>) -> Option<FastRecord<'e>> {
    if !fields::plain_record(s.b, r, s.hazards, s.out.utf8_valid()) {
        return None;
    }
    let b = s.b;
    let open = scan::skip_ws(b, r.start);
    // The record's `message` and `toolUseResult` objects are walked where
    // they stand, on the top level's walk (with their starts, to know them
    // for the last of their keys).
    let Buffers { top, message: message_list, result: result_list, blocks: block_lists, top_shape, user_message_shape, assistant_message_shape, result_shape, usage: usage_list, usage_shape, data: data_list, data_shape } = bufs;
    let mut message: Option<(InBytes<'e>, usize)> = None;
    let mut result: Option<(InBytes<'e>, usize)> = None;
    // A `progress` record's `data` object, walked when its type came first (as Claude Code writes it).
    let mut data: Option<(InBytes<'e>, usize)> = None;
    // The message's `usage` object, walked on the message's walk.
    let mut usage: Option<(InBytes<'e>, usize)> = None;
    // A message's content list read on the walk when the record's type came first (as Claude Code writes it).
    let mut listed_content: Option<(FastContent<'e>, usize)> = None;
    let mut walk = Walk::resume(b, s.ends, open, resume.take());
    let (members, end) = walk.object(open, top_shape, std::mem::take(top), &mut |w, k, start, so_far| {
        if b.get(start) != Some(&b'{') {
            return Claimed::Not;
        }
        let user = s.is(so_far.get(K::Type), b"user");
        let assistant = s.is(so_far.get(K::Type), b"assistant");
        let (found, list, shape) = match k {
            K::Message if user => (&mut message, &mut *message_list, &mut *user_message_shape),
            K::Message => (&mut message, &mut *message_list, &mut *assistant_message_shape),
            K::ToolUseResult => (&mut result, &mut *result_list, &mut *result_shape),
            K::Data if s.is(so_far.get(K::Type), b"progress") => (&mut data, &mut *data_list, &mut *data_shape),
            _ => return Claimed::Not,
        };
        let list = found.take().map_or_else(|| std::mem::take(list), |(o, _)| o.into_members());
        let mut content = |w: &mut Walk<'e>, k: K, start: usize, placed: &InBytes<'e>| {
            // Not the usage of a later record of the response counted last
            // (its usage is not read; were it, `Look` would find it).
            let counted_last = || placed.id(K::Id).is_some_and(|id| counted.last_message_is(&id));
            if k == K::Usage && b.get(start) == Some(&b'{') && !counted_last() {
                let list = usage.take().map_or_else(|| std::mem::take(&mut *usage_list), |(o, _)| o.into_members());
                return match w.object(start, usage_shape, list, &mut walk::flat) {
                    Some((o, end)) => {
                        usage = Some((o, start));
                        Claimed::End(end)
                    }
                    None => Claimed::Broken,
                };
            }
            if k != K::Content || !(user || assistant) {
                return Claimed::Not;
            }
            match blocks(s, w, block_lists, start, user) {
                Some((c, end)) => {
                    listed_content = Some((c, start));
                    Claimed::End(end)
                }
                None => Claimed::Broken,
            }
        };
        let walked = if k == K::Message { w.object(start, shape, list, &mut content) } else { w.object(start, shape, list, &mut walk::flat) };
        match walked {
            Some((o, end)) => {
                *found = Some((o, start));
                Claimed::End(end)
            }
            None => Claimed::Broken,
        }
    })?;
    *resume = Some(walk.pause(end));
    let members = checked_members(members)?;
    if members.repeated(K::Type) || members.repeated(K::Message) {
        return None;
    }
    // The last `toolUseResult` when it is the object walked, else as `Look` reads it.
    let result_at = members.get(K::ToolUseResult).map(|m| m.value.start);
    let result_agent = match result {
        Some((o, at)) if Some(at) == result_at => {
            let agent = look::agent_of(Some(&o));
            bufs.result = o.into_members();
            Ok(agent)
        }
        _ => look::result_agent(&members),
    };
    let kind = members.get(K::Type);
    if s.is(kind, b"progress") && members.get(K::Message).is_none() {
        // The last `data` when it is the object walked, else read apart.
        let data_at = members.get(K::Data).map(|m| m.value.start);
        let walked = data.filter(|(_, at)| Some(*at) == data_at).map(|(o, _)| o);
        let record = progress(s, members, walked.as_ref(), result_agent, counted);
        if let Some(o) = walked {
            bufs.data = o.into_members();
        }
        return record;
    }
    let user = s.is(kind, b"user");
    if !user && !s.is(kind, b"assistant") {
        return None;
    }
    let message_at = members.get(K::Message).filter(|m| m.kind == Kind::Object)?.value.start;
    let message = message.filter(|(_, at)| *at == message_at)?.0;
    if message.repeated(K::Content) {
        return None;
    }
    let content = message.get(K::Content)?;
    let listed = content.kind == Kind::Array;
    let content = match content.kind {
        Kind::String => FastContent::Blocks { content: Content::Text(s.text(content)), calls: Vec::new() },
        Kind::Array => match listed_content.take() {
            Some((c, at)) if at == content.value.start => c,
            _ => blocks(s, &mut Walk::new(b, s.ends, content.value.start), &mut bufs.blocks, content.value.start, user)?.0,
        },
        _ => return None,
    };
    // The last `usage` when it is the object walked, else as `Look` reads it.
    let usage_at = message.get(K::Usage).map(|m| m.value.start);
    let usage = usage.filter(|(_, at)| Some(*at) == usage_at).map(|(o, _)| o);
    let read = Read::of(&members, Some(&message), usage.as_ref(), result_agent.ok()?, listed, counted).ok()?;
    bufs.message = message.into_members();
    if let Some(o) = usage {
        bufs.usage = o.into_members();
    }
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
/// these records), the two members the reading needs found in its bytes
/// (`walked`: the last `data` object, when the record's walk found it).
fn progress<'e>(s: &Source<'_, '_, 'e>, members: InBytes<'e>, walked: Option<&InBytes<'e>>, result_agent: Result<Option<String>, Unsure>, counted: &Counted<'e>) -> Option<FastRecord<'e>> {
    let (data, key, agent_call) = match members.get(K::Data) {
        None => (LazyValue::from(Value::Null), None, None),
        Some(m) => {
            // As `Value::get` reads it: only an object has members (an escaped key could be one of them).
            let apart;
            let fields = match (m.kind, walked) {
                (Kind::Object, Some(o)) => Some(o),
                (Kind::Object, None) => {
                    apart = InBytes::at(s.b, s.ends, m.value.start)?;
                    Some(&apart)
                }
                _ => None,
            };
            let key = fields.and_then(|d| d.str(K::Type)).map(Cow::into_owned);
            let agent = fields.filter(|_| key.as_deref() == Some("agent_progress")).and_then(|d| d.str(K::AgentId));
            let agent_call = agent.and_then(|a| Some((a.into_owned(), members.str(K::ParentToolUseId)?.into_owned())));
            (s.out.json(m.value.clone()), key, agent_call)
        }
    };
    let read = Read::of(&members, None, None, result_agent.ok()?, false, counted).ok()?;
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

/// The block keys the reading looks at: one of them repeated in a block
/// leaves the record to the exact path (as a `Map` it keeps the last).
const BLOCK_KEYS: [K; 9] = [K::Type, K::Text, K::Thinking, K::Id, K::Name, K::Input, K::ToolUseIdOfResult, K::IsError, K::Content];

/// A content list's blocks, and their shapes (a user's and an assistant's).
#[derive(Default)]
pub struct BlockLists {
    block: Vec<Member>,
    user_shape: Shape,
    assistant_shape: Shape,
}

/// A content list of common blocks (see the module's doc) whose `[` is at
/// `open`, on the record's walk; with where the list ends.
fn blocks<'e>(s: &Source<'_, '_, 'e>, walk: &mut Walk<'e>, lists: &mut BlockLists, open: usize, user: bool) -> Option<(FastContent<'e>, usize)> {
    let b = s.b;
    let (mut parts, mut calls) = (Vec::new(), Vec::new());
    if b.get(open) != Some(&b'[') {
        return None;
    }
    let shape = if user { &mut lists.user_shape } else { &mut lists.assistant_shape };
    // Each block is walked where it stands (only lists of objects are read
    // here): listing the items first was one more walk of the list.
    let mut at = scan::skip_ws(b, open + 1);
    let mut i = 0;
    while b.get(at) != Some(&b']') {
        let (block, end) = walk.object(at, shape, std::mem::take(&mut lists.block), &mut walk::flat)?;
        if BLOCK_KEYS.iter().any(|k| block.repeated(*k)) {
            return None;
        }
        let next = scan::skip_ws(b, end);
        let last = match b.get(next) {
            Some(b',') => false,
            Some(b']') => true,
            _ => return None,
        };
        at = if last { next } else { scan::skip_ws(b, next + 1) };
        let get = |k: K| block.get(k);
        // ccusage's check of an assistant's usage reads every block's `text`.
        if get(K::Text).is_some_and(|t| t.kind != Kind::String) {
            return None;
        }
        if s.is(get(K::Type), b"text") {
            parts.push(ContentPart::Text(s.text(get(K::Text)?)));
        } else if s.is(get(K::Type), b"thinking") {
            parts.push(ContentPart::Reasoning(s.text(get(K::Thinking).filter(|t| t.kind == Kind::String)?)));
        } else if s.is(get(K::Type), b"tool_use") {
            let name = get(K::Name).filter(|n| n.kind == Kind::String)?;
            let (id, key) = match get(K::Id) {
                None => (None, None),
                Some(id) if id.kind == Kind::String => {
                    let text = s.decoded(id);
                    let key = if id.escaped { Id::Owned(text.as_bytes().to_vec()) } else { Id::Borrowed(b.get(id.inner())?) };
                    (Some(text), Some(key))
                }
                Some(_) => return None,
            };
            let input = get(K::Input)?;
            let arguments = Arguments { value: Some(s.out.json(input.value.clone())), text: None };
            let call = ToolCall { id, function: s.decoded(name), arguments, result: None };
            calls.push(CallBlock { call, index: i, key });
        } else if user && i == 0 && last && s.is(get(K::Type), b"tool_result") {
            let tool_use_id = get(K::ToolUseIdOfResult).filter(|t| t.kind == Kind::String).map(|t| s.decoded(t));
            let is_error = get(K::IsError).is_some_and(|e| e.kind == Kind::Bool && b.get(e.value.clone()) == Some(b"true"));
            let content = match get(K::Content) {
                None => Content::None,
                Some(c) if c.kind == Kind::Null => Content::None,
                Some(c) if c.kind == Kind::String => Content::Text(s.text(c)),
                Some(c) if c.kind == Kind::Array => Content::Parts(fields::text_parts(s.b, s.ends, c.value.start)?.iter().map(|t| ContentPart::Text(s.text(t))).collect()),
                Some(_) => return None,
            };
            lists.block = block.into_members();
            return Some((FastContent::OneResult { tool_use_id, is_error, content }, next + 1));
        } else {
            return None;
        }
        lists.block = block.into_members();
        i += 1;
    }
    Some((FastContent::Blocks { content: Content::Parts(parts), calls }, at + 1))
}
