//! JSON string literals: where one ends (the split's validating scan, and
//! the readers' second look at a string the split validated) and what it
//! says (decoding its escapes). Every other place that meets a string
//! literal — the scanner, the readers, Python's grammar ([`super::python`]),
//! a [`crate::text::Text`] left in the source — goes through these.

use std::borrow::Cow;

use super::scan::{describe, SyntaxError};

/// Scans a string starting at the opening quote; returns the offset after the closing quote.
pub fn scan_string(b: &[u8], start: usize) -> Result<usize, SyntaxError> {
    string_end(b, start, &mut Vec::new()).map(|(end, _)| end)
}

/// [`scan_string`], adding to `hazards` the escapes serde_json refuses (see
/// [`escape_end`]), and saying whether the string holds an escape.
#[inline(always)]
pub(super) fn string_end(b: &[u8], start: usize, hazards: &mut Vec<usize>) -> Result<(usize, bool), SyntaxError> {
    if b.get(start) != Some(&b'"') {
        return Err(not_a_string(b, start));
    }
    if let Some(end) = short_plain_end32(b, start) {
        return Ok((end, false));
    }
    if super::simd::ENABLED {
        string_end_simd(b, start, hazards)
    } else {
        string_end_words(b, start, hazards)
    }
}

/// The end of the string whose `"` is at `start` when it closes within the
/// 16 bytes after that quote with no backslash or control byte before its
/// closing quote (and 16 bytes follow the quote); `None` otherwise, and the
/// full scan decides. Four strings in five of a trace are keys and short
/// values that end so: inlined at each scan's call, this one window costs
/// less than the call to the full scan's setup and carry machinery.
#[cfg(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
fn short_plain_end(b: &[u8], start: usize) -> Option<usize> {
    let chunk = b.get(start + 1..)?.first_chunk::<16>()?;
    let block = super::simd::string_chunk16(chunk);
    let stops = block.quote_or_control | block.backslash;
    // The first stop must be the closing quote (not a backslash, not a
    // control byte); with none, `k` is 64 and `get` fails.
    let k = stops.trailing_zeros() as usize;
    (chunk.get(k) == Some(&b'"')).then_some(start + k + 2)
}

/// [`short_plain_end`] over two 16-byte windows (32 bytes must follow the
/// quote): the split's own shortcut, which also ends the ids, timestamps
/// and paths of 16 to 31 bytes without the full scan's call (the readers'
/// second look keeps the one window: it is inlined at many more places).
#[cfg(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
fn short_plain_end32(b: &[u8], start: usize) -> Option<usize> {
    // Written out, not a loop over the two windows: the loop's slices and
    // their checks cost 1–3M instructions a 10 MB parse (callgrind).
    let chunk = b.get(start + 1..)?.first_chunk::<32>()?;
    let (first, rest) = chunk.split_first_chunk::<16>()?;
    let block = super::simd::string_chunk16(first);
    let stops = block.quote_or_control | block.backslash;
    if stops != 0 {
        let k = stops.trailing_zeros() as usize;
        return (first.get(k) == Some(&b'"')).then_some(start + k + 2);
    }
    let second = rest.first_chunk::<16>()?;
    let block = super::simd::string_chunk16(second);
    let stops = block.quote_or_control | block.backslash;
    // With no stop, `k` is 64 and `get` fails.
    let k = stops.trailing_zeros() as usize;
    (second.get(k) == Some(&b'"')).then_some(start + 16 + k + 2)
}

#[cfg(not(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128"))))]
#[inline(always)]
fn short_plain_end32(_b: &[u8], _start: usize) -> Option<usize> {
    None
}

#[cfg(not(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128"))))]
#[inline(always)]
fn short_plain_end(_b: &[u8], _start: usize) -> Option<usize> {
    None
}

