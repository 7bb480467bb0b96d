//! An `llm` run record read with its `inputs.messages` left in the source
//! (see [`crate::import::history`]), and a `tool` run record with its
//! output text left there.

use std::ops::Range;

use serde_json::{Map, Value};

use crate::import::history::{messages_in_source, MessagesInSource};
use crate::import::{Builder, Input};
use crate::json::fields::{self, Fields};
use crate::json::read::{self, Kind};
use crate::json::scan;
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
}

/// The record at `r` read with its input messages left in the source, or
/// `None` (the record is then parsed whole). Only an `llm` run that
/// serde_json reads as it is, whose `inputs` object holds the list (a list
/// there is invalid, and a `null` in its place would not be); or a `tool`
/// run whose `outputs` is `{"output": "<text>"}`, which the rules and facts
/// read as `{}` (an object without usage) and the walk as that text.
pub fn read_run(out: &Builder, input: &Input, r: &Range<usize>) -> Option<(Map<String, Value>, Left)> {
    if !out.reads_fast(r) {
        return None;
    }
    let (b, ends) = (input.bytes, &input.split.ends);
    let mut members = Vec::new();
    read::members(b, scan::skip_ws(b, r.start), ends, &mut members)?;
    let f = Fields::find(b, &members, [b"run_type", b"inputs", b"outputs"])?;
    let kind = f.get(&members, 0).filter(|m| m.kind == Kind::String && !m.escaped)?;
    let (left, member, placeholder) = match b.get(kind.inner())? {
        b"llm" => {
            let inputs = f.get(&members, 1)?;
            let (without, at) = messages_in_source(b, ends, inputs, false)?;
            (Left { history: Some(at), output: None }, inputs, without)
        }
        b"tool" => {
            let outputs = f.get(&members, 2).filter(|m| m.kind == Kind::Object)?;
            let mut inner = Vec::new();
            read::members(b, outputs.value.start, ends, &mut inner)?;
            let [only] = inner.as_slice() else { return None };
            if only.key_escaped || b.get(only.key.clone())? != b"output" || only.kind != Kind::String {
                return None;
            }
            (Left { history: None, output: Some(out.text(only.inner(), only.escaped)) }, outputs, Value::Object(Map::new()))
        }
        _ => return None,
    };
    let mut placeholder = Some(placeholder);
    let o = fields::build_object(b, &members, |_, m| if m.value == member.value { placeholder.take() } else { None })?;
    Some((o, left))
}
