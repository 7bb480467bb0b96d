//! The fast paths against the exact paths on arbitrary bytes: the openai
//! module forced, and detection (whichever format it picks).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() <= fuzz_common::MAX_INPUT {
        fuzz_common::fast_equals_exact(data, Some("openai"));
        fuzz_common::fast_equals_exact(data, None);
    }
});
