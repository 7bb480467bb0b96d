//! Byte offsets to human positions.
//!
//! Everything in the model points back into the source bytes by offset; this
//! turns an offset into the 1-based line and column a person looks for in an
//! editor, and cuts a short snippet of the line for error messages.

/// Line starts of one source buffer, computed once per parse, and running
/// character counts every [`CHECKPOINT`] bytes, so that a column costs at
/// most that many bytes of counting even on a 100 MB single-line file.
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    line_starts: Vec<usize>,
    /// Characters before byte `i * CHECKPOINT`.
    char_checkpoints: Vec<usize>,
    len: usize,
}

const CHECKPOINT: usize = 1024;

/// A [`SourceMap`] built on first use. A clean input's parse asks for no
/// position: events keep their byte offsets and views turn them into lines
/// when shown; only a diagnostic asks during the parse. Building the map
/// eagerly was ~5% of a parse (a pass over every byte), and each event's
/// position another ~2%. Always asked with the same bytes.
///
/// A diagnostic's position is counted from the nearest anchor before it
/// (where a top-level value starts, and its line, which the split knows)
/// while that is near and a budget of counted bytes lasts, and only then
/// from the whole map: a Claude Code session with three broken records
/// built the map for their diagnostics, 4% of its parse.
#[derive(Debug, Default)]
pub struct LazySourceMap {
    map: std::sync::OnceLock<SourceMap>,
    /// (offset, 0-based line of that offset), sorted by offset.
    anchors: Vec<(usize, usize)>,
    /// Bytes that positions may still count from anchors.
    budget: std::sync::atomic::AtomicUsize,
}

/// How far from its anchor a position is counted without the map.
const NEAR_ANCHOR: usize = 256 * 1024;

impl LazySourceMap {
    /// A map that counts positions from `anchors` ((offset, 0-based line),
    /// sorted by offset, each line right for its offset) in an input of
    /// `len` bytes, until it has counted half the input's length that way.
    pub fn with_anchors(anchors: impl IntoIterator<Item = (usize, usize)>, len: usize) -> LazySourceMap {
        let mut all = vec![(0, 0)];
        all.extend(anchors);
        LazySourceMap { map: Default::default(), anchors: all, budget: (len / 2).into() }
    }

    /// The map of `bytes`, built by the first call.
    pub fn get(&self, bytes: &[u8]) -> &SourceMap {
        self.map.get_or_init(|| SourceMap::new(bytes))
    }

    /// [`SourceMap::position`], from an anchor when one is near.
    pub fn position(&self, bytes: &[u8], offset: usize) -> Position {
        if self.map.get().is_none() {
            if let Some(pos) = self.position_near_anchor(bytes, offset) {
                return pos;
            }
        }
        self.get(bytes).position(bytes, offset)
    }

    fn position_near_anchor(&self, bytes: &[u8], offset: usize) -> Option<Position> {
        use std::sync::atomic::Ordering::Relaxed;
        let offset = offset.min(bytes.len());
        let at = self.anchors.partition_point(|(start, _)| *start <= offset);
        let (start, line) = *self.anchors.get(at.checked_sub(1)?)?;
        let counted = bytes.get(start..offset)?;
        let left = self.budget.load(Relaxed);
        if counted.len() > NEAR_ANCHOR || counted.len() > left {
            return None;
        }
        self.budget.store(left - counted.len(), Relaxed);
        let line_start = match memchr::memrchr(b'\n', counted) {
            Some(p) => start + p + 1,
            // The anchor's line starts before it (whitespace before a value).
            None => {
                let from = start.saturating_sub(NEAR_ANCHOR);
                match memchr::memrchr(b'\n', bytes.get(from..start)?) {
                    Some(p) => from + p + 1,
                    None if from == 0 => 0,
                    None => return None,
                }
            }
        };
        let newlines = memchr::memchr_iter(b'\n', counted).count();
        let column = count_chars_in(bytes.get(line_start..offset)?);
        Some(Position { line: clamp_u32(line + newlines + 1), column: clamp_u32(column + 1) })
    }

