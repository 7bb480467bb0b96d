//! [`Text`]: a string of the trace, left where it is in the source.
//!
//! Message and tool-output content is most of a trace's bytes. Copying every
//! such string out of the input doubled the memory a trace takes and was most
//! of the parse's time, so a string read from the input stays a range of it
//! (a JSON string literal, escapes and all) and is decoded when someone reads
//! it: a row shows the first line of a few hundred events, search lowers the
//! text once, a renderer walks one run. Strings made by the core itself (a
//! joined text, a value from another encoding) are owned.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;
use std::sync::Arc;

/// The input bytes of a trace, shared by the trace and every [`Text`] that
/// points into them. An `Arc` of the `Vec` the caller handed over: no copy.
pub type Source = Arc<Vec<u8>>;

/// A string of the trace: a JSON string literal of the source, or owned.
#[derive(Clone)]
pub struct Text(Repr);

#[derive(Clone)]
enum Repr {
    Owned(Box<str>),
    /// The bytes between a string literal's quotes. `escaped` is true when
    /// they hold a backslash escape (the text then differs from the bytes).
    Source { source: Source, start: u32, end: u32, escaped: bool },
}

impl Text {
    /// The string literal whose contents (between the quotes) are
    /// `inner` of `source`; `escaped` says whether they hold a `\` escape.
    /// The literal must be one the JSON scanner accepted; anything it
    /// cannot decode reads as U+FFFD rather than failing.
    pub fn in_source(source: &Source, inner: Range<usize>, escaped: bool) -> Text {
        match (u32::try_from(inner.start), u32::try_from(inner.end)) {
            (Ok(start), Ok(end)) if start <= end && inner.end <= source.len() => {
                Text(Repr::Source { source: Arc::clone(source), start, end, escaped })
            }
            // Past 4 GiB (the input cap is far below): decode now instead.
            _ => {
                let raw = source.get(inner).unwrap_or(&[]);
                Text::from(decode_literal(raw, escaped).into_owned())
            }
        }
    }

    /// The text, decoded: borrowed from the source when it holds no escape.
    pub fn decoded(&self) -> Cow<'_, str> {
        match &self.0 {
            Repr::Owned(s) => Cow::Borrowed(s),
            Repr::Source { source, start, end, escaped } => {
                let raw = source.get(*start as usize..*end as usize).unwrap_or(&[]);
                decode_literal(raw, *escaped)
            }
        }
    }

    /// True for the empty string (an escape always decodes to a character).
    pub fn is_empty(&self) -> bool {
        match &self.0 {
            Repr::Owned(s) => s.is_empty(),
            Repr::Source { start, end, .. } => start == end,
        }
    }

    /// The range of the literal's contents in the source, when it is there.
    pub fn source_range(&self) -> Option<Range<usize>> {
        match &self.0 {
            Repr::Owned(_) => None,
            Repr::Source { start, end, .. } => Some(*start as usize..*end as usize),
        }
    }

    /// Appends the decoded text to `out` without an intermediate string.
    pub fn push_to(&self, out: &mut String) {
        match &self.0 {
            Repr::Owned(s) => out.push_str(s),
            Repr::Source { source, start, end, escaped } => {
                let raw = source.get(*start as usize..*end as usize).unwrap_or(&[]);
                if *escaped {
                    unescape_into(raw, out);
                } else {
                    out.push_str(&lossy(raw));
                }
            }
        }
    }
}

impl Default for Text {
    fn default() -> Text {
        Text(Repr::Owned(Box::from("")))
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        Text(Repr::Owned(s.into_boxed_str()))
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text(Repr::Owned(Box::from(s)))
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        if let (Repr::Source { source: a, start: s1, end: e1, .. }, Repr::Source { source: b, start: s2, end: e2, .. }) = (&self.0, &other.0) {
            if Arc::ptr_eq(a, b) && s1 == s2 && e1 == e2 {
                return true;
            }
        }
        self.decoded() == other.decoded()
    }
}

impl Eq for Text {}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.decoded() == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.decoded() == *other
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.decoded())
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.decoded(), f)
    }
}

impl serde::Serialize for Text {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.decoded())
    }
}

/// The bytes as text, invalid UTF-8 replaced. Texts in the source are
/// almost always valid (the import checks), and a validating check is several
/// times faster than `String::from_utf8_lossy`'s chunk iterator on them;
/// simdutf8's (SIMD, also on wasm) is faster again than `str::from_utf8` on
/// the long texts that make up most of a trace.
#[inline]
fn lossy(raw: &[u8]) -> Cow<'_, str> {
    match simdutf8::basic::from_utf8(raw) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(raw),
    }
}

/// Decodes the contents of a JSON string literal.
fn decode_literal(raw: &[u8], escaped: bool) -> Cow<'_, str> {
    if !escaped {
        return lossy(raw);
    }
    let mut out = String::with_capacity(raw.len());
    unescape_into(raw, &mut out);
    Cow::Owned(out)
}

/// Appends the decoded contents of a JSON string literal to `out`. Runs
/// between escapes are copied whole (found with memchr); a lone surrogate
/// or invalid UTF-8 becomes U+FFFD.
fn unescape_into(raw: &[u8], out: &mut String) {
    // Checked once as a whole, the text between escapes is sliced from it
    // (a backslash is ASCII, so every slice ends on a character boundary)
    // instead of being checked again piece by piece: a fifth of building the
    // search index went to those checks.
    match simdutf8::basic::from_utf8(raw) {
        Ok(text) => unescape_with(raw, out, |piece, out| out.push_str(text.get(piece).unwrap_or_default())),
        Err(_) => unescape_with(raw, out, |piece, out| out.push_str(&lossy(raw.get(piece).unwrap_or_default()))),
    }
}

