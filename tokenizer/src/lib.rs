//! tiktoken's `cl100k_base` (the encoding Docent counts GPT-4 tokens with),
//! as a small API for agent-trace-viewer: encode ordinary text, decode tokens
//! with replacement characters, count.
//!
//! A crate of its own because the ranks table and the regex engine weigh
//! more than the whole viewer core: the page loads this wasm module only when
//! a token count or limit is asked for (`pkg/tokenizer-*`).

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic))]

use std::sync::OnceLock;

use tiktoken_rs::CoreBPE;

#[cfg(target_arch = "wasm32")]
mod wasm;

/// The encoder, built on first use (parsing the embedded ranks takes a moment).
fn bpe() -> Option<&'static CoreBPE> {
    static BPE: OnceLock<Option<CoreBPE>> = OnceLock::new();
    BPE.get_or_init(|| tiktoken_rs::cl100k_base().ok()).as_ref()
}

/// Tokens of `text` as ordinary text: special-token strings such as
/// `<|endoftext|>` are plain text here (tiktoken's `encode` would raise).
pub fn encode(text: &str) -> Vec<u32> {
    bpe().map(|b| b.encode_ordinary(text)).unwrap_or_default()
}

/// The tokens' bytes as UTF-8 with U+FFFD for invalid sequences
/// (tiktoken's `decode(errors="replace")`); unknown tokens are skipped.
pub fn decode(tokens: &[u32]) -> String {
    let Some(b) = bpe() else { return String::new() };
    let bytes: Vec<u8> = tokens.iter().flat_map(|t| b.decode_bytes(&[*t]).unwrap_or_default()).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

pub fn count(text: &str) -> usize {
    encode(text).len()
}

/// True when the encoder could be built (the embedded table is well-formed).
pub fn ready() -> bool {
    bpe().is_some()
}
