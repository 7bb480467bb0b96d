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
    let end = super::inner_literal::end(b, from)?;
    let (code, seconds) = metadata(b.get(end.at + 2..)?, scratch)?;
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

/// The exit code and duration the rest of the document says, from `raw`,
/// the bytes after the output literal's closing `\"` (escaped once more);
/// `None` when that rest is not read here.
fn metadata(raw: &[u8], scratch: &mut String) -> Option<(Option<i64>, Option<f64>)> {
    common_metadata_as_written(raw).or_else(|| decoded_metadata(raw, scratch))
}

/// [`metadata`] read from the rest decoded.
fn decoded_metadata(raw: &[u8], scratch: &mut String) -> Option<(Option<i64>, Option<f64>)> {
    // The rest decoded; `null` in place of the output, so that it parses as
    // the whole would (no other `output` key can take its place).
    scratch.clear();
    scratch.push_str(r#"{"output":null"#);
    unescape_into(raw, scratch);
    let rest = scratch.get(r#"{"output":null"#.len()..)?;
    if rest.contains('\\') || rest.contains(r#""output""#) {
        return None;
    }
    Some(common_metadata(rest).unwrap_or_else(|| {
        let doc = crate::json::build::from_str(scratch).ok();
        let meta = doc.as_ref().and_then(|j| j.get("metadata"));
        (meta.and_then(|m| m.get("exit_code")).and_then(Value::as_i64), meta.and_then(|m| m.get("duration_seconds")).and_then(Value::as_f64))
    }))
}

/// [`common_metadata`] of the rest as it stands in the outer literal,
/// `,\"metadata\":{\"exit_code\":N,\"duration_seconds\":N}}`, each `N` a
/// number token: then its only escapes are those `\"`, it decodes to the
/// shape [`common_metadata`] reads, with the same two tokens, and holds no
/// backslash and no other `output` key. Decoding the rest to read it cost
/// 2% of a parse in wasm, and its search for `"output"` 1%. `None`: decode it.
fn common_metadata_as_written(raw: &[u8]) -> Option<(Option<i64>, Option<f64>)> {
    let rest = raw.strip_prefix(br#",\"metadata\":{\"exit_code\":"#)?;
    let comma = rest.iter().position(|&c| c == b',')?;
    let (code, rest) = (rest.get(..comma)?, rest.get(comma + 1..)?);
    let seconds = rest.strip_prefix(br#"\"duration_seconds\":"#)?.strip_suffix(b"}}")?;
    if !is_number_token(code) || !is_number_token(seconds) {
        return None;
    }
    let (code, seconds) = (std::str::from_utf8(code).ok()?, std::str::from_utf8(seconds).ok()?);
    Some((number(code)?.0, number(seconds)?.1))
}

/// The exit code and duration of the rest of the document (after the
/// output) when it is exactly `,"metadata":{"exit_code":N,"duration_seconds":N}}`
/// with two numbers, as Codex writes it: each number is read alone, as it
/// would be in the document, without building the maps.
fn common_metadata(rest: &str) -> Option<(Option<i64>, Option<f64>)> {
    let (code, rest) = rest.strip_prefix(r#","metadata":{"exit_code":"#)?.split_once(',')?;
    let seconds = rest.strip_prefix(r#""duration_seconds":"#)?.strip_suffix("}}")?;
    Some((number(code)?.0, number(seconds)?.1))
}

/// What `as_i64` and `as_f64` give of the number `token` (`None`: it is no
/// number). serde_json's `arbitrary_precision` keeps a number's text as
/// written and parses that text in both, so a plain token is parsed here
/// without building a `Value` (3.3M of the parse's 180M, callgrind on the
/// kit's 10 MB rollout); anything else (spaces around it) the exact way.
fn number(token: &str) -> Option<(Option<i64>, Option<f64>)> {
    if is_number_token(token.as_bytes()) {
        return Some((token.parse().ok(), token.parse::<f64>().ok().filter(|f| f.is_finite())));
    }
    let v = crate::json::build::from_str(token).ok().filter(Value::is_number)?;
    Some((v.as_i64(), v.as_f64()))
}

/// JSON's number grammar, `-? (0 | [1-9] [0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`:
/// what Rust's parsers would read otherwise (`+1`, `01`, `inf`) is refused.
fn is_number_token(t: &[u8]) -> bool {
    let digits = |t: &[u8]| t.iter().position(|c| !c.is_ascii_digit()).unwrap_or(t.len());
    let t = t.strip_prefix(b"-").unwrap_or(t);
    let whole = digits(t);
    if whole == 0 || (whole > 1 && t.first() == Some(&b'0')) {
        return false;
    }
    let mut rest = t.get(whole..).unwrap_or_default();
    if let Some(fraction) = rest.strip_prefix(b".") {
        let n = digits(fraction);
        if n == 0 {
            return false;
        }
        rest = fraction.get(n..).unwrap_or_default();
    }
    if let Some(exponent) = rest.strip_prefix(b"e").or_else(|| rest.strip_prefix(b"E")) {
        let exponent = exponent.strip_prefix(b"+").or_else(|| exponent.strip_prefix(b"-")).unwrap_or(exponent);
        let n = digits(exponent);
        return n > 0 && n == exponent.len();
    }
    rest.is_empty()
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

    /// The rest after the output read as written gives what it gives
    /// decoded, and is read so in the common shape.
    #[test]
    fn the_rest_as_written_reads_as_decoded() {
        let rests = [
            r#","metadata":{"exit_code":0,"duration_seconds":1.172}}"#,
            r#","metadata":{"exit_code":-3,"duration_seconds":1e400}}"#,
            r#","metadata":{"exit_code":1.5,"duration_seconds":-0}}"#,
            r#","metadata":{"exit_code":99999999999999999999,"duration_seconds":2}}"#,
            r#","metadata":{"exit_code":"0","duration_seconds":2}}"#,
            r#","metadata":{"exit_code":0,"duration_seconds":"2"}}"#,
            r#","metadata":{"exit_code":01,"duration_seconds":2}}"#,
            r#","metadata":{"exit_code":0 ,"duration_seconds":2}}"#,
            r#","metadata":{"exit_code":0,"duration_seconds":2} }"#,
            r#","metadata":{"exit_code":0,"duration_seconds":2,"x":1}}"#,
            r#","metadata":{"exit_code":[1,2],"duration_seconds":2}}"#,
            r#","metadata":{"exit_code":0,"duration_seconds":2}}x"#,
            r#",\"metadata\":{\"exit_code\":0,\"duration_seconds\":2}}"#,
        ];
        let mut as_written = 0;
        for rest in rests {
            let literal = serde_json::to_string(rest).unwrap();
            let raw = &literal.as_bytes()[1..literal.len() - 1];
            if let Some(read) = common_metadata_as_written(raw) {
                as_written += 1;
                assert_eq!(Some(read), decoded_metadata(raw, &mut String::new()), "{rest}");
            }
        }
        assert_eq!(as_written, 4, "the plain shapes are read as written");
        let raw = br#",\"metadata\":{\"exit_code\":\u0031,\"duration_seconds\":2}}"#;
        assert_eq!(common_metadata_as_written(raw), None);
        assert_eq!(common_metadata_as_written(br#"\u002c\"metadata\":{\"exit_code\":0,\"duration_seconds\":2}}"#), None);
        assert_eq!(common_metadata_as_written(br#",\"metadata\":{\"exit_code\":7,\"duration_seconds\":0.25}}"#), Some((Some(7), Some(0.25))));
    }

    /// A metadata number read from its text gives what the parsed `Value` gives.
    #[test]
    fn numbers_read_as_the_parsed_value_reads_them() {
        let tokens = [
            "0", "-0", "7", "-3", "1.5", "1.0", "0.5e-3", "1E5", "1e+2", "1e400", "-1e400", "99999999999999999999",
            "9223372036854775807", "9223372036854775808", "-9223372036854775808", "1.172", "0.1000000000000000055511151231257827",
            "01", "-", "+1", "1.", ".5", "1e", "1e+", "--1", "0x10", "inf", "NaN", "1.5.2", "", " 3 ", "3 ", "\"3\"", "null", "[1]",
        ];
        for t in tokens {
            let v = crate::json::build::from_str(t).ok().filter(Value::is_number);
            assert_eq!(number(t), v.map(|v| (v.as_i64(), v.as_f64())), "{t}");
        }
    }
}
