//! An object's members walked and placed by key ([`InBytes`]) in one pass,
//! each key first compared with the key at its place in the last object
//! walked at the same site ([`Shape`]).
//!
//! Claude Code writes every record's members in the same order
//! (`parentUuid`, `isSidechain`, `userType`, `cwd`, …), and many of their
//! short values again and again (`cwd`, `sessionId`, `version`, the
//! message's `model` and `role`). Found by scans (`json::read::members`)
//! each key and short string cost a search for its closing quote, then a
//! bucket lookup ([`K::of`]): a fifth of the reading. A key whose bytes,
//! quotes included, are those of the key at its place last time is that
//! key (a text with no quote and no backslash between its quotes ends at
//! its second quote); a value likewise. Anything else is scanned as before,
//! so any order, spacing or escape reads as the scans read it.

use std::ops::Range;

use super::keys::{same_bytes, K};
use super::look::InBytes;
use crate::json::ends::EndsCursor;
use crate::json::read::{container_end_at, string_end, Claimed, Kind, Member};
use crate::json::scan::skip_ws;
use crate::json::ContainerEnds;

/// The strings a [`Shape`] remembers as values: shorter than those the
/// split records (those are jumped over by the table of ends).
const SHORT: usize = ContainerEnds::MIN_STRING_BYTES;

/// What was at one member place of the last object walked at a site.
#[derive(Clone, Default)]
struct Seen {
    /// The key, quotes included, in the source; empty before a first object.
    key: Range<usize>,
    k: Option<K>,
    /// The last value here when it was a short string without escapes,
    /// quotes included; else empty.
    value: Range<usize>,
    /// The last two values here were the same short string: the next one is
    /// compared with it before it is scanned.
    repeats: bool,
}

/// The keys (and repeating short values) of the last object walked at one
/// site (a record's top level, its `message`, …), by place. Its ranges
/// are offsets in the one source a parse reads (`Reader` keeps its shapes
/// for one parse only).
#[derive(Default)]
pub struct Shape {
    seen: Vec<Seen>,
}

/// The bytes at `at` are those of `was` (a range of the same source, not
/// empty: an empty one is no string seen).
#[inline(always)]
fn same_at(b: &[u8], at: usize, was: &Range<usize>) -> bool {
    if was.is_empty() {
        return false;
    }
    match (b.get(at..at + was.len()), b.get(was.clone())) {
        (Some(here), Some(there)) => same_bytes(here, there),
        _ => false,
    }
}

/// A walk through one record's bytes: the objects it reads are walked in
/// the order they stand, reading the split's table of ends through one
/// cursor (a cursor's start is two binary searches of the table: each
/// object walked from a cursor of its own paid them again).
pub struct Walk<'a> {
    b: &'a [u8],
    ends: &'a ContainerEnds,
    at: EndsCursor<'a>,
}

/// Where a walk left the split's table, for the next record's walk: a
/// run's records are read in their order in the source, and a cursor
/// started afresh for each was two binary searches of the whole table (of
/// a 100 MB session, each level of them a miss to memory).
pub struct Resume<'a> {
    /// The end of the record walked: the cursor was asked of nothing after it.
    after: usize,
    at: EndsCursor<'a>,
}

