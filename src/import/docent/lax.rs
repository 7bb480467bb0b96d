//! The `datetime` fields of Docent's models in pydantic's lax mode (the
//! other lax conversions Docent needs are [`crate::import::pydantic_lax`]'s).
//!
//! Docent validates parsed Python objects with `model_validate`, so a
//! `datetime` takes a unix timestamp as well as ISO 8601 text. This says what
//! pydantic (2.14, pydantic-core 2.50, speedate) accepts; the boundary cases
//! are pinned by tests/golden/docent. (`pydantic_lax::datetime` parses the
//! same grammar for the JSON formats: two parsers of one grammar, left for
//! the datetime consolidation.)

use serde_json::Value;

/// Unix seconds of 0001-01-01T00:00:00 and of the first second after 9999-12-31.
const MIN_UNIX: f64 = -62_135_596_800.0;
const END_UNIX: f64 = 253_402_300_800.0;
/// Above this magnitude a timestamp is taken as milliseconds (speedate's rule).
const MS_WATERSHED: f64 = 2e10;

/// A `datetime` field (null is the caller's business): an ISO 8601 date or
/// date-time, or a unix timestamp in seconds or milliseconds, as a number or
/// as a string of digits.
pub fn is_datetime(v: &Value) -> bool {
    match v {
        Value::Number(n) => n.as_f64().is_some_and(is_timestamp),
        Value::String(s) => {
            if is_number_text(s) {
                s.parse::<f64>().is_ok_and(is_timestamp)
            } else {
                is_iso_datetime(s.as_bytes())
            }
        }
        _ => false,
    }
}

fn is_timestamp(x: f64) -> bool {
    let seconds = if x.abs() > MS_WATERSHED { x / 1000.0 } else { x };
    (MIN_UNIX..END_UNIX).contains(&seconds)
}

/// `[+-]digits[.digits]`, digits optional on one side of the point.
fn is_number_text(s: &str) -> bool {
    let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (int, frac) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let all_digits = |t: &str| t.bytes().all(|c| c.is_ascii_digit());
    !(int.is_empty() && frac.is_empty()) && all_digits(int) && all_digits(frac)
}

/// `YYYY-MM-DD` alone, or followed by `T`/`t`/space and `HH:MM[:SS[.f…]]`
/// and an optional `Z`, `±HH:MM` or `±HHMM`.
fn is_iso_datetime(b: &[u8]) -> bool {
    let mut c = Cursor { b, at: 0 };
    let Some(year) = c.digits(4) else { return false };
    let Some(month) = c.lit(b'-').and_then(|_| c.digits(2)) else { return false };
    let Some(day) = c.lit(b'-').and_then(|_| c.digits(2)) else { return false };
    if year == 0 || !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return false;
    }
    if c.done() {
        return true;
    }
    if !matches!(c.next(), Some(b'T' | b't' | b' ')) {
        return false;
    }
    let Some(hour) = c.digits(2) else { return false };
    let Some(minute) = c.lit(b':').and_then(|_| c.digits(2)) else { return false };
    if hour > 23 || minute > 59 {
        return false;
    }
    if c.peek() == Some(b':') {
        c.at += 1;
        match c.digits(2) {
            Some(second) if second <= 59 => {}
            _ => return false,
        }
        if matches!(c.peek(), Some(b'.' | b',')) {
            c.at += 1;
            if c.run_of_digits() == 0 {
                return false;
            }
        }
    }
    match c.next() {
        None => true,
        Some(b'Z' | b'z') => c.done(),
        Some(b'+' | b'-') => {
            let Some(h) = c.digits(2) else { return false };
            if c.peek() == Some(b':') {
                c.at += 1;
            }
            let Some(m) = c.digits(2) else { return false };
            h <= 23 && m <= 59 && c.done()
        }
        Some(_) => false,
    }
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

struct Cursor<'b> {
    b: &'b [u8],
    at: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.at += 1;
        Some(c)
    }

    fn done(&self) -> bool {
        self.at >= self.b.len()
    }

    fn lit(&mut self, want: u8) -> Option<()> {
        (self.next()? == want).then_some(())
    }

    /// Exactly `n` ASCII digits, as a number.
    fn digits(&mut self, n: usize) -> Option<u32> {
        let mut value = 0u32;
        for _ in 0..n {
            let c = self.next().filter(u8::is_ascii_digit)?;
            value = value * 10 + u32::from(c - b'0');
        }
        Some(value)
    }

    fn run_of_digits(&mut self) -> usize {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        self.at - start
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn datetimes_follow_speedate() {
        for v in [
            json!("2024-01-01"),
            json!("2024-01-01 10:00"),
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
