//! A validating JSON scanner that finds where values start and end without
//! building them.
//!
//! The model keeps every event as a byte range of the source, so that the raw
//! view shows exactly what the file said and diagnostics can point at a line
//! and column. `serde_json` does not report value positions, so this scanner
//! does the structural pass: it checks the grammar (RFC 8259), is iterative
//! (a 100,000-deep nesting cannot overflow the stack) and never panics.

use std::ops::Range;

/// Where the grammar was broken, and what was expected there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub offset: usize,
    pub message: String,
}

/// One step of a path into a JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seg {
    Key(String),
    Index(usize),
}

impl Seg {
    pub fn key(k: &str) -> Seg {
        Seg::Key(k.to_string())
    }
}

/// Renders a JSONPath such as `$[3].tool_calls[0].function.name`.
pub fn render_path(base: &str, segs: &[Seg]) -> String {
    let mut out = String::from(base);
    for seg in segs {
        match seg {
            Seg::Index(i) => {
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
            Seg::Key(k) => {
                let plain = !k.is_empty()
                    && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    && !k.starts_with(|c: char| c.is_ascii_digit());
                if plain {
                    out.push('.');
                    out.push_str(k);
                } else {
                    out.push('[');
                    out.push_str(&serde_json::to_string(k).unwrap_or_default());
                    out.push(']');
                }
            }
        }
    }
    out
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

/// Scans a string starting at the opening quote; returns the offset after the closing quote.
pub fn scan_string(b: &[u8], start: usize) -> Result<usize, SyntaxError> {
    string_end(b, start, &mut Vec::new()).map(|(end, _)| end)
}

/// [`scan_string`], adding to `hazards` the escapes serde_json refuses (see
/// [`escape_end`]), and saying whether the string holds an escape.
#[inline(always)]
fn string_end(b: &[u8], start: usize, hazards: &mut Vec<usize>) -> Result<(usize, bool), SyntaxError> {
    if b.get(start) != Some(&b'"') {
        return Err(not_a_string(b, start));
    }
    if super::simd::ENABLED {
        string_end_simd(b, start, hazards)
    } else {
        string_end_words(b, start, hazards)
    }
}

/// The string scan with SIMD (the split's hot loop: trace files are mostly
/// long strings with an escape every few dozen bytes, most of them `\"` and
/// `\n`). Each window of bytes (16 for the first look, as most strings are
/// short; then 64) is classified into masks ([`super::simd::StringBlock`]);
/// which bytes are escaped follows from the backslashes alone
/// ([`escaped_bytes`]). The scan then stops only at `events`: an unescaped
/// `"` or control byte, and an escaped byte other than `"`, `\\` or `n`
/// (`\u`, the other escapes, invalid ones), whose escape the scalar
/// [`escape_end`] checks, clearing the bits it covers. So the common escapes
/// cost no branch of their own, and the first event is where the byte-by-byte
/// scan would first do anything but pass: same results, offsets, messages.
#[cfg(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128")))]
fn string_end_simd(b: &[u8], start: usize, hazards: &mut Vec<usize>) -> Result<(usize, bool), SyntaxError> {
    use super::simd::{string_block16, string_block64};
    // Whether a window before the current one held an escaped byte (so the
    // string holds an escape); the current window's count below the end.
    let mut had_escape = false;
    let mut base = start + 1;
    let first = string_block16(b, base);
    // Sixteen bytes: bit 16 of `escaped` says whether the next window's first byte is.
    let (mut escaped, _) = escaped_bytes(first.backslash, 0);
    let mut carry = (escaped >> 16) & 1;
    escaped &= 0xFFFF;
    let mut events = (first.quote_or_control & !escaped) | (escaped & !first.plain_escapes & 0xFFFF);
    let mut width = 16;
    loop {
        while events == 0 {
            had_escape |= escaped != 0;
            base += width;
            width = 64;
            let block = string_block64(b, base, carry != 0);
            (escaped, carry) = escaped_bytes(block.backslash, carry);
            events = (block.quote_or_control & !escaped) | (escaped & !block.plain_escapes);
        }
        let k = events.trailing_zeros();
        let p = base + k as usize;
        if (escaped >> k) & 1 == 0 {
            // (Past the end of the input, every byte is an event.)
            return match b.get(p) {
                Some(b'"') => Ok((p + 1, had_escape || escaped & ((1u64 << k) - 1) != 0)),
                Some(c) => Err(control_in_string(p, *c)),
                None => Err(unterminated_string(start)),
            };
        }
        // The escape whose backslash is just before `p`.
        had_escape = true;
        let next = escape_end(b, start, p - 1, hazards)?;
        let passed = next - base;
        if passed < width {
            events &= u64::MAX << passed;
        } else {
            // Past this window: the next starts right after the escape.
            base = next;
            width = 0;
            carry = 0;
            events = 0;
        }
    }
}

/// Which bytes of a 64-byte window are escaped, given its backslashes and
/// whether its first byte is (`carry`, 0 or 1); and whether the next
/// window's first byte is. Runs of backslashes pair up left to right; the
/// byte after a run of odd length is escaped. simdjson's branch-free form:
/// adding each run that starts on an odd bit to the backslashes carries it
/// past its end, which flips the even/odd pattern for those runs.
#[cfg(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
fn escaped_bytes(backslash: u64, carry: u64) -> (u64, u64) {
    const EVEN: u64 = 0x5555_5555_5555_5555;
    if backslash == 0 && carry == 0 {
        return (0, 0);
    }
    let backslash = backslash & !carry;
    let follows_escape = (backslash << 1) | carry;
    let odd_starts = backslash & !EVEN & !follows_escape;
    let (even_starts, overflow) = odd_starts.overflowing_add(backslash);
    let flipped = even_starts << 1;
    ((EVEN ^ flipped) & follows_escape, u64::from(overflow))
}

#[cfg(not(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128"))))]
fn string_end_simd(b: &[u8], start: usize, hazards: &mut Vec<usize>) -> Result<(usize, bool), SyntaxError> {
    string_end_words(b, start, hazards)
}

/// The string scan without SIMD: eight bytes at a time while none of them
/// can end the string or be an error (the profile had this loop at 40% of a
/// parse when it went byte by byte), then byte by byte.
fn string_end_words(b: &[u8], start: usize, hazards: &mut Vec<usize>) -> Result<(usize, bool), SyntaxError> {
    let mut i = start + 1;
    let mut escaped = false;
    loop {
        while let Some(word) = b.get(i..i + 8).and_then(|w| <[u8; 8]>::try_from(w).ok()) {
            if word_may_stop_string(u64::from_le_bytes(word)) {
                break;
            }
            i += 8;
        }
        while let Some(c) = b.get(i) {
            if *c == b'"' || *c == b'\\' || *c < 0x20 {
                break;
            }
            i += 1;
        }
        match b.get(i) {
            None => return Err(unterminated_string(start)),
            Some(b'"') => return Ok((i + 1, escaped)),
            Some(b'\\') => {
                escaped = true;
                i = escape_end(b, start, i, hazards)?;
            }
            Some(c) => return Err(control_in_string(i, *c)),
        }
    }
}

/// The end of a string the split has already validated, whose `"` is at
/// `start`: the offset just past its closing quote, and whether it holds a
/// backslash escape; `None` when it does not end. Nothing is checked again:
/// the end is the first unescaped `"`, found a window at a time (16 bytes,
/// then 64) with no stop at escapes. The format readers' second look at a
/// string (`json::read`), which walked every escape with memchr2 before.
#[inline(always)]
pub fn validated_string_end(b: &[u8], start: usize) -> Option<(usize, bool)> {
    if super::simd::ENABLED {
        validated_string_end_simd(b, start)
    } else {
        validated_string_end_words(b, start)
    }
}

#[cfg(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128")))]
fn validated_string_end_simd(b: &[u8], start: usize) -> Option<(usize, bool)> {
    use super::simd::{string_block16, string_block64};
    let below = |k: u32| (1u64 << k) - 1;
    let close = |p: usize, escaped: bool| match b.get(p) {
        Some(b'"') => Some((p + 1, escaped)),
        _ => None,
    };
    let mut base = start + 1;
    let first = string_block16(b, base);
    let (escaped, _) = escaped_bytes(first.backslash, 0);
    let mut carry = (escaped >> 16) & 1;
    let ends = first.quote_or_control & !escaped & 0xFFFF;
    if ends != 0 {
        let k = ends.trailing_zeros();
        return close(base + k as usize, first.backslash & below(k) != 0);
    }
    let mut seen_backslash = first.backslash != 0;
    base += 16;
    loop {
        let block = string_block64(b, base, carry != 0);
        let (escaped, next_carry) = escaped_bytes(block.backslash, carry);
        let ends = block.quote_or_control & !escaped;
        if ends != 0 {
            let k = ends.trailing_zeros();
            return close(base + k as usize, seen_backslash || block.backslash & below(k) != 0);
        }
        seen_backslash |= block.backslash != 0;
        carry = next_carry;
        base += 64;
    }
}

#[cfg(not(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128"))))]
fn validated_string_end_simd(b: &[u8], start: usize) -> Option<(usize, bool)> {
    validated_string_end_words(b, start)
}

/// [`validated_string_end`] without SIMD: the next `"` or `\` by memchr2,
/// stepping over each escape.
fn validated_string_end_words(b: &[u8], start: usize) -> Option<(usize, bool)> {
    let mut i = start + 1;
    let mut escaped = false;
    loop {
        i += memchr::memchr2(b'"', b'\\', b.get(i..)?)?;
        if b.get(i) == Some(&b'"') {
            return Some((i + 1, escaped));
        }
        // The escaped byte cannot end the string (`\uXXXX` goes on with hex digits).
        escaped = true;
        i += 2;
    }
}

#[cold]
#[inline(never)]
fn control_in_string(i: usize, c: u8) -> SyntaxError {
    SyntaxError {
        offset: i,
        message: format!("control character 0x{c:02X} inside a string must be escaped (a string left unclosed?)"),
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

/// The value of the four hex digits at `at`, if they are four hex digits.
#[inline(always)]
fn hex4(b: &[u8], at: usize) -> Option<u16> {
    let digits = b.get(at..at + 4)?;
    let mut n = 0u16;
    for d in digits {
        let v = match d {
            b'0'..=b'9' => d - b'0',
            b'a'..=b'f' => d - b'a' + 10,
            b'A'..=b'F' => d - b'A' + 10,
            _ => return None,
        };
        n = (n << 4) | u16::from(v);
    }
    Some(n)
}

/// What follows a backslash: 2 for the two-byte escapes, 6 for `u`, 0 for
/// a byte no escape starts with. (A table, not a `match`: one load and one
/// compare for the escape every few dozen bytes of a trace's text, not an
/// indirect jump.) Indexing in a constant initializer cannot panic at run
/// time: out of range, it would not compile.
#[allow(clippy::indexing_slicing)]
static ESCAPES: [u8; 256] = {
    let mut t = [0u8; 256];
    let simple = *b"\"\\/bfnrt";
    let mut k = 0;
    while k < simple.len() {
        t[simple[k] as usize] = 2;
        k += 1;
    }
    t[b'u' as usize] = 6;
    t
};

/// Validates the escape whose backslash is at `i`, in the string opened at
/// `start`; returns the offset after it. A `\u` escape serde_json refuses
/// although the grammar allows it is a hazard, at `i`: a low surrogate
/// (`\uDC00`–`\uDFFF`) that does not follow a high one, and a high
/// surrogate (`\uD800`–`\uDBFF`) not immediately followed by the `\u`
/// escape of a low one (so `\uD800\u0041` is one: serde_json does not
/// take `\u0041` as a character after a lone surrogate, it fails).
#[inline(always)]
fn escape_end(b: &[u8], start: usize, i: usize, hazards: &mut Vec<usize>) -> Result<usize, SyntaxError> {
    let Some(&c) = b.get(i + 1) else {
        return Err(unterminated_escape(start));
    };
    match ESCAPES.get(usize::from(c)) {
        Some(2) => Ok(i + 2),
        Some(6) => match hex4(b, i + 2) {
            None => Err(invalid_hex_escape(i)),
            Some(0xD800..=0xDFFF) => Ok(surrogate_end(b, i, hazards)),
            Some(_) => Ok(i + 6),
        },
        _ => Err(invalid_escape(b, i)),
    }
}

#[cold]
#[inline(never)]
fn unterminated_escape(start: usize) -> SyntaxError {
    SyntaxError { offset: start, message: "unterminated string: the input ends inside an escape".to_string() }
}

#[cold]
#[inline(never)]
fn invalid_hex_escape(i: usize) -> SyntaxError {
    SyntaxError { offset: i, message: "invalid \\u escape: expected four hexadecimal digits".to_string() }
}

#[cold]
#[inline(never)]
fn invalid_escape(b: &[u8], i: usize) -> SyntaxError {
    SyntaxError {
        offset: i,
        message: format!(
            "invalid escape `\\{}` in string (allowed: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)",
            String::from_utf8_lossy(b.get(i + 1..i + 2).unwrap_or(&[]))
        ),
    }
}

#[cold]
#[inline(never)]
fn unterminated_string(start: usize) -> SyntaxError {
    SyntaxError { offset: start, message: "unterminated string: the input ends before its closing `\"`".to_string() }
}

#[cold]
#[inline(never)]
fn not_a_string(b: &[u8], start: usize) -> SyntaxError {
    SyntaxError { offset: start, message: format!("expected a string in double quotes, found {}", describe(b, start)) }
}

/// The end of the surrogate escape at `i` (its four digits already checked):
/// after the pair when a high surrogate is followed by the `\u` escape of a
/// low one, else after this escape alone, recorded as a hazard.
#[cold]
fn surrogate_end(b: &[u8], i: usize, hazards: &mut Vec<usize>) -> usize {
    let high = matches!(hex4(b, i + 2), Some(0xD800..=0xDBFF));
    if high && b.get(i + 6..i + 8) == Some(b"\\u") && matches!(hex4(b, i + 8), Some(0xDC00..=0xDFFF)) {
        return i + 12;
    }
    hazards.push(i);
    i + 6
}

/// True when one of the eight bytes of `v` is `"`, `\\` or below 0x20:
/// the classic "has a zero byte" test (`(x - 0x01…) & !x & 0x80…`, exact as
/// an any-test) on `v ^ '"'`, on `v ^ '\\'`, and its "has a byte less
/// than n" form for 0x20.
#[inline(always)]
fn word_may_stop_string(v: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero_byte = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let quote = zero_byte(v ^ (ONES * u64::from(b'"')));
    let backslash = zero_byte(v ^ (ONES * u64::from(b'\\')));
    let control = v.wrapping_sub(ONES * 0x20) & !v & HIGH;
    (quote | backslash | control) != 0
}

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

#[derive(Clone, Copy, PartialEq, Eq)]
enum Frame {
    Array,
    Object,
}

/// Where the containers near the top of the input's values end, recorded by
/// the one scan that validates them (the split), so that the format readers'
/// `array_items` / `object_members` jump over a record instead of scanning it
/// again. Without it, a JSON document was scanned once by the split, once
/// more for its list of traces, once more for each trace's events — before
/// serde_json read each event a fourth time (BENCHMARKS.md).
///
/// Only containers at depth `0..=DEPTH` of a top-level value and at least
/// `MIN_BYTES` long are kept (a short one costs little to scan again), so the
/// table stays small whatever the input: at most `DEPTH + 1` entries per
/// `MIN_BYTES` of input, and in practice a few per event.
/// Entries are sorted by start.
///
/// The table also holds where the long string values end (at least
/// `MIN_STRING_BYTES`, quotes included), and whether each holds an escape:
/// a message's content is most of a trace's bytes, and a reader that leaves
/// it in the source only needs its end to go on.
#[derive(Debug, Clone, Default)]
pub struct ContainerEnds {
    entries: Vec<(usize, usize)>,
    /// `(start, end)` of long strings, by start; bit 31 of `end` says the
    /// string holds an escape (strings past 2 GiB are not recorded).
    strings: Vec<(u32, u32)>,
}

/// The empty table: every container and string is scanned.
pub static NO_ENDS: ContainerEnds = ContainerEnds { entries: Vec::new(), strings: Vec::new() };

const ESCAPED_BIT: u32 = 1 << 31;

impl ContainerEnds {
    /// The deepest level recorded: the document (0), its traces (1), their
    /// events (2), the events' members (3), down to a tool call's function
    /// and its arguments (6). Readers that leave content in place read these
    /// small containers too; recording them (not only records) took 7% off a
    /// parse (callgrind, 10 MB openai).
    pub const DEPTH: usize = 6;
    /// The shortest container recorded, in bytes.
    pub const MIN_BYTES: usize = 128;

    /// The shortest string value recorded, quotes included.
    pub const MIN_STRING_BYTES: usize = 64;

    /// Records the string value from `start` (its quote) to `end`.
    #[inline(always)]
    fn record_string(&mut self, start: usize, end: usize, escaped: bool) {
        if end - start >= Self::MIN_STRING_BYTES {
            if let (Ok(start), Ok(end)) = (u32::try_from(start), u32::try_from(end)) {
                if end < ESCAPED_BIT {
                    self.strings.push((start, if escaped { end | ESCAPED_BIT } else { end }));
                }
            }
        }
    }

    /// The end of the string whose quote is at `start` and whether it holds
    /// an escape, if recorded.
    #[inline(always)]
    pub fn string_at(&self, start: usize) -> Option<(usize, bool)> {
        let start = u32::try_from(start).ok()?;
        let i = self.strings.partition_point(|e| e.0 < start);
        let (s, end) = *self.strings.get(i)?;
        (s == start).then_some(((end & !ESCAPED_BIT) as usize, end & ESCAPED_BIT != 0))
    }

    /// The end of the container whose `[` or `{` is at `start`, if recorded.
    pub fn end_of(&self, start: usize) -> Option<usize> {
        let i = self.entries.binary_search_by_key(&start, |e| e.0).ok()?;
        self.entries.get(i).map(|e| e.1)
    }

    /// Appends another table whose entries all start after this one's (the
    /// next file of a multi-file input).
    pub fn extend(&mut self, other: ContainerEnds) {
        self.entries.extend(other.entries);
        self.strings.extend(other.strings);
    }

    /// `(start, end)` of every recorded container, by start.
    pub fn iter(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.entries.iter().copied()
    }
}

/// Scans one value starting at `start` (after optional whitespace); returns
/// the offset just past it.
pub fn scan_value(b: &[u8], start: usize) -> Result<usize, SyntaxError> {
    scan(b, start, None, &mut Vec::new(), None)
}

/// [`scan_value`], appending to `hazards` the offsets where serde_json would
/// refuse (or misread) what the scanner accepts (see [`super::Split`]'s
/// `hazards`): for JSON found somewhere other than the split's values, such
/// as a document encoded in a string.
pub fn scan_value_hazards(b: &[u8], start: usize, hazards: &mut Vec<usize>) -> Result<usize, SyntaxError> {
    scan(b, start, None, hazards, None)
}

/// [`scan_value`], recording in `ends` where its containers end (see
/// [`ContainerEnds`] for which), appending to `hazards` the offsets where
/// serde_json would refuse what the scanner accepts (see [`super::Split`]'s
/// `hazards`), and to `repeats` the objects that may hold a key twice (see
/// [`super::Split`]'s `repeats`). On an error, what was completed before it
/// stays recorded. `ends` and `hazards` must hold only entries before
/// `start`; `hazards` stays sorted.
pub fn scan_value_recording(
    b: &[u8],
    start: usize,
    ends: &mut ContainerEnds,
    hazards: &mut Vec<usize>,
    repeats: &mut Vec<usize>,
) -> Result<usize, SyntaxError> {
    let from = ends.entries.len();
    let result = scan(b, start, Some(&mut *ends), hazards, Some(repeats));
    if result.is_err() {
        // The containers left open by the error hold a slot without an end.
        let mut i = from;
        while let Some(e) = ends.entries.get(i) {
            if e.1 == NO_END {
                ends.entries.remove(i);
            } else {
                i += 1;
            }
        }
    }
    result
}

/// A container's slot in the table before it closes.
const NO_END: usize = 0;

/// Takes a slot in `ends` for the container opening at `open`, `depth`
/// levels down its value, when it is shallow enough to be recorded; else
/// (or when not recording) a slot past the table's end, which nothing uses.
#[inline(always)]
fn take_slot(ends: Option<&mut ContainerEnds>, depth: usize, open: usize) -> usize {
    match ends {
        Some(t) if depth <= ContainerEnds::DEPTH => {
            t.entries.push((open, NO_END));
            t.entries.len() - 1
        }
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
/// Hazards, in the order met (so sorted): the escapes [`escape_end`]
/// describes; each container that crosses [`SERDE_DEPTH_LIMIT`] (only the
/// first level past it: the containers inside one are past it too); and
/// each object whose first key is [`SERDE_NUMBER_KEY`] (serde_json fails on
/// it, or reads it as a number, not the object the text says).
///
/// With `repeats`, the keys of the open objects are kept (as quoted ranges;
/// each frame knows where its own start) and checked as each object closes.
fn scan(
    b: &[u8],
    start: usize,
    mut ends: Option<&mut ContainerEnds>,
    hazards: &mut Vec<usize>,
    mut repeats: Option<&mut Vec<usize>>,
) -> Result<usize, SyntaxError> {
    // (kind, where it opened, where its keys start in `keys`, its slot in `ends`)
    let mut stack: Vec<(Frame, usize, usize, usize)> = Vec::new();
    let mut keys: Vec<(usize, usize)> = Vec::new();
    let track_keys = repeats.is_some();
    let mut i = skip_ws(b, start);
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
                i = skip_ws(b, i + 1);
                if b.get(i) == Some(&b'}') {
                    i += 1;
                } else {
                    let key = i;
                    let key_end;
                    (key_end, i) = member_key(b, i, hazards)?;
                    if is_number_key(b, key..key_end) {
                        // After the depth hazard at the same offset, if any: stays sorted.
                        if hazards.last() != Some(&open) {
                            hazards.push(open);
                        }
                    }
                    let slot = take_slot(ends.as_deref_mut(), stack.len(), open);
                    stack.push((Frame::Object, open, keys.len(), slot));
                    if track_keys {
                        keys.push((key, key_end));
                    }
                    continue;
                }
            }
            Some(b'[') => {
                let open = i;
                if stack.len() + 1 == SERDE_DEPTH_LIMIT {
                    hazards.push(open);
                }
                i = skip_ws(b, i + 1);
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
            Some(c) if *c == b'-' || c.is_ascii_digit() => i = scan_number(b, i)?,
            _ => return Err(expected_value(b, i)),
        }
        // After a complete value: close containers or move to the next element.
        loop {
            let Some((top, open, own_keys, slot)) = stack.last().copied() else {
                return Ok(i);
            };
            i = skip_ws(b, i);
            match (top, b.get(i)) {
                (_, Some(b',')) => {
                    i = skip_ws(b, i + 1);
                    if top == Frame::Object {
                        let key = i;
                        let key_end;
                        (key_end, i) = member_key(b, i, hazards)?;
                        if track_keys {
                            keys.push((key, key_end));
                        }
                    }
                    break;
                }
                (Frame::Array, Some(b']')) | (Frame::Object, Some(b'}')) => {
                    i += 1;
                    stack.pop();
                    if top == Frame::Object && track_keys {
                        if keys.len() >= own_keys + 2 && may_repeat_a_key(b, keys.get(own_keys..).unwrap_or(&[])) {
                            if let Some(r) = repeats.as_deref_mut() {
                                r.push(open);
                            }
                        }
                        keys.truncate(own_keys);
                    }
                    if let Some(t) = ends.as_deref_mut() {
                        if i - open >= ContainerEnds::MIN_BYTES {
                            if let Some(e) = t.entries.get_mut(slot) {
                                e.1 = i;
                            }
                        } else {
                            t.entries.truncate(slot);
                        }
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

/// True when the keys of one object (quoted ranges) may hold one key twice:
/// two are the same bytes, or one holds an escape (two different spellings
/// can decode alike), or there are too many to compare pairwise (more than
/// 16; `dupkeys` then sorts them). Keys holding invalid UTF-8 also compare
/// decoded, but the split's list is not used for such inputs.
#[inline(always)]
fn may_repeat_a_key(b: &[u8], keys: &[(usize, usize)]) -> bool {
    if keys.len() > 16 {
        return true;
    }
    let raw = |k: &(usize, usize)| b.get(k.0 + 1..k.1.saturating_sub(1)).unwrap_or(&[]);
    for (n, key) in keys.iter().enumerate() {
        let text = raw(key);
        if text.contains(&b'\\') || keys.get(..n).unwrap_or(&[]).iter().any(|k| raw(k) == text) {
            return true;
        }
    }
    false
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

/// The end of the value at `start`: from `ends` for a recorded container,
/// else scanned.
fn value_end(b: &[u8], start: usize, ends: &ContainerEnds) -> Result<usize, SyntaxError> {
    match b.get(start) {
        Some(b'{' | b'[') => match ends.end_of(start) {
            Some(end) => Ok(end),
            None => scan_value(b, start),
        },
        _ => scan_value(b, start),
    }
}

/// Scans `"key" :` and the whitespace after; returns where the key ends and
/// where the member's value starts.
fn member_key(b: &[u8], i: usize, hazards: &mut Vec<usize>) -> Result<(usize, usize), SyntaxError> {
    if b.get(i) != Some(&b'"') {
        let hint = if b.get(i) == Some(&b'}') { " (a trailing comma?)" } else { "" };
        return err(
            i,
            format!("expected an object key in double quotes, found {}{hint}", describe(b, i)),
        );
    }
    let (end, _) = string_end(b, i, hazards)?;
    let colon = skip_ws(b, end);
    if b.get(colon) != Some(&b':') {
        return err(colon, format!("expected `:` after an object key, found {}", describe(b, colon)));
    }
    Ok((end, skip_ws(b, colon + 1)))
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
        let value_start = member_key(b, key_start, &mut Vec::new())?.1;
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

/// The offset of the value at `path` inside the value starting at `start`,
/// or of the deepest container on the way when a step is missing.
pub fn find_path(b: &[u8], start: usize, path: &[Seg]) -> usize {
    let mut at = skip_ws(b, start);
    for seg in path {
        let next = match (seg, b.get(at)) {
            (Seg::Key(k), Some(b'{')) => object_members(b, at)
                .ok()
                .and_then(|m| m.into_iter().find(|(key, _)| key == k).map(|(_, r)| r.start)),
            (Seg::Index(n), Some(b'[')) => array_items(b, at).0.get(*n).map(|r| r.start),
            _ => None,
        };
        match next {
            Some(n) => at = n,
            None => return at,
        }
    }
    at
}

#[cfg(test)]
#[path = "scan_tests.rs"]
pub(crate) mod simd_tests;

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time test never misses a byte that stops a string:
    /// every byte value in every position of otherwise ordinary words, and
    /// pseudo-random words against the byte-by-byte definition.
    #[test]
    fn word_test_agrees_with_the_byte_test() {
        let stops = |c: u8| c == b'"' || c == b'\\' || c < 0x20;
        for fill in [b'a', 0x7F, 0x80, 0xFF, b' '] {
            for pos in 0..8 {
                for c in 0..=255u8 {
                    let mut w = [fill; 8];
                    w[pos] = c;
                    assert_eq!(word_may_stop_string(u64::from_le_bytes(w)), w.iter().any(|b| stops(*b)), "{w:?}");
                }
            }
        }
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let w = x.to_le_bytes();
            assert_eq!(word_may_stop_string(x), w.iter().any(|b| stops(*b)), "{w:?}");
        }
        // Strings that end or break in every position of the first words.
        for at in 0..20 {
            let mut s = vec![b'"'];
            s.extend(std::iter::repeat_n(b'x', at));
            s.extend_from_slice(b"\"tail");
            assert_eq!(scan_string(&s, 0), Ok(at + 2));
            let mut bad = vec![b'"'];
            bad.extend(std::iter::repeat_n(b'x', at));
            bad.extend_from_slice(b"\n\"");
            assert_eq!(scan_string(&bad, 0).map_err(|e| e.offset), Err(at + 1));
        }
    }

    fn ok(s: &str) -> usize {
        scan_value(s.as_bytes(), 0).unwrap_or_else(|e| panic!("{s}: {e:?}"))
    }
    fn bad(s: &str) -> SyntaxError {
        scan_value(s.as_bytes(), 0).expect_err(s)
    }

    #[test]
    fn scans_valid_values_to_their_end() {
        assert_eq!(ok("{} x"), 2);
        assert_eq!(ok(r#"{"a": [1, -2.5e+3, true, false, null, "x\"y\u00e9"]} "#), 52);
        assert_eq!(ok("  [ ]"), 5);
        assert_eq!(ok("0"), 1);
    }

    #[test]
    fn reports_grammar_errors_with_offsets() {
        let e = bad("[1, 2,]");
        assert_eq!(e.offset, 6);
        assert!(e.message.contains("trailing comma"), "{}", e.message);
        let e = bad(r#"{"a" 1}"#);
        assert_eq!(e.offset, 5);
        assert!(e.message.contains("expected `:`"));
        let e = bad("[NaN]");
        assert!(e.message.contains("NaN"));
        let e = bad("\"abc");
        assert!(e.message.contains("unterminated string"));
        let e = bad("[1 2]");
        assert!(e.message.contains("expected `,` or `]`") && e.offset == 3);
        let e = bad(r#"{"a":1,}"#);
        assert!(e.message.contains("trailing comma"));
        let e = bad(r#""a\x""#);
        assert!(e.message.contains("invalid escape"));
        // A leading zero ends the number; the caller sees the rest as trailing content.
        assert_eq!(scan_value(b"01", 0), Ok(1));
        assert!(bad("-").message.contains("expected a digit"));
        assert!(bad("1.").message.contains("decimal point"));
        assert!(bad("tru").message.contains("expected a JSON value"));
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let deep = "[".repeat(200_000) + &"]".repeat(200_000);
        assert_eq!(ok(&deep), 400_000);
        let unclosed = "[".repeat(200_000);
        assert!(bad(&unclosed).message.contains("end of input"));
    }

    /// A string long enough to make its container worth recording.
    fn pad() -> String {
        "p".repeat(ContainerEnds::MIN_BYTES)
    }

    #[test]
    fn recorded_container_ends_are_where_the_scanner_ends_them() {
        let p = pad();
        let doc = format!(
            r#" [ [ {{"a": [1, {{"deep": [[["{p}"]]]}}], "b": {{}}}}, [] ], {{"k": "v]}}"}}, "s", [[{{"x": ["{p}"]}}]], ["short"] ] "#
        );
        let doc = doc.as_bytes();
        let mut ends = ContainerEnds::default();
        assert_eq!(scan_value_recording(doc, 0, &mut ends, &mut Vec::new(), &mut Vec::new()), scan_value(doc, 0));
        let entries: Vec<_> = ends.iter().collect();
        assert!(entries.windows(2).all(|w| w[0].0 < w[1].0), "sorted by start: {entries:?}");
        for (start, end) in &entries {
            assert_eq!(scan_value(doc, *start), Ok(*end));
        }
        // Depth 0..=DEPTH (6) and long enough: not the innermost `["p…"]` under
        // "deep" (depth 7), not the short `{"k": …}`, `["short"]`, `{}` or `[]`.
        assert_eq!(ContainerEnds::DEPTH, 6, "the document below is built for depth 6");
        let heads: Vec<String> =
            entries.iter().map(|(s, e)| String::from_utf8_lossy(&doc[*s..*e]).chars().take(8).collect()).collect();
        assert_eq!(
            heads,
            vec![
                r#"[ [ {"a""#, r#"[ {"a": "#, r#"{"a": [1"#, r#"[1, {"de"#, r#"{"deep":"#, r#"[[["pppp"#, r#"[["ppppp"#,
                r#"[[{"x": "#, r#"[{"x": ["#, r#"{"x": [""#, r#"["pppppp"#,
            ]
        );
        // The readers' helpers give the same answers with the table as without.
        let mut stack = vec![1usize];
        while let Some(at) = stack.pop() {
            match doc[at] {
                b'[' => {
                    let (items, end) = array_items(doc, at);
                    assert_eq!(array_items_in(doc, at, &ends), (items.clone(), end));
                    stack.extend(items.iter().map(|r| r.start));
                }
                b'{' => {
                    let members = object_members(doc, at).unwrap();
                    assert_eq!(object_members_in(doc, at, &ends).unwrap(), members);
                    stack.extend(members.iter().map(|m| m.1.start));
                }
                _ => {}
            }
        }
    }

    #[test]
    fn a_syntax_error_keeps_only_the_containers_completed_before_it() {
        let p = pad();
        let doc = format!(r#"[{{"a": [1, "{p}"]}}, {{"b": [3, "{p}", oops]}}, ["{p}"]]"#);
        let doc = doc.as_bytes();
        let mut ends = ContainerEnds::default();
        let e = scan_value_recording(doc, 0, &mut ends, &mut Vec::new(), &mut Vec::new()).unwrap_err();
        assert_eq!(e, scan_value(doc, 0).unwrap_err());
        let kept: Vec<String> = ends.iter().map(|(s, e)| String::from_utf8_lossy(&doc[s..e]).chars().take(7).collect()).collect();
        assert_eq!(kept, vec![r#"{"a": ["#, r#"[1, "pp"#]);
        // The array helper still stops at the same error with the table.
        assert_eq!(array_items_in(doc, 0, &ends), array_items(doc, 0));
        // A table entry is only ever used for the exact start it was recorded at.
        assert_eq!(ends.end_of(1), Some(scan_value(doc, 1).unwrap()));
        assert_eq!(ends.end_of(2), None);
        assert_eq!(NO_ENDS.end_of(0), None);
    }

    #[test]
    fn array_items_and_members() {
        let s = br#"[ {"a":1} , [2], "x" ]"#;
        let (items, end) = array_items(s, 0);
        assert_eq!(end, Ok(s.len()));
        let texts: Vec<_> = items.iter().map(|r| std::str::from_utf8(&s[r.clone()]).unwrap()).collect();
        assert_eq!(texts, vec![r#"{"a":1}"#, "[2]", r#""x""#]);

        let s = br#"[1, 2, oops]"#;
        let (items, end) = array_items(s, 0);
        assert_eq!(items.len(), 2);
        assert_eq!(end.unwrap_err().offset, 7);

        let s = br#"{"k\u0041": 1, "b": {"c": [10, 20]}}"#;
        let m = object_members(s, 0).unwrap();
        assert_eq!(m[0].0, "kA");
        assert_eq!(m[1].0, "b");
        let at = find_path(s, 0, &[Seg::key("b"), Seg::key("c"), Seg::Index(1)]);
        assert_eq!(&s[at..at + 2], b"20");
        // A missing step stops at the deepest container found.
        let at = find_path(s, 0, &[Seg::key("b"), Seg::key("zz")]);
        assert_eq!(s[at], b'{');
    }

    #[test]
    fn paths_render_like_jsonpath() {
        let p = render_path("$", &[Seg::Index(3), Seg::key("tool_calls"), Seg::Index(0), Seg::key("function"), Seg::key("name")]);
        assert_eq!(p, "$[3].tool_calls[0].function.name");
        assert_eq!(render_path("$", &[Seg::key("a b")]), "$[\"a b\"]");
    }
}
