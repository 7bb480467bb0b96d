//! [`LazyValue`]: a JSON value of the trace, parsed when first read.
//!
//! Tool-call arguments are objects nested a few levels deep, in every
//! assistant message of a trace. Building a `serde_json::Value` for each
//! (an ordered map per object, an allocation per key and string) was a fifth
//! of a parse and several times the arguments' own size in memory, while a
//! viewer shows the arguments of the few calls on screen. So arguments the
//! split has validated stay in the source and are parsed on first use; so do
//! arguments sent as a JSON-encoded string (as the OpenAI API sends them),
//! which are read as Invariant reads them, with Python's `json.loads`.

use std::fmt;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

use serde_json::Value;

use crate::text::{Source, Text};

/// A JSON value: parsed, or left where it is in the trace and parsed on first use.
#[derive(Clone)]
pub struct LazyValue {
    origin: Origin,
    value: OnceLock<Value>,
}

#[derive(Clone)]
enum Origin {
    Parsed,
    /// A validated JSON value at this range of the source.
    Source(Source, u32, u32),
    /// A JSON document encoded in a string of the trace, read as Python's
    /// `json.loads` reads it ([`crate::json::python::loads`]).
    EncodedIn(Text),
}

impl LazyValue {
    /// The JSON value at `range` of `source`, which the split validated and
    /// serde_json can read (no hazard in it: see `json::Split`). Should it
    /// not parse after all, it reads as `null` rather than failing.
    pub fn in_source(source: &Source, range: Range<usize>) -> LazyValue {
        match (u32::try_from(range.start), u32::try_from(range.end)) {
            (Ok(start), Ok(end)) if start <= end && range.end <= source.len() => {
                LazyValue { origin: Origin::Source(Arc::clone(source), start, end), value: OnceLock::new() }
            }
            _ => LazyValue::from(parse(source.get(range).unwrap_or(&[]))),
        }
    }

    /// The JSON document `text` holds, which `python::loads` reads as a
    /// value; until it is read, only the text is kept. Should it not parse
    /// after all, it reads as `null`.
    pub fn encoded_in(text: Text) -> LazyValue {
        LazyValue { origin: Origin::EncodedIn(text), value: OnceLock::new() }
    }

    /// The value, parsed now if it was not yet (and kept).
    pub fn get(&self) -> &Value {
        self.value.get_or_init(|| self.origin.parse())
    }

    /// Changes the value with `f` (parsed now if it was not yet); from then
    /// on it is no longer the source's, so nothing reads the source for it.
    pub fn update(&mut self, f: impl FnOnce(&mut Value)) {
        let mut v = self.value.take().unwrap_or_else(|| self.origin.parse());
        f(&mut v);
        self.origin = Origin::Parsed;
        self.value = OnceLock::from(v);
    }

    /// `f` of the value, parsed for this call only when it was not yet (a
    /// list row or a search of values nobody opens keeps no tree of them).
    pub fn read<R>(&self, f: impl FnOnce(&Value) -> R) -> R {
        match self.value.get() {
            Some(v) => f(v),
            None => f(&self.origin.parse()),
        }
    }

    /// The value, taken out (parsed now if it was not yet).
    pub fn into_value(self) -> Value {
        let LazyValue { origin, value } = self;
        value.into_inner().unwrap_or_else(|| origin.parse())
    }

    /// The value when it has been parsed already (nothing is parsed now).
    pub fn parsed(&self) -> Option<&Value> {
        self.value.get()
    }

    /// The range of the value in the source, when it is there.
    pub fn source_range(&self) -> Option<Range<usize>> {
        match &self.origin {
            Origin::Source(_, start, end) => Some(*start as usize..*end as usize),
            _ => None,
        }
    }

    /// The bytes the value is (or was) parsed from, when it comes from the
    /// trace: a search can look at them instead of parsing and writing it.
    pub fn origin(&self) -> Option<Unparsed<'_>> {
        match &self.origin {
            Origin::Parsed => None,
            Origin::Source(source, start, end) => Some(Unparsed::Json(source.get(*start as usize..*end as usize).unwrap_or(&[]))),
            Origin::EncodedIn(text) => Some(Unparsed::EncodedIn(text)),
        }
    }

    /// Appends the value as compact JSON (as `Value`'s `Display` writes it)
    /// without keeping a parse: search writes every call's arguments once.
    pub fn push_display(&self, out: &mut String) {
        use std::fmt::Write;
        // Writing to a String cannot fail.
        match self.value.get() {
            Some(v) => drop(write!(out, "{v}")),
            None => drop(write!(out, "{}", self.origin.parse())),
        }
    }
}

