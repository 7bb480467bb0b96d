//! Each format module, forced (no detection), on arbitrary bytes: the first
//! byte picks the format from the registry (`format_ids()`), so a new format
//! is fuzzed without a target of its own.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() <= fuzz_common::MAX_INPUT {
        if let Some((format, input)) = fuzz_common::pick_format(data) {
            fuzz_common::parse_forced(input, format);
        }
    }
});
