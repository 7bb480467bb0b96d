//! [`parse_instant`] against the chrono calls it replaced: on every input the
//! two accept or reject alike, and read the same instant (seconds, nanoseconds,
//! the viewer's milliseconds and the order between instants).
//!
//! The inputs: every field at and past its bounds, in every digit count; all
//! month lengths, Feb 29 of leap and common years (centuries included);
//! leap seconds; every separator and offset form; fractions of 0 to 12
//! digits; whitespace (Unicode too) around and inside; garbage before and
//! after; empty, huge and non-ASCII inputs; then random mutations of the
//! accepted ones. Deterministic (a fixed seed): a failure names its input.

use super::*;
use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};

/// The parser this module replaced (src/query.rs before it), verbatim.
fn chrono_instant(s: &str) -> Option<DateTime<Utc>> {
    let s = s.trim();
    if let Ok(t) = DateTime::parse_from_rfc3339(s) {
        return Some(t.with_timezone(&Utc));
    }
    for fmt in ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%d %H:%M:%S%.f", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"] {
        if let Ok(t) = NaiveDateTime::parse_from_str(s, fmt) {
            return Some(t.and_utc());
        }
    }
    NaiveDate::parse_from_str(s, "%Y-%m-%d").ok().and_then(|d| d.and_hms_opt(0, 0, 0)).map(|t| t.and_utc())
}

/// What src/wasm.rs computed from chrono's instant for the viewer.
fn chrono_millis(t: DateTime<Utc>) -> f64 {
    t.timestamp_millis() as f64 + f64::from(t.timestamp_subsec_micros() % 1000) / 1000.0
}

/// Compares both parsers on inputs, and each accepted instant with the one
/// accepted before it (their order).
#[derive(Default)]
struct Diff {
    accepted: usize,
    rejected: usize,
    /// Accepted by `parse_from_rfc3339` (the rest by the formats).
    rfc3339: usize,
    /// Accepted leap seconds.
    leap: usize,
    previous: Option<(Instant, DateTime<Utc>)>,
    /// Accepted inputs, the seeds of the mutations.
    valid: Vec<String>,
}

impl Diff {
    fn check(&mut self, s: &str) -> bool {
        let old = chrono_instant(s);
        let new = parse_instant(s);
        assert_eq!(
            new.map(|i| (i.unix_seconds(), i.subsec_nanos())),
            old.map(|t| (t.timestamp(), t.timestamp_subsec_nanos())),
            "new vs chrono on {s:?} (chrono: {old:?})"
        );
        let (Some(new), Some(old)) = (new, old) else {
            self.rejected += 1;
            return false;
        };
        assert_eq!(new.millis().to_bits(), chrono_millis(old).to_bits(), "millis of {s:?}");
        if let Some((p_new, p_old)) = self.previous {
            assert_eq!(new.cmp(&p_new), old.cmp(&p_old), "order of {s:?} and {p_old:?}");
        }
        self.previous = Some((new, old));
        self.accepted += 1;
        self.rfc3339 += usize::from(DateTime::parse_from_rfc3339(s.trim()).is_ok());
        self.leap += usize::from(new.subsec_nanos() >= 1_000_000_000);
        if s.len() < 200 && self.valid.len() < 100_000 {
            self.valid.push(s.to_string());
        }
        true
    }
}

/// splitmix64: a small, fixed-seed generator (no dependency).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    fn digits(&mut self, n: usize) -> String {
        (0..n).map(|_| char::from(b'0' + self.below(10) as u8)).collect()
    }
}

/// A number in 1 or 2 digits (`wild`: 3 too), sometimes after whitespace.
fn field(v: u32, wild: bool, rng: &mut Rng) -> String {
    let s = match rng.below(if wild { 10 } else { 9 }) {
        0 | 1 => format!("{v}"),
        9 => format!("{v:03}"),
        _ => format!("{v:02}"),
    };
    match rng.below(if wild { 25 } else { 100 }) {
        0 => format!(" {s}"),
        1 => format!("\u{a0}{s}"),
        2 => format!("\t {s}"),
        _ => s,
    }
}

