//! The Gemini CLI reader's fast path: a top-level message record read
//! straight from the bytes.
//!
//! `user` and `gemini` messages are nearly all of a session's bytes (the
//! kit's file: 9.7 of 10 MB): content texts, tool calls' `args`, and each
//! call's `result` (the `functionResponse` parts sent back), whose `output`
//! the tool-result event shows. Parsed whole into a `serde_json::Value`,
//! every record was built, then copied again into the model. Here a text
//! (`content`, a part's `text`, a result's `output` or `error`, a
//! `resultDisplay` string) stays in the source ([`crate::model::Text`]), a
//! call's `args` and an object `resultDisplay` stay there as
//! [`crate::model::LazyValue`]s, and a result event's metadata is left in
//! the source (shaped by [`super::emit::result_metadata`], which the exact
//! path calls too). The content of a user turn that mirrors tool results
//! (kept as a key-value event; 5.7 of the kit's 10 MB) stays in the source
//! too when no object in it may repeat a key (the split's `repeats`): its
//! line is then its bytes when they are compact, and a search looks at
//! them, without a parse. Only a part that is no text (an image, a `functionCall`, …) and
//! `tokens` are built, as the exact path builds them.
//!
//! Taken only when the record is plain (`Builder::can_defer_metadata`), the
//! keys read are neither escaped nor repeated, and the record would give
//! the exact path no diagnostic: a string `timestamp`, a `type` the reader
//! knows, `content` a string, a part or a list, `toolCalls` and `thoughts`
//! lists (or null), `tokens` an object (or null) of whole counts, and every
//! tool call an object with a string `id` and a non-empty string `name`.
//! Anything else returns `None` and the exact path parses the record.
//! tests/fast_paths/gemini_cli.rs holds the two paths to the same model.

use std::borrow::Cow;
use std::collections::HashSet;
use std::ops::Range;

use serde_json::Value;

use super::content;
use super::emit::{result_extra, result_metadata, Outcome, Read, DONE};
use super::slots::*;
use crate::import::Builder;
use crate::json::fields::Fields;
use crate::json::read::{self, Kind, Member};
use crate::json::{scan, ContainerEnds};
use crate::lazy_value::LazyValue;
use crate::model::{Arguments, Content, ContentPart, EventBody, KeyValue, Marker, Message, Text, ToolCall, Usage};

/// Buffers reused from record to record.
#[derive(Default)]
pub struct Scratch {
    inner: Vec<Member>,
    parts: Vec<Range<usize>>,
}

/// The bytes and what the split found in them.
struct Src<'r, 'a> {
    out: &'r Builder<'a>,
    b: &'a [u8],
    ends: &'r ContainerEnds,
    /// The split's objects that may repeat a key, sorted (`None`: not known).
    repeats: Option<&'r [usize]>,
}

impl Src<'_, '_> {
    fn text(&self, m: &Member) -> Text {
        self.out.text(m.inner(), m.escaped)
    }

    fn owned(&self, m: &Member) -> String {
        decoded(self.b, m.inner(), m.escaped)
    }

    /// A string member's text, `None` for another kind.
    fn string(&self, m: Option<&Member>) -> Option<Text> {
        m.filter(|m| m.kind == Kind::String).map(|m| self.text(m))
    }

    /// The value at `r`, built as the exact path builds it.
    fn value(&self, r: &Range<usize>) -> Option<Value> {
        crate::json::build::from_slice(self.b.get(r.clone())?).ok()
    }

    /// The value at `r` left in the source when no object in it may repeat
    /// a key (its line is then its bytes when they are compact, with no
    /// parse), else built.
    fn unrepeated(&self, r: &Range<usize>) -> Option<LazyValue> {
        let first = |rs: &[usize]| rs.get(rs.partition_point(|o| *o < r.start)).copied();
        match self.repeats.map(first) {
            Some(next) if next.is_none_or(|o| o >= r.end) => Some(LazyValue::in_source(self.out.source(), r.clone())),
            _ => Some(self.value(r)?.into()),
        }
    }

