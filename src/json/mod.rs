//! The JSON layer under every format: one document, or JSON Lines.
//!
//! Formats differ in what their records mean, not in how records are laid
//! out in a file, so the split into top-level values happens once here.

pub mod build;
pub mod compact;
pub mod descent;
pub mod ends;
pub mod fields;
pub mod path;
pub mod python;
pub mod read;
mod repeats;
pub mod scan;
pub(crate) mod simd;
pub mod string;

use std::ops::Range;

pub use ends::ContainerEnds;
pub use path::{item_path, render_path, Seg};
pub use scan::{Grammar, SyntaxError};

/// How the top-level values are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Layout {
    /// One JSON document.
    Json,
    /// JSON Lines: one value per non-blank line.
    Jsonl,
}

/// A top-level value: the whole document, or one JSONL line.
#[derive(Debug, Clone)]
pub struct TopValue {
    pub range: Range<usize>,
    /// 0-based line of the value's first byte.
    pub line: usize,
}

/// The input split into top-level values, with the syntax errors met on the way.
#[derive(Debug, Clone)]
pub struct Split {
    pub layout: Layout,
    pub values: Vec<TopValue>,
    /// Syntax errors. For a one-document input with an error, `values` holds
    /// the document from its start to the end of the input, so a format can
    /// still recover the records before the error.
    pub errors: Vec<SyntaxError>,
    /// Ranges that belong to no value (broken JSONL lines, trailing content),
    /// kept so that nothing in the file is lost.
    pub leftovers: Vec<Range<usize>>,
    /// Where the values' shallow containers end, found by this split's scan:
    /// format readers pass it to `scan::array_items_in` / `object_members_in`
    /// rather than scanning each record again.
    pub ends: ContainerEnds,
    /// Sorted offsets, found by this split's scan, of every place where
    /// `serde_json::from_slice::<serde_json::Value>` (with this crate's
    /// features) would refuse a value the scanner accepts, so that a reader
    /// taking records straight from the bytes can leave exactly those to
    /// serde_json: the backslash of a `\u` escape of a lone UTF-16 surrogate;
    /// the `[` or `{` of each container at the first nesting level serde_json
    /// refuses ([`scan::SERDE_DEPTH_LIMIT`], counting the top-level value's
    /// own container as level 1; the containers inside one are not listed
    /// again); the `{` of an object whose first key is
    /// [`scan::SERDE_NUMBER_KEY`] (which serde_json refuses, or reads as a
    /// number). A value holds none of these if and only if serde_json reads
    /// it as the text says (invalid UTF-8 aside: the whole-input check
    /// reports it). Offsets may also lie in values with a syntax error.
    pub hazards: Vec<usize>,
    /// The objects, by their `{`, that may hold a key twice (two keys of the
    /// same bytes, an escaped key, or more than 16 keys), in the order they
    /// close: `dupkeys` checks these instead of walking the whole input
    /// again. Complete only for a split without syntax errors.
    pub repeats: Vec<usize>,
}

impl Split {
    pub fn new(layout: Layout) -> Split {
        Split::in_grammar(layout, Grammar::Strict)
    }

    fn in_grammar(layout: Layout, grammar: Grammar) -> Split {
        Split {
            layout,
            values: Vec::new(),
            errors: Vec::new(),
            leftovers: Vec::new(),
            ends: ContainerEnds::empty(grammar),
            hazards: Vec::new(),
            repeats: Vec::new(),
        }
    }

    /// The grammar the split read.
    pub fn grammar(&self) -> Grammar {
        self.ends.grammar()
    }

    /// True when an error of the split stopped at a `NaN`, `Infinity` or
    /// `-Infinity`: the input may read in the [`Grammar::NonFinite`] grammar
    /// (or not: `NaNa` and `-NaN` stop there too).
    pub fn stopped_at_nonfinite(&self, b: &[u8]) -> bool {
        self.errors.iter().any(|e| scan::nonfinite_len(b, e.offset).is_some())
    }
}

/// The byte length of a UTF-8 byte order mark at the start, if any.
pub fn bom_len(b: &[u8]) -> usize {
    if b.starts_with(&[0xEF, 0xBB, 0xBF]) {
        3
    } else {
        0
    }
}

/// Spaces, tabs and carriage returns: whitespace within a JSON Lines line.
fn skip_line_space(b: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\r') = b.get(i) {
        i += 1;
    }
    i
}

/// memchr: a JSON Lines split looks for every line's end, and a byte loop
/// there was a third of the split's time.
fn line_end(b: &[u8], from: usize) -> usize {
    b.get(from..).and_then(|rest| memchr::memchr(b'\n', rest)).map(|p| from + p).unwrap_or(b.len())
}

