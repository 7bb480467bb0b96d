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

/// Counts UTF-8 characters (bytes that are not continuation bytes).
fn count_chars(b: &[u8]) -> usize {
    b.iter().filter(|c| (**c & 0xC0) != 0x80).count()
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
            chars += count_chars(block);
            let base = block_index * CHECKPOINT;
            for (i, b) in block.iter().enumerate() {
                if *b == b'\n' {
                    line_starts.push(base + i + 1);
                }
            }
        }
        SourceMap { line_starts, char_checkpoints, len: bytes.len() }
    }

    /// Characters before byte `offset`.
    fn chars_before(&self, bytes: &[u8], offset: usize) -> usize {
        let block = offset / CHECKPOINT;
        let base = self.char_checkpoints.get(block).copied().unwrap_or(0);
        base + bytes.get(block * CHECKPOINT..offset).map(count_chars).unwrap_or(0)
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
        let mut end = self.line_starts.get(line + 1).map(|e| e.saturating_sub(1)).unwrap_or(self.len);
        if end > start && bytes.get(end.saturating_sub(1)) == Some(&b'\r') {
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

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }
}

pub fn clamp_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
