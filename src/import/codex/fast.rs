//! The Codex reader's fast path: the common `response_item` lines read
//! straight from the bytes.
//!
//! Tool outputs are most of a rollout's bytes (the kit's file: 7.1 of
//! 10 MB), calls and messages most of the rest. Built into a
//! `serde_json::Value` a line was copied twice (into the tree, then into
//! the model); here a message's texts and a call's arguments stay in the
//! source ([`crate::model::Text`], [`LazyValue::encoded_in`]), and of an
//! output only a shell tool's JSON is parsed (its `output` taken out of the
//! parsed value, not copied). The survey of the texts `event_msg` lines may
//! mirror reads a line's `type` and its payload's from the bytes, and
//! parses only the payloads it looks into.
//!
//! Taken only when the line is plain (no hazard serde_json refuses, valid
//! UTF-8), the keys read are neither escaped nor repeated, the line has a
//! string `timestamp`, and the item is one of: a `message` with a string
//! `role` and a list of text or image items; a `function_call` with a
//! non-empty string `name`, a string `call_id` and `arguments` a string
//! encoding an object; a `function_call_output` / `custom_tool_call_output`
//! whose `output` is a string or null. Anything else returns `None` and
//! the exact path reads the line. tests/fast_paths.rs holds the two paths
//! to the same model.

use std::ops::Range;

use serde_json::{Map, Value};

use super::as_written;
use super::fast_events::FastEvent;
use super::items::{string_output, ShellOutcome};
use super::reader::MirrorKey;
use super::RECORD_TYPES;
use crate::import::Builder;
use crate::json::ends::EndsCursor;
use crate::json::fields::{self, Fields};
use crate::json::read::{self, Kind, Member};
use crate::json::{scan, ContainerEnds};
use crate::model::{Arguments, Content, ContentPart, LazyValue, ToolStatus};

/// A line read fast: an item (placed as the exact path places it), or a
/// line whose payload alone was parsed (handed to the exact path's reading
/// of that type of line).
pub enum FastLine {
    Item(FastItem),
    Event(FastEvent),
    Payload(&'static str, Map<String, Value>),
    /// A `turn_context`: its payload (left in the source) and the model it
    /// names, as `usage::model_named` reads it.
    TurnContext { payload: Range<usize>, model: Option<String> },
}

/// An item read fast, as the exact path would hand it to its placing.
pub enum FastItem {
    Message { role: String, content: Content },
    Call { function: String, id: String, arguments: Arguments },
    Output { kind: &'static str, call_id: Option<String>, read: (Content, ToolStatus, Option<ShellOutcome>) },
}

/// Buffers reused from line to line.
#[derive(Default)]
pub struct Scratch {
    line: Vec<Member>,
    pub(super) payload: Vec<Member>,
    pub(super) part: Vec<Member>,
    items: Vec<Range<usize>>,
    decoded: String,
}

/// The bytes and what the split found in them.
pub struct Bytes<'r, 'a> {
    pub out: &'r Builder<'a>,
    pub b: &'a [u8],
    pub ends: &'r ContainerEnds,
    /// The split's objects that may repeat a key, sorted (`None`: not
    /// known, the split met a syntax error).
    pub repeats: Option<&'r [usize]>,
}

impl Bytes<'_, '_> {
    fn decoded(&self, m: &Member) -> String {
        self.out.text(m.inner(), m.escaped).decoded().into_owned()
    }

    /// A plain string value's bytes (`None` for another kind or an escape).
    pub(super) fn plain(&self, m: Option<&Member>) -> Option<&[u8]> {
        m.filter(|m| m.kind == Kind::String && !m.escaped).and_then(|m| self.b.get(m.inner()))
    }
}

/// What the survey needs of a line.
pub enum Surveyed {
    /// Nothing: no session, no text an `event_msg` may mirror.
    Nothing,
    /// The texts an `event_msg` may mirror of a message or reasoning
    /// `response_item`, read from the bytes ([`super::items::mirror_keys`]).
    Mirrors(Vec<MirrorKey>),
    /// A `session_meta` or a message or reasoning `response_item`: its
    /// line `type` and payload.
    Payload(&'static str, Map<String, Value>),
}

/// What the second pass needs of a line, found by the survey's walk of
/// it (walking each line's members twice was 4% of a parse): its string
/// `timestamp`, its `type` and its object `payload`, as offsets, and the
/// survey's cursor over the split's table at the payload, from which the
/// walks of the payload read the table (a new cursor searched the whole
/// table, missing the cache at each step: most of `read::members` in wasm).
#[derive(Clone)]
pub struct Head<'t> {
    timestamp: (u32, u32),
    timestamp_escaped: bool,
    kind: &'static str,
    payload: (u32, u32),
    at: EndsCursor<'t>,
}

impl<'t> Head<'t> {
    fn new(timestamp: &Member, kind: &'static str, payload: &Member, at: &EndsCursor<'t>) -> Option<Head<'t>> {
        let offsets = |r: Range<usize>| Some((u32::try_from(r.start).ok()?, u32::try_from(r.end).ok()?));
        let (timestamp_escaped, at) = (timestamp.escaped, at.clone());
        Some(Head { timestamp: offsets(timestamp.inner())?, timestamp_escaped, kind, payload: offsets(payload.value.clone())?, at })
    }

