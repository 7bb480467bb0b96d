//! The placing of a record (before it is read): what it takes to place the record
//! in a run ([`Head`]), as serde_json would read it.
//!
//! Most records go to the main conversation, which needs none of the
//! placing ids: [`not_sidechain`] says so from the record's first members
//! (Claude Code writes `isSidechain` second), so those records are not
//! walked twice (once here, once when read).

use std::borrow::Cow;
use std::ops::Range;

use serde_json::Value;

use crate::import::{Builder, Input};
use crate::json::read::{string_end, value_end, Kind, Member};
use crate::json::scan::skip_ws;
use crate::json::string::decode_literal;
use crate::json::ContainerEnds;

/// How many members [`not_sidechain`] looks at before it gives up.
const EARLY: usize = 4;

/// True when the record at `r` is surely not a sidechain's as the first pass
/// reads it ([`Head::sidechain`] false): a top-level key `isSidechain`
/// among its first members has a value other than `true`. Then serde_json
/// reads it as no sidechain whatever the rest holds: the key alone gives
/// that value, a repeat of it (an escaped spelling too) fails the read, and
/// a failed read (a hazard, invalid UTF-8) gives the default, no sidechain.
/// So an escaped key before it changes nothing (its bytes are not the key's
/// text, and it is walked over). False asks for the whole reading.
pub(super) fn not_sidechain(b: &[u8], ends: &ContainerEnds, r: &Range<usize>) -> bool {
    let mut at = skip_ws(b, r.start);
    if b.get(at) != Some(&b'{') {
        return false;
    }
    at = skip_ws(b, at + 1);
    for _ in 0..EARLY {
        if b.get(at) != Some(&b'"') {
            return false;
        }
        let Some(key_end) = written_key_end(b, at).or_else(|| string_end(b, at).map(|(end, _)| end)) else { return false };
        let colon = skip_ws(b, key_end);
        if b.get(colon) != Some(&b':') {
            return false;
        }
        let start = skip_ws(b, colon + 1);
        if b.get(at + 1..key_end.saturating_sub(1)) == Some(b"isSidechain") {
            return matches!(b.get(start), Some(b'f' | b'n' | b'"' | b'{' | b'[' | b'-' | b'0'..=b'9'));
        }
        // A short string (`parentUuid` comes first) ends sooner by a scan
        // than by a search of the split's table of ends.
        let end = if b.get(start) == Some(&b'"') { string_end(b, start).map(|(end, _)| end) } else { value_end(b, start, ends) };
        let Some(end) = end else { return false };
        at = skip_ws(b, end);
        if b.get(at) != Some(&b',') || end > r.end {
            return false;
        }
        at = skip_ws(b, at + 1);
    }
    false
}

/// The end of the key at `at` when it is one of the two Claude Code writes
/// first, spelled as it writes them: its quotes enclose plain letters, so
/// it ends there, without a scan for its end.
fn written_key_end(b: &[u8], at: usize) -> Option<usize> {
    const PARENT: &[u8; 12] = b"\"parentUuid\"";
    const SIDECHAIN: &[u8; 13] = b"\"isSidechain\"";
    if b.get(at..at + PARENT.len()) == Some(&PARENT[..]) {
        return Some(at + PARENT.len());
    }
    (b.get(at..at + SIDECHAIN.len()) == Some(&SIDECHAIN[..])).then_some(at + SIDECHAIN.len())
}

/// The members the first pass reads of a record, as serde_json reads them
/// (the exact way, for a record [`head_in_place`] declines).
#[derive(serde::Deserialize, Default)]
pub(super) struct HeadValues {
    #[serde(default, rename = "isSidechain")]
    sidechain: Option<Value>,
    #[serde(default, rename = "agentId")]
    agent: Option<Value>,
    #[serde(default)]
    uuid: Option<Value>,
    #[serde(default, rename = "parentUuid")]
    parent: Option<Value>,
}

/// What the first pass takes of a record to place it: `isSidechain` is
/// `true`; `agentId`, `uuid`, `parentUuid` when strings. The strings are
/// borrowed from the source when they hold no escape: most records go to
/// the main run, which needs none of them.
#[derive(Default)]
pub(super) struct Head<'b> {
    pub(super) sidechain: bool,
    pub(super) agent: Option<Cow<'b, str>>,
    pub(super) uuid: Option<Cow<'b, str>>,
    pub(super) parent: Option<Cow<'b, str>>,
}

impl From<HeadValues> for Head<'_> {
    fn from(v: HeadValues) -> Self {
        let text = |v: Option<Value>| match v {
            Some(Value::String(s)) => Some(Cow::Owned(s)),
            _ => None,
        };
        Head { sidechain: v.sidechain == Some(Value::Bool(true)), agent: text(v.agent), uuid: text(v.uuid), parent: text(v.parent) }
    }
}

/// The [`Head`] serde_json would read of the record at `r`, read from its
/// members without going through the rest (the first pass went through every
/// record's text for four small fields: a fifth of the parse). Only for a
/// record the split found clean (no hazard, valid UTF-8: serde_json then
/// reads it as the text says, every value included), and not with
/// `exact_only`; `None` asks serde_json.
pub(super) fn head_in_place<'b>(input: &Input, out: &Builder<'b>, members: &mut Vec<Member>, r: &Range<usize>) -> Option<Head<'b>> {
    let b = out.bytes();
    let hazards = &input.split.hazards;
    let first = hazards.partition_point(|h| *h < r.start);
    if out.exact_only() || !out.utf8_valid() || hazards.get(first).is_some_and(|h| *h < r.end) {
        return None;
    }
    let at = crate::json::scan::skip_ws(b, r.start);
    if b.get(at) != Some(&b'{') {
        return None; // a list would fill the fields by position
    }
    crate::json::read::members(b, at, &input.split.ends, members)?;
    let mut head = Head::default();
    let mut seen = 0u8;
    for m in members.iter() {
        if m.key_escaped {
            return None; // its text is not its bytes
        }
        let (field, bit) = match b.get(m.key.clone())? {
            b"isSidechain" => (None, 1),
            b"agentId" => (Some(&mut head.agent), 2),
            b"uuid" => (Some(&mut head.uuid), 4),
            b"parentUuid" => (Some(&mut head.parent), 8),
            _ => continue,
        };
        if seen & bit != 0 {
            // serde refuses a repeated field; the caller's default follows.
            return Some(Head::default());
        }
        seen |= bit;
        match field {
            None => head.sidechain = m.kind == Kind::Bool && b.get(m.value.clone()) == Some(b"true"),
            // `Value::as_str`: any other kind (`null` too) is no string.
            Some(field) => *field = (m.kind == Kind::String).then(|| decode_literal(b.get(m.inner()).unwrap_or_default(), m.escaped)),
        }
    }
    Some(head)
}


/// The [`Head`] of the record at `r`: read in place where it can be, else by serde_json.
pub(super) fn head<'b>(input: &Input, out: &Builder<'b>, members: &mut Vec<Member>, r: &Range<usize>) -> Head<'b> {
    let b = out.bytes();
    head_in_place(input, out, members, r).unwrap_or_else(|| b.get(r.clone()).and_then(|s| serde_json::from_slice::<HeadValues>(s).ok()).unwrap_or_default().into())
}
