//! `gen_ai.input.messages` read item by item from its JSON text (see
//! [`crate::import::history`]): a chat span's input is the whole
//! conversation so far, as one string; the walk reads only the items after
//! those the previous such span of the trace sent, byte for byte.

use std::borrow::Cow;
use std::ops::Range;

use super::genai_schema::{check_item, item_failure, Kind};
use super::input_tail::{after_repeated, list_items, with_raw_ends, Item, Raw};
use super::messages::{genai_message, Msg, INPUT};
use super::output_reuse::LastOutput;
use super::tool_answers::ToolAnswers;
use crate::import::history::{value_of, Conversation, Sent};
use crate::json::fields::Fields;
use crate::json::read::{self, Kind as JsonKind};
use crate::json::{scan, ContainerEnds};

/// The input texts of the spans of the OTLP request at `record` (JSON
/// member names), as (span start, the string's contents, escaped), in
/// order: what the reader leaves out of the request's value
/// (`json::build::value_with_holes`) and in the source.
pub fn request_input_texts(b: &[u8], ends: &ContainerEnds, record: usize) -> Vec<(usize, Range<usize>, bool)> {
    let mut found = Vec::new();
    let (mut members, mut list) = (Vec::new(), Vec::new());
    // The list under `key`, when the reader takes the same one: no list of
    // the proto name (`proto`) beside it, the key not repeated.
    let mut each = |open: usize, key: &[u8], proto: &[u8], out: &mut Vec<Range<usize>>| -> Option<()> {
        read::members(b, open, ends, &mut members)?;
        let f = Fields::find(b, &members, [key, proto])?;
        if f.get(&members, 1).is_some() {
            return None;
        }
        let m = f.get(&members, 0).filter(|m| m.kind == JsonKind::Array)?.value.start;
        read::items(b, m, ends, &mut list)?;
        out.extend(list.iter().filter(|r| b.get(r.start) == Some(&b'{')).cloned());
        Some(())
    };
    let (mut resources, mut scopes, mut spans) = (Vec::new(), Vec::new(), Vec::new());
    if each(scan::skip_ws(b, record), b"resourceSpans", b"resource_spans", &mut resources).is_none() {
        return found;
    }
    // A list not taken adds no spans: nothing of it is left out.
    for rs in &resources {
        each(rs.start, b"scopeSpans", b"scope_spans", &mut scopes);
    }
    for ss in &scopes {
        each(ss.start, b"spans", b"spans", &mut spans);
    }
    for span in spans {
        if let Some((inner, escaped)) = input_text_at(b, ends, span.start) {
            found.push((span.start, inner, escaped));
        }
    }
    found
}

/// Where the string value of the span's `gen_ai.input.messages` attribute
/// is in the span object at `span` (the attribute `key_values` keeps: the
/// last of that key), as the string's contents and whether they hold an
/// escape; `None` when a byte-level reading could differ from serde_json's
/// (escaped or repeated keys) or the value is no plain `stringValue`.
pub fn input_text_at(b: &[u8], ends: &ContainerEnds, span: usize) -> Option<(Range<usize>, bool)> {
    let mut members = Vec::new();
    read::members(b, scan::skip_ws(b, span), ends, &mut members)?;
    let list = Fields::find(b, &members, [b"attributes"])?.get(&members, 0).filter(|m| m.kind == JsonKind::Array)?.value.start;
    let mut items = Vec::new();
    read::items(b, list, ends, &mut items)?;
    let (mut kv, mut value) = (Vec::new(), Vec::new());
    let mut found = None;
    for item in &items {
        if b.get(item.start) != Some(&b'{') {
            continue;
        }
        read::members(b, item.start, ends, &mut kv)?;
        let f = Fields::find(b, &kv, [b"key", b"value"])?;
        let key = f.get(&kv, 0).filter(|k| k.kind == JsonKind::String)?;
        if key.escaped {
            return None; // it might decode to the attribute's name
        }
        if b.get(key.inner()) != Some(INPUT.as_bytes()) {
            continue;
        }
        let v = f.get(&kv, 1).filter(|v| v.kind == JsonKind::Object)?;
        read::members(b, v.value.start, ends, &mut value)?;
        let g = Fields::find(b, &value, [b"stringValue", b"string_value"])?;
        let text = g.get(&value, 0).filter(|t| t.kind == JsonKind::String && g.get(&value, 1).is_none())?;
        found = Some((text.inner(), text.escaped));
    }
    found
}