    /// The line's `timestamp`, decoded.
    pub fn timestamp(&self, s: &Bytes<'_, '_>) -> String {
        let t = self.timestamp;
        s.out.text(t.0 as usize..t.1 as usize, self.timestamp_escaped).decoded().into_owned()
    }
}

/// The line at `r` as the survey sees it, or `None` (parse it whole); and
/// its [`Head`] when the second pass can read it fast.
pub fn survey_line<'t>(s: &Bytes<'_, '_>, r: &Range<usize>, at: &mut EndsCursor<'t>, scratch: &mut Scratch) -> (Option<Surveyed>, Option<Head<'t>>) {
    if !s.out.can_defer_metadata(r) {
        return (None, None);
    }
    let b = s.b;
    let open = scan::skip_ws(b, r.start);
    let [timestamp, kind, payload] = match as_written::members(s, open..r.end, as_written::LINE, at, &mut scratch.line) {
        Some(()) => [0, 1, 2].map(|k| scratch.line.get(k).cloned()),
        None => {
            if read::members(b, open, s.ends, &mut scratch.line).is_none() {
                return (None, None);
            }
            let Some(f) = Fields::find(b, &scratch.line, [b"timestamp", b"type", b"payload"]) else { return (None, None) };
            [0, 1, 2].map(|k| f.get(&scratch.line, k).cloned())
        }
    };
    let payload = payload.filter(|p| p.kind == Kind::Object);
    // What `line` reads: a string timestamp, a known plain type, an object payload.
    let known = s.plain(kind.as_ref()).and_then(|k| RECORD_TYPES.iter().find(|t| t.as_bytes() == k));
    let head = match (timestamp.filter(|t| t.kind == Kind::String), known, &payload) {
        (Some(t), Some(k), Some(p)) => Head::new(&t, k, p, at),
        _ => None,
    };
    let surveyed = (|| {
        let kind = match &kind {
            Some(m) if m.kind == Kind::String => s.plain(Some(m))?,
            _ => return Some(Surveyed::Nothing),
        };
        let kind: &'static str = match kind {
            b"session_meta" => "session_meta",
            b"response_item" => "response_item",
            _ => return Some(Surveyed::Nothing),
        };
        let Some(payload) = payload else { return Some(Surveyed::Nothing) };
        if kind == "response_item" {
            // Calls and outputs (most items) mirror nothing: known by their
            // leading `type` without walking the payload (read again by the
            // second pass).
            if leading_type(s, payload.value.start).is_some_and(|t| t != b"message" && t != b"reasoning") {
                return Some(Surveyed::Nothing);
            }
            read::members_at(b, payload.value.start, &mut at.clone(), &mut scratch.payload)?;
            let p = std::mem::take(&mut scratch.payload);
            let keys = mirror_keys(s, &p, at, scratch);
            scratch.payload = p;
            return keys;
        }
        match crate::json::build::from_slice(b.get(payload.value.clone())?) {
            Ok(Value::Object(p)) => Some(Surveyed::Payload(kind, p)),
            _ => None,
        }
    })();
    (surveyed, head)
}

/// The `type` of the object at `open` when it is its first member, a
/// plain string, and no key of the object may repeat (the split's
/// `repeats`): then no later member changes the type serde_json reads.
/// `None`: walk the object.
fn leading_type<'a>(s: &Bytes<'_, 'a>, open: usize) -> Option<&'a [u8]> {
    if s.repeats?.binary_search(&open).is_ok() {
        return None;
    }
    as_written::leading_type(s.b, open)
}

const TYPE: usize = 0;
const ROLE: usize = 1;
const CONTENT: usize = 2;
const NAME: usize = 3;
const ARGUMENTS: usize = 4;
const CALL_ID: usize = 5;
const OUTPUT: usize = 6;
const PAYLOAD_FIELDS: [&[u8]; 7] = [b"type", b"role", b"content", b"name", b"arguments", b"call_id", b"output"];

