//! A shell tool's output read from the bytes, its text left in the source.
//!
//! Codex's shell tools answer with a string holding JSON:
//! `"{\"output\":\"…\",\"metadata\":{\"exit_code\":0,\"duration_seconds\":1.2}}"`.
//! The exact path decodes the string, parses the JSON and keeps the
//! `output` it takes out of it: the text is decoded twice and owned (it is
//! most of a rollout's bytes). Here the inner `output` literal is walked in
//! the bytes as they stand, escaped twice, and checked to be one serde_json
//! reads; its text stays in the source ([`Text::twice_in_source`]) and only
//! the short rest of the document (`metadata`) is decoded and parsed, with
//! `null` standing in for the output. Taken only when the document starts
//! with `{"output":"` exactly and its rest holds no backslash and no other
//! `"output"` key; anything else returns `None` (read the exact way).

use std::ops::Range;

use serde_json::Value;

use super::items::ShellOutcome;
use crate::json::string::unescape_into;
use crate::model::{Content, Text, ToolStatus};
use crate::text::Source;

/// `{"output":"` as it stands in a JSON string literal's contents.
const OPENING: &[u8] = br#"{\"output\":\""#;

/// The output string literal at `inner` (its contents: a JSON document
/// encoded in a string) read as a shell tool's, as
/// [`super::items::string_output`] reads its decoded text; `None` when the
/// bytes are not in the shape read here. `scratch`: a buffer reused.
pub fn read(source: &Source, inner: Range<usize>, scratch: &mut String) -> Option<(Content, ToolStatus, Option<ShellOutcome>)> {
    let b = source.get(inner.clone())?;
    let from = OPENING.len();
    if !b.starts_with(OPENING) {
        return None;
    }
    let end = inner_string_end(b, from)?;
    // The rest after the output literal's closing `\"`, decoded; `null` in
    // place of the output, so that it parses as the whole would (no other
    // `output` key can take its place).
    scratch.clear();
    scratch.push_str(r#"{"output":null"#);
    unescape_into(b.get(end.at + 2..)?, scratch);
    let rest = scratch.get(r#"{"output":null"#.len()..)?;
    if rest.contains('\\') || rest.contains(r#""output""#) {
        return None;
    }
    let (code, seconds) = common_metadata(rest).unwrap_or_else(|| {
        let doc = crate::json::build::from_str(scratch).ok();
        let meta = doc.as_ref().and_then(|j| j.get("metadata"));
        (meta.and_then(|m| m.get("exit_code")).and_then(Value::as_i64), meta.and_then(|m| m.get("duration_seconds")).and_then(Value::as_f64))
    });
    let seconds = seconds.filter(|s| s.is_finite());
    let text_range = inner.start + from..inner.start + end.at;
    let output = match (end.inner_escapes, end.outer_escapes) {
        (true, _) => Text::twice_in_source(source, text_range),
        (false, escaped) => Text::in_source(source, text_range, escaped),
    };
    match code {
        Some(exit_code) => {
            let status = if exit_code == 0 { ToolStatus::Success } else { ToolStatus::Error };
            Some((Content::Text(output), status, Some(ShellOutcome { exit_code, seconds })))
        }
        None => {
            let whole = Text::in_source(source, inner, memchr::memchr(b'\\', b).is_some());
            Some((Content::Text(whole), ToolStatus::Unknown, None))
        }
    }
}

/// The exit code and duration of the rest of the document (after the
/// output) when it is exactly `,"metadata":{"exit_code":N,"duration_seconds":N}}`
/// with two numbers, as Codex writes it: each number is parsed alone, as it
/// would be in the document, without building the maps.
fn common_metadata(rest: &str) -> Option<(Option<i64>, Option<f64>)> {
    let (code, rest) = rest.strip_prefix(r#","metadata":{"exit_code":"#)?.split_once(',')?;
    let seconds = rest.strip_prefix(r#""duration_seconds":"#)?.strip_suffix("}}")?;
    let number = |t: &str| crate::json::build::from_str(t).ok().filter(Value::is_number);
    let (code, seconds) = (number(code)?, number(seconds)?);
    Some((code.as_i64(), seconds.as_f64()))
}

/// Where an inner string literal ends, and which escapes it holds.
struct End {
    /// The index of the `\` of the `\"` that closes it.
    at: usize,
    /// It holds an escape of its own (written `\\…` in the bytes).
    inner_escapes: bool,
    /// It holds an escape of the outer literal (a `\u` or `\/`).
    outer_escapes: bool,
}

/// The end of the inner string literal whose contents start at `from` of
/// `b` (a string literal's contents, escaped once more), when that literal
/// is one serde_json decodes: every escape known, no control character, no
/// lone surrogate; else `None`. The outer escapes were checked by the split.
fn inner_string_end(b: &[u8], from: usize) -> Option<End> {
    let mut end = End { at: 0, inner_escapes: false, outer_escapes: false };
    let mut backslashes = Backslashes::new(b);
    let mut i = from;
    loop {
        let at = backslashes.next_from(i)?;
        match *b.get(at + 1)? {
            b'"' => {
                end.at = at;
                return Some(end);
            }
            b'/' => {
                end.outer_escapes = true;
                i = at + 2;
            }
            b'u' => {
                // A character of the inner text; a quote, a backslash or a
                // control character written so is left to the exact path.
                let c = hex4(b, at + 2)?;
                if c < 0x20 || c == 0x22 || c == 0x5c {
                    return None;
                }
                end.outer_escapes = true;
                i = at + 6;
            }
            b'\\' => {
                end.inner_escapes = true;
                i = inner_escape(b, at + 2)?;
            }
            // `\n`, `\t`, …: a control character in the inner literal, which
            // serde_json refuses.
            _ => return None,
        }
    }
}

/// The backslashes of `b` in order: shell output is dense with them (one
/// byte in ten in the kit's files), too dense for a `memchr` call each.
/// Where SIMD is on, found 64 bytes at a time with the split's classifier.
struct Backslashes<'b> {
    b: &'b [u8],
    /// The window `base..base + 64` and the bits of its backslashes.
    #[cfg_attr(not(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128"))), allow(dead_code))]
    base: usize,
    #[cfg_attr(not(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128"))), allow(dead_code))]
    mask: u64,
}

impl<'b> Backslashes<'b> {
    fn new(b: &'b [u8]) -> Backslashes<'b> {
        // An empty window before the bytes: the first call loads one.
        Backslashes { b, base: usize::MAX, mask: 0 }
    }

    /// The first backslash at or after `i`.
    #[cfg(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128")))]
    fn next_from(&mut self, mut i: usize) -> Option<usize> {
        loop {
            if i >= self.b.len() {
                return None;
            }
            match i.checked_sub(self.base) {
                Some(k) if k < 64 => {
                    let m = self.mask & (u64::MAX << k);
                    if m != 0 {
                        // Past the end the window is padded with zeros: no bit there.
                        return Some(self.base + m.trailing_zeros() as usize);
                    }
                    i = self.base + 64;
                }
                _ => {
                    self.base = i;
                    self.mask = crate::json::simd::string_block64(self.b, i, false).backslash;
                }
            }
        }
    }

    #[cfg(not(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128"))))]
    fn next_from(&mut self, i: usize) -> Option<usize> {
        Some(i + memchr::memchr(b'\\', self.b.get(i..)?)?)
    }
}

/// The inner escape whose letter starts at `k` (after the inner `\`):
/// where the bytes after it start.
fn inner_escape(b: &[u8], k: usize) -> Option<usize> {
    match *b.get(k)? {
        b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Some(k + 1),
        b'\\' => match *b.get(k + 1)? {
            b'\\' | b'"' | b'/' => Some(k + 2),
            _ => None,
        },
        b'u' => {
            let c = hex4(b, k + 1)?;
            match c {
                0xD800..=0xDBFF => {
                    // A high surrogate: a low one must follow, escaped the same way.
                    if b.get(k + 5..k + 8)? != br"\\u" || !(0xDC00..=0xDFFF).contains(&hex4(b, k + 8)?) {
                        return None;
                    }
                    Some(k + 12)
                }
                0xDC00..=0xDFFF => None,
                _ => Some(k + 5),
            }
        }
        _ => None,
    }
}

/// The four hex digits at `i`, as written (no escape among them).
fn hex4(b: &[u8], i: usize) -> Option<u32> {
    let digits = b.get(i..i + 4)?;
    digits.iter().try_fold(0u32, |n, d| Some(n * 16 + (*d as char).to_digit(16)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// The shell document `doc` as it stands in a line, read here and the
    /// exact way.
    fn both(doc: &str) -> (Option<(String, ToolStatus, Option<i64>)>, (String, ToolStatus, Option<i64>)) {
        let literal = serde_json::to_string(doc).unwrap();
        let source: Source = Arc::new(literal.as_bytes().to_vec());
        let show = |(c, s, o): (Content, ToolStatus, Option<ShellOutcome>)| {
            let Content::Text(t) = c else { panic!("not a text") };
            (t.decoded().into_owned(), s, o.map(|o| o.exit_code))
        };
        let fast = read(&source, 1..literal.len() - 1, &mut String::new()).map(show);
        let exact = show(super::super::items::string_output(doc, || doc.into()));
        (fast, exact)
    }

    #[test]
    fn reads_what_the_exact_way_reads_or_leaves_it() {
        let read_here = [
            r#"{"output":"a\nb \"q\" \\ \/ \u00e9 \ud83d\ude00 é","metadata":{"exit_code":1,"duration_seconds":0.5}}"#,
            r#"{"output":"plain","metadata":{"exit_code":0}}"#,
            r#"{"output":"","metadata":{"exit_code":0,"duration_seconds":1e400}}"#,
            r#"{"output":"x","metadata":{"exit_code":"0"}}"#,
            r#"{"output":"x","metadata":null}"#,
            r#"{"output":"x"} trailing"#,
            r#"{"output":"x","metadata":{"exit_code":0}"#,
            r#"{"output":"x","metadata":{"exit_code":-0,"duration_seconds":2}}"#,
            r#"{"output":"x","metadata":{"exit_code":1.5,"duration_seconds":2}}"#,
            r#"{"output":"x","metadata":{"exit_code":[1,2],"duration_seconds":2}}"#,
            r#"{"output":"x","metadata":{"exit_code":99999999999999999999,"duration_seconds":2}}"#,
            r#"{"output":"x","metadata":{"exit_code":0,"duration_seconds":{"a":1}}}"#,
            r#"{"output":"x","metadata":{"exit_code": 3 ,"duration_seconds": 2.25 }} "#,
            r#"{"output":"x","metadata":{"exit_code":0,"duration_seconds":1e400}}"#,
        ];
        for doc in read_here {
            let (fast, exact) = both(doc);
            assert_eq!(fast, Some(exact), "{doc}");
        }
        let left = [
            "{\"output\":\"a\tb\",\"metadata\":{\"exit_code\":0}}",
            r#"{"output":"\ud800","metadata":{"exit_code":0}}"#,
            r#"{"output":"\udc00 x","metadata":{"exit_code":0}}"#,
            r#"{"output":"\x","metadata":{"exit_code":0}}"#,
            r#"{"output":"x","output":"y","metadata":{"exit_code":0}}"#,
            r#"{"output":"x","outp\u0075t":"y","metadata":{"exit_code":0}}"#,
            r#"{"output": "x","metadata":{"exit_code":0}}"#,
            r#"{"output":"x"#,
        ];
        for doc in left {
            assert_eq!(both(doc).0, None, "{doc}");
        }
    }
}
