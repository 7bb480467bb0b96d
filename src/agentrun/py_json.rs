//! Tool-call arguments read straight into Python values ([`Py`]), for the
//! AgentRun mapping.
//!
//! Arguments stay in the source until read ([`crate::lazy_value`]). Reading
//! them through `LazyValue::get` built a `serde_json::Value` per call, kept
//! it in the trace, and then converted it to [`Py`]: on the first AgentRun
//! text of a large run that was a quarter of the call and grew wasm memory
//! by the values kept. This reads strict JSON (RFC 8259) into [`Py`] in one
//! pass and keeps nothing; anything else (Python's `NaN`/`Infinity`, lone
//! surrogates, invalid UTF-8, deep nesting, huge objects) returns `None` and
//! the caller takes the old path, so every value is the one `Py::from_json`
//! of serde_json's (or `python::loads`') value would give.

use super::py::{number, Py};
use crate::json::descent::Sink;

/// `text` as strict JSON (surrounding whitespace allowed), or `None`.
pub fn parse(text: &[u8]) -> Option<Py> {
    simdutf8::basic::from_utf8(text).ok()?;
    crate::json::descent::read(text, &mut PyValues)
}

/// Strict JSON as Python values.
struct PyValues;

/// Objects with more keys than this are left to the old path (duplicate
/// keys are found by a linear search).
const MAX_KEYS: usize = 64;

impl Sink for PyValues {
    type Value = Py;
    type Object = Vec<(String, Py)>;
    /// Deeper than serde_json's recursion limit (128): left to the old path.
    const MAX_DEPTH: usize = 100;
    const NONFINITE: bool = false;
    const REFUSE_LONE_SURROGATE: bool = true;

    fn null(&mut self) -> Py {
        Py::None
    }
    fn bool(&mut self, b: bool) -> Py {
        Py::Bool(b)
    }
    fn string(&mut self, s: String) -> Py {
        Py::Str(s)
    }
    /// Read as Python reads it ([`number`]).
    fn number(&mut self, literal: &str) -> Option<Py> {
        Some(number(literal))
    }
    fn nonfinite(&mut self, _: &'static str) -> Option<Py> {
        None
    }
    fn array(&mut self, items: Vec<Py>) -> Py {
        Py::List(items)
    }
    fn object(&mut self) -> Vec<(String, Py)> {
        Vec::new()
    }
    /// Python dict semantics (as serde_json's ordered map too): a repeated
    /// key keeps its first position and takes the last value.
    fn member(&mut self, items: &mut Vec<(String, Py)>, key: String, v: Py) -> Option<()> {
        if let Some(slot) = items.iter_mut().find(|(k, _)| *k == key) {
            slot.1 = v;
        } else if items.len() < MAX_KEYS {
            items.push((key, v));
        } else {
            return None;
        }
        Some(())
    }
    fn end_object(&mut self, items: Vec<(String, Py)>) -> Py {
        Py::Dict(items)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whatever this reads, it reads as `Py::from_json` of serde_json's value.
    #[test]
    fn agrees_with_serde_json_or_declines() {
        for text in [
            r#"{"a": 1, "b": [1.5, -0, 1e999, 2E-3, true, null], "c": {"d": "x\ny\"z\u00e9\ud83d\ude00"}}"#,
            r#"{"a": 1, "a": 2, "b": 3}"#,
            r#"  "just a string"  "#,
            "[]",
            "{}",
            "-12.50e+3",
            r#"{"k": "it's"}"#,
        ] {
            let want = Py::from_json(&serde_json::from_str(text).unwrap());
            assert_eq!(parse(text.as_bytes()), Some(want), "{text}");
        }
        for text in ["NaN", "[1,]", "{\"a\" 1}", "01", "1.", "\"\\ud800\"", "\"\\x\"", "tru", "[1] 2", "\"a\nb\"", "-", "1e"] {
            assert_eq!(parse(text.as_bytes()), None, "{text}");
        }
        assert_eq!(parse(b"\"\xff\""), None);
        assert_eq!(parse(&[b'['; 200]), None);
    }
}