/// The line whose [`Head`] the survey found, read fast: its timestamp and
/// item, or its type and parsed payload; or `None` for the exact path.
pub fn line(s: &Bytes<'_, '_>, head: &Head<'_>, scratch: &mut Scratch) -> Option<(String, FastLine)> {
    let b = s.b;
    let p = head.payload;
    let timestamp = head.timestamp(s);
    let (kind, open) = (head.kind, p.0 as usize..p.1 as usize);
    if kind == "turn_context" {
        if let Some(model) = turn_context_model(s, open.start, &head.at, scratch) {
            return Some((timestamp, FastLine::TurnContext { payload: open, model }));
        }
    }
    if kind == "response_item" {
        if let Some(item) = item(s, open.start, &head.at, scratch) {
            return Some((timestamp, FastLine::Item(item)));
        }
    }
    if kind == "event_msg" {
        if let Some(event) = super::fast_events::event(s, open.clone(), &head.at, scratch) {
            return Some((timestamp, FastLine::Event(event)));
        }
    }
    // The payload alone: the split found no hazard in the line, so it
    // parses as it would within the line.
    match crate::json::build::from_slice(b.get(open)?) {
        Ok(Value::Object(p)) => Some((timestamp, FastLine::Payload(kind, p))),
        _ => None,
    }
}

/// The model the `turn_context` payload at `open` names, as
/// `usage::model_named` reads it: its string `model`, trimmed, unless
/// empty. `None` (the exact path reads it) when the payload has an `info`
/// or a `metadata` (which `model_named` looks into first), or a key is
/// escaped or repeated among those.
fn turn_context_model(s: &Bytes<'_, '_>, open: usize, at: &EndsCursor<'_>, scratch: &mut Scratch) -> Option<Option<String>> {
    read::members_at(s.b, open, &mut at.clone(), &mut scratch.payload)?;
    let f = Fields::find(s.b, &scratch.payload, [b"model", b"info", b"metadata"])?;
    if f.get(&scratch.payload, 1).is_some() || f.get(&scratch.payload, 2).is_some() {
        return None;
    }
    let model = f.get(&scratch.payload, 0).filter(|m| m.kind == Kind::String).map(|m| s.decoded(m));
    Some(model.map(|m| m.trim().to_string()).filter(|m| !m.is_empty()))
}

/// The `response_item` payload opening at `open` read fast, or `None`
/// (`at`: a cursor not past `open`).
fn item(s: &Bytes<'_, '_>, open: usize, at: &EndsCursor<'_>, scratch: &mut Scratch) -> Option<FastItem> {
    let b = s.b;
    read::members_at(b, open, &mut at.clone(), &mut scratch.payload)?;
    let p = std::mem::take(&mut scratch.payload);
    let item = (|| {
        let g = Fields::find(b, &p, PAYLOAD_FIELDS)?;
        let get = |k: usize| g.get(&p, k);
        match s.plain(get(TYPE))? {
            b"message" => {
                let role = s.decoded(get(ROLE).filter(|m| m.kind == Kind::String)?);
                let content = match get(CONTENT) {
                    None => Content::None,
                    Some(c) if c.kind == Kind::Array => Content::Parts(parts(s, c.value.start, at, scratch)?),
                    Some(_) => return None,
                };
                Some(FastItem::Message { role, content })
            }
            b"function_call" => {
                let function = s.decoded(get(NAME).filter(|m| m.kind == Kind::String)?);
                let id = s.decoded(get(CALL_ID).filter(|m| m.kind == Kind::String)?);
                let args = get(ARGUMENTS).filter(|m| m.kind == Kind::String)?;
                let text = s.out.text(args.inner(), args.escaped);
                scratch.decoded.clear();
                text.push_to(&mut scratch.decoded);
                if function.is_empty() || !fields::encodes_an_object(&scratch.decoded) {
                    return None;
                }
                let arguments = Arguments { value: Some(LazyValue::encoded_in(text.clone())), text: Some(text) };
                Some(FastItem::Call { function, id, arguments })
            }
            kind @ (b"function_call_output" | b"custom_tool_call_output") => {
                let kind = if kind == b"function_call_output" { "function_call_output" } else { "custom_tool_call_output" };
                let call_id = get(CALL_ID).filter(|m| m.kind == Kind::String).map(|m| s.decoded(m));
                let read = match get(OUTPUT) {
                    None => (Content::None, ToolStatus::Unknown, None),
                    Some(o) if o.kind == Kind::Null => (Content::None, ToolStatus::Unknown, None),
                    Some(o) if o.kind == Kind::String => {
                        if let Some(read) = super::shell::read(s.out.source(), o.inner(), &mut scratch.decoded) {
                            return Some(FastItem::Output { kind, call_id, read });
                        }
                        let text = s.out.text(o.inner(), o.escaped);
                        scratch.decoded.clear();
                        text.push_to(&mut scratch.decoded);
                        string_output(&scratch.decoded, || text)
                    }
                    Some(_) => return None,
                };
                Some(FastItem::Output { kind, call_id, read })
            }
            _ => None,
        }
    })();
    scratch.payload = p;
    item
}

