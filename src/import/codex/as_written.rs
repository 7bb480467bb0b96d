//! Codex's rollout lines read as Codex writes them, without a member walk.
//!
//! Codex serializes each line with serde in a fixed order: `timestamp`,
//! `type`, `payload`. When a line's keys are exactly those, plain and in
//! that order, its members are found by comparing those bytes, and the
//! payload's end comes from the split's table read forward through the
//! file: [`read::members`] searched both tables of ends for each line and
//! looked for each key's end, and [`crate::json::fields::Fields::find`]
//! searched the keys again (~1,150 instructions a line, callgrind on the
//! kit's 10 MB rollout). Any other line (another order, another key, an
//! escape in a key, a repeat) returns `None` and is walked as before; with
//! the keys all known and none repeated, the walk would find the same
//! members. The same reading of a payload's own keys (calls, outputs,
//! events) was tried and saved nothing: the walk it replaces there is
//! mostly the values' ends, which both read.

use std::ops::Range;

use crate::json::ends::EndsCursor;
use crate::json::read::{self, Kind, Member};
use crate::json::scan::skip_ws;

use super::fast::Bytes;

/// The keys of a rollout line.
pub const LINE: &[&[u8]] = &[b"timestamp", b"type", b"payload"];

/// The bytes of the string value of the first member of the object at
/// `open` when its key is `type`, both plain; else `None`.
pub(super) fn leading_type(b: &[u8], open: usize) -> Option<&[u8]> {
    let key = skip_ws(b, open + 1);
    if b.get(open) != Some(&b'{') || b.get(key..key + 6) != Some(br#""type""#) {
        return None;
    }
    let colon = skip_ws(b, key + 6);
    if b.get(colon) != Some(&b':') {
        return None;
    }
    let value = skip_ws(b, colon + 1);
    if b.get(value) != Some(&b'"') {
        return None;
    }
    match read::string_end(b, value)? {
        (end, false) => b.get(value + 1..end.checked_sub(1)?),
        (_, true) => None,
    }
}

/// The members of the object `value` (its `{` to just past its `}`) into
/// `out` (cleared first) when its keys are exactly `names`, plain and in
/// that order; else `None` (`out` then holds anything).
pub fn members(s: &Bytes<'_, '_>, value: Range<usize>, names: &[&[u8]], at: &mut EndsCursor<'_>, out: &mut Vec<Member>) -> Option<()> {
    let b = s.b;
    out.clear();
    if b.get(value.start) != Some(&b'{') {
        return None;
    }
    let mut i = value.start;
    for (n, &name) in names.iter().enumerate() {
        let key = skip_ws(b, i + 1);
        let key_end = key + name.len() + 2;
        // `name` between quotes: a string holds no other quote, so the key is exactly `name`.
        if b.get(key) != Some(&b'"') || b.get(key + 1..key_end - 1)? != name || b.get(key_end - 1) != Some(&b'"') {
            return None;
        }
        let colon = skip_ws(b, key_end);
        if b.get(colon) != Some(&b':') {
            return None;
        }
        let start = skip_ws(b, colon + 1);
        let kind = Kind::of(*b.get(start)?);
        let (end, escaped) = value_end(s, start, kind, at)?;
        out.push(Member { key: key + 1..key_end - 1, key_escaped: false, value: start..end, kind, escaped });
        i = skip_ws(b, end);
        let last = n + 1 == names.len();
        match b.get(i) {
            Some(b',') if !last => {}
            // The object's own `}`, nothing after it.
            Some(b'}') if last && i + 1 == value.end => return Some(()),
            _ => return None,
        }
    }
    None
}

/// The end of the value of `kind` at `start`, and whether a string holds
/// an escape: containers from the split's table (read forward by the
/// pass's cursor), strings (a line's are short) scanned.
fn value_end(s: &Bytes<'_, '_>, start: usize, kind: Kind, at: &mut EndsCursor<'_>) -> Option<(usize, bool)> {
    match kind {
        // (Through the cursor, so that it moves past the long strings of
        // the lines before: the second pass starts each line's walks from it.)
        Kind::String => at.string_at(start).or_else(|| read::string_end(s.b, start)),
        Kind::Object | Kind::Array => Some((at.end_of(start).or_else(|| read::container_end_at(s.b, start, at))?, false)),
        _ => Some((super::fast_events::value_end(s, start, kind)?, false)),
    }
}
