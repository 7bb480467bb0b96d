//! Byte offsets to human positions.
//!
//! Everything in the model points back into the source bytes by offset; this
//! turns an offset into the 1-based line and column a person looks for in an
//! editor, and cuts a short snippet of the line for error messages.

/// Line starts of one source buffer, computed once per parse.
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    line_starts: Vec<usize>,
    len: usize,
    /// The last position computed (line index, offset, 0-based column):
    /// positions are mostly asked in increasing order, and counting each
    /// column from the line start made JSON Lines with long lines quadratic
    /// (a 100 MB file of 80 KB lines took 47 s instead of 2).
    last: std::cell::Cell<(usize, usize, usize)>,
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
        for (i, b) in bytes.iter().enumerate() {
            if *b == b'\n' {
                line_starts.push(i + 1);
            }
        }
        SourceMap { line_starts, len: bytes.len(), last: std::cell::Cell::new((0, 0, 0)) }
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
        let (last_line, last_offset, last_column) = self.last.get();
        let (from, base) = if last_line == line && last_offset <= offset {
            (last_offset, last_column)
        } else {
            (self.line_starts.get(line).copied().unwrap_or(0), 0)
        };
        let column = base
            + bytes.get(from..offset).map(|s| s.iter().filter(|b| (**b & 0xC0) != 0x80).count()).unwrap_or(0);
        self.last.set((line, offset, column));
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

#[cfg(test)]
mod position_cache_tests {
    use super::*;

    /// The incremental column cache gives what counting from the line start gives, in any order.
    #[test]
    fn positions_in_any_order() {
        let text = "ab\u{e9}c\n{\"x\": \"\u{1F600}\u{1F600}\", \"y\": 1}\n\nlast line";
        let bytes = text.as_bytes();
        let map = SourceMap::new(bytes);
        let naive = |offset: usize| {
            let before = &text[..offset];
            let line = before.matches('\n').count() + 1;
            let col = before.rsplit('\n').next().unwrap().chars().count() + 1;
            (line as u32, col as u32)
        };
        let offsets: Vec<usize> = (0..=bytes.len()).filter(|i| text.is_char_boundary(*i)).collect();
        let mut order = offsets.clone();
        order.extend(offsets.iter().rev());
        order.extend(offsets.iter().step_by(3));
        order.extend([5, 2, 9, 9, 30, 7, 0]);
        for o in order.into_iter().filter(|o| text.is_char_boundary(*o)) {
            let p = map.position(bytes, o);
            assert_eq!((p.line, p.column), naive(o), "offset {o}");
        }
    }
}
