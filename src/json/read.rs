//! Reading values the split has already validated, without building them.
//!
//! The split's scan checks the grammar of every byte once. After it, a
//! format reader only needs to know where things are: where a string ends
//! and whether it holds an escape, where an object's members are. These
//! functions answer that without checking the grammar again, allocating, or
//! decoding anything, so that a message's content can be left in the source
//! as a [`crate::model::Text`]. They never panic; on bytes that are not
//! valid JSON (which the split would have reported) they return `None`, and
//! the caller reads the record the slow, exact way.

use std::ops::Range;

use super::ends::EndsCursor;
use super::scan::{self, skip_ws, ContainerEnds, NO_ENDS as NO_TABLE};

/// A string whose opening quote is at `open`: the offset just past its
/// closing quote, and whether it holds a backslash escape.
#[inline(always)]
pub fn string_end(b: &[u8], open: usize) -> Option<(usize, bool)> {
    scan::validated_string_end(b, open)
}

/// The end of the value starting at `start` (no whitespace before it).
pub fn value_end(b: &[u8], start: usize, ends: &ContainerEnds) -> Option<usize> {
    value_end_at(b, start, &mut ends.cursor_from(start))
}

/// [`value_end`], reading the table through `at` (a walk's cursor, not past `start`).
#[inline(always)]
fn value_end_at(b: &[u8], start: usize, at: &mut EndsCursor<'_>) -> Option<usize> {
    match b.get(start)? {
        b'"' => at.string_at(start).or_else(|| string_end(b, start)).map(|(end, _)| end),
        b'{' | b'[' => at.end_of(start).or_else(|| container_end_at(b, start, at)),
        _ => {
            // A number or a literal: up to the next delimiter.
            let rest = b.get(start..)?;
            let len = rest.iter().position(|c| matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')).unwrap_or(rest.len());
            Some(start + len)
        }
    }
}

/// The end of the object or array whose bracket is at `open`, counting
/// brackets and skipping strings (the split checked the grammar: the small
/// containers it kept no end for are not checked again). A long string
/// whose end the split recorded is jumped over, not scanned: a container
/// too deep for the table of ends (an OTLP span's attributes) holds the
/// long texts.
pub fn container_end(b: &[u8], open: usize, ends: &ContainerEnds) -> Option<usize> {
    container_end_at(b, open, &mut ends.cursor_from(open))
}

/// [`container_end`], reading the recorded strings through `at` (a walk's
/// cursor, not past `open`): a member walk meets the small containers the
/// table has no end for one after another, and each used to search the
/// whole table of strings for where to start.
pub fn container_end_at(b: &[u8], open: usize, at: &mut EndsCursor<'_>) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    loop {
        match *b.get(i)? {
            b'"' => {
                i = match at.string_at(i) {
                    Some((end, _)) => end,
                    None => string_end(b, i)?.0,
                };
                continue;
            }
            b'[' | b'{' => depth += 1,
            b']' | b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
}

/// What kind of JSON value starts with byte `c`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    String,
    Number,
    Object,
    Array,
    Bool,
    Null,
}

impl Kind {
    pub fn of(c: u8) -> Kind {
        match c {
            b'"' => Kind::String,
            b'{' => Kind::Object,
            b'[' => Kind::Array,
            b't' | b'f' => Kind::Bool,
            b'n' => Kind::Null,
            _ => Kind::Number,
        }
    }
}

/// A member of a validated object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// The key's bytes between its quotes, undecoded.
    pub key: Range<usize>,
    /// The key holds an escape: its bytes are not its text.
    pub key_escaped: bool,
    /// The value, from its first byte to just past its last.
    pub value: Range<usize>,
    pub kind: Kind,
    /// For a string value: it holds an escape.
    pub escaped: bool,
}

impl Member {
    /// The range of a string value's contents, between its quotes.
    pub fn inner(&self) -> Range<usize> {
        self.value.start + 1..self.value.end.saturating_sub(1).max(self.value.start + 1)
    }
}

