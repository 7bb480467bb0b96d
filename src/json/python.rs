//! JSON as Python's `json.loads` reads it.
//!
//! Reference libraries written in Python decode embedded JSON strings (tool
//! call arguments, for instance) with `json.loads`, which accepts more than
//! RFC 8259: the literals `NaN`, `Infinity` and `-Infinity`, numbers beyond
//! the f64 range (they become `inf`) and lone UTF-16 surrogate escapes. To
//! accept exactly what they accept, [`loads`] falls back to this grammar when
//! `serde_json` refuses a string. pydantic's JSON parser reads the same three
//! literals (and refuses lone surrogates): [`read_nonfinite`] reads a record
//! of a format whose reference is pydantic.
//!
//! `NaN`, `Infinity` and `-Infinity` are numbers holding their literal
//! ([`nonfinite`]): their `as_f64` is the float, and JSON text written from
//! them shows them as Python's `json.dumps` does.

use std::ops::Range;

use serde_json::{Map, Number, Value};

/// Python nests about this deep before `RecursionError` (its default limit of
/// 1000 frames, less the frames of the caller); an approximation.
const MAX_DEPTH: usize = 990;

/// The number a `NaN`, `Infinity` or `-Infinity` literal means, holding the
/// literal: [`to_f64`] reads it as the float (serde_json's `as_f64` gives
/// `None`, as for any number beyond f64), `Display` and serde_json's writers
/// print it as written (as `json.dumps` prints the float), and it is no
/// integer and no `f64` by `is_i64`/`is_f64` (callers that care ask
/// [`is_nonfinite`]).
///
/// serde_json keeps a number's text with `arbitrary_precision`, but only
/// parses valid JSON numbers into one: this uses its constructor from text
/// (public, though hidden from its docs). `None` for any other text.
pub fn nonfinite(literal: &str) -> Option<Number> {
    matches!(literal, "NaN" | "Infinity" | "-Infinity").then(|| Number::from_string_unchecked(literal.to_string()))
}

/// True for a number made by [`nonfinite`].
pub fn is_nonfinite(n: &Number) -> bool {
    n.as_f64().is_none() && matches!(n.to_string().as_str(), "NaN" | "Infinity" | "-Infinity")
}

/// The float a number means to Python: as `as_f64`, and `inf` for a
/// literal beyond f64's range (`1e400`) and the [`nonfinite`] ones, for
/// which serde_json's `as_f64` gives `None`.
pub fn to_f64(n: &Number) -> Option<f64> {
    n.as_f64().or_else(|| n.to_string().parse::<f64>().ok())
}

/// serde_json's text of values that may hold [`nonfinite`] numbers, made
/// JSON for a JavaScript reader (whose `JSON.parse` has no `NaN`): each
/// bare `NaN`, `Infinity` and `-Infinity` becomes the string of that
/// literal after a lone surrogate, `"\ud800NaN"`, which no string of the
/// text can be (serde_json writes Rust strings, which cannot hold one), so
/// that a reviver can turn exactly those back into the numbers.
pub fn quote_nonfinite(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 32);
    let mut copied = 0;
    let mut i = 0;
    while let Some(c) = b.get(i) {
        let literal = match c {
            b'"' => {
                i = super::string::validated_string_end(b, i).map_or(b.len(), |(end, _)| end);
                continue;
            }
            b'N' | b'I' | b'-' => super::scan::nonfinite_len(b, i),
            _ => None,
        };
        match literal {
            Some(len) => {
                out.push_str(text.get(copied..i).unwrap_or_default());
                out.push_str("\"\\ud800");
                out.push_str(text.get(i..i + len).unwrap_or_default());
                out.push('"');
                i += len;
                copied = i;
            }
            None => i += 1,
        }
    }
    out.push_str(text.get(copied..).unwrap_or_default());
    out
}

/// The record at `range`, which a split in [`super::Grammar::NonFinite`] accepted,
/// as pydantic's JSON parser reads it: `Some` when it holds a `NaN`,
/// `Infinity` or `-Infinity` and nothing else serde_json refuses (every
/// hazard of the split inside it is such a literal) and is valid UTF-8.
/// `None` when it holds no such literal (serde_json reads it as well) or
/// another hazard (serde_json's verdict and message stand: pydantic also
/// refuses a lone surrogate, for one).
pub fn read_nonfinite(b: &[u8], range: Range<usize>, hazards: &[usize]) -> Option<Value> {
    let from = hazards.partition_point(|h| *h < range.start);
    let inside = hazards.get(from..)?.iter().take_while(|h| **h < range.end);
    let mut literals = 0usize;
    for h in inside {
        super::scan::nonfinite_len(b, *h)?;
        literals += 1;
    }
    if literals == 0 {
        return None;
    }
    let text = b.get(range)?;
    simdutf8::basic::from_utf8(text).ok()?;
    super::descent::read(text, &mut PythonValues)
}

/// Why [`loads`] refused a text: serde_json's description of the first
/// problem, without its "at line X column Y" (the caller locates the string).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadsError {
    pub reason: String,
}

impl std::fmt::Display for LoadsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

/// Parses `s` as Python's `json.loads` would. `NaN` and the infinities are
/// [`nonfinite`] numbers; lone surrogates become U+FFFD.
pub fn loads(s: &str) -> Result<Value, LoadsError> {
    match serde_json::from_str::<Value>(s) {
        Ok(v) => Ok(v),
        Err(e) => {
            // serde_json's wording, without its "at line X column Y" (the caller locates the string).
            let text = e.to_string();
            let strict = text.rfind(" at line ").and_then(|i| text.get(..i)).unwrap_or(&text).to_string();
            super::descent::read(s.as_bytes(), &mut PythonValues).ok_or(LoadsError { reason: strict })
        }
    }
}