    /// The member `key` of the object at `open` (`Some(None)` when it has
    /// none); `None` when a key is escaped or `key` repeats.
    fn member(&self, open: usize, key: &[u8], buf: &mut Vec<Member>) -> Option<Option<Member>> {
        read::members(self.b, open, self.ends, buf)?;
        let f = Fields::find(self.b, buf, [key])?;
        Some(f.get(buf, 0).cloned())
    }

    /// Where the value of the first member of the object at `open` starts
    /// when its key is `key` as written and the split says no key of the
    /// object may repeat (`repeats` lists every object of two keys or more
    /// with an escaped or repeated key): then it is the object's only
    /// `key`, read without walking the rest (a part is
    /// `{"functionResponse": …}`, which begins with its `id`; a response is
    /// `{"output": …}`). `None`: walk it.
    fn first_value(&self, open: usize, key: &[u8]) -> Option<usize> {
        let b = self.b;
        if b.get(open) != Some(&b'{') || self.repeats?.binary_search(&open).is_ok() {
            return None;
        }
        let quote = scan::skip_ws(b, open + 1);
        let after = quote + 1 + key.len();
        if b.get(quote) != Some(&b'"') || b.get(quote + 1..after)? != key || b.get(after) != Some(&b'"') {
            return None;
        }
        let colon = scan::skip_ws(b, after + 1);
        (b.get(colon) == Some(&b':')).then(|| scan::skip_ws(b, colon + 1))
    }

    /// [`Src::first_value`] when it is an object: where it opens.
    fn first_object(&self, open: usize, key: &[u8]) -> Option<usize> {
        self.first_value(open, key).filter(|&v| self.b.get(v) == Some(&b'{'))
    }

    /// [`Src::first_value`] when it is a string, as a member.
    fn first_string(&self, open: usize, key: &[u8]) -> Option<Member> {
        let start = self.first_value(open, key).filter(|&v| self.b.get(v) == Some(&b'"'))?;
        let (end, escaped) = self.ends.string_at(start).or_else(|| read::string_end(self.b, start))?;
        Some(Member { key: 0..0, key_escaped: false, value: start..end, kind: Kind::String, escaped })
    }
}

/// The message record the plan read (`record`, its tool calls `calls`)
/// read fast, as the exact path would read it (`loaded`: in the
/// conversation the loader returns), or `None`.
#[allow(clippy::too_many_arguments)]
pub fn message(
    out: &Builder,
    (ends, repeats): (&ContainerEnds, Option<&[usize]>),
    record: &RecordSlots,
    calls_read: Option<&[CallSlots]>,
    loaded: bool,
    call_ids: &HashSet<String>,
    s: &mut Scratch,
) -> Option<Read> {
    let src = Src { out, b: out.bytes(), ends, repeats };
    let fields = record.fields.map(|f| f.map(|f| f.member()));
    let read = {
        let get = |k: usize| fields.get(k).and_then(Option::as_ref);
        let time = src.owned(get(TIMESTAMP).filter(|m| m.kind == Kind::String)?);
        let kind = src.owned(get(TYPE).filter(|m| m.kind == Kind::String)?);
        let content = get(CONTENT);
        let calls = match get(TOOL_CALLS) {
            None => None,
            Some(m) if m.kind == Kind::Null => None,
            Some(m) if m.kind == Kind::Array => Some(calls_read),
            Some(_) => return None,
        };
        let thoughts = match get(THOUGHTS) {
            None => None,
            Some(m) if m.kind == Kind::Null => None,
            Some(m) if m.kind == Kind::Array => Some(m.value.start),
            Some(_) => return None,
        };
        let usage = match get(TOKENS) {
            None => None,
            Some(m) if m.kind == Kind::Null => None,
            Some(m) if m.kind == Kind::Object => match counts(&src, m, &mut s.inner) {
                Some(usage) => Some(usage),
                None => {
                    let mut bad = Vec::new();
                    let usage = content::usage(Some(&src.value(&m.value)?), &mut bad);
                    // Bad counts are reported where counted: the exact path's.
                    if !bad.is_empty() && kind == "gemini" && loaded {
                        return None;
                    }
                    usage
                }
            },
            Some(_) => return None,
        };
        let model = src.string(get(MODEL)).map(|t| t.decoded().into_owned()).filter(|m| !m.is_empty());
        let (body, outcomes) = match kind.as_str() {
            "user" => (user(&src, content, call_ids, s)?, Vec::new()),
            "gemini" => {
                let reasoning = match thoughts {
                    Some(open) => thoughts_of(&src, open, s)?,
                    None => Vec::new(),
                };
                let c = content::with_thoughts(reasoning, content_of(&src, content, s)?);
                let (tool_calls, outcomes) = match calls {
                    // A list with an item that is no object: the exact path reads it.
                    Some(read) => tool_calls(&src, read?, !loaded, s)?,
                    None => (Vec::new(), Vec::new()),
                };
                (EventBody::Message(Message { role: "assistant".to_string(), content: c, tool_calls }), outcomes)
            }
            "info" | "warning" | "error" => {
                let c = content_of(&src, content, s)?;
                let label = format!("{kind}: {}", crate::view::truncate(&content::marker_text(&c), 300));
                (EventBody::Marker(Marker { label }), Vec::new())
            }
            _ => return None,
        };
        let usage = if kind == "gemini" && loaded { usage } else { None };
        Read { kind, time: Some(time), body, usage, model, outcomes }
    };
    Some(read)
}

