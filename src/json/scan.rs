//! A validating JSON scanner that finds where values start and end without
//! building them.
//!
//! The model keeps every event as a byte range of the source, so that the raw
//! view shows exactly what the file said and diagnostics can point at a line
//! and column. `serde_json` does not report value positions, so this scanner
//! does the structural pass: it checks the grammar (RFC 8259), is iterative
//! (a 100,000-deep nesting cannot overflow the stack) and never panics.
//!
//! Strings are [`super::string`]'s (the hot loop of a parse), the table of
//! container ends is [`super::ends`]'s and paths are [`super::path`]'s; they
//! are re-exported here, where the readers have always found them.

use std::ops::Range;

use super::repeats::Key;
use super::string::string_end;

pub use super::ends::{ContainerEnds, NO_ENDS};
pub use super::path::{find_path, find_path_in, render_path, Seg};
pub use super::string::{scan_string, validated_string_end};

/// Where the grammar was broken, and what was expected there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub offset: usize,
    pub message: String,
}

#[inline(always)]
pub fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while let Some(c) = b.get(i) {
        match c {
            b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            _ => break,
        }
    }
    i
}

/// [`skip_ws`], or in a JSON Lines scan (`LINE`) the whitespace but a
/// newline, which ends the line: a value scanned so stops at its line's end
/// without the line's end being looked for first.
#[inline(always)]
fn skip_space<const LINE: bool>(b: &[u8], mut i: usize) -> usize {
    if !LINE {
        return skip_ws(b, i);
    }
    while let Some(b' ' | b'\t' | b'\r') = b.get(i) {
        i += 1;
    }
    i
}

/// Describes the byte at `i` for an error message: "`}`", "end of input", …
pub fn describe(b: &[u8], i: usize) -> String {
    match b.get(i) {
        None => "end of input".to_string(),
        Some(c) if c.is_ascii_graphic() => format!("`{}`", *c as char),
        Some(b' ') => "a space".to_string(),
        Some(b'\n') => "a line break".to_string(),
        Some(c) if *c >= 0x80 => {
            // Show the whole character when it decodes.
            let end = (i + 4).min(b.len());
            let s = String::from_utf8_lossy(b.get(i..end).unwrap_or(&[]));
            match s.chars().next() {
                Some(ch) if ch != '\u{fffd}' => format!("`{ch}`"),
                _ => format!("byte 0x{c:02X} (not valid UTF-8)"),
            }
        }
        Some(c) => format!("control character 0x{c:02X}"),
    }
}

fn err<T>(offset: usize, message: impl Into<String>) -> Result<T, SyntaxError> {
    Err(SyntaxError { offset, message: message.into() })
}

fn expected_value(b: &[u8], i: usize) -> SyntaxError {
    let found = describe(b, i);
    let hint = match b.get(i) {
        Some(b'N') => " (`NaN` is not valid JSON)",
        Some(b'I') => " (`Infinity` is not valid JSON)",
        Some(b']') | Some(b'}') => " (a trailing comma?)",
        Some(b'\'') => " (JSON strings use double quotes)",
        _ => "",
    };
    SyntaxError {
        offset: i,
        message: format!(
            "expected a JSON value (object, array, string, number, true, false or null), found {found}{hint}"
        ),
    }
}

/// serde_json's recursion limit: it refuses the 128th container nested in a
/// value (counting the value's own as the first), even an empty one.
pub const SERDE_DEPTH_LIMIT: usize = 128;

/// The key by which serde_json's `Value` (with `arbitrary_precision`) reads
/// an object as a number: `{"$serde_json::private::Number": "1.5"}` becomes
/// the number 1.5, and with any other value, or any other member after it,
/// the whole value fails. (With the `raw_value` feature, which this crate
/// does not enable, `$serde_json::private::RawValue` would be another.)
pub const SERDE_NUMBER_KEY: &str = "$serde_json::private::Number";

fn scan_number(b: &[u8], start: usize) -> Result<usize, SyntaxError> {
    let mut i = start;
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(c) if c.is_ascii_digit() => {
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
        _ => {
            if b.get(i) == Some(&b'I') {
                return err(start, "`-Infinity` is not valid JSON");
            }
            return err(i, format!("expected a digit in a number, found {}", describe(b, i)));
        }
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if !b.get(i).is_some_and(u8::is_ascii_digit) {
            return err(i, format!("expected a digit after the decimal point, found {}", describe(b, i)));
        }
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !b.get(i).is_some_and(u8::is_ascii_digit) {
            return err(i, format!("expected a digit in the exponent, found {}", describe(b, i)));
        }
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
    }
    Ok(i)
}