/// What [`LazyValue::origin`] returns.
#[derive(Debug, Clone, Copy)]
pub enum Unparsed<'a> {
    /// A validated JSON value of the source.
    Json(&'a [u8]),
    /// A JSON document in a string of the trace (read with `python::loads`).
    EncodedIn(&'a Text),
}

impl Origin {
    fn parse(&self) -> Value {
        match self {
            Origin::Parsed => Value::Null,
            Origin::Source(source, start, end) => parse(source.get(*start as usize..*end as usize).unwrap_or(&[])),
            Origin::EncodedIn(text) => crate::json::python::loads(&text.decoded()).unwrap_or(Value::Null),
        }
    }
}

fn parse(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).unwrap_or(Value::Null)
}

impl From<Value> for LazyValue {
    fn from(v: Value) -> LazyValue {
        LazyValue { origin: Origin::Parsed, value: OnceLock::from(v) }
    }
}

impl PartialEq for LazyValue {
    fn eq(&self, other: &LazyValue) -> bool {
        self.get() == other.get()
    }
}

impl PartialEq<Value> for LazyValue {
    fn eq(&self, other: &Value) -> bool {
        self.get() == other
    }
}

impl fmt::Debug for LazyValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.get(), f)
    }
}

impl serde::Serialize for LazyValue {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.get().serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_on_first_read_and_equals_the_parsed_value() {
        let text = r#"{"b": [1, 2.50, {"c": null}], "a": "\u00e9\n", "big": 123456789012345678901234567890}"#;
        let source: Source = Arc::new(format!("xx{text}yy").into_bytes());
        let lazy = LazyValue::in_source(&source, 2..2 + text.len());
        let parsed: Value = serde_json::from_str(text).unwrap();
        let mut shown = String::new();
        lazy.push_display(&mut shown);
        assert_eq!(shown, parsed.to_string());
        assert!(lazy.value.get().is_none(), "display keeps no parse");
        assert_eq!(lazy.get(), &parsed);
        assert!(lazy.value.get().is_some());
        assert_eq!(lazy, LazyValue::from(parsed.clone()));
        assert_eq!(lazy.source_range(), Some(2..2 + text.len()));
        assert_eq!(format!("{lazy:?}"), format!("{parsed:?}"));
        assert_eq!(serde_json::to_string(&lazy).unwrap(), serde_json::to_string(&parsed).unwrap());
        // Key order is the source's (preserve_order).
        assert!(shown.starts_with(r#"{"b":"#));
        assert_ne!(lazy, LazyValue::from(json!({})));
    }

    /// Arguments as the OpenAI API sends them: JSON in a string, with what
    /// Python's json.loads accepts beyond JSON (NaN is the number it means,
    /// written back as json.dumps writes it).
    #[test]
    fn json_encoded_in_a_string_is_read_as_python_reads_it() {
        let literal = r#""{\"q\": \"caf\u00e9\", \"n\": NaN}""#;
        let source: Source = Arc::new(literal.as_bytes().to_vec());
        let lazy = LazyValue::encoded_in(Text::in_source(&source, 1..literal.len() - 1, true));
        let mut shown = String::new();
        lazy.push_display(&mut shown);
        assert_eq!(shown, r#"{"q":"café","n":NaN}"#);
        assert!(lazy.value.get().is_none());
        // (Built by hand: `json!` goes through `to_value`, which refuses a non-finite number.)
        let nan = Value::Number(crate::json::python::nonfinite("NaN").unwrap());
        let want: serde_json::Map<String, Value> = [("q".to_string(), json!("café")), ("n".to_string(), nan)].into_iter().collect();
        assert_eq!(lazy, Value::Object(want));
        assert_eq!(lazy.source_range(), None);
        assert_eq!(LazyValue::encoded_in(Text::from("not json")).get(), &Value::Null);
    }

    #[test]
    fn a_range_that_does_not_parse_reads_as_null() {
        let source: Source = Arc::new(b"{\"a\": \"\\ud800\"}".to_vec());
        assert_eq!(LazyValue::in_source(&source, 0..source.len()).get(), &Value::Null);
        assert_eq!(LazyValue::in_source(&source, 0..999).get(), &Value::Null);
    }
}