/// `tokens` read from the bytes when every count `content::usage` reads is
/// absent, `null` or a plain whole number (digits only, below `u64::MAX`):
/// the counts of nearly every `gemini` message, which were built into a map
/// each. `None` for anything else (the map is built and read then).
fn counts(src: &Src, m: &Member, buf: &mut Vec<Member>) -> Option<Usage> {
    read::members(src.b, m.value.start, src.ends, buf)?;
    let f = Fields::find(src.b, buf, [b"input", b"output", b"cached", b"thoughts", b"total"])?;
    let n = |k: usize| -> Option<u64> {
        match f.get(buf, k) {
            None => Some(0),
            Some(m) if m.kind == Kind::Null => Some(0),
            Some(m) => {
                let digits = src.b.get(m.value.clone()).filter(|d| (1..=19).contains(&d.len()) && d.iter().all(u8::is_ascii_digit))?;
                std::str::from_utf8(digits).ok()?.parse().ok()
            }
        }
    };
    Some(Usage {
        input_tokens: n(0)?,
        output_tokens: n(1)?,
        cache_read_input_tokens: n(2)?,
        cache_creation_input_tokens: 0,
        reasoning_output_tokens: n(3)?,
        total_tokens: n(4)?,
    })
}

/// A message's `content` (a member that is no string, part or list of
/// parts gives a diagnostic: `None`).
fn content_of(src: &Src, m: Option<&Member>, s: &mut Scratch) -> Option<Content> {
    let Some(m) = m else { return Some(Content::None) };
    match m.kind {
        Kind::String => Some(Content::Text(src.text(m))),
        Kind::Object => Some(Content::Parts(vec![part(src, &m.value, &mut s.inner)?])),
        Kind::Array => {
            read::items(src.b, m.value.start, src.ends, &mut s.parts)?;
            let items = std::mem::take(&mut s.parts);
            let parts: Option<Vec<ContentPart>> = items.iter().map(|r| part(src, r, &mut s.inner)).collect();
            s.parts = items;
            Some(Content::Parts(parts?))
        }
        _ => None,
    }
}

