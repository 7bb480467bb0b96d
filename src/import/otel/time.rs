//! OTLP times (`startTimeUnixNano`: nanoseconds since the Unix epoch, as a
//! decimal string or a number) as RFC 3339 strings, which the rest of the
//! crate reads with `analysis::time`. The crate has a parser but no
//! formatter, so the one conversion lives here.

use serde_json::Value;

/// A `fixed64` nanosecond time as protobuf's JSON mapping accepts it: a
/// decimal string or a whole number.
pub fn nanos(v: &Value) -> Option<u64> {
    match v {
        Value::String(s) => s.parse::<u64>().ok(),
        Value::Number(n) => n.as_u64().or_else(|| n.as_f64().filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < 1.8e19).map(|f| f as u64)),
        _ => None,
    }
}

/// `2024-05-01T12:00:00.123456789Z`; 0 (unset in OTLP) gives None.
pub fn rfc3339(nanos: u64) -> Option<String> {
    if nanos == 0 {
        return None;
    }
    let secs = nanos / 1_000_000_000;
    let frac = nanos % 1_000_000_000;
    let days = i64::try_from(secs / 86_400).ok()?;
    let rem = secs % 86_400;
    let (y, m, d) = crate::analysis::time::civil_from_days(days);
    let (hh, mm, ss) = (rem / 3600, (rem % 3600) / 60, rem % 60);
    let Ok(year @ 0..=9999) = u64::try_from(y) else {
        return Some(format!("{y:04}-{m:02}-{d:02}T{hh:02}:{mm:02}:{ss:02}.{frac:09}Z"));
    };
    // Digit by digit: `format!` took ~3,600 instructions a call, four calls
    // a span. In 32 bits (every field fits): a 64-bit division by 10 is a
    // `div` instruction in V8's code, a 32-bit one a multiplication.
    let mut out = [0u8; 30];
    let mut at = 0;
    for (n, width, after) in [(year, 4, b'-'), (u64::from(m), 2, b'-'), (u64::from(d), 2, b'T'), (hh, 2, b':'), (mm, 2, b':'), (ss, 2, b'.'), (frac, 9, b'Z')] {
        let mut n = u32::try_from(n).ok()?;
        for k in (0..width).rev() {
            if let Some(c) = out.get_mut(at + k) {
                *c = b'0' + (n % 10) as u8;
            }
            n /= 10;
        }
        if let Some(c) = out.get_mut(at + width) {
            *c = after;
        }
        at += width + 1;
    }
    out.get(..at).and_then(|s| std::str::from_utf8(s).ok()).map(str::to_string)
}

/// Milliseconds between two nanosecond times (None when the end is unset
/// or before the start).
pub fn duration_ms(start: u64, end: u64) -> Option<f64> {
    (start > 0 && end >= start).then(|| (end - start) as f64 / 1e6)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::time::parse_instant;

    #[test]
    fn round_trips_through_the_crate_parser() {
        for n in [1u64, 1_700_000_000_123_456_789, 951_782_400_000_000_000, 4_102_444_799_999_999_999, 86_399_000_000_000] {
            let s = rfc3339(n).unwrap();
            let i = parse_instant(&s).unwrap_or_else(|| panic!("{s}"));
            assert_eq!(i.unix_seconds() as u64 * 1_000_000_000 + u64::from(i.subsec_nanos()), n, "{s}");
        }
        assert_eq!(rfc3339(1_700_000_000_123_456_789).as_deref(), Some("2023-11-14T22:13:20.123456789Z"));
        assert_eq!(rfc3339(0), None);
        // Digit by digit, as `format!` writes it.
        for n in [1u64, 9, 1_000_000_001, 1_767_225_600_002_000_000, 4_102_444_799_999_999_999, u64::MAX] {
            let (secs, frac) = (n / 1_000_000_000, n % 1_000_000_000);
            let (y, m, d) = crate::analysis::time::civil_from_days((secs / 86_400) as i64);
            let rem = secs % 86_400;
            let expected = format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{frac:09}Z", rem / 3600, (rem % 3600) / 60, rem % 60);
            assert_eq!(rfc3339(n), Some(expected));
        }
    }

    #[test]
    fn nanos_forms() {
        assert_eq!(nanos(&Value::from("1700000000000000000")), Some(1_700_000_000_000_000_000));
        assert_eq!(nanos(&Value::from(5u64)), Some(5));
        assert_eq!(nanos(&Value::from("x")), None);
        assert_eq!(nanos(&Value::from(-1)), None);
        assert_eq!(duration_ms(1_000_000, 3_500_000), Some(2.5));
        assert_eq!(duration_ms(3, 1), None);
    }
}
