//! Instants for `after:` / `before:`, the timeline and run durations.
//!
//! [`parse_instant`] accepts exactly what the chrono 0.4 calls it replaces
//! accepted, and reads the same instant from it (the differential test in
//! `instant_tests.rs` holds it to that; chrono is now only a dev-dependency,
//! its format-string parser was ~14 KB of the gzipped .wasm). They were, on
//! the trimmed input, the first that succeeds of:
//!
//! 1. `DateTime::parse_from_rfc3339`: exactly `YYYY-MM-DD`, `T`, `t` or one
//!    space, `hh:mm:ss` (all two digits; `:60` is a leap second), an optional
//!    `.` and one or more digits (the first nine count, the rest are skipped),
//!    then `Z`, `z` or `±hh:mm` (`-` or U+2212 `−`; hours up to 23, minutes up
//!    to 59); nothing else.
//! 2. `NaiveDateTime::parse_from_str` with `%Y-%m-%dT%H:%M:%S%.f`,
//!    `%Y-%m-%d %H:%M:%S%.f`, `%Y-%m-%dT%H:%M`, `%Y-%m-%d %H:%M`, and
//!    `NaiveDate::parse_from_str` with `%Y-%m-%d` (its midnight), all as UTC.
//!    chrono's format parser is laxer than the formats look: a number may be
//!    preceded by any (Unicode) whitespace and has one or two digits (`%Y`:
//!    one to four, or a sign and any number); the space of the format stands
//!    for any run of whitespace, none included (`2024-05-0110:00` is read);
//!    `%.f` is optional; the year runs from -262143 to 262142.

use super::{fraction, two_digits};

/// A point in time, UTC: seconds since 1970-01-01T00:00:00Z (leap seconds not
/// counted, as in Unix time) and nanoseconds past that second.
///
/// During a leap second (`23:59:60`) the nanoseconds run past 999,999,999, as
/// chrono represents it: the instant sorts after `23:59:59.999999999` and
/// before the next minute. The derived order (seconds, then nanoseconds) is
/// therefore the order chrono's `DateTime<Utc>` had.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Instant {
    secs: i64,
    nanos: u32,
}

impl Instant {
    /// Whole seconds since 1970-01-01T00:00:00Z (Unix time).
    pub fn unix_seconds(self) -> i64 {
        self.secs
    }

    /// Nanoseconds past [`unix_seconds`](Self::unix_seconds): below
    /// 1,000,000,000, or below 2,000,000,000 during a leap second.
    pub fn subsec_nanos(self) -> u32 {
        self.nanos
    }

    /// Milliseconds since the epoch with the microseconds as a fraction (the
    /// viewer's timeline), as chrono's `timestamp_millis()` plus
    /// `timestamp_subsec_micros() % 1000` gave it.
    pub fn millis(self) -> f64 {
        (self.secs * 1000 + i64::from(self.nanos / 1_000_000)) as f64 + f64::from(self.nanos / 1000 % 1000) / 1000.0
    }
}

/// Reads an instant: RFC 3339 (`2024-05-01T12:00:00Z`, `+02:00` offsets), a
/// date-time without zone (taken as UTC) or a date (its midnight, UTC).
/// Surrounding whitespace is ignored. The module's documentation has the
/// exact grammar.
pub fn parse_instant(s: &str) -> Option<Instant> {
    let s = s.trim();
    rfc3339(s).or_else(|| naive(s))
}

/// chrono's `parse_rfc3339`.
fn rfc3339(s: &str) -> Option<Instant> {
    let [y0, y1, y2, y3, b'-', mo0, mo1, b'-', d0, d1, b'T' | b't' | b' ', h0, h1, b':', mi0, mi1, b':', s0, s1, rest @ ..] =
        s.as_bytes()
    else {
        return None;
    };
    let year = two_digits(*y0, *y1)? * 100 + two_digits(*y2, *y3)?;
    let day = days_from_civil(i64::from(year), two_digits(*mo0, *mo1)?, two_digits(*d0, *d1)?)?;
    let (hour, minute) = (two_digits(*h0, *h1)?, two_digits(*mi0, *mi1)?);
    let (second, mut nanos) = leap(two_digits(*s0, *s1)?);
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let rest = match rest {
        [b'.', frac @ ..] => {
            let (n, digits) = fraction(frac)?;
            nanos += n;
            frac.get(digits..)?
        }
        _ => rest,
    };
    let offset = match rest {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h0, h1, b':', m0 @ b'0'..=b'5', m1] => signed(*sign == b'-', two_digits(*h0, *h1)?, two_digits(*m0, *m1)?)?,
        // U+2212 MINUS SIGN.
        [0xE2, 0x88, 0x92, h0, h1, b':', m0 @ b'0'..=b'5', m1] => signed(true, two_digits(*h0, *h1)?, two_digits(*m0, *m1)?)?,
        _ => return None,
    };
    Some(Instant { secs: at(day, hour, minute, second) - offset, nanos })
}

