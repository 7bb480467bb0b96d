//! Pydantic v2 lax-mode conversions, for the formats whose reference library
//! validates with a pydantic model (`agent-catalog`, `agentlens`, `docent`,
//! `openhands`) and for the renderers that print what such a model holds.
//!
//! Each function answers what pydantic (2.14, pydantic-core 2.50) does with
//! one JSON value for one field type, following its conversion table
//! (<https://docs.pydantic.dev/latest/concepts/conversion_table/>, "JSON" and
//! "lax" columns) and pydantic-core's parsers (`str_as_int`, `str_as_float`,
//! speedate for dates). JSON mode and Python mode agree on these types, so
//! Docent (which validates parsed Python objects) and the JSON readers share
//! them. The rules were checked against the real library: the goldens under
//! `tests/golden/{agent-catalog,agentlens,docent}/` come from it.
//!
//! A check returns `Ok` with what a reader needs, or `Err` with a sentence
//! saying what was expected; callers turn that into a diagnostic.

use serde_json::Value;

use crate::analysis::time::iso::{self as time, numeric, unix_seconds, END_UNIX, MIN_UNIX};

use super::json_type;

// `str`, `dict` and `list` fields take only their own JSON type (no
// conversion in JSON mode); callers check those with `Value::is_*`.

/// Why a value is not what a lax-mode field takes; `Display` says it as the
/// diagnostics do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LaxError {
    /// A number that is neither 0 nor 1, for a `bool`.
    NumberNotBool(String),
    /// A string pydantic does not read as true or false.
    StringNotBool(String),
    NotBool { found: &'static str },
    /// A number pydantic cannot hold as a float.
    NumberNotFloat(String),
    StringNotFloat(String),
    NotFloat { found: &'static str },
}

impl std::fmt::Display for LaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LaxError::NumberNotBool(n) => write!(f, "expected a boolean; the number {n} is neither 0 nor 1"),
            LaxError::StringNotBool(s) => write!(f, "expected a boolean; the string {s:?} is not one pydantic reads as true or false"),
            LaxError::NotBool { found } => write!(f, "expected a boolean, found {found}"),
            LaxError::NumberNotFloat(n) => write!(f, "expected a number, found {n}"),
            LaxError::StringNotFloat(s) => write!(f, "expected a number, found the string {s:?}, which is not a number"),
            LaxError::NotFloat { found } => write!(f, "expected a number, found {found}"),
        }
    }
}

/// A `bool` field in lax mode: true/false, the integers 0 and 1 (also as
/// 0.0/1.0), and the strings [`bool_text`] reads.
pub fn boolean(v: &Value) -> Result<bool, LaxError> {
    match v {
        Value::Bool(b) => Ok(*b),
        Value::Number(n) => {
            let f = n.as_f64();
            if f == Some(0.0) {
                Ok(false)
            } else if f == Some(1.0) {
                Ok(true)
            } else {
                Err(LaxError::NumberNotBool(n.to_string()))
            }
        }
        Value::String(s) => bool_text(s).ok_or_else(|| LaxError::StringNotBool(s.clone())),
        other => Err(LaxError::NotBool { found: json_type(other) }),
    }
}

/// A string as a `bool`: 0/1/f/t/n/y/no/yes/off/on/false/true in any case;
/// surrounding whitespace is not stripped.
pub fn bool_text(s: &str) -> Option<bool> {
    match s.to_ascii_lowercase().as_str() {
        "0" | "off" | "f" | "false" | "n" | "no" => Some(false),
        "1" | "on" | "t" | "true" | "y" | "yes" => Some(true),
        _ => None,
    }
}

/// An `int` field in lax mode: a JSON integer of any size; a float with no
/// fractional part inside the i64 range; `true`/`false`; or a string
/// [`int_text`] reads. `Ok(None)` when valid but outside i64 (Python ints
/// have no bound).
pub fn integer(v: &Value) -> Result<Option<i64>, String> {
    match v {
        Value::Bool(b) => Ok(Some(i64::from(*b))),
        Value::Number(n) if n.is_i64() || n.is_u64() => Ok(n.as_i64()),
        // An integer literal past u64 (its digits are kept): Python's int has no bound.
        Value::Number(n) if is_integer_literal(n) => Ok(None),
        Value::Number(n) => match n.as_f64() {
            Some(f) if !f.is_finite() => Err("expected an integer, found a number that is not finite".to_string()),
            Some(f) if f.fract() != 0.0 => Err(format!("expected an integer, found {n}, which has a fractional part")),
            Some(f) if f < i64::MIN as f64 || f > i64::MAX as f64 => {
                Err(format!("expected an integer, found {n}, which is too large for pydantic to convert from a float"))
            }
            // In range and integral: the conversion is exact enough for token counts.
            Some(f) => Ok(Some(f as i64)),
            None => Err(format!("expected an integer, found {n}")),
        },
        Value::String(s) => match int_text(s) {
            Some(digits) => Ok(digits.parse::<i64>().ok()),
            None => Err(format!("expected an integer, found the string {s:?}, which is not an integer")),
        },
        other => Err(format!("expected an integer, found {}", json_type(other))),
    }
}