/// The string scan with SIMD (the split's hot loop: trace files are mostly
/// long strings with an escape every few dozen bytes, most of them `\"` and
/// `\n`). Each 64-byte window from the byte after the opening quote (the
/// inline shortcut has already looked at the first 32) is classified into
/// masks ([`super::simd::StringBlock`]); which bytes are escaped follows from
/// the backslashes alone ([`escaped_bytes`]). The scan then stops only at
/// `events`: an unescaped `"` or control byte, and an escaped byte other
/// than `"`, `\\` or `n` (`\u`, the other escapes, invalid ones), whose
/// escape the scalar [`escape_end`] checks, clearing the bits it covers. So
/// the common escapes cost no branch of their own, and the first event is
/// where the byte-by-byte scan would first do anything but pass: same
/// results, offsets, messages.
#[cfg(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128")))]
fn string_end_simd(b: &[u8], start: usize, hazards: &mut Vec<usize>) -> Result<(usize, bool), SyntaxError> {
    // The escaped bytes of the windows before the current one, ORed (not 0:
    // the string holds an escape); whether the current window's first byte
    // is escaped (0 or 1).
    let mut seen_escapes = 0u64;
    let mut carry = 0u64;
    let mut base = start + 1;
    // The last bytes of the input, padded: one window classification serves
    // both (a second, inlined for the tail, made the loop keep its masks in
    // memory).
    let mut padded: [u8; 64];
    'windows: loop {
        let window = match b.get(base..).and_then(|rest| rest.first_chunk::<64>()) {
            Some(window) => window,
            None => {
                padded = padded_window(b, base);
                &padded
            }
        };
        let block = super::simd::string_chunk64(window, carry != 0);
        let (escaped, next_carry) = escaped_bytes(block.backslash, carry);
        let mut events = (block.quote_or_control & !escaped) | (escaped & !block.plain_escapes);
        while events != 0 {
            let k = events.trailing_zeros();
            let p = base + k as usize;
            if (escaped >> k) & 1 == 0 {
                // (Past the end of the input, every byte is an event.)
                return match b.get(p) {
                    Some(b'"') => Ok((p + 1, (seen_escapes | (escaped & ((1u64 << k) - 1))) != 0)),
                    Some(c) => Err(control_in_string(p, *c)),
                    None => Err(unterminated_string(start)),
                };
            }
            // The escape whose backslash is just before `p` (its byte is in `escaped`).
            let next = escape_end(b, start, p - 1, hazards)?;
            let passed = next - base;
            if passed >= 64 {
                // Past this window: the next starts right after the escape.
                seen_escapes |= escaped;
                base = next;
                carry = 0;
                continue 'windows;
            }
            events &= u64::MAX << passed;
        }
        seen_escapes |= escaped;
        carry = next_carry;
        base += 64;
    }
}