/// An offset in seconds east of UTC; chrono's `FixedOffset` takes less than a day.
fn signed(negative: bool, hours: u32, minutes: u32) -> Option<i64> {
    let secs = i64::from(hours * 3600 + minutes * 60);
    (secs < 86_400).then_some(if negative { -secs } else { secs })
}

/// chrono's `parse_from_str` with the four date-time formats, then the date
/// alone: they share the date, and what follows it decides which one can
/// succeed.
fn naive(s: &str) -> Option<Instant> {
    let (year, s) = year(s)?;
    let s = s.strip_prefix('-')?;
    let (month, s) = number(s, 2)?;
    let s = s.strip_prefix('-')?;
    let (day_of_month, s) = number(s, 2)?;
    let day = days_from_civil(year, month, day_of_month)?;
    if s.is_empty() {
        return Some(Instant { secs: at(day, 0, 0, 0), nanos: 0 });
    }
    // `T`, or the format's space: any whitespace, none included (the hour's
    // number skips whitespace itself, after a `T` as well).
    let s = s.strip_prefix('T').unwrap_or(s);
    let (hour, s) = number(s, 2)?;
    let s = s.strip_prefix(':')?;
    let (minute, s) = number(s, 2)?;
    let (second, nanos) = if s.is_empty() {
        (0, 0)
    } else {
        let s = s.strip_prefix(':')?;
        let (second, s) = number(s, 2)?;
        if second > 60 {
            return None;
        }
        let (second, nanos) = leap(second);
        // `%.f`: optional, but a `.` needs a digit.
        let (frac, rest) = match s.strip_prefix('.') {
            Some(f) => {
                let (n, digits) = fraction(f.as_bytes())?;
                (n, f.get(digits..)?)
            }
            None => (0, s),
        };
        if !rest.is_empty() {
            return None;
        }
        (second, nanos + frac)
    };
    if hour > 23 || minute > 59 {
        return None;
    }
    Some(Instant { secs: at(day, hour, minute, second), nanos })
}

/// `:60` is the 59th second with a second's worth of extra nanoseconds.
fn leap(second: u32) -> (u32, u32) {
    if second == 60 {
        (59, 1_000_000_000)
    } else {
        (second, 0)
    }
}

fn at(day: i64, hour: u32, minute: u32, second: u32) -> i64 {
    day * 86_400 + i64::from(hour * 3600 + minute * 60 + second)
}

/// chrono's numeric item: whitespace, then 1 to `max` digits (any further
/// digits are left for what follows).
fn number(s: &str, max: usize) -> Option<(u32, &str)> {
    let (v, rest) = digits(s.trim_start(), max)?;
    // At most two digits here.
    Some((u32::try_from(v).ok()?, rest))
}

/// 1 to `max` ASCII digits; a value too large for any year saturates.
fn digits(s: &str, max: usize) -> Option<(u64, &str)> {
    let n = s.bytes().take(max).take_while(u8::is_ascii_digit).count();
    if n == 0 {
        return None;
    }
    let v = s.bytes().take(n).fold(0u64, |v, d| v.saturating_mul(10).saturating_add(u64::from(d - b'0')));
    Some((v, s.get(n..)?))
}

/// `%Y`: whitespace, then up to four digits, or a sign and any number of them.
fn year(s: &str) -> Option<(i64, &str)> {
    let s = s.trim_start();
    let (negative, (v, rest)) = match s.as_bytes().first() {
        Some(b'-') => (true, digits(s.get(1..)?, usize::MAX)?),
        Some(b'+') => (false, digits(s.get(1..)?, usize::MAX)?),
        _ => (false, digits(s, 4)?),
    };
    // Out of range either way (chrono's dates end at ±262143).
    let v = i64::try_from(v.min(1 << 40)).ok()?;
    Some((if negative { -v } else { v }, rest))
}

/// Days since 1970-01-01 of a proleptic Gregorian date, None when it does not
/// exist or lies outside chrono's `NaiveDate` (years -262143 to 262142).
fn days_from_civil(year: i64, month: u32, day: u32) -> Option<i64> {
    if !(-262_143..=262_142).contains(&year) {
        return None;
    }
    super::days_from_civil(year, month, day)
}

#[cfg(test)]
#[path = "instant_tests.rs"]
mod tests;
