//! The crate's only `unsafe` code: 128-bit SIMD classification of input
//! bytes for the byte-level passes (the split's string scan and the source
//! map's counts), with SSE2 on x86_64 (part of its baseline, so no runtime
//! detection) and simd128 on wasm32 (enabled at compile time by
//! `.cargo/config.toml`).
//!
//! Every load reads 16 bytes of a `&[u8; 16]` or `&[u8; 64]` (the type is
//! the bounds check: callers get one from a slice with `first_chunk` or
//! `try_from`, which fail rather than read past the end; the last bytes of an
//! input are copied into a padded array), at offsets 0, 16, 32 and 48 of the
//! 64. Nothing here writes memory.
//!
//! The wasm build lowers LLVM's inline threshold to keep the module small
//! (`.cargo/config.toml`): the functions here, and the scanner's and readers'
//! helpers the parse's hot loops call, are `#[inline(always)]` so that their
//! loops stay as fast as at the default threshold.
//!
//! On other targets (or wasm32 without simd128) [`ENABLED`] is false and the
//! callers use their word-at-a-time fallbacks; this module is then empty but
//! for that constant and [`ascii_str`] (the one `unsafe` conversion of bytes
//! known ASCII to text).

/// `raw` as text when every byte of it is ASCII (so valid UTF-8 by
/// definition), else `None`. Short texts (ids, names, timestamps) are most of
/// the strings a reader decodes, and on them `is_ascii`'s eight bytes at a
/// time cost ~20 instructions where a validator's call and setup cost ~110.
/// Not SIMD, but `unsafe`, so here; on every target.
#[inline(always)]
pub fn ascii_str(raw: &[u8]) -> Option<&str> {
    if raw.is_ascii() {
        // SAFETY: every byte is below 0x80, and a run of ASCII bytes is valid
        // UTF-8.
        Some(unsafe { std::str::from_utf8_unchecked(raw) })
    } else {
        None
    }
}

/// True when this build has the SIMD paths below.
pub const ENABLED: bool = cfg!(any(
    all(target_arch = "x86_64", target_feature = "sse2"),
    all(target_arch = "wasm32", target_feature = "simd128")
));

/// What matters to the string scan in a window of 16 or 64 bytes, as bit
/// masks (bit `j` for byte `at + j`).
#[cfg(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128")))]
#[derive(Debug, Clone, Copy)]
pub struct StringBlock {
    /// `"` or a byte below 0x20; past the end of the input, every position
    /// (the window is padded with 0x00 there).
    pub quote_or_control: u64,
    /// `\`.
    pub backslash: u64,
    /// `"`, `\` or `n`: escaped, the scan passes them without a look (the
    /// commonest escapes in traces). Only set when `backslash` is not 0 or
    /// the window's first byte is escaped; 0 otherwise.
    pub plain_escapes: u64,
}

#[cfg(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128")))]
const PAD: u8 = 0;

/// The [`StringBlock`] of the 64 bytes of `b` from `at` (padded past its
/// end); `first_escaped`: whether byte `at` is escaped.
#[cfg(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
pub fn string_block64(b: &[u8], at: usize, first_escaped: bool) -> StringBlock {
    match b.get(at..).and_then(|rest| rest.first_chunk::<64>()) {
        Some(chunk) => block64(chunk, first_escaped),
        None => block64_tail(b.get(at..).unwrap_or(&[]), first_escaped),
    }
}

/// [`string_block64`] for the last bytes (fewer than 64), copied into a
/// padded block.
#[cfg(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(never)]
fn block64_tail(rest: &[u8], first_escaped: bool) -> StringBlock {
    let mut block = [PAD; 64];
    if let Some(head) = block.get_mut(..rest.len()) {
        head.copy_from_slice(rest);
    }
    block64(&block, first_escaped)
}

/// The [`StringBlock`] of the 16 bytes of `b` from `at` (padded past its
/// end): the first look at a string, as most are short (keys, roles, ids).
#[cfg(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
pub fn string_block16(b: &[u8], at: usize) -> StringBlock {
    match b.get(at..).and_then(|rest| rest.first_chunk::<16>()) {
        Some(chunk) => block16(chunk),
        None => {
            let mut block = [PAD; 16];
            let rest = b.get(at..).unwrap_or(&[]);
            if let Some(head) = block.get_mut(..rest.len()) {
                head.copy_from_slice(rest);
            }
            block16(&block)
        }
    }
}

