//! Records read with their generations' input messages left in the source
//! (see [`crate::import::history`]), and their tool observations' output
//! texts: a trace's `observations`, or a lone observation.

use std::ops::Range;

use serde_json::{Map, Value};

use crate::import::history::{messages_in_source, MessagesInSource};
use crate::import::{Builder, Input};
use crate::model::Text;
use crate::json::fields::{self, Fields};
use crate::json::read::{self, Kind, Member};
use crate::json::{scan, ContainerEnds};

/// What the reader left in the source of one observation.
#[derive(Default)]
pub struct Left {
    /// A generation's input messages (see [`crate::import::history`]).
    pub history: Option<MessagesInSource>,
    /// A tool observation's `output` string (`null` stands in for it in the
    /// value read: it was a tool output copied, most of the bytes a trace's
    /// tool observations hold).
    pub output: Option<Text>,
    /// A generation's `output` object (`null` stands in for it; the walk
    /// reads its message from the bytes).
    pub output_object: Option<Range<usize>>,
}

/// The record at `r` as serde_json reads it, but for the input messages of
/// its generations and the output texts of its tools, left in the source:
/// those of its `observations` (by index), or its own when it is one.
/// `None` when the record is no plain record (`Builder::reads_fast`) or
/// holds no such observation: it is then parsed whole.
pub fn read_record(out: &Builder, input: &Input, r: &Range<usize>) -> Option<(Value, Vec<Left>)> {
    if !out.reads_fast(r) {
        return None;
    }
    let (b, ends) = (input.bytes, &input.split.ends);
    let mut members = Vec::new();
    read::members(b, scan::skip_ws(b, r.start), ends, &mut members)?;
    let f = Fields::find(b, &members, [b"observations"])?;
    let Some(list) = f.get(&members, 0) else {
        let (o, left) = observation(out, ends, &members)?;
        return Some((Value::Object(o), vec![left]));
    };
    if list.kind != Kind::Array {
        return None;
    }
    let mut items = Vec::new();
    read::items(b, list.value.start, ends, &mut items)?;
    let (mut values, mut found) = (Vec::with_capacity(items.len()), Vec::with_capacity(items.len()));
    let mut item_members = Vec::new();
    for item in &items {
        let read = if b.get(item.start) == Some(&b'{') {
            read::members(b, item.start, ends, &mut item_members)?;
            observation(out, ends, &item_members)
        } else {
            None
        };
        match read {
            Some((o, left)) => {
                values.push(Value::Object(o));
                found.push(left);
            }
            None => {
                values.push(crate::json::build::value(b.get(item.clone())?)?);
                found.push(Left::default());
            }
        }
    }
    if found.iter().all(|l| l.history.is_none() && l.output.is_none() && l.output_object.is_none()) {
        return None;
    }
    let mut list_value = Some(Value::Array(values));
    let o = fields::build_object(b, &members, |_, m| if m.value == list.value { list_value.take() } else { None })?;
    Some((Value::Object(o), found))
}

/// A `GENERATION` observation whose `input` holds a list of messages, read
/// without it (`null`, or the object without its `messages`, in its place:
/// no rule or fact reads it); a `TOOL` observation whose `output` is a
/// string, read with `null` in its place (the rules only ask that it is
/// there; the walk reads the text).
fn observation(out: &Builder, ends: &ContainerEnds, members: &[Member]) -> Option<(Map<String, Value>, Left)> {
    let b = out.bytes();
    let f = Fields::find(b, members, [b"type", b"input", b"output"])?;
    let kind = f.get(members, 0).filter(|m| m.kind == Kind::String && !m.escaped)?;
    // The members left in the source, and the values standing in for them.
    let mut left_out: Vec<(&Member, Value)> = Vec::with_capacity(2);
    let left = match b.get(kind.inner())? {
        b"GENERATION" => {
            let input = f.get(members, 1)?;
            let (placeholder, at) = messages_in_source(b, ends, input, true)?;
            left_out.push((input, placeholder));
            let output = f.get(members, 2).filter(|m| m.kind == Kind::Object);
            if let Some(output) = output {
                left_out.push((output, Value::Null));
            }
            Left { history: Some(at), output: None, output_object: output.map(|m| m.value.clone()) }
        }
        b"TOOL" => {
            let output = f.get(members, 2).filter(|m| m.kind == Kind::String)?;
            left_out.push((output, Value::Null));
            Left { history: None, output: Some(out.text(output.inner(), output.escaped)), output_object: None }
        }
        _ => return None,
    };
    let o = fields::build_object(b, members, |_, m| left_out.iter_mut().find(|(at, _)| at.value == m.value).map(|(_, v)| std::mem::take(v)))?;
    Some((o, left))
}
