//! ASCII case-insensitive substring search, over bytes as they are: what
//! lets a free-text query read the trace's source without a lower-cased copy
//! of it (`in_place`), and a regex's literal prefilter read the text index
//! as is.
//!
//! memchr's memmem finds exact bytes only. This is its idea, case-folded:
//! the two rarest bytes of the needle are compared 16 positions at a time
//! (SIMD, `crate::json::simd::pair16`; a letter compared with 0x20 ORed in,
//! which takes its upper case too), and only where both agree is the whole
//! needle compared. In the same blocks it can look for pairs of adjacent
//! bytes too (`simd::pairs16`): what could hide the needle from a search of
//! the bytes (a `\u` escape, the UTF-8 of `K`), so that one pass finds both.

use crate::json::simd::{self, Folded};

/// What [`CiFinder::find_or_pair`] stopped at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Found {
    Needle(usize),
    /// One of the pairs asked for.
    Pair(usize),
}

#[derive(Debug, Clone)]
pub(crate) struct CiFinder {
    /// ASCII letters lower-cased; other bytes as given.
    needle: Box<[u8]>,
    first: (usize, Folded),
    second: (usize, Folded),
}

impl CiFinder {
    pub(crate) fn new(needle: &[u8]) -> CiFinder {
        let needle: Box<[u8]> = needle.iter().map(u8::to_ascii_lowercase).collect();
        let folded = |i: usize| {
            let byte = needle.get(i).copied().unwrap_or(0);
            (i, Folded { byte, fold: if byte.is_ascii_lowercase() { 0x20 } else { 0 } })
        };
        // The rarest byte, then the rarest other one (or the same position).
        let by_rank = |skip: Option<u8>| {
            needle
                .iter()
                .enumerate()
                .filter(|(_, b)| Some(**b) != skip)
                .min_by_key(|(_, b)| rank(**b))
                .map(|(i, _)| i)
        };
        let first = by_rank(None).unwrap_or(0);
        let second = by_rank(needle.get(first).copied()).unwrap_or(first);
        let (a, b) = (first.min(second), first.max(second));
        CiFinder { first: folded(a), second: folded(b), needle }
    }

    pub(crate) fn len(&self) -> usize {
        self.needle.len()
    }

    /// The first position at or after `from` where `hay` holds the needle,
    /// ASCII letters in either case.
    pub(crate) fn find_at(&self, hay: &[u8], from: usize) -> Option<usize> {
        match self.find_or_pair(hay, from, &[], |_, _| false) {
            Some(Found::Needle(at)) => Some(at),
            _ => None,
        }
    }

    /// [`CiFinder::find_at`], stopping too at any of `pairs` (two adjacent
    /// bytes, exact) for which `wanted(hay, at)` holds: the search through a
    /// string's bytes wants both the needle and what could hide it (`\u`
    /// escapes of ASCII, the UTF-8 of `K`), in one pass, and the pairs it
    /// does not want (most `\u` escapes) are passed over without leaving the
    /// loop. Not inlined: a small function, which the engine's optimising
    /// tier compiles soon after a first query starts.
    ///
    /// The vector loop is made for each number of pairs up to four (what
    /// `in_place` asks for at most): with a fixed count the compiler splats
    /// the pairs' bytes once, before the loop, where a loop over a slice
    /// splatted them again in every block (three times the instructions per
    /// byte). More pairs are searched by the scalar loop alone.
    #[inline(never)]
    pub(crate) fn find_or_pair(&self, hay: &[u8], from: usize, pairs: &[(u8, u8)], wanted: impl Fn(&[u8], usize) -> bool) -> Option<Found> {
        if self.needle.is_empty() {
            return (from <= hay.len()).then_some(Found::Needle(from));
        }
        let mut p = from;
        if simd::ENABLED {
            let found = match *pairs {
                [] => self.find_simd(hay, &mut p, &[], &wanted),
                [a] => self.find_simd(hay, &mut p, &[a], &wanted),
                [a, b] => self.find_simd(hay, &mut p, &[a, b], &wanted),
                [a, b, c] => self.find_simd(hay, &mut p, &[a, b, c], &wanted),
                [a, b, c, d] => self.find_simd(hay, &mut p, &[a, b, c, d], &wanted),
                _ => None,
            };
            if found.is_some() {
                return found;
            }
        }
        while p < hay.len() {
            if let Some(found) = self.at(hay, p, pairs, &wanted) {
                return Some(found);
            }
            p += 1;
        }
        None
    }

    /// What is at `p`: the needle, or one of `pairs` that is `wanted`.
    #[inline(always)]
    fn at(&self, hay: &[u8], p: usize, pairs: &[(u8, u8)], wanted: &impl Fn(&[u8], usize) -> bool) -> Option<Found> {
        if self.is_at(hay, p) {
            Some(Found::Needle(p))
        } else if !pairs.is_empty() && hay.get(p..p + 2).is_some_and(|w| pairs.iter().any(|(x, y)| w == [*x, *y])) && wanted(hay, p) {
            Some(Found::Pair(p))
        } else {
            None
        }
    }