/// Values as Python's `json.loads` reads them, as serde_json values.
struct PythonValues;

impl super::descent::Sink for PythonValues {
    type Value = Value;
    type Object = Map<String, Value>;
    const MAX_DEPTH: usize = MAX_DEPTH;
    const NONFINITE: bool = true;
    const REFUSE_LONE_SURROGATE: bool = false;

    fn null(&mut self) -> Value {
        Value::Null
    }
    fn bool(&mut self, b: bool) -> Value {
        Value::Bool(b)
    }
    fn string(&mut self, s: String) -> Value {
        Value::String(s)
    }
    /// serde_json's number, exact digits kept (a float beyond f64 is `inf`
    /// to Python, and reads as it through `as_f64`).
    fn number(&mut self, literal: &str) -> Option<Value> {
        serde_json::from_str::<Number>(literal).ok().map(Value::Number)
    }
    fn nonfinite(&mut self, literal: &'static str) -> Option<Value> {
        nonfinite(literal).map(Value::Number)
    }
    fn array(&mut self, items: Vec<Value>) -> Value {
        Value::Array(items)
    }
    fn object(&mut self) -> Map<String, Value> {
        Map::new()
    }
    fn member(&mut self, object: &mut Map<String, Value>, key: String, value: Value) -> Option<()> {
        object.insert(key, value);
        Some(())
    }
    fn end_object(&mut self, object: Map<String, Value>) -> Value {
        Value::Object(object)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn accepts_what_python_accepts() {
        let v = loads(r#"{"a": NaN, "b": [Infinity, -Infinity], "c": 1e400, "d": 123456789012345678901234567890}"#).unwrap();
        let f = |v: &Value| to_f64(v.as_number().unwrap());
        assert!(f(&v["a"]).is_some_and(f64::is_nan));
        assert_eq!((f(&v["b"][0]), f(&v["b"][1]), f(&v["c"])), (Some(f64::INFINITY), Some(f64::NEG_INFINITY), Some(f64::INFINITY)));
        assert!(is_nonfinite(v["a"].as_number().unwrap()) && is_nonfinite(v["b"][1].as_number().unwrap()));
        // Written as json.dumps writes them; other numbers as serde_json reads them.
        assert_eq!(v.to_string(), r#"{"a":NaN,"b":[Infinity,-Infinity],"c":1e+400,"d":123456789012345678901234567890}"#);
        assert_eq!(serde_json::from_str::<Value>("[1e400, 123456789012345678901234567890, 1.50]").unwrap().to_string(), "[1e+400,123456789012345678901234567890,1.50]");
        assert_eq!(loads("[NaN, 1e400, 123456789012345678901234567890, 1.50]").unwrap().to_string(), "[NaN,1e+400,123456789012345678901234567890,1.50]");
        assert!(!is_nonfinite(v["c"].as_number().unwrap()) && !is_nonfinite(v["d"].as_number().unwrap()));
        // Out of f64 range: the exact digits are kept (serde_json's arbitrary_precision).
        assert!(loads(r#"{"a": 1e400}"#).is_ok_and(|v| v["a"].is_number()));
        assert_eq!(loads(r#" {"a": "\ud800x", "b": "\ud83d\ude00"} "#), Ok(json!({"a": "\u{FFFD}x", "b": "😀"})));
        assert_eq!(loads(r#"[1.5, -0, 10, "\u00e9"]"#).map(|v| v.to_string()), Ok(r#"[1.5,-0,10,"é"]"#.to_string()));
    }

    #[test]
    fn rejects_what_python_rejects() {
        for bad in ["{'a': 1}", "{\"a\": 1,}", "[1.]", "1e", "-", "nan", "[01]", "\"a\tb\"", "{\"a\": \"\\x\"}", "[1] 2", "\u{feff}{}", ""] {
            assert!(loads(bad).is_err(), "{bad:?} should be rejected");
        }
    }

    #[test]
    fn nonfinite_numbers_are_quoted_for_javascript() {
        let v = loads(r#"{"NaN": [NaN, -Infinity, "Infinity", -1.5e3, 7], "s": "\ud800NaN", "t": Infinity}"#).unwrap();
        let text = quote_nonfinite(&v.to_string());
        assert_eq!(text, r#"{"NaN":["\ud800NaN","\ud800-Infinity","Infinity",-1.5e+3,7],"s":"\ufffdNaN","t":"\ud800Infinity"}"#.replace("\\ufffd", "\u{fffd}"));
        assert_eq!(quote_nonfinite("[1,null]"), "[1,null]");
    }

    #[test]
    fn records_with_nonfinite_literals_read_as_pydantic_reads_them() {
        let b = b"{\"a\": [NaN, 1.50, \"\\u00e9\"], \"b\": -Infinity}\n{\"c\": \"\\ud800\", \"d\": NaN}\n{\"e\": 1}\n";
        let s = crate::json::split_in(b, 0, crate::json::Grammar::NonFinite);
        assert!(s.errors.is_empty(), "{:?}", s.errors);
        let [first, second, third] = [0, 1, 2].map(|i| s.values[i].range.clone());
        let v = read_nonfinite(b, first, &s.hazards).unwrap();
        assert_eq!(v.to_string(), r#"{"a":[NaN,1.50,"é"],"b":-Infinity}"#);
        // A lone surrogate beside the literal: serde_json's verdict stands.
        assert_eq!(s.hazards.iter().filter(|h| second.contains(h)).count(), 2);
        assert_eq!(read_nonfinite(b, second, &s.hazards), None);
        // No literal: serde_json reads it.
        assert_eq!(read_nonfinite(b, third, &s.hazards), None);
        assert_eq!(nonfinite("nan"), None);
    }
}