/// The [`StringBlock`] of the 16 bytes of `chunk` (whose `plain_escapes`
/// the caller may ignore: unused, it is not computed once inlined): the
/// string scans' first look at a string that is not near the input's end.
#[cfg(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
pub fn string_chunk16(chunk: &[u8; 16]) -> StringBlock {
    block16(chunk)
}

/// The [`StringBlock`] of the 64 bytes of `chunk`; `first_escaped`:
/// whether its first byte is. The string scan's window, for a caller that
/// holds the 64 bytes (from the input, or padded past its end) so that one
/// inlined copy of the classification serves both.
#[cfg(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
pub fn string_chunk64(chunk: &[u8; 64], first_escaped: bool) -> StringBlock {
    block64(chunk, first_escaped)
}

// Per 16 bytes, on both targets: `x ^ 0x82 < 0xA1` as signed bytes (in
// -128..=-96) holds exactly for the bytes below 0x20 (xor 0x82 takes
// 0x00..=0x1F onto 0x80..=0x9F) and for `"` (0x22 ^ 0x82 = 0xA0): one xor
// and one signed compare for both classes.

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn block16(chunk: &[u8; 16]) -> StringBlock {
    use core::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
        _mm_xor_si128,
    };
    // SAFETY: `chunk` is 16 readable bytes, all that the one unaligned load
    // (`loadu`: no alignment needed) reads. SSE2 is enabled for every x86_64
    // target (the cfg above).
    unsafe {
        let v = _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>());
        let quote_or_control = _mm_cmplt_epi8(_mm_xor_si128(v, _mm_set1_epi8(0x82u8 as i8)), _mm_set1_epi8(-95));
        let backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
        let m = |x: __m128i| _mm_movemask_epi8(x) as u32 as u64;
        let backslashes = m(backslash);
        let plain_escapes = if backslashes == 0 {
            0
        } else {
            let quote_or_n = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8)), _mm_cmpeq_epi8(v, _mm_set1_epi8(b'n' as i8)));
            m(_mm_or_si128(quote_or_n, backslash))
        };
        StringBlock { quote_or_control: m(quote_or_control), backslash: backslashes, plain_escapes }
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn block64(chunk: &[u8; 64], first_escaped: bool) -> StringBlock {
    use core::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
        _mm_xor_si128,
    };
    let p = chunk.as_ptr().cast::<__m128i>();
    // SAFETY: `chunk` is 64 readable bytes, and the four unaligned loads
    // (`loadu`: no alignment needed) read bytes 0..16, 16..32, 32..48 and
    // 48..64 of it. SSE2 is enabled for every x86_64 target (the cfg above).
    unsafe {
        let v = [_mm_loadu_si128(p), _mm_loadu_si128(p.add(1)), _mm_loadu_si128(p.add(2)), _mm_loadu_si128(p.add(3))];
        let flip = _mm_set1_epi8(0x82u8 as i8);
        let below = _mm_set1_epi8(-95);
        let bs = _mm_set1_epi8(b'\\' as i8);
        let join = |x: [__m128i; 4]| {
            let m = x.map(|x| _mm_movemask_epi8(x) as u32 as u64);
            m[0] | (m[1] << 16) | (m[2] << 32) | (m[3] << 48)
        };
        let backslash = v.map(|x| _mm_cmpeq_epi8(x, bs));
        let backslashes = join(backslash);
        let quote_or_control = join(v.map(|x| _mm_cmplt_epi8(_mm_xor_si128(x, flip), below)));
        let plain_escapes = if backslashes == 0 && !first_escaped {
            0
        } else {
            let quote = _mm_set1_epi8(b'"' as i8);
            let n = _mm_set1_epi8(b'n' as i8);
            let plain = |x: __m128i, backslash: __m128i| {
                _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, n)), backslash)
            };
            join([
                plain(v[0], backslash[0]),
                plain(v[1], backslash[1]),
                plain(v[2], backslash[2]),
                plain(v[3], backslash[3]),
            ])
        };
        StringBlock { quote_or_control, backslash: backslashes, plain_escapes }
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn block16(chunk: &[u8; 16]) -> StringBlock {
    use core::arch::wasm32::{i8x16_bitmask, i8x16_eq, i8x16_lt, i8x16_splat, u8x16_splat, v128, v128_load, v128_or, v128_xor};
    // SAFETY: `chunk` is 16 readable bytes, all that the one load reads (wasm
    // loads need no alignment). simd128 is enabled at compile time (the cfg
    // above).
    unsafe {
        let v = v128_load(chunk.as_ptr().cast::<v128>());
        let quote_or_control = i8x16_lt(v128_xor(v, u8x16_splat(0x82)), i8x16_splat(-95));
        let backslash = i8x16_eq(v, u8x16_splat(b'\\'));
        let m = |x: v128| u64::from(i8x16_bitmask(x));
        let backslashes = m(backslash);
        let plain_escapes = if backslashes == 0 {
            0
        } else {
            m(v128_or(v128_or(i8x16_eq(v, u8x16_splat(b'"')), i8x16_eq(v, u8x16_splat(b'n'))), backslash))
        };
        StringBlock { quote_or_control: m(quote_or_control), backslash: backslashes, plain_escapes }
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn block64(chunk: &[u8; 64], first_escaped: bool) -> StringBlock {
    use core::arch::wasm32::{i8x16_bitmask, i8x16_eq, i8x16_lt, i8x16_splat, u8x16_splat, v128, v128_load, v128_or, v128_xor};
    let p = chunk.as_ptr().cast::<v128>();
    // SAFETY: `chunk` is 64 readable bytes, and the four loads read bytes
    // 0..16, 16..32, 32..48 and 48..64 of it (wasm loads need no alignment).
    // simd128 is enabled at compile time (the cfg above).
    unsafe {
        let v = [v128_load(p), v128_load(p.add(1)), v128_load(p.add(2)), v128_load(p.add(3))];
        let join = |x: [v128; 4]| {
            let m = x.map(|x| u64::from(i8x16_bitmask(x)));
            m[0] | (m[1] << 16) | (m[2] << 32) | (m[3] << 48)
        };
        let backslash = v.map(|x| i8x16_eq(x, u8x16_splat(b'\\')));
        let backslashes = join(backslash);
        let quote_or_control = join(v.map(|x| i8x16_lt(v128_xor(x, u8x16_splat(0x82)), i8x16_splat(-95))));
        let plain_escapes = if backslashes == 0 && !first_escaped {
            0
        } else {
            let plain = |x: v128, backslash: v128| {
                v128_or(v128_or(i8x16_eq(x, u8x16_splat(b'"')), i8x16_eq(x, u8x16_splat(b'n'))), backslash)
            };
            join([
                plain(v[0], backslash[0]),
                plain(v[1], backslash[1]),
                plain(v[2], backslash[2]),
                plain(v[3], backslash[3]),
            ])
        };
        StringBlock { quote_or_control, backslash: backslashes, plain_escapes }
    }
}

/// The counts of `block`'s whole 64-byte chunks for the source map (the
/// last `block.len() % 64` bytes are the caller's): how many UTF-8
/// continuation bytes (`0b10xx_xxxx`) they hold, and for each chunk with a
/// `\n`, `newlines(offset of the chunk in block, mask of its \n bytes)`.
#[cfg(any(all(target_arch = "x86_64", target_feature = "sse2"), all(target_arch = "wasm32", target_feature = "simd128")))]
pub fn source_chunks(block: &[u8], mut newlines: impl FnMut(usize, u64)) -> usize {
    // The per-lane counters are bytes, at most 4 per chunk: flush every 63 chunks.
    const GROUP: usize = 63 * 64;
    let mut continuation = 0usize;
    for (group_index, group) in block.chunks(GROUP).enumerate() {
        let chunks = group.chunks_exact(64).filter_map(|c| <&[u8; 64]>::try_from(c).ok());
        continuation += source_group(chunks, |i, mask| newlines(group_index * GROUP + i * 64, mask));
    }
    continuation
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn source_group<'a>(chunks: impl Iterator<Item = &'a [u8; 64]>, mut newlines: impl FnMut(usize, u64)) -> usize {
    use core::arch::x86_64::{
        __m128i, _mm_add_epi64, _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_cvtsi128_si64, _mm_loadu_si128, _mm_movemask_epi8,
        _mm_or_si128, _mm_sad_epu8, _mm_set1_epi8, _mm_setzero_si128, _mm_srli_si128, _mm_sub_epi8,
    };
    // SAFETY: every load reads 16 of the 64 bytes of one `chunk: &[u8; 64]`
    // (offsets 0, 16, 32, 48; `loadu`: no alignment needed). SSE2 is
    // enabled for every x86_64 target (the cfg above).
    unsafe {
        // A continuation byte is -128..=-65 as i8: below -64.
        let below = _mm_set1_epi8(-64);
        let newline = _mm_set1_epi8(b'\n' as i8);
        let mut counts = _mm_setzero_si128();
        for (index, chunk) in chunks.enumerate() {
            let p = chunk.as_ptr().cast::<__m128i>();
            let v = [_mm_loadu_si128(p), _mm_loadu_si128(p.add(1)), _mm_loadu_si128(p.add(2)), _mm_loadu_si128(p.add(3))];
            // Subtracting the all-ones compare adds one per continuation byte.
            for x in v {
                counts = _mm_sub_epi8(counts, _mm_cmplt_epi8(x, below));
            }
            let n = v.map(|x| _mm_cmpeq_epi8(x, newline));
            let any = _mm_or_si128(_mm_or_si128(n[0], n[1]), _mm_or_si128(n[2], n[3]));
            if _mm_movemask_epi8(any) != 0 {
                let m = n.map(|x| _mm_movemask_epi8(x) as u32 as u64);
                newlines(index, m[0] | (m[1] << 16) | (m[2] << 32) | (m[3] << 48));
            }
        }
        // Sum of the 16 byte counters: two 64-bit partial sums.
        let sums = _mm_sad_epu8(counts, _mm_setzero_si128());
        let total = _mm_add_epi64(sums, _mm_srli_si128::<8>(sums));
        _mm_cvtsi128_si64(total) as usize
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn source_group<'a>(chunks: impl Iterator<Item = &'a [u8; 64]>, mut newlines: impl FnMut(usize, u64)) -> usize {
    use core::arch::wasm32::{
        i8x16_bitmask, i8x16_eq, i8x16_lt, i8x16_splat, i8x16_sub, u16x8_extadd_pairwise_u8x16, u32x4_extadd_pairwise_u16x8,
        u32x4_extract_lane, u8x16_splat, v128, v128_any_true, v128_load, v128_or,
    };
    // SAFETY: every load reads 16 of the 64 bytes of one `chunk: &[u8; 64]`
    // (offsets 0, 16, 32, 48; wasm loads need no alignment). simd128 is
    // enabled at compile time (the cfg above).
    unsafe {
        let below = i8x16_splat(-64);
        let newline = u8x16_splat(b'\n');
        let mut counts = u8x16_splat(0);
        for (index, chunk) in chunks.enumerate() {
            let p = chunk.as_ptr().cast::<v128>();
            let v = [v128_load(p), v128_load(p.add(1)), v128_load(p.add(2)), v128_load(p.add(3))];
            for x in v {
                counts = i8x16_sub(counts, i8x16_lt(x, below));
            }
            let n = v.map(|x| i8x16_eq(x, newline));
            if v128_any_true(v128_or(v128_or(n[0], n[1]), v128_or(n[2], n[3]))) {
                let m = n.map(|x| u64::from(i8x16_bitmask(x)));
                newlines(index, m[0] | (m[1] << 16) | (m[2] << 32) | (m[3] << 48));
            }
        }
        let sums = u32x4_extadd_pairwise_u16x8(u16x8_extadd_pairwise_u8x16(counts));
        (u32x4_extract_lane::<0>(sums) + u32x4_extract_lane::<1>(sums) + u32x4_extract_lane::<2>(sums) + u32x4_extract_lane::<3>(sums))
            as usize
    }
}

/// A byte to look for, case-folded: a byte `b` is it when `b | fold == byte`
/// (`fold` is 0x20 for a lower-case ASCII letter, which then also takes its
/// upper case, and 0 for any other byte).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Folded {
    pub byte: u8,
    pub fold: u8,
}

/// Bit `j` set when byte `j` of `a` is `x` and byte `j` of `b` is `y`
/// (each [`Folded`]): the two-byte prefilter of the case-insensitive search
/// (`crate::query`), whose caller loads `a` and `b` at the two needle
/// offsets apart.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
pub fn pair16(a: &[u8; 16], b: &[u8; 16], x: Folded, y: Folded) -> u32 {
    use core::arch::x86_64::{__m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8};
    // SAFETY: `a` and `b` are 16 readable bytes each, all that the two
    // unaligned loads (`loadu`: no alignment needed) read. SSE2 is enabled for
    // every x86_64 target (the cfg above).
    unsafe {
        let va = _mm_or_si128(_mm_loadu_si128(a.as_ptr().cast::<__m128i>()), _mm_set1_epi8(x.fold as i8));
        let vb = _mm_or_si128(_mm_loadu_si128(b.as_ptr().cast::<__m128i>()), _mm_set1_epi8(y.fold as i8));
        let both = _mm_and_si128(_mm_cmpeq_epi8(va, _mm_set1_epi8(x.byte as i8)), _mm_cmpeq_epi8(vb, _mm_set1_epi8(y.byte as i8)));
        _mm_movemask_epi8(both) as u32
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
pub fn pair16(a: &[u8; 16], b: &[u8; 16], x: Folded, y: Folded) -> u32 {
    use core::arch::wasm32::{i8x16_bitmask, i8x16_eq, u8x16_splat, v128, v128_and, v128_load, v128_or};
    // SAFETY: `a` and `b` are 16 readable bytes each, all that the two loads
    // read (wasm loads need no alignment). simd128 is enabled at compile time
    // (the cfg above).
    unsafe {
        let va = v128_or(v128_load(a.as_ptr().cast::<v128>()), u8x16_splat(x.fold));
        let vb = v128_or(v128_load(b.as_ptr().cast::<v128>()), u8x16_splat(y.fold));
        u32::from(i8x16_bitmask(v128_and(i8x16_eq(va, u8x16_splat(x.byte)), i8x16_eq(vb, u8x16_splat(y.byte)))))
    }
}

/// Bit `j` set when (byte `j` of `a`, byte `j` of `b`) is one of `pairs`
/// (exact bytes): the caller loads `b` one byte after `a`, so a pair is two
/// adjacent bytes (`\\u`, the UTF-8 of `K`), found in the same pass as
/// [`pair16`]'s.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
pub fn pairs16<const N: usize>(a: &[u8; 16], b: &[u8; 16], pairs: &[(u8, u8); N]) -> u32 {
    use core::arch::x86_64::{__m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8, _mm_setzero_si128};
    // SAFETY: `a` and `b` are 16 readable bytes each, all that the two
    // unaligned loads (`loadu`: no alignment needed) read. SSE2 is enabled for
    // every x86_64 target (the cfg above).
    unsafe {
        let va = _mm_loadu_si128(a.as_ptr().cast::<__m128i>());
        let vb = _mm_loadu_si128(b.as_ptr().cast::<__m128i>());
        let mut any = _mm_setzero_si128();
        for &(x, y) in pairs {
            any = _mm_or_si128(any, _mm_and_si128(_mm_cmpeq_epi8(va, _mm_set1_epi8(x as i8)), _mm_cmpeq_epi8(vb, _mm_set1_epi8(y as i8))));
        }
        _mm_movemask_epi8(any) as u32
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
pub fn pairs16<const N: usize>(a: &[u8; 16], b: &[u8; 16], pairs: &[(u8, u8); N]) -> u32 {
    use core::arch::wasm32::{i8x16_bitmask, i8x16_eq, u8x16_splat, v128, v128_and, v128_load, v128_or};
    // SAFETY: `a` and `b` are 16 readable bytes each, all that the two loads
    // read (wasm loads need no alignment). simd128 is enabled at compile time
    // (the cfg above).
    unsafe {
        let va = v128_load(a.as_ptr().cast::<v128>());
        let vb = v128_load(b.as_ptr().cast::<v128>());
        let mut any = u8x16_splat(0);
        for &(x, y) in pairs {
            any = v128_or(any, v128_and(i8x16_eq(va, u8x16_splat(x)), i8x16_eq(vb, u8x16_splat(y))));
        }
        u32::from(i8x16_bitmask(any))
    }
}
