//! Pydantic v2 lax-mode checks for JSON input, for formats whose reference
//! library is a pydantic model (`agent-catalog`, `agentlens`).
//!
//! Each function answers what `Model.model_validate_json` would do with one
//! JSON value for one field type, following pydantic's conversion table
//! (<https://docs.pydantic.dev/latest/concepts/conversion_table/>, "JSON" and
//! "lax" columns) and the parsers of pydantic-core 2.50 (speedate for dates).
//! The rules were checked against the real library: the goldens under
//! `tests/golden/agent-catalog/` and `tests/golden/agentlens/` come from it.
//!
//! A check returns `Ok` with what a reader needs, or `Err` with a sentence
//! saying what was expected; callers turn that into a diagnostic.

use serde_json::Value;

use crate::analysis::time::iso::{self as time, numeric, unix_seconds, END_UNIX, MIN_UNIX};

use super::json_type;

// `str`, `dict` and `list` fields take only their own JSON type (no
// conversion in JSON mode); callers check those with `Value::is_*`.

/// A `bool` field in lax mode: true/false, the integers 0 and 1 (also as
/// 0.0/1.0), and the strings 0/1/f/t/n/y/no/yes/off/on/false/true in any case.
pub fn boolean(v: &Value) -> Result<bool, String> {
    match v {
        Value::Bool(b) => Ok(*b),
        Value::Number(n) => {
            let f = n.as_f64();
            if f == Some(0.0) {
                Ok(false)
            } else if f == Some(1.0) {
                Ok(true)
            } else {
                Err(format!("expected a boolean; the number {n} is neither 0 nor 1"))
            }
        }
        Value::String(s) => match s.to_ascii_lowercase().as_str() {
            "0" | "off" | "f" | "false" | "n" | "no" => Ok(false),
            "1" | "on" | "t" | "true" | "y" | "yes" => Ok(true),
            _ => Err(format!("expected a boolean; the string {s:?} is not one pydantic reads as true or false")),
        },
        other => Err(format!("expected a boolean, found {}", json_type(other))),
    }
}

/// An `int` field in lax mode: a JSON integer of any size; a float with no
/// fractional part inside the i64 range; `true`/`false`; or a string holding
/// an integer (surrounding whitespace, a sign, `_` between digits and a
/// trailing `.0…` are allowed, as Python's `int()` plus pydantic allow).
/// `Ok(None)` when valid but outside i64 (Python ints have no bound).
pub fn integer(v: &Value) -> Result<Option<i64>, String> {
    match v {
        Value::Bool(b) => Ok(Some(i64::from(*b))),
        Value::Number(n) if n.is_i64() || n.is_u64() => Ok(n.as_i64()),
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
        Value::String(s) => match int_string(s) {
            Some(digits) => Ok(digits.parse::<i64>().ok()),
            None => Err(format!("expected an integer, found the string {s:?}, which is not an integer")),
        },
        other => Err(format!("expected an integer, found {}", json_type(other))),
    }
}

/// pydantic-core's `str_as_int`: trim, drop a `.000` tail, then an optional
/// sign and digits with single `_` separators; at most 4300 characters.
/// Returns the integer's text without separators.
fn int_string(s: &str) -> Option<String> {
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

/// A `float` field in lax mode: any JSON number, `true`/`false`, or a string
/// Rust's float parser reads after trimming and dropping `_` separators
/// (so `"1e3"`, `"inf"` and `"nan"` pass).
pub fn float(v: &Value) -> Result<f64, String> {
    match v {
        Value::Bool(b) => Ok(if *b { 1.0 } else { 0.0 }),
        Value::Number(n) => n.as_f64().ok_or_else(|| format!("expected a number, found {n}")),
        Value::String(s) => float_string(s).ok_or_else(|| format!("expected a number, found the string {s:?}, which is not a number")),
        other => Err(format!("expected a number, found {}", json_type(other))),
    }
}

fn float_string(s: &str) -> Option<f64> {
    let s = s.trim();
    let cleaned;
    let s = if s.contains('_') {
        if s.starts_with('_') || s.ends_with('_') || s.contains("__") {
            return None;
        }
        cleaned = s.replace('_', "");
        cleaned.as_str()
    } else {
        s
    };
    s.parse::<f64>().ok()
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
        assert!(float(&json!("nan")).is_ok_and(f64::is_nan));
        assert!(float(&json!("3__5")).is_err());
        assert!(float(&json!(".")).is_err());
        assert_eq!(boolean(&json!("Yes")), Ok(true));
        assert_eq!(boolean(&json!(1.0)), Ok(true));
        assert!(boolean(&json!(2)).is_err());
        assert!(boolean(&json!("maybe")).is_err());
    }
}