    /// [`SourceMap::snippet`], which needs no map: it looks at most 62
    /// bytes either side of `offset` for the line's ends.
    pub fn snippet(&self, bytes: &[u8], offset: usize) -> String {
        if let Some(map) = self.map.get() {
            return map.snippet(bytes, offset);
        }
        let offset = offset.min(bytes.len());
        let before = offset.saturating_sub(61);
        // Only whether the line starts more than 60 bytes back matters.
        let start = memchr::memrchr(b'\n', bytes.get(before..offset).unwrap_or(&[])).map_or(before, |p| before + p + 1);
        let after = (offset + 62).min(bytes.len());
        let end = match memchr::memchr(b'\n', bytes.get(offset..after).unwrap_or(&[])) {
            Some(p) => offset + p,
            // Past the window the line goes on: an end past `offset + 60` is all that matters.
            None => after,
        };
        snippet_between(bytes, offset, start, end, bytes.len())
    }
}

/// Counts UTF-8 characters (bytes that are not continuation bytes).
fn count_chars(b: &[u8]) -> usize {
    // Eight bytes at a time (the fallback without SIMD, and the last bytes
    // of a block with it): a continuation byte is 0b10xx_xxxx, bit 7 set and
    // bit 6 clear.
    let words = b.chunks_exact(8);
    let tail = words.remainder();
    let mut continuation = 0usize;
    for w in words {
        let v = u64::from_le_bytes(<[u8; 8]>::try_from(w).unwrap_or([0; 8]));
        continuation += (v & !(v << 1) & 0x8080_8080_8080_8080).count_ones() as usize;
    }
    continuation += tail.iter().filter(|c| (**c & 0xC0) == 0x80).count();
    b.len() - continuation
}

/// Pushes the offset after every `\n` of `block` (which starts at `base`),
/// skipping words with none.
fn push_line_starts(block: &[u8], base: usize, out: &mut Vec<usize>) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut at = 0;
    for w in block.chunks_exact(8) {
        let v = u64::from_le_bytes(<[u8; 8]>::try_from(w).unwrap_or([0; 8])) ^ (ONES * u64::from(b'\n'));
        if v.wrapping_sub(ONES) & !v & 0x8080_8080_8080_8080 != 0 {
            out.extend(w.iter().enumerate().filter(|(_, c)| **c == b'\n').map(|(i, _)| base + at + i + 1));
        }
        at += 8;
    }
    let tail = block.get(at..).unwrap_or(&[]);
    out.extend(tail.iter().enumerate().filter(|(_, c)| **c == b'\n').map(|(i, _)| base + at + i + 1));
}

/// [`count_chars`] of `block` (which starts at `base`), and
/// [`push_line_starts`] of it, in one pass: 64 bytes at a time with SIMD
/// (the SIMD module's `source_chunks`), the last `len % 64` bytes as without.
#[cfg(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128")))]
fn block_chars_and_lines(block: &[u8], base: usize, out: &mut Vec<usize>) -> usize {
    let continuation = crate::json::simd::source_chunks(block, |at, mut newlines| {
        while newlines != 0 {
            out.push(base + at + newlines.trailing_zeros() as usize + 1);
            newlines &= newlines - 1;
        }
    });
    let whole = block.len() - block.len() % 64;
    let tail = block.get(whole..).unwrap_or(&[]);
    push_line_starts(tail, base + whole, out);
    whole - continuation + count_chars(tail)
}

#[cfg(not(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128"))))]
fn block_chars_and_lines(block: &[u8], base: usize, out: &mut Vec<usize>) -> usize {
    push_line_starts(block, base, out);
    count_chars(block)
}

/// [`count_chars`], 64 bytes at a time with SIMD: the positions of events
/// count up to a checkpoint's worth of bytes twice each, for every event.
#[cfg(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128")))]
fn count_chars_in(b: &[u8]) -> usize {
    let continuation = crate::json::simd::source_chunks(b, |_, _| {});
    let whole = b.len() - b.len() % 64;
    whole - continuation + count_chars(b.get(whole..).unwrap_or(&[]))
}