const YEARS: &[&str] = &[
    "0000", "0001", "0004", "0100", "0400", "1600", "1700", "1800", "1899", "1900", "1969", "1970", "1971", "1999", "2000",
    "2001", "2023", "2024", "2025", "2100", "2400", "9999", "0", "1", "24", "999", "10000", "02024", "+2024", "-2024", "+0", "-0",
    "-1", "-0001", "-0004", "-0100", "-0400", "+10000", "-10000", "+262142", "+262143", "-262143", "-262144",
    "+00000000000000000002024", "-00000000000000000000000000000000000004", "+9223372036854775807", "+9223372036854775808",
    "-9223372036854775808", "-9223372036854775809", "+99999999999999999999999", "-", "+", "", "２０２４", " 2024", "\u{a0}2024",
    "++2024", "+-2024", "- 2024", "+ 2024", "20 24", "2024a",
];
/// Years whose Feb 29 exists or not, centuries included.
const LEAP_YEARS: &[&str] = &["0000", "0004", "0100", "0400", "1900", "2000", "2023", "2024", "2100", "2400", "-0001", "-0004", "-0100", "-0400", "+262142", "-262143"];
const DATE_SEPARATORS: &[&str] = &["/", "", "--", " -", "- ", "\u{2010}", "−", "T"];
const DATE_TIME_SEPARATORS: &[&str] = &["T", " ", "t", "  ", "\t", "\n", "\u{a0}", "\u{3000}", "\u{2003}", "", "TT", "_", "T ", " T", "Z", "\u{200b}"];
const TIME_SEPARATORS: &[&str] = &["", "::", " :", ": ", ".", "-", "："];
const SPACES: &[&str] = &[" ", "  ", "\t", "\n", "\r\n", "\u{a0}", "\u{2003}", "\u{3000}", "\u{85}"];
const GARBAGE: &[&str] = &["\u{feff}", "\u{200b}", "x", "é", "0", "5", "\0", "-", "+", "T", "Z", ".", ":", "Z+01:00"];

/// A fraction: none, or `.` and 0 to 12 digits (`wild`: other forms too).
fn fraction_text(wild: bool, rng: &mut Rng) -> String {
    if rng.chance(35) {
        return String::new();
    }
    let n = if wild { rng.below(13) } else { 1 + rng.below(12) };
    let digits = match rng.below(4) {
        0 => "9".repeat(n),
        1 => "0".repeat(n),
        _ => rng.digits(n),
    };
    match if wild { rng.below(8) } else { 7 } {
        0 => format!(",{digits}"),
        1 => format!(". {digits}"),
        2 => format!(".{digits}.5"),
        3 => format!("..{digits}"),
        _ => format!(".{digits}"),
    }
}

/// None, `Z`, `z` or `±hh:mm` (`wild`: hours and minutes past their ends,
/// other signs and separators, names).
fn offset_text(wild: bool, rng: &mut Rng) -> String {
    match rng.below(12) {
        0..=2 => String::new(),
        3 if wild => rng.pick(&[" Z", "ZZ", "UTC", "GMT", "+", "-", "Zz", "\u{ff3a}", "Z ", "+2"]).to_string(),
        3 | 4 => rng.pick(&["Z", "z"]).to_string(),
        _ if wild => {
            let sign = rng.pick(&["+", "-", "−", "", "±", "–", " +"]);
            let hours = field(rng.below(27) as u32, true, rng);
            let colon = rng.pick(&[":", ":", ":", ":", "", "::", " "]);
            let minutes = match rng.below(8) {
                0 => String::new(),
                _ => field(rng.below(62) as u32, true, rng),
            };
            let tail = if rng.chance(5) { ":00" } else { "" };
            format!("{sign}{hours}{colon}{minutes}{tail}")
        }
        _ => {
            let sign = rng.pick(&["+", "-", "+", "-", "−"]);
            format!("{sign}{:02}:{:02}", rng.below(24), rng.below(60))
        }
    }
}

