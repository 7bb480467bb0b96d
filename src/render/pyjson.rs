//! `json.dumps(value, indent=2)` of Python's json module, as Docent 0.1.88
//! dumps metadata: `ensure_ascii=True` (every non-ASCII character and DEL as
//! `\uXXXX`, astral characters as surrogate pairs), float repr, `Infinity` and
//! `NaN`, key order kept, `", "`/`": "` separators with newlines.

use crate::agentrun::py::{float_repr, Py};

pub fn dumps_indent2(v: &Py) -> String {
    let mut out = String::new();
    write(v, 0, &mut out);
    out
}

fn write(v: &Py, level: usize, out: &mut String) {
    match v {
        Py::None => out.push_str("null"),
        Py::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Py::Int(i) => out.push_str(i),
        Py::Float(f) if f.is_nan() => out.push_str("NaN"),
        Py::Float(f) if f.is_infinite() => out.push_str(if *f > 0.0 { "Infinity" } else { "-Infinity" }),
        Py::Float(f) => out.push_str(&float_repr(*f)),
        Py::Str(s) => string(s, out),
        Py::List(items) if items.is_empty() => out.push_str("[]"),
        Py::Dict(items) if items.is_empty() => out.push_str("{}"),
        Py::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                out.push_str(if i == 0 { "\n" } else { ",\n" });
                pad(level + 1, out);
                write(item, level + 1, out);
            }
            out.push('\n');
            pad(level, out);
            out.push(']');
        }
        Py::Dict(items) => {
            out.push('{');
            for (i, (k, item)) in items.iter().enumerate() {
                out.push_str(if i == 0 { "\n" } else { ",\n" });
                pad(level + 1, out);
                string(k, out);
                out.push_str(": ");
                write(item, level + 1, out);
            }
            out.push('\n');
            pad(level, out);
            out.push('}');
        }
    }
}

fn pad(level: usize, out: &mut String) {
    for _ in 0..level {
        out.push_str("  ");
    }
}

/// `py_encode_basestring_ascii`.
pub fn string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x08' => out.push_str("\\b"),
            '\x0c' => out.push_str("\\f"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{:04x}", u));
                }
            }
        }
    }
    out.push('"');
}
