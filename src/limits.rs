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
        let large = crate::ParseError::TooLarge { bytes: 3 << 30, what: "the input" };
        assert_eq!(large.to_string(), "too large: the input is 3072 MiB; the viewer reads at most 1024 MiB");
        assert!(crate::ParseError::TooManyEvents.to_string().contains("more than 2,000,000 records"));
    }
}
