//! Python values as Docent holds them after `json.loads`, and Python's
//! `str()`/`repr()` of them.
//!
//! Docent renders tool-call arguments with `f"{k}={v}"`, i.e. `str(v)`: a
//! string as itself, everything else (and every string nested in a container)
//! through `repr()`. Byte equality needs Python's quote choice and escapes, its
//! shortest float repr (`1e-05`, `1e+16`, `-0.0`, `inf`) and `True`/`None`.

use serde_json::Value;

use super::py_printable::{NOT_PRINTABLE_LEB128, NOT_PRINTABLE_RANGES};

/// A JSON value as Python's `json.loads` builds it: integers stay exact
/// (`int`), any number with `.`, `e` or `E` is a `float` (`1e999` is `inf`).
#[derive(Debug, Clone, PartialEq)]
pub enum Py {
    None,
    Bool(bool),
    /// Decimal digits with an optional `-`, normalized (`-0` is `0`).
    Int(String),
    Float(f64),
    Str(String),
    List(Vec<Py>),
    /// Insertion-ordered, keys unique (a repeated JSON key keeps its first
    /// position and its last value, as a Python dict does).
    Dict(Vec<(String, Py)>),
}

impl Py {
    pub fn from_json(v: &Value) -> Py {
        match v {
            Value::Null => Py::None,
            Value::Bool(b) => Py::Bool(*b),
            Value::Number(n) => number(&n.to_string()),
            Value::String(s) => Py::Str(s.clone()),
            Value::Array(items) => Py::List(items.iter().map(Py::from_json).collect()),
            Value::Object(m) => Py::Dict(m.iter().map(|(k, v)| (k.clone(), Py::from_json(v))).collect()),
        }
    }

    pub fn as_dict(&self) -> Option<&[(String, Py)]> {
        match self {
            Py::Dict(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Py::Str(s) => Some(s),
            _ => None,
        }
    }

    /// Python truthiness of a dict (`if message.metadata:`).
    pub fn is_empty_dict(&self) -> bool {
        matches!(self, Py::Dict(items) if items.is_empty())
    }
}

/// A dict entry by key.
pub fn get<'a>(items: &'a [(String, Py)], key: &str) -> Option<&'a Py> {
    items.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// Sets a key as a Python dict does: in place when present, else appended.
pub fn set(items: &mut Vec<(String, Py)>, key: &str, value: Py) {
    match items.iter_mut().find(|(k, _)| k == key) {
        Some(slot) => slot.1 = value,
        None => items.push((key.to_string(), value)),
    }
}

/// A JSON number literal as Python reads it.
pub fn number(text: &str) -> Py {
    match text {
        // The literals Python's json reads (see `json::python::nonfinite`).
        "NaN" => return Py::Float(f64::NAN),
        "Infinity" => return Py::Float(f64::INFINITY),
        "-Infinity" => return Py::Float(f64::NEG_INFINITY),
        _ => {}
    }
    if text.contains(['.', 'e', 'E']) {
        Py::Float(text.parse::<f64>().unwrap_or(f64::NAN))
    } else {
        Py::Int(normalize_int(text))
    }
}

fn normalize_int(text: &str) -> String {
    let (neg, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let digits = digits.trim_start_matches('0');
    match (neg, digits.is_empty()) {
        (_, true) => "0".to_string(),
        (true, false) => format!("-{digits}"),
        (false, false) => digits.to_string(),
    }
}

/// `str(v)`.
pub fn py_str(v: &Py) -> String {
    let mut out = String::new();
    push_py_str(v, &mut out);
    out
}

/// Appends `str(v)` to `out`.
pub fn push_py_str(v: &Py, out: &mut String) {
    match v {
        Py::Str(s) => out.push_str(s),
        other => write_repr(other, out),
    }
}

/// `repr(v)`.
pub fn repr(v: &Py) -> String {
    let mut out = String::new();
    write_repr(v, &mut out);
    out
}

fn write_repr(v: &Py, out: &mut String) {
    match v {
        Py::None => out.push_str("None"),
        Py::Bool(true) => out.push_str("True"),
        Py::Bool(false) => out.push_str("False"),
        Py::Int(i) => out.push_str(i),
        Py::Float(f) => out.push_str(&float_repr(*f)),
        Py::Str(s) => out.push_str(&str_repr(s)),
        Py::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_repr(item, out);
            }
            out.push(']');
        }
        Py::Dict(items) => {
            out.push('{');
            for (i, (k, item)) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&str_repr(k));
                out.push_str(": ");
                write_repr(item, out);
            }
            out.push('}');
        }
    }
}

/// True when Python's `str.isprintable()` is true for `c` (repr leaves it as is).
pub fn is_printable(c: char) -> bool {
    let cp = c as u32;
    not_printable().binary_search_by(|&(lo, hi)| if hi < cp { std::cmp::Ordering::Less } else if lo > cp { std::cmp::Ordering::Greater } else { std::cmp::Ordering::Equal }).is_err()
}

