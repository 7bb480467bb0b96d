//! The fast path of the SWE-agent reader: history items and trajectory
//! steps of the common shapes, read member by member from the bytes.
//!
//! Building each record as a `serde_json` map only to take it apart, and to
//! keep the members the model has no place for (`agent`, `thought`,
//! `action`, a step's `state`, the copies of the prompt in `query`) as the
//! event's metadata, was most of a parse. Here the texts stay in the source
//! ([`crate::model::Text`]), the metadata too (built when first read, by the
//! same `fn` the exact path calls: [`super::history::item_metadata`],
//! [`super::steps::step_metadata`]), and anything the exact path would
//! speak about (a wrong type, an argument string that is no JSON object, a
//! `state` string that is no JSON), or that a byte-level reader could
//! misread (a repeated or escaped key, a record serde_json reads otherwise),
//! returns `None` for the exact path to read. tests/fast_paths/swe_agent.rs
//! compares the two.

use std::ops::Range;

use super::super::pydantic_lax as lax;
use super::Reader;
use crate::json::fields::{self, Fields};
use crate::json::read::{self, Kind, Member};
use crate::json::scan;
use crate::model::{Arguments, Content, ContentPart, LazyValue, Text, ToolCall};

/// Buffers reused from record to record, one per level of nesting, so that
/// reading a record allocates only what the model keeps.
#[derive(Default)]
pub(super) struct Scratch {
    record: Vec<Member>,
    inner: Vec<Member>,
    function: Vec<Member>,
    items: Vec<Range<usize>>,
    /// A JSON-string argument or `state`, decoded to be checked.
    decoded: String,
}

/// What a history item's body holds besides its role and content.
pub(super) enum Answers {
    /// An assistant's (or any non-tool message's) calls.
    Calls(Vec<ToolCall>),
    /// A tool message's `tool_call_ids`, with their places in the list.
    Ids(Vec<(usize, String)>),
}

/// A history item read fast.
pub(super) struct FastItem {
    pub role: String,
    /// `message_type`, or "message".
    pub kind: String,
    pub content: Content,
    pub answers: Answers,
}

/// A trajectory step read fast.
pub(super) struct FastStep {
    /// `response`, else `thought`.
    pub content: Content,
    pub action: Option<Text>,
    pub duration_ms: Option<f64>,
    /// The observation's content and range.
    pub observation: Option<(Content, Range<usize>)>,
}

const ITEM_FIELDS: [&[u8]; 6] = [b"role", b"content", b"message_type", b"tool_calls", b"tool_call_ids", b"thinking_blocks"];
const STEP_FIELDS: [&[u8]; 6] = [b"action", b"observation", b"response", b"thought", b"execution_time", b"state"];

impl Reader<'_, '_> {
    /// The history item at `r`, read fast, or `None` for the exact path.
    pub(super) fn fast_item(&mut self, r: &Range<usize>) -> Option<FastItem> {
        self.with_members(r, Self::fast_item_in)
    }

    /// The trajectory step at `r`, read fast, or `None` for the exact path.
    pub(super) fn fast_step(&mut self, r: &Range<usize>) -> Option<FastStep> {
        self.with_members(r, Self::fast_step_in)
    }

    /// `read(members, scratch)` of the record at `r`, its members read from
    /// the bytes into the reader's scratch (kept for the next record), or
    /// `None` when the record is not read fast.
    fn with_members<T>(&mut self, r: &Range<usize>, read: impl FnOnce(&Self, &[Member], &mut Scratch) -> Option<T>) -> Option<T> {
        if !self.out.reads_fast(r) {
            return None;
        }
        let mut s = std::mem::take(&mut self.scratch);
        let out = read::members(self.b, scan::skip_ws(self.b, r.start), self.ends, &mut s.record).and_then(|_| {
            let members = std::mem::take(&mut s.record);
            let out = read(&*self, &members, &mut s);
            s.record = members;
            out
        });
        self.scratch = s;
        out
    }

