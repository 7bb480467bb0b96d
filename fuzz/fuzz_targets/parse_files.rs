//! `parse_files`: several files joined into one trace (an OpenHands
//! conversation folder); the input is split into files at `\xFF\x00`.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() <= fuzz_common::MAX_INPUT {
        fuzz_common::parse_as_files(data);
    }
});
