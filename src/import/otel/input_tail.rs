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
use crate::json::scan::{self, Grammar};
use crate::json::ContainerEnds;
use super::unescape::{unescape_noting, Checkpoint};
use super::unescape::decode_literal;
use crate::json::string::{lossy, unicode_escape};

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

/// The items of the input `raw` when it repeats (byte for byte) at least
/// the first of `last_items`, the items of the text `text` holds (raw
/// `last_raw`), and how many it repeats; `text` then holds the input's
/// text: the last one's cut after the repeated items (not copied: the
/// prefix was most of a span's bytes), then the rest decoded. `None` when
/// it repeats none, or the rest is no valid end of the list (no `,` or `]`
/// after the repeated items, a value serde_json reads otherwise than the
/// scanner, or trailing bytes); `text` is then no longer the last text.
///
/// `known`: given the raw bytes from a new item's start on, the length of
/// the item it recognises there (a tool answer re-sent), its text appended
/// to the text given (and nothing appended when `None`); such items,
/// straight after the repeated ones, are neither decoded nor scanned.
pub fn after_repeated(text: &mut String, last_raw: Raw, last_items: &[Item], raw: Raw, mut known: impl FnMut(&[u8], &mut String) -> Option<usize>) -> Option<(Vec<Item>, usize)> {
    if raw.escaped != last_raw.escaped {
        return None; // the bytes are not the same kind of text
    }
    // Usually the input repeats the whole last one: one comparison says so.
    let last_end = last_items.last().map_or(0, |(_, r)| *r);
    let common = match (last_raw.bytes.get(..last_end), raw.bytes.get(..last_end)) {
        (Some(a), Some(b)) if same_bytes(a, b) => last_end,
        _ => common_prefix(last_raw.bytes, raw.bytes),
    };
    let k = last_items.iter().take_while(|(_, r)| *r <= common).count();
    let (last_item, mut raw_end) = last_items.get(k.checked_sub(1)?)?.clone();
    let mut text_end = last_item.end;
    text.get(..text_end)?;
    text.truncate(text_end);
    let mut items = last_items.get(..k)?.to_vec();
    // Known items written straight after a comma (a `,` decodes to itself).
    while raw.escaped && raw.bytes.get(raw_end) == Some(&b',') {
        text.push(',');
        let Some(used) = raw.bytes.get(raw_end + 1..).and_then(|rest| known(rest, text)) else {
            text.truncate(text_end);
            break;
        };
        items.push((text_end + 1..text.len(), raw_end + 1 + used));
        raw_end += 1 + used;
        text_end = text.len();
    }
    let tail = raw.bytes.get(raw_end..)?;
    text.reserve(tail.len());
    let mut checkpoints = Vec::new();
    if raw.escaped {
        unescape_noting(raw.bytes, raw_end, text, |c| checkpoints.push(c))?;
    } else {
        text.push_str(&lossy(tail));
    }
    let b = text.as_bytes();
    let t = scan::skip_ws(b, text_end);
    match b.get(t) {
        Some(b']') if scan::skip_ws(b, t + 1) == b.len() => {}
        Some(b',') if b.get(scan::skip_ws(b, t + 1)) != Some(&b']') => {
            // The rest of the list, after the comma, as a list of its own
            // (the scanner is in the same state after its `[`): the comma
            // stands for that `[` while it is read, the rest not copied.
            text.replace_range(t..t + 1, "[");
            let new = list_items(text.as_bytes(), t);
            text.replace_range(t..t + 1, ",");
            let new = new?;
            let ends = mapped_offsets(raw, (raw_end, text_end), &checkpoints, new.iter().map(|r| r.end));
            for (n, r) in new.into_iter().enumerate() {
                let at = ends.as_ref().and_then(|e| e.get(n)).copied().unwrap_or(usize::MAX);
                items.push((r, at));
            }
        }
        _ => return None,
    }
    Some((items, k))
}

/// The items of the list whose `[` is at `open` when it is valid JSON that
/// serde_json reads as the scanner does, and nothing but whitespace
/// follows it. The scan records where the long items end, so finding them
/// is no second walk of their bytes (`read::items` without the table
/// walked each item bracket by bracket: two fifths of a tail's scan).
pub fn list_items(b: &[u8], open: usize) -> Option<Vec<Range<usize>>> {
    let mut ends = ContainerEnds::empty(Grammar::Strict);
    let (mut hazards, mut repeats) = (Vec::new(), Vec::new());
    let end = scan::scan_value_recording::<false>(b, open, &mut ends, &mut hazards, &mut repeats).ok()?;
    if !hazards.is_empty() || scan::skip_ws(b, end) != b.len() {
        return None;
    }
    let mut items = Vec::new();
    read::items(b, open, &ends, &mut items)?;
    Some(items)
}