impl<'a> Walk<'a> {
    /// A walk of the values from `from` on.
    pub fn new(b: &'a [u8], ends: &'a ContainerEnds, from: usize) -> Walk<'a> {
        Walk { b, ends, at: ends.cursor_from(from) }
    }

    /// [`Walk::new`], going on from where the last walk stopped when that
    /// is not past `from`.
    pub fn resume(b: &'a [u8], ends: &'a ContainerEnds, from: usize, last: Option<Resume<'a>>) -> Walk<'a> {
        match last {
            Some(last) if last.after <= from => Walk { b, ends, at: last.at },
            _ => Walk::new(b, ends, from),
        }
    }

    /// Where this walk stopped, for the next one: `after` the end of the
    /// value it walked (it read nothing past it).
    pub fn pause(self, after: usize) -> Resume<'a> {
        Resume { after, at: self.at }
    }

    /// The object whose `{` is at `open` (not before the walk's last
    /// value), its members the reading knows placed by key (`members` is
    /// the list to fill, kept between records), and where it ends; `None`
    /// when a key is escaped or the bytes are not the object the split
    /// checked (the caller then reads the record the exact way). Each
    /// member the reading knows whose value is an object or a list is
    /// offered to `inner` first (the walk, its key, where its value starts,
    /// the members placed before it), which may walk it on ([`Claimed`]).
    pub fn object(&mut self, open: usize, shape: &mut Shape, mut members: Vec<Member>, inner: &mut impl FnMut(&mut Walk<'a>, K, usize, &InBytes<'a>) -> Claimed) -> Option<(InBytes<'a>, usize)> {
        let b = self.b;
        members.clear();
        let mut placed = InBytes::placing(b, self.ends, members);
        if b.get(open) != Some(&b'{') {
            return None;
        }
        let mut i = skip_ws(b, open + 1);
        if b.get(i) == Some(&b'}') {
            return Some((placed, i + 1));
        }
        let mut place = 0;
        loop {
            if b.get(i) != Some(&b'"') {
                return None;
            }
            if shape.seen.len() <= place {
                shape.seen.push(Seen::default());
            }
            let seen = shape.seen.get_mut(place)?;
            let (key_end, k) = if same_at(b, i, &seen.key) {
                (i + seen.key.len(), seen.k)
            } else {
                let (end, escaped) = string_end(b, i)?;
                if escaped {
                    return None; // its text is not its bytes
                }
                let k = K::of(b.get(i + 1..end - 1)?);
                *seen = Seen { key: i..end, k, value: 0..0, repeats: false };
                (end, k)
            };
            let colon = skip_ws(b, key_end);
            if b.get(colon) != Some(&b':') {
                return None;
            }
            let start = skip_ws(b, colon + 1);
            let kind = Kind::of(*b.get(start)?);
            let (end, escaped) = match kind {
                Kind::String => string_value(b, start, seen, &mut self.at)?,
                Kind::Object | Kind::Array => {
                    let claimed = match k {
                        Some(k) => inner(self, k, start, &placed),
                        None => Claimed::Not,
                    };
                    match claimed {
                        Claimed::End(end) => (end, false),
                        Claimed::Broken => return None,
                        Claimed::Not => (self.at.end_of(start).or_else(|| container_end_at(b, start, &mut self.at))?, false),
                    }
                }
                Kind::Bool | Kind::Null => (literal_end(b, start)?, false),
                Kind::Number => (number_end(b, start)?, false),
            };
            if let Some(k) = k {
                placed.place(k, Member { key: i + 1..key_end - 1, key_escaped: false, value: start..end, kind, escaped })?;
            }
            place += 1;
            i = skip_ws(b, end);
            match b.get(i) {
                Some(b',') => i = skip_ws(b, i + 1),
                Some(b'}') => return Some((placed, i + 1)),
                _ => return None,
            }
        }
    }
}

/// No member walked on ([`Walk::object`]'s `inner` for an object read flat).
pub fn flat(_: &mut Walk<'_>, _: K, _: usize, _: &InBytes<'_>) -> Claimed {
    Claimed::Not
}

/// The end of the string value at `start` and whether it holds an escape:
/// the split's record of a long one, the last value at this place when the
/// bytes are its bytes, else a scan (which `seen` learns from).
#[inline(always)]
fn string_value(b: &[u8], start: usize, seen: &mut Seen, at: &mut EndsCursor<'_>) -> Option<(usize, bool)> {
    if seen.repeats && same_at(b, start, &seen.value) {
        return Some((start + seen.value.len(), false));
    }
    if let Some(long) = at.string_at(start) {
        seen.repeats = false;
        seen.value = 0..0;
        return Some(long);
    }
    let (end, escaped) = string_end(b, start)?;
    if escaped || end - start >= SHORT {
        seen.repeats = false;
        seen.value = 0..0;
    } else {
        seen.repeats = seen.value.len() == end - start && same_at(b, start, &seen.value);
        seen.value = start..end;
    }
    Some((end, escaped))
}

