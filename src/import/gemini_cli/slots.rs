//! Where the plan's one walk of a message record found the members the
//! fast path reads, kept for the emitter so that it does not walk the
//! record and its tool calls again (that second walk was a tenth of a
//! parse of the kit's session).

use std::ops::Range;

use crate::json::fields::Fields;
use crate::json::read::{Kind, Member};

/// A member's value where it stands (12 bytes).
#[derive(Debug, Clone, Copy)]
pub struct Slot {
    start: u32,
    end: u32,
    kind: Kind,
    /// For a string: it holds an escape.
    escaped: bool,
}

impl Slot {
    /// The value of member `m`; `None` past 4 GiB.
    pub fn of(m: &Member) -> Option<Slot> {
        Some(Slot { start: u32::try_from(m.value.start).ok()?, end: u32::try_from(m.value.end).ok()?, kind: m.kind, escaped: m.escaped })
    }

    /// The member again, as the readers take it (its key is not kept).
    pub fn member(&self) -> Member {
        Member { key: 0..0, key_escaped: false, value: self.start as usize..self.end as usize, kind: self.kind, escaped: self.escaped }
    }

    /// A string value's contents and whether they hold an escape; `None`
    /// for another kind.
    pub fn string(&self) -> Option<(Range<usize>, bool)> {
        (self.kind == Kind::String).then(|| (self.member().inner(), self.escaped))
    }
}

/// The members of a message record the plan finds: whether it is a
/// rewind, its `id`, then those the fast path reads, kept in
/// [`RecordSlots::fields`] from `timestamp` on (slot `TIMESTAMP` is
/// `RECORD_FIELDS[2]`).
pub const RECORD_FIELDS: [&[u8]; 9] = [b"$rewindTo", b"id", b"timestamp", b"type", b"content", b"toolCalls", b"thoughts", b"tokens", b"model"];
pub const REWIND: usize = 0;
pub const RECORD_ID: usize = 1;
/// Where the slots start in [`RECORD_FIELDS`].
pub const SLOTS_FROM: usize = 2;
pub const TIMESTAMP: usize = 0;
pub const TYPE: usize = 1;
pub const CONTENT: usize = 2;
pub const TOOL_CALLS: usize = 3;
pub const THOUGHTS: usize = 4;
pub const TOKENS: usize = 5;
pub const MODEL: usize = 6;

/// The members of a tool call record the fast path reads, in this order.
pub const CALL_FIELDS: [&[u8]; 8] = [b"id", b"name", b"args", b"status", b"result", b"timestamp", b"agentId", b"resultDisplay"];
pub const ID: usize = 0;
pub const NAME: usize = 1;
pub const ARGS: usize = 2;
pub const STATUS: usize = 3;
pub const RESULT: usize = 4;
pub const CALL_TIMESTAMP: usize = 5;
pub const AGENT_ID: usize = 6;
pub const RESULT_DISPLAY: usize = 7;

/// A message record read from the bytes: its [`RECORD_FIELDS`] from
/// `timestamp` on, and its
/// tool calls' in [`super::plan::Plan::calls`] (`None`: one is no object,
/// which the fast path does not read).
#[derive(Debug, Clone)]
pub struct RecordSlots {
    pub fields: [Option<Slot>; 7],
    pub calls: Option<Range<u32>>,
}

/// A tool call record read from the bytes: where it stands and its
/// [`CALL_FIELDS`].
#[derive(Debug, Clone)]
pub struct CallSlots {
    pub call: Range<usize>,
    pub fields: [Option<Slot>; 8],
}

/// The slots of the members `f` found: slot `k` is `names[offset + k]` of
/// its search (`None` past 4 GiB).
pub fn slots_of<const N: usize, const M: usize>(members: &[Member], f: &Fields<M>, offset: usize) -> Option<[Option<Slot>; N]> {
    let mut out = [None; N];
    for (k, slot) in out.iter_mut().enumerate() {
        if let Some(m) = f.get(members, offset + k) {
            *slot = Some(Slot::of(m)?);
        }
    }
    Some(out)
}

/// The decoded contents of the string literal at `inner` (`escaped`: they
/// hold an escape): what `Builder::text(..).decoded()` gives, without
/// taking a handle on the source for one short string.
pub fn decoded(b: &[u8], inner: Range<usize>, escaped: bool) -> String {
    crate::json::string::decode_literal(b.get(inner).unwrap_or_default(), escaped).into_owned()
}
