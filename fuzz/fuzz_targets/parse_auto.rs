//! Format detection and whichever format wins, on arbitrary bytes
//! (including gzip and UTF-16 containers).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() <= fuzz_common::MAX_INPUT {
        fuzz_common::parse_detected(data);
    }
});