/// The members of the object whose `{` is at `open`, appended to `out`
/// (cleared first). Returns the offset past the object's `}`.
pub fn members(b: &[u8], open: usize, ends: &ContainerEnds, out: &mut Vec<Member>) -> Option<usize> {
    members_claiming(b, open, ends, out, |_, _, _| Claimed::Not)
}

/// [`members`], reading the table through `at` (a cursor not past `open`):
/// a reader walking the records in order keeps one instead of searching
/// the whole table for each object (cache misses over a 100 MB input).
pub fn members_at(b: &[u8], open: usize, at: &mut EndsCursor<'_>, out: &mut Vec<Member>) -> Option<usize> {
    members_claiming_at(b, open, &NO_TABLE, Some(at), out, |_, _, _| Claimed::Not)
}

/// What a [`members_claiming`] walk's `claim` made of a member's value.
pub enum Claimed {
    /// Left to the walk.
    Not,
    /// Read by the claim, which ends there.
    End(usize),
    /// Read by the claim, which found it broken: the walk fails.
    Broken,
}

/// [`members`], offering each member's value to `claim` first (its key as
/// a [`Member`] holding only the key, where the value starts, and the
/// walk's cursor), for a reader that takes something apart on the way
/// (otel's span attributes, walked once with the span).
#[inline(always)]
pub fn members_claiming(
    b: &[u8],
    open: usize,
    ends: &ContainerEnds,
    out: &mut Vec<Member>,
    claim: impl FnMut(&Member, usize, &mut EndsCursor<'_>) -> Claimed,
) -> Option<usize> {
    members_claiming_at(b, open, ends, None, out, claim)
}

/// [`members_claiming`], reading the table through `at` (not past `open`),
/// else through a cursor on `ends` made once the object is known not empty.
#[inline(always)]
fn members_claiming_at<'e>(
    b: &[u8],
    open: usize,
    ends: &'e ContainerEnds,
    at: Option<&mut EndsCursor<'e>>,
    out: &mut Vec<Member>,
    mut claim: impl FnMut(&Member, usize, &mut EndsCursor<'_>) -> Claimed,
) -> Option<usize> {
    out.clear();
    // A new list starts at a record's usual size: growing it from 4 (three
    // reallocations) was a tenth of a Claude Code parse.
    if out.capacity() == 0 {
        out.reserve(16);
    }
    if b.get(open) != Some(&b'{') {
        return None;
    }
    let mut i = skip_ws(b, open + 1);
    if b.get(i) == Some(&b'}') {
        return Some(i + 1);
    }
    let mut own = None;
    let at = match at {
        Some(at) => at,
        None => own.insert(ends.cursor_from(i)),
    };
    loop {
        if b.get(i) != Some(&b'"') {
            return None;
        }
        let (key_end, key_escaped) = string_end(b, i)?;
        let key = i + 1..key_end - 1;
        let colon = skip_ws(b, key_end);
        if b.get(colon) != Some(&b':') {
            return None;
        }
        let start = skip_ws(b, colon + 1);
        let first = *b.get(start)?;
        let kind = Kind::of(first);
        let mut member = Member { key, key_escaped, value: start..start, kind, escaped: false };
        let (end, escaped) = match claim(&member, start, at) {
            Claimed::End(end) => (end, false),
            Claimed::Broken => return None,
            Claimed::Not => match kind {
                // A long string the split recorded is jumped over.
                Kind::String => at.string_at(start).or_else(|| string_end(b, start))?,
                _ => (value_end_at(b, start, at)?, false),
            },
        };
        member.value = start..end;
        member.escaped = escaped;
        out.push(member);
        i = skip_ws(b, end);
        match b.get(i) {
            Some(b',') => i = skip_ws(b, i + 1),
            Some(b'}') => return Some(i + 1),
            _ => return None,
        }
    }
}

/// The items of the array whose `[` is at `open`, appended to `out`
/// (cleared first). Returns the offset past the array's `]`.
pub fn items(b: &[u8], open: usize, ends: &ContainerEnds, out: &mut Vec<Range<usize>>) -> Option<usize> {
    items_through(b, open, ends, None, out)
}

/// [`items`], reading the table through `at` (a cursor not past `open`).
pub fn items_at(b: &[u8], open: usize, at: &mut EndsCursor<'_>, out: &mut Vec<Range<usize>>) -> Option<usize> {
    items_through(b, open, &NO_TABLE, Some(at), out)
}

/// [`items`] through `at`, else through a cursor on `ends` made once the
/// array is known not empty.
#[inline(always)]
fn items_through<'e>(b: &[u8], open: usize, ends: &'e ContainerEnds, at: Option<&mut EndsCursor<'e>>, out: &mut Vec<Range<usize>>) -> Option<usize> {
    out.clear();
    if b.get(open) != Some(&b'[') {
        return None;
    }
    let mut i = skip_ws(b, open + 1);
    if b.get(i) == Some(&b']') {
        return Some(i + 1);
    }
    let mut own = None;
    let at = match at {
        Some(at) => at,
        None => own.insert(ends.cursor_from(i)),
    };
    loop {
        let end = value_end_at(b, i, at)?;
        out.push(i..end);
        i = skip_ws(b, end);
        match b.get(i) {
            Some(b',') => i = skip_ws(b, i + 1),
            Some(b']') => return Some(i + 1),
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::scan::NO_ENDS;

    #[test]
    fn string_ends_and_escapes() {
        let s = br#""plain" "a\"b" "\\" "\u0041\\\"" "#;
        assert_eq!(string_end(s, 0), Some((7, false)));
        assert_eq!(string_end(s, 8), Some((14, true)));
        assert_eq!(string_end(s, 15), Some((19, true)));
        assert_eq!(string_end(s, 20), Some((32, true)));
        assert_eq!(string_end(b"\"unterminated", 0), None);
        assert_eq!(string_end(b"\"ends in \\", 0), None);
    }

    /// The members and items agree with the validating scanner's, with and
    /// without the split's table of container ends.
    #[test]
    fn members_and_items_agree_with_the_scanner() {
        let pad = "p".repeat(ContainerEnds::MIN_BYTES);
        let doc = format!(
            r#"{{ "a" : 1.5e3 , "b\n": "x\"y", "c": [true, false, null, -0, {{"d": []}}], "e": {{"f": "{pad}"}}, "g": "" }}"#
        );
        let b = doc.as_bytes();
        let mut ends = ContainerEnds::default();
        scan::scan_value_recording::<false>(b, 0, &mut ends, &mut Vec::new(), &mut Vec::new()).unwrap();
        for table in [&ends, &NO_ENDS] {
            let mut m = Vec::new();
            assert_eq!(members(b, 0, table, &mut m), Some(b.len()));
            let expected = scan::object_members(b, 0).unwrap();
            assert_eq!(m.len(), expected.len());
            for (got, (key, value)) in m.iter().zip(&expected) {
                assert_eq!(scan::decode_key(b, got.key.start - 1..got.key.end + 1), *key);
                assert_eq!(got.value, *value);
                assert_eq!(got.kind, Kind::of(b[value.start]));
            }
            assert!(m[1].key_escaped && m[1].escaped && m[1].kind == Kind::String);
            assert_eq!(&b[m[1].inner()], br#"x\"y"#);
            assert!(m[4].inner().is_empty());
            let c = m[2].value.start;
            let mut it = Vec::new();
            assert_eq!(items(b, c, table, &mut it), Some(m[2].value.end));
            assert_eq!(it, scan::array_items(b, c).0);
        }
    }

    /// Every string value the split recorded ends where the scanner ends
    /// it, with the right escape flag; every string value of 64 bytes or
    /// more is recorded, and no key.
    #[test]
    fn recorded_string_ends_are_the_scanners() {
        let long = "x".repeat(70);
        let doc = format!(
            r#"[{{"{long}": "{long}", "b": "{long}\n", "c": ["short", "{long}\"{long}"]}}, "{long}", {{"k": "\u00e9{long}"}}]"#
        );
        let b = doc.as_bytes();
        let split = crate::json::split(b, 0);
        assert!(split.errors.is_empty());
        let mut strings = 0;
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'"' {
                let end = scan::scan_string(b, i).unwrap();
                let is_key = b[scan::skip_ws(b, end)] == b':';
                let want = (!is_key && end - i >= ContainerEnds::MIN_STRING_BYTES).then(|| (end, b[i + 1..end - 1].contains(&b'\\')));
                assert_eq!(split.ends.string_at(i), want, "string at {i}");
                strings += usize::from(want.is_some());
                i = end;
            } else {
                i += 1;
            }
        }
        assert_eq!(strings, 5);
        assert!(split.ends.string_at(1).is_none());
    }

    /// A walk's cursor passes the table's entries inside the values it
    /// jumps over (long strings in a nested object and list) and still
    /// finds the next value's end.
    #[test]
    fn the_cursor_passes_entries_inside_skipped_values() {
        let long = "l".repeat(ContainerEnds::MIN_BYTES);
        let doc = format!(r#"{{"a": {{"x": "{long}", "y": ["{long}", "{long}\n"]}}, "b": "{long}\"", "c": 1, "d": ["{long}"], "e": "{long}"}}"#);
        let b = doc.as_bytes();
        let split = crate::json::split(b, 0);
        assert!(split.errors.is_empty());
        let mut m = Vec::new();
        assert_eq!(members(b, 0, &split.ends, &mut m), Some(b.len()));
        let mut plain = Vec::new();
        members(b, 0, &NO_ENDS, &mut plain).unwrap();
        assert_eq!(m, plain);
        assert!(m[1].escaped && !m[4].escaped);
        let mut at = split.ends.cursor_from(0);
        assert_eq!(at.string_at(m[4].value.start), Some((m[4].value.end, false)));
    }

    #[test]
    fn container_ends_agree_with_the_scanner() {
        let doc = br#"[{"a": "]}\"", "b": [1, {"c": "{"}], "d": {}}, [], "x", [[["deep"]]]]"#;
        let mut stack = vec![0usize];
        while let Some(at) = stack.pop() {
            assert_eq!(container_end(doc, at, &NO_ENDS), scan::scan_value(doc, at).ok(), "at {at}");
            let mut inner = Vec::new();
            if doc[at] == b'[' {
                items(doc, at, &NO_ENDS, &mut inner).unwrap();
            } else {
                let mut m = Vec::new();
                members(doc, at, &NO_ENDS, &mut m).unwrap();
                inner = m.into_iter().map(|m| m.value).collect();
            }
            stack.extend(inner.iter().map(|r| r.start).filter(|s| matches!(doc[*s], b'[' | b'{')));
        }
        assert_eq!(container_end(b"[[1]", 0, &NO_ENDS), None);
    }

    #[test]
    fn broken_input_gives_none_not_a_panic() {
        let mut m = Vec::new();
        let mut it = Vec::new();
        for bad in [&b"{"[..], b"{\"a\"", b"{\"a\":", b"{\"a\" 1}", b"{\"a\":1 \"b\":2}", b"{1:2}", b"[1 2]", b"[", b"[\"x"] {
            if bad[0] == b'{' {
                assert_eq!(members(bad, 0, &NO_ENDS, &mut m), None, "{:?}", String::from_utf8_lossy(bad));
            } else {
                assert_eq!(items(bad, 0, &NO_ENDS, &mut it), None, "{:?}", String::from_utf8_lossy(bad));
            }
        }
    }
}
