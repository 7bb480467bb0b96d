//! An `llm` run record read with its `inputs.messages` left in the source
//! (see [`crate::import::history`]) and its `outputs.choices` too (their
//! messages read from the bytes by the walk), and a `tool` run record with
//! its output text left there.

use std::ops::Range;

use serde_json::{Map, Value};

use crate::import::history::{messages_in_source, MessagesInSource};
use crate::import::{Builder, Input};
use crate::json::fields::{self, Fields};
use crate::json::read::{self, Kind, Member};
use crate::json::{scan, ContainerEnds};
use crate::import::chat::Msg;
use crate::import::chat_bytes;
use crate::model::Text;

/// What the reader left in the source of one run.
#[derive(Default)]
pub struct Left {
    /// An `llm` run's input messages.
    pub history: Option<MessagesInSource>,
    /// A `tool` run's `outputs.output` string (`{}` stands in for its
    /// `outputs` in the value read: the tool outputs were most of the bytes
    /// the runs other than `llm` hold).
    pub output: Option<Text>,
    /// An `llm` run's `outputs.choices` (its `outputs` without them stand in).
    pub choices: Option<Choices>,
}

/// An `llm` run's `outputs` whose messages are its `choices[].message`:
/// where the outputs are (read whole when their messages are read the
/// exact way, and by the metadata), and where the list is.
#[derive(Clone)]
pub struct Choices {
    pub outputs: Range<usize>,
    pub list: Range<usize>,
}

/// The outputs object `m` without its `choices` list, when
/// `chat::messages` reads the messages of the list (no `type`, `role` or
/// other message list beside it; the rules and facts read the rest).
fn choices_in_source(b: &[u8], ends: &ContainerEnds, m: &Member) -> Option<(Value, Choices)> {
    if m.kind != Kind::Object {
        return None;
    }
    let mut inner = Vec::new();
    read::members(b, m.value.start, ends, &mut inner)?;
    let f = Fields::find(b, &inner, [b"choices", b"type", b"role", b"messages", b"contents", b"input"])?;
    let list = f.get(&inner, 0).filter(|c| c.kind == Kind::Array)?;
    if (1..6).any(|k| f.get(&inner, k).is_some()) {
        return None;
    }
    let without = fields::object_without(b, &inner, &[b"choices"])?;
    Some((Value::Object(without), Choices { outputs: m.value.clone(), list: list.value.clone() }))
}

/// The messages `chat::messages` reads of outputs with these `choices`
/// (each one's `message`, else its `delta`, when an object), read from the
/// bytes ([`chat_bytes::message`]); `None` when unsure (then read the
/// outputs whole).
pub fn choice_messages(out: &Builder, ends: &ContainerEnds, at: &Choices) -> Option<Option<Vec<Msg>>> {
    let b = out.bytes();
    let (mut items, mut members) = (Vec::new(), Vec::new());
    read::items(b, at.list.start, ends, &mut items)?;
    let mut msgs = Vec::with_capacity(items.len());
    for item in &items {
        if b.get(item.start) != Some(&b'{') {
            continue;
        }
        read::members(b, item.start, ends, &mut members)?;
        let f = Fields::find(b, &members, [b"message", b"delta"])?;
        match f.get(&members, 0).or_else(|| f.get(&members, 1)) {
            Some(m) if m.kind == Kind::Object => msgs.push(chat_bytes::message(out, ends, &m.value)?),
            _ => {}
        }
    }
    Some((!msgs.is_empty()).then_some(msgs))
}

/// The record at `r` read with its input messages left in the source, or
/// `None` (the record is then parsed whole). Only an `llm` run that
/// serde_json reads as it is, whose `inputs` object holds the list (a list
/// there is invalid, and a `null` in its place would not be); or a `tool`
/// run whose `outputs` is `{"output": "<text>"}`, which the rules and facts
/// read as `{}` (an object without usage) and the walk as that text. An
/// `llm` run's `outputs.choices` stay in the source too when
/// `chat::messages` reads the outputs by them ([`choices_in_source`]).
pub fn read_run(out: &Builder, input: &Input, r: &Range<usize>) -> Option<(Map<String, Value>, Left)> {
    if !out.reads_fast(r) {
        return None;
    }
    let (b, ends) = (input.bytes, &input.split.ends);
    let mut members = Vec::new();
    read::members(b, scan::skip_ws(b, r.start), ends, &mut members)?;
    let f = Fields::find(b, &members, [b"run_type", b"inputs", b"outputs"])?;
    let kind = f.get(&members, 0).filter(|m| m.kind == Kind::String && !m.escaped)?;
    // The members left in the source, and the values standing in for them.
    let mut left_out: Vec<(&Member, Value)> = Vec::with_capacity(2);
    let left = match b.get(kind.inner())? {
        b"llm" => {
            let inputs = f.get(&members, 1)?;
            let (without, at) = messages_in_source(b, ends, inputs, false)?;
            left_out.push((inputs, without));
            let choices = f.get(&members, 2).and_then(|m| Some((m, choices_in_source(b, ends, m)?)));
            let choices = choices.map(|(outputs, (placeholder, choices))| {
                left_out.push((outputs, placeholder));
                choices
            });
            Left { history: Some(at), output: None, choices }
        }
        b"tool" => {
            let outputs = f.get(&members, 2).filter(|m| m.kind == Kind::Object)?;
            let mut inner = Vec::new();
            read::members(b, outputs.value.start, ends, &mut inner)?;
            let [only] = inner.as_slice() else { return None };
            if only.key_escaped || b.get(only.key.clone())? != b"output" || only.kind != Kind::String {
                return None;
            }
            left_out.push((outputs, Value::Object(Map::new())));
            Left { history: None, output: Some(out.text(only.inner(), only.escaped)), choices: None }
        }
        _ => return None,
    };
    let o = fields::build_object(b, &members, |_, m| left_out.iter_mut().find(|(at, _)| at.value == m.value).map(|(_, v)| std::mem::take(v)))?;
    Some((o, left))
}
