//! Where a string literal held in another string literal ends, and whether
//! serde_json decodes it: the walk under [`super::shell`], over a shell
//! output's `output`, most of a rollout's bytes.
//!
//! The bytes are the outer literal's contents (the split checked its
//! escapes), so the inner literal is written escaped twice. Both escape
//! levels are read from the runs of backslashes: a run of `k` backslashes
//! followed by the byte `c` is `k / 2` inner backslashes (each written
//! `\\`) and, for an odd `k`, the outer escape `\c`. The inner backslashes
//! escape what follows them when there is an odd number of them, so `k mod
//! 4` says what `c` must be:
//!
//! - 0: `c` is an inner character as it stands (anything);
//! - 1: `\c` is an inner character: `\"` closes the inner literal, `\/` and
//!   `\u` (not a quote, backslash or control character) are characters,
//!   `\n`, `\t`, … are control characters serde_json refuses;
//! - 2: `c` is the letter of an inner escape: `/ b f n r t`, or `u` with
//!   four hex digits (a high surrogate followed by `\\u` and a low one);
//! - 3: `\c` is the letter of an inner escape: `\"` or `\/`.
//!
//! The runs are classed 64 bytes at a time with bit masks (an addition carries
//! each run to the byte after it; three, its length modulo 4),
//! and only the bytes of the rare classes (anything but `\\n`, `\\\"` and the
//! closing `\"`) are looked at one by one: walking the backslashes one by one
//! cost 19.5M of a 180M parse (callgrind, the kit's 10 MB rollout; one byte
//! in ten of its outputs is a backslash).

use crate::json::string::hex4;

/// Where an inner string literal ends, and which escapes it holds.
#[derive(Debug, PartialEq, Eq)]
pub struct End {
    /// The index of the `\` of the `\"` that closes it.
    pub at: usize,
    /// It holds an escape of its own (written `\\…` in the bytes).
    pub inner_escapes: bool,
    /// It holds an escape of the outer literal (a `\u` or `\/`).
    pub outer_escapes: bool,
}

/// The bits of a 64-byte window at odd offsets: bit 0 of each offset.
const ODD: u64 = 0xAAAA_AAAA_AAAA_AAAA;

/// The bits at offsets 2 and 3 modulo 4: bit 1 of each offset.
const HIGH: u64 = 0xCCCC_CCCC_CCCC_CCCC;

/// A window's bytes that the walk looks for, as bit masks (bit `j` for
/// byte `at + j`); nothing past the end of the bytes.
struct Masks {
    backslash: u64,
    quote: u64,
    /// `n`, only where a backslash is in the window or its first byte is
    /// escaped (else 0).
    n: u64,
}

/// The [`Masks`] of the 64 bytes of `b` from `at`, from the split's classifier.
#[cfg(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
fn masks(b: &[u8], at: usize, first_escaped: bool) -> Masks {
    let block = crate::json::simd::string_block64(b, at, first_escaped);
    // The bytes are a string's contents: the split found no control
    // character in them, so `quote_or_control` is the quotes (and the
    // padding past the end, which the caller masks off).
    let quote = block.quote_or_control;
    Masks { backslash: block.backslash, quote, n: block.plain_escapes & !(block.backslash | quote) }
}

/// The [`Masks`] of the 64 bytes of `b` from `at`, byte by byte (no SIMD).
#[cfg(not(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128"))))]
fn masks(b: &[u8], at: usize, _first_escaped: bool) -> Masks {
    let mut m = Masks { backslash: 0, quote: 0, n: 0 };
    for (j, c) in b.get(at..).unwrap_or(&[]).iter().take(64).enumerate() {
        let bit = 1u64 << j;
        match c {
            b'\\' => m.backslash |= bit,
            b'"' => m.quote |= bit,
            b'n' => m.n |= bit,
            _ => {}
        }
    }
    m
}

