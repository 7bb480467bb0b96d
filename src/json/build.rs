//! A record's `serde_json::Value`, built faster than serde_json builds it.
//!
//! Most formats read each record into a `Value` and walk it. serde_json
//! finds a string's end a word at a time, checks its UTF-8 piece by piece
//! and decodes escapes one call each; on the generated traces that was a
//! quarter to a third of the whole parse. This builder finds string ends with
//! the split's SIMD windows ([`validated_string_end`]), checks UTF-8 once
//! per string with simdutf8, copies the text between escapes whole, and
//! makes canonical integers without a second parser.
//!
//! It gives `Some` only where serde_json would give the same `Value` (key
//! order, repeated keys and number texts included): on anything it is not
//! sure of (a lone surrogate, a bad escape or number, serde_json's private
//! number key, nesting past [`MAX_DEPTH`], a byte out of place) it gives
//! `None`, and the caller asks serde_json, whose error the diagnostics quote. `tests/json_build.rs`
//! holds it to serde_json.

use serde_json::{Map, Number, Value};

use super::scan::skip_ws;
use super::string::{hex4, validated_string_end};

/// Containers nested deeper than this are left to serde_json (whose limit,
/// 128, gives the error; staying below it means never accepting what it refuses).
pub const MAX_DEPTH: usize = 100;

/// The value `b` holds (whitespace around it allowed), as serde_json's
/// `from_slice::<Value>` would give it; `None` when unsure (see the module).
pub fn value(b: &[u8]) -> Option<Value> {
    value_with_holes(b, &[])
}

/// [`value`], but the string literals at `holes` (each from its opening
/// quote to past its closing one, sorted; the caller found them in a value
/// the split validated) are read as empty, neither decoded nor scanned: a
/// reader that leaves them in the source (an OTLP span's conversation so
/// far) does not pay for them.
pub fn value_with_holes(b: &[u8], holes: &[std::ops::Range<usize>]) -> Option<Value> {
    let (v, end) = value_at(b, skip_ws(b, 0), 0, holes)?;
    (skip_ws(b, end) == b.len()).then_some(v)
}

/// The value starting at `i` and the offset just past it.
fn value_at(b: &[u8], i: usize, depth: usize, holes: &[std::ops::Range<usize>]) -> Option<(Value, usize)> {
    match *b.get(i)? {
        b'"' if !holes.is_empty() => match holes.binary_search_by_key(&i, |h| h.start).ok().and_then(|k| holes.get(k)) {
            Some(hole) if hole.end > i => Some((Value::String(String::new()), hole.end)),
            _ => string(b, i).map(|(s, end)| (Value::String(s), end)),
        },
        b'"' => string(b, i).map(|(s, end)| (Value::String(s), end)),
        b'{' => object(b, i, depth, holes),
        b'[' => array(b, i, depth, holes),
        b't' => literal(b, i, b"true", Value::Bool(true)),
        b'f' => literal(b, i, b"false", Value::Bool(false)),
        b'n' => literal(b, i, b"null", Value::Null),
        b'-' | b'0'..=b'9' => number(b, i),
        _ => None,
    }
}

fn literal(b: &[u8], i: usize, word: &[u8], v: Value) -> Option<(Value, usize)> {
    (b.get(i..i + word.len())? == word).then_some((v, i + word.len()))
}

fn object(b: &[u8], open: usize, depth: usize, holes: &[std::ops::Range<usize>]) -> Option<(Value, usize)> {
    if depth >= MAX_DEPTH {
        return None;
    }
    let mut map = Map::new();
    let mut i = skip_ws(b, open + 1);
    if b.get(i) == Some(&b'}') {
        return Some((Value::Object(map), i + 1));
    }
    loop {
        if b.get(i) != Some(&b'"') {
            return None;
        }
        let (key, key_end) = string(b, i)?;
        // serde_json reads an object that starts with its private key for
        // arbitrary-precision numbers as a number (or refuses it).
        if key.starts_with("$serde_json::private::") {
            return None;
        }
        let colon = skip_ws(b, key_end);
        if b.get(colon) != Some(&b':') {
            return None;
        }
        let (v, end) = value_at(b, skip_ws(b, colon + 1), depth + 1, holes)?;
        // serde_json's `Map::insert` too: a repeated key keeps its first
        // place and takes the last value.
        map.insert(key, v);
        i = skip_ws(b, end);
        match b.get(i)? {
            b',' => i = skip_ws(b, i + 1),
            b'}' => return Some((Value::Object(map), i + 1)),
            _ => return None,
        }
    }
}

