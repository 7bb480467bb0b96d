//! Records read with their generations' input messages left in the source
//! (see [`crate::import::history`]): a trace's `observations`, or a lone
//! observation.

use std::ops::Range;

use serde_json::{Map, Value};

use crate::import::history::{messages_in_source, MessagesInSource};
use crate::import::{Builder, Input};
use crate::json::fields::{self, Fields};
use crate::json::read::{self, Kind, Member};
use crate::json::{scan, ContainerEnds};

/// The record at `r` as serde_json reads it, but for the input messages of
/// its generations, left in the source: those of its `observations` (by
/// index), or its own when it is one. `None` when the record is no plain
/// record (`Builder::reads_fast`) or holds no such generation: it is then
/// parsed whole.
pub fn read_record(out: &Builder, input: &Input, r: &Range<usize>) -> Option<(Value, Vec<Option<MessagesInSource>>)> {
    if !out.reads_fast(r) {
        return None;
    }
    let (b, ends) = (input.bytes, &input.split.ends);
    let mut members = Vec::new();
    read::members(b, scan::skip_ws(b, r.start), ends, &mut members)?;
    let f = Fields::find(b, &members, [b"observations"])?;
    let Some(list) = f.get(&members, 0) else {
        let (o, at) = generation(b, ends, &members)?;
        return Some((Value::Object(o), vec![Some(at)]));
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
            generation(b, ends, &item_members)
        } else {
            None
        };
        match read {
            Some((o, at)) => {
                values.push(Value::Object(o));
                found.push(Some(at));
            }
            None => {
                values.push(crate::json::build::value(b.get(item.clone())?)?);
                found.push(None);
            }
        }
    }
    if found.iter().all(Option::is_none) {
        return None;
    }
    let mut list_value = Some(Value::Array(values));
    let o = fields::build_object(b, &members, |_, m| if m.value == list.value { list_value.take() } else { None })?;
    Some((Value::Object(o), found))
}

/// A `GENERATION` observation whose `input` holds a list of messages, read
/// without it (`null`, or the object without its `messages`, in its place:
/// no rule or fact reads it).
fn generation(b: &[u8], ends: &ContainerEnds, members: &[Member]) -> Option<(Map<String, Value>, MessagesInSource)> {
    let f = Fields::find(b, members, [b"type", b"input"])?;
    f.get(members, 0).filter(|m| m.kind == Kind::String && !m.escaped && b.get(m.inner()) == Some(b"GENERATION"))?;
    let input = f.get(members, 1)?;
    let (placeholder, at) = messages_in_source(b, ends, input, true)?;
    let mut placeholder = Some(placeholder);
    let o = fields::build_object(b, members, |_, m| if m.value == input.value { placeholder.take() } else { None })?;
    Some((o, at))
}