    fn fast_item_in(&self, members: &[Member], s: &mut Scratch) -> Option<FastItem> {
        let b = self.b;
        let f = Fields::find(b, members, ITEM_FIELDS)?;
        let [role, content, kind, calls, ids, thinking] = [0, 1, 2, 3, 4, 5].map(|k| f.get(members, k));
        let role = self.decoded(role.filter(|m| m.kind == Kind::String)?);
        let kind = match kind {
            Some(m) if m.kind == Kind::String => self.decoded(m),
            _ => "message".to_string(),
        };
        let main = match content {
            None => Content::None,
            Some(m) => match m.kind {
                Kind::Null => Content::None,
                Kind::String => Content::Text(self.text(m)),
                Kind::Array => Content::Parts(fields::text_parts(b, self.ends, m.value.start)?.iter().map(|t| ContentPart::Text(self.text(t))).collect()),
                _ => return None,
            },
        };
        let mut parts = match thinking {
            None => Vec::new(),
            Some(m) if m.kind == Kind::Null => Vec::new(),
            Some(m) if m.kind == Kind::Array => self.thinking_blocks(m.value.start, s)?,
            Some(_) => return None,
        };
        let content = if parts.is_empty() {
            main
        } else {
            match main {
                Content::None => {}
                Content::Text(t) => parts.push(ContentPart::Text(t)),
                Content::Parts(p) => parts.extend(p),
                Content::Json(_) => return None,
            }
            Content::Parts(parts)
        };
        let answers = if role == "tool" {
            match ids {
                None => Answers::Ids(Vec::new()),
                Some(m) if m.kind == Kind::Null => Answers::Ids(Vec::new()),
                Some(m) if m.kind == Kind::Array => Answers::Ids(self.call_ids(m.value.start, s)?),
                Some(_) => return None,
            }
        } else {
            match calls {
                None => Answers::Calls(Vec::new()),
                Some(m) if m.kind == Kind::Null => Answers::Calls(Vec::new()),
                Some(m) if m.kind == Kind::Array => Answers::Calls(self.calls(m.value.start, s)?),
                Some(_) => return None,
            }
        };
        Some(FastItem { role, kind, content, answers })
    }

    /// `thinking_blocks`: each an object whose `thinking` is a string.
    fn thinking_blocks(&self, open: usize, s: &mut Scratch) -> Option<Vec<ContentPart>> {
        let b = self.b;
        read::items(b, open, self.ends, &mut s.items)?;
        let mut parts = Vec::with_capacity(s.items.len());
        for item in &s.items {
            read::members(b, item.start, self.ends, &mut s.inner)?;
            let f = Fields::find(b, &s.inner, [b"thinking"])?;
            parts.push(ContentPart::Reasoning(self.text(f.get(&s.inner, 0).filter(|m| m.kind == Kind::String)?)));
        }
        Some(parts)
    }

    /// `tool_call_ids`, every one a string.
    fn call_ids(&self, open: usize, s: &mut Scratch) -> Option<Vec<(usize, String)>> {
        let b = self.b;
        read::items(b, open, self.ends, &mut s.items)?;
        let mut ids = Vec::with_capacity(s.items.len());
        for (j, item) in s.items.iter().enumerate() {
            if b.get(item.start) != Some(&b'"') {
                return None;
            }
            let (_, escaped) = read::string_end(b, item.start)?;
            let inner = item.start + 1..item.end.saturating_sub(1).max(item.start + 1);
            ids.push((j, decode(b, inner, escaped)));
        }
        Some(ids)
    }

