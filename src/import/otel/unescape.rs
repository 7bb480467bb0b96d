//! A JSON string literal's contents decoded exactly as
//! `json::string::unescape_into` decodes them, a 64-byte window at a time.
//! The texts an otel parse decodes (each chat span's new input items, a
//! tool's result re-sent in them, the output messages) hold an escape every
//! dozen bytes or so (`\"`, `\n`, `\\`, and twice as many in a string
//! holding JSON): finding each with its own `memchr` call cost more than the
//! search, ~90 instructions an escape. Here one window's backslashes are
//! found at once and its escapes decoded from the bit mask.

use std::borrow::Cow;

use crate::json::string::{lossy, unicode_escape};
use crate::text::{RawText, Text};

/// One escape of a decoded text: where it starts and ends, in the raw
/// bytes and in the text (a dropped backslash decodes to nothing).
#[derive(Debug, Clone, Copy)]
pub struct Escape {
    pub raw: (usize, usize),
    pub text: (usize, usize),
}

/// Appends `raw[from..]` decoded to `out` exactly as `unescape_into`
/// decodes it, handing each escape to `note`. `None` when those bytes are
/// not UTF-8 (`unescape_into` would replace some; the callers then decode
/// as it does).
pub fn unescape_noting(raw: &[u8], from: usize, out: &mut String, mut note: impl FnMut(Escape)) -> Option<()> {
    let text = simdutf8::basic::from_utf8(raw.get(from..)?).ok()?;
    out.reserve(text.len());
    // `pending`: where the bytes not yet copied start (all before it are
    // in `out`); the escapes found in a window before it were decoded.
    let mut pending = from;
    let mut window = from;
    while window < raw.len() {
        let mut backslashes = backslashes64(raw, window);
        while backslashes != 0 {
            let at = window + backslashes.trailing_zeros() as usize;
            backslashes &= backslashes - 1;
            if at < pending {
                continue; // a byte of the escape just decoded (`\\`)
            }
            // A backslash is ASCII: both ends are character boundaries.
            out.push_str(text.get(pending - from..at - from)?);
            let at_text = out.len();
            pending = decode_escape(raw, at, out);
            note(Escape { raw: (at, pending), text: (at_text, out.len()) });
        }
        window = (window + 64).max(pending);
    }
    out.push_str(text.get(pending.min(raw.len()) - from..)?);
    Some(())
}

/// `raw` decoded as `json::string::decode_literal` decodes it (escaped).
pub fn decoded(raw: &[u8]) -> String {
    let mut out = String::new();
    if unescape_noting(raw, 0, &mut out, |_| {}).is_none() {
        out.clear();
        crate::json::string::unescape_into(raw, &mut out);
    }
    out
}

/// `json::string::decode_literal`, decoding escapes with [`decoded`].
pub fn decode_literal(raw: &[u8], escaped: bool) -> Cow<'_, str> {
    if escaped {
        Cow::Owned(decoded(raw))
    } else {
        lossy(raw)
    }
}

/// [`Text::decoded`], decoding a literal in the source with [`decoded`].
pub fn text_decoded(t: &Text) -> Cow<'_, str> {
    match t.raw() {
        RawText::Source { bytes, escaped } => decode_literal(bytes, escaped),
        _ => t.decoded(),
    }
}

/// Decodes the escape whose backslash is at `at` onto `out` as
/// `unescape_into` does; the offset past it.
#[inline(always)]
fn decode_escape(raw: &[u8], at: usize, out: &mut String) -> usize {
    match raw.get(at + 1) {
        Some(b'u') => {
            let (c, used) = unicode_escape(raw, at);
            out.push(c);
            at + used
        }
        Some(c) if c.is_ascii() => {
            out.push(match c {
                b'n' => '\n',
                b't' => '\t',
                b'r' => '\r',
                b'b' => '\u{8}',
                b'f' => '\u{c}',
                other => char::from(*other),
            });
            at + 2
        }
        // A backslash before a non-ASCII character is dropped; so is a
        // last lone backslash.
        _ => at + 1,
    }
}

/// Bit `j` set when `raw[at + j]` is a backslash, for the 64 bytes from `at`.
#[cfg(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
fn backslashes64(raw: &[u8], at: usize) -> u64 {
    // (Padded past the end with bytes that are no backslash.)
    crate::json::simd::string_block64(raw, at, false).backslash
}

#[cfg(not(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128"))))]
fn backslashes64(raw: &[u8], at: usize) -> u64 {
    raw.get(at..).unwrap_or(&[]).iter().take(64).enumerate().fold(0, |m, (j, &c)| if c == b'\\' { m | 1 << j } else { m })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whatever the bytes, the text is `unescape_into`'s and the noted
    /// escapes cover exactly the bytes it decoded as escapes.
    #[test]
    fn decodes_as_unescape_into() {
        let pieces: [&str; 14] = [r#"\""#, r#"\\"#, r#"\n"#, r#"\u00e9"#, r#"\ud83d\ude00"#, r#"\ud800"#, r#"\u12"#, r#"\x"#, r#"\é"#, "é", "😀", "a", "bc", r#"\/"#];
        let mut cases: Vec<String> = vec![String::new(), "\\".into(), "plain".into(), "a\\".into(), r#"\u"#.into(), r#"\ud83d\u"#.into()];
        // Every piece at every offset around the window's edges.
        for fill in [0, 1, 30, 55, 58, 60, 61, 62, 63, 64, 65, 120, 126, 127, 128] {
            for p in pieces {
                for q in pieces {
                    cases.push(format!("{}{p}{q}{}", "x".repeat(fill), "y".repeat(fill % 7)));
                }
            }
        }
        cases.push(r#"\\"#.repeat(100));
        cases.push(format!("{}\\", "é".repeat(40)));
        for s in &cases {
            let raw = s.as_bytes();
            let mut expected = String::new();
            crate::json::string::unescape_into(raw, &mut expected);
            let (mut got, mut escapes) = (String::from("head"), Vec::new());
            unescape_noting(raw, 0, &mut got, |e| escapes.push(e)).unwrap();
            assert_eq!(got.strip_prefix("head"), Some(expected.as_str()), "{s}");
            assert_eq!(decoded(raw), expected, "{s}");
            let mut last = (0, 4);
            for e in &escapes {
                assert_eq!(raw.get(e.raw.0), Some(&b'\\'), "{s}");
                // The plain bytes between two escapes are copied as they are.
                assert_eq!(e.raw.0 - last.0, e.text.0 - last.1, "{s}");
                last = (e.raw.1, e.text.1);
            }
            assert_eq!(raw.len() - last.0, got.len() - last.1, "{s}");
            // From an offset on: the same text as decoding that rest.
            if let Some(cut) = (1..raw.len()).find(|&c| raw.get(c) == Some(&b'x') && raw.get(c - 1) != Some(&b'\\')) {
                let mut tail = String::new();
                unescape_noting(raw, cut, &mut tail, |_| {}).unwrap();
                let mut rest = String::new();
                crate::json::string::unescape_into(raw.get(cut..).unwrap(), &mut rest);
                assert_eq!(tail, rest, "{s} from {cut}");
            }
        }
        assert_eq!(unescape_noting(b"a\xffb", 0, &mut String::new(), |_| {}), None);
        assert_eq!(decoded(b"\\n\xff"), "\n\u{fffd}");
    }
}