/// [`raw_offsets`], walking each offset's escapes from the last of
/// `checkpoints` (which `unescape_noting` noted decoding from `from`)
/// before it, not from `from`: a window's escapes, not the whole tail's.
fn mapped_offsets(raw: Raw, from: (usize, usize), checkpoints: &[Checkpoint], ends: impl Iterator<Item = usize>) -> Option<Vec<usize>> {
    let mut out = Vec::new();
    for target in ends {
        let k = checkpoints.partition_point(|c| c.text < target);
        let start = match k.checked_sub(1).and_then(|p| checkpoints.get(p)) {
            Some(c) => (c.raw, c.text),
            None => from,
        };
        out.extend(raw_offsets(raw, start, std::iter::once(target))?);
    }
    Some(out)
}

/// The items `ranges` of the text `raw` decodes to, with where each ends
/// in `raw`.
pub fn with_raw_ends(raw: Raw, ranges: Vec<Range<usize>>) -> Vec<Item> {
    let ends = raw_offsets(raw, (0, 0), ranges.iter().map(|r| r.end));
    ranges.into_iter().enumerate().map(|(n, r)| (r, ends.as_ref().and_then(|e| e.get(n)).copied().unwrap_or(usize::MAX))).collect()
}

/// How many leading bytes `a` and `b` share.
pub fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    if cfg!(target_arch = "wasm32") {
        return common_prefix_by_words(a, b);
    }
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

/// `a == b`; in wasm as [`common_prefix_by_words`] compares.
pub fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if cfg!(target_arch = "wasm32") {
        return a.len() == b.len() && common_prefix_by_words(a, b) == a.len();
    }
    a == b
}

/// [`common_prefix`] compared 64 bytes at a time as eight words, one test
/// per block: slice equality is `memcmp`, which wasm32's runtime does a
/// byte at a time; comparing each chat span's input with the last one's
/// (the whole conversation so far) that way was an eighth of an otel parse
/// in wasm (natively `memcmp` is vectorised, and faster than this). The
/// block is two fixed-size arrays (no bounds checks) whose words are
/// XORed and ORed together, which LLVM makes SIMD with `simd128`; a test
/// per 32 bytes, each word's own branch, was 6% of a parse.
fn common_prefix_by_words(a: &[u8], b: &[u8]) -> usize {
    const BLOCK: usize = 64;
    let mut i = 0;
    for (x, y) in a.chunks_exact(BLOCK).zip(b.chunks_exact(BLOCK)) {
        let (Some(x), Some(y)) = (x.first_chunk::<BLOCK>(), y.first_chunk::<BLOCK>()) else { break };
        if !same_block(x, y) {
            break;
        }
        i += BLOCK;
    }
    let n = a.len().min(b.len());
    while i < n && a.get(i) == b.get(i) {
        i += 1;
    }
    i
}

/// Whether two 64-byte blocks are equal: their words XORed, ORed together
/// and tested once, as four 128-bit vectors (built from word pairs, which
/// LLVM loads as one vector each).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn same_block(x: &[u8; 64], y: &[u8; 64]) -> bool {
    use core::arch::wasm32::{u64x2, v128_any_true, v128_or, v128_xor};
    let lane = |c: &[u8; 64], k: usize| u64x2(word(c, k), word(c, k + 8));
    let diff = (0..4).fold(u64x2(0, 0), |acc, q| v128_or(acc, v128_xor(lane(x, 16 * q), lane(y, 16 * q))));
    !v128_any_true(diff)
}

/// Whether two 64-byte blocks are equal, by eight 8-byte words.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
fn same_block(x: &[u8; 64], y: &[u8; 64]) -> bool {
    (0..8).fold(0, |diff, k| diff | (word(x, 8 * k) ^ word(y, 8 * k))) == 0
}

/// The 8-byte word at `k` of a block.
#[inline(always)]
fn word(c: &[u8; 64], k: usize) -> u64 {
    c.get(k..k + 8).and_then(|w| w.try_into().ok()).map_or(0, u64::from_ne_bytes)
}

