//! Comparing two byte regions 32 bytes at a time, then eight: the `.wasm`'s
//! `memcmp` and `bcmp` (`wasm::memcmp`, which says why), kept here, outside
//! the wasm-only module, so that native tests can check it against the
//! order of slices.

/// # Safety
/// `a` and `b` are valid for reads of `n` bytes.
#[inline(always)]
pub unsafe fn compare(a: *const u8, b: *const u8, n: usize) -> i32 {
    let mut i = 0;
    // Long equal runs (a re-sent conversation against the last one) pass a
    // block per branch; the block that differs is then read by words.
    while i + 32 <= n {
        // SAFETY: `i + 32 <= n`, within both regions.
        if !unsafe { block_equal(a.add(i), b.add(i)) } {
            break;
        }
        i += 32;
    }
    while i + 8 <= n {
        // SAFETY: `i + 8 <= n`, within both regions; unaligned reads.
        let (x, y) = unsafe { (a.add(i).cast::<u64>().read_unaligned(), b.add(i).cast::<u64>().read_unaligned()) };
        if x != y {
            // Little-endian: the lowest differing byte of the words is the first in memory.
            let at = ((x ^ y).trailing_zeros() / 8) as usize;
            // SAFETY: `at < 8`, within the word just read.
            return unsafe { i32::from(*a.add(i + at)) - i32::from(*b.add(i + at)) };
        }
        i += 8;
    }
    while i < n {
        // SAFETY: `i < n`.
        let (x, y) = unsafe { (*a.add(i), *b.add(i)) };
        if x != y {
            return i32::from(x) - i32::from(y);
        }
        i += 1;
    }
    0
}

/// Whether the 32 bytes at `a` and `b` are equal: two 16-byte vectors each
/// with wasm's SIMD (one `any_true` per block).
///
/// # Safety
/// `a` and `b` are valid for reads of 32 bytes.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
unsafe fn block_equal(a: *const u8, b: *const u8) -> bool {
    use core::arch::wasm32::{v128, v128_any_true, v128_load, v128_or, v128_xor};
    // SAFETY: 32 bytes at each; `v128_load` reads unaligned.
    let (a0, a1, b0, b1) = unsafe {
        let (a, b) = (a.cast::<v128>(), b.cast::<v128>());
        (v128_load(a), v128_load(a.add(1)), v128_load(b), v128_load(b.add(1)))
    };
    !v128_any_true(v128_or(v128_xor(a0, b0), v128_xor(a1, b1)))
}

/// Whether the 32 bytes at `a` and `b` are equal: four words each, one
/// branch (where the native tests check the block loop; native builds
/// link the C library's `memcmp`, not this).
///
/// # Safety
/// `a` and `b` are valid for reads of 32 bytes.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
unsafe fn block_equal(a: *const u8, b: *const u8) -> bool {
    let mut diff = 0u64;
    for k in 0..4 {
        // SAFETY: `8 * k + 8 <= 32`; unaligned reads.
        diff |= unsafe { a.add(8 * k).cast::<u64>().read_unaligned() ^ b.add(8 * k).cast::<u64>().read_unaligned() };
    }
    diff == 0
}

#[cfg(test)]
mod tests {
    use super::compare;

    /// The sign of `compare`, as an `Ordering`, for two slices of one length.
    fn order(a: &[u8], b: &[u8]) -> std::cmp::Ordering {
        assert_eq!(a.len(), b.len());
        // SAFETY: both slices hold `a.len()` bytes.
        unsafe { compare(a.as_ptr(), b.as_ptr(), a.len()) }.cmp(&0)
    }

    #[test]
    fn orders_as_slices_do_at_every_position_and_length() {
        let mut next = crate::test_rng::xorshift(7);
        for n in 0..100 {
            for _ in 0..200 {
                let a: Vec<u8> = (0..n).map(|_| next(4) as u8 * 85).collect();
                let mut b = a.clone();
                // Up to three bytes changed: differences later in a word must not decide.
                for _ in 0..next(4) {
                    if n > 0 {
                        let at = next(n);
                        b[at] = next(256) as u8;
                    }
                }
                assert_eq!(order(&a, &b), a.cmp(&b), "{a:?} {b:?}");
                assert_eq!(order(&b, &a), b.cmp(&a), "{b:?} {a:?}");
            }
        }
    }

    #[test]
    fn the_first_difference_decides_whatever_follows() {
        let a = [1u8, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0, 0, 0, 0, 0];
        let mut b = a;
        b[3] = 5;
        b[16] = 0;
        assert!(order(&a, &b).is_lt());
        let mut c = a;
        c[15] = 255;
        assert!(order(&a, &c).is_lt());
        assert!(order(&c, &a).is_gt());
        assert!(order(&[], &[]).is_eq());
    }
}
