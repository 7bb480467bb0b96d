//! Runs of ASCII byte classes, one of which every match of a `/regex/`
//! contains: the prefilter for a regex without a required literal
//! (`/\d{3}-\d{4}/`), where [`super::required_literal`] finds none.
//!
//! `regex-lite` has no prefilter of its own: without one, its NFA runs over
//! every byte of every event (~3 s on 100 MB). Each position of a run is the
//! set of bytes the pattern allows there (`\d`: the digits; `-`: `-`; a
//! letter: both its cases, whatever the `i` flag says, which only widens
//! it). The runs are found in the text index ([`find`]: memchr on a position
//! that is one byte, like the `-`, else a Horspool scan), and the regex runs
//! only on the events that hold one.
//!
//! The walk is [`super::required_literal`]'s, with classes as atoms: only
//! what stands for exactly one ASCII byte is one (`\d`, `\w`, `\s`, a simple
//! `[...]` of ASCII characters and ranges, a literal); anything else (`.`,
//! groups, negated classes, assertions, `*`, `?`) ends the run, and a
//! quantifier `{n}` repeats the atom. Since `regex-lite`'s classes are ASCII,
//! a match of an atom is one byte of the text.

use super::required_literal::{branches, has_verbose_flag, is_flag_group, skip_class, skip_group, skip_quantifier};

/// A set of ASCII bytes (bit `b` for byte `b`).
pub(crate) type ByteSet = u128;

/// Runs worth less than this many bits (the sum over their positions of
/// log2(128 / set size)) find too much to be worth a scan: `\d{3}` (10 bits).
const MIN_BITS: f64 = 16.0;

/// The longest (most selective) run of byte classes of each top-level
/// branch of `pattern`; None when a branch has none worth a scan.
pub(crate) fn required_classes(pattern: &str) -> Option<Vec<Vec<ByteSet>>> {
    let chars = pattern.as_bytes();
    if has_verbose_flag(chars) {
        return None;
    }
    branches(chars).into_iter().map(branch_classes).collect()
}

fn bits(run: &[ByteSet]) -> f64 {
    run.iter().map(|s| (128.0 / f64::from(s.count_ones().max(1))).log2()).sum()
}

fn branch_classes(chars: &[u8]) -> Option<Vec<ByteSet>> {
    let mut best: Vec<ByteSet> = Vec::new();
    let mut run: Vec<ByteSet> = Vec::new();
    let end_run = |best: &mut Vec<ByteSet>, run: &mut Vec<ByteSet>| {
        if bits(run) > bits(best) {
            std::mem::swap(best, run);
        }
        run.clear();
    };
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        let (atom, next) = match c {
            b'(' => {
                let end = skip_group(chars, i);
                if is_flag_group(chars, i) && matches!(chars.get(end), Some(b'*' | b'+' | b'?' | b'{')) {
                    return None;
                }
                (None, end)
            }
            b'[' => {
                let end = skip_class(chars, i);
                (chars.get(i + 1..end.saturating_sub(1)).and_then(class), end)
            }
            b'\\' => escape(chars, i),
            b'.' | b'^' | b'$' => (None, i + 1),
            b'*' | b'+' | b'?' | b'{' => (None, skip_quantifier(chars, i)),
            c if c.is_ascii() => (Some(fold(1 << c)), i + 1),
            _ => (None, i + 1),
        };
        i = next;
        // Quantifiers: `{n}` repeats the atom; `+`, `{n,}`, `{n,m}` (n >= 1) give
        // n of them, then the run ends; `*`, `?`, `{0,…}` make it optional.
        let mut counts: Vec<(usize, bool)> = Vec::new();
        while let Some(&q) = chars.get(i) {
            let after = skip_quantifier(chars, i);
            match q {
                b'*' | b'?' => counts.push((0, true)),
                b'+' => counts.push((1, true)),
                b'{' => counts.push(repetition(chars.get(i + 1..after).unwrap_or_default())),
                _ => break,
            }
            i = after;
        }
        let (times, open) = counts.iter().fold((1usize, false), |(n, open), (m, o)| (n.saturating_mul(*m), open || *o));
        match atom {
            Some(set) if times > 0 => {
                run.extend(std::iter::repeat_n(set, times.min(64)));
                if open || times > 64 {
                    end_run(&mut best, &mut run);
                }
            }
            _ => end_run(&mut best, &mut run),
        }
    }
    end_run(&mut best, &mut run);
    (bits(&best) >= MIN_BITS).then_some(best)
}

/// `{n}` (exactly n), `{n,}` or `{n,m}` (at least n, the run then ends), the
/// braces' contents (and a lazy `?`) in `inner`.
fn repetition(inner: &[u8]) -> (usize, bool) {
    let inner = std::str::from_utf8(inner).unwrap_or("").trim_end_matches('?').trim_end_matches('}');
    match inner.split_once(',') {
        None => (inner.trim().parse().unwrap_or(0), false),
        Some((n, m)) => (n.trim().parse().unwrap_or(0), n.trim() != m.trim()),
    }
}

/// Both cases of every letter in `set`.
fn fold(set: ByteSet) -> ByteSet {
    const UPPER: ByteSet = ((1 << 26) - 1) << b'A';
    const LOWER: ByteSet = ((1 << 26) - 1) << b'a';
    set | ((set & UPPER) << 32) | ((set & LOWER) >> 32)
}

const DIGITS: ByteSet = ((1 << 10) - 1) << b'0';
const WORD: ByteSet = DIGITS | (((1 << 26) - 1) << b'A') | (((1 << 26) - 1) << b'a') | (1 << b'_');
const SPACE: ByteSet = (1 << b'\t') | (1 << b'\n') | (1 << 0x0b) | (1 << 0x0c) | (1 << b'\r') | (1 << b' ');