/// One part (see `content::part`): a string, or an object with a string
/// `text`, stays in the source; any other part is built and read by the
/// exact path's `part`.
fn part(src: &Src, r: &Range<usize>, buf: &mut Vec<Member>) -> Option<ContentPart> {
    match src.b.get(r.start) {
        Some(b'"') => {
            let (end, escaped) = read::string_end(src.b, r.start)?;
            return Some(ContentPart::Text(src.out.text(r.start + 1..end - 1, escaped)));
        }
        Some(b'{') => {
            read::members(src.b, r.start, src.ends, buf)?;
            let f = Fields::find(src.b, buf, [b"text", b"thought"])?;
            if let Some(t) = src.string(f.get(buf, 0)) {
                let thought = f.get(buf, 1).is_some_and(|m| src.b.get(m.value.clone()) == Some(b"true"));
                return Some(if thought { ContentPart::Reasoning(t) } else { ContentPart::Text(t) });
            }
        }
        _ => {}
    }
    Some(content::part(&src.value(r)?))
}

/// A user message (see `Emitter::user`): one made only of
/// `functionResponse` parts answering recorded calls is kept whole as a
/// key-value event.
fn user(src: &Src, m: Option<&Member>, call_ids: &HashSet<String>, s: &mut Scratch) -> Option<EventBody> {
    if let Some(list) = m.filter(|m| m.kind == Kind::Array) {
        read::items(src.b, list.value.start, src.ends, &mut s.parts)?;
        let mut mirrors = !s.parts.is_empty();
        for item in &s.parts {
            if !mirrors {
                break;
            }
            mirrors = answers_a_call(src, item.start, call_ids, &mut s.inner)?;
        }
        if mirrors {
            return Some(EventBody::KeyValue(KeyValue { key: "function responses".to_string(), value: src.unrepeated(&list.value)? }));
        }
    }
    Some(EventBody::Message(Message { role: "user".to_string(), content: content_of(src, m, s)?, tool_calls: Vec::new() }))
}

/// True when the part at `open` is `{"functionResponse": {"id": …}}` with
/// the id of a recorded call.
fn answers_a_call(src: &Src, open: usize, call_ids: &HashSet<String>, buf: &mut Vec<Member>) -> Option<bool> {
    if src.b.get(open) != Some(&b'{') {
        return Some(false);
    }
    let response = match src.first_object(open, b"functionResponse") {
        Some(start) => start,
        None => match src.member(open, b"functionResponse", buf)?.filter(|m| m.kind == Kind::Object) {
            Some(m) => m.value.start,
            None => return Some(false),
        },
    };
    let id = match src.first_string(response, b"id") {
        Some(id) => Some(id),
        None => src.member(response, b"id", buf)?,
    };
    let known = |m: &Member| call_ids.contains(&*crate::json::string::decode_literal(src.b.get(m.inner()).unwrap_or_default(), m.escaped));
    Some(id.is_some_and(|m| m.kind == Kind::String && known(&m)))
}


/// The thoughts as one reasoning part (see `content::thoughts`).
fn thoughts_of(src: &Src, open: usize, s: &mut Scratch) -> Option<Vec<ContentPart>> {
    read::items(src.b, open, src.ends, &mut s.parts)?;
    let mut pairs = Vec::with_capacity(s.parts.len());
    for item in &s.parts {
        if src.b.get(item.start) != Some(&b'{') {
            pairs.push((Cow::Borrowed(""), Cow::Borrowed("")));
            continue;
        }
        read::members(src.b, item.start, src.ends, &mut s.inner)?;
        let f = Fields::find(src.b, &s.inner, [b"subject", b"description"])?;
        let text = |k: usize| src.string(f.get(&s.inner, k)).map(|t| Cow::Owned(t.decoded().into_owned())).unwrap_or(Cow::Borrowed(""));
        pairs.push((text(0), text(1)));
    }
    Some(content::thoughts_of(pairs))
}