/// The last span whose input text was read item by item.
#[derive(Default)]
pub struct LastInput<'s> {
    conversation: Conversation,
    /// Its text: the next span's, when that repeats its items, is this one
    /// cut after them with the rest appended ([`after_repeated`]).
    text: String,
    /// The bytes `text` was decoded from, and its items (where each ends in
    /// both): what the next span's input is compared with.
    raw: Raw<'s>,
    items: Vec<Item>,
    /// Its first item that breaks the schema.
    failure: Option<Failure>,
}

/// The first item of a list that breaks the schema, and why.
type Failure = (usize, String);

/// A span's input read item by item.
pub struct InputRead<'s> {
    pub sent: Sent<Msg>,
    text: String,
    raw: Raw<'s>,
    items: Vec<Item>,
    failure: Option<Failure>,
}

impl InputRead<'_> {
    /// What [`super::genai_schema::check`] says of the whole list.
    pub fn failure(&self) -> Option<String> {
        self.failure.as_ref().map(|(i, why)| item_failure(*i, why))
    }
}

impl<'s> LastInput<'s> {
    /// The input messages of a span whose `gen_ai.input.messages` is the
    /// string `raw`, after its `system` message; the text back when it is
    /// not a non-empty JSON list serde_json reads as the scanner does (the
    /// caller reads it whole). Only what follows the items it repeats of
    /// the last span's is decoded ([`after_repeated`]). The last span's
    /// text becomes this one's: until [`LastInput::remember`] is given the
    /// read, there is no last span (an error forgets it: the next span's
    /// input is read whole, as the first of a trace is).
    /// New items the last output's messages are (`reuse`) take them; tool
    /// answers re-sent as a tool span gave them are built from its result
    /// (`answers`).
    pub fn read(&mut self, raw: Raw<'s>, system: Option<Msg>, reuse: &mut LastOutput, answers: &ToolAnswers) -> Result<InputRead<'s>, Cow<'s, str>> {
        let mut text = std::mem::take(&mut self.text);
        let repeated = after_repeated(&mut text, self.raw, &self.items, raw, |rest, text| reuse.resent_in_literal(rest, text).or_else(|| answers.resent_in_literal(rest, text)));
        let (text, items, shared) = match repeated {
            Some((items, shared)) => (text, Some(items), shared),
            None => (raw.decoded().into_owned(), None, 0),
        };
        let items = items.or_else(|| whole_items(text.as_bytes()).map(|ranges| with_raw_ends(raw, ranges)));
        let read = items.and_then(|items| self.items(&text, &items, shared, system, reuse, answers).map(|(sent, failure)| (sent, items, failure)));
        match read {
            Some((sent, items, failure)) => Ok(InputRead { sent, text, raw, items, failure }),
            None => {
                *self = LastInput::default();
                Err(Cow::Owned(text))
            }
        }
    }

    /// `shared`: how many leading items are the last span's, byte for byte.
    fn items(&self, text: &str, items: &[Item], shared: usize, system: Option<Msg>, reuse: &mut LastOutput, answers: &ToolAnswers) -> Option<(Sent<Msg>, Option<Failure>)> {
        let ranges = items.iter().map(|(r, _)| r.clone()).collect();
        let mut failure = None;
        let sent = self.conversation.input_after_shared(shared, text.as_bytes(), ranges, system.into_iter().collect(), |i, item| {
            if let Some((m, verdict)) = reuse.take(item) {
                if failure.is_none() {
                    failure = verdict.map(|why| (i, why));
                }
                return Some(m);
            }
            let v = answers.value_of(item).unwrap_or_else(|| value_of(item));
            if failure.is_none() {
                failure = check_item(Kind::Input, &v).map(|why| (i, why));
            }
            Some(genai_message(v, "user"))
        })?;
        // The shared items were checked with the last span's, which they are.
        let failure = match &self.failure {
            Some((i, why)) if *i < sent.shared_items() => Some((*i, why.clone())),
            _ => failure,
        };
        Some((sent, failure))
    }

    /// Remembers `read`, given the chains its `sent.rest` got.
    pub fn remember(&mut self, read: &mut InputRead<'s>, chains: Vec<u64>) {
        if self.conversation.remember(&mut read.sent, chains) {
            self.text = std::mem::take(&mut read.text);
            self.raw = read.raw;
            self.items = std::mem::take(&mut read.items);
            self.failure = read.failure.take();
        }
    }
}

/// The items of `b` when it is a non-empty JSON list serde_json reads as
/// the scanner does.
fn whole_items(b: &[u8]) -> Option<Vec<Range<usize>>> {
    let items = list_items(b, scan::skip_ws(b, 0))?;
    (!items.is_empty()).then_some(items)
}
