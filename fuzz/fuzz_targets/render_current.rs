//! The current AgentRun text (docent 0.1.88's `AgentRunView.to_text`) of
//! whatever the bytes parse to, under a context config picked by the input's
//! length (which metadata sections are shown, globs that include and exclude).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() > fuzz_common::MAX_INPUT {
        return;
    }
    // The length picks the config, so that seeds (whole JSON files) stay valid.
    fuzz_common::render_current(data, (data.len() % 32) as u8);
});