/// A date, maybe a time, maybe an offset. Half of them tame (each field in
/// its range, in one or two digits; the usual separators), half wild (each
/// part drawn from its bounds and from forms just past them).
fn generate(rng: &mut Rng) -> String {
    let wild = rng.chance(50);
    // Out of its range, or a valid value (favouring the ends).
    let value = |rng: &mut Rng, first: usize, last: usize| {
        if wild && rng.chance(20) {
            rng.pick(&[0, first.saturating_sub(1), last + 1, last + 2, 99]) as u32
        } else if rng.chance(20) {
            rng.pick(&[first, last]) as u32
        } else {
            (first + rng.below(last - first + 1)) as u32
        }
    };
    let year = if rng.chance(30) || !wild && rng.chance(50) { rng.digits(4) } else { rng.pick(YEARS).to_string() };
    let month = value(rng, 1, 12);
    let day = if rng.chance(30) { 28 + rng.below(4) as u32 } else { value(rng, 1, 31) };
    let dash = |rng: &mut Rng| if !wild || rng.chance(80) { "-" } else { rng.pick(DATE_SEPARATORS) };
    let mut s = format!("{year}{}{}{}{}", dash(rng), field(month, wild, rng), dash(rng), field(day, wild, rng));
    if rng.chance(85) {
        let colon = |rng: &mut Rng| if !wild || rng.chance(85) { ":" } else { rng.pick(TIME_SEPARATORS) };
        s.push_str(if !wild || rng.chance(50) { rng.pick(&["T", " ", "t"]) } else { rng.pick(DATE_TIME_SEPARATORS) });
        s.push_str(&field(value(rng, 0, 23), wild, rng));
        s.push_str(colon(rng));
        s.push_str(&field(value(rng, 0, 59), wild, rng));
        if rng.chance(75) {
            s.push_str(colon(rng));
            let second = if rng.chance(10) { 60 } else { value(rng, 0, 59) };
            s.push_str(&field(second, wild, rng));
            s.push_str(&fraction_text(wild, rng));
        }
        s.push_str(&offset_text(wild, rng));
    }
    if rng.chance(15) {
        s.insert_str(0, if wild && rng.chance(50) { rng.pick(GARBAGE) } else { rng.pick(SPACES) });
    }
    if rng.chance(15) {
        s.push_str(if wild && rng.chance(50) { rng.pick(GARBAGE) } else { rng.pick(SPACES) });
    }
    s
}

/// Characters a mutation inserts or substitutes.
const ALPHABET: &[char] = &[
    '0', '1', '2', '5', '6', '9', '-', '+', ':', '.', ',', 'T', 't', 'Z', 'z', ' ', '\t', '\u{a0}', '\u{3000}', '−', 'é', '０', 'x',
];

fn mutate(rng: &mut Rng, s: &str) -> String {
    let mut chars: Vec<char> = s.chars().collect();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(chars.len() + 1);
        match rng.below(6) {
            0 => chars.insert(at, rng.pick(ALPHABET)),
            1 if at < chars.len() => chars[at] = rng.pick(ALPHABET),
            2 if at < chars.len() => {
                chars.remove(at);
            }
            3 if at + 1 < chars.len() => chars.swap(at, at + 1),
            4 if at < chars.len() => chars.insert(at, chars[at]),
            5 => chars.truncate(at),
            _ => {}
        }
    }
    chars.into_iter().collect()
}

#[test]
fn same_as_chrono_on_generated_and_mutated_inputs() {
    let mut diff = Diff::default();
    let mut rng = Rng(0x5EED_DA7E);
    for _ in 0..300_000 {
        diff.check(&generate(&mut rng));
    }
    let (accepted, rejected) = (diff.accepted, diff.rejected);
    // Both sides well covered, and both of chrono's parsers, and leap seconds.
    assert!(accepted > 50_000 && rejected > 50_000, "accepted {accepted}, rejected {rejected}");
    assert!(diff.rfc3339 > 10_000 && accepted - diff.rfc3339 > 10_000, "RFC 3339: {} of {accepted}", diff.rfc3339);
    assert!(diff.leap > 1000, "leap seconds: {}", diff.leap);
    let seeds = std::mem::take(&mut diff.valid);
    for _ in 0..300_000 {
        let seed = &seeds[rng.below(seeds.len())];
        let m = mutate(&mut rng, seed);
        diff.check(&m);
    }
    assert!(diff.accepted - accepted > 20_000, "mutations accepted: {}", diff.accepted - accepted);
}

#[test]
fn same_as_chrono_on_every_date_field() {
    let mut diff = Diff::default();
    // Every month and day, just past their ends too, in each digit count,
    // in years whose Feb 29 exists and does not; as dates, naive date-times
    // and RFC 3339.
    for year in LEAP_YEARS {
        for month in 0..=13 {
            for day in 0..=32 {
                for (m, d) in [(format!("{month:02}"), format!("{day:02}")), (format!("{month}"), format!("{day}")), (format!("{month:03}"), format!("{day:03}"))] {
                    for tail in ["", "T12:00", " 23:59:59.5", "T00:00:00Z", " 00:00:00+23:59", "t23:59:60−23:59"] {
                        diff.check(&format!("{year}-{m}-{d}{tail}"));
                    }
                }
            }
        }
    }
    assert!(diff.accepted > 1000 && diff.rejected > 1000);
}