/// The set of one escape's byte (`\d`, `\w`, `\s`, `\n`, `\t`, `\r`,
/// escaped punctuation), else None; and where the escape ends.
fn escape(chars: &[u8], i: usize) -> (Option<ByteSet>, usize) {
    let set = match chars.get(i + 1) {
        Some(b'd') => DIGITS,
        Some(b'w') => WORD,
        Some(b's') => SPACE,
        Some(b'n') => 1 << b'\n',
        Some(b't') => 1 << b'\t',
        Some(b'r') => 1 << b'\r',
        Some(&c) if c.is_ascii_punctuation() && c != b'<' && c != b'>' => 1 << c,
        // Everything else (assertions, `\x41`, `\p{…}`): the literal walk's escape.
        _ => return (None, super::required_literal::escape_end(chars, i)),
    };
    (Some(fold(set)), i + 2)
}

/// The set of a simple bracket class, `inner` between the brackets: ASCII
/// characters, ranges, `\d`, `\w`, `\s` and escaped characters; None for
/// anything else (negation, nesting, `[:alpha:]`, set operations).
fn class(inner: &[u8]) -> Option<ByteSet> {
    if inner.is_empty() || inner.first() == Some(&b'^') || inner.contains(&b'[') || !inner.is_ascii() {
        return None;
    }
    if inner.windows(2).any(|w| matches!(w, b"&&" | b"--" | b"~~")) {
        return None;
    }
    // One member at `j`: its set, the byte it is (a range's end), where it ends.
    let member = |j: usize| -> Option<(ByteSet, Option<u8>, usize)> {
        match *inner.get(j)? {
            b'\\' => {
                let (set, end) = escape(inner, j);
                let escaped = inner.get(j + 1).copied().filter(u8::is_ascii_punctuation);
                Some((set?, escaped, end))
            }
            c => Some((1 << c, Some(c), j + 1)),
        }
    };
    let mut set: ByteSet = 0;
    let mut j = 0;
    while j < inner.len() {
        let (s, low, end) = member(j)?;
        if inner.get(end) == Some(&b'-') && end + 1 < inner.len() {
            let (_, high, after) = member(end + 1)?;
            let (low, high) = (low?, high?);
            if low > high {
                return None;
            }
            set |= (low..=high).fold(0, |acc: ByteSet, b| acc | (1 << b));
            j = after;
        } else {
            set |= s;
            j = end;
        }
    }
    Some(fold(set))
}

/// The first position at or after `from` where `hay` holds `run` (each byte
/// in its set): Horspool's scan, whose shift on the window's last byte is
/// how far back a position allows that byte.
pub(crate) fn find(hay: &[u8], run: &Shifts, from: usize) -> Option<usize> {
    let m = run.sets.len();
    let last_set = *run.sets.last()?;
    let fits = |p: usize| hay.get(p..p + m).is_some_and(|w| run.sets.iter().zip(w).all(|(s, b)| in_set(*s, *b)));
    if let Some((offset, a, b)) = run.anchor {
        // A position that is one byte (or a letter's two cases): memchr finds
        // it with SIMD, and the window around it is checked.
        let mut at = from + offset;
        while let Some(found) = hay.get(at..).and_then(|rest| if a == b { memchr::memchr(a, rest) } else { memchr::memchr2(a, b, rest) }) {
            let p = at + found - offset;
            if fits(p) {
                return Some(p);
            }
            at += found + 1;
        }
        return None;
    }
    let mut p = from;
    while let Some(&b) = hay.get(p + m - 1) {
        if in_set(last_set, b) && run.sets.iter().zip(hay.get(p..p + m - 1).unwrap_or_default()).all(|(s, b)| in_set(*s, *b)) {
            return Some(p);
        }
        p += usize::from(run.shift.get(usize::from(b)).copied().unwrap_or(1));
    }
    None
}

fn in_set(set: ByteSet, b: u8) -> bool {
    b < 128 && set & (1 << b) != 0
}

/// A run with its Horspool shift table.
#[derive(Debug, Clone)]
pub(crate) struct Shifts {
    sets: Vec<ByteSet>,
    shift: Box<[u8; 256]>,
    /// A position whose set is one byte or two (a letter's cases), the
    /// rarest such: (offset, the bytes).
    anchor: Option<(usize, u8, u8)>,
}

impl Shifts {
    pub(crate) fn len(&self) -> usize {
        self.sets.len()
    }

    /// `sets` must be 1 to 64 long (the walk makes no longer runs).
    pub(crate) fn new(sets: Vec<ByteSet>) -> Shifts {
        let m = sets.len().clamp(1, 64);
        let mut shift = Box::new([u8::try_from(m).unwrap_or(64); 256]);
        for (i, set) in sets.iter().enumerate().take(m - 1) {
            for b in 0..128u8 {
                if in_set(*set, b) {
                    if let Some(s) = shift.get_mut(usize::from(b)) {
                        *s = u8::try_from(m - 1 - i).unwrap_or(1);
                    }
                }
            }
        }
        let anchor = sets
            .iter()
            .enumerate()
            .filter_map(|(i, set)| {
                let bytes: Vec<u8> = (0..128u8).filter(|b| in_set(*set, *b)).collect();
                match bytes.as_slice() {
                    [a] => Some((i, *a, *a)),
                    [a, b] if a.eq_ignore_ascii_case(b) => Some((i, *a, *b)),
                    _ => None,
                }
            })
            .min_by_key(|(_, a, _)| super::ci_find::rank(*a));
        Shifts { sets, shift, anchor }
    }
}

#[cfg(test)]
mod tests;
