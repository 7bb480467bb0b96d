//! Whether a validated JSON value is already what serde_json writes for it.
//!
//! A key-value event's line and search text hold the head of its value as
//! compact JSON. Written from a parse, that cost a tree per value (a Codex
//! `token_count` payload, a mirrored turn) on the first free-text query, for
//! values left in the source so as not to build those trees at all. A value
//! written by serde_json or `JSON.stringify` is its own compact JSON: those
//! bytes are the text, once checked here (one pass, nothing built).

use memchr::memchr2;

/// `bytes` as text when they are a valid JSON value (the split validated it,
/// UTF-8 included) that `serde_json::to_string` of its `serde_json::Value`
/// gives back byte for byte: no whitespace between tokens, every escape
/// the one serde_json writes, every number kept as written, no object that
/// repeats a key (the parse keeps only the last value, in the first one's
/// place). `None` when any of these does not hold: write it from a parse.
pub fn as_written(bytes: &[u8]) -> Option<&str> {
    let mut i = 0;
    while let Some(&c) = bytes.get(i) {
        i = match c {
            b'"' => string_end(bytes, i + 1)?,
            b'{' | b'}' | b'[' | b']' | b',' | b':' => i + 1,
            b't' | b'f' | b'n' => i + bytes.get(i..)?.iter().take_while(|b| b.is_ascii_alphabetic()).count(),
            b'-' | b'0'..=b'9' => number_end(bytes, i)?,
            _ => return None,
        };
    }
    if bytes.contains(&b'{') && crate::dupkeys::find(bytes, 0..bytes.len(), 0).1 > 0 {
        return None;
    }
    std::str::from_utf8(bytes).ok()
}

/// The end (after the closing quote) of the string whose contents start at
/// `i`, when each escape in it is the one serde_json writes: `\"`, `\\`,
/// `\b`, `\f`, `\n`, `\r`, `\t`, and `\u00xx` (lower-case hex) for the other
/// control characters.
fn string_end(b: &[u8], mut i: usize) -> Option<usize> {
    loop {
        let at = i + memchr2(b'"', b'\\', b.get(i..)?)?;
        if b.get(at) == Some(&b'"') {
            return Some(at + 1);
        }
        match b.get(at + 1)? {
            b'"' | b'\\' | b'b' | b'f' | b'n' | b'r' | b't' => i = at + 2,
            b'u' => {
                let hex = b.get(at + 2..at + 6)?;
                let lower = |x: &u8| matches!(x, b'0'..=b'9' | b'a'..=b'f');
                let code = u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?;
                let short = matches!(code, 0x08 | 0x09 | 0x0a | 0x0c | 0x0d);
                if !(hex.starts_with(b"00") && hex.iter().all(lower) && code < 0x20 && !short) {
                    return None;
                }
                i = at + 6;
            }
            _ => return None,
        }
    }
}

/// The end of the number starting at `i` when serde_json keeps it as
/// written (`arbitrary_precision`), as `json::build` decides it.
fn number_end(b: &[u8], i: usize) -> Option<usize> {
    let rest = b.get(i..)?;
    let len = rest.iter().position(|c| !matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')).unwrap_or(rest.len());
    let token = rest.get(..len)?;
    let digits = token.strip_prefix(b"-").unwrap_or(token);
    let canonical = !digits.is_empty()
        && digits.len() <= 18
        && digits.iter().all(u8::is_ascii_digit)
        && (digits.first() != Some(&b'0') || (digits.len() == 1 && digits.len() == token.len()));
    if canonical {
        return Some(i + len);
    }
    let text = std::str::from_utf8(token).ok()?;
    let n: serde_json::Number = text.parse().ok()?;
    (n.as_str() == text).then_some(i + len)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each text is read by serde_json and written back: `as_written` says
    /// yes exactly when that gives the same bytes.
    #[test]
    fn agrees_with_serde_json_writing_the_parse() {
        for text in [
            r#"{"a":1,"b":[true,false,null],"c":"x\ny\t\"q\"\\ \u001b é😀","d":{}}"#,
            r#"{"a": 1}"#,
            "[1,2 ]",
            r#""\/""#,
            r#""\u00e9""#,
            r#""\u000a""#,
            r#""\u001B""#,
            r#""\u001f""#,
            r#""\b\f\r""#,
            r#"{"a":1,"a":2}"#,
            r#"{"a":{"b":1,"b":1}}"#,
            r#"{"\u0061":1,"a":2}"#,
            "[-0,0,1.50,1e5,1E5,-1.0e-7,123456789012345678901234567890,0.1]",
            "-0",
            "[1.0]",
            "12345678901234567890",
            r#"{"k":[{"x":"y"},{"x":"y"}]}"#,
            "null",
            r#""""#,
        ] {
            let v: serde_json::Value = serde_json::from_str(text).unwrap();
            let same = serde_json::to_string(&v).unwrap() == text;
            assert_eq!(as_written(text.as_bytes()).is_some(), same, "{text}");
        }
    }
}