/// True for a number written as an integer (no fraction, no exponent; not
/// `NaN` or an infinity).
fn is_integer_literal(n: &serde_json::Number) -> bool {
    let text = n.to_string();
    let digits = text.strip_prefix('-').unwrap_or(&text);
    !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit())
}

/// pydantic-core's `str_as_int`: trim, drop a `.000` tail, then an optional
/// sign and digits with single `_` separators; at most 4300 characters.
/// Returns the integer's text without separators (sign and leading zeros
/// kept).
pub fn int_text(s: &str) -> Option<String> {
    let s = s.trim();
    if s.len() > 4300 {
        return None;
    }
    let whole = match s.split_once('.') {
        Some((whole, zeros)) if !zeros.is_empty() && zeros.bytes().all(|b| b == b'0') => whole,
        Some(_) => return None,
        None => s,
    };
    let digits = whole.strip_prefix(['+', '-']).unwrap_or(whole);
    underscored_digits(digits).then(|| whole.replace('_', ""))
}

/// Digits with `_` allowed only between two digits (Python's rule).
fn underscored_digits(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with('_')
        && !s.ends_with('_')
        && !s.contains("__")
        && s.bytes().all(|b| b.is_ascii_digit() || b == b'_')
}

/// A `float` field in lax mode: any JSON number (`NaN` and the infinities
/// too: pydantic's `allow_inf_nan` is on by default; `1e400` is `inf`),
/// `true`/`false`, or a string [`float_text`] reads.
pub fn float(v: &Value) -> Result<f64, LaxError> {
    match v {
        Value::Bool(b) => Ok(if *b { 1.0 } else { 0.0 }),
        Value::Number(n) => crate::json::python::to_f64(n).ok_or_else(|| LaxError::NumberNotFloat(n.to_string())),
        Value::String(s) => float_text(s).ok_or_else(|| LaxError::StringNotFloat(s.clone())),
        other => Err(LaxError::NotFloat { found: json_type(other) }),
    }
}

/// pydantic-core's `str_as_float`: Rust's float parser on the trimmed
/// string (so `"1e3"`, `"inf"` and `"nan"` pass), else on the string, not
/// trimmed, without its `_` when none leads, trails or doubles (so `"1_.5"`
/// and `"in_f"` pass, and `" 1_0 "` does not).
pub fn float_text(s: &str) -> Option<f64> {
    if let Ok(f) = s.trim().parse::<f64>() {
        return Some(f);
    }
    if !s.contains('_') || s.starts_with('_') || s.ends_with('_') || s.contains("__") {
        return None;
    }
    s.replace('_', "").parse::<f64>().ok()
}

/// An `int | float | bool | None` field (Docent's scores; a smart-mode
/// union): valid when one of its members reads the value.
pub fn is_int_float_bool_or_none(v: &Value) -> bool {
    match v {
        Value::Null | Value::Bool(_) | Value::Number(_) => true,
        Value::String(s) => int_text(s).is_some() || float_text(s).is_some() || bool_text(s).is_some(),
        _ => false,
    }
}

/// What a valid datetime input turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateTime {
    /// True when the value carries a UTC offset (or is a Unix timestamp,
    /// which pydantic reads as UTC).
    pub aware: bool,
}

/// Why a datetime input was rejected; `kind` matches pydantic's error type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DateTimeError {
    pub kind: &'static str,
    pub message: String,
}

fn dt_err(kind: &'static str, message: impl Into<String>) -> DateTimeError {
    DateTimeError { kind, message: message.into() }
}

