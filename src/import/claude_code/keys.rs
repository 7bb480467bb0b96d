//! The keys the reading looks up ([`K`]), and a key's bytes to its [`K`] in
//! a few instructions: [`InBytes`](super::look::InBytes) places a record's
//! members by key as it checks them, so that the reading's some forty looks
//! a record are indexes, not scans of the members with byte comparisons.

macro_rules! keys {
    ($($k:ident = $name:literal,)*) => {
        /// A key the reading looks up, in a record, its `message`, the
        /// message's `usage` and content blocks, or a `toolUseResult`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        #[repr(u8)]
        pub enum K {
            $($k,)*
        }

        impl K {
            pub const ALL: [K; [$(K::$k,)*].len()] = [$(K::$k,)*];

            pub const fn name(self) -> &'static str {
                match self {
                    $(K::$k => $name,)*
                }
            }
        }
    };
}

keys! {
    Type = "type",
    Message = "message",
    Timestamp = "timestamp",
    Uuid = "uuid",
    ParentUuid = "parentUuid",
    LogicalParentUuid = "logicalParentUuid",
    ToolUseResult = "toolUseResult",
    IsApiErrorMessage = "isApiErrorMessage",
    RequestId = "requestId",
    CostUsd = "costUSD",
    Cwd = "cwd",
    SessionId = "sessionId",
    Version = "version",
    GitBranch = "gitBranch",
    Slug = "slug",
    Entrypoint = "entrypoint",
    AgentId = "agentId",
    Data = "data",
    ParentToolUseId = "parentToolUseID",
    Id = "id",
    Model = "model",
    Usage = "usage",
    Content = "content",
    InputTokens = "input_tokens",
    OutputTokens = "output_tokens",
    PromptTokens = "prompt_tokens",
    CompletionTokens = "completion_tokens",
    CacheReadInputTokens = "cache_read_input_tokens",
    CacheCreationInputTokens = "cache_creation_input_tokens",
    PromptTokensDetails = "prompt_tokens_details",
    CompletionTokensDetails = "completion_tokens_details",
    ReasoningOutputTokens = "reasoning_output_tokens",
    TotalTokens = "total_tokens",
    Speed = "speed",
    CachedTokens = "cached_tokens",
    ReasoningTokens = "reasoning_tokens",
    Text = "text",
    Thinking = "thinking",
    Name = "name",
    Input = "input",
    ToolUseIdOfResult = "tool_use_id",
    IsError = "is_error",
}

/// A key's bucket in [`TABLE`]: its length and first and last bytes, mixed
/// so that the keys above fall in buckets of their own (a test checks).
const fn bucket(key: &[u8]) -> usize {
    let (first, last) = match key {
        [first, .., last] => (*first as usize, *last as usize),
        [only] => (*only as usize, *only as usize),
        [] => (0, 0),
    };
    key.len().wrapping_add(first.wrapping_mul(22)).wrapping_add(last.wrapping_mul(47)) & (BUCKETS - 1)
}

const BUCKETS: usize = 128;
const NONE: u8 = u8::MAX;

/// Each bucket's key (its index in [`K::ALL`]), [`NONE`] for an empty one.
/// Indexing in a constant initializer cannot panic at run time: out of
/// range, it would not compile.
#[allow(clippy::indexing_slicing)]
const TABLE: [u8; BUCKETS] = {
    let mut table = [NONE; BUCKETS];
    let mut i = 0;
    while i < K::ALL.len() {
        table[bucket(K::ALL[i].name().as_bytes())] = i as u8;
        i += 1;
    }
    table
};

impl K {
    /// The key whose text is `key`, if the reading knows it.
    #[inline]
    pub fn of(key: &[u8]) -> Option<K> {
        let k = *K::ALL.get(usize::from(*TABLE.get(bucket(key))?))?;
        same_bytes(k.name().as_bytes(), key).then_some(k)
    }
}

/// `a == b` for keys, by words: the slice comparison called `memcmp` for
/// each of a record's keys (a tenth of placing them).
#[inline(always)]
pub(super) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let w4 = |s: &[u8], at: usize| s.get(at..at + 4).and_then(|w| <[u8; 4]>::try_from(w).ok()).map(u32::from_le_bytes);
    let w8 = |s: &[u8], at: usize| s.get(at..at + 8).and_then(|w| <[u8; 8]>::try_from(w).ok()).map(u64::from_le_bytes);
    match n {
        0..=3 => a.iter().zip(b).all(|(x, y)| x == y),
        // Two words that overlap when `n` < 8.
        4..=8 => w4(a, 0) == w4(b, 0) && w4(a, n - 4) == w4(b, n - 4),
        _ => {
            let mut at = 0;
            while at + 8 < n {
                if w8(a, at) != w8(b, at) {
                    return false;
                }
                at += 8;
            }
            w8(a, n - 8) == w8(b, n - 8)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{same_bytes, K};

    #[test]
    fn same_bytes_is_slice_equality() {
        let mut words: Vec<Vec<u8>> = K::ALL.iter().map(|k| k.name().as_bytes().to_vec()).collect();
        words.extend(["", "a", "ab", "abc", "abcdefghijklmnopqrstuvwxyz0123456789"].map(|w| w.as_bytes().to_vec()));
        for w in words.clone() {
            // Each byte changed in turn, and the word cut or lengthened by one.
            for i in 0..w.len() {
                let mut v = w.clone();
                v[i] ^= 1;
                assert!(!same_bytes(&w, &v), "{w:?} {v:?}");
            }
            assert!(same_bytes(&w, &w.clone()));
            assert!(!same_bytes(&w, w.get(..w.len().saturating_sub(1)).unwrap()) || w.is_empty());
            assert!(!same_bytes(&w, &[w.as_slice(), b"s"].concat()));
        }
    }

    #[test]
    fn each_key_has_a_bucket_of_its_own() {
        assert!(K::ALL.len() <= 64, "InBytes marks repeats in a u64");
        for (i, k) in K::ALL.iter().enumerate() {
            assert_eq!(*k as usize, i);
            assert_eq!(K::of(k.name().as_bytes()), Some(*k), "{k:?}");
        }
        for other in ["", "t", "typ", "types", "Type", "isSidechain", "userType", "uuid ", "message\0", "tool_use_idx", "agentid", "texts"] {
            assert_eq!(K::of(other.as_bytes()), None, "{other}");
        }
    }
}