    /// `tool_calls`: every call an object whose `function` is an object
    /// naming it in a string `name`, with `arguments` absent, an object, or
    /// a string holding one.
    fn calls(&self, open: usize, s: &mut Scratch) -> Option<Vec<ToolCall>> {
        let b = self.b;
        read::items(b, open, self.ends, &mut s.items)?;
        let items = std::mem::take(&mut s.items);
        let calls = (|| {
            let mut calls = Vec::with_capacity(items.len());
            for item in &items {
                read::members(b, item.start, self.ends, &mut s.inner)?;
                let f = Fields::find(b, &s.inner, [b"id", b"function"])?;
                let id = f.get(&s.inner, 0).filter(|m| m.kind == Kind::String).map(|m| self.decoded(m));
                let function = f.get(&s.inner, 1).filter(|m| m.kind == Kind::Object)?;
                read::members(b, function.value.start, self.ends, &mut s.function)?;
                let g = Fields::find(b, &s.function, [b"name", b"arguments"])?;
                let name = self.decoded(g.get(&s.function, 0).filter(|m| m.kind == Kind::String)?);
                let arguments = match g.get(&s.function, 1) {
                    None => Arguments::default(),
                    Some(m) if m.kind == Kind::Object => Arguments { value: Some(self.out.json(m.value.clone())), text: None },
                    Some(m) if m.kind == Kind::String => {
                        let text = self.text(m);
                        s.decoded.clear();
                        text.push_to(&mut s.decoded);
                        // The exact path keeps what serde_json reads of it:
                        // for an object with no hazard, what the lazy value reads.
                        if !fields::encodes_an_object(&s.decoded) {
                            return None;
                        }
                        Arguments { value: Some(LazyValue::encoded_in(text.clone())), text: Some(text) }
                    }
                    Some(_) => return None,
                };
                calls.push(ToolCall { id, function: name, arguments, result: None });
            }
            Some(calls)
        })();
        s.items = items;
        calls
    }

    fn fast_step_in(&self, members: &[Member], s: &mut Scratch) -> Option<FastStep> {
        fn string(m: Option<&Member>) -> Option<&Member> {
            m.filter(|m| m.kind == Kind::String)
        }
        let b = self.b;
        let f = Fields::find(b, members, STEP_FIELDS)?;
        let [action, observation, response, thought, time, state] = [0, 1, 2, 3, 4, 5].map(|k| f.get(members, k));
        let content = match string(response).or(string(thought)) {
            Some(m) => Content::Text(self.text(m)),
            None => Content::None,
        };
        let action = match action {
            None => None,
            Some(m) if m.kind == Kind::Null => None,
            Some(m) if m.kind == Kind::String => Some(self.text(m)),
            Some(_) => return None,
        };
        let duration_ms = match time {
            None => None,
            Some(m) if m.kind == Kind::Null => None,
            Some(m) => Some(lax::float(&crate::json::build::value(b.get(m.value.clone())?)?).ok()? * 1000.0),
        };
        // 0.x writes the state as JSON text: the exact path says when it is not.
        if let Some(m) = string(state) {
            s.decoded.clear();
            self.text(m).push_to(&mut s.decoded);
            crate::json::build::from_str(&s.decoded).ok()?;
        }
        let observation = match observation {
            None => None,
            Some(m) if m.kind == Kind::Null => Some((Content::None, m.value.clone())),
            Some(m) if m.kind == Kind::String => Some((Content::Text(self.text(m)), m.value.clone())),
            Some(_) => return None,
        };
        Some(FastStep { content, action, duration_ms, observation })
    }

    /// A string member's text, left in the source.
    fn text(&self, m: &Member) -> Text {
        self.out.text(m.inner(), m.escaped)
    }

    /// A string member's text, decoded.
    fn decoded(&self, m: &Member) -> String {
        decode(self.b, m.inner(), m.escaped)
    }
}

/// The contents `inner` of a string literal, decoded (the record is valid
/// UTF-8 without lone surrogates, so this is serde_json's text). Most are
/// short (roles, ids, names): core's UTF-8 check is quicker on them than
/// a text left in the source and copied out.
fn decode(b: &[u8], inner: Range<usize>, escaped: bool) -> String {
    let raw = b.get(inner).unwrap_or_default();
    match (escaped, std::str::from_utf8(raw)) {
        (false, Ok(s)) => s.to_string(),
        _ => crate::json::string::decode_literal(raw, escaped).into_owned(),
    }
}
