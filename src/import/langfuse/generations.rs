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
use super::validate;
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
    /// When members nothing reads were not built ([`to_build`]): the rules
    /// they passed by their kind (bits by `validate::observation_rule`).
    pub unbuilt: Option<u64>,
}

/// The members of an observation that something reads besides the rules:
/// the reader's tests of what a record is (`reader::is_*`), the walk
/// (`tree.rs`) and the facts (`facts.rs`). A tool's `metadata` too.
const READ: [&[u8]; 31] = [
    b"id", b"traceId", b"type", b"name", b"parentObservationId", b"startTime", b"endTime", b"level", b"statusMessage", b"model",
    b"usageDetails", b"usage", b"costDetails", b"promptTokens", b"completionTokens", b"totalTokens", b"calculatedTotalCost",
    b"calculatedInputCost", b"calculatedOutputCost", b"totalCost", b"inputCost", b"outputCost", b"input", b"output",
    b"trace", b"observations", b"timestamp", b"htmlPath", b"spanId", b"meta", b"data",
];

/// Of an observation's members, those to build into its value, and the
/// rules the others pass by their kind alone (bits by
/// `validate::observation_rule`): a member nothing reads is not built when
/// its rule asks no more than its kind (`environment`, `projectId`,
/// `modelParameters`, the nulls: a third of a generation's members), nor is
/// a list or object left in the source with `null` in its place. `None`
/// when a key read or ruled appears twice (serde_json keeps the last copy:
/// the record is read the exact way).
fn to_build<'m>(b: &[u8], members: &'m [Member], placeholders: &[(&Member, Value)], tool: bool) -> Option<(Vec<&'m Member>, u64)> {
    let (mut read_seen, mut rule_seen, mut passed) = (0u64, 0u64, 0u64);
    let bit = |i: usize| u32::try_from(i).ok().and_then(|i| 1u64.checked_shl(i));
    let mut kept = Vec::with_capacity(members.len());
    for m in members {
        let key = b.get(m.key.clone())?;
        let read = READ.iter().position(|k| *k == key);
        let rule = validate::observation_rule(key);
        for (seen, at) in [(&mut read_seen, read), (&mut rule_seen, rule)] {
            if let Some(i) = at {
                let bit = bit(i)?;
                if *seen & bit != 0 {
                    return None;
                }
                *seen |= bit;
            }
        }
        let needed = match placeholders.iter().find(|(at, _)| at.value == m.value) {
            Some((_, v)) => !v.is_null(),
            None => read.is_some() || (tool && key == b"metadata"),
        };
        match rule {
            Some(i) if !needed && validate::passes_by_kind(i, m.kind) => passed |= bit(i)?,
            None if !needed => {}
            _ => kept.push(m),
        }
    }
    Some((kept, passed))
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
    let tool = b.get(kind.inner())? == b"TOOL";
    let mut left = match b.get(kind.inner())? {
        b"GENERATION" => {
            let input = f.get(members, 1)?;
            let (placeholder, at) = messages_in_source(b, ends, input, true)?;
            left_out.push((input, placeholder));
            let output = f.get(members, 2).filter(|m| m.kind == Kind::Object);
            if let Some(output) = output {
                left_out.push((output, Value::Null));
            }
            Left { history: Some(at), output: None, output_object: output.map(|m| m.value.clone()), unbuilt: None }
        }
        b"TOOL" => {
            let output = f.get(members, 2).filter(|m| m.kind == Kind::String)?;
            left_out.push((output, Value::Null));
            Left { history: None, output: Some(out.text(output.inner(), output.escaped)), output_object: None, unbuilt: None }
        }
        _ => return None,
    };
    let (kept, passed) = to_build(b, members, &left_out, tool)?;
    left.unbuilt = (kept.len() < members.len()).then_some(passed);
    let o = fields::build_object(b, kept, |_, m| left_out.iter_mut().find(|(at, _)| at.value == m.value).map(|(_, v)| std::mem::take(v)))?;
    Some((o, left))
}
