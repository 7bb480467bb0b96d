//! Exports for ../passes-wasm.mjs: a buffer to copy the input into, and
//! each byte-level pass over it (what benches/passes.rs times natively).
#![allow(clippy::missing_safety_doc)]

use agent_trace_viewer::{json, source};

/// A buffer of `len` bytes that lives until the module does.
#[no_mangle]
pub extern "C" fn input_buffer(len: usize) -> *mut u8 {
    Vec::leak(vec![0u8; len]).as_mut_ptr()
}

fn input<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    // SAFETY: the caller passes a buffer from `input_buffer` and its length.
    unsafe { std::slice::from_raw_parts(ptr, len) }
}

#[no_mangle]
pub extern "C" fn pass_source_map(ptr: *const u8, len: usize) -> usize {
    source::SourceMap::new(input(ptr, len)).line_count()
}

#[no_mangle]
pub extern "C" fn pass_split(ptr: *const u8, len: usize) -> usize {
    let b = input(ptr, len);
    let s = json::split(b, json::bom_len(b));
    s.values.len() + s.errors.len()
}

#[no_mangle]
pub extern "C" fn pass_utf8(ptr: *const u8, len: usize) -> usize {
    source::invalid_utf8_at(input(ptr, len)).unwrap_or(usize::MAX)
}