/// The ranges of code points repr() escapes, decoded once from their
/// compact form in `py_printable.rs`.
fn not_printable() -> &'static [(u32, u32)] {
    static TABLE: std::sync::OnceLock<Vec<(u32, u32)>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut bytes = NOT_PRINTABLE_LEB128.iter();
        let mut next = || {
            let mut n = 0u32;
            for shift in (0..32).step_by(7) {
                let Some(&b) = bytes.next() else { break };
                n |= u32::from(b & 0x7F) << shift;
                if b & 0x80 == 0 {
                    break;
                }
            }
            n
        };
        let mut ranges = Vec::with_capacity(NOT_PRINTABLE_RANGES);
        let mut end: Option<u32> = None;
        for _ in 0..NOT_PRINTABLE_RANGES {
            let start = end.map_or(0, |e| e + 1) + next();
            let last = start + next();
            ranges.push((start, last));
            end = Some(last);
        }
        ranges
    })
}

/// `repr(s)` of a str: single quotes unless the text has `'` and no `"`.
pub fn str_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            _ if c == quote || c == '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            _ if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02x}", c as u32)),
            _ if (c as u32) < 0x7f || is_printable(c) => out.push(c),
            _ if (c as u32) <= 0xff => out.push_str(&format!("\\x{:02x}", c as u32)),
            _ if (c as u32) <= 0xffff => out.push_str(&format!("\\u{:04x}", c as u32)),
            _ => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push(quote);
    out
}

/// `repr(f)`: the shortest digits that round-trip, fixed notation for
/// decimal exponents in [-4, 16), else `d.ddde±XX`.
pub fn float_repr(f: f64) -> String {
    if f.is_nan() {
        return "nan".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf" } else { "-inf" }.to_string();
    }
    let sci = format!("{:e}", f.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let exp: i32 = exp.parse().unwrap_or(0);
    let decpt = exp + 1;
    let sign = if f.is_sign_negative() { "-" } else { "" };
    let n = digits.len() as i32;
    let body = if decpt <= -4 || decpt > 16 {
        let (first, rest) = digits.split_at(1.min(digits.len()));
        let frac = if rest.is_empty() { String::new() } else { format!(".{rest}") };
        let e = decpt - 1;
        format!("{first}{frac}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs())
    } else if decpt <= 0 {
        format!("0.{}{digits}", "0".repeat((-decpt) as usize))
    } else if decpt >= n {
        format!("{digits}{}.0", "0".repeat((decpt - n) as usize))
    } else {
        let (a, b) = digits.split_at(decpt as usize);
        format!("{a}.{b}")
    };
    format!("{sign}{body}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_table_decodes() {
        let t = not_printable();
        assert_eq!(t.len(), NOT_PRINTABLE_RANGES);
        assert_eq!(t.first(), Some(&(0x0, 0x1F)));
        assert_eq!(t.get(1..3), Some(&[(0x7F, 0xA0), (0xAD, 0xAD)][..]));
        assert_eq!(t.last(), Some(&(0xE01F0, 0x10FFFF)));
        assert!(t.windows(2).all(|w| w[0].1 + 1 < w[1].0) && t.iter().all(|(a, b)| a <= b));
        for (c, printable) in [('a', true), (' ', true), ('\u{a0}', false), ('é', true), ('\u{200b}', false), ('\u{378}', false), ('😀', true), ('\u{e0001}', false)] {
            assert_eq!(is_printable(c), printable, "{c:?}");
        }
    }

    #[test]
    fn floats_as_python() {
        let cases = [
            (1e-05, "1e-05"),
            (1.0, "1.0"),
            (-0.0, "-0.0"),
            (0.0, "0.0"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (1e-4, "0.0001"),
            (0.1 + 0.2, "0.30000000000000004"),
            (5e-324, "5e-324"),
            (f64::MAX, "1.7976931348623157e+308"),
            (123456.789, "123456.789"),
            (2.5e-7, "2.5e-07"),
            (12345678901234567.0, "1.2345678901234568e+16"),
            (f64::INFINITY, "inf"),
            (-1.5e-10, "-1.5e-10"),
        ];
        for (f, want) in cases {
            assert_eq!(float_repr(f), want, "{f}");
        }
    }

    /// `NaN` and the infinities in JSON (as Python's json and pydantic read
    /// them) are floats: `str()` of a dict holding them shows `nan`, `inf`.
    #[test]
    fn nonfinite_literals_as_python() {
        let v = crate::json::python::loads(r#"{"a": NaN, "b": [Infinity, -Infinity], "c": 1e999, "d": 10}"#).unwrap();
        assert_eq!(py_str(&Py::from_json(&v)), "{'a': nan, 'b': [inf, -inf], 'c': inf, 'd': 10}");
    }

    #[test]
    fn strings_as_python() {
        assert_eq!(str_repr("it's"), "\"it's\"");
        assert_eq!(str_repr("it's \"x\""), "'it\\'s \"x\"'");
        assert_eq!(str_repr("a\\b\x00\u{7f}é\u{200b}\u{a0}😀"), "'a\\\\b\\x00\\x7fé\\u200b\\xa0😀'");
        assert_eq!(number("-0"), Py::Int("0".into()));
        assert_eq!(number("1e999"), Py::Float(f64::INFINITY));
    }
}