fn array(b: &[u8], open: usize, depth: usize, holes: &[std::ops::Range<usize>]) -> Option<(Value, usize)> {
    if depth >= MAX_DEPTH {
        return None;
    }
    let mut items = Vec::new();
    let mut i = skip_ws(b, open + 1);
    if b.get(i) == Some(&b']') {
        return Some((Value::Array(items), i + 1));
    }
    loop {
        let (v, end) = value_at(b, i, depth + 1, holes)?;
        items.push(v);
        i = skip_ws(b, end);
        match b.get(i)? {
            b',' => i = skip_ws(b, i + 1),
            b']' => return Some((Value::Array(items), i + 1)),
            _ => return None,
        }
    }
}

/// The string whose `"` is at `open`, decoded, and the offset past its end.
#[inline]
fn string(b: &[u8], open: usize) -> Option<(String, usize)> {
    let (end, escaped) = validated_string_end(b, open)?;
    let raw = b.get(open + 1..end.checked_sub(1)?)?;
    // The SIMD windows stop at a control character (no end, so `None`
    // above); the word-at-a-time fallback does not look for them.
    if !super::simd::ENABLED && raw.iter().any(|&c| c < 0x20) {
        return None;
    }
    let text = simdutf8::basic::from_utf8(raw).ok()?;
    let s = if escaped { unescape_strict(text)? } else { text.to_owned() };
    Some((s, end))
}

/// The contents of a string literal with escapes, decoded as serde_json
/// decodes them; `None` for an escape it would refuse (or might: every lone
/// surrogate).
fn unescape_strict(text: &str) -> Option<String> {
    let raw = text.as_bytes();
    let mut out = String::with_capacity(raw.len());
    let mut i = 0;
    loop {
        let Some(at) = memchr::memchr(b'\\', raw.get(i..)?) else {
            out.push_str(text.get(i..)?);
            return Some(out);
        };
        // A backslash is ASCII: both ends are character boundaries.
        out.push_str(text.get(i..i + at)?);
        i += at;
        let c = match *raw.get(i + 1)? {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'n' => '\n',
            b't' => '\t',
            b'r' => '\r',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'u' => {
                let hi = u32::from(hex4(raw, i + 2)?);
                i += 6;
                let c = match hi {
                    0xD800..=0xDBFF => {
                        if raw.get(i..i + 2)? != b"\\u" {
                            return None;
                        }
                        let lo = u32::from(hex4(raw, i + 2)?);
                        if !(0xDC00..=0xDFFF).contains(&lo) {
                            return None;
                        }
                        i += 6;
                        char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))?
                    }
                    0xDC00..=0xDFFF => return None,
                    _ => char::from_u32(hi)?,
                };
                out.push(c);
                continue;
            }
            _ => return None,
        };
        out.push(c);
        i += 2;
    }
}

/// The number starting at `i`. With serde_json's `arbitrary_precision` a
/// `Number` keeps its text as written: a canonical integer (no leading
/// zero, not `-0`, fits 64 bits) is made from its value, whose digits are
/// that text; anything else is parsed by serde_json and kept only if the
/// text it kept is the whole token.
fn number(b: &[u8], i: usize) -> Option<(Value, usize)> {
    let rest = b.get(i..)?;
    let len = rest.iter().position(|c| !matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')).unwrap_or(rest.len());
    let token = rest.get(..len)?;
    let end = i + len;
    let (negative, digits) = match token.split_first()? {
        (b'-', digits) => (true, digits),
        _ => (false, token),
    };
    let canonical = !digits.is_empty()
        && digits.len() <= 18
        && digits.iter().all(u8::is_ascii_digit)
        && (digits.first() != Some(&b'0') || (digits.len() == 1 && !negative));
    if canonical {
        let n = digits.iter().fold(0i64, |n, d| n * 10 + i64::from(d - b'0'));
        let n = if negative { Number::from(-n) } else { Number::from(n) };
        return Some((Value::Number(n), end));
    }
    let text = std::str::from_utf8(token).ok()?;
    let n: Number = text.parse().ok()?;
    (n.as_str() == text).then_some((Value::Number(n), end))
}

/// `serde_json::from_slice::<Value>`: [`value`] when it gives one, else
/// serde_json (whose error is the one to report).
pub fn from_slice(b: &[u8]) -> serde_json::Result<Value> {
    match value(b) {
        Some(v) => Ok(v),
        None => serde_json::from_slice(b),
    }
}

/// `serde_json::from_str::<Value>`, the same way as [`from_slice`].
pub fn from_str(s: &str) -> serde_json::Result<Value> {
    match value(s.as_bytes()) {
        Some(v) => Ok(v),
        None => serde_json::from_str(s),
    }
}