#[cfg(not(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128"))))]
fn count_chars_in(b: &[u8]) -> usize {
    count_chars(b)
}

/// A 1-based line and column. Columns count Unicode scalar values, as editors do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Position {
    pub line: u32,
    pub column: u32,
}

impl SourceMap {
    pub fn new(bytes: &[u8]) -> SourceMap {
        let mut line_starts = Vec::with_capacity(bytes.len() / 64 + 1);
        line_starts.push(0);
        let mut char_checkpoints = Vec::with_capacity(bytes.len() / CHECKPOINT + 1);
        let mut chars = 0usize;
        for (block_index, block) in bytes.chunks(CHECKPOINT).enumerate() {
            char_checkpoints.push(chars);
            chars += block_chars_and_lines(block, block_index * CHECKPOINT, &mut line_starts);
        }
        // The reservation guesses a line per 64 bytes; a file of long lines
        // (JSON Lines of big records) has far fewer: 12 MB of a 100 MB file's
        // parse was this vector's unused room.
        line_starts.shrink_to_fit();
        SourceMap { line_starts, char_checkpoints, len: bytes.len() }
    }

    /// Characters before byte `offset`.
    fn chars_before(&self, bytes: &[u8], offset: usize) -> usize {
        let block = offset / CHECKPOINT;
        let base = self.char_checkpoints.get(block).copied().unwrap_or(0);
        base + bytes.get(block * CHECKPOINT..offset).map(count_chars_in).unwrap_or(0)
    }

    /// 0-based index of the line holding `offset`.
    fn line_index(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        }
    }

    pub fn position(&self, bytes: &[u8], offset: usize) -> Position {
        let offset = offset.min(self.len);
        let line = self.line_index(offset);
        let start = self.line_starts.get(line).copied().unwrap_or(0);
        let column = self.chars_before(bytes, offset).saturating_sub(self.chars_before(bytes, start));
        Position { line: clamp_u32(line + 1), column: clamp_u32(column + 1) }
    }

    /// The line holding `offset`, shortened to at most about 120 characters
    /// around the offset, for error messages.
    pub fn snippet(&self, bytes: &[u8], offset: usize) -> String {
        let offset = offset.min(self.len);
        let line = self.line_index(offset);
        let start = self.line_starts.get(line).copied().unwrap_or(0);
        let end = self.line_starts.get(line + 1).map(|e| e.saturating_sub(1)).unwrap_or(self.len);
        snippet_between(bytes, offset, start, end, self.len)
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }
}

/// The snippet of the line from `start` to `end` (its `\n` or the input's
/// end, `len`) around `offset`: at most 60 bytes either side, `…` where the
/// line goes on.
fn snippet_between(bytes: &[u8], offset: usize, start: usize, mut end: usize, len: usize) -> String {
    if end > start && end <= len && bytes.get(end.saturating_sub(1)) == Some(&b'\r') {
        end -= 1;
    }
    let from = if offset.saturating_sub(start) > 60 { offset - 60 } else { start };
    let to = end.min(offset.saturating_add(60)).max(from);
    let text = String::from_utf8_lossy(bytes.get(from..to).unwrap_or(&[]));
    let mut out = String::new();
    if from > start {
        out.push('…');
    }
    out.push_str(text.trim_start_matches('\u{fffd}').trim_end_matches('\u{fffd}'));
    if to < end {
        out.push('…');
    }
    out
}

/// The offset of the first byte that is not valid UTF-8, if any (what
/// `Utf8Error::valid_up_to` says): the input's `invalid-utf8` diagnostic.
///
/// `simdutf8`'s SIMD check says whether there is one (the common answer,
/// "no", several times faster than `std::str::from_utf8`); std then finds
/// where, so the offset is std's whatever simdutf8's error type says.
pub fn invalid_utf8_at(bytes: &[u8]) -> Option<usize> {
    if simdutf8::basic::from_utf8(bytes).is_ok() {
        return None;
    }
    std::str::from_utf8(bytes).err().map(|e| e.valid_up_to())
}

