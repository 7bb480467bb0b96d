//! A chat span's `gen_ai.input.messages` text decoded only past what the
//! last span's repeats. Each chat span's input is the whole conversation so
//! far as one JSON string; decoding it whole, then scanning it whole, for
//! every span was most of an otel parse (quadratic in a run's length). The
//! raw literal (escapes and all) is compared with the last span's: the
//! items that end inside the common prefix decode to the same text, so only
//! the bytes after the last of them are decoded and checked.
//!
//! Whatever this gives is what decoding and scanning the whole text gives
//! (`tests/fast_paths/otel.rs` compares both ways); anything else (a rest
//! that is no valid continuation of the list) is read whole by the caller.

use std::borrow::Cow;
use std::ops::Range;

use crate::json::read;
use crate::json::scan;
use crate::json::string::{decode_literal, lossy, unescape_into, unicode_escape};

/// A string's bytes as they are read: a JSON literal's contents in the
/// source (`escaped` when they hold an escape), or, for a string not in
/// the source, its text (not escaped).
#[derive(Clone, Copy, Default)]
pub struct Raw<'s> {
    pub bytes: &'s [u8],
    pub escaped: bool,
}

impl<'s> Raw<'s> {
    pub fn decoded(&self) -> Cow<'s, str> {
        decode_literal(self.bytes, self.escaped)
    }
}

/// An item of a decoded list: its range in the text, and where it ends in
/// the raw bytes (`usize::MAX` when unknown: never repeated).
pub type Item = (Range<usize>, usize);

/// The text and items of the input `raw` when it repeats (byte for byte)
/// at least the first of `last_items`, the items of the text `last` (raw
/// `last_raw`): that text's prefix, then the rest decoded; `None` when it
/// repeats none, or the rest is no valid end of the list (no `,` or `]`
/// after the repeated items, a value serde_json reads otherwise than the
/// scanner, or trailing bytes).
pub fn after_repeated(last: &str, last_raw: Raw, last_items: &[Item], raw: Raw) -> Option<(String, Vec<Item>)> {
    if raw.escaped != last_raw.escaped {
        return None; // the bytes are not the same kind of text
    }
    let common = common_prefix(last_raw.bytes, raw.bytes);
    let k = last_items.iter().take_while(|(_, r)| *r <= common).count();
    let (last_item, raw_end) = last_items.get(k.checked_sub(1)?)?.clone();
    let text_end = last_item.end;
    let tail = raw.bytes.get(raw_end..)?;
    let mut text = String::with_capacity(text_end + tail.len());
    text.push_str(last.get(..text_end)?);
    if raw.escaped {
        unescape_into(tail, &mut text);
    } else {
        text.push_str(&lossy(tail));
    }
    let mut items = last_items.get(..k)?.to_vec();
    let b = text.as_bytes();
    let t = scan::skip_ws(b, text_end);
    match b.get(t) {
        Some(b']') if scan::skip_ws(b, t + 1) == b.len() => {}
        Some(b',') if b.get(scan::skip_ws(b, t + 1)) != Some(&b']') => {
            // The rest of the list, after the comma, as a list of its own:
            // the scanner is in the same state after its `[`.
            let mut rest = String::with_capacity(b.len() - t);
            rest.push('[');
            rest.push_str(text.get(t + 1..)?);
            let c = rest.as_bytes();
            let mut hazards = Vec::new();
            let end = scan::scan_value_hazards(c, 0, &mut hazards).ok()?;
            if !hazards.is_empty() || scan::skip_ws(c, end) != c.len() {
                return None;
            }
            let mut new = Vec::new();
            read::items(c, 0, &scan::NO_ENDS, &mut new)?;
            let ends = raw_offsets(raw, (raw_end, text_end), new.iter().map(|r| r.end + t));
            for (n, r) in new.iter().enumerate() {
                let at = ends.as_ref().and_then(|e| e.get(n)).copied().unwrap_or(usize::MAX);
                items.push((r.start + t..r.end + t, at));
            }
        }
        _ => return None,
    }
    Some((text, items))
}

/// The items `ranges` of the text `raw` decodes to, with where each ends
/// in `raw`.
pub fn with_raw_ends(raw: Raw, ranges: Vec<Range<usize>>) -> Vec<Item> {
    let ends = raw_offsets(raw, (0, 0), ranges.iter().map(|r| r.end));
    ranges.into_iter().enumerate().map(|(n, r)| (r, ends.as_ref().and_then(|e| e.get(n)).copied().unwrap_or(usize::MAX))).collect()
}