fn scan_literal(b: &[u8], start: usize, word: &'static [u8]) -> Result<usize, SyntaxError> {
    let end = start + word.len();
    if b.get(start..end) == Some(word) {
        Ok(end)
    } else {
        Err(expected_value(b, start))
    }
}

/// Which values the scanner accepts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Grammar {
    /// RFC 8259 JSON.
    #[default]
    Strict,
    /// JSON and the literals `NaN`, `Infinity` and `-Infinity`, as Python's
    /// `json` module and pydantic's JSON parser read them (for the formats
    /// whose reference library is pydantic: a Log whose `tool_args` hold
    /// `NaN` is valid to agentc-core). Each literal is a hazard: serde_json
    /// refuses it.
    NonFinite,
}

/// The length of the `NaN`, `Infinity` or `-Infinity` at `i`, if one starts
/// there (exactly these spellings: `nan`, `inf` or `+Infinity` are no JSON
/// to Python or pydantic either).
pub fn nonfinite_len(b: &[u8], i: usize) -> Option<usize> {
    let literal: &[u8] = match b.get(i)? {
        b'N' => b"NaN",
        b'I' => b"Infinity",
        b'-' => b"-Infinity",
        _ => return None,
    };
    b.get(i..i + literal.len()).filter(|s| *s == literal).map(<[u8]>::len)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Frame {
    Array,
    Object,
}

/// Scans one value starting at `start` (after optional whitespace); returns
/// the offset just past it.
pub fn scan_value(b: &[u8], start: usize) -> Result<usize, SyntaxError> {
    scan::<false>(b, start, None, &mut Vec::new(), None, Grammar::Strict)
}

/// [`scan_value`] in `grammar`.
pub fn scan_value_in(b: &[u8], start: usize, grammar: Grammar) -> Result<usize, SyntaxError> {
    scan::<false>(b, start, None, &mut Vec::new(), None, grammar)
}

/// [`scan_value`], appending to `hazards` the offsets where serde_json would
/// refuse (or misread) what the scanner accepts (see [`super::Split`]'s
/// `hazards`): for JSON found somewhere other than the split's values, such
/// as a document encoded in a string.
pub fn scan_value_hazards(b: &[u8], start: usize, hazards: &mut Vec<usize>) -> Result<usize, SyntaxError> {
    scan::<false>(b, start, None, hazards, None, Grammar::Strict)
}

/// [`scan_value`], recording in `ends` where its containers end (see
/// [`ContainerEnds`] for which), appending to `hazards` the offsets where
/// serde_json would refuse what the scanner accepts (see [`super::Split`]'s
/// `hazards`), and to `repeats` the objects that may hold a key twice (see
/// [`super::Split`]'s `repeats`). On an error, what was completed before it
/// stays recorded. `ends` and `hazards` must hold only entries before
/// `start`; `hazards` stays sorted. The grammar is the table's
/// ([`ContainerEnds::grammar`]).
///
/// With `LINE` (a JSON Lines value), a newline is not whitespace: the scan
/// fails at the first newline outside a string (a string cannot hold one
/// either) and never reads past its line. What it accepts, it accepts
/// exactly as a scan of the line alone would; its errors are not those (the
/// split scans a failed line again, alone).
pub fn scan_value_recording<const LINE: bool>(
    b: &[u8],
    start: usize,
    ends: &mut ContainerEnds,
    hazards: &mut Vec<usize>,
    repeats: &mut Vec<usize>,
) -> Result<usize, SyntaxError> {
    let from = ends.slots();
    let grammar = ends.grammar();
    let result = scan::<LINE>(b, start, Some(&mut *ends), hazards, Some(repeats), grammar);
    if result.is_err() {
        ends.drop_open_slots(from);
    }
    result
}

/// Takes a slot in `ends` for the container opening at `open`, `depth`
/// levels down its value, when it is shallow enough to be recorded; else
/// (or when not recording) a slot past the table's end, which nothing uses.
#[inline(always)]
fn take_slot(ends: Option<&mut ContainerEnds>, depth: usize, open: usize) -> usize {
    match ends {
        Some(t) if depth <= ContainerEnds::DEPTH => t.open_slot(open),
        _ => usize::MAX,
    }
}

/// The scanner. The stack holds each open container's kind and where it
/// opened; recording costs a comparison per container, nothing per byte.
/// A container shallow enough to be recorded takes its slot in `ends` when
/// it opens, so the table comes out in start order with no sort: one that
/// turns out short gives its slot back when it closes (its own containers,
/// shorter still, gave theirs back already, so it is the last).
///
/// Hazards, in the order met (so sorted): the escapes [`super::string`]'s `escape_end`
/// describes; each container that crosses [`SERDE_DEPTH_LIMIT`] (only the
/// first level past it: the containers inside one are past it too); and
/// each object whose first key is [`SERDE_NUMBER_KEY`] (serde_json fails on
/// it, or reads it as a number, not the object the text says); in the
/// [`Grammar::NonFinite`] grammar, each `NaN`, `Infinity` and `-Infinity`.
///
/// With `repeats`, the keys of the open objects are kept (as [`Key`]s;
/// each frame knows where its own start) and checked as each object closes.
fn scan<const LINE: bool>(
    b: &[u8],
    start: usize,
    mut ends: Option<&mut ContainerEnds>,
    hazards: &mut Vec<usize>,
    mut repeats: Option<&mut Vec<usize>>,
    grammar: Grammar,
) -> Result<usize, SyntaxError> {
    // (kind, where it opened, where its keys start in `keys`, its slot in `ends`)
    let mut i = skip_space::<LINE>(b, start);
    // A container gets room for a record's usual depth and keys from the
    // start: grown from nothing, the two lists' reallocations were 3% of a
    // Claude Code parse (one scan per JSON Lines record). A scalar gets none.
    let room = |n: usize| if matches!(b.get(i), Some(b'{' | b'[')) { n } else { 0 };
    let mut stack: Vec<(Frame, usize, usize, usize)> = Vec::with_capacity(room(16));
    let track_keys = repeats.is_some();
    let mut keys: Vec<Key> = Vec::with_capacity(if track_keys { room(64) } else { 0 });
    loop {
        // A value is expected at `i`.
        match b.get(i) {
            Some(b'{') => {
                let open = i;
                // The open containers around this one (empty ones are never
                // pushed, and never hold another).
                if stack.len() + 1 == SERDE_DEPTH_LIMIT {
                    hazards.push(open);
                }
                i = skip_space::<LINE>(b, i + 1);
                if b.get(i) == Some(&b'}') {
                    i += 1;
                } else {
                    let key = i;
                    let (key_end, escaped);
                    (key_end, escaped, i) = member_key::<LINE>(b, i, hazards)?;
                    if is_number_key(b, key..key_end) {
                        // After the depth hazard at the same offset, if any: stays sorted.
                        if hazards.last() != Some(&open) {
                            hazards.push(open);
                        }
                    }
                    let slot = take_slot(ends.as_deref_mut(), stack.len(), open);
                    stack.push((Frame::Object, open, keys.len(), slot));
                    if track_keys {
                        keys.push(Key { start: key, end: key_end, escaped });
                    }
                    continue;
                }
            }
            Some(b'[') => {
                let open = i;
                if stack.len() + 1 == SERDE_DEPTH_LIMIT {
                    hazards.push(open);
                }
                i = skip_space::<LINE>(b, i + 1);
                if b.get(i) == Some(&b']') {
                    i += 1;
                } else {
                    let slot = take_slot(ends.as_deref_mut(), stack.len(), open);
                    stack.push((Frame::Array, open, keys.len(), slot));
                    continue;
                }
            }
            Some(b'"') => {
                let (end, escaped) = string_end(b, i, hazards)?;
                if let Some(t) = ends.as_deref_mut() {
                    t.record_string(i, end, escaped);
                }
                i = end;
            }
            Some(b't') => i = scan_literal(b, i, b"true")?,
            Some(b'f') => i = scan_literal(b, i, b"false")?,
            Some(b'n') => i = scan_literal(b, i, b"null")?,
            Some(b'N' | b'I' | b'-') if grammar == Grammar::NonFinite && nonfinite_len(b, i).is_some() => {
                hazards.push(i);
                // (Some: the guard says so.)
                i += nonfinite_len(b, i).unwrap_or(1);
            }
            Some(c) if *c == b'-' || c.is_ascii_digit() => i = scan_number(b, i)?,
            _ => return Err(expected_value(b, i)),
        }
        // After a complete value: close containers or move to the next element.
        loop {
            let Some((top, open, own_keys, slot)) = stack.last().copied() else {
                return Ok(i);
            };
            i = skip_space::<LINE>(b, i);
            match (top, b.get(i)) {
                (_, Some(b',')) => {
                    i = skip_space::<LINE>(b, i + 1);
                    if top == Frame::Object {
                        let key = i;
                        let (key_end, escaped);
                        (key_end, escaped, i) = member_key::<LINE>(b, i, hazards)?;
                        if track_keys {
                            keys.push(Key { start: key, end: key_end, escaped });
                        }
                    }
                    break;
                }
                (Frame::Array, Some(b']')) | (Frame::Object, Some(b'}')) => {
                    i += 1;
                    stack.pop();
                    if top == Frame::Object && track_keys {
                        if keys.len() >= own_keys + 2 && super::repeats::may_repeat_a_key(b, keys.get(own_keys..).unwrap_or(&[])) {
                            if let Some(r) = repeats.as_deref_mut() {
                                r.push(open);
                            }
                        }
                        keys.truncate(own_keys);
                    }
                    if let Some(t) = ends.as_deref_mut() {
                        t.close_slot(slot, open, i);
                    }
                }
                (Frame::Array, _) => {
                    return err(
                        i,
                        format!("expected `,` or `]` after an array element, found {}", describe(b, i)),
                    )
                }
                (Frame::Object, _) => {
                    return err(
                        i,
                        format!("expected `,` or `}}` after an object member, found {}", describe(b, i)),
                    )
                }
            }
        }
    }
}

/// True when the key whose quoted text is `key` decodes to
/// [`SERDE_NUMBER_KEY`]: the bytes themselves, or with escapes (which only
/// lengthen a key) decoded.
#[inline(always)]
fn is_number_key(b: &[u8], key: Range<usize>) -> bool {
    const QUOTED: usize = SERDE_NUMBER_KEY.len() + 2;
    match key.len() {
        QUOTED => b.get(key.start + 1..key.end - 1) == Some(SERDE_NUMBER_KEY.as_bytes()),
        n if n > QUOTED => {
            b.get(key.clone()).is_some_and(|raw| raw.contains(&b'\\'))
                && decode_string(b, key).is_some_and(|k| k == SERDE_NUMBER_KEY)
        }
        _ => false,
    }
}

/// The end of the value at `start`: from `ends` for a recorded container or
/// long string, else scanned in the table's grammar.
pub fn value_end(b: &[u8], start: usize, ends: &ContainerEnds) -> Result<usize, SyntaxError> {
    let recorded = match b.get(start) {
        Some(b'{' | b'[') => ends.end_of(start),
        Some(b'"') => ends.string_at(start).map(|(end, _)| end),
        _ => None,
    };
    match recorded {
        Some(end) => Ok(end),
        None => scan_value_in(b, start, ends.grammar()),
    }
}

/// Scans `"key" :` and the whitespace after; returns where the key ends,
/// whether it holds an escape, and where the member's value starts.
/// Inlined: once the string scan's first window ends most keys inline, the
/// call itself was most of a key's cost (a third of the split's calls).
#[inline(always)]
fn member_key<const LINE: bool>(b: &[u8], i: usize, hazards: &mut Vec<usize>) -> Result<(usize, bool, usize), SyntaxError> {
    if b.get(i) != Some(&b'"') {
        return Err(expected_key(b, i));
    }
    let (end, escaped) = string_end(b, i, hazards)?;
    let colon = skip_space::<LINE>(b, end);
    if b.get(colon) != Some(&b':') {
        return Err(expected_colon(b, colon));
    }
    Ok((end, escaped, skip_space::<LINE>(b, colon + 1)))
}

/// [`member_key`]'s errors, out of line (it is inlined where the scan meets a key).
#[cold]
#[inline(never)]
fn expected_key(b: &[u8], i: usize) -> SyntaxError {
    let hint = if b.get(i) == Some(&b'}') { " (a trailing comma?)" } else { "" };
    SyntaxError { offset: i, message: format!("expected an object key in double quotes, found {}{hint}", describe(b, i)) }
}

#[cold]
#[inline(never)]
fn expected_colon(b: &[u8], colon: usize) -> SyntaxError {
    SyntaxError { offset: colon, message: format!("expected `:` after an object key, found {}", describe(b, colon)) }
}

/// Decodes a key given the range of its quoted text.
pub fn decode_string(b: &[u8], quoted: Range<usize>) -> Option<String> {
    let raw = b.get(quoted.clone())?;
    if !raw.contains(&b'\\') {
        let inner = raw.get(1..raw.len().saturating_sub(1))?;
        return std::str::from_utf8(inner).ok().map(str::to_string);
    }
    serde_json::from_slice::<String>(raw).ok()
}

/// An object key, decoded; invalid UTF-8 in it becomes U+FFFD, as
/// [`crate::dupkeys`] compares such keys, so that two undecodable keys stay
/// apart instead of both becoming `""` and one shadowing the other (the
/// input's `invalid-utf8` diagnostic says the bytes were replaced).
pub fn decode_key(b: &[u8], quoted: Range<usize>) -> String {
    if let Some(key) = decode_string(b, quoted.clone()) {
        return key;
    }
    let lossy = String::from_utf8_lossy(b.get(quoted).unwrap_or(&[])).into_owned();
    serde_json::from_str::<String>(&lossy).unwrap_or_else(|_| lossy.trim_matches('"').to_string())
}

/// The elements of the array whose `[` is at `open`. On a syntax error the
/// elements scanned before it are returned with the error.
pub fn array_items(b: &[u8], open: usize) -> (Vec<Range<usize>>, Result<usize, SyntaxError>) {
    array_items_in(b, open, &NO_ENDS)
}

/// [`array_items`], jumping over the containers `ends` knows.
pub fn array_items_in(b: &[u8], open: usize, ends: &ContainerEnds) -> (Vec<Range<usize>>, Result<usize, SyntaxError>) {
    let mut items = Vec::new();
    if b.get(open) != Some(&b'[') {
        return (items, err(open, format!("expected `[`, found {}", describe(b, open))));
    }
    let mut i = skip_ws(b, open + 1);
    if b.get(i) == Some(&b']') {
        return (items, Ok(i + 1));
    }
    loop {
        let start = skip_ws(b, i);
        match value_end(b, start, ends) {
            Ok(end) => items.push(start..end),
            Err(e) => return (items, Err(e)),
        }
        i = skip_ws(b, items.last().map(|r| r.end).unwrap_or(start));
        match b.get(i) {
            Some(b',') => i += 1,
            Some(b']') => return (items, Ok(i + 1)),
            _ => {
                return (
                    items,
                    err(i, format!("expected `,` or `]` after an array element, found {}", describe(b, i))),
                )
            }
        }
    }
}

/// The members of the object whose `{` is at `open`: decoded key, and the
/// range of the value.
pub fn object_members(b: &[u8], open: usize) -> Result<Vec<(String, Range<usize>)>, SyntaxError> {
    object_members_in(b, open, &NO_ENDS)
}

/// [`object_members`], jumping over the containers `ends` knows.
pub fn object_members_in(b: &[u8], open: usize, ends: &ContainerEnds) -> Result<Vec<(String, Range<usize>)>, SyntaxError> {
    let mut members = Vec::new();
    if b.get(open) != Some(&b'{') {
        return err(open, format!("expected `{{`, found {}", describe(b, open)));
    }
    let mut i = skip_ws(b, open + 1);
    if b.get(i) == Some(&b'}') {
        return Ok(members);
    }
    loop {
        let key_start = i;
        let value_start = member_key::<false>(b, key_start, &mut Vec::new())?.2;
        let key_end = scan_string(b, key_start)?;
        let key = decode_key(b, key_start..key_end);
        let value_end = value_end(b, value_start, ends)?;
        members.push((key, value_start..value_end));
        i = skip_ws(b, value_end);
        match b.get(i) {
            Some(b',') => i = skip_ws(b, i + 1),
            Some(b'}') => return Ok(members),
            _ => {
                return err(
                    i,
                    format!("expected `,` or `}}` after an object member, found {}", describe(b, i)),
                )
            }
        }
    }
}

#[cfg(test)]
#[path = "scan_tests.rs"]
pub(crate) mod simd_tests;

#[cfg(test)]
#[path = "scan_unit_tests.rs"]
mod tests;