/// The end of the inner string literal whose contents start at `from` of
/// `b` (a string literal's contents, escaped once more), when that literal
/// is one serde_json decodes: every escape known, no control character, no
/// lone surrogate; else `None`. The outer escapes were checked by the split.
pub fn end(b: &[u8], from: usize) -> Option<End> {
    let mut walk = Walk { inner_escapes: false, outer_escapes: false, low_surrogate_at: usize::MAX };
    // A run of backslashes reaching the end of the last window (bit 0 set),
    // and the two bits of its start's offset modulo 4.
    let (mut carried, mut carried_odd, mut carried_high) = (0u64, 0u64, 0u64);
    let mut base = from;
    loop {
        let left = b.len().checked_sub(base).filter(|&n| n > 0)?;
        let in_bytes = if left >= 64 { u64::MAX } else { (1u64 << left) - 1 };
        let m = masks(b, base, carried != 0);
        let bs = m.backslash;
        if bs | carried == 0 {
            base += 64;
            continue;
        }
        // Each run's first backslash; a run carried in starts before the
        // window and stands at bit 0.
        let starts = (bs & !(bs << 1)) | carried;
        // Adding a run's start bit carries through the run to the byte
        // after it; the run's length modulo 4 is that byte's offset less
        // the start's, subtracted here two bits at a time: the after bits
        // of the runs starting at an odd offset, and at offset 2 or 3.
        let after = bs.wrapping_add(starts) & !bs;
        let after_odd = bs.wrapping_add((starts & ODD) | carried_odd) & !bs;
        let after_high = bs.wrapping_add((starts & HIGH) | carried_high) & !bs;
        let borrow = after_odd & !ODD;
        let length_odd = (ODD ^ after_odd) & after;
        let length_high = (HIGH ^ after_high ^ borrow) & after;
        let (one, two, three) = (length_odd & !length_high, length_high & !length_odd, length_odd & length_high);
        let closing = one & m.quote & in_bytes;
        // The bits below the first closing (all when there is none).
        let before_end = closing.wrapping_sub(1) & !closing & in_bytes;
        // A backslash after another: an inner backslash.
        walk.inner_escapes |= bs & ((bs << 1) | carried) & before_end != 0;
        let mut rare = ((one & !m.quote) | (two & !m.n) | (three & !m.quote)) & before_end;
        while rare != 0 {
            let j = rare.trailing_zeros();
            let bit = 1u64 << j;
            let k = if one & bit != 0 {
                1
            } else if two & bit != 0 {
                2
            } else {
                3
            };
            walk.rare(b, base + j as usize, k)?;
            rare &= rare - 1;
        }
        if closing != 0 {
            let at = (base + closing.trailing_zeros() as usize).checked_sub(1)?;
            return Some(End { at, inner_escapes: walk.inner_escapes, outer_escapes: walk.outer_escapes });
        }
        if bs >> 63 == 0 {
            (carried, carried_odd, carried_high) = (0, 0, 0);
        } else if bs != u64::MAX || carried == 0 {
            // The last run starts at 64 less its length: the same offset
            // modulo 4 in the next window. (A window all backslashes keeps
            // the carried run's start.)
            let start = 64 - bs.leading_ones();
            (carried, carried_odd, carried_high) = (1, u64::from(start & 1), u64::from((start >> 1) & 1));
        }
        base += 64;
    }
}

/// What the walk found so far.
struct Walk {
    inner_escapes: bool,
    outer_escapes: bool,
    /// The `u` of a low surrogate's `\\u` that a high one just before
    /// announced (checked then).
    low_surrogate_at: usize,
}

