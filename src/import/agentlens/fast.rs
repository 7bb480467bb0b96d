//! The AgentLens reader's fast path: an event read from the bytes, its big
//! members left in the source.
//!
//! Tool outputs are most of an AgentLens file (the kit's: 6.6 of 10 MB),
//! inputs and outputs much of the rest. The exact path parsed every event
//! into a `serde_json::Value`, then copied its output into the model (a
//! tool result's JSON, a response text) and its tool input (the call's
//! arguments): three quarters of a parse, and twice the file in memory.
//! Here an event's `input_data` and `output_data` objects and its tool
//! call's `tool_input` and `tool_output` objects are not built: each stays
//! in the source as a [`crate::model::LazyValue`], with the string its
//! summary reads (`{"response": "…"}`) as a [`Text`] in the source. Of the
//! rest, only the members the reader looks at are built (`record.rs`; the
//! rest is the event's metadata, left in the source too), with `{}` in place
//! of those objects, and they go through the exact path's checks and
//! placing (`Reader::place`): the checks look at those objects' kinds only,
//! so diagnostics, events and facts are the exact path's.
//!
//! Taken when the record is plain (`Builder::reads_fast`: no `NaN`, lone
//! surrogate or other hazard, valid UTF-8), is an object, no key of it or
//! of its tool call is escaped, none of the members read is repeated, and
//! each object left in the source has plainly written keys, those its
//! summary looks at unrepeated. Anything else returns `None` and the exact
//! path parses the record. tests/fast_paths.rs holds the two paths to the
//! same model.

use std::ops::Range;

use serde_json::{Map, Value};

use super::body::{Piece, Pieces, TEXT_KEYS};
use super::record::{CALL_MEMBERS, EVENT_MEMBERS, INPUT_DATA, OUTPUT_DATA, TOOL_CALL, TOOL_INPUT, TOOL_OUTPUT};
use super::Reader;
use crate::json::fields::Fields;
use crate::json::read::{self, Kind, Member};
use crate::json::{build, scan};
use crate::model::Text;

/// Buffers reused from event to event, one per level.
#[derive(Default)]
pub(super) struct Scratch {
    event: Vec<Member>,
    call: Vec<Member>,
    object: Vec<Member>,
}

/// An event read fast: the members the reader looks at (by the indices of
/// `record::EVENT_MEMBERS`), its tool call's (`record::CALL_MEMBERS`) when
/// it is an object, with `{}` in place of the objects left in the source,
/// and those objects.
pub(super) struct Read {
    pub event: [Option<Value>; 12],
    pub call: Option<[Option<Value>; 6]>,
    pub in_source: Pieces<'static>,
}

/// A member whose value is an object: left in the source.
fn is_object(m: Option<&Member>) -> Option<&Member> {
    m.filter(|m| m.kind == Kind::Object)
}

fn empty_object() -> Option<Value> {
    Some(Value::Object(Map::new()))
}

impl Reader<'_, '_> {
    /// The event at `r`, read fast, or `None` for the exact path to read.
    pub(super) fn fast_event(&mut self, r: &Range<usize>) -> Option<Read> {
        if !self.out.reads_fast(r) {
            return None;
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        let read = self.fast_event_in(r, &mut scratch);
        self.scratch = scratch;
        read
    }

    fn fast_event_in(&self, r: &Range<usize>, s: &mut Scratch) -> Option<Read> {
        let b = self.b;
        let start = scan::skip_ws(b, r.start);
        if b.get(start) != Some(&b'{') {
            return None;
        }
        read::members(b, start, self.ends, &mut s.event)?;
        let f = Fields::find(b, &s.event, EVENT_MEMBERS.map(str::as_bytes))?;
        let mut read = Read { event: Default::default(), call: None, in_source: Pieces::default() };
        if let Some(c) = is_object(f.get(&s.event, TOOL_CALL)) {
            read::members(b, c.value.start, self.ends, &mut s.call)?;
            let g = Fields::find(b, &s.call, CALL_MEMBERS.map(str::as_bytes))?;
            let mut call: [Option<Value>; 6] = Default::default();
            for (k, slot) in call.iter_mut().enumerate() {
                let Some(m) = g.get(&s.call, k) else { continue };
                *slot = match k {
                    TOOL_INPUT if m.kind == Kind::Object => {
                        read.in_source.tool_input = Some(Piece::InSource { json: self.out.json(m.value.clone()), telling: None });
                        empty_object()
                    }
                    TOOL_OUTPUT if m.kind == Kind::Object => {
                        read.in_source.tool_output = Some(self.in_source(m, &mut s.object)?);
                        empty_object()
                    }
                    _ => Some(build::value(b.get(m.value.clone())?)?),
                };
            }
            read.call = Some(call);
        }
        for (k, slot) in read.event.iter_mut().enumerate() {
            let Some(m) = f.get(&s.event, k) else { continue };
            *slot = match k {
                INPUT_DATA if m.kind == Kind::Object => {
                    read.in_source.input_data = Some(self.in_source(m, &mut s.object)?);
                    empty_object()
                }
                OUTPUT_DATA if m.kind == Kind::Object => {
                    read.in_source.output_data = Some(self.in_source(m, &mut s.object)?);
                    empty_object()
                }
                TOOL_CALL if m.kind == Kind::Object => empty_object(),
                _ => Some(build::value(b.get(m.value.clone())?)?),
            };
        }
        Some(read)
    }

    /// The object member `m` left in the source, with its telling text.
    fn in_source(&self, m: &Member, members: &mut Vec<Member>) -> Option<Piece<'static>> {
        Some(Piece::InSource { json: self.out.json(m.value.clone()), telling: self.telling(m, members)? })
    }

    /// The string that reads as the whole of the object `m` (as
    /// `body::summary` finds it in the parsed object): its only member's,
    /// else the first of `TEXT_KEYS` holding a string. `None` when that
    /// cannot be told from the bytes (an escaped or repeated key).
    fn telling(&self, m: &Member, members: &mut Vec<Member>) -> Option<Option<Text>> {
        let b = self.b;
        read::members(b, m.value.start, self.ends, members)?;
        let text = |m: &Member| self.out.text(m.inner(), m.escaped);
        if let [only] = members.as_slice() {
            if only.kind == Kind::String {
                return Some(Some(text(only)));
            }
        }
        let f = Fields::find(b, members, TEXT_KEYS.map(str::as_bytes))?;
        let found = (0..TEXT_KEYS.len()).find_map(|k| f.get(members, k).filter(|m| m.kind == Kind::String));
        if let Some(found) = found {
            return Some(Some(text(found)));
        }
        // A repeated key could leave serde_json one member (and its string).
        if members.len() > 1 {
            let mut keys: Vec<&[u8]> = members.iter().filter_map(|m| b.get(m.key.clone())).collect();
            keys.sort_unstable();
            if keys.windows(2).any(|w| w.first() == w.last()) {
                return None;
            }
        }
        Some(None)
    }
}
