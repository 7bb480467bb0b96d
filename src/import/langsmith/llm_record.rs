//! An `llm` run record read with its `inputs.messages` left in the source
//! (see [`crate::import::history`]).

use std::ops::Range;

use serde_json::{Map, Value};

use crate::import::history::{messages_in_source, MessagesInSource};
use crate::import::{Builder, Input};
use crate::json::fields::{self, Fields};
use crate::json::read::{self, Kind};
use crate::json::scan;

/// The record at `r` read with its input messages left in the source, or
/// `None` (the record is then parsed whole). Only an `llm` run that
/// serde_json reads as it is, whose `inputs` object holds the list (a list
/// there is invalid, and a `null` in its place would not be).
pub fn read_run(out: &Builder, input: &Input, r: &Range<usize>) -> Option<(Map<String, Value>, MessagesInSource)> {
    if !out.reads_fast(r) {
        return None;
    }
    let (b, ends) = (input.bytes, &input.split.ends);
    let mut members = Vec::new();
    read::members(b, scan::skip_ws(b, r.start), ends, &mut members)?;
    let f = Fields::find(b, &members, [b"run_type", b"inputs"])?;
    f.get(&members, 0).filter(|m| m.kind == Kind::String && !m.escaped && b.get(m.inner()) == Some(b"llm"))?;
    let inputs = f.get(&members, 1)?;
    let (without, at) = messages_in_source(b, ends, inputs, false)?;
    let mut without = Some(without);
    let o = fields::build_object(b, &members, |_, m| if m.value == inputs.value { without.take() } else { None })?;
    Some((o, at))
}
