//! Size caps: the largest input the viewer reads. Past a cap the input is
//! refused with a "too large" error that names the cap, instead of the page
//! running out of memory (wasm32 has 4 GiB at most, and a tab often less).
//!
//! A parsed event costs a few hundred bytes beside its source bytes, so the
//! event cap, not the byte cap, bounds memory for inputs of tiny records.

/// Largest input read, after gzip decompression and UTF-16 transcoding: 1 GiB.
pub const MAX_INPUT_BYTES: usize = 1 << 30;

/// Most events (records) one input may hold: 2,000,000.
pub const MAX_EVENTS: usize = 2_000_000;

/// Most diagnostics kept; past it they are counted, and one more diagnostic
/// (`too-many-diagnostics`) says how many were left out.
pub const MAX_DIAGNOSTICS: usize = 100_000;

/// The error for an input past [`MAX_INPUT_BYTES`].
pub fn input_too_large(len: usize, what: &str) -> String {
    format!(
        "too large: {what} is {} MiB; the viewer reads at most {} MiB",
        len.div_ceil(1 << 20),
        MAX_INPUT_BYTES >> 20
    )
}

/// The error for an input past [`MAX_EVENTS`].
pub fn too_many_events() -> String {
    format!(
        "too large: the input holds more than {} records; the viewer reads at most that many (split the file)",
        group_digits(MAX_EVENTS)
    )
}

/// 2000000 → "2,000,000".
pub fn group_digits(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_cap() {
        assert_eq!(group_digits(2_000_000), "2,000,000");
        assert_eq!(group_digits(999), "999");
        assert_eq!(input_too_large(3 << 30, "the input"), "too large: the input is 3072 MiB; the viewer reads at most 1024 MiB");
        assert!(too_many_events().contains("more than 2,000,000 records"));
    }
}
