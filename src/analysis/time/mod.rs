//! Timestamps: the one place the crate reads dates and times.
//!
//! Two grammars, because the two libraries the viewer mirrors accept
//! different sets of strings, and each is held to its library by tests:
//!
//! - [`instant`]: what chrono's `parse_from_rfc3339` and four `parse_from_str`
//!   formats accept. Event timestamps for `after:`/`before:`, the timeline
//!   (`trace.timestamps()`) and the run durations of the stats are read with
//!   it, so the three always agree on which timestamps are times.
//! - [`iso`]: what pydantic (speedate) accepts for a `datetime` field in lax
//!   mode (`_` as separator, `,` fractions, `±HHMM` offsets, …). The format
//!   validators (AgentLens, Agent Catalog, Docent) check timestamps with it
//!   and the Docent renderer orders transcripts by the values it reads.
//!
//! Both stand on the same calendar ([`days_from_civil`]) and digit readers.
//! A leaf: it depends on nothing else in the crate, so the importers' checks
//! can use it too.

pub mod instant;
pub mod iso;

pub use instant::{parse_instant, Instant};

/// Whether `year` (proleptic Gregorian) has a February 29.
pub fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

/// The number of days of `month` (1–12) in `year`; None for another month.
pub fn days_in_month(year: i64, month: u32) -> Option<u32> {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => Some(31),
        4 | 6 | 9 | 11 => Some(30),
        2 if is_leap(year) => Some(29),
        2 => Some(28),
        _ => None,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date; None when the date
/// does not exist (month 13, February 30). Any year: callers bound it as
/// their library does.
pub fn days_from_civil(year: i64, month: u32, day: u32) -> Option<i64> {
    if day == 0 || day > days_in_month(year, month)? {
        return None;
    }
    // Howard Hinnant's days_from_civil: years start in March, so that the
    // leap day ends one; eras of 400 years (146,097 days).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let month_from_march = i64::from((month + 9) % 12);
    let day_of_year = (153 * month_from_march + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    Some(era * 146_097 + day_of_era - 719_468)
}

/// The date of a day count since 1970-01-01 (the inverse of
/// [`days_from_civil`], Howard Hinnant's civil_from_days), for days on or
/// after 1970-01-01: the formats that write times as epoch numbers (OTLP's
/// nanoseconds, LangSmith's milliseconds) show them as RFC 3339 with it.
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, u32::try_from(m).unwrap_or(1), u32::try_from(d).unwrap_or(1))
}

/// Two ASCII digits as a number.
pub(crate) fn two_digits(a: u8, b: u8) -> Option<u32> {
    (a.is_ascii_digit() && b.is_ascii_digit()).then(|| u32::from(a - b'0') * 10 + u32::from(b - b'0'))
}

/// Fractional digits (one at least) at the start of `s`: nanoseconds from
/// the first nine (the rest are cut, as both libraries cut them), and how
/// many digits there were.
pub(crate) fn fraction(s: &[u8]) -> Option<(u32, usize)> {
    let digits = s.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    let mut nanos = 0;
    for i in 0..9 {
        nanos = nanos * 10 + s.get(i).filter(|_| i < digits).map_or(0, |d| u32::from(d - b'0'));
    }
    Some((nanos, digits))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_from_days_inverts_days_from_civil() {
        for days in [0i64, 59, 60, 365, 11_016, 19_782, 2_932_896] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), Some(days), "{days}");
        }
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
    }

    #[test]
    fn calendar() {
        assert_eq!(days_from_civil(1970, 1, 1), Some(0));
        assert_eq!(days_from_civil(2000, 3, 1), Some(11_017));
        assert_eq!(days_from_civil(1969, 12, 31), Some(-1));
        assert_eq!(days_from_civil(2024, 2, 29), Some(19_782));
        assert_eq!(days_from_civil(2023, 2, 29), None);
        assert_eq!(days_from_civil(1900, 2, 29), None);
        assert_eq!(days_from_civil(2000, 2, 29), Some(11_016));
        assert_eq!(days_from_civil(2024, 13, 1), None);
        assert_eq!(days_from_civil(2024, 4, 31), None);
        assert_eq!(days_from_civil(2024, 4, 0), None);
        assert_eq!(fraction(b"5Z"), Some((500_000_000, 1)));
        assert_eq!(fraction(b"1234567891234"), Some((123_456_789, 13)));
        assert_eq!(fraction(b"Z"), None);
    }
}
