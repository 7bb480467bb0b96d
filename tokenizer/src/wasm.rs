//! The wasm-bindgen surface: `encode`, `decode`, `count`.

use wasm_bindgen::prelude::*;

/// Tokens of `text` (cl100k_base, ordinary text).
#[wasm_bindgen]
pub fn encode(text: &str) -> Vec<u32> {
    crate::encode(text)
}

/// Text of `tokens`, invalid UTF-8 replaced by U+FFFD.
#[wasm_bindgen]
pub fn decode(tokens: &[u32]) -> String {
    crate::decode(tokens)
}

/// Number of cl100k_base tokens in `text`.
#[wasm_bindgen]
pub fn count(text: &str) -> usize {
    crate::count(text)
}

/// Name of the encoding, so callers can check what they loaded.
#[wasm_bindgen(js_name = encodingName)]
pub fn encoding_name() -> String {
    "cl100k_base".to_string()
}