pub fn clamp_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time counts equal the byte-by-byte definitions on
    /// pseudo-random bytes rich in newlines and multi-byte characters, at
    /// every alignment and length.
    #[test]
    fn word_counts_agree_with_byte_counts() {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut bytes = Vec::new();
        for _ in 0..5000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            bytes.push(match x % 6 {
                0 => b'\n',
                1 => 0x80 | (x >> 8) as u8 & 0x3F,
                2 => 0xC0 | (x >> 8) as u8 & 0x3F,
                _ => (x >> 16) as u8,
            });
        }
        for start in 0..9 {
            for len in [0, 1, 7, 8, 9, 15, 16, 17, 100, 1023, 1024, 1025, 4000] {
                let b = &bytes[start..start + len];
                assert_eq!(count_chars(b), b.iter().filter(|c| (**c & 0xC0) != 0x80).count());
                let mut got = Vec::new();
                push_line_starts(b, 10, &mut got);
                let want: Vec<usize> = b.iter().enumerate().filter(|(_, c)| **c == b'\n').map(|(i, _)| 10 + i + 1).collect();
                assert_eq!(got, want, "start {start} len {len}");
            }
        }
    }

    /// The map as it was before SIMD: line starts and character
    /// checkpoints by their byte-by-byte definitions.
    fn oracle_map(b: &[u8]) -> (Vec<usize>, Vec<usize>) {
        let mut lines = vec![0];
        lines.extend(b.iter().enumerate().filter(|(_, c)| **c == b'\n').map(|(i, _)| i + 1));
        let checkpoints = (0..b.len().div_ceil(CHECKPOINT))
            .map(|k| b[..k * CHECKPOINT].iter().filter(|c| (**c & 0xC0) != 0x80).count())
            .collect();
        (lines, checkpoints)
    }

    /// The word-at-a-time map (the fallback without SIMD, and the tail of
    /// every block with it) over the whole input.
    fn word_map(b: &[u8]) -> (Vec<usize>, Vec<usize>) {
        let mut lines = vec![0];
        let mut checkpoints = Vec::new();
        let mut chars = 0;
        for (k, block) in b.chunks(CHECKPOINT).enumerate() {
            checkpoints.push(chars);
            chars += count_chars(block);
            push_line_starts(block, k * CHECKPOINT, &mut lines);
        }
        (lines, checkpoints)
    }

    fn check_map(b: &[u8]) {
        let map = SourceMap::new(b);
        let want = oracle_map(b);
        assert_eq!((&map.line_starts, &map.char_checkpoints), (&want.0, &want.1), "{} bytes", b.len());
        assert_eq!(word_map(b), want);
        assert_eq!(map.len, b.len());
    }

    /// Every byte value at every position of the first 64-byte chunks, and
    /// around the end of the first 1 KiB block, in ASCII and in multi-byte text.
    #[test]
    fn every_byte_at_every_position() {
        for fill in ["a", "\u{e9}", "\u{1F600}\n"] {
            let base: Vec<u8> = fill.bytes().cycle().take(1100).collect();
            for pos in (0..140).chain(950..1100) {
                for c in 0..=255u8 {
                    let mut b = base.clone();
                    b[pos] = c;
                    check_map(&b);
                    check_map(&b[..pos + 1]);
                }
            }
        }
    }

    /// Pseudo-random inputs rich in newlines and multi-byte characters, of
    /// every length up to a few blocks; and the shared corpus.
    #[test]
    fn random_inputs_and_the_corpus() {
        let pieces: [&[u8]; 8] = [b"a", b"bc ", b"\n", b"\r\n", "\u{e9}".as_bytes(), "\u{4e2d}".as_bytes(), "\u{1F600}".as_bytes(), b"\xBF\xFF"];
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for len in 0..3000 {
            let mut b = Vec::new();
            while b.len() < len {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                b.extend_from_slice(pieces[(x % 8) as usize]);
            }
            check_map(&b);
        }
        let files = crate::json::scan::simd_tests::corpus_files();
        assert!(files.len() > 20);
        for path in files {
            check_map(&std::fs::read(&path).unwrap());
        }
    }

    /// The SIMD UTF-8 check gives std's answer: valid, or std's offset of
    /// the first bad byte, for bad bytes at every position of inputs long
    /// enough for simdutf8's SIMD path, and short ones.
    #[test]
    fn invalid_utf8_offsets_are_std_offsets() {
        let text = "ascii, caf\u{e9}, \u{4e2d}\u{6587}, \u{1F600} ".repeat(20);
        let bad: [&[u8]; 7] = [b"\xFF", b"\x80", b"\xC3", b"\xE4\xB8", b"\xF0\x9F\x98", b"\xED\xA0\x80", b"\xC0\xAF"];
        for len in [0, 1, 15, 63, 64, 65, 200, text.len()] {
            let base = &text.as_bytes()[..len];
            assert_eq!(invalid_utf8_at(base), std::str::from_utf8(base).err().map(|e| e.valid_up_to()));
            for pos in 0..=len {
                for b in bad {
                    let mut v = base.to_vec();
                    v.splice(pos..pos, b.iter().copied());
                    // (Mostly invalid; a byte completing a cut character is not.)
                    let want = std::str::from_utf8(&v).err().map(|e| e.valid_up_to());
                    assert_eq!(invalid_utf8_at(&v), want, "len {len} pos {pos} {b:?}");
                }
            }
        }
    }

    #[test]
    fn positions_are_one_based_and_count_characters() {
        let src = "ab\n\u{e9}x\ny".as_bytes();
        let map = SourceMap::new(src);
        assert_eq!(map.position(src, 0), Position { line: 1, column: 1 });
        assert_eq!(map.position(src, 3), Position { line: 2, column: 1 });
        // 'x' follows a two-byte character: column 2, not 3.
        assert_eq!(map.position(src, 5), Position { line: 2, column: 2 });
        assert_eq!(map.position(src, 7), Position { line: 3, column: 1 });
        assert_eq!(map.line_count(), 3);
    }

    #[test]
    fn columns_on_a_long_single_line_cross_checkpoints() {
        let line = format!("{}\u{e9}{}", "a".repeat(3000), "b".repeat(3000));
        let src = format!("x\n{line}");
        let b = src.as_bytes();
        let map = SourceMap::new(b);
        // After the two-byte character, the column lags the byte offset by one.
        let offset = 2 + 5000;
        assert_eq!(map.position(b, offset), Position { line: 2, column: 5000 });
        assert_eq!(map.position(b, 2 + 100), Position { line: 2, column: 101 });
        assert_eq!(map.position(b, b.len()), Position { line: 2, column: 6002 });
    }

    /// Every offset's position equals counting from the start: lines by
    /// newlines, columns by characters since the last one (random text of
    /// one- to four-byte characters and newlines, across checkpoints and
    /// SIMD chunks).
    #[test]
    fn positions_agree_with_counting_from_the_start() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let alphabet = ["a", "é", "東", "😀", "\n", " ", "\"", "\n\n"];
        for round in 0..6 {
            let mut text = String::new();
            while text.len() < 1500 + round * 700 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                // Long runs of one kind too, so some blocks are all ASCII.
                let piece = alphabet[(seed % alphabet.len() as u64) as usize];
                let times = if seed % 7 == 0 { 200 } else { 1 };
                text.push_str(&piece.repeat(times));
            }
            let b = text.as_bytes();
            let map = SourceMap::new(b);
            let (mut line, mut column) = (1u32, 1u32);
            for offset in 0..=b.len() {
                if text.is_char_boundary(offset) {
                    assert_eq!(map.position(b, offset), Position { line, column }, "offset {offset}");
                }
                match b.get(offset) {
                    Some(b'\n') => (line, column) = (line + 1, 1),
                    Some(c) if c & 0xC0 != 0x80 => column += 1,
                    _ => {}
                }
            }
        }
    }

    #[test]
    fn snippet_is_the_line_around_the_offset() {
        let src = b"first\nsecond line\nthird";
        let map = SourceMap::new(src);
        assert_eq!(map.snippet(src, 8), "second line");
        let long = format!("{}X{}", "a".repeat(100), "b".repeat(100));
        let map = SourceMap::new(long.as_bytes());
        let s = map.snippet(long.as_bytes(), 100);
        assert!(s.starts_with('…') && s.ends_with('…') && s.contains('X'), "{s}");
    }

    /// Inputs for the anchored positions: JSON Lines with blank lines,
    /// `\r\n`, indented values, broken lines, multi-byte characters and
    /// lines both shorter and longer than a snippet's 60 bytes.
    fn anchored_inputs() -> Vec<String> {
        let mut inputs = Vec::new();
        for seed in 0..12u32 {
            let mut text = String::new();
            for n in 0..40u32 {
                let k = seed * 41 + n;
                let pad = ["", "  ", "\t", "\r\n", "\n\n"][(k % 5) as usize];
                let body = "é€😀x".repeat((k % 23) as usize);
                match k % 7 {
                    0 => text.push_str(&format!("{pad}{{\"a\": \"{body}\"}}\r\n")),
                    1 => text.push_str(&format!("{pad}{{\"broken\": \"{body}\n")),
                    2 => text.push_str(&format!("{pad}[1, 2, \"{body}\"]   \n")),
                    _ => text.push_str(&format!("{pad}{{\"k\": {n}, \"v\": \"{body}\"}}\n")),
                }
            }
            inputs.push(text);
        }
        inputs
    }

    #[test]
    fn anchored_positions_and_snippets_are_the_maps() {
        for text in anchored_inputs() {
            let b = text.as_bytes();
            let split = crate::json::split(b, 0);
            assert!(split.values.len() > 10, "{:?} {}", split.layout, split.values.len());
            let map = SourceMap::new(b);
            for offset in 0..=b.len() + 2 {
                // A fresh lazy map each time: none of these builds the whole map.
                let lazy = LazySourceMap::with_anchors(split.values.iter().map(|v| (v.range.start, v.line)), b.len() * 4);
                assert_eq!(lazy.position_near_anchor(b, offset), Some(map.position(b, offset)), "offset {offset} of {text:?}");
                assert_eq!(lazy.snippet(b, offset), map.snippet(b, offset), "offset {offset} of {text:?}");
                assert!(lazy.map.get().is_none());
            }
        }
    }

    #[test]
    fn far_anchors_and_a_spent_budget_fall_back_to_the_map() {
        let long = format!("{{\"a\": \"{}\"}}\n{{\"b\": 1}}\n", "é".repeat(NEAR_ANCHOR));
        let b = long.as_bytes();
        let split = crate::json::split(b, 0);
        let map = SourceMap::new(b);
        let anchors = || split.values.iter().map(|v| (v.range.start, v.line));
        // Past NEAR_ANCHOR from the first value's start: the map.
        let lazy = LazySourceMap::with_anchors(anchors(), b.len() * 4);
        let deep = b.len() - 12;
        assert_eq!(lazy.position_near_anchor(b, deep - 20), None);
        assert_eq!(lazy.position(b, deep - 20), map.position(b, deep - 20));
        assert!(lazy.map.get().is_some());
        // Near the second value, but with the budget spent: the map too.
        let lazy = LazySourceMap::with_anchors(anchors(), 8);
        assert_eq!(lazy.position(b, b.len() - 3), map.position(b, b.len() - 3));
        assert!(lazy.map.get().is_some());
        // With budget: the second value's position needs no map.
        let lazy = LazySourceMap::with_anchors(anchors(), b.len());
        assert_eq!(lazy.position(b, b.len() - 3), map.position(b, b.len() - 3));
        assert!(lazy.map.get().is_none());
    }
}
