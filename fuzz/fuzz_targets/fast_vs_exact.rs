//! The fast paths against the exact paths on arbitrary bytes: the first byte
//! picks a format from the registry to force, and the rest is also parsed
//! with detection (whichever format it picks).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() <= fuzz_common::MAX_INPUT {
        if let Some((format, input)) = fuzz_common::pick_format(data) {
            fuzz_common::fast_equals_exact(input, Some(format));
            fuzz_common::fast_equals_exact(input, None);
        }
    }
});
