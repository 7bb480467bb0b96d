//! [`Text`]: a string of the trace, left where it is in the source.
//!
//! Message and tool-output content is most of a trace's bytes. Copying every
//! such string out of the input doubled the memory a trace takes and was most
//! of the parse's time, so a string read from the input stays a range of it
//! (a JSON string literal, escapes and all) and is decoded when someone reads
//! it: a row shows the first line of a few hundred events, search lowers the
//! text once, a renderer walks one run. Strings made by the core itself (a
//! joined text, a value from another encoding) are owned. A string encoded
//! twice (a JSON document in a string whose own string member is the text,
//! as Codex writes a shell tool's output) stays in the source too.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use crate::json::string::{decode_literal, lossy, unescape_into};

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
    /// Bytes of a string literal whose decoded text is itself the contents
    /// of a string literal (escapes and all): the text is decoded twice.
    Twice { source: Source, start: u32, end: u32 },
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

    /// The text encoded twice at `inner` of `source`: those bytes are the
    /// contents of a string literal that decodes to the contents of another
    /// (a string member of a JSON document held in a string). The caller
    /// has checked that both decodings are valid (see
    /// `import::codex::shell`); anything that is not decodes as
    /// [`Text::in_source`] does, to U+FFFD rather than failing.
    pub fn twice_in_source(source: &Source, inner: Range<usize>) -> Text {
        match (u32::try_from(inner.start), u32::try_from(inner.end)) {
            (Ok(start), Ok(end)) if start <= end && inner.end <= source.len() => Text(Repr::Twice { source: Arc::clone(source), start, end }),
            _ => Text::from(decode_twice(source.get(inner).unwrap_or(&[]))),
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
            Repr::Twice { source, start, end } => Cow::Owned(decode_twice(source.get(*start as usize..*end as usize).unwrap_or(&[]))),
        }
    }

    /// True for the empty string (an escape always decodes to a character).
    pub fn is_empty(&self) -> bool {
        match &self.0 {
            Repr::Owned(s) => s.is_empty(),
            Repr::Source { start, end, .. } | Repr::Twice { start, end, .. } => start == end,
        }
    }

    /// The range of the literal's contents in the source, when it is there.
    pub fn source_range(&self) -> Option<Range<usize>> {
        match &self.0 {
            Repr::Owned(_) => None,
            Repr::Source { start, end, .. } | Repr::Twice { start, end, .. } => Some(*start as usize..*end as usize),
        }
    }

    /// The bytes the text is read from, for a search that looks at them in
    /// place: the owned string, or the literal's contents in the source (and
    /// whether they hold an escape).
    pub fn raw(&self) -> RawText<'_> {
        match &self.0 {
            Repr::Owned(s) => RawText::Owned(s),
            Repr::Source { source, start, end, escaped } => {
                RawText::Source { bytes: source.get(*start as usize..*end as usize).unwrap_or(&[]), escaped: *escaped }
            }
            Repr::Twice { source, start, end } => RawText::Twice { bytes: source.get(*start as usize..*end as usize).unwrap_or(&[]) },
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
            Repr::Twice { .. } => out.push_str(&self.decoded()),
        }
    }
}

/// The contents of a string literal whose decoded text is the contents of
/// another, decoded both times.
fn decode_twice(raw: &[u8]) -> String {
    let once = decode_literal(raw, memchr::memchr(b'\\', raw).is_some());
    decode_literal(once.as_bytes(), once.contains('\\')).into_owned()
}

/// What [`Text::raw`] returns.
#[derive(Debug, Clone, Copy)]
pub enum RawText<'a> {
    Owned(&'a str),
    /// A JSON string literal's contents: its text when `escaped` is false
    /// (then read lossily, as [`Text::decoded`] does), else with escapes.
    Source { bytes: &'a [u8], escaped: bool },
    /// The contents of a string literal whose decoded text is the contents
    /// of another ([`Text::twice_in_source`]).
    Twice { bytes: &'a [u8] },
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
        let same = match (&self.0, &other.0) {
            (Repr::Source { source: a, start: s1, end: e1, .. }, Repr::Source { source: b, start: s2, end: e2, .. })
            | (Repr::Twice { source: a, start: s1, end: e1 }, Repr::Twice { source: b, start: s2, end: e2 }) => Arc::ptr_eq(a, b) && s1 == s2 && e1 == e2,
            _ => false,
        };
        if same {
            return true;
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

    /// A string member of a JSON document held in a string decodes as
    /// serde_json decodes the string, then the document.
    #[test]
    fn twice_encoded_decodes_both_times() {
        for text in ["", "plain", "a\nb \"q\" \\ é 😀 \u{1}", "\\u0041"] {
            let inner = serde_json::to_string(text).unwrap();
            let outer = serde_json::to_string(&inner).unwrap();
            let source: Source = Arc::new(outer.as_bytes().to_vec());
            let t = Text::twice_in_source(&source, 3..outer.len() - 3);
            assert_eq!(t.decoded(), text, "{outer}");
            let mut pushed = String::new();
            t.push_to(&mut pushed);
            assert_eq!(pushed, text);
            assert_eq!(t, Text::from(text));
            assert_eq!(t.is_empty(), text.is_empty());
            assert!(matches!(t.raw(), RawText::Twice { .. }));
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