/// A message's content items: `input_text`, `output_text` and `text` with
/// a string `text`, `input_image` with a string `image_url`; else `None`.
fn parts(s: &Bytes<'_, '_>, open: usize, at: &EndsCursor<'_>, scratch: &mut Scratch) -> Option<Vec<ContentPart>> {
    let b = s.b;
    read::items_at(b, open, &mut at.clone(), &mut scratch.items)?;
    let mut out = Vec::with_capacity(scratch.items.len());
    // The items in order: one cursor moves forward through their walks.
    let mut at = at.clone();
    for item in &scratch.items {
        read::members_at(b, item.start, &mut at, &mut scratch.part)?;
        let f = Fields::find(b, &scratch.part, [b"type", b"text", b"image_url"])?;
        let text = |k: usize| f.get(&scratch.part, k).filter(|m| m.kind == Kind::String).map(|m| s.out.text(m.inner(), m.escaped));
        out.push(match s.plain(f.get(&scratch.part, 0))? {
            b"input_text" | b"output_text" | b"text" => ContentPart::Text(text(1)?),
            b"input_image" => ContentPart::Image { url: text(2)? },
            _ => return None,
        });
    }
    Some(out)
}

/// [`super::items::mirror_keys`] of the payload whose members are `p`, read
/// from the bytes; `None` (parse it) for a repeated or escaped key or an
/// escaped `type` or `role`.
fn mirror_keys(s: &Bytes<'_, '_>, p: &[Member], at: &EndsCursor<'_>, scratch: &mut Scratch) -> Option<Surveyed> {
    let g = Fields::find(s.b, p, [b"type", b"role", b"content", b"summary"])?;
    let get = |k: usize| g.get(p, k);
    let mut keys = Vec::new();
    match get(0) {
        Some(t) if t.kind == Kind::String => match s.plain(Some(t))? {
            b"message" => {
                let who = match get(1).filter(|r| r.kind == Kind::String) {
                    Some(r) => match s.plain(Some(r))? {
                        b"user" => "user",
                        b"assistant" => "assistant",
                        _ => return Some(Surveyed::Nothing),
                    },
                    None => return Some(Surveyed::Nothing),
                };
                let mut texts = Vec::new();
                texts_of(s, get(2), at, scratch, &mut texts)?;
                if texts.len() > 1 {
                    keys.push((who, texts.join("\n")));
                }
                keys.extend(texts.into_iter().map(|t| (who, t)));
            }
            b"reasoning" => {
                let mut texts = Vec::new();
                texts_of(s, get(3), at, scratch, &mut texts)?;
                texts_of(s, get(2), at, scratch, &mut texts)?;
                keys.extend(texts.into_iter().map(|t| ("reasoning", t)));
            }
            _ => return Some(Surveyed::Nothing),
        },
        _ => return Some(Surveyed::Nothing),
    }
    Some(Surveyed::Mirrors(keys))
}

/// The string `text` of each object item of the list `m` (none when it is
/// not a list), decoded, appended to `out`; `None` for a repeated or
/// escaped key.
fn texts_of(s: &Bytes<'_, '_>, m: Option<&Member>, at: &EndsCursor<'_>, scratch: &mut Scratch, out: &mut Vec<String>) -> Option<()> {
    let Some(list) = m.filter(|m| m.kind == Kind::Array) else { return Some(()) };
    read::items_at(s.b, list.value.start, &mut at.clone(), &mut scratch.items)?;
    let mut at = at.clone();
    for item in &scratch.items {
        if s.b.get(item.start) != Some(&b'{') {
            continue;
        }
        read::members_at(s.b, item.start, &mut at, &mut scratch.part)?;
        let f = Fields::find(s.b, &scratch.part, [b"text"])?;
        if let Some(t) = f.get(&scratch.part, 0).filter(|t| t.kind == Kind::String) {
            out.push(s.decoded(t));
        }
    }
    Some(())
}