/// A `gemini` message's tool calls (where the plan found their members)
/// and what each says of its result.
fn tool_calls(src: &Src, read: &[CallSlots], abandoned: bool, s: &mut Scratch) -> Option<(Vec<ToolCall>, Vec<Outcome>)> {
    let mut calls = Vec::with_capacity(read.len());
    let mut outcomes = Vec::with_capacity(read.len());
    for one in read {
        let fields = one.fields.map(|f| f.map(|f| f.member()));
        let r = &one.call;
        let (c, o) = {
            let get = |k: usize| fields.get(k).and_then(Option::as_ref);
            let id = src.owned(get(ID).filter(|m| m.kind == Kind::String)?);
            let name = src.owned(get(NAME).filter(|m| m.kind == Kind::String)?);
            if name.is_empty() {
                return None;
            }
            let status = get(STATUS).filter(|m| m.kind == Kind::String).map(|m| src.text(m).decoded().into_owned()).unwrap_or_default();
            let result = get(RESULT).filter(|m| m.kind != Kind::Null);
            let outcome = if !DONE.contains(&status.as_str()) && result.is_none() {
                Outcome::Pending
            } else {
                let content = tool_result(src, result, get(RESULT_DISPLAY), s)?;
                Outcome::Done {
                    range: r.clone(),
                    call_id: Some(id.clone()),
                    status,
                    content,
                    time: src.string(get(CALL_TIMESTAMP)).map(|t| t.decoded().into_owned()),
                    agent: src.string(get(AGENT_ID)).map(|t| t.decoded().into_owned()),
                    metadata: src.out.metadata_in_source(r.clone(), result_metadata, result_extra(abandoned)),
                }
            };
            let arguments = Arguments { value: get(ARGS).map(|m| src.out.json(m.value.clone())), text: None };
            (ToolCall { id: Some(id), function: name, arguments, result: None }, outcome)
        };
        calls.push(c);
        outcomes.push(o);
    }
    Some((calls, outcomes))
}

/// A call's result (see `content::tool_result`): each `functionResponse`'s
/// `output` (or `error`) text left in the source, other parts as parts;
/// without a result, its `resultDisplay`.
fn tool_result(src: &Src, result: Option<&Member>, display: Option<&Member>, s: &mut Scratch) -> Option<Content> {
    let one = |r: &Range<usize>, buf: &mut Vec<Member>| -> Option<ContentPart> {
        if let Some(t) = response_text(src, r.start, buf)? {
            return Some(ContentPart::Text(t));
        }
        Some(content::part(&src.value(r)?))
    };
    match result {
        Some(m) if m.kind == Kind::Array => {
            read::items(src.b, m.value.start, src.ends, &mut s.parts)?;
            if !s.parts.is_empty() {
                let items = std::mem::take(&mut s.parts);
                let parts: Option<Vec<ContentPart>> = items.iter().map(|r| one(r, &mut s.inner)).collect();
                s.parts = items;
                return Some(Content::Parts(parts?));
            }
        }
        Some(m) if m.kind == Kind::Object => return Some(Content::Parts(vec![one(&m.value, &mut s.inner)?])),
        Some(m) if m.kind == Kind::String => return Some(Content::Text(src.text(m))),
        _ => {}
    }
    Some(match display {
        Some(m) if m.kind == Kind::String => Content::Text(src.text(m)),
        Some(m) if m.kind == Kind::Object => Content::Json(src.out.json(m.value.clone())),
        _ => Content::None,
    })
}

/// `functionResponse.response.output` (else `.error`) of the part at
/// `open` when it is a string (`Some(None)`: the part has none).
fn response_text(src: &Src, open: usize, buf: &mut Vec<Member>) -> Option<Option<Text>> {
    if src.b.get(open) != Some(&b'{') {
        return Some(None);
    }
    let f = match src.first_object(open, b"functionResponse") {
        Some(start) => start,
        None => match src.member(open, b"functionResponse", buf)?.filter(|m| m.kind == Kind::Object) {
            Some(m) => m.value.start,
            None => return Some(None),
        },
    };
    let Some(r) = src.member(f, b"response", buf)?.filter(|m| m.kind == Kind::Object) else { return Some(None) };
    // A string `output` that is the response's only one is chosen whatever follows it.
    if let Some(output) = src.first_string(r.value.start, b"output") {
        return Some(src.string(Some(&output)));
    }
    read::members(src.b, r.value.start, src.ends, buf)?;
    let g = Fields::find(src.b, buf, [b"output", b"error"])?;
    let chosen = g.get(buf, 0).or_else(|| g.get(buf, 1));
    Some(src.string(chosen))
}