/// The bytes of `b` from `at` (fewer than 64: the input's end) in a window
/// padded with 0x00, which the scans take as a control byte: an event.
#[cfg(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128")))]
#[cold]
#[inline(never)]
fn padded_window(b: &[u8], at: usize) -> [u8; 64] {
    let mut window = [0u8; 64];
    let rest = b.get(at..).unwrap_or(&[]);
    if let Some(head) = window.get_mut(..rest.len()) {
        head.copy_from_slice(rest);
    }
    window
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

/// The end of the string literal at `start` (its opening quote) and whether
/// it holds an escape, when it is one serde_json reads: well formed, and no
/// lone surrogate escape. `None` otherwise.
pub fn strict_string_end(b: &[u8], start: usize) -> Option<(usize, bool)> {
    let mut hazards = Vec::new();
    let end = string_end(b, start, &mut hazards).ok()?;
    hazards.is_empty().then_some(end)
}

/// The end of a string the split has already validated, whose `"` is at
/// `start`: the offset just past its closing quote, and whether it holds a
/// backslash escape; `None` when it does not end. Nothing is checked again:
/// the end is the first unescaped `"`, found a window at a time (16 bytes
/// twice, then 64) with no stop at escapes. The format readers' second look at a
/// string (`json::read`), which walked every escape with memchr2 before.
#[inline(always)]
pub fn validated_string_end(b: &[u8], start: usize) -> Option<(usize, bool)> {
    // (The full scan, too, reads the string from `start + 1` whatever is at
    // `start`, and ends it where this does when this finds an end.)
    if let Some(end) = short_plain_end(b, start) {
        return Some((end, false));
    }
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
    // A second look of 16 bytes before the 64-byte windows: most strings past
    // 16 bytes that a record holds (ids, timestamps, paths) end within 32,
    // where one 64-byte window costs about four of these.
    let second = string_block16(b, base);
    let (escaped, _) = escaped_bytes(second.backslash, carry);
    let ends = second.quote_or_control & !escaped & 0xFFFF;
    if ends != 0 {
        let k = ends.trailing_zeros();
        return close(base + k as usize, seen_backslash || second.backslash & below(k) != 0);
    }
    carry = (escaped >> 16) & 1;
    seen_backslash |= second.backslash != 0;
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


/// The value of the four hex digits at `at`, if they are four hex digits:
/// the one reader of `\uXXXX` digits (the scan's check, the decoding). Each
/// digit's value comes from [`HEX_DIGITS`] (one load, not three range
/// tests), the four checked at once.
#[inline(always)]
pub(crate) fn hex4(b: &[u8], at: usize) -> Option<u16> {
    let digits = b.get(at..)?.first_chunk::<4>()?;
    let value = |d: u8| u16::from(HEX_DIGITS.get(usize::from(d)).copied().unwrap_or(NOT_HEX));
    let [d0, d1, d2, d3] = (*digits).map(value);
    if (d0 | d1 | d2 | d3) & u16::from(NOT_HEX) != 0 {
        return None;
    }
    Some((d0 << 12) | (d1 << 8) | (d2 << 4) | d3)
}

/// A byte that is no hex digit in [`HEX_DIGITS`] (a digit's value is below 16).
const NOT_HEX: u8 = 0xF0;

/// The value of each hex digit (either case), [`NOT_HEX`] for every other
/// byte. Indexing in a constant initializer cannot panic at run time: out
/// of range, it would not compile.
#[allow(clippy::indexing_slicing)]
static HEX_DIGITS: [u8; 256] = {
    let mut t = [NOT_HEX; 256];
    let mut k = 0u8;
    while k < 10 {
        t[(b'0' + k) as usize] = k;
        k += 1;
    }
    let mut k = 0u8;
    while k < 6 {
        t[(b'a' + k) as usize] = 10 + k;
        t[(b'A' + k) as usize] = 10 + k;
        k += 1;
    }
    t
};

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
            Some(first @ 0xD800..=0xDFFF) => Ok(surrogate_end(b, i, first).unwrap_or_else(|| lone_surrogate(i, hazards))),
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

/// The end of the surrogate escape at `i` whose value is `first`, when it
/// is a high surrogate followed by the `\u` escape of a low one (after the
/// pair: emoji and other characters past U+FFFF); `None` for a lone one.
#[inline(always)]
fn surrogate_end(b: &[u8], i: usize, first: u16) -> Option<usize> {
    let low = || b.get(i + 6..i + 8) == Some(b"\\u") && matches!(hex4(b, i + 8), Some(0xDC00..=0xDFFF));
    ((0xD800..=0xDBFF).contains(&first) && low()).then_some(i + 12)
}

/// The end of the lone surrogate escape at `i`, recorded as a hazard.
#[cold]
#[inline(never)]
fn lone_surrogate(i: usize, hazards: &mut Vec<usize>) -> usize {
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

/// The bytes as text, invalid UTF-8 replaced. Texts in the source are
/// almost always valid (the import checks), and a validating check is several
/// times faster than `String::from_utf8_lossy`'s chunk iterator on them;
/// simdutf8's (SIMD, also on wasm) is faster again than `str::from_utf8` on
/// the long texts that make up most of a trace.
#[inline]
pub fn lossy(raw: &[u8]) -> Cow<'_, str> {
    match checked_text(raw) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(raw),
    }
}

/// Below this many bytes, a text is first tested for ASCII before it is
/// validated: simdutf8 hands such short inputs to `core::str::from_utf8`
/// anyway, behind its own call.
const SHORT_TEXT: usize = 64;

/// `raw` as text if it is valid UTF-8: a short all-ASCII text by
/// [`super::simd::ascii_str`], anything else by simdutf8.
#[inline]
fn checked_text(raw: &[u8]) -> Result<&str, simdutf8::basic::Utf8Error> {
    if raw.len() < SHORT_TEXT {
        if let Some(text) = super::simd::ascii_str(raw) {
            return Ok(text);
        }
    }
    simdutf8::basic::from_utf8(raw)
}

/// The contents of a JSON string literal (the bytes between its quotes),
/// decoded; `escaped` says whether they hold a backslash escape (without
/// one, the text is the bytes, borrowed).
pub fn decode_literal(raw: &[u8], escaped: bool) -> Cow<'_, str> {
    if !escaped {
        return lossy(raw);
    }
    let mut out = String::with_capacity(raw.len());
    unescape_into(raw, &mut out);
    Cow::Owned(out)
}

