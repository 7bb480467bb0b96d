//! `memcmp` and `bcmp` for the `.wasm`, 32 bytes at a time (SIMD), then eight.
//!
//! wasm has no instruction that compares memory, and the builtins the
//! wasm32 target links compare one byte at a time. Every slice `==` and
//! `cmp` of the parse goes through them (keys against the names a reader
//! wants, a re-sent conversation against the last one, sorted ids): a Node
//! CPU profile of an OTLP parse put `memcmp` at 13% of it. The builtins are
//! weak symbols, so these take their place in the `.wasm`; native builds
//! keep the C library's vectorised ones. The comparison itself is
//! [`crate::byte_compare`], tested natively against slices' own order.

use crate::byte_compare::compare;

/// Compares `n` bytes at `a` and `b`: negative, zero or positive as the
/// first differing byte of `a` is below, equal to or above `b`'s.
///
/// # Safety
/// `a` and `b` are valid for reads of `n` bytes (C's contract).
#[no_mangle]
pub unsafe extern "C" fn memcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    // SAFETY: the caller's contract, passed on.
    unsafe { compare(a, b, n) }
}

/// Zero when the `n` bytes at `a` and `b` are equal, else nonzero.
///
/// # Safety
/// As [`memcmp`].
#[no_mangle]
pub unsafe extern "C" fn bcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    // SAFETY: the caller's contract, passed on.
    unsafe { compare(a, b, n) }
}