/// A `datetime` field in lax mode: an RFC 3339-like string
/// (`YYYY-MM-DD[Tt _]HH:MM[:SS[.f…]][Z|±HH[:]MM]`, or a bare date), a Unix
/// timestamp as a JSON number or a numeric string (seconds, or milliseconds
/// beyond ±2e10), within years 1–9999.
pub fn datetime(v: &Value) -> Result<DateTime, DateTimeError> {
    match v {
        Value::Number(n) => {
            if n.is_u64() && n.as_i64().is_none() {
                return Err(dt_err("datetime_type", "expected a datetime; this integer is too large"));
            }
            match n.as_f64() {
                Some(f) => unix(f),
                None => Err(dt_err("datetime_type", "expected a datetime")),
            }
        }
        Value::String(s) => match iso(s.as_bytes()) {
            Ok(aware) => Ok(DateTime { aware }),
            Err(why) => match numeric(s) {
                Some(f) => unix(f),
                None => Err(dt_err("datetime_from_date_parsing", format!("{s:?} is not a valid datetime: {why}"))),
            },
        },
        other => Err(dt_err("datetime_type", format!("expected a datetime string or Unix timestamp, found {}", json_type(other)))),
    }
}

fn unix(f: f64) -> Result<DateTime, DateTimeError> {
    let secs = unix_seconds(f);
    if secs.is_nan() || secs >= END_UNIX {
        return Err(dt_err("datetime_parsing", "dates after 9999 are not supported as Unix timestamps"));
    }
    if secs < MIN_UNIX {
        return Err(dt_err("datetime_parsing", "dates before year 1 are not supported as Unix timestamps"));
    }
    Ok(DateTime { aware: true })
}