/// The number of newlines before an offset, counted from a known one: a
/// split of several joined files ([`split_each`]) counts each file's bytes
/// once, not every byte before each file again (quadratic: 69 s for 10,000
/// files of 10 KB).
#[derive(Clone, Copy, Default)]
struct LinesBefore {
    offset: usize,
    lines: usize,
}

impl LinesBefore {
    /// Newlines in `b` before `upto` (`upto` at or after `self.offset`;
    /// counted from 0 otherwise).
    fn at(self, b: &[u8], upto: usize) -> usize {
        if upto < self.offset {
            return count_newlines(b.get(..upto).unwrap_or(&[]));
        }
        self.lines + count_newlines(b.get(self.offset..upto).unwrap_or(&[]))
    }
}

pub(crate) fn count_newlines(s: &[u8]) -> usize {
    // memchr's vector search: a byte-at-a-time count was a fifth of joining
    // an archive's members for a search of its bodies.
    memchr::memchr_iter(b'\n', s).count()
}

/// Splits `b` (starting after any BOM at `start`) into top-level values.
pub fn split(b: &[u8], start: usize) -> Split {
    split_in(b, start, Grammar::Strict)
}

/// [`split`] in `grammar`.
pub fn split_in(b: &[u8], start: usize, grammar: Grammar) -> Split {
    split_counted(b, start, grammar, LinesBefore::default())
}

/// [`split_in`], with the newlines before `lines.offset` already counted.
fn split_counted(b: &[u8], start: usize, grammar: Grammar, lines: LinesBefore) -> Split {
    let first = scan::skip_ws(b, start);
    let mut out = Split::in_grammar(Layout::Json, grammar);
    if first >= b.len() {
        return out;
    }
    // (When this turns out to be JSON Lines, `split_lines` starts a new table.)
    match scan::scan_value_recording::<false>(b, first, &mut out.ends, &mut out.hazards, &mut out.repeats) {
        Ok(end) => {
            let rest = scan::skip_ws(b, end);
            if rest >= b.len() {
                out.values.push(TopValue { range: first..end, line: lines.at(b, first) });
                return out;
            }
            let first_is_one_line = !b.get(first..end).unwrap_or(&[]).contains(&b'\n');
            let rest_on_new_line = b.get(end..rest).unwrap_or(&[]).contains(&b'\n');
            if first_is_one_line && rest_on_new_line {
                return split_lines(b, start, grammar);
            }
            out.values.push(TopValue { range: first..end, line: lines.at(b, first) });
            out.errors.push(SyntaxError {
                offset: rest,
                message: format!(
                    "unexpected {} after the end of the JSON value (a missing `[` around several values, or JSON Lines with values spanning lines?)",
                    scan::describe(b, rest)
                ),
            });
            out.leftovers.push(rest..b.len());
            out
        }
        Err(e) => {
            if looks_like_jsonl(b, first, grammar) {
                return split_lines(b, start, grammar);
            }
            out.values.push(TopValue { range: first..b.len(), line: lines.at(b, first) });
            out.errors.push(e);
            out
        }
    }
}

/// The values of several inputs joined into `b`: each of `parts` (a file's
/// bytes, after any BOM) is split on its own and its values read as JSON
/// Lines values would be, in one table; offsets are `b`'s.
pub fn split_each(b: &[u8], parts: &[Range<usize>], grammar: Grammar) -> Split {
    let mut out = Split::in_grammar(Layout::Jsonl, grammar);
    let mut lines = LinesBefore::default();
    for part in parts {
        // A slice from 0 keeps offsets global; the lines before it are counted once.
        lines = LinesBefore { offset: part.start, lines: lines.at(b, part.start) };
        let one = split_counted(b.get(..part.end).unwrap_or(&[]), part.start, grammar, lines);
        out.values.extend(one.values);
        out.errors.extend(one.errors);
        out.leftovers.extend(one.leftovers);
        // Parts come in order: the tables stay sorted by offset.
        out.ends.extend(one.ends);
        out.hazards.extend(one.hazards);
        out.repeats.extend(one.repeats);
    }
    out
}