/// Where in `raw` each of the text offsets `ends` (ascending, none before
/// `from.1`) falls, decoding on from `raw` offset `from.0`, which decodes
/// to text offset `from.1`: the raw offset whose decoding stops exactly
/// there. Mirrors `unescape_into` escape by escape (the bytes between
/// escapes are valid UTF-8, copied as they are). `None` when an offset
/// falls inside an escape's character or past the text.
pub fn raw_offsets(raw: Raw, from: (usize, usize), ends: impl Iterator<Item = usize>) -> Option<Vec<usize>> {
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
    fn common_prefix_counts_every_shared_byte() {
        let a: Vec<u8> = (0..200u32).map(|i| (i * 7 % 251) as u8).collect();
        for cut in [0, 1, 7, 8, 31, 32, 33, 63, 64, 65, 100, 199] {
            let mut b = a.clone();
            if let Some(x) = b.get_mut(cut) {
                *x ^= 0x40;
            }
            assert_eq!(common_prefix(&a, &b), cut, "differs at {cut}");
            assert_eq!(common_prefix_by_words(&a, &b), cut, "differs at {cut}");
            assert_eq!(common_prefix_by_words(&a, b.get(..cut).unwrap()), cut);
            assert!(!same_bytes(&a, &b));
            assert!(same_bytes(a.get(..cut).unwrap(), b.get(..cut).unwrap()));
        }
        assert!(same_bytes(&a, &a.clone()) && same_bytes(&[], &[]));
        assert!(!same_bytes(&a, a.get(..199).unwrap()));
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

    /// Decoding while noting the escapes gives `unescape_into`'s text, and
    /// the offsets mapped from the notes are the ones walking the escapes again gives.
    #[test]
    fn noted_escapes_map_as_the_walk_does() {
        let bases = [r#"[{\"a\":\"\u00e9\ud83d\ude00\n\"},1]"#, r#"ab\"\\\/\b\f\r\t\x\u12\ud800z\ud83d\u0041é"#, "plain", r#"end\"#, r#"\"#];
        let mut cases: Vec<String> = bases.iter().map(|s| s.to_string()).collect();
        // Over several windows, escapes at every place of one.
        for pad in 0..8 {
            cases.push(format!("{}{}", "x".repeat(pad * 9), bases.get(..2).unwrap().concat().repeat(6)));
        }
        for s in &cases {
            let r = raw(s);
            let (mut text, mut checkpoints) = (String::new(), Vec::new());
            unescape_noting(r.bytes, 0, &mut text, |c| checkpoints.push(c)).unwrap();
            let mut expected = String::new();
            crate::json::string::unescape_into(r.bytes, &mut expected);
            assert_eq!(text, expected, "{s}");
            for t in 0..=text.len() + 1 {
                let walked = raw_offsets(r, (0, 0), [t].into_iter());
                assert_eq!(mapped_offsets(r, (0, 0), &checkpoints, [t].into_iter()), walked, "{s} at {t}");
            }
        }
    }

    #[test]
    fn repeated_items_are_not_decoded_again() {
        let last_raw = raw(r#"[{\"x\":1}, {\"y\":\"\u00e9\"}]"#);
        let last = last_raw.decoded();
        let mut ranges = Vec::new();
        read::items(last.as_bytes(), 0, &scan::NO_ENDS, &mut ranges).unwrap();
        let items = with_raw_ends(last_raw, ranges);
        let next = raw(r#"[{\"x\":1}, {\"y\":\"\u00e9\"},{\"z\":[]} ]"#);
        let mut text = last.to_string();
        let (got, k) = after_repeated(&mut text, last_raw, &items, next, |_, _| None).unwrap();
        assert_eq!((text.as_str(), k), (next.decoded().as_ref(), 2));
        let mut whole = Vec::new();
        read::items(text.as_bytes(), 0, &scan::NO_ENDS, &mut whole).unwrap();
        assert_eq!(got.iter().map(|(r, _)| r.clone()).collect::<Vec<_>>(), whole);
        assert_eq!(got, with_raw_ends(next, whole));
        // Not a list's end: read whole by the caller.
        for bad in [r#"[{\"x\":1}, {\"y\":\"\u00e9\"},]"#, r#"[{\"x\":1}, {\"y\":\"\u00e9\"}] x"#, r#"[{\"x\":1}, {\"y\":\"\u00e9\"},{]"#] {
            assert_eq!(after_repeated(&mut last.to_string(), last_raw, &items, raw(bad), |_, _| None), None, "{bad}");
        }
        // Nothing repeated.
        assert_eq!(after_repeated(&mut last.to_string(), last_raw, &items, raw(r#"[{\"x\":2}]"#), |_, _| None), None);
    }
}
