//! A seeded generator for the unit tests' generated inputs (xorshift64): the
//! same seed gives the same cases on every run and machine.

/// `next(n)`: a number below `n` (`n` > 0).
pub fn xorshift(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    }
}
