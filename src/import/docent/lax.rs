//! Pydantic v2 lax-mode coercions, as far as Docent's models need them.
//!
//! Docent validates JSON with `model_validate` on parsed Python objects, so a
//! `bool` field takes `"yes"`, a score takes `" 2.5 "`, a `datetime` takes a
//! unix timestamp. These predicates say what pydantic (2.14, pydantic-core
//! 2.50) accepts; the boundary cases are pinned by tests/golden/docent.

use serde_json::Value;

/// A `bool` field: booleans, 0/1 (int or float), and pydantic's words, any case.
pub fn is_bool(v: &Value) -> bool {
    match v {
        Value::Bool(_) => true,
        Value::Number(n) => n.as_f64().is_some_and(|f| f == 0.0 || f == 1.0),
        Value::String(s) => is_bool_word(s),
        _ => false,
    }
}

/// pydantic's bool strings; surrounding whitespace is not stripped.
fn is_bool_word(s: &str) -> bool {
    matches!(
        s.to_ascii_lowercase().as_str(),
        "0" | "off" | "f" | "false" | "n" | "no" | "1" | "on" | "t" | "true" | "y" | "yes"
    )
}

/// A score of the older generation: `int | float | bool | None`, where a
/// string counts when it parses as any of the three.
pub fn is_score(v: &Value) -> bool {
    match v {
        Value::Null | Value::Bool(_) | Value::Number(_) => true,
        Value::String(s) => is_bool_word(s) || is_int_text(s.trim()) || is_float_text(s.trim()),
        _ => false,
    }
}

/// Python `int()` text: a sign, then digits with single underscores between them.
fn is_int_text(s: &str) -> bool {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    without_digit_underscores(digits).is_some_and(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()))
}

/// Python `float()` text: decimal or exponent notation (underscores between
/// digits allowed), or inf/infinity/nan in any case, with a sign.
fn is_float_text(s: &str) -> bool {
    let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
    let lower = unsigned.to_ascii_lowercase();
    if matches!(lower.as_str(), "inf" | "infinity" | "nan") {
        return true;
    }
    let Some(plain) = without_digit_underscores(unsigned) else { return false };
    // Rust's float grammar without its special words, which were handled above.
    plain.bytes().all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-')) && plain.parse::<f64>().is_ok()
}

/// `s` without its underscores when each stands between two ASCII digits.
fn without_digit_underscores(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    for (i, c) in s.char_indices() {
        if c == '_' {
            let before = i.checked_sub(1).and_then(|j| bytes.get(j)).is_some_and(u8::is_ascii_digit);
            let after = bytes.get(i + 1).is_some_and(u8::is_ascii_digit);
            if !(before && after) {
                return None;
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// A `datetime` field (null is the caller's business): an ISO 8601 date or
/// date-time, or a unix timestamp in seconds or milliseconds, as a number or
/// as a string of digits; the crate's one reading of pydantic's datetime
/// ([`crate::import::pydantic_lax::datetime`]).
pub fn is_datetime(v: &Value) -> bool {
    crate::import::pydantic_lax::datetime(v).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn bools_follow_pydantic_lax_mode() {
        for v in [json!(true), json!(0), json!(1), json!(1.0), json!("YES"), json!("off"), json!("t")] {
            assert!(is_bool(&v), "{v}");
        }
        for v in [json!(2), json!(1.5), json!(" true"), json!(null), json!("maybe"), json!([])] {
            assert!(!is_bool(&v), "{v}");
        }
    }

    #[test]
    fn score_strings_parse_as_int_float_or_bool() {
        for s in ["1", " 2.5 ", "1_000", "1_0.0_1", "-nan", "INF", "+infinity", "1e3", "1E+5", "+.5", "1.", "00012", "\u{a0}1", "yes"] {
            assert!(is_score(&json!(s)), "{s:?}");
        }
        for s in ["0x10", "", "1 000", "1__0", "_1", "1_", "1e", "e3", ".", "-", "infinit", " true", "\u{661}", "1j", "1.5."] {
            assert!(!is_score(&json!(s)), "{s:?}");
        }
        assert!(!is_score(&json!([1])) && !is_score(&json!({"a": 1})));
    }

    #[test]
    fn datetimes_follow_speedate() {
        for v in [
            json!("2024-01-01"),
            json!("2024-01-01 10:00"),
            json!("2024-01-01_10:00"),
            json!("2024-01-01t10:00:00,5z"),
            json!("2024-01-01T10:00:00.1234567890+0200"),
            json!("2000-02-29"),
            json!("1700000000.5"),
            json!(".5"),
            json!(2.5e14),
            json!(-62_135_596_800_000i64),
        ] {
            assert!(is_datetime(&v), "{v}");
        }
        for v in [
            json!(true),
            json!("2024-1-1"),
            json!("1900-02-29"),
            json!("2024-01-01T10"),
            json!("2024-01-01T10:00:00+02"),
            json!("2024-01-01T10:00:00.Z"),
            json!("2024-01-01T"),
            json!(" 1700000000"),
            json!("1e3"),
            json!(2.6e14),
            json!(-62_135_596_800_001i64),
            json!(""),
        ] {
            assert!(!is_datetime(&v), "{v}");
        }
    }
}
