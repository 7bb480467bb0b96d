//! A chat span's output messages kept for the next chat span's input: the
//! next call re-sends them as new items after the repeated history, and
//! each was parsed again into a `Value`, made a message and checked (the
//! re-sent assistant message is about two fifths of the new input items'
//! bytes on the kit's file). An input item whose text is one of the last
//! output's items, byte for byte, takes that item's message and verdict
//! instead: the same text parses to the same value, and a message with its
//! own `role` string is the same whichever side's default role it had.

use std::ops::Range;

use serde_json::Value;

use super::genai_schema::{check_item, Kind};
use super::messages::Msg;
use crate::json::{read, scan};

/// One output item that may be reused: where its text is, and what
/// [`check_item`] says of it as an input item.
type Slot = (Range<usize>, Option<String>);

/// A span's output list, read before its messages are made from it.
pub struct Prepared {
    text: String,
    /// Per item of the list, in order; `None`: not reusable (no `role`
    /// string: its message takes the side's default role).
    items: Vec<Option<Slot>>,
}

impl Prepared {
    /// `text`, the output attribute's decoded text, which parsed to
    /// `items`; `None` when the reader does not find as many items in it.
    /// The text parsed: it is JSON, whose items `read::items` finds
    /// without checking its grammar again.
    pub fn of(text: String, items: &[Value]) -> Option<Prepared> {
        let b = text.as_bytes();
        let mut ranges = Vec::with_capacity(items.len());
        read::items(b, scan::skip_ws(b, 0), &scan::NO_ENDS, &mut ranges)?;
        if ranges.len() != items.len() {
            return None;
        }
        let items = ranges.into_iter().zip(items).map(|(r, v)| role_given(v).then(|| (r, check_item(Kind::Input, v)))).collect();
        Some(Prepared { text, items })
    }

    /// Kept with the messages made from the list, one per item in order.
    pub fn keep(self, msgs: Vec<Msg>) -> LastOutput {
        if msgs.len() != self.items.len() {
            return LastOutput::default();
        }
        LastOutput { text: self.text, items: self.items.into_iter().zip(msgs).map(|(slot, m)| slot.map(|s| (s, m))).collect() }
    }
}

/// The last chat span's output, each reusable item with its message
/// (taken when reused: each serves once).
#[derive(Default)]
pub struct LastOutput {
    text: String,
    items: Vec<Option<(Slot, Msg)>>,
}

impl LastOutput {
    /// The message and verdict of the kept item whose text is `item`.
    pub fn take(&mut self, item: &[u8]) -> Option<(Msg, Option<String>)> {
        let text = self.text.as_bytes();
        let slot = self.items.iter_mut().find(|s| s.as_ref().is_some_and(|((r, _), _)| text.get(r.clone()) == Some(item)))?;
        let ((_, verdict), msg) = slot.take()?;
        Some((msg, verdict))
    }
}

/// An object with a `role` string: its message is the same read as input
/// or as output (`messages::genai_message` takes the default role only
/// when there is none).
fn role_given(v: &Value) -> bool {
    v.as_object().and_then(|o| o.get("role")).is_some_and(Value::is_string)
}
