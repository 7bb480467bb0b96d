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
use super::input_tail::{list_items, raw_offsets, Raw};
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
    raw: Option<RawItems>,
}

/// The output literal's contents as the source writes them, and where each
/// item of the list is in them: when the list is one the scan reads
/// without a hazard, so that an item found again by these bytes needs
/// neither decoding nor a scan.
type RawItems = (Vec<u8>, Vec<Range<usize>>);

impl Prepared {
    /// `text`, the output attribute's decoded text, which parsed to
    /// `items`; `None` when the reader does not find as many items in it.
    /// The text parsed: it is JSON, whose items the scan finds (else, with
    /// a hazard, `read::items` without checking its grammar again).
    /// `raw`: the literal `text` was decoded from, when it is in the source.
    pub fn of(text: String, items: &[Value], raw: Option<Raw>) -> Option<Prepared> {
        let b = text.as_bytes();
        let open = scan::skip_ws(b, 0);
        let scanned = list_items(b, open);
        let clean = scanned.is_some();
        let ranges = match scanned {
            Some(ranges) => ranges,
            None => {
                let mut ranges = Vec::with_capacity(items.len());
                read::items(b, open, &scan::NO_ENDS, &mut ranges)?;
                ranges
            }
        };
        if ranges.len() != items.len() {
            return None;
        }
        let raw = raw.filter(|_| clean).and_then(|raw| {
            let bounds = raw_offsets(raw, (0, 0), ranges.iter().flat_map(|r| [r.start, r.end]))?;
            Some((raw.bytes.to_vec(), bounds.chunks_exact(2).map(|p| p.first().copied().unwrap_or(0)..p.last().copied().unwrap_or(0)).collect()))
        });
        let items = ranges.into_iter().zip(items).map(|(r, v)| role_given(v).then(|| (r, check_item(Kind::Input, v)))).collect();
        Some(Prepared { text, items, raw })
    }

    /// Kept with the messages made from the list, one per item in order.
    pub fn keep(self, msgs: Vec<Msg>) -> LastOutput {
        if msgs.len() != self.items.len() {
            return LastOutput::default();
        }
        LastOutput { text: self.text, items: self.items.into_iter().zip(msgs).map(|(slot, m)| slot.map(|s| (s, m))).collect(), raw: self.raw }
    }
}

/// The last chat span's output, each reusable item with its message
/// (taken when reused: each serves once).
#[derive(Default)]
pub struct LastOutput {
    text: String,
    items: Vec<Option<(Slot, Msg)>>,
    raw: Option<RawItems>,
}

impl LastOutput {
    /// When the contents of a chat span's input literal, `raw` (from a new
    /// item's start on), start with a kept item's bytes as the output's
    /// literal wrote them: their length, the item's text appended to
    /// `text`. The same bytes, from one boundary between escapes to
    /// another, decode to the same text; the next call re-sends the
    /// assistant's message so, and decoding and scanning it again was a
    /// fifth of the new input's cost. The item is taken later, by
    /// [`LastOutput::take`].
    pub fn resent_in_literal(&self, raw: &[u8], text: &mut String) -> Option<usize> {
        let (bytes, ranges) = self.raw.as_ref()?;
        for (slot, r) in self.items.iter().zip(ranges) {
            let Some(((t, _), _)) = slot else { continue };
            let item = bytes.get(r.clone())?;
            if raw.starts_with(item) {
                text.push_str(self.text.get(t.clone())?);
                return Some(item.len());
            }
        }
        None
    }

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