#[test]
fn same_as_chrono_on_every_time_field() {
    let mut diff = Diff::default();
    for hour in 0..=25 {
        for minute in 0..=61 {
            for second in 0..=61 {
                diff.check(&format!("2024-02-29T{hour:02}:{minute:02}:{second:02}Z"));
                diff.check(&format!("2023-12-31 {hour}:{minute}:{second}"));
            }
            diff.check(&format!("2024-02-29 {hour:02}:{minute:02}"));
            diff.check(&format!("2024-02-29T{hour}:{minute:03}"));
        }
    }
    // Offsets: every hour and minute, each sign.
    for sign in ["+", "-", "−", ""] {
        for hour in 0..=25 {
            for minute in 0..=61 {
                diff.check(&format!("1970-01-01T00:00:00{sign}{hour:02}:{minute:02}"));
                diff.check(&format!("9999-12-31T23:59:60.999999999{sign}{hour:02}:{minute:02}"));
                diff.check(&format!("0000-01-01 00:00:00{sign}{hour:02}{minute:02}"));
            }
        }
    }
    // Fractions of 0 to 12 digits, on plain and leap seconds, with and without zone.
    let mut rng = Rng(12);
    for n in 0..=12 {
        for digits in ["9".repeat(n), "0".repeat(n), "123456789012".get(..n).unwrap_or_default().to_string(), rng.digits(n)] {
            for second in ["59", "60", "00", "5"] {
                for zone in ["", "Z", "+01:00", "-00:30"] {
                    diff.check(&format!("2016-12-31T23:59:{second}.{digits}{zone}"));
                    diff.check(&format!("2016-12-31 23:59:{second}.{digits}{zone}"));
                }
            }
        }
    }
    assert!(diff.accepted > 1000 && diff.rejected > 1000);
}

#[test]
fn same_as_chrono_on_odd_inputs() {
    let mut diff = Diff::default();
    let huge_fraction = format!("2024-05-01T10:00:00.{}Z", "9".repeat(100_000));
    let huge_year = format!("+{}2024-05-01", "0".repeat(100_000));
    let many_spaces = format!("2024-05-01{}10:00", " ".repeat(100_000));
    for s in [
        "",
        " ",
        "\u{a0}\u{3000}\n",
        "T",
        "Z",
        "-",
        "2024",
        "2024-05",
        "2024-05-",
        "2024-05-01T",
        "2024-05-01T10",
        "2024-05-01T10:",
        "2024-05-01T10:00:",
        "2024-05-01T10:00:00.",
        "2024-05-01T10:00:00.Z",
        "2024-05-01T10:00:00+",
        "2024-05-01T10:00:00+02",
        "2024-05-01T10:00:00+02:",
        "2024-05-01T10:00:00+02:0",
        "2024-05-0110:00",
        "2024-05-011:00",
        "2024-5-110:00",
        "2024-05-01T10:00:00Z ",
        " \t2024-05-01T10:00:00Z\n",
        "2024-05-01T10:00:00Z\0",
        "\u{feff}2024-05-01",
        "２０２４-０５-０１",
        "2024‐05‐01",
        "2024-05-01T10:00:00–02:00",
        "2024-05-01T10:00:00−02:00",
        "2024-05-01T10:00:00\u{2212}02:00",
        "2024-05-01T10:00:00.5−02:00",
        "2024-05-01é",
        "é2024-05-01",
        "May 1",
        "yesterday",
        "1714557600",
        &"9".repeat(100_000),
        &huge_fraction,
        &huge_year,
        &many_spaces,
    ] {
        diff.check(s);
    }
    assert!(diff.accepted >= 10 && diff.rejected >= 10, "accepted {}, rejected {}", diff.accepted, diff.rejected);
}

#[test]
fn leap_seconds_sort_between_the_minutes() {
    let at = |s: &str| parse_instant(s).unwrap();
    let leap = at("2016-12-31T23:59:60Z");
    assert!(at("2016-12-31T23:59:59.999999999Z") < leap);
    assert!(leap < at("2016-12-31T23:59:60.5Z"));
    assert!(at("2016-12-31T23:59:60.999999999Z") < at("2017-01-01T00:00:00Z"));
    assert_eq!((leap.unix_seconds(), leap.subsec_nanos()), (1_483_228_799, 1_000_000_000));
    // Any minute may end in one, in any offset.
    assert_eq!(at("2024-05-01T12:30:60+02:00"), at("2024-05-01 10:30:60"));
}
