//! One recursive-descent JSON reader for the places that must read a text
//! the way a Python reference does, building whatever value they need.
//!
//! serde_json reads almost every document. Two readers need more control:
//! `json::python` (Python's `json.loads` and pydantic, which accept `NaN`
//! and the infinities, and which build `serde_json::Value`) and
//! `agentrun::py_json` (strict JSON built straight into Python values).
//! They share this grammar and differ only in a [`Sink`]: what a value is,
//! how deep they go, which literals and strings they take.

/// What a reader builds, and the few grammar choices that differ.
pub trait Sink {
    type Value;
    /// An object being read (a map, or a list of pairs).
    type Object;
    /// Deeper than this is refused (`None`).
    const MAX_DEPTH: usize;
    /// Whether `NaN`, `Infinity` and `-Infinity` are read (by [`Sink::nonfinite`]).
    const NONFINITE: bool;
    /// Whether a string with a lone surrogate escape is refused (else it
    /// reads as U+FFFD, as a Rust string cannot hold one).
    const REFUSE_LONE_SURROGATE: bool;

    fn null(&mut self) -> Self::Value;
    fn bool(&mut self, b: bool) -> Self::Value;
    fn string(&mut self, s: String) -> Self::Value;
    /// A number literal of valid JSON grammar.
    fn number(&mut self, literal: &str) -> Option<Self::Value>;
    /// `NaN`, `Infinity` or `-Infinity` (only asked when [`Sink::NONFINITE`]).
    fn nonfinite(&mut self, literal: &'static str) -> Option<Self::Value>;
    fn array(&mut self, items: Vec<Self::Value>) -> Self::Value;
    fn object(&mut self) -> Self::Object;
    /// Adds a member; `None` refuses the whole text.
    fn member(&mut self, object: &mut Self::Object, key: String, value: Self::Value) -> Option<()>;
    fn end_object(&mut self, object: Self::Object) -> Self::Value;
}

/// `text` as one value (surrounding whitespace allowed), or `None` where the
/// sink's grammar refuses it. The caller checks UTF-8 where it matters.
pub fn read<S: Sink>(text: &[u8], sink: &mut S) -> Option<S::Value> {
    let mut p = Parser { b: text, i: 0, sink };
    p.ws();
    let v = p.value(0)?;
    p.ws();
    (p.i == text.len()).then_some(v)
}

struct Parser<'a, 's, S> {
    b: &'a [u8],
    i: usize,
    sink: &'s mut S,
}

impl<S: Sink> Parser<'_, '_, S> {
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

    fn value(&mut self, depth: usize) -> Option<S::Value> {
        if depth > S::MAX_DEPTH {
            return None;
        }
        match self.peek()? {
            b'{' => self.object(depth),
            b'[' => self.array(depth),
            b'"' => self.string().map(|s| self.sink.string(s)),
            b'n' if self.eat(b"null") => Some(self.sink.null()),
            b't' if self.eat(b"true") => Some(self.sink.bool(true)),
            b'f' if self.eat(b"false") => Some(self.sink.bool(false)),
            b'N' if S::NONFINITE && self.eat(b"NaN") => self.sink.nonfinite("NaN"),
            b'I' if S::NONFINITE && self.eat(b"Infinity") => self.sink.nonfinite("Infinity"),
            b'-' if S::NONFINITE && self.eat(b"-Infinity") => self.sink.nonfinite("-Infinity"),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    fn object(&mut self, depth: usize) -> Option<S::Value> {
        self.i += 1;
        let mut object = self.sink.object();
        self.ws();
        if self.eat(b"}") {
            return Some(self.sink.end_object(object));
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
            self.sink.member(&mut object, key, v)?;
            self.ws();
            if self.eat(b"}") {
                return Some(self.sink.end_object(object));
            }
            if !self.eat(b",") {
                return None;
            }
        }
    }

    fn array(&mut self, depth: usize) -> Option<S::Value> {
        self.i += 1;
        let mut items = Vec::new();
        self.ws();
        if self.eat(b"]") {
            return Some(self.sink.array(items));
        }
        loop {
            self.ws();
            items.push(self.value(depth + 1)?);
            self.ws();
            if self.eat(b"]") {
                return Some(self.sink.array(items));
            }
            if !self.eat(b",") {
                return None;
            }
        }
    }

    /// A string without raw control characters or invalid escapes; a lone
    /// surrogate as the sink says.
    fn string(&mut self) -> Option<String> {
        let (end, escaped) = if S::REFUSE_LONE_SURROGATE {
            super::string::strict_string_end(self.b, self.i)?
        } else {
            super::string::string_end(self.b, self.i, &mut Vec::new()).ok()?
        };
        let raw = self.b.get(self.i + 1..end - 1)?;
        self.i = end;
        Some(super::string::decode_literal(raw, escaped).into_owned())
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.i += 1;
        }
        self.i - start
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`. An incomplete
    /// fraction or exponent (`1.`, `1e`) is refused: Python reads the digits
    /// before it and then fails on the rest, which is the same verdict.
    fn number(&mut self) -> Option<S::Value> {
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
        self.sink.number(literal)
    }
}