/// Appends the decoded contents of a JSON string literal to `out`. Runs
/// between escapes are copied whole (found with memchr); a lone surrogate
/// or invalid UTF-8 becomes U+FFFD (as in a Rust string it must; Python
/// would keep the lone surrogate). Never fails: bytes that are no valid
/// literal decode as far as they make sense.
pub fn unescape_into(raw: &[u8], out: &mut String) {
    // Checked once as a whole, the text between escapes is sliced from it
    // (a backslash is ASCII, so every slice ends on a character boundary)
    // instead of being checked again piece by piece: a fifth of building the
    // search index went to those checks.
    match checked_text(raw) {
        Ok(text) => unescape_with(raw, out, |piece, out| out.push_str(text.get(piece).unwrap_or_default())),
        Err(_) => unescape_with(raw, out, |piece, out| out.push_str(&lossy(raw.get(piece).unwrap_or_default()))),
    }
}

/// How far from `from` the next backslash of `raw` is. Traces' texts have
/// an escape every few dozen bytes (`\"`, `\n`), often closer: the next
/// 16 bytes are looked at with one SIMD window before memchr's call (whose
/// setup cost more than the search on such short runs).
#[cfg(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
fn next_backslash(raw: &[u8], from: usize) -> Option<usize> {
    // (Padded past the end with bytes that are no backslash.)
    let near = super::simd::string_block16(raw, from).backslash;
    if near != 0 {
        return Some(near.trailing_zeros() as usize);
    }
    raw.get(from + 16..).and_then(|rest| memchr::memchr(b'\\', rest)).map(|at| at + 16)
}

#[cfg(not(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128"))))]
fn next_backslash(raw: &[u8], from: usize) -> Option<usize> {
    raw.get(from..).and_then(|rest| memchr::memchr(b'\\', rest))
}

/// The unescaping loop: `piece` appends the text between two escapes (a
/// byte range of `raw`), this decodes the escapes.
fn unescape_with(raw: &[u8], out: &mut String, piece: impl Fn(std::ops::Range<usize>, &mut String)) {
    let mut i = 0;
    while i < raw.len() {
        let Some(at) = next_backslash(raw, i) else {
            piece(i..raw.len(), out);
            return;
        };
        if at > 0 {
            piece(i..i + at, out);
        }
        i += at;
        let c = match raw.get(i + 1) {
            Some(b'n') => '\n',
            Some(b't') => '\t',
            Some(b'r') => '\r',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'u') => {
                let (c, used) = unicode_escape(raw, i);
                out.push(c);
                i += used;
                continue;
            }
            Some(c) if c.is_ascii() => char::from(*c),
            // A backslash before a non-ASCII character is no JSON escape (the
            // split rejects it): the backslash is dropped, the character kept.
            Some(_) => {
                i += 1;
                continue;
            }
            None => return,
        };
        out.push(c);
        i += 2;
    }
}

/// The character of the `\uXXXX` escape at `i` (with its low surrogate when
/// it is a high one) and how many bytes it takes; U+FFFD for a lone
/// surrogate (a high one not followed by the escape of a low one, taking
/// only its own six bytes) and for digits that are not four hex digits.
pub(crate) fn unicode_escape(raw: &[u8], i: usize) -> (char, usize) {
    let Some(hi) = hex4(raw, i + 2).map(u32::from) else { return ('\u{fffd}', 2) };
    if (0xD800..0xDC00).contains(&hi) {
        if raw.get(i + 6..i + 8) == Some(b"\\u") {
            if let Some(lo) = hex4(raw, i + 8).map(u32::from).filter(|lo| (0xDC00..0xE000).contains(lo)) {
                let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                return (char::from_u32(c).unwrap_or('\u{fffd}'), 12);
            }
        }
        return ('\u{fffd}', 6);
    }
    (char::from_u32(hi).unwrap_or('\u{fffd}'), 6)
}

#[cfg(test)]
#[path = "string_tests.rs"]
mod tests;