impl Walk {
    /// The byte at `at`, after a run of backslashes of length `k` modulo 4,
    /// in a class the masks do not settle; `None` when serde_json would not
    /// decode the inner literal.
    fn rare(&mut self, b: &[u8], at: usize, k: u32) -> Option<()> {
        let c = *b.get(at)?;
        match (k, c) {
            (1, b'/') => self.outer_escapes = true,
            (1, b'u') => {
                // A character of the inner text; a quote, a backslash or a
                // control character written so is left to the exact path.
                let c = hex4(b, at + 1)?;
                if c < 0x20 || c == 0x22 || c == 0x5c {
                    return None;
                }
                self.outer_escapes = true;
            }
            (2, b'/' | b'b' | b'f' | b'n' | b'r' | b't') | (3, b'"' | b'/') => {}
            (2, b'u') => match hex4(b, at + 1)? {
                0xD800..=0xDBFF => {
                    // A high surrogate: a low one must follow, escaped the same way.
                    if b.get(at + 5..at + 8)? != br"\\u" || !(0xDC00..=0xDFFF).contains(&hex4(b, at + 8)?) {
                        return None;
                    }
                    self.low_surrogate_at = at + 7;
                }
                0xDC00..=0xDFFF if self.low_surrogate_at != at => return None,
                _ => {}
            },
            _ => return None,
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The walk this module replaced, one backslash at a time: the reference.
    fn one_by_one(b: &[u8], from: usize) -> Option<End> {
        let mut end = End { at: 0, inner_escapes: false, outer_escapes: false };
        let mut i = from;
        loop {
            let at = i + b.get(i..)?.iter().position(|&c| c == b'\\')?;
            match *b.get(at + 1)? {
                b'"' => {
                    end.at = at;
                    return Some(end);
                }
                b'/' => {
                    end.outer_escapes = true;
                    i = at + 2;
                }
                b'u' => {
                    let c = hex4(b, at + 2)?;
                    if c < 0x20 || c == 0x22 || c == 0x5c {
                        return None;
                    }
                    end.outer_escapes = true;
                    i = at + 6;
                }
                b'\\' => {
                    end.inner_escapes = true;
                    let k = at + 2;
                    i = match *b.get(k)? {
                        b'/' | b'b' | b'f' | b'n' | b'r' | b't' => k + 1,
                        b'\\' => match *b.get(k + 1)? {
                            b'\\' | b'"' | b'/' => k + 2,
                            _ => return None,
                        },
                        b'u' => match hex4(b, k + 1)? {
                            0xD800..=0xDBFF => {
                                if b.get(k + 5..k + 8)? != br"\\u" || !(0xDC00..=0xDFFF).contains(&hex4(b, k + 8)?) {
                                    return None;
                                }
                                k + 12
                            }
                            0xDC00..=0xDFFF => return None,
                            _ => k + 5,
                        },
                        _ => return None,
                    };
                }
                _ => return None,
            }
        }
    }

    /// Pieces of an outer literal's contents (each valid there): inner
    /// characters, inner escapes, outer escapes, the closing `\"`, and
    /// what serde_json refuses in the inner literal.
    const PIECES: &[&str] = &[
        "a", "é", " ", r"\\n", r#"\\\""#, r"\\\\", r"\/", r"\\/", r#"\""#, r"\u00e9", r"\\u00e9", r"\\ud83d\\ude00",
        r"\ud83d\ude00", r"\\ud83d", r"\\ude00", r"\\ud83d\\u0041", r"\n", r"\\x", r"\\t", r"\\b", r"\\f", r"\\r", r"\\\/",
        r"\\\u0041", r"\u0022", r"\u005c", r"\u0001", r#"\\\\\""#, r#"\\\\\\\""#, r"\\\\\\n", r"\\\\\\\\", r"\\u12",
        r"\\uzzzz", r"\t", r"\u0041", r"\\\n",
    ];

    /// Random contents from [`PIECES`], after a run of `x` that puts the
    /// pieces at every offset of a 64-byte window: the walk agrees with
    /// the reference, end, flags, refusals and all.
    #[test]
    fn agrees_with_the_walk_one_backslash_at_a_time() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        let mut closed = 0;
        for pad in 0..140 {
            for _ in 0..60 {
                let mut s = "x".repeat(pad);
                // Mostly the common pieces, sometimes long runs of them.
                for _ in 0..next(40) {
                    let piece = PIECES[if next(3) == 0 { next(PIECES.len()) } else { next(6) }];
                    for _ in 0..if next(8) == 0 { 1 + next(30) } else { 1 } {
                        s.push_str(piece);
                    }
                }
                if next(4) != 0 {
                    s.push_str(r#"\",\"metadata\":{}}"#);
                }
                let b = s.as_bytes();
                for from in [0, pad.min(3)] {
                    let expected = one_by_one(b, from);
                    closed += usize::from(expected.is_some());
                    assert_eq!(end(b, from), expected, "{s} from {from}");
                }
            }
        }
        assert!(closed > 2000, "only {closed} closed");
    }

    #[test]
    fn runs_across_windows() {
        for k in 0..140 {
            for pad in 56..72 {
                for tail in [r#"\""#, "n", r#"""#, "u00e9", "/", "q"] {
                    let s = format!("{}{}{tail} end\\\"", "y".repeat(pad), "\\".repeat(k));
                    // Only whole outer escapes: an odd run before a byte the outer literal cannot escape is skipped.
                    if serde_json::from_str::<String>(&format!("\"{s}\"")).is_err() {
                        continue;
                    }
                    assert_eq!(end(s.as_bytes(), 0), one_by_one(s.as_bytes(), 0), "{k} backslashes after {pad}, then {tail}");
                }
            }
        }
    }
}
