//! JSON as Python's `json.loads` reads it.
//!
//! Reference libraries written in Python decode embedded JSON strings (tool
//! call arguments, for instance) with `json.loads`, which accepts more than
//! RFC 8259: the literals `NaN`, `Infinity` and `-Infinity`, numbers beyond
//! the f64 range (they become `inf`) and lone UTF-16 surrogate escapes. To
//! accept exactly what they accept, [`loads`] falls back to this grammar when
//! `serde_json` refuses a string.

use serde_json::{Map, Number, Value};

/// Python nests about this deep before `RecursionError` (its default limit of
/// 1000 frames, less the frames of the caller); an approximation.
const MAX_DEPTH: usize = 990;

/// Parses `s` as Python's `json.loads` would. Values Python can hold but JSON
/// cannot (`NaN`, infinities) become `null`; lone surrogates become U+FFFD.
/// The error is serde_json's description, which names the first problem.
pub fn loads(s: &str) -> Result<Value, String> {
    match serde_json::from_str::<Value>(s) {
        Ok(v) => Ok(v),
        Err(e) => {
            // serde_json's wording, without its "at line X column Y" (the caller locates the string).
            let text = e.to_string();
            let strict = text.rfind(" at line ").and_then(|i| text.get(..i)).unwrap_or(&text).to_string();
            let mut p = Parser { b: s.as_bytes(), i: 0 };
            p.ws();
            let v = p.value(0).ok_or_else(|| strict.clone())?;
            p.ws();
            if p.i == p.b.len() {
                Ok(v)
            } else {
                Err(strict)
            }
        }
    }
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

    fn eat(&mut self, lit: &str) -> bool {
        if self.b.get(self.i..self.i + lit.len()) == Some(lit.as_bytes()) {
            self.i += lit.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        match self.peek()? {
            b'{' => self.object(depth),
            b'[' => self.array(depth),
            b'"' => self.string().map(Value::String),
            b'n' if self.eat("null") => Some(Value::Null),
            b't' if self.eat("true") => Some(Value::Bool(true)),
            b'f' if self.eat("false") => Some(Value::Bool(false)),
            b'N' if self.eat("NaN") => Some(Value::Null),
            b'I' if self.eat("Infinity") => Some(Value::Null),
            b'-' if self.eat("-Infinity") => Some(Value::Null),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    fn object(&mut self, depth: usize) -> Option<Value> {
        self.i += 1;
        let mut map = Map::new();
        self.ws();
        if self.eat("}") {
            return Some(Value::Object(map));
        }
        loop {
            self.ws();
            if self.peek()? != b'"' {
                return None;
            }
            let key = self.string()?;
            self.ws();
            if !self.eat(":") {
                return None;
            }
            self.ws();
            let v = self.value(depth + 1)?;
            map.insert(key, v);
            self.ws();
            if self.eat("}") {
                return Some(Value::Object(map));
            }
            if !self.eat(",") {
                return None;
            }
        }
    }

    fn array(&mut self, depth: usize) -> Option<Value> {
        self.i += 1;
        let mut items = Vec::new();
        self.ws();
        if self.eat("]") {
            return Some(Value::Array(items));
        }
        loop {
            self.ws();
            items.push(self.value(depth + 1)?);
            self.ws();
            if self.eat("]") {
                return Some(Value::Array(items));
            }
            if !self.eat(",") {
                return None;
            }
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.i += 1;
        }
        self.i - start
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`; an incomplete
    /// fraction or exponent is left unread (and then fails as extra data).
    fn number(&mut self) -> Option<Value> {
        let start = self.i;
        self.eat("-");
        match self.peek()? {
            b'0' => self.i += 1,
            b'1'..=b'9' => {
                self.digits();
            }
            _ => return None,
        }
        let mut float = false;
        let before_fraction = self.i;
        if self.eat(".") {
            if self.digits() == 0 {
                self.i = before_fraction;
            } else {
                float = true;
            }
        }
        let before_exponent = self.i;
        if self.eat("e") || self.eat("E") {
            if !self.eat("-") {
                self.eat("+");
            }
            if self.digits() == 0 {
                self.i = before_exponent;
            } else {
                float = true;
            }
        }
        let text = std::str::from_utf8(self.b.get(start..self.i)?).ok()?;
        let number = if float {
            text.parse::<f64>().ok().and_then(Number::from_f64)
        } else {
            text.parse::<i64>().ok().map(Number::from).or_else(|| text.parse::<f64>().ok().and_then(Number::from_f64))
        };
        Some(number.map(Value::Number).unwrap_or(Value::Null))
    }

    /// A string with Python's strict rules: no raw control characters; any
    /// `\uXXXX`, a lone surrogate included (read as U+FFFD: a Rust string
    /// cannot hold one). The JSON string scanner's rules are these.
    fn string(&mut self) -> Option<String> {
        let (end, escaped) = super::string::string_end(self.b, self.i, &mut Vec::new()).ok()?;
        let inner = self.b.get(self.i + 1..end - 1)?;
        self.i = end;
        Some(super::string::decode_literal(inner, escaped).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::loads;
    use serde_json::json;

    #[test]
    fn accepts_what_python_accepts() {
        assert_eq!(loads(r#"{"a": NaN, "b": [Infinity, -Infinity]}"#), Ok(json!({"a": null, "b": [null, null]})));
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
}