/// The end of `true`, `false` or `null` at `start`; anything else (a
/// lenient grammar's words) up to the next delimiter, as a number.
#[inline(always)]
fn literal_end(b: &[u8], start: usize) -> Option<usize> {
    let word: &[u8] = match b.get(start) {
        Some(b't') => b"true",
        Some(b'f') => b"false",
        _ => b"null",
    };
    match b.get(start..start + word.len()) {
        Some(here) if same_bytes(here, word) => Some(start + word.len()),
        _ => number_end(b, start),
    }
}

/// A number (or any other word) from `start` up to the next delimiter.
#[inline(always)]
fn number_end(b: &[u8], start: usize) -> Option<usize> {
    let rest = b.get(start..)?;
    let len = rest.iter().position(|c| matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')).unwrap_or(rest.len());
    Some(start + len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::scan::NO_ENDS;

    /// Objects walked one after another at one site place their members as
    /// `json::read::members` and [`InBytes::of`] do, whatever the last one
    /// held at each place: the same keys, keys one byte or one length
    /// apart, values repeated and then not, escapes, spacing, other kinds.
    #[test]
    fn walked_as_last_seen_is_walked_by_scans() {
        let objects = [
            r#"{"type":"user","cwd":"/w","uuid":"a","isSidechain":false,"n":1}"#,
            r#"{"type":"user","cwd":"/w","uuid":"b","isSidechain":false,"n":2}"#,
            r#"{"type":"user","cwd":"/w","uuid":"c","isSidechain":true,"n":3}"#,
            r#"{"type":"user","cwd":"/v","uuid":"c","isSidechain":null,"n":[1]}"#,
            r#"{"typf":"user","cwd":"/w","uuid":"c","isSidechain":false,"n":{}}"#,
            r#"{"type":"user","cwd":"/ww","uuid":"c","isSidechain":false}"#,
            r#"{"type":"user","cwd":"/w\"","uuid":"c"}"#,
            r#"{"type":"user","cwd":"\/w","uuid":"c"}"#,
            r#"{"type":"user","cwd":"\/w","uuid":"c"}"#,
            r#"{"type":"user","cwd":"/w","cwd":"/w","uuid":"c"}"#,
            r#"{ "type" : "user" , "cwd" : "/w" , "uuid" : "c" }"#,
            r#"{"types":"user","cw":"/w","uuid":"","isSidechain":fals}"#,
            r#"{"cwd":"/w","type":"user","uuid":"c","isSidechain":false,"n":-1.5e3}"#,
            r#"{"cwd":"/w","type":"user","uuid":"c","isSidechain":false,"n":"x"}"#,
            r#"{}"#,
            r#"{"cwd":"/w","type":"user"}"#,
        ];
        // One source, as a parse has: a shape's ranges are offsets in it.
        let source = objects.join("\n");
        let b = source.as_bytes();
        let mut shape = Shape::default();
        let mut open = 0;
        for text in objects {
            let mut members = Vec::new();
            let scanned = crate::json::read::members(b, open, &NO_ENDS, &mut members).and_then(|_| InBytes::of(b, &NO_ENDS, members));
            let walked = Walk::new(b, &NO_ENDS, open).object(open, &mut shape, Vec::new(), &mut flat);
            match (scanned, walked) {
                (Some(s), Some((w, end))) => {
                    assert_eq!(end, open + text.len(), "{text}");
                    for k in K::ALL {
                        assert_eq!(s.get(k), w.get(k), "{text} {k:?}");
                        assert_eq!(s.repeated(k), w.repeated(k), "{text} {k:?}");
                    }
                }
                (s, w) => assert!(s.is_none() && w.is_none(), "{text}"),
            }
            open += text.len() + 1;
        }
        let escaped_key = br#"{"typ\u0065":"user"}"#;
        assert!(Walk::new(escaped_key, &NO_ENDS, 0).object(0, &mut shape, Vec::new(), &mut flat).is_none());
    }
}