/// Parses speedate's datetime or date form; returns whether it has an offset.
fn iso(b: &[u8]) -> Result<bool, &'static str> {
    time::parse(b).map(|d| d.aware)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn dt(v: Value) -> Result<bool, &'static str> {
        datetime(&v).map(|d| d.aware).map_err(|e| e.kind)
    }

    #[test]
    fn datetimes_as_speedate_reads_them() {
        assert_eq!(dt(json!("2025-07-07T12:18:46.065764+05:30")), Ok(true));
        assert_eq!(dt(json!("2025-07-07T12:18:46+0530")), Ok(true));
        assert_eq!(dt(json!("2025-07-07 12:18Z")), Ok(true));
        assert_eq!(dt(json!("2025-07-07t12:18:46,5z")), Ok(true));
        assert_eq!(dt(json!("2025-07-07T12:18:46")), Ok(false));
        assert_eq!(dt(json!("2025-07-07")), Ok(false));
        assert_eq!(dt(json!("2024-02-29T00:00:00Z")), Ok(true));
        assert_eq!(dt(json!("2023-02-29T00:00:00Z")), Err("datetime_from_date_parsing"));
        assert_eq!(dt(json!("2025-07-07T12:18:46+05")), Err("datetime_from_date_parsing"));
        assert_eq!(dt(json!("2025-07-07T12:18:46.Z")), Err("datetime_from_date_parsing"));
        assert_eq!(dt(json!("2025-07-07T24:00:00Z")), Err("datetime_from_date_parsing"));
        assert_eq!(dt(json!("0000-01-01T00:00:00Z")), Err("datetime_from_date_parsing"));
        assert_eq!(dt(json!("1720000000")), Ok(true));
        assert_eq!(dt(json!(".5")), Ok(true));
        assert_eq!(dt(json!("1.")), Ok(true));
        assert_eq!(dt(json!("1e3")), Err("datetime_from_date_parsing"));
        assert_eq!(dt(json!(253_402_300_799_999u64)), Ok(true));
        assert_eq!(dt(json!(253_402_300_800_000u64)), Err("datetime_parsing"));
        assert_eq!(dt(json!(-62_135_596_801_000i64)), Err("datetime_parsing"));
        assert_eq!(dt(json!(true)), Err("datetime_type"));
    }

    #[test]
    fn lax_numbers_and_booleans() {
        for ok in [json!(3), json!(3.0), json!("3"), json!(" 3 "), json!("3.00"), json!("1_000"), json!("+3"), json!(true), json!("1_0.0")] {
            assert!(integer(&ok).is_ok(), "{ok}");
        }
        for bad in [json!(3.5), json!("3.5"), json!("1e3"), json!("_3"), json!("3__0"), json!("3."), json!(null), json!(1e20), json!("1._0")] {
            assert!(integer(&bad).is_err(), "{bad}");
        }
        assert_eq!(float(&json!("1_0e1_0")), Ok(1e11));
        assert_eq!(float(&json!(" 2.5 ")), Ok(2.5));
        assert!(float(&json!("nan")).is_ok_and(f64::is_nan));
        assert!(float(&json!("3__5")).is_err());
        assert!(float(&json!(".")).is_err());
        assert_eq!(boolean(&json!("Yes")), Ok(true));
        assert_eq!(boolean(&json!(1.0)), Ok(true));
        assert!(boolean(&json!(2)).is_err());
        assert!(boolean(&json!("maybe")).is_err());
    }

    /// Strings as pydantic 2.14.3 (pydantic-core 2.50.4) reads them for
    /// `float` and for `int | float | bool | None` (run in that version:
    /// `model_validate` and `model_validate_json` agree on each).
    #[test]
    fn strings_as_pydantic_reads_them() {
        // (text, float field accepts, union accepts)
        let table: &[(&str, bool, bool)] = &[
            ("1_.5", true, true),
            ("1e_5", true, true),
            ("in_f", true, true),
            ("-_1", true, true),
            ("+_1", true, true),
            (" 1_0 ", false, true),
            ("1_0 ", false, true),
            (" 1_.5 ", false, false),
            (" in_f", false, false),
            ("3.", true, true),
            ("3.0_0", true, true),
            ("1_000.000", true, true),
            ("\u{a0}1", true, true),
            ("  7  ", true, true),
            ("yes", false, true),
            (" true", false, false),
            ("1 000", false, false),
            ("0x10", false, false),
            ("nan_", false, false),
            ("1__0", false, false),
            ("_1", false, false),
            ("\u{661}", false, false),
            ("infinit", false, false),
            ("", false, false),
            (".", false, false),
        ];
        for (text, float_ok, union_ok) in table {
            assert_eq!(float(&json!(text)).is_ok(), *float_ok, "float {text:?}");
            assert_eq!(is_int_float_bool_or_none(&json!(text)), *union_ok, "union {text:?}");
        }
        assert_eq!(int_text(" +1_0.00 "), Some("+10".to_string()));
        // JSON numbers for `int`: big literals pass, floats within i64 without a fraction pass.
        let int = |t: &str| integer(&serde_json::from_str::<Value>(t).unwrap()).is_ok();
        assert!(int("123456789012345678901234567890") && int("-18446744073709551616") && int("1e3") && int("9.2e18") && int("-0.0"));
        assert!(!int("9.3e18") && !int("1.5") && !int("\"1.5e1\"") && !int("\"1e3\""));
        assert_eq!(integer(&json!(" 3 ")), Ok(Some(3)));
        assert_eq!(integer(&json!("3.0")), Ok(Some(3)));
        assert_eq!(integer(&json!(true)), Ok(Some(1)));
        assert_eq!(int_text("3."), None);
        assert_eq!(float_text("-_1"), Some(-1.0));
    }

    /// Docent's cases (its older `scores` and `bool` fields; the verdicts of
    /// tests/golden/docent agree).
    #[test]
    fn docent_scores_and_bools() {
        for s in ["1", " 2.5 ", "1_000", "1_0.0_1", "-nan", "INF", "+infinity", "1e3", "1E+5", "+.5", "1.", "00012", "\u{a0}1", "yes"] {
            assert!(is_int_float_bool_or_none(&json!(s)), "{s:?}");
        }
        for s in ["0x10", "", "1 000", "1__0", "_1", "1_", "1e", "e3", ".", "-", "infinit", " true", "\u{661}", "1j", "1.5."] {
            assert!(!is_int_float_bool_or_none(&json!(s)), "{s:?}");
        }
        assert!(!is_int_float_bool_or_none(&json!([1])) && !is_int_float_bool_or_none(&json!({"a": 1})));
        for v in [json!(true), json!(0), json!(1), json!(1.0), json!("YES"), json!("off"), json!("t")] {
            assert!(boolean(&v).is_ok(), "{v}");
        }
        for v in [json!(2), json!(1.5), json!(" true"), json!(null), json!("maybe"), json!([])] {
            assert!(boolean(&v).is_err(), "{v}");
        }
    }

    /// Docent's `datetime` cases (tests/golden/docent agrees).
    #[test]
    fn docent_datetimes() {
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
            assert!(datetime(&v).is_ok(), "{v}");
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
            assert!(!datetime(&v).is_ok(), "{v}");
        }
    }
}