/// The unescaping loop: `piece` appends the text between two escapes (a
/// byte range of `raw`), this decodes the escapes.
fn unescape_with(raw: &[u8], out: &mut String, piece: impl Fn(std::ops::Range<usize>, &mut String)) {
    let mut i = 0;
    while i < raw.len() {
        let Some(at) = raw.get(i..).and_then(|rest| memchr::memchr(b'\\', rest)) else {
            piece(i..raw.len(), out);
            return;
        };
        piece(i..i + at, out);
        i += at;
        let c = match raw.get(i + 1) {
            Some(b'n') => '\n',
            Some(b't') => '\t',
            Some(b'r') => '\r',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'u') => {
                let (c, used) = unicode_escape(raw, i);
                out.push(c);
                i += used;
                continue;
            }
            Some(c) if c.is_ascii() => char::from(*c),
            // A backslash before a non-ASCII character is no JSON escape (the
            // split rejects it): the backslash is dropped, the character kept.
            Some(_) => {
                i += 1;
                continue;
            }
            None => return,
        };
        out.push(c);
        i += 2;
    }
}

/// The character of the `\uXXXX` escape at `i` (with its low surrogate when
/// it is a high one) and how many bytes it takes.
fn unicode_escape(raw: &[u8], i: usize) -> (char, usize) {
    let Some(hi) = hex4(raw, i + 2) else { return ('\u{fffd}', 2) };
    if (0xD800..0xDC00).contains(&hi) {
        if raw.get(i + 6) == Some(&b'\\') && raw.get(i + 7) == Some(&b'u') {
            if let Some(lo) = hex4(raw, i + 8).filter(|lo| (0xDC00..0xE000).contains(lo)) {
                let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                return (char::from_u32(c).unwrap_or('\u{fffd}'), 12);
            }
        }
        return ('\u{fffd}', 6);
    }
    (char::from_u32(hi).unwrap_or('\u{fffd}'), 6)
}

fn hex4(raw: &[u8], at: usize) -> Option<u32> {
    let digits = raw.get(at..at + 4)?;
    let mut v = 0u32;
    for d in digits {
        v = v * 16 + char::from(*d).to_digit(16)?;
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn literal(json: &str) -> Text {
        let source: Source = Arc::new(json.as_bytes().to_vec());
        let escaped = json.contains('\\');
        Text::in_source(&source, 1..json.len() - 1, escaped)
    }

    /// Every escape decodes as serde_json decodes it.
    #[test]
    fn decodes_like_serde_json() {
        for json in [
            r#""""#,
            r#""plain ascii""#,
            r#""naïve 東京 😀""#,
            r#""a\nb\tc\rd\be\ff\/g\\h\"i""#,
            r#""\u00e9\u6771\uD83D\uDE00 \u0000 end""#,
            r#""\\u0041 is not an escape""#,
            r#""trailing \\""#,
        ] {
            let expected: String = serde_json::from_str(json).unwrap();
            let t = literal(json);
            assert_eq!(t.decoded(), expected, "{json}");
            let mut pushed = String::from(">");
            t.push_to(&mut pushed);
            assert_eq!(pushed, format!(">{expected}"));
            assert_eq!(t.is_empty(), expected.is_empty());
            assert_eq!(t, Text::from(expected.as_str()));
            assert_eq!(t.to_string(), expected);
            assert_eq!(serde_json::to_string(&t).unwrap(), serde_json::to_string(&expected).unwrap());
        }
    }

    /// What serde_json refuses (the parse then takes the exact path) still
    /// decodes here, without a panic.
    #[test]
    fn lone_surrogates_and_bad_bytes_read_as_replacement_characters() {
        assert_eq!(literal(r#""a\uD800b""#).decoded(), "a\u{fffd}b");
        assert_eq!(literal(r#""\uDC00""#).decoded(), "\u{fffd}");
        assert_eq!(literal(r#""\uD800\u0041""#).decoded(), "\u{fffd}A");
        assert_eq!(literal(r#""cut \u12""#).decoded(), "cut \u{fffd}12");
        let source: Source = Arc::new(b"\"\xff\\n\"".to_vec());
        assert_eq!(Text::in_source(&source, 1..4, true).decoded(), "\u{fffd}\n");
    }

    /// The whole-text path (valid UTF-8) and the piecewise one (not) decode
    /// the same escapes alike: a bad byte at the end changes only the end.
    #[test]
    fn valid_and_lossy_paths_agree() {
        for raw in [
            "",
            "plain",
            r#"a\nb\tc\rd\be\ff\/g\\h\"i"#,
            r"\u00e9\u6771\uD83D\uDE00 \u0000 \uD800x \uDC00 \u12",
            "naïve 東京 😀 \\é \\",
            "\\é",
            "é\\nñ\\u00e9",
        ] {
            let (mut valid, mut lossy) = (String::new(), String::new());
            unescape_into(raw.as_bytes(), &mut valid);
            unescape_into(&[raw.as_bytes(), b"\xff"].concat(), &mut lossy);
            assert_eq!(lossy, format!("{valid}\u{fffd}"), "{raw:?}");
        }
    }

    #[test]
    fn borrowed_when_unescaped_and_equal_across_representations() {
        let t = literal(r#""no escapes here""#);
        assert!(matches!(t.decoded(), Cow::Borrowed(_)));
        assert_eq!(t.source_range(), Some(1..16));
        assert_eq!(Text::from("x").source_range(), None);
        assert_eq!(t, "no escapes here");
        assert_ne!(t, Text::from("no escapes"));
        assert_eq!(format!("{t:?}"), "\"no escapes here\"");
    }
}
