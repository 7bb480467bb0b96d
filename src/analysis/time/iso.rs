//! Date-times as pydantic reads a `datetime` field from a string (speedate,
//! pydantic-core 2.4x–2.50, lax mode): `YYYY-MM-DD` alone, or followed by
//! `T`, `t`, a space or `_`, `HH:MM`, optionally `:SS` and a fraction (`.` or
//! `,` and digits, microseconds kept), then optionally `Z`, `z` or `±HH[:]MM`.
//! Years 1–9999; hours up to 23, minutes and seconds up to 59.
//!
//! Unix timestamps, which pydantic also reads into a datetime (a number, or
//! a numeric string), come with [`unix_seconds`], [`numeric`] and the range.

use super::{days_from_civil, fraction, two_digits};

/// Unix timestamps beyond this magnitude are milliseconds (speedate's rule).
pub const MS_WATERSHED: f64 = 2e10;
/// 0001-01-01T00:00:00Z as Unix seconds: the first datetime a number can give.
pub const MIN_UNIX: f64 = -62_135_596_800.0;
/// The first second after 9999-12-31T23:59:59Z: the end of that range.
pub const END_UNIX: f64 = 253_402_300_800.0;

/// A Unix timestamp as speedate reads a number: seconds, or milliseconds
/// beyond ±2e10; in seconds.
pub fn unix_seconds(x: f64) -> f64 {
    if x.abs() > MS_WATERSHED {
        x / 1000.0
    } else {
        x
    }
}

/// speedate's number form for timestamps in strings: `[+-]digits[.digits]`,
/// at least one digit, no exponent, no whitespace.
pub fn numeric(s: &str) -> Option<f64> {
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    let digits = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
    if (int.is_empty() && frac.is_empty()) || !digits(int) || !digits(frac) {
        return None;
    }
    s.parse::<f64>().ok().or_else(|| format!("{s}0").parse::<f64>().ok())
}

/// A date-time read as pydantic reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateTime {
    /// True when it has a UTC offset (or `Z`).
    pub aware: bool,
    /// Microseconds since 1970-01-01T00:00:00: in UTC when aware, on the
    /// wall clock when naive (as Python's naive datetimes compare).
    pub micros: i64,
}

/// Reads `b` as speedate reads a datetime string; the error says why not,
/// in speedate's words.
pub fn parse(b: &[u8]) -> Result<DateTime, &'static str> {
    let num = |from: usize, len: usize| -> Option<u32> {
        let part = b.get(from..from + len)?;
        part.iter().try_fold(0u32, |v, d| d.is_ascii_digit().then(|| v * 10 + u32::from(d - b'0')))
    };
    if b.len() < 10 {
        return Err("input is too short");
    }
    let year = num(0, 4).ok_or("invalid character in year")?;
    if b.get(4) != Some(&b'-') {
        return Err("invalid date separator, expected `-`");
    }
    let month = num(5, 2).ok_or("invalid character in month")?;
    if b.get(7) != Some(&b'-') {
        return Err("invalid date separator, expected `-`");
    }
    let day = num(8, 2).ok_or("invalid character in day")?;
    if year == 0 {
        return Err("year 0 is out of range");
    }
    if !(1..=12).contains(&month) {
        return Err("month value is outside expected range");
    }
    let days = days_from_civil(i64::from(year), month, day).ok_or("day value is outside expected range")?;
    let midnight = days * 86_400_000_000;
    if b.len() == 10 {
        return Ok(DateTime { aware: false, micros: midnight });
    }
    if !matches!(b.get(10), Some(b'T' | b't' | b' ' | b'_')) {
        return Err("unexpected extra characters at the end of the input");
    }
    let (time, offset) = time_and_offset(b, 11).ok_or("unexpected extra characters at the end of the input")?;
    let micros = midnight + time - offset.unwrap_or(0) * 1_000_000;
    Ok(DateTime { aware: offset.is_some(), micros })
}

/// `HH:MM[:SS[(.|,)digits]]` then an optional `Z` or `±HH[:]MM`, then the
/// end: microseconds into the day, and the offset in seconds east of UTC.
fn time_and_offset(b: &[u8], mut i: usize) -> Option<(i64, Option<i64>)> {
    let two = |at: usize| two_digits(*b.get(at)?, *b.get(at + 1)?);
    let hour = two(i)?;
    if hour > 23 || b.get(i + 2) != Some(&b':') {
        return None;
    }
    let minute = two(i + 3)?;
    if minute > 59 {
        return None;
    }
    i += 5;
    let mut seconds = 0;
    let mut micros = 0;
    if b.get(i) == Some(&b':') {
        seconds = two(i + 1)?;
        if seconds > 59 {
            return None;
        }
        i += 3;
        if matches!(b.get(i), Some(b'.' | b',')) {
            let (nanos, digits) = fraction(b.get(i + 1..)?)?;
            micros = i64::from(nanos / 1000);
            i += 1 + digits;
        }
    }
    let time = i64::from(hour * 3600 + minute * 60 + seconds) * 1_000_000 + micros;
    let offset = match b.get(i) {
        None => None,
        Some(b'Z' | b'z') => (i + 1 == b.len()).then_some(Some(0))?,
        Some(sign @ (b'+' | b'-')) => {
            let hours = two(i + 1)?;
            let mut j = i + 3;
            if b.get(j) == Some(&b':') {
                j += 1;
            }
            let minutes = two(j)?;
            if hours > 23 || minutes > 59 || j + 2 != b.len() {
                return None;
            }
            let east = i64::from(hours * 3600 + minutes * 60);
            Some(if *sign == b'-' { -east } else { east })
        }
        Some(_) => return None,
    };
    Some((time, offset))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> Result<(bool, i64), &'static str> {
        parse(s.as_bytes()).map(|d| (d.aware, d.micros))
    }

    #[test]
    fn values_and_rejections() {
        let day = 20_276 * 86_400_000_000i64; // 2025-07-07
        assert_eq!(at("2025-07-07"), Ok((false, day)));
        assert_eq!(at("2025-07-07T12:18:46.065764+05:30"), Ok((true, day + ((12 * 3600 + 18 * 60 + 46) - 19_800) * 1_000_000 + 65_764)));
        assert_eq!(at("2025-07-07T12:18:46+0530"), at("2025-07-07T06:48:46Z"));
        assert_eq!(at("2025-07-07_12:18"), Ok((false, day + (12 * 3600 + 18 * 60) * 1_000_000)));
        assert_eq!(at("2025-07-07t12:18:46,5z"), Ok((true, day + (12 * 3600 + 18 * 60 + 46) * 1_000_000 + 500_000)));
        assert_eq!(at("2025-07-07T12:18:46.1234567"), at("2025-07-07T12:18:46.123456"));
        assert_eq!((numeric("1."), numeric(".5"), numeric("-2"), numeric("1e3"), numeric("."), numeric(" 1")), (Some(1.0), Some(0.5), Some(-2.0), None, None, None));
        assert_eq!((unix_seconds(2e10), unix_seconds(3e10)), (2e10, 3e7));
        for bad in ["2023-02-29", "2025-07-07T12:18:46+05", "2025-07-07T12:18:46.Z", "2025-07-07T24:00:00Z", "0000-01-01", "2025-07-07T", "2025-7-7", "2025-07-07x12:00", "2025-07-07T12:00Zx"] {
            assert!(at(bad).is_err(), "{bad}");
        }
    }
}