/// How many leading bytes `a` and `b` share.
pub fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    const CHUNK: usize = 64;
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + CHUNK <= n && a.get(i..i + CHUNK) == b.get(i..i + CHUNK) {
        i += CHUNK;
    }
    while i < n && a.get(i) == b.get(i) {
        i += 1;
    }
    i
}

/// Where in `raw` each of the text offsets `ends` (ascending, none before
/// `from.1`) falls, decoding on from `raw` offset `from.0`, which decodes
/// to text offset `from.1`: the raw offset whose decoding stops exactly
/// there. Mirrors `unescape_into` escape by escape (the bytes between
/// escapes are valid UTF-8, copied as they are). `None` when an offset
/// falls inside an escape's character or past the text.
fn raw_offsets(raw: Raw, from: (usize, usize), ends: impl Iterator<Item = usize>) -> Option<Vec<usize>> {
    let b = raw.bytes;
    let (mut r, mut d) = from;
    let mut out = Vec::new();
    for target in ends {
        loop {
            let gap = target.checked_sub(d)?;
            let run = if raw.escaped { b.get(r..).map(|rest| memchr::memchr(b'\\', rest).unwrap_or(rest.len()))? } else { b.len().checked_sub(r)? };
            if gap <= run {
                r += gap;
                d = target;
                out.push(r);
                break;
            }
            r += run;
            d += run;
            // The escape at `r`, as `unescape_into` decodes it.
            let (len, used) = match b.get(r + 1)? {
                b'u' => {
                    let (c, used) = unicode_escape(b, r);
                    (c.len_utf8(), used)
                }
                c if c.is_ascii() => (1, 2),
                _ => (0, 1), // a backslash before a non-ASCII character is dropped
            };
            r += used;
            d += len;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(s: &str) -> Raw<'_> {
        Raw { bytes: s.as_bytes(), escaped: s.contains('\\') }
    }

    #[test]
    fn raw_offsets_map_text_offsets_back() {
        let r = raw(r#"[{\"a\":\"\u00e9\ud83d\ude00\n\"},1]"#);
        let text = r.decoded();
        assert_eq!(text, "[{\"a\":\"é😀\n\"},1]");
        let ends: Vec<usize> = [1, 15, 16, 17].to_vec();
        let got = raw_offsets(r, (0, 0), ends.iter().copied()).unwrap();
        for (d, r_at) in ends.iter().zip(&got) {
            assert_eq!(decode_literal(r.bytes.get(..*r_at).unwrap(), true), text.get(..*d).unwrap());
        }
        // Inside the two-byte é: no raw offset decodes to it.
        assert_eq!(raw_offsets(r, (0, 0), [8].into_iter()), None);
    }

    #[test]
    fn repeated_items_are_not_decoded_again() {
        let last_raw = raw(r#"[{\"x\":1}, {\"y\":\"\u00e9\"}]"#);
        let last = last_raw.decoded();
        let mut ranges = Vec::new();
        read::items(last.as_bytes(), 0, &scan::NO_ENDS, &mut ranges).unwrap();
        let items = with_raw_ends(last_raw, ranges);
        let next = raw(r#"[{\"x\":1}, {\"y\":\"\u00e9\"},{\"z\":[]} ]"#);
        let (text, got) = after_repeated(&last, last_raw, &items, next).unwrap();
        assert_eq!(text, next.decoded());
        let mut whole = Vec::new();
        read::items(text.as_bytes(), 0, &scan::NO_ENDS, &mut whole).unwrap();
        assert_eq!(got.iter().map(|(r, _)| r.clone()).collect::<Vec<_>>(), whole);
        assert_eq!(got, with_raw_ends(next, whole));
        // Not a list's end: read whole by the caller.
        for bad in [r#"[{\"x\":1}, {\"y\":\"\u00e9\"},]"#, r#"[{\"x\":1}, {\"y\":\"\u00e9\"}] x"#, r#"[{\"x\":1}, {\"y\":\"\u00e9\"},{]"#] {
            assert_eq!(after_repeated(&last, last_raw, &items, raw(bad)), None, "{bad}");
        }
        // Nothing repeated.
        assert_eq!(after_repeated(&last, last_raw, &items, raw(r#"[{\"x\":2}]"#)), None);
    }
}
