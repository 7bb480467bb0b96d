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
use crate::json::string::{decode_literal, strict_string_end};

/// Deeper than serde_json's recursion limit (128): left to the old path.
const MAX_DEPTH: usize = 100;

/// Objects with more keys than this are left to the old path (duplicate
/// keys are found by a linear search).
const MAX_KEYS: usize = 64;

/// `text` as strict JSON (surrounding whitespace allowed), or `None`.
pub fn parse(text: &[u8]) -> Option<Py> {
    simdutf8::basic::from_utf8(text).ok()?;
    let mut p = Parser { b: text, i: 0 };
    p.ws();
    let v = p.value(0)?;
    p.ws();
    (p.i == text.len()).then_some(v)
}

struct Parser<'a> {
    b: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn eat(&mut self, lit: &[u8]) -> bool {
        if self.b.get(self.i..self.i + lit.len()) == Some(lit) {
            self.i += lit.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Option<Py> {
        if depth > MAX_DEPTH {
            return None;
        }
        match self.peek()? {
            b'{' => self.object(depth),
            b'[' => self.array(depth),
            b'"' => self.string().map(Py::Str),
            b'n' if self.eat(b"null") => Some(Py::None),
            b't' if self.eat(b"true") => Some(Py::Bool(true)),
            b'f' if self.eat(b"false") => Some(Py::Bool(false)),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    /// Python dict semantics (as serde_json's ordered map too): a repeated
    /// key keeps its first position and takes the last value.
    fn object(&mut self, depth: usize) -> Option<Py> {
        self.i += 1;
        let mut items: Vec<(String, Py)> = Vec::new();
        self.ws();
        if self.eat(b"}") {
            return Some(Py::Dict(items));
        }
        loop {
            self.ws();
            if self.peek()? != b'"' {
                return None;
            }
            let key = self.string()?;
            self.ws();
            if !self.eat(b":") {
                return None;
            }
            self.ws();
            let v = self.value(depth + 1)?;
            if let Some(slot) = items.iter_mut().find(|(k, _)| *k == key) {
                slot.1 = v;
            } else if items.len() < MAX_KEYS {
                items.push((key, v));
            } else {
                return None;
            }
            self.ws();
            if self.eat(b"}") {
                return Some(Py::Dict(items));
            }
            if !self.eat(b",") {
                return None;
            }
        }
    }

    fn array(&mut self, depth: usize) -> Option<Py> {
        self.i += 1;
        let mut items = Vec::new();
        self.ws();
        if self.eat(b"]") {
            return Some(Py::List(items));
        }
        loop {
            self.ws();
            items.push(self.value(depth + 1)?);
            self.ws();
            if self.eat(b"]") {
                return Some(Py::List(items));
            }
            if !self.eat(b",") {
                return None;
            }
        }
    }

    /// A string with valid escapes and no lone surrogate (else `None`).
    fn string(&mut self) -> Option<String> {
        let (end, escaped) = strict_string_end(self.b, self.i)?;
        let raw = self.b.get(self.i + 1..end - 1)?;
        self.i = end;
        Some(decode_literal(raw, escaped).into_owned())
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.i += 1;
        }
        self.i - start
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`, read as Python reads it ([`number`]).
    fn number(&mut self) -> Option<Py> {
        let start = self.i;
        self.eat(b"-");
        match self.peek()? {
            b'0' => self.i += 1,
            b'1'..=b'9' => {
                self.digits();
            }
            _ => return None,
        }
        if self.eat(b".") && self.digits() == 0 {
            return None;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if self.digits() == 0 {
                return None;
            }
        }
        let literal = std::str::from_utf8(self.b.get(start..self.i)?).ok()?;
        Some(number(literal))
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