    /// The vector loop: from `*p` while a window of the 16 positions and what
    /// their comparisons read can be loaded; leaves `*p` where the scalar
    /// tail goes on. One bounds check per block: the window's.
    #[cfg(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128")))]
    #[inline(always)]
    fn find_simd<const N: usize>(&self, hay: &[u8], p: &mut usize, pairs: &[(u8, u8); N], wanted: &impl Fn(&[u8], usize) -> bool) -> Option<Found> {
        let ((i1, x), (i2, y)) = (self.first, self.second);
        // `i1 <= i2` (`new` orders them); a pair reads one byte past a position.
        let width = 16 + i2.max(usize::from(N > 0));
        let chunk = |w: &[u8], at: usize| w.get(at..).and_then(|s| s.first_chunk::<16>()).copied();
        loop {
            let window = hay.get(*p..p.checked_add(width)?)?;
            let (a, b) = (chunk(window, i1)?, chunk(window, i2)?);
            let mut bits = simd::pair16(&a, &b, x, y);
            if N > 0 {
                let (c, d) = (chunk(window, 0)?, chunk(window, 1)?);
                bits |= simd::pairs16(&c, &d, pairs);
            }
            while bits != 0 {
                if let Some(found) = self.at(hay, *p + bits.trailing_zeros() as usize, pairs, wanted) {
                    return Some(found);
                }
                bits &= bits - 1;
            }
            *p += 16;
        }
    }

    #[cfg(not(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128"))))]
    fn find_simd<const N: usize>(&self, _hay: &[u8], _p: &mut usize, _pairs: &[(u8, u8); N], _wanted: &impl Fn(&[u8], usize) -> bool) -> Option<Found> {
        None
    }

    #[inline(always)]
    /// Whether the needle is at `p`, ASCII letters in either case.
    pub(crate) fn is_at(&self, hay: &[u8], p: usize) -> bool {
        hay.get(p..p + self.needle.len()).is_some_and(|w| {
            w.iter().zip(self.needle.iter()).all(|(h, n)| *h == *n || (n.is_ascii_lowercase() && *h == n.to_ascii_uppercase()))
        })
    }
}

/// How common a byte is in traces (lower: rarer), letters counting both
/// cases: English letter frequencies, with JSON's punctuation and digits.
pub(super) fn rank(b: u8) -> u8 {
    match b.to_ascii_lowercase() {
        b' ' => 255,
        b'e' => 250,
        b't' | b'"' => 240,
        b'a' | b'o' | b'i' | b'n' => 230,
        b's' | b'r' => 225,
        b'h' | b'l' | b'd' | b'0' | b'1' | b'2' => 200,
        b'c' | b'u' | b'm' | b'\n' | b'\\' | b',' | b':' | b'.' => 190,
        b'f' | b'p' | b'g' | b'w' | b'y' | b'3'..=b'9' | b'/' | b'-' | b'_' => 170,
        b'b' | b'v' => 150,
        b'k' | b'{' | b'}' | b'(' | b')' | b'=' | b'[' | b']' => 120,
        b'x' | b'j' => 80,
        b'q' | b'z' => 60,
        b if b.is_ascii() => 100,
        _ => 50,
    }
}

#[cfg(test)]
mod tests {
    use super::{CiFinder, Found};

    /// Against a plain scan, on generated haystacks around the SIMD block
    /// edges (positions 0..40, both cases, near-misses).
    #[test]
    fn finds_what_a_plain_scan_finds() {
        let mut next = crate::test_rng::xorshift(0x2545_F491_4F6C_DD1Du64);
        const BYTES: &[u8] = b"aAbBkKzZ-_ \\\"\xc3\xa9xX0uU\\";
        const PAIRS: [(u8, u8); 5] = [(b'\\', b'u'), (0xc3, 0xa9), (b'a', b'B'), (b'-', b'_'), (b'x', b'0')];
        for _ in 0..40_000 {
            let needle: Vec<u8> = (0..1 + next(4)).map(|_| BYTES[next(BYTES.len())]).collect();
            let hay: Vec<u8> = (0..next(70)).map(|_| BYTES[next(BYTES.len())]).collect();
            let from = next(8);
            let finder = CiFinder::new(&needle);
            let lower: Vec<u8> = needle.to_ascii_lowercase();
            let want = (from..=hay.len().saturating_sub(needle.len()))
                .find(|&p| hay.get(p..p + needle.len()).is_some_and(|w| w.to_ascii_lowercase() == lower));
            assert_eq!(finder.find_at(&hay, from), want, "{:?} in {:?} from {from}", String::from_utf8_lossy(&needle), String::from_utf8_lossy(&hay));
            // Zero to five pairs: each count has its own vector loop, five the scalar one.
            let pairs = &PAIRS[..next(PAIRS.len() + 1)];
            let pair = (from..hay.len()).find(|&p| hay.get(p..p + 2).is_some_and(|w| pairs.iter().any(|(x, y)| w == [*x, *y])));
            let first = match (want, pair) {
                (Some(n), Some(e)) if e < n => Some(Found::Pair(e)),
                (Some(n), _) => Some(Found::Needle(n)),
                (None, e) => e.map(Found::Pair),
            };
            assert_eq!(finder.find_or_pair(&hay, from, pairs, |_, _| true), first, "{:?} in {:?} from {from} with {} pairs", String::from_utf8_lossy(&needle), String::from_utf8_lossy(&hay), pairs.len());
        }
    }

    #[test]
    fn long_haystacks() {
        let mut hay = vec![b'a'; 10_000];
        hay.extend_from_slice(b"TraceBack");
        hay.extend_from_slice(&[b'z'; 37]);
        assert_eq!(CiFinder::new(b"traceback").find_at(&hay, 0), Some(10_000));
        assert_eq!(CiFinder::new(b"traceback").find_at(&hay, 10_001), None);
        assert_eq!(CiFinder::new(b"").find_at(&hay, 3), Some(3));
    }
}
