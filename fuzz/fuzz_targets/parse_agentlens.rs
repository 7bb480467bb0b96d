//! The `agentlens` format module, forced (no detection), on arbitrary bytes.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() <= fuzz_common::MAX_INPUT {
        fuzz_common::parse_forced(data, "agentlens");
    }
});