/// A broken first line followed by a line that is a complete value on its
/// own means JSON Lines with a bad line, not one broken document.
fn looks_like_jsonl(b: &[u8], first: usize, grammar: Grammar) -> bool {
    let first_end = line_end(b, first);
    let mut i = first_end + 1;
    while i < b.len() {
        let end = line_end(b, i);
        let line = b.get(..end).unwrap_or(&[]);
        let s = scan::skip_ws(line, i);
        if s < end {
            return match line.get(s) {
                Some(b'{' | b'[') => scan::scan_value_in(line, s, grammar).is_ok_and(|e| scan::skip_ws(line, e) >= end),
                _ => false,
            };
        }
        i = end + 1;
    }
    false
}

fn split_lines(b: &[u8], start: usize, grammar: Grammar) -> Split {
    split_lines_in::<true>(b, start, grammar)
}

/// The split of JSON Lines; with `WHOLE_LINES` false, every line is found
/// first and scanned alone (the tests' reference).
fn split_lines_in<const WHOLE_LINES: bool>(b: &[u8], start: usize, grammar: Grammar) -> Split {
    let mut out = Split::in_grammar(Layout::Jsonl, grammar);
    let mut i = start;
    let mut line_no = 0usize;
    while i < b.len() {
        // A line whose value the scan accepts with newlines ending it, and
        // nothing but spaces after it, needs no search for its end first:
        // that search read every byte once more (4% of a Gemini CLI or
        // Langfuse parse in a wasm profile).
        let s = skip_line_space(b, i);
        let mark = (out.ends.mark(), out.hazards.len(), out.repeats.len());
        if let (true, Some(b'{' | b'[' | b'"')) = (WHOLE_LINES, b.get(s)) {
            if let Ok(v_end) = scan::scan_value_recording::<true>(b, s, &mut out.ends, &mut out.hazards, &mut out.repeats) {
                let after = skip_line_space(b, v_end);
                if matches!(b.get(after), None | Some(b'\n')) {
                    out.values.push(TopValue { range: s..v_end, line: line_no });
                    i = after + 1;
                    line_no += 1;
                    continue;
                }
            }
            // Otherwise (a broken line or more than one value), the line is
            // found first and scanned alone, as every other line is.
            out.ends.rollback(mark.0);
            out.hazards.truncate(mark.1);
            out.repeats.truncate(mark.2);
        }
        let end = line_end(b, i);
        // Scan within the line only: a broken line must not swallow the next.
        let line = b.get(..end).unwrap_or(&[]);
        let s = scan::skip_ws(line, i);
        if s < end {
            match scan::scan_value_recording::<false>(line, s, &mut out.ends, &mut out.hazards, &mut out.repeats) {
                Ok(v_end) => {
                    let after = scan::skip_ws(line, v_end);
                    if after >= end {
                        out.values.push(TopValue { range: s..v_end, line: line_no });
                    } else {
                        out.errors.push(SyntaxError {
                            offset: after,
                            message: format!(
                                "unexpected {} after the JSON value on this line (one value per line in JSON Lines)",
                                scan::describe(b, after)
                            ),
                        });
                        out.leftovers.push(s..end);
                    }
                }
                Err(mut e) => {
                    if e.offset >= end {
                        e.message = format!("{} (the line ends before the value is complete)", e.message);
                        e.offset = end.saturating_sub(1).max(s);
                    }
                    out.errors.push(e);
                    out.leftovers.push(s..end);
                }
            }
        }
        i = end + 1;
        line_no += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Everything a split says, as text, for comparing two splits.
    fn described(s: &Split) -> String {
        let values: Vec<_> = s.values.iter().map(|v| (v.range.clone(), v.line)).collect();
        let strings: Vec<_> = s.ends.strings_from(0).collect();
        let entries: Vec<_> = s.ends.iter().collect();
        format!(
            "{:?} {values:?} {:?} {:?} {entries:?} {strings:?} {:?} {:?}",
            s.layout, s.errors, s.leftovers, s.hazards, s.repeats
        )
    }

    /// A JSON Lines split that scans each line's value up to its newline
    /// says what one that finds each line first and scans it alone says:
    /// blank and space-only lines, CRLF, values spread over lines, broken
    /// lines, two values on a line, scalars, strings with escapes, hazards
    /// (lone surrogates, serde's number key, repeated keys) and a last line
    /// without a newline, in both grammars.
    #[test]
    fn lines_scanned_to_their_newline_split_as_lines_found_first() {
        let p = "p".repeat(scan::ContainerEnds::MIN_BYTES);
        let lines = [
            format!(r#"{{"a": ["{p}"], "b": {{"c": "{p}"}}}}"#),
            String::new(),
            "   \t ".to_string(),
            r#"{"x": 1}   "#.to_string(),
            "{\"crlf\": [1, 2]}\r".to_string(),
            r#"{"spread": ["#.to_string(),
            r#"  1, 2]}"#.to_string(),
            r#"{"a": 1} {"b": 2}"#.to_string(),
            r#"{"a": 1} x"#.to_string(),
            "42".to_string(),
            r#""a string \" with \\ escapes""#.to_string(),
            r#"["unterminated"#.to_string(),
            r#"{"lone": "\ud800", "k": 1, "k": 2}"#.to_string(),
            r#"{"$serde_json::private::Number": "1"}"#.to_string(),
            r#"{"nan": NaN, "inf": [-Infinity]}"#.to_string(),
            format!(r#"[{{"deep": [[[[["{p}"]]]]]}}, "{p}\n"]"#),
            "{\"tab\"\t:\t[true ,\r false]}".to_string(),
            r#"{"key" : "value"   ,   "n": null}"#.to_string(),
            "\u{1F600}".to_string(),
            r#"{"emoji": "😀 ελληνικά"}"#.to_string(),
            format!("{{\"raw newline\": \"{p}\n{p}\"}}"),
            // Long strings and containers recorded before the line fails.
            format!(r#"{{"a": "{p}", "b": [["{p}"], 1,}}"#),
            format!(r#"{{"a": "{p}"}} {{"b": ["{p}"]}}"#),
            // A hazard and a repeated key recorded before the line fails.
            r#"{"lone": "\ud800", "o": {"k": 1, "k": 2}, "b": [1,}"#.to_string(),
        ];
        // Every pair of lines, the last one ending with or without a newline.
        for grammar in [Grammar::Strict, Grammar::NonFinite] {
            for a in &lines {
                for b in &lines {
                    for last in ["", "\n", "\r\n"] {
                        let text = format!("{a}\n{b}{last}");
                        let fast = split_lines_in::<true>(text.as_bytes(), 0, grammar);
                        let alone = split_lines_in::<false>(text.as_bytes(), 0, grammar);
                        assert_eq!(described(&fast), described(&alone), "{text:?} {grammar:?}");
                    }
                }
            }
        }
    }

    fn texts<'a>(b: &'a [u8], s: &Split) -> Vec<&'a str> {
        s.values.iter().map(|v| std::str::from_utf8(&b[v.range.clone()]).unwrap()).collect()
    }

    /// Every split records container ends in start order, each where the
    /// scanner ends that container (a JSON Lines input first tried as one
    /// document must not keep the first line's entries twice).
    #[test]
    fn container_ends_of_documents_and_lines() {
        let p = "p".repeat(scan::ContainerEnds::MIN_BYTES);
        for text in [
            format!("[[{{\"a\": [\"{p}\"]}}, {{\"b\": 2}}], [{{\"c\": {{\"d\": \"{p}\"}}}}]]"),
            format!("{{\"a\": [\"{p}\"]}}\n{{\"b\": [2, {{\"c\": \"{p}\"}}]}}\n\n[4]\n"),
            format!("{{\"a\": [\"{p}\"]}}\n{{\"broken\": [\n{{\"b\": [\"{p}\"]}}\n"),
            format!("[{{\"a\": [\"{p}\"]}}, {{\"b\": [2, oops]}}]"),
        ] {
            let b = text.as_bytes();
            let s = split(b, 0);
            let entries: Vec<_> = s.ends.iter().collect();
            assert!(entries.len() >= 2, "{text:?}");
            assert!(entries.windows(2).all(|w| w[0].0 < w[1].0), "{text:?}: {entries:?}");
            for (start, end) in entries {
                assert_eq!(scan::scan_value(b, start), Ok(end), "{text:?} at {start}");
            }
        }
    }

    #[test]
    fn one_document() {
        let b = b" [1,\n 2]\n";
        let s = split(b, 0);
        assert_eq!(s.layout, Layout::Json);
        assert_eq!(texts(b, &s), vec!["[1,\n 2]"]);
        assert!(s.errors.is_empty());
    }

    #[test]
    fn json_lines_with_blank_lines_and_a_bad_line() {
        let b = b"{\"a\":1}\n\n[2]\r\n{\"b\":\n{\"c\":3}\n";
        let s = split(b, 0);
        assert_eq!(s.layout, Layout::Jsonl);
        assert_eq!(texts(b, &s), vec!["{\"a\":1}", "[2]", "{\"c\":3}"]);
        assert_eq!(s.values.iter().map(|v| v.line).collect::<Vec<_>>(), vec![0, 2, 4]);
        assert_eq!(s.errors.len(), 1);
        assert!(s.errors[0].message.contains("line ends"), "{}", s.errors[0].message);
        assert_eq!(s.leftovers.len(), 1);
    }

    #[test]
    fn broken_first_line_of_jsonl() {
        let b = b"{oops}\n{\"a\":1}\n";
        let s = split(b, 0);
        assert_eq!(s.layout, Layout::Jsonl);
        assert_eq!(texts(b, &s), vec!["{\"a\":1}"]);
        assert_eq!(s.errors[0].offset, 1);
    }

    #[test]
    fn broken_document_keeps_its_start() {
        let b = b"[\n {\"a\": 1},\n {\"b\": }\n]";
        let s = split(b, 0);
        assert_eq!(s.layout, Layout::Json);
        assert_eq!(s.values.len(), 1);
        assert_eq!(s.errors.len(), 1);
        assert_eq!(s.values[0].range.end, b.len());
    }

    #[test]
    fn trailing_garbage_after_a_pretty_document() {
        let b = b"[\n1\n]\nxyz";
        let s = split(b, 0);
        assert_eq!(s.layout, Layout::Json);
        assert!(s.errors[0].message.contains("unexpected `x`"));
        assert_eq!(s.leftovers, vec![6..9]);
    }

    /// The wider grammar reads exactly `NaN`, `Infinity` and `-Infinity` as
    /// values, each a hazard; the strict split stops at them, and says so.
    #[test]
    fn nonfinite_literals_in_the_wider_grammar_only() {
        let b = br#"[{"a": NaN, "b": [Infinity, -Infinity, -1]}, {"c": NaN}]"#;
        let strict = split(b, 0);
        assert_eq!(strict.errors.len(), 1);
        assert!(strict.errors[0].message.contains("`NaN` is not valid JSON"));
        assert!(strict.stopped_at_nonfinite(b) && strict.grammar() == Grammar::Strict);
        let wide = split_in(b, 0, Grammar::NonFinite);
        assert!(wide.errors.is_empty(), "{:?}", wide.errors);
        assert_eq!(wide.grammar(), Grammar::NonFinite);
        let at = |lit: &str| b.windows(lit.len()).position(|w| w == lit.as_bytes()).unwrap();
        assert_eq!(wide.hazards, vec![at("NaN"), at("Infinity"), at("-Infinity"), b.len() - 3 - 2]);
        // Readers jumping with the split's table scan what it did not record in its grammar.
        let (items, end) = scan::array_items_in(b, 0, &wide.ends);
        assert_eq!((items.len(), end), (2, Ok(b.len())));
        assert!(scan::array_items_in(b, 0, &strict.ends).1.is_err());
        for bad in ["[nan]", "[-NaN]", "[+Infinity]", "[NaNa]", "[Infinite]", "[-Inf]", "[INFINITY]"] {
            let s = split_in(bad.as_bytes(), 0, Grammar::NonFinite);
            assert_eq!(s.errors.len(), 1, "{bad}");
        }
        // JSON Lines: a line with a literal is a value of the wider split, a broken line of the strict one.
        let lines = b"{\"a\": 1}\n{\"b\": -Infinity}\n";
        assert_eq!((split(lines, 0).values.len(), split_in(lines, 0, Grammar::NonFinite).values.len()), (1, 2));
        // Several inputs: each split alone, offsets global.
        let joined = b"[NaN]\n{\"a\": Infinity}\n";
        let each = split_each(joined, &[0..6, 6..joined.len()], Grammar::NonFinite);
        assert_eq!((each.values.len(), each.hazards), (2, vec![1, 12]));
    }

    #[test]
    fn split_each_counts_lines_of_the_whole_input() {
        // Each part's documents are on the line of the whole input they start on, as a split
        // of that part alone from 0 would count them (the parts' lines are counted once).
        let joined = b"[1,\n2]\n{\"a\":\n1}\n\n  {\"b\": 2}\n";
        let parts = [0..7, 7..16, 16..joined.len()];
        let each = split_each(joined, &parts, Grammar::Strict);
        let alone: Vec<usize> = parts.iter().flat_map(|p| split_in(&joined[..p.end], p.start, Grammar::Strict).values).map(|v| v.line).collect();
        assert_eq!(each.values.iter().map(|v| v.line).collect::<Vec<_>>(), alone);
        assert_eq!(alone, vec![0, 2, 5]);
    }

    #[test]
    fn empty_and_bom() {
        assert!(split(b"  \n", 0).values.is_empty());
        let b = b"\xEF\xBB\xBF[1]";
        assert_eq!(bom_len(b), 3);
        assert_eq!(split(b, 3).values[0].range, 3..6);
    }
}
