//! The legacy AgentRun text (docent-python 0.1.3a0's `to_text`) of whatever
//! the bytes parse to, whole and split by a token limit with the real
//! cl100k_base tokenizer; plus PyYAML's dump and Python's repr of the bytes
//! read as JSON, the two serialisations the text embeds.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() > fuzz_common::MAX_INPUT {
        return;
    }
    // The length picks a token limit for the split run, so that seeds (whole
    // JSON files) stay valid: even lengths a tiny one (1..=97, under
    // docent-python's 50-token margin too), odd ones up to ~4,000, where
    // small runs fit whole.
    let limit = if data.len() % 2 == 0 { (data.len() % 97) as i64 + 1 } else { (data.len() % 97) as i64 * 40 + 50 };
    fuzz_common::render_all(data, agent_trace_viewer::render::Style::Legacy, Some(limit));
    fuzz_common::render_values(data);
});
